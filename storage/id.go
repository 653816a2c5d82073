package storage

import (
	"context"
	"fmt"
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

// ClaimIDNode gives this process its node number for NewID: on
// PostgreSQL the next value of id_node_seq (migration 0002), on the
// embedded store 0 (it has one process). Every process that writes to a
// shared store calls it once at start.
func ClaimIDNode(ctx context.Context, q Querier) (int64, error) {
	var n int64
	if q.Dialect() == Postgres {
		if err := q.QueryRow(ctx, `SELECT nextval('id_node_seq')`).Scan(&n); err != nil {
			return 0, fmt.Errorf("claim an id node number (is the schema migrated?): %w", err)
		}
	}
	SetIDNode(n)
	return n, nil
}

// IDNode is the node number this process puts in its ids.
func IDNode() int64 {
	ids.mu.Lock()
	defer ids.mu.Unlock()
	return ids.node
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
