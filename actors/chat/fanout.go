package chat

import (
	"sync"
	"time"
)

// flusher tells user actors to apply their pending events once per
// coalescing window. A user is listed once however many events it gets
// in a window (userEntry.flushDue), so a burst of posts into a group costs
// each member one actor message, not one per post. One goroutine serves
// the node; it is parked while nothing is due.
type flusher struct {
	e      *Engine
	window time.Duration

	mu    sync.Mutex
	due   []*userEntry
	spare []*userEntry
	wake  chan struct{}
	quit  chan struct{}
	once  sync.Once
}

func newFlusher(e *Engine, window time.Duration) *flusher {
	f := &flusher{e: e, window: window, wake: make(chan struct{}, 1), quit: make(chan struct{})}
	if window > 0 {
		go f.run()
	}
	return f
}

// add lists u for the next flush.
func (f *flusher) add(u *userEntry) {
	if f.window <= 0 {
		f.e.root.Send(u.pid, u)
		return
	}
	f.mu.Lock()
	f.due = append(f.due, u)
	first := len(f.due) == 1
	f.mu.Unlock()
	if first {
		select {
		case f.wake <- struct{}{}:
		default:
		}
	}
}

func (f *flusher) run() {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for {
		select {
		case <-f.quit:
			return
		case <-f.wake:
		}
		// The window starts with the first change: what arrives within it
		// is taken in by the same flush.
		timer.Reset(f.window)
		select {
		case <-f.quit:
			timer.Stop()
			return
		case <-timer.C:
		}
		f.mu.Lock()
		due := f.due
		f.due, f.spare = f.spare, nil
		f.mu.Unlock()
		for _, u := range due {
			f.e.root.Send(u.pid, u)
		}
		clear(due)
		f.mu.Lock()
		f.spare = due[:0]
		f.mu.Unlock()
	}
}

func (f *flusher) stop() { f.once.Do(func() { close(f.quit) }) }

// writerPool writes sockets' queued frames. A socket with frames waiting
// is listed once (session.writing) and a parked writer takes it, writes
// everything queued in as few system calls as it can, and goes back for
// the next socket. The writers live as long as the engine, so a burst
// starts no goroutine and grows no fresh stack, and an idle socket holds
// no writer at all. A socket whose peer stops reading holds a writer for
// at most WriteTimeout before it is dropped; there are Config.SocketWriters of
// them so that a few such sockets do not hold up the others.
type writerPool struct {
	mu      sync.Mutex
	cond    *sync.Cond
	ready   []*session
	head    int
	stopped bool
}

func newWriterPool(n int) *writerPool {
	p := &writerPool{}
	p.cond = sync.NewCond(&p.mu)
	for range n {
		go p.work()
	}
	return p
}

// add hands a socket with frames waiting to a writer.
func (p *writerPool) add(s *session) {
	p.mu.Lock()
	p.ready = append(p.ready, s)
	p.mu.Unlock()
	p.cond.Signal()
}

func (p *writerPool) work() {
	for {
		p.mu.Lock()
		for p.head == len(p.ready) && !p.stopped {
			p.cond.Wait()
		}
		if p.stopped {
			p.mu.Unlock()
			return
		}
		s := p.ready[p.head]
		p.ready[p.head] = nil
		p.head++
		if p.head == len(p.ready) {
			p.ready, p.head = p.ready[:0], 0
		}
		p.mu.Unlock()
		s.writeLoop()
	}
}

func (p *writerPool) stop() {
	p.mu.Lock()
	p.stopped = true
	p.mu.Unlock()
	p.cond.Broadcast()
}
