package storage

import (
	"sync"
	"time"
)

// NewID returns a unique, time-ordered positive int64: milliseconds since
// 2024-01-01 in the high bits, then a 10-bit node number and a 12-bit
// sequence. Ids from one process are strictly increasing; nodes of a cluster
// set distinct node numbers with SetIDNode.
func NewID() int64 { return ids.next() }

// SetIDNode sets this process's node number (0-1023).
func SetIDNode(n int64) {
	ids.mu.Lock()
	ids.node = n & 1023
	ids.mu.Unlock()
}

var ids idGen

const idEpoch = 1704067200000 // 2024-01-01T00:00:00Z in ms

type idGen struct {
	mu   sync.Mutex
	node int64
	last int64 // last (ms<<12 | seq) handed out
}

func (g *idGen) next() int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := (time.Now().UnixMilli() - idEpoch) << 12
	if now <= g.last {
		now = g.last + 1 // same millisecond, or the clock stepped back
	}
	g.last = now
	ms, seq := now>>12, now&4095
	return ms<<22 | g.node<<12 | seq
}
