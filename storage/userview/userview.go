// Package userview keeps in the node what players read of themselves on
// every screen, so those reads cost no store query in the steady state:
// each user's wallet summary (/user/amount, /user/getUserAmount) and
// profile with its facts — unread notices, customer-service operator,
// recharge flag — (/user/mine, /user/index), and the number of operators
// (/getBaseData).
//
// A copy is kept from the first read. Whatever changes it drops it when its
// transaction commits (storage.WatchCommits: the store itself says which
// users a commit touched, whichever part of the program wrote — an HTTP
// handler, the ledger writer, the bet desk settling a round), on the
// writing node before the write is acknowledged, so a player always reads
// their own writes there; every other node drops it when the bus delivers
// the same news (Subject), one bus round trip later. While the bus is down
// (bus.Up) every read goes to the store, and everything kept is dropped
// when it is back. MaxAge bounds what a missed event can cost: no copy is
// served older than that.
//
// A read that missed loads from the store and keeps the result only if no
// drop of that user came in meanwhile, so a load that began before a commit
// never puts an older value back after the commit's drop.
package userview

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"kj/internal/bus"
	"kj/internal/clock"
	"kj/storage"
)

// Subject carries what another node's commit changed: "<origin> *" (every
// user) or "<origin> <id> <id> ...".
const Subject = "kj.cache.users"

// MaxAge is the backstop: no copy is served older than this, whatever the
// bus missed.
const MaxAge = 2 * time.Second

// idsPerEvent bounds one bus event (a settlement touches thousands of
// wallets in one commit).
const idsPerEvent = 4096

var lookups = promauto.NewCounterVec(prometheus.CounterOpts{
	Name: "kj_userview_lookups_total",
	Help: "Reads of users' wallet summaries and profiles by where the answer came from: memory (hit), the store (miss), or the store because the bus is down (bypass).",
}, []string{"view", "result"})

// Views are one node's copies.
type Views struct {
	db     storage.DB
	bus    bus.Bus // nil: a single node, told of its own commits only
	clock  clock.Clock
	maxAge time.Duration
	origin string // this node's events, which it has already applied

	wallets  *table[storage.WalletSummary]
	profiles *table[storage.ProfileFacts]
	agents   *table[int] // one entry, key 0
	live     bool        // listening to the bus (or there is none)

	walletHit, walletMiss, walletBypass    prometheus.Counter
	profileHit, profileMiss, profileBypass prometheus.Counter
}

// New keeps copies of db's users in the node, told of changes by db's
// commits and, from other nodes, by b. Close stops listening.
func New(db storage.DB, b bus.Bus, c clock.Clock) *Views {
	v := &Views{db: db, bus: b, clock: c, maxAge: MaxAge, origin: strconv.FormatInt(storage.NewID(), 36),
		wallets: newTable[storage.WalletSummary](), profiles: newTable[storage.ProfileFacts](), agents: newTable[int](),
		walletHit: lookups.WithLabelValues("wallet", "hit"), walletMiss: lookups.WithLabelValues("wallet", "miss"),
		walletBypass: lookups.WithLabelValues("wallet", "bypass"), profileHit: lookups.WithLabelValues("profile", "hit"),
		profileMiss: lookups.WithLabelValues("profile", "miss"), profileBypass: lookups.WithLabelValues("profile", "bypass")}
	v.live = true
	if b != nil {
		if _, err := b.Subscribe(Subject, v.onEvent); err != nil {
			v.live = false // other nodes' commits would go unheard: always read the store
		}
		// Events published while the bus was down never came.
		bus.OnResume(b, v.dropAll)
	}
	storage.WatchCommits(db, v.committed)
	return v
}

// kept reports whether copies may be served now.
func (v *Views) kept() bool { return v.live && (v.bus == nil || bus.Up(v.bus)) }

// Wallet is the user's wallet summary.
func (v *Views) Wallet(ctx context.Context, userID int64) (storage.WalletSummary, error) {
	return read(v, v.wallets, userID, v.walletHit, v.walletMiss, v.walletBypass, func() (storage.WalletSummary, error) {
		return storage.WalletSummaryOf(ctx, v.db, userID)
	})
}

// Profile is the user's row with the facts the mine page shows
// (storage.ErrNotFound when the user is gone). The row's password hash is
// not kept.
func (v *Views) Profile(ctx context.Context, userID int64) (storage.ProfileFacts, error) {
	return read(v, v.profiles, userID, v.profileHit, v.profileMiss, v.profileBypass, func() (storage.ProfileFacts, error) {
		f, err := storage.ProfileFactsOf(ctx, v.db, userID)
		f.User.PasswordHash = ""
		return f, err
	})
}

// Agents is the number of operators (customer-service agents).
func (v *Views) Agents(ctx context.Context) (int, error) {
	return read(v, v.agents, 0, nil, nil, nil, func() (int, error) { return storage.CountAgents(ctx, v.db) })
}

