package auth

import (
	"encoding/json"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"kj/internal/bus"
	"kj/internal/clock"
	"kj/storage"
)

// TokenRenewedSubject carries TokenRenewed events: a session's access token
// was swapped for a new one, so every node drops the old one from its cache.
// It is not a SessionEnded: the session and its sockets live on.
const TokenRenewedSubject = "kj.session.renewed"

// TokenRenewed says the access token of a session changed.
type TokenRenewed struct {
	SessionID int64 `json:"sessionId"`
	UserID    int64 `json:"userId"`
}

// TokenCache keeps validated access tokens in the node with the identity of
// their user (the fields that never change), so Identify costs no store
// round trip. It is keyed by the token's hash (the
// token itself is never kept) and bounded in entries; an entry is trusted
// at most maxAge after the store last confirmed it. Every event that ends a
// session or changes its token drops the entry at once: locally when the
// event is published, on every node when the bus delivers it
// (SessionEndedSubject, TokenRenewedSubject). maxAge is only the backstop
// for a change the bus did not carry.
//
// Entries in use are confirmed before they age out, many in one statement
// (Sessions.RefreshCache, every maxAge/4): a player who bets or reads once
// a minute would otherwise cost a store lookup on every request, because
// their entry is older than maxAge each time.
//
// A lookup that missed reads the store and then fills the cache; an
// eviction that lands between the read and the fill must win, or a token
// revoked meanwhile would be cached as valid. Evictions are numbered and the
// last evictionLog of them remembered: a fill is refused when an eviction of
// its session happened after its read began (or too long ago to tell).
type TokenCache struct {
	clock  clock.Clock
	maxAge time.Duration
	size   int

	mu        sync.RWMutex
	byToken   map[string]*cachedSession
	bySession map[int64]*cachedSession
	seq       uint64             // evictions so far
	log       [evictionLog]int64 // session id of eviction n at n % evictionLog

	subs []bus.Subscription
}

const evictionLog = 1024

type cachedSession struct {
	tokenHash string
	session   storage.AuthSession
	user      storage.User
	cachedAt  atomic.Int64 // unix nanos when the store last confirmed it
	usedAt    atomic.Int64 // unix nanos of its last lookup (to the second)
}

// keepIdle is how long after its last lookup an entry is still confirmed
// (Sessions.RefreshCache): a player back within it finds their token
// cached; an entry idle longer ages out and costs a lookup when it returns.
const keepIdle = 10 * time.Minute

var tokenCacheLookups = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "kj_token_cache_lookups_total",
	Help: "Access-token checks by whether the node's cache answered (hit) or the store did (miss).",
}, []string{"result"})

var (
	cacheHits   = tokenCacheLookups.WithLabelValues("hit")
	cacheMisses = tokenCacheLookups.WithLabelValues("miss")
)

// NewTokenCache returns a cache of at most size sessions, each kept at most
// maxAge, subscribed to the invalidation events on b (nil: this node's own
// events only, for a single node without a bus).
func NewTokenCache(b bus.Bus, c clock.Clock, size int, maxAge time.Duration) (*TokenCache, error) {
	tc := &TokenCache{clock: c, maxAge: maxAge, size: size,
		byToken: map[string]*cachedSession{}, bySession: map[int64]*cachedSession{}}
	if b == nil {
		return tc, nil
	}
	for _, subject := range []string{SessionEndedSubject, TokenRenewedSubject} {
		sub, err := b.Subscribe(subject, tc.onEvent)
		if err != nil {
			tc.Close()
			return nil, err
		}
		tc.subs = append(tc.subs, sub)
	}
	// Sign-outs published while the bus was down never came: forget
	// everything, so every token is checked against the store again.
	bus.OnResume(b, tc.clear)
	return tc, nil
}

// clear drops every entry, and every store read in flight will not put
// its session back (as if each had been evicted).
func (tc *TokenCache) clear() {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	tc.seq += evictionLog
	clear(tc.byToken)
	clear(tc.bySession)
}

// onEvent drops the session an event names; both events carry sessionId.
func (tc *TokenCache) onEvent(_ string, data []byte) {
	var ev struct {
		SessionID int64 `json:"sessionId"`
	}
	if json.Unmarshal(data, &ev) == nil && ev.SessionID != 0 {
		tc.Evict(ev.SessionID)
	}
}

// Close stops listening to the bus.
func (tc *TokenCache) Close() {
	for _, s := range tc.subs {
		_ = s.Unsubscribe()
	}
	tc.subs = nil
}

// Len is the number of cached sessions.
func (tc *TokenCache) Len() int {
	tc.mu.RLock()
	defer tc.mu.RUnlock()
	return len(tc.byToken)
}

