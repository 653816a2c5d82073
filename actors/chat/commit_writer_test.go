package chat

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"kj/internal/bus"
	"kj/internal/clock"
	"kj/internal/presence"
	"kj/storage"
	"kj/storage/storagetest"
)

// sendNode is a chat engine driven without sockets: sends go straight to
// the conversation actors and the answers to a collector, as a session
// actor would receive them.
type sendNode struct {
	t       testing.TB
	e       *Engine
	system  *actor.ActorSystem
	replies *actor.PID
	mu      sync.Mutex
	answers map[string]chan *asyncReply // opID -> answer
	batches atomic.Int64
	convMax atomic.Int64 // most conversations seen in one writer transaction
}

func newSendNode(t testing.TB, db storage.DB, cfg Config) *sendNode {
	t.Helper()
	n := &sendNode{t: t, answers: map[string]chan *asyncReply{}}
	n.system = actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.DiscardHandler)
	}))
	clk := clock.NewFake(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
	cfg.NodeID = "writer-test"
	n.e = New(Deps{DB: db, Bus: bus.NewMemory(), Clock: clk, Presence: presence.NewMemory(clk), Actors: n.system,
		Log: slog.New(slog.NewTextHandler(testLog{t}, nil))}, cfg)
	n.e.commits.writer.onBatch = func(convs, _ int) {
		n.batches.Add(1)
		for {
			cur := n.convMax.Load()
			if int64(convs) <= cur || n.convMax.CompareAndSwap(cur, int64(convs)) {
				break
			}
		}
	}
	n.replies = n.system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if r, ok := ctx.Message().(*asyncReply); ok {
			n.mu.Lock()
			ch := n.answers[r.opID]
			n.mu.Unlock()
			ch <- r
		}
	}))
	t.Cleanup(n.close)
	return n
}

func (n *sendNode) close() {
	if n.e == nil {
		return
	}
	n.e.Close()
	n.system.Shutdown()
	n.e = nil
}

// send hands a text of from to the 1:1 chat with to and returns where its
// answer arrives.
func (n *sendNode) send(from, to int64, clientID, text string) chan *asyncReply {
	m := &Message{ClientMsgID: clientID, SendID: storage.FormatID(from), RecvID: storage.FormatID(to),
		SessionType: sessionSingle, MsgFrom: msgFromUser, ContentType: TypeText, CreateTime: 1,
		Content: `{"content":"` + text + `"}`, TextElem: &TextElem{Content: text}}
	op := fmt.Sprintf("%s-%d", clientID, storage.NewID())
	ch := make(chan *asyncReply, 1)
	n.mu.Lock()
	n.answers[op] = ch
	n.mu.Unlock()
	ref, _ := parseConversationID(singleConversationID(m.SendID, m.RecvID))
	n.e.tellConversation(ref, &sendRequest{item: &sendItem{msg: m, reply: replyTo{pid: n.replies, name: "SendMessage", opID: op}, started: time.Now()}})
	return ch
}

// acked waits for an answer and returns the stored message.
func acked(t testing.TB, ch chan *asyncReply) *Message {
	t.Helper()
	select {
	case r := <-ch:
		if r.err != nil {
			t.Fatalf("send refused: %v", r.err)
		}
		return r.data.(*Message)
	case <-time.After(4 * waitFor): // a burst of thousands on SQLite under -race on a busy machine
		t.Fatal("no answer to a send")
		return nil
	}
}

func makeUsers(t testing.TB, db storage.DB, n int) []int64 {
	t.Helper()
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = storage.NewID()
		u := storage.User{ID: ids[i], Account: fmt.Sprintf("w%d", ids[i]), PasswordHash: "x", Nickname: "u",
			InviteCode: fmt.Sprintf("pro_%d", ids[i]), CreatedAt: 1, UpdatedAt: 1}
		if err := storage.CreateUser(context.Background(), db, u); err != nil {
			t.Fatal(err)
		}
	}
	return ids
}

