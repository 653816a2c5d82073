// Package presence knows which users have a live chat socket, on any node.
// In-process (Memory) for a single node, Redis for a cluster. Entries expire
// unless refreshed, so a node that dies without saying goodbye stops
// counting its users as online after one TTL.
package presence

import (
	"context"
	"sync"
	"time"

	"kj/engine/clock"
)

// Presence records the connections of online users.
type Presence interface {
	// Add marks connection connID of userID online for ttl; calling it again
	// refreshes the entry.
	Add(ctx context.Context, userID, connID string, ttl time.Duration) error
	// Remove forgets one connection.
	Remove(ctx context.Context, userID, connID string) error
	// Connections lists the live connections of userID.
	Connections(ctx context.Context, userID string) ([]string, error)
	// Online reports whether userID has at least one live connection.
	Online(ctx context.Context, userID string) (bool, error)
	Ping(ctx context.Context) error
	Close() error
}

// Memory is the presence of a single node.
type Memory struct {
	clock clock.Clock
	mu    sync.Mutex
	conns map[string]map[string]time.Time // user -> conn -> expiry
}

// NewMemory returns an empty in-process presence using c for expiry.
func NewMemory(c clock.Clock) *Memory {
	return &Memory{clock: c, conns: map[string]map[string]time.Time{}}
}

func (m *Memory) Add(_ context.Context, userID, connID string, ttl time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.conns[userID]
	if c == nil {
		c = map[string]time.Time{}
		m.conns[userID] = c
	}
	c[connID] = m.clock.Now().Add(ttl)
	return nil
}

func (m *Memory) Remove(_ context.Context, userID, connID string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if c := m.conns[userID]; c != nil {
		delete(c, connID)
		if len(c) == 0 {
			delete(m.conns, userID)
		}
	}
	return nil
}

func (m *Memory) Connections(_ context.Context, userID string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.clock.Now()
	var out []string
	for id, exp := range m.conns[userID] {
		if exp.After(now) {
			out = append(out, id)
		} else {
			delete(m.conns[userID], id)
		}
	}
	return out, nil
}

func (m *Memory) Online(ctx context.Context, userID string) (bool, error) {
	c, err := m.Connections(ctx, userID)
	return len(c) > 0, err
}

func (m *Memory) Ping(context.Context) error { return nil }
func (m *Memory) Close() error               { return nil }
