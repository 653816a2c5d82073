package chat

import (
	"hash/maphash"
	"sync"
)

// registry maps keys (user ids, conversation ids, group ids) to the live
// actor of this node. It is sharded so lookups on the send path never meet
// one global lock. Senders look up and send while holding the shard lock
// (a mailbox enqueue is non-blocking), and an actor retires by removing
// itself under the same lock, so nothing is ever sent to an actor after it
// left the registry.
type registry[K comparable, V any] struct {
	seed   maphash.Seed
	shards [64]shard[K, V]
}

type shard[K comparable, V any] struct {
	mu sync.Mutex
	m  map[K]V
}

func newRegistry[K comparable, V any]() *registry[K, V] {
	r := &registry[K, V]{seed: maphash.MakeSeed()}
	for i := range r.shards {
		r.shards[i].m = map[K]V{}
	}
	return r
}

func (r *registry[K, V]) shard(k K) *shard[K, V] {
	return &r.shards[maphash.Comparable(r.seed, k)%uint64(len(r.shards))]
}

// with runs f on the entry of k under its shard lock; create makes a
// missing entry (when create is nil a missing entry is skipped and with
// reports false).
func (r *registry[K, V]) with(k K, create func() V, f func(v V)) bool {
	s := r.shard(k)
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[k]
	if !ok {
		if create == nil {
			return false
		}
		v = create()
		s.m[k] = v
	}
	f(v)
	return true
}

// removeIf deletes k when keep(v) is false, under the shard lock.
func (r *registry[K, V]) removeIf(k K, remove func(v V) bool) bool {
	s := r.shard(k)
	s.mu.Lock()
	defer s.mu.Unlock()
	if v, ok := s.m[k]; ok && remove(v) {
		delete(s.m, k)
		return true
	}
	return false
}

// get returns the entry of k.
func (r *registry[K, V]) get(k K) (V, bool) {
	s := r.shard(k)
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[k]
	return v, ok
}

// each calls f for every entry (a snapshot per shard, f runs unlocked).
func (r *registry[K, V]) each(f func(k K, v V)) {
	for i := range r.shards {
		s := &r.shards[i]
		s.mu.Lock()
		keys := make([]K, 0, len(s.m))
		vals := make([]V, 0, len(s.m))
		for k, v := range s.m {
			keys = append(keys, k)
			vals = append(vals, v)
		}
		s.mu.Unlock()
		for j := range keys {
			f(keys[j], vals[j])
		}
	}
}

// count is the number of entries.
func (r *registry[K, V]) count() int {
	n := 0
	for i := range r.shards {
		s := &r.shards[i]
		s.mu.Lock()
		n += len(s.m)
		s.mu.Unlock()
	}
	return n
}
