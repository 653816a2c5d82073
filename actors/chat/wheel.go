package chat

import (
	"math/rand/v2"
	"sync"
	"time"

	"kj/auth"
)

// wheel keeps every socket's heartbeat and idle timeout with one
// goroutine instead of a timer per socket: a ring of slots, one per tick,
// each holding the sockets to look at when the ring reaches it. A visit
// closes a socket silent for IdleTimeout (no frame, no pong), asks its
// writer for a ping when PingPeriod has passed since the last, and puts
// it back in the slot of its next deadline. Sockets are never taken out:
// a visit drops one that has gone.
type wheel struct {
	e    *Engine
	tick time.Duration

	mu    sync.Mutex
	slots [wheelSlots][]*session
	pos   int64 // ticks since start; the slot just visited is pos % wheelSlots
	start time.Time
	quit  chan struct{}
	once  sync.Once
}

const wheelSlots = 512

func newWheel(e *Engine) *wheel {
	w := makeWheel(e)
	go w.run()
	return w
}

// makeWheel returns a wheel that is not turning yet.
//
// A slot's sockets are pinged together, and their pongs come back
// together: the tick bounds that burst. At 500 ms, 10,000 sockets that
// signed in over a few seconds (a load test's fleet, a reconnect storm
// after a deploy) were pinged ~1,400 at a time, every ping period, and
// each burst of writes, pongs and presence refreshes stalled the chat
// traffic beside it for 20-46 ms (an execution trace of W2 at 1,266
// msg/s: the degraded steps were the ones a burst fell in). With first
// pings spread over the period (add), a tick of at most 250 ms pings
// 10,000 sockets ~100 at a time. A finer tick smooths more but costs idle
// CPU, because pings that come apart are written and answered with a
// wakeup each: 18,000 idle sockets (W1) took 1.5 % of a core in bursts,
// 2.5 % at 250 ms and 4.6 % at 50 ms. 512 slots of 250 ms span 128 s.
func makeWheel(e *Engine) *wheel {
	tick := min(e.cfg.PingPeriod, e.cfg.IdleTimeout) / 8
	tick = min(max(tick, 5*time.Millisecond), 250*time.Millisecond)
	return &wheel{e: e, tick: tick, start: time.Now(), quit: make(chan struct{})}
}

// add schedules s's first visit (a new socket). Its first ping comes at a
// random point of the ping period rather than a whole period after it
// connected, and every later one a period after the last: sockets that
// connected together are pinged apart from then on.
func (w *wheel) add(s *session) {
	now := time.Now().UnixNano()
	period := int64(w.e.cfg.PingPeriod)
	s.nextPing = now + 1 + rand.Int64N(period)
	w.schedule(s, s.nextPing)
}

// schedule puts s in the slot of time at (unix ns); beyond the ring's
// span it lands in a slot it will pass again before then.
func (w *wheel) schedule(s *session, at int64) {
	w.mu.Lock()
	ticks := (at - w.start.UnixNano()) / int64(w.tick)
	ticks = min(max(ticks, w.pos+1), w.pos+wheelSlots-1)
	i := ticks % wheelSlots
	w.slots[i] = append(w.slots[i], s)
	w.mu.Unlock()
}

func (w *wheel) run() {
	t := time.NewTicker(w.tick)
	defer t.Stop()
	var due []*session
	for {
		select {
		case <-w.quit:
			return
		case <-t.C:
		}
		target := int64(time.Since(w.start) / w.tick)
		for {
			w.mu.Lock()
			if w.pos >= target {
				w.mu.Unlock()
				break
			}
			w.pos++
			i := w.pos % wheelSlots
			due, w.slots[i] = w.slots[i], due[:0]
			w.mu.Unlock()
			for j, s := range due {
				w.visit(s)
				due[j] = nil
			}
		}
	}
}

// visit does what is due for s and schedules its next visit. A sign-in
// that has expired (weeks after it was made) is noticed at the first visit
// after it, at most a ping period late: one check per visit instead of a
// timer per socket in the runtime's heap, which every timer that fires
// anywhere in the process walks.
func (w *wheel) visit(s *session) {
	if s.torndown.Load() {
		return
	}
	if at := s.expiresAt.Load(); at != 0 && w.e.now() >= at {
		s.kick(auth.ReasonSignedOut)
	}
	cfg := &w.e.cfg
	now := time.Now().UnixNano()
	idleAt := s.lastRead.Load() + int64(cfg.IdleTimeout)
	if now >= idleAt {
		s.teardown()
		return
	}
	if now >= s.nextPing {
		s.nextPing = now + int64(cfg.PingPeriod)
		s.queuePing()
	}
	w.schedule(s, min(s.nextPing, idleAt))
}

func (w *wheel) stop() { w.once.Do(func() { close(w.quit) }) }
