// Package presence knows which users have a live chat socket, on any node.
// In-process (Memory) for a single node, Redis for a cluster. Entries expire
// unless refreshed, so a node that dies without saying goodbye stops
// counting its users as online after one TTL.
package presence

import (
	"context"
	"sync"
	"time"

	"kj/internal/clock"
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

// Memory is the presence of a single node. A user's connections are a
// small slice, not a map: nearly every user has one, and an inner map would
// cost ~300 bytes per online user where the slice costs ~40 (W1 counts
// every byte held per socket).
type Memory struct {
	clock clock.Clock
	mu    sync.Mutex
	conns map[string][]liveConn // user -> connections
}

type liveConn struct {
	id      string
	expires int64 // unix nanoseconds
}

// NewMemory returns an empty in-process presence using c for expiry.
func NewMemory(c clock.Clock) *Memory {
	return &Memory{clock: c, conns: map[string][]liveConn{}}
}

func (m *Memory) Add(_ context.Context, userID, connID string, ttl time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	expires := m.clock.Now().Add(ttl).UnixNano()
	list := m.conns[userID]
	for i := range list {
		if list[i].id == connID {
			list[i].expires = expires
			return nil
		}
	}
	m.conns[userID] = append(list, liveConn{id: connID, expires: expires})
	return nil
}

func (m *Memory) Remove(_ context.Context, userID, connID string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.keep(userID, func(c liveConn) bool { return c.id != connID })
	return nil
}

func (m *Memory) Connections(_ context.Context, userID string) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.clock.Now().UnixNano()
	list := m.keep(userID, func(c liveConn) bool { return c.expires > now })
	var out []string
	for _, c := range list {
		out = append(out, c.id)
	}
	return out, nil
}

// keep drops the connections of userID that fail ok (and the user with the
// last one) and returns what is left. Callers hold m.mu.
func (m *Memory) keep(userID string, ok func(liveConn) bool) []liveConn {
	list := m.conns[userID]
	kept := list[:0]
	for _, c := range list {
		if ok(c) {
			kept = append(kept, c)
		}
	}
	clear(list[len(kept):])
	if len(kept) == 0 {
		delete(m.conns, userID)
		return nil
	}
	m.conns[userID] = kept
	return kept
}

func (m *Memory) Online(ctx context.Context, userID string) (bool, error) {
	c, err := m.Connections(ctx, userID)
	return len(c) > 0, err
}

func (m *Memory) Ping(context.Context) error { return nil }
func (m *Memory) Close() error               { return nil }