// storedConversation checks a conversation's stored seqs are 1..n without a
// gap or a duplicate and returns its messages by clientMsgID.
func storedConversation(t testing.TB, db storage.DB, user int64, conv string, n int) map[string]storage.ChatMessage {
	t.Helper()
	page, _, err := storage.ChatMessagesPage(context.Background(), db, storage.ChatPage{UserID: user, ConversationID: conv, Limit: 10 * n})
	if err != nil {
		t.Fatal(err)
	}
	if len(page) != n {
		t.Fatalf("%s: %d messages stored, want %d", conv, len(page), n)
	}
	out := map[string]storage.ChatMessage{}
	for i, m := range page {
		if m.Seq != int64(i+1) {
			t.Fatalf("%s: seq %d at position %d", conv, m.Seq, i)
		}
		if _, dup := out[m.ClientMsgID]; dup {
			t.Fatalf("%s: clientMsgID %s stored twice", conv, m.ClientMsgID)
		}
		out[m.ClientMsgID] = m
	}
	c, err := storage.ChatConversationByID(context.Background(), db, conv)
	if err != nil || c.MaxSeq != int64(n) {
		t.Fatalf("%s: max seq %d (%v), want %d", conv, c.MaxSeq, err, n)
	}
	return out
}

// Many conversations sending at once: every message is stored exactly
// once, each sender's messages in the order sent, seqs gapless; resends
// (while pending, after the ack, and to a fresh engine that has to find
// them in the store) get the original answer; and the writer really put
// several conversations in one transaction.
func TestWriterExactlyOnceInOrderAcrossConversations(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		const pairs, each = 25, 20
		users := makeUsers(t, db, 2*pairs)
		n := newSendNode(t, db, Config{Writers: 2})
		type sent struct {
			from, to int64
			client   string
			ch, re   chan *asyncReply
		}
		lists := make([][]sent, 2*pairs)
		var wg sync.WaitGroup
		for u := range users {
			wg.Add(1)
			go func() {
				defer wg.Done()
				from, to := users[u], users[u^1]
				for i := range each {
					s := sent{from: from, to: to, client: fmt.Sprintf("c%d-%d", from, i)}
					s.ch = n.send(from, to, s.client, fmt.Sprint(i))
					if i%5 == 0 { // a resend while the first may still be pending
						s.re = n.send(from, to, s.client, fmt.Sprint(i))
					}
					lists[u] = append(lists[u], s)
				}
			}()
		}
		wg.Wait()
		for u := range lists {
			last := int64(0)
			for i, s := range lists[u] {
				m := acked(t, s.ch)
				if m.Seq <= last {
					t.Fatalf("user %d message %d: seq %d after %d (out of order)", u, i, m.Seq, last)
				}
				last = m.Seq
				if s.re != nil {
					if r := acked(t, s.re); r.Seq != m.Seq || r.ServerMsgID != m.ServerMsgID {
						t.Fatalf("resend got seq %d %s, first %d %s", r.Seq, r.ServerMsgID, m.Seq, m.ServerMsgID)
					}
				}
				lists[u][i].client = s.client + "@" + fmt.Sprint(m.Seq)
			}
		}
		if n.convMax.Load() < 2 {
			t.Fatalf("no writer transaction held more than one conversation (%d batches)", n.batches.Load())
		}
		for p := range pairs {
			a, b := users[2*p], users[2*p+1]
			stored := storedConversation(t, db, a, singleConversationID(storage.FormatID(a), storage.FormatID(b)), 2*each)
			for _, u := range []int{2 * p, 2*p + 1} {
				for i, s := range lists[u] {
					id := fmt.Sprintf("c%d-%d", s.from, i)
					if m, ok := stored[id]; !ok || s.client != id+"@"+fmt.Sprint(m.Seq) {
						t.Fatalf("%s: acknowledged as %s, stored %+v", id, s.client, m)
					}
				}
			}
		}

		// A fresh engine (no memory of recent sends) finds resends in the
		// store: the same answers, nothing written.
		n.close()
		n2 := newSendNode(t, db, Config{Writers: 2})
		a, b := users[0], users[1]
		var chans []chan *asyncReply
		for i := range each {
			chans = append(chans, n2.send(a, b, fmt.Sprintf("c%d-%d", a, i), fmt.Sprint(i)))
		}
		conv := singleConversationID(storage.FormatID(a), storage.FormatID(b))
		stored := storedConversation(t, db, a, conv, 2*each)
		for i, ch := range chans {
			m := acked(t, ch)
			want := stored[fmt.Sprintf("c%d-%d", a, i)]
			if m.Seq != want.Seq || m.ServerMsgID != want.ServerMsgID {
				t.Fatalf("resend %d after restart: seq %d, stored %d", i, m.Seq, want.Seq)
			}
		}
		storedConversation(t, db, a, conv, 2*each)
		// And a new message after them continues the seqs.
		if m := acked(t, n2.send(b, a, "after-restart", "x")); m.Seq != 2*each+1 {
			t.Fatalf("next seq %d, want %d", m.Seq, 2*each+1)
		}
	})
}

