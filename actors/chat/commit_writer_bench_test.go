package chat

import (
	"fmt"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"kj/storage"
	"kj/storage/storagetest"
)

// BenchmarkChatWriter is the chat writer alone on PostgreSQL (fsync on):
// many 1:1 conversations, each with one send in flight at a time — what
// conversation actors hand the writer under W2's traffic, where a pair
// rarely has a second message waiting. A send is acknowledged when the
// transaction holding it has committed.
//
//	go test -run '^$' -bench ChatWriter -benchmem -benchtime 200000x ./actors/chat/
func BenchmarkChatWriter(b *testing.B) {
	for _, c := range []struct{ writers, inflight int }{{1, 2048}, {2, 2048}, {4, 2048}, {2, 256}} {
		db := storagetest.Postgres(b)
		var pair atomic.Int64
		b.Run(fmt.Sprintf("writers=%d/inflight=%d", c.writers, c.inflight), func(b *testing.B) {
			benchChatWriter(b, db, &pair, c.writers, c.inflight)
		})
	}
}

func benchChatWriter(b *testing.B, db storage.DB, pair *atomic.Int64, writers, inflight int) {
	n := newSendNode(b, db, Config{Writers: writers})
	defer n.close()
	batches := countBatches(n.e.commits.writer)
	var latMu sync.Mutex
	var lat []time.Duration
	var failed atomic.Int64
	b.SetParallelism(max(1, inflight/runtime.GOMAXPROCS(0)))
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		// This goroutine is one conversation: a pair of users of its own.
		p := pair.Add(1)
		a, c := 2*p+1, 2*p+2
		ref, _ := parseConversationID(singleConversationID(storage.FormatID(a), storage.FormatID(c)))
		spec := convSpec{id: ref.ID, kind: sessionSingle, a: ref.A, b: ref.B}
		reports := make(chan *sendsDone, 1)
		var mine []time.Duration
		for i := 0; pb.Next(); i++ {
			from, to := a, c
			if i%2 == 1 {
				from, to = c, a
			}
			m := &Message{ClientMsgID: fmt.Sprintf("b%d-%d", p, i), SendID: storage.FormatID(from), RecvID: storage.FormatID(to),
				SessionType: sessionSingle, MsgFrom: msgFromUser, ContentType: TypeText, CreateTime: 1,
				SenderNickname: "benchmark user", Content: `{"content":"a message of about sixty characters, as people write"}`}
			t0 := time.Now()
			n.e.commits.writer.submit(&writeJob{spec: spec, items: []*sendItem{{msg: m}}, report: func(d *sendsDone) { reports <- d }})
			d := <-reports
			mine = append(mine, time.Since(t0))
			if d.results[0].err != nil {
				failed.Add(1)
				continue
			}
			spec.rowsReady = true
		}
		latMu.Lock()
		lat = append(lat, mine...)
		latMu.Unlock()
	})
	elapsed := time.Since(start)
	b.StopTimer()
	if f := failed.Load(); f > 0 {
		b.Fatalf("%d sends failed", f)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "msgs/s")
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)])/float64(time.Millisecond), "p99-ack-ms")
	}
	if txs, convs, _ := batches.totals(); txs > 0 {
		b.ReportMetric(float64(b.N)/float64(txs), "msgs/batch")
		b.ReportMetric(float64(convs)/float64(txs), "convs/batch")
	}
}

// BenchmarkChatWriterRate is the chat writer alone on PostgreSQL (fsync
// on) at a fixed offered rate, as W2's steps offer it: sends arrive on
// their own clock over 5,000 conversations, whatever the acks, each
// conversation with at most one send in flight (a send due on a busy one
// goes to the next). It reports the transactions' size, the ack latency
// and PostgreSQL's CPU per message (its processes on this machine, from
// /proc: the server must be local), the figure W2 costs at 2,000 msg/s.
//
//	go test -run '^$' -bench ChatWriterRate -benchtime 20000x ./actors/chat/
func BenchmarkChatWriterRate(b *testing.B) {
	for _, rate := range []int{250, 2000, 10000} {
		db := storagetest.Postgres(b)
		var n *sendNode
		var specs []convSpec
		b.Run(fmt.Sprintf("rate=%d", rate), func(sb *testing.B) {
			if n == nil { // the node outlives the sub-benchmark's first, short run
				n = newSendNode(b, db, Config{})
				specs = warmConversations(sb, n, 5000)
			}
			benchChatWriterRate(sb, n, specs, rate)
		})
		if n != nil {
			n.close()
		}
	}
}

