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
	var batchMu sync.Mutex
	var batches, convs int
	n.e.commits.writer.onBatch = func(c, _ int) {
		batchMu.Lock()
		batches++
		convs += c
		batchMu.Unlock()
	}
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
	batchMu.Lock()
	defer batchMu.Unlock()
	if batches > 0 {
		b.ReportMetric(float64(b.N)/float64(batches), "msgs/batch")
		b.ReportMetric(float64(convs)/float64(batches), "convs/batch")
	}
}