// A conversation whose message the store refuses fails alone: its sender
// hears "busy" (and may resend), the other conversations of the same
// transaction commit and are answered normally.
func TestWriterFailureStaysWithItsConversation(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		if db.Dialect() == storage.Postgres {
			for _, q := range []string{`CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS
				$$ BEGIN RAISE EXCEPTION 'poison'; END $$`,
				`CREATE TRIGGER refuse_poison BEFORE INSERT ON chat_messages FOR EACH ROW
				WHEN (NEW.content LIKE '%poison%') EXECUTE FUNCTION refuse_poison()`} {
				if _, err := db.Exec(ctx, q); err != nil {
					t.Fatal(err)
				}
			}
		} else if _, err := db.Exec(ctx, `CREATE TRIGGER refuse_poison BEFORE INSERT ON chat_messages
			WHEN NEW.content LIKE '%poison%' BEGIN SELECT RAISE(ABORT, 'poison'); END`); err != nil {
			t.Fatal(err)
		}
		users := makeUsers(t, db, 6)
		n := newSendNode(t, db, Config{Writers: 1})
		var jobs []*writeJob
		reports := make(chan *sendsDone, 3)
		for p, text := range []string{"fine", "poison", "fine too"} {
			a, b := users[2*p], users[2*p+1]
			ref, _ := parseConversationID(singleConversationID(storage.FormatID(a), storage.FormatID(b)))
			m := &Message{ClientMsgID: fmt.Sprintf("m%d", p), SendID: storage.FormatID(a), RecvID: storage.FormatID(b),
				SessionType: sessionSingle, MsgFrom: msgFromUser, ContentType: TypeText, CreateTime: 1, Content: `{"content":"` + text + `"}`}
			jobs = append(jobs, &writeJob{spec: convSpec{id: ref.ID, kind: sessionSingle, a: ref.A, b: ref.B},
				items: []*sendItem{{msg: m}}, report: func(d *sendsDone) { reports <- d }})
		}
		n.e.commits.writer.commit(jobs) // the three in one transaction
		for i, j := range jobs {
			r := j.done.results[0]
			if i == 1 {
				if r.err == nil || r.msg != nil {
					t.Fatalf("the refused message was answered %+v", r)
				}
				continue
			}
			if r.err != nil || r.msg == nil || r.msg.Seq != 1 {
				t.Fatalf("conversation %d: %+v", i, r)
			}
			storedConversation(t, db, users[2*i], j.spec.id, 1)
		}
		if len(reports) != 3 {
			t.Fatalf("%d of 3 jobs reported", len(reports))
		}
	})
}

// Two engines (two nodes) on one PostgreSQL writing the same conversations
// at once keep each conversation's seqs gapless and unique, and every
// acknowledged message is stored with the seq it was acknowledged with.
func TestWriterTwoNodesKeepSeqsGapless(t *testing.T) {
	db := storagetest.Postgres(t)
	const pairs, each = 4, 60
	users := makeUsers(t, db, 2*pairs)
	nodes := []*sendNode{newSendNode(t, db, Config{Writers: 2}), newSendNode(t, db, Config{Writers: 3})}
	type ack struct {
		client string
		seq    int64
	}
	var mu sync.Mutex
	var acks []ack
	var wg sync.WaitGroup
	for ni, n := range nodes {
		for u := range users {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var chans []chan *asyncReply
				var ids []string
				for i := range each {
					id := fmt.Sprintf("n%d-u%d-%d", ni, u, i)
					ids = append(ids, id)
					chans = append(chans, n.send(users[u], users[u^1], id, id))
				}
				for i, ch := range chans {
					m := acked(t, ch)
					mu.Lock()
					acks = append(acks, ack{ids[i], m.Seq})
					mu.Unlock()
				}
			}()
		}
	}
	wg.Wait()
	stored := map[string]storage.ChatMessage{}
	for p := range pairs {
		a, b := users[2*p], users[2*p+1]
		for k, m := range storedConversation(t, db, a, singleConversationID(storage.FormatID(a), storage.FormatID(b)), 2*2*each) {
			stored[k] = m
		}
	}
	for _, a := range acks {
		if m, ok := stored[a.client]; !ok || m.Seq != a.seq {
			t.Fatalf("%s acknowledged with seq %d, stored %+v", a.client, a.seq, m)
		}
	}
}

// testLog shows the engine's log lines in the test's output.
type testLog struct{ t testing.TB }

func (w testLog) Write(b []byte) (int, error) { w.t.Log(string(b)); return len(b), nil }

