package chat

import (
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// recorder keeps what its actor received, in order; it panics once on
// the message crash, so the mailbox must escalate, suspend for the
// restart and resume with the messages behind it.
type recorder struct {
	mu   *sync.Mutex
	got  *[]any
	done chan struct{}
	want int
}

type crash struct{}

func (r *recorder) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *crash:
		panic("crash")
	case [2]int:
		r.mu.Lock()
		*r.got = append(*r.got, m)
		if len(*r.got) == r.want {
			close(r.done)
		}
		r.mu.Unlock()
	}
}

func TestSmallMailboxDeliversEverythingInOrderThroughARestart(t *testing.T) {
	system := actor.NewActorSystem()
	const senders, each = 4, 500
	var mu sync.Mutex
	var got []any
	done := make(chan struct{})
	restarts := 0
	props := actor.PropsFromProducer(func() actor.Actor {
		mu.Lock()
		restarts++
		mu.Unlock()
		return &recorder{mu: &mu, got: &got, done: done, want: senders * each}
	}, actor.WithMailbox(newSmallMailbox))
	pid := system.Root.Spawn(props)
	var wg sync.WaitGroup
	for s := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				if s == 0 && i == each/2 {
					system.Root.Send(pid, &crash{})
				}
				system.Root.Send(pid, [2]int{s, i})
			}
		}()
	}
	wg.Wait()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("%d of %d messages arrived", len(got), senders*each)
	}
	mu.Lock()
	defer mu.Unlock()
	next := make([]int, senders)
	for _, m := range got {
		p := m.([2]int)
		if p[1] != next[p[0]] {
			t.Fatalf("sender %d: message %d arrived when %d was due", p[0], p[1], next[p[0]])
		}
		next[p[0]]++
	}
	if restarts != 2 {
		t.Fatalf("actor made %d times, want 2 (started, restarted once)", restarts)
	}
}

// A message that waits alone needs no slice; a burst's slice is kept
// for the next one while small.
func TestFifoKeepsOneMessageInline(t *testing.T) {
	var q fifo
	q.push(1)
	if q.more != nil {
		t.Fatal("one message allocated a slice")
	}
	for i := 2; i <= 5; i++ {
		q.push(i)
	}
	for want := 1; want <= 5; want++ {
		if got := q.pop(); got != want {
			t.Fatalf("popped %v, want %d", got, want)
		}
	}
	if q.pop() != nil || q.one != nil || len(q.more) != 0 || cap(q.more) == 0 {
		t.Fatalf("drained queue: one %v, more len %d cap %d", q.one, len(q.more), cap(q.more))
	}
}
