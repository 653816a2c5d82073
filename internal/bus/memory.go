package bus

import (
	"context"
	"sync"
)

// Memory is the in-process bus of a single node.
type Memory struct {
	mu      sync.RWMutex
	subs    map[*memSub]struct{}
	closed  bool
	down    bool // acting out an outage (Down) until Resume
	resumed resumers
}

// OnResume registers f for Resume. The in-process bus never loses a
// message; tests use it to act out a node's reconnection to NATS.
func (b *Memory) OnResume(f func()) { b.resumed.add(f) }

// Resume runs what OnResume registered, as a NATS bus does when its
// connection comes back.
func (b *Memory) Resume() {
	b.resumed.run()
	b.mu.Lock()
	b.down = false
	b.mu.Unlock()
}

// Down acts out a lost connection for Up until Resume (messages still
// flow; tests use it to see a node read the store while its bus is down).
func (b *Memory) Down() {
	b.mu.Lock()
	b.down = true
	b.mu.Unlock()
}

// Up is false after Close, and between Down and Resume.
func (b *Memory) Up() bool {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return !b.closed && !b.down
}

// NewMemory returns an empty in-process bus.
func NewMemory() *Memory { return &Memory{subs: map[*memSub]struct{}{}} }

type memSub struct {
	b       *Memory
	pattern string
	h       Handler

	mu      sync.Mutex
	queue   []memMsg
	running bool
	stopped bool
}

type memMsg struct {
	subject string
	data    []byte
}

func (b *Memory) Publish(_ context.Context, subject string, data []byte) error {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		return ErrClosed
	}
	for s := range b.subs {
		if Match(s.pattern, subject) {
			s.enqueue(memMsg{subject, data})
		}
	}
	return nil
}

// enqueue hands the message to the subscription's drain goroutine, started on
// demand, so a slow handler never blocks the publisher and order is kept.
func (s *memSub) enqueue(m memMsg) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return
	}
	s.queue = append(s.queue, m)
	if !s.running {
		s.running = true
		go s.drain()
	}
}

func (s *memSub) drain() {
	for {
		s.mu.Lock()
		if len(s.queue) == 0 || s.stopped {
			s.running = false
			s.queue = nil
			s.mu.Unlock()
			return
		}
		m := s.queue[0]
		s.queue[0] = memMsg{}
		s.queue = s.queue[1:]
		s.mu.Unlock()
		s.h(m.subject, m.data)
	}
}

func (b *Memory) Subscribe(subject string, h Handler) (Subscription, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, ErrClosed
	}
	s := &memSub{b: b, pattern: subject, h: h}
	b.subs[s] = struct{}{}
	return s, nil
}

func (s *memSub) Unsubscribe() error {
	s.b.mu.Lock()
	delete(s.b.subs, s)
	s.b.mu.Unlock()
	s.mu.Lock()
	s.stopped = true
	s.mu.Unlock()
	return nil
}

func (b *Memory) Ping(context.Context) error {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		return ErrClosed
	}
	return nil
}

func (b *Memory) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	for s := range b.subs {
		s.mu.Lock()
		s.stopped = true
		s.mu.Unlock()
	}
	b.subs = map[*memSub]struct{}{}
	return nil
}