// get returns the cached session of a token hash if it is younger than
// maxAge.
func (tc *TokenCache) get(tokenHash string) (storage.AuthSession, storage.User, bool) {
	tc.mu.RLock()
	e := tc.byToken[tokenHash]
	tc.mu.RUnlock()
	now := tc.clock.Now().UnixNano()
	if e == nil || now-e.cachedAt.Load() >= int64(tc.maxAge) {
		cacheMisses.Inc()
		return storage.AuthSession{}, storage.User{}, false
	}
	if now-e.usedAt.Load() >= int64(time.Second) { // not a write on every hit
		e.usedAt.Store(now)
	}
	cacheHits.Inc()
	return e.session, e.user, true
}

// due returns the entries to confirm now: at least half maxAge old, and
// looked up within keepIdle.
func (tc *TokenCache) due() []*cachedSession {
	now := tc.clock.Now().UnixNano()
	tc.mu.RLock()
	defer tc.mu.RUnlock()
	var out []*cachedSession
	for _, e := range tc.bySession {
		if now-e.cachedAt.Load() >= int64(tc.maxAge/2) && now-e.usedAt.Load() < int64(keepIdle) {
			out = append(out, e)
		}
	}
	return out
}

// confirm applies what the store said, in a read that began at began, of
// the entries due returned: an entry whose session is unchanged is trusted
// from began; one whose session ended, changed token or expiry, or is gone,
// is dropped. An entry evicted or replaced since due is left alone (an
// eviction always wins).
func (tc *TokenCache) confirm(entries []*cachedSession, stored []storage.AuthSession, began time.Time) {
	byID := make(map[int64]storage.AuthSession, len(stored))
	for _, s := range stored {
		byID[s.ID] = s
	}
	tc.mu.Lock()
	defer tc.mu.Unlock()
	for _, e := range entries {
		id := e.session.ID
		if tc.bySession[id] != e {
			continue
		}
		s, ok := byID[id]
		if ok && s.TokenHash == e.tokenHash && s.State == e.session.State && s.TokenExpiresAt == e.session.TokenExpiresAt {
			e.cachedAt.Store(began.UnixNano())
			continue
		}
		tc.evictLocked(id)
	}
}

// mark returns the eviction count a store read starts at; pass it to put.
func (tc *TokenCache) mark() uint64 {
	tc.mu.RLock()
	defer tc.mu.RUnlock()
	return tc.seq
}

// put caches an active session read from the store after mark returned
// since, unless its session was evicted since then.
func (tc *TokenCache) put(tokenHash string, since uint64, sess storage.AuthSession, u storage.User) {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if tc.seq-since >= evictionLog {
		return // too many evictions since the read to tell whether one was ours
	}
	for n := since + 1; n <= tc.seq; n++ {
		if tc.log[n%evictionLog] == sess.ID {
			return
		}
	}
	if old := tc.bySession[sess.ID]; old != nil {
		delete(tc.byToken, old.tokenHash)
	}
	if len(tc.byToken) >= tc.size {
		// Full: drop one entry. Map order is unspecified, which spreads the
		// drops over the cache without keeping a recency list on every hit.
		for _, e := range tc.byToken {
			delete(tc.byToken, e.tokenHash)
			delete(tc.bySession, e.session.ID)
			break
		}
	}
	e := &cachedSession{tokenHash: tokenHash, session: sess, user: identity(u)}
	e.cachedAt.Store(tc.clock.Now().UnixNano())
	e.usedAt.Store(e.cachedAt.Load())
	tc.byToken[tokenHash] = e
	tc.bySession[sess.ID] = e
}

// Evict drops the sessions at once; a store read in flight for one of them
// will not put it back.
func (tc *TokenCache) Evict(sessionIDs ...int64) {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	for _, id := range sessionIDs {
		tc.evictLocked(id)
	}
}

// evictLocked drops a session and logs its eviction; tc.mu is held.
func (tc *TokenCache) evictLocked(id int64) {
	tc.seq++
	tc.log[tc.seq%evictionLog] = id
	if e := tc.bySession[id]; e != nil {
		delete(tc.byToken, e.tokenHash)
		delete(tc.bySession, id)
	}
}

// Evicted reports whether one of the last evictions this node applied was
// of sessionID: its own or one the bus delivered. Tests use it to tell that
// an event has arrived.
func (tc *TokenCache) Evicted(sessionID int64) bool {
	tc.mu.RLock()
	defer tc.mu.RUnlock()
	for n := tc.seq; n > 0 && tc.seq-n < evictionLog; n-- {
		if tc.log[n%evictionLog] == sessionID {
			return true
		}
	}
	return false
}
