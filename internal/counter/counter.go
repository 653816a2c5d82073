// Package counter keeps short-lived counters with a fixed expiry window:
// sign-in failures and lockouts, rate limits, daily video views. In-process
// (Memory) for a single node, Redis for a cluster so every node sees the same
// counts.
package counter

import (
	"context"
	"sync"
	"time"

	"kj/internal/clock"
)

// Counters is a set of named counters that expire.
type Counters interface {
	// Incr adds n to key and returns the new value. A key that did not exist
	// starts at 0 and expires ttl after this first increment (a fixed
	// window); later increments do not extend it.
	Incr(ctx context.Context, key string, n int64, ttl time.Duration) (int64, error)
	// Get returns the value of key, 0 when missing or expired, and the time
	// left before it expires.
	Get(ctx context.Context, key string) (int64, time.Duration, error)
	// Delete removes key.
	Delete(ctx context.Context, key string) error
	Ping(ctx context.Context) error
}

// Memory is the in-process implementation, expiring by the given clock.
type Memory struct {
	clock clock.Clock
	mu    sync.Mutex
	m     map[string]memEntry
}

type memEntry struct {
	n   int64
	exp time.Time
}

// NewMemory returns empty counters that expire by c.
func NewMemory(c clock.Clock) *Memory { return &Memory{clock: c, m: map[string]memEntry{}} }

func (m *Memory) Incr(_ context.Context, key string, n int64, ttl time.Duration) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.clock.Now()
	e, ok := m.m[key]
	if !ok || !e.exp.After(now) {
		e = memEntry{exp: now.Add(ttl)}
	}
	e.n += n
	m.m[key] = e
	if len(m.m) > 1024 && len(m.m)%1024 == 0 {
		m.prune(now)
	}
	return e.n, nil
}

// prune drops expired keys so a long-running node does not grow without end.
func (m *Memory) prune(now time.Time) {
	for k, e := range m.m {
		if !e.exp.After(now) {
			delete(m.m, k)
		}
	}
}

func (m *Memory) Get(_ context.Context, key string) (int64, time.Duration, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.clock.Now()
	e, ok := m.m[key]
	if !ok || !e.exp.After(now) {
		return 0, 0, nil
	}
	return e.n, e.exp.Sub(now), nil
}

func (m *Memory) Delete(_ context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.m, key)
	return nil
}

func (m *Memory) Ping(context.Context) error { return nil }
