package chat

import (
	"runtime"
	"sync"
	"time"
)

// warmDispatcher runs the chat actors' mailboxes on a few long-lived
// goroutines. protoactor's default dispatcher starts a goroutine each time
// a mailbox is scheduled, and a user actor's flush renders its
// conversation rows deep enough that every fresh goroutine grew and copied
// its stack: a group post schedules a thousand members' flushes at once
// (W3 profile at 20,000 deliveries/s: runtime.copystack 10-14 % of the
// server's CPU). Here scheduled mailboxes wait in a queue that a fixed set
// of workers drains, each keeping the stack it grew.
//
// A mailbox may block in its run (a store read). So that blocked runs
// never hold up the others, a watchdog looks at a queue that is not
// empty every stallCheck: if no worker took anything from it since the
// last look, it starts as many extra workers again as there are (they
// leave once the queue is empty), so a stall lasts a few checks at most.
type warmDispatcher struct {
	throughput int
	keep       int // workers kept when idle

	mu       sync.Mutex
	cond     *sync.Cond
	queue    []func()
	head     int
	running  int    // workers alive
	idle     int    // of them, waiting for work
	taken    uint64 // runs taken from the queue, for the watchdog
	watching bool
}

// stallCheck is how often the watchdog looks at a waiting queue.
const stallCheck = 10 * time.Millisecond

func newWarmDispatcher(throughput, keep int) *warmDispatcher {
	d := &warmDispatcher{throughput: throughput, keep: keep}
	d.cond = sync.NewCond(&d.mu)
	return d
}

// chatDispatcher is shared by every engine of the process: its workers
// belong to the runtime's two cores, not to one node.
var chatDispatcher = newWarmDispatcher(300, 4*runtime.GOMAXPROCS(0))

func (d *warmDispatcher) Throughput() int { return d.throughput }

func (d *warmDispatcher) Schedule(fn func()) {
	d.mu.Lock()
	d.queue = append(d.queue, fn)
	switch {
	case d.idle > 0:
		d.mu.Unlock()
		d.cond.Signal()
		return
	case d.running < d.keep:
		d.running++
		d.mu.Unlock()
		go d.work()
		return
	}
	if !d.watching {
		d.watching = true
		taken := d.taken
		time.AfterFunc(stallCheck, func() { d.check(taken) })
	}
	d.mu.Unlock()
}

// check is the watchdog: taken is the count of runs taken at its last look.
func (d *warmDispatcher) check(taken uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.head == len(d.queue) {
		d.watching = false
		return
	}
	if d.taken == taken && d.idle == 0 {
		// Every worker is in a run that has not returned: double them.
		extra := max(d.running, 1)
		d.running += extra
		for range extra {
			go d.work()
		}
	}
	now := d.taken
	time.AfterFunc(stallCheck, func() { d.check(now) })
}

func (d *warmDispatcher) work() {
	d.mu.Lock()
	for {
		for d.head == len(d.queue) {
			if d.running > d.keep {
				d.running-- // an extra worker leaves once the queue is empty
				d.mu.Unlock()
				return
			}
			d.idle++
			d.cond.Wait()
			d.idle--
		}
		fn := d.queue[d.head]
		d.queue[d.head] = nil
		d.head++
		if d.head == len(d.queue) {
			d.queue, d.head = d.queue[:0], 0
		}
		d.taken++
		d.mu.Unlock()
		fn()
		d.mu.Lock()
	}
}
