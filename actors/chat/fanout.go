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
//
// A quiet user's change does not wait for a window: a user not flushed
// within the last window (and interval) is told at once, from add, and
// only the changes that follow within the window are gathered. The
// window is there for bursts; a lone 1:1 message otherwise waited it out
// on every delivery (4-5 ms between W2's ack and delivery medians).
//
// A user flushed less than interval ago waits until interval has passed
// since that flush: a member of a busy group then gets the posts of each
// interval in one write with one conversation frame, instead of a write
// and a conversation frame per post (on a loopback socket the write costs
// as much as everything else a delivery does). A quiet user, whose last
// flush is older than interval, gets its change at once (above).
// The held users wait on a wheel of window-long slots.
type flusher struct {
	window   time.Duration
	interval time.Duration
	send     func(*userEntry) // tells the user actor to flush

	mu    sync.Mutex
	due   []*userEntry
	spare []*userEntry
	wake  chan struct{}
	quit  chan struct{}
	once  sync.Once

	// Owned by run: the wheel of held users, by the slot (window-long,
	// counted from start) of the time their interval ends, and the last
	// slot flushed.
	start time.Time
	held  [][]*userEntry
	nHeld int
	slot  int64
}

func newFlusher(e *Engine, window, interval time.Duration) *flusher {
	f := makeFlusher(window, interval, func(u *userEntry) { e.root.Send(u.pid, u) })
	if window > 0 {
		go f.run()
	}
	return f
}

// makeFlusher is a flusher that send tells, not yet running.
func makeFlusher(window, interval time.Duration, send func(*userEntry)) *flusher {
	f := &flusher{window: window, interval: interval, send: send, wake: make(chan struct{}, 1), quit: make(chan struct{}),
		start: time.Now()}
	if window > 0 && interval > window {
		// The interval and the slot it ends in, rounded up, fit without
		// wrapping onto the slot being flushed.
		f.held = make([][]*userEntry, interval/window+3)
	}
	return f
}

// add lists u for the next flush.
func (f *flusher) add(u *userEntry) {
	if f.window <= 0 {
		u.flushesTold.Add(1)
		f.send(u)
		return
	}
	if now := time.Since(f.start); f.quiet(u, now) {
		f.flush(u, now)
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
		if f.nHeld == 0 {
			select {
			case <-f.quit:
				return
			case <-f.wake:
			}
		}
		// The window starts with the first change: what arrives within it
		// is taken in by the same flush. While users are held, the loop
		// ticks once a window.
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
		f.flushDue(due, time.Since(f.start))
		clear(due)
		f.mu.Lock()
		f.spare = due[:0]
		f.mu.Unlock()
	}
}

// flushDue flushes the users whose window ended, and the held ones whose
// interval has, at now (since start); the others are held.
func (f *flusher) flushDue(due []*userEntry, now time.Duration) {
	nowSlot := int64(now / f.window)
	if f.held != nil {
		// Every slot since the last pass (at most the whole wheel).
		from := max(f.slot+1, nowSlot-int64(len(f.held))+1)
		for s := from; s <= nowSlot; s++ {
			b := &f.held[s%int64(len(f.held))]
			for _, u := range *b {
				f.flush(u, now)
			}
			f.nHeld -= len(*b)
			clear(*b)
			*b = (*b)[:0]
		}
		f.slot = nowSlot
	}
	for _, u := range due {
		last := time.Duration(u.flushedAt.Load())
		if f.held == nil || last == 0 || now-last >= f.interval {
			f.flush(u, now)
			continue
		}
		// Held until interval after its last flush, rounded up to a slot
		// (which is after nowSlot, so the wheel reaches it).
		s := int64((last + f.interval + f.window - 1) / f.window)
		b := &f.held[s%int64(len(f.held))]
		*b = append(*b, u)
		f.nHeld++
	}
}

func (f *flusher) flush(u *userEntry, now time.Duration) {
	u.flushedAt.Store(int64(now))
	u.flushesTold.Add(1)
	f.send(u)
}

// flushEarly tells u's actor to flush at once though u waits in a window
// (releaseAcks: an acknowledgement held for the flush), unless the push
// interval holds u; false then. The window's pass tells it again, which
// finds nothing new or the changes since.
func (f *flusher) flushEarly(u *userEntry) bool {
	now := time.Since(f.start)
	if f.held != nil && now-time.Duration(u.flushedAt.Load()) < f.interval {
		return false
	}
	f.flush(u, now)
	return true
}

// quiet reports whether u was last flushed a window (and an interval) or
// more before now, or never: its change then goes at once.
func (f *flusher) quiet(u *userEntry, now time.Duration) bool {
	last := time.Duration(u.flushedAt.Load())
	return last == 0 || now-last >= max(f.window, f.interval)
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