// The writer's schedule (take, without workers or a store): an idle
// writer starts a transaction at once; one in flight keeps the queue for
// its next round trip unless the queue outgrows it; a busy writer lingers
// before a small batch, and only one worker does.
func TestWriterTakeSchedule(t *testing.T) {
	w := &writer{e: &Engine{cfg: Config{WriterBatch: 1024}}, max: 2, wake: make(chan struct{}, 1)}
	job := func(n int) *writeJob { return &writeJob{items: make([]*sendItem, n)} }
	drain := func() {
		select {
		case <-w.wake:
		default:
		}
	}

	// Idle, no rate yet: the first send goes at once.
	w.submit(job(1))
	jobs, n, linger := w.take(0, false)
	if len(jobs) != 1 || n != 1 || linger != 0 {
		t.Fatalf("idle writer: %d jobs, %d msgs, linger %v", len(jobs), n, linger)
	}
	// In flight: a few more wait for its round trip, on any worker.
	for range 5 {
		w.submit(job(2))
	}
	if jobs, _, linger := w.take(0, false); jobs != nil || linger != 0 {
		t.Fatalf("second worker took %d jobs (linger %v) beside a transaction in flight", len(jobs), linger)
	}
	// Its commit ends: the same worker takes all of them.
	jobs, n, _ = w.take(1, false)
	if len(jobs) != 5 || n != 10 || w.running != 1 || w.carrying != 10 {
		t.Fatalf("after the commit: %d jobs, %d msgs; running %d carrying %d", len(jobs), n, w.running, w.carrying)
	}
	// A backlog past spillMin and past what is in flight starts a second
	// transaction, and its worker is woken.
	drain()
	for range spillMin {
		w.submit(job(1))
	}
	if jobs, n, _ := w.take(0, false); len(jobs) != spillMin || n != spillMin || w.running != 2 {
		t.Fatalf("backlog of %d: %d jobs taken, running %d", spillMin, len(jobs), w.running)
	}
	// Both end; the writer is idle again.
	w.take(10, false)
	w.take(spillMin, false)
	if w.running != 0 || w.carrying != 0 || w.queued != 0 {
		t.Fatalf("idle: running %d carrying %d queued %d", w.running, w.carrying, w.queued)
	}

	// The rate is counted over a window of at least rateWindow: 5 sends
	// in it read as their rate, whatever their spacing.
	w.winStart, w.arrived = time.Now().Add(-2*rateWindow), 0
	for range 5 {
		w.submit(job(1))
	}
	w.take(0, false)
	if want := 5 / (2 * rateWindow).Seconds(); w.rate > want || w.rate < want/2 {
		t.Fatalf("5 sends over %v: rate %.0f, want about %.0f", 2*rateWindow, w.rate, want)
	}
	w.take(5, false)
	// Below lingerMinRate a small batch never waits.
	w.winStart = time.Now().Add(time.Hour)
	w.rate = lingerMinRate / 2
	w.submit(job(1))
	if jobs, _, linger := w.take(0, false); len(jobs) != 1 || linger != 0 {
		t.Fatalf("at %.0f msg/s: %d jobs, linger %v", w.rate, len(jobs), linger)
	}
	w.take(1, false)
	// Busy: a small batch lingers, at most lingerMax; meanwhile no other
	// worker starts one; then the lingering worker takes everything. (The
	// rate's window does not close during the test: the rate stays set.)
	w.winStart = time.Now().Add(time.Hour)
	w.rate = 4 * lingerMinRate
	w.submit(job(1))
	_, _, linger = w.take(0, false)
	if linger <= 0 || linger > lingerMax {
		t.Fatalf("at %.0f msg/s: linger %v, want (0, %v]", w.rate, linger, lingerMax)
	}
	w.submit(job(1))
	if jobs, _, l := w.take(0, false); jobs != nil || l != 0 {
		t.Fatalf("another worker took %d jobs (linger %v) during a linger", len(jobs), l)
	}
	jobs, n, linger = w.take(0, true)
	if len(jobs) != 2 || n != 2 || linger != 0 || w.running != 1 {
		t.Fatalf("after the linger: %d jobs, %d msgs, linger %v, running %d", len(jobs), n, linger, w.running)
	}
	w.take(2, false)
	// A batch of lingerBatch or more goes at once, busy or not.
	for range lingerBatch {
		w.submit(job(1))
	}
	if jobs, _, linger := w.take(0, false); len(jobs) != lingerBatch || linger != 0 {
		t.Fatalf("full batch: %d jobs, linger %v", len(jobs), linger)
	}
}