func read[V any](v *Views, t *table[V], id int64, hit, miss, bypass prometheus.Counter, load func() (V, error)) (V, error) {
	if !v.kept() {
		inc(bypass)
		return load()
	}
	now := v.clock.Now()
	if x, ok := t.get(id, now, v.maxAge); ok {
		inc(hit)
		return x, nil
	}
	inc(miss)
	tk := t.mark(id)
	x, err := load()
	if err == nil {
		t.fill(id, tk, x, now)
	}
	return x, err
}

func inc(c prometheus.Counter) {
	if c != nil {
		c.Inc()
	}
}

// committed drops what a commit through this node's store changed, then
// tells the other nodes.
func (v *Views) committed(c storage.Committed) {
	if c.All {
		v.dropAll()
	} else {
		v.drop(c.Users)
	}
	if v.bus == nil {
		return
	}
	ctx := context.Background()
	if c.All {
		_ = v.bus.Publish(ctx, Subject, []byte(v.origin+" *"))
		return
	}
	for len(c.Users) > 0 {
		n := min(len(c.Users), idsPerEvent)
		b := make([]byte, 0, len(v.origin)+n*20)
		b = append(b, v.origin...)
		for _, id := range c.Users[:n] {
			b = append(b, ' ')
			b = strconv.AppendInt(b, id, 10)
		}
		_ = v.bus.Publish(ctx, Subject, b)
		c.Users = c.Users[n:]
	}
}

// onEvent applies another node's commit.
func (v *Views) onEvent(_ string, data []byte) {
	origin, rest, _ := strings.Cut(string(data), " ")
	if origin == v.origin {
		return // applied at the commit
	}
	if rest == "*" {
		v.dropAll()
		return
	}
	var ids []int64
	for _, f := range strings.Fields(rest) {
		if id, err := strconv.ParseInt(f, 10, 64); err == nil {
			ids = append(ids, id)
		}
	}
	v.drop(ids)
}

func (v *Views) drop(ids []int64) {
	for _, id := range ids {
		v.wallets.drop(id)
		v.profiles.drop(id)
	}
}

func (v *Views) dropAll() {
	v.wallets.dropAll()
	v.profiles.dropAll()
	v.agents.dropAll()
}

// table is one kind of copy, by user id, in shards so reads on many cores
// do not queue on one lock.
type table[V any] struct {
	shards [shardCount]shard[V]
}

const (
	shardCount    = 64
	slotsPerShard = 1 << 14 // ~1M users per node before a shard starts over
)

type shard[V any] struct {
	mu    sync.RWMutex
	slots map[int64]*slot[V]
	epoch uint64 // bumped when the shard is emptied
}

// slot is one user's copy. gen counts the drops, so a load can tell
// whether one came in while it read the store.
type slot[V any] struct {
	gen uint64
	ok  bool
	at  time.Time // when the load that filled it began
	v   V
}

// ticket is what a load remembers of its slot when it began.
type ticket struct{ gen, epoch uint64 }

func newTable[V any]() *table[V] {
	t := &table[V]{}
	for i := range t.shards {
		t.shards[i].slots = map[int64]*slot[V]{}
	}
	return t
}

func (t *table[V]) shard(id int64) *shard[V] { return &t.shards[uint64(id)%shardCount] }

func (t *table[V]) get(id int64, now time.Time, maxAge time.Duration) (V, bool) {
	sh := t.shard(id)
	sh.mu.RLock()
	s := sh.slots[id]
	var v V
	ok := s != nil && s.ok && now.Sub(s.at) < maxAge
	if ok {
		v = s.v
	}
	sh.mu.RUnlock()
	return v, ok
}

func (t *table[V]) mark(id int64) ticket {
	sh := t.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	s := sh.slots[id]
	if s == nil {
		if len(sh.slots) >= slotsPerShard {
			clear(sh.slots)
			sh.epoch++
		}
		s = &slot[V]{}
		sh.slots[id] = s
	}
	return ticket{gen: s.gen, epoch: sh.epoch}
}

func (t *table[V]) fill(id int64, tk ticket, v V, at time.Time) {
	sh := t.shard(id)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if s := sh.slots[id]; s != nil && s.gen == tk.gen && sh.epoch == tk.epoch {
		s.v, s.ok, s.at = v, true, at
	}
}

func (t *table[V]) drop(id int64) {
	sh := t.shard(id)
	sh.mu.Lock()
	if s := sh.slots[id]; s != nil {
		var zero V
		s.gen++
		s.ok, s.v = false, zero
	}
	sh.mu.Unlock()
}

func (t *table[V]) dropAll() {
	for i := range t.shards {
		sh := &t.shards[i]
		sh.mu.Lock()
		clear(sh.slots)
		sh.epoch++
		sh.mu.Unlock()
	}
}
