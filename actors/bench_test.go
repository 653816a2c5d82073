package actors

import (
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
)

// Workload W7 of docs/PERFORMANCE.md: the actor core alone. Targets: ≥ 2M
// tells/s, ≤ 2 KB per idle actor.

func quietSystem() *actor.ActorSystem {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	return actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet }))
}

// counter is the cheapest useful actor: it counts what it receives and
// says when it has seen want messages.
type counter struct {
	seen int64
	want int64
	done chan struct{}
}

type tick struct{}

func (c *counter) Receive(ctx actor.Context) {
	if _, ok := ctx.Message().(*tick); ok {
		c.seen++
		if c.seen == c.want {
			close(c.done)
		}
	}
}

// BenchmarkW7Tell measures fire-and-forget sends (Tell = root.Send) into
// actors' mailboxes and their processing, end to end: the clock stops when
// the last actor has handled its last message. senders goroutines each
// send to their own actor (the engine's shape: many sockets, each feeding
// its session actor); the message is preallocated so the figure is the
// actor core's, not the allocator's.
func BenchmarkW7Tell(b *testing.B) {
	for _, senders := range []int{1, runtime.GOMAXPROCS(0), 64} {
		b.Run(fmt.Sprintf("senders=%d", senders), func(b *testing.B) {
			sys := quietSystem()
			defer sys.Shutdown()
			per := int64(b.N/senders + 1)
			pids := make([]*actor.PID, senders)
			counters := make([]*counter, senders)
			for i := range senders {
				c := &counter{want: per, done: make(chan struct{})}
				counters[i] = c
				pids[i] = sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return c }))
			}
			msg := &tick{}
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			for i := range senders {
				wg.Add(1)
				go func() {
					defer wg.Done()
					pid := pids[i]
					for range per {
						sys.Root.Send(pid, msg)
					}
				}()
			}
			wg.Wait()
			for _, c := range counters {
				<-c.done
			}
			took := time.Since(start)
			b.StopTimer()
			b.ReportMetric(float64(per*int64(senders))/took.Seconds(), "msgs/s")
		})
	}
}

// BenchmarkW7RequestReply is the request/response shape (Request with a
// future), which the engine avoids on hot paths; shown for comparison.
func BenchmarkW7RequestReply(b *testing.B) {
	sys := quietSystem()
	defer sys.Shutdown()
	pid := sys.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*tick); ok {
			ctx.Respond(ctx.Message())
		}
	}))
	msg := &tick{}
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		if _, err := sys.Root.RequestFuture(pid, msg, time.Second).Result(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "msgs/s")
}

// idle is an actor holding nothing, the floor every actor kind pays. It
// counts its start in a global, so the benchmark knows every actor has
// handled Started (and is idle) without the actor holding a field.
type idle struct{}

var idleStarted atomic.Int64

func (idle) Receive(ctx actor.Context) {
	if _, ok := ctx.Message().(*actor.Started); ok {
		idleStarted.Add(1)
	}
}

// BenchmarkW7IdleActorSize spawns 100,000 idle actors and reports the Go
// heap they hold each (after a full collection, so only what stays live
// counts): process registry entry, PID, mailbox, context and the actor.
func BenchmarkW7IdleActorSize(b *testing.B) {
	const n = 100_000
	for range b.N {
		idleStarted.Store(0)
		sys := quietSystem()
		props := actor.PropsFromProducer(func() actor.Actor { return idle{} })
		// Warm the registry and the system's first allocations.
		for range 1000 {
			sys.Root.Spawn(props)
		}
		before := heapLive()
		pids := make([]*actor.PID, n)
		for i := range pids {
			pids[i] = sys.Root.Spawn(props)
		}
		// Wait until every actor has handled Started: then all are idle.
		for idleStarted.Load() < n+1000 {
			runtime.Gosched()
		}
		after := heapLive()
		runtime.KeepAlive(pids)
		b.ReportMetric(float64(after-before)/n, "bytes/actor")
		sys.Shutdown()
	}
}

func heapLive() int64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