// warmConversations makes count 1:1 conversations with one message each,
// so the measured sends find their rows (as W2's do after its warm-up).
func warmConversations(b *testing.B, n *sendNode, count int) []convSpec {
	specs := make([]convSpec, count)
	reports := make(chan *sendsDone, count)
	for p := range specs {
		a, c := int64(2*p+1), int64(2*p+2)
		ref, _ := parseConversationID(singleConversationID(storage.FormatID(a), storage.FormatID(c)))
		specs[p] = convSpec{id: ref.ID, kind: sessionSingle, a: ref.A, b: ref.B}
		n.e.commits.writer.submit(&writeJob{spec: specs[p], items: []*sendItem{{msg: benchMessage(a, c, "warm")}},
			report: func(d *sendsDone) { reports <- d }})
	}
	for range specs {
		if d := <-reports; d.results[0].err != nil {
			b.Fatal(d.results[0].err)
		}
	}
	for p := range specs {
		specs[p].rowsReady = true
	}
	return specs
}

func benchMessage(from, to int64, client string) *Message {
	return &Message{ClientMsgID: client, SendID: storage.FormatID(from), RecvID: storage.FormatID(to),
		SessionType: sessionSingle, MsgFrom: msgFromUser, ContentType: TypeText, CreateTime: 1,
		SenderNickname: "benchmark user", Content: `{"content":"a message of about sixty characters, as people write"}`}
}

var benchRateRun atomic.Int64

func benchChatWriterRate(b *testing.B, n *sendNode, specs []convSpec, rate int) {
	run := benchRateRun.Add(1)
	batches := countBatches(n.e.commits.writer)
	busy := make([]atomic.Bool, len(specs))
	lat := make([]time.Duration, 0, b.N)
	var latMu sync.Mutex
	var pending sync.WaitGroup
	var failed atomic.Int64
	pg0, self0 := storagetest.BackendCPU(b, n.e.db), processCPU()
	b.ResetTimer()
	start := time.Now()
	interval := time.Second / time.Duration(rate)
	next := 0
	for i := 0; i < b.N; i++ {
		due := start.Add(time.Duration(i) * interval)
		if d := time.Until(due); d > 0 {
			time.Sleep(d)
		}
		for busy[next].Load() {
			next = (next + 1) % len(specs)
		}
		p := next
		next = (next + 1) % len(specs)
		busy[p].Store(true)
		pending.Add(1)
		a, c := int64(2*p+1), int64(2*p+2)
		n.e.commits.writer.submit(&writeJob{spec: specs[p],
			items: []*sendItem{{msg: benchMessage(a, c, fmt.Sprintf("r%d-%d", run, i))}},
			report: func(d *sendsDone) {
				if d.results[0].err != nil {
					failed.Add(1)
				}
				l := time.Since(due)
				latMu.Lock()
				lat = append(lat, l)
				latMu.Unlock()
				busy[p].Store(false)
				pending.Done()
			}})
	}
	pending.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	self := processCPU() - self0
	pg1 := storagetest.BackendCPU(b, n.e.db)
	pg := storagetest.BackendCPUSince(pg0, pg1)
	if f := failed.Load(); f > 0 {
		b.Fatalf("%d sends failed", f)
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "msgs/s")
	b.ReportMetric(float64(lat[len(lat)/2])/float64(time.Millisecond), "p50-ack-ms")
	b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)])/float64(time.Millisecond), "p99-ack-ms")
	if pg1 != nil {
		b.ReportMetric(float64(pg.Microseconds())/float64(b.N), "pg-cpu-us/msg")
	}
	b.ReportMetric(float64(self.Microseconds())/float64(b.N), "cpu-us/msg")
	if txs, _, msgs := batches.totals(); txs > 0 {
		b.ReportMetric(float64(msgs)/float64(txs), "msgs/batch")
	}
}

// batchCount counts a writer's transactions and what they carried.
type batchCount struct {
	mu                   sync.Mutex
	batches, convs, msgs int
}

// countBatches counts w's transactions from now on.
func countBatches(w *writer) *batchCount {
	c := &batchCount{}
	w.onBatch = func(convs, msgs int) {
		c.mu.Lock()
		c.batches, c.convs, c.msgs = c.batches+1, c.convs+convs, c.msgs+msgs
		c.mu.Unlock()
	}
	return c
}

// totals is the transactions so far, their conversations and messages.
func (c *batchCount) totals() (batches, convs, msgs int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.batches, c.convs, c.msgs
}
