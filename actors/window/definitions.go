package window

import (
	"context"
	"slices"
	"sync"
	"time"

	"kj/internal/bus"
	"kj/internal/clock"
	"kj/storage"
)

// WindowsChangedSubject carries "a window's definition changed" (an
// operator edited its rules): every node drops its copy of the definitions.
const WindowsChangedSubject = "kj.cache.windows"

// Definitions keeps the windows' definitions (rules, enabled) in the node:
// the rules page and every round view read them, and they change only when
// an operator edits them or a node starts with another window count. An
// edit drops the copy at once on the node that made it and, through the
// bus, on the others; maxAge bounds how long a change that came another way
// (a node starting with another KJ_WINDOW_COUNT) goes unseen. The windows'
// round counters are not kept: they change every round.
type Definitions struct {
	db     storage.DB
	bus    bus.Bus
	clock  clock.Clock
	maxAge time.Duration

	mu   sync.Mutex
	list []storage.RoundWindow // every window, enabled or not; nil: not loaded
	at   time.Time
	seq  uint64 // drops so far: a load that began before a drop is not kept
	sub  bus.Subscription
}

// NewDefinitions returns the cache, listening on b (nil: this node's own
// edits only).
func NewDefinitions(db storage.DB, b bus.Bus, clk clock.Clock, maxAge time.Duration) (*Definitions, error) {
	d := &Definitions{db: db, bus: b, clock: clk, maxAge: maxAge}
	if b != nil {
		sub, err := b.Subscribe(WindowsChangedSubject, func(string, []byte) { d.drop() })
		if err != nil {
			return nil, err
		}
		d.sub = sub
		// An edit published while the bus was down never came.
		bus.OnResume(b, d.drop)
	}
	return d, nil
}

// Close stops listening to the bus.
func (d *Definitions) Close() {
	if d.sub != nil {
		_ = d.sub.Unsubscribe()
	}
}

// All returns every window's definition, by id. The slice is shared: do not
// modify it.
func (d *Definitions) All(ctx context.Context) ([]storage.RoundWindow, error) {
	d.mu.Lock()
	list, at, seq := d.list, d.at, d.seq
	d.mu.Unlock()
	if list != nil && d.clock.Now().Sub(at) < d.maxAge {
		return list, nil
	}
	list, err := storage.RoundWindows(ctx, d.db, false)
	if err != nil {
		return nil, err
	}
	for i := range list {
		list[i].RoundsCount = 0 // changes every round: never served from here
	}
	slices.SortFunc(list, func(a, b storage.RoundWindow) int { return int(a.ID - b.ID) })
	d.mu.Lock()
	if d.seq == seq {
		d.list, d.at = list, d.clock.Now()
	}
	d.mu.Unlock()
	return list, nil
}

func (d *Definitions) drop() {
	d.mu.Lock()
	d.list = nil
	d.seq++
	d.mu.Unlock()
}

// Changed drops the definitions here at once and tells the other nodes.
// Call it after the change committed.
func (d *Definitions) Changed(ctx context.Context) {
	d.drop()
	if d.bus != nil {
		_ = d.bus.Publish(ctx, WindowsChangedSubject, []byte("{}"))
	}
}
