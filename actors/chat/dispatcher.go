package chat

import "sync/atomic"

// warmDispatcher runs the chat actors' mailboxes on goroutines that
// outlive one run. protoactor's default dispatcher starts a goroutine each
// time a mailbox is scheduled, and a user actor's flush renders its
// conversation rows deep enough that every fresh goroutine grew and copied
// its stack (W3 profile at 20,000 deliveries/s: runtime.copystack ~10 % of
// the server's CPU). Here a goroutine that has run a mailbox parks for the
// next one, keeping its grown stack; when none is parked, a new one starts,
// so an actor that blocks (a store read) never holds up the others.
type warmDispatcher struct {
	throughput int
	maxParked  int32
	parked     atomic.Int32
	work       chan func()
}

func newWarmDispatcher(throughput, maxParked int) *warmDispatcher {
	return &warmDispatcher{throughput: throughput, maxParked: int32(maxParked), work: make(chan func())}
}

// chatDispatcher is shared by every engine of the process: parked
// goroutines are a property of the runtime, not of one node.
var chatDispatcher = newWarmDispatcher(300, 64)

func (d *warmDispatcher) Schedule(fn func()) {
	select {
	case d.work <- fn: // a parked goroutine takes it
	default:
		go d.run(fn)
	}
}

func (d *warmDispatcher) Throughput() int { return d.throughput }

func (d *warmDispatcher) run(fn func()) {
	for {
		fn()
		if d.parked.Add(1) > d.maxParked {
			d.parked.Add(-1)
			return
		}
		fn = <-d.work
		d.parked.Add(-1)
	}
}
