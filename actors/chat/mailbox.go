package chat

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"
)

// smallMailbox is the mailbox of every chat actor: session, user,
// conversation and group. protoactor's unbounded mailbox keeps a ring of
// ten slots and a lock-free queue with its sentinel node for each actor,
// ~0.4 KB whether or not anything waits, and allocates a closure each time
// it schedules its actor: an idle node held two of them per socket, and a
// 1:1 send scheduled its conversation actor twice (the send, then the
// commit's report). This one keeps the message that waits alone in a
// field, a slice only while more wait, and the scheduling closure made
// once.
//
// The protocol is protoactor's default mailbox's: system messages first,
// user messages only while not suspended, the dispatcher's throughput
// between yields, a panic escalated to the actor's supervisor, and the
// same counters checked after going idle so no message is left behind.
type smallMailbox struct {
	mu   sync.Mutex
	sys  []any // system messages (start, stop, restart, watch): rare and few
	user fifo

	status    atomic.Int32 // mailboxIdle or mailboxRunning
	sysCount  atomic.Int32
	userCount atomic.Int32
	suspended atomic.Bool

	invoker    actor.MessageInvoker
	dispatcher actor.Dispatcher
	process    func() // m.processMessages, made once
}

const (
	mailboxIdle int32 = iota
	mailboxRunning
)

// newSmallMailbox is the actor.MailboxProducer of smallMailbox.
func newSmallMailbox() actor.Mailbox {
	m := &smallMailbox{}
	m.process = m.processMessages
	return m
}

// fifo is a message queue that holds one message without a slice; its
// slice is kept between bursts while small.
type fifo struct {
	one  any   // the oldest message; nil when none waits
	more []any // the ones after it, from head on
	head int
}

// maxSpareMessages bounds the slice a fifo keeps once drained.
const maxSpareMessages = 16

func (q *fifo) push(m any) {
	if q.one == nil {
		q.one = m
		return
	}
	q.more = append(q.more, m)
}

func (q *fifo) pop() any {
	m := q.one
	if m == nil {
		return nil
	}
	q.one = nil
	if q.head < len(q.more) {
		q.one = q.more[q.head]
		q.more[q.head] = nil
		q.head++
		if q.head == len(q.more) {
			q.head = 0
			q.more = q.more[:0]
			if cap(q.more) > maxSpareMessages {
				q.more = nil
			}
		}
	}
	return m
}

func (m *smallMailbox) PostUserMessage(message any) {
	m.mu.Lock()
	m.user.push(message)
	m.mu.Unlock()
	m.userCount.Add(1)
	m.schedule()
}

func (m *smallMailbox) PostSystemMessage(message any) {
	m.mu.Lock()
	m.sys = append(m.sys, message)
	m.mu.Unlock()
	m.sysCount.Add(1)
	m.schedule()
}

func (m *smallMailbox) RegisterHandlers(invoker actor.MessageInvoker, dispatcher actor.Dispatcher) {
	m.invoker, m.dispatcher = invoker, dispatcher
}

func (m *smallMailbox) Start() {}

func (m *smallMailbox) UserMessageCount() int { return int(m.userCount.Load()) }

func (m *smallMailbox) schedule() {
	if m.status.CompareAndSwap(mailboxIdle, mailboxRunning) {
		m.dispatcher.Schedule(m.process)
	}
}

func (m *smallMailbox) processMessages() {
	for {
		m.run()
		m.status.Store(mailboxIdle)
		// Messages posted after run saw an empty queue, but before the
		// status went idle, did not schedule: take them now.
		sys, user := m.sysCount.Load(), m.userCount.Load()
		if sys == 0 && (m.suspended.Load() || user == 0) {
			return
		}
		if !m.status.CompareAndSwap(mailboxIdle, mailboxRunning) {
			return // a poster scheduled it again
		}
	}
}

func (m *smallMailbox) popUser() any {
	m.mu.Lock()
	msg := m.user.pop()
	m.mu.Unlock()
	return msg
}

func (m *smallMailbox) popSystem() any {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.sys) == 0 {
		return nil
	}
	msg := m.sys[0]
	n := copy(m.sys, m.sys[1:])
	m.sys[n] = nil
	m.sys = m.sys[:n]
	if n == 0 {
		m.sys = nil // an idle actor keeps no slice
	}
	return msg
}

func (m *smallMailbox) run() {
	var msg any
	defer func() {
		if r := recover(); r != nil {
			m.invoker.EscalateFailure(r, msg)
		}
	}()
	i, t := 0, m.dispatcher.Throughput()
	for {
		if i > t {
			i = 0
			runtime.Gosched()
		}
		i++
		if msg = m.popSystem(); msg != nil {
			m.sysCount.Add(-1)
			switch msg.(type) {
			case *actor.SuspendMailbox:
				m.suspended.Store(true)
			case *actor.ResumeMailbox:
				m.suspended.Store(false)
			default:
				m.invoker.InvokeSystemMessage(msg)
			}
			continue
		}
		if m.suspended.Load() {
			return
		}
		if msg = m.popUser(); msg == nil {
			return
		}
		m.userCount.Add(-1)
		m.invoker.InvokeUserMessage(msg)
	}
}
