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
// when it is back.
//
// MaxAge bounds what a lost event can cost, without expiring the copies
// (which would send every hot copy back to the store every MaxAge: most of
// the store's work under a read-heavy load). Every node numbers the events
// it publishes and records the count in the store (storage.PutChangeMark)
// every markEvery; every markEvery it also reads the other nodes' counts. A
// node that missed an event — the bus dropped it, or the writer was cut
// off from the bus but not from the store — sees a count higher than what
// it heard, or a gap in the numbers it heard, and drops everything. Copies
// are served only while that check has succeeded within MaxAge, so no copy
// is older than the last change it missed by more than about MaxAge. A
// change made outside kj is caught by the manual mark
// (storage.ManualChangeMark), and at the latest when a copy reaches
// CopyMaxAge.
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
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"kj/internal/bus"
	"kj/internal/clock"
	"kj/storage"
)

// Subject carries what another node's commit changed: "<origin> <seq> *"
// (every user) or "<origin> <seq> <id> <id> ...", seq numbering the
// origin's events from 1.
const Subject = "kj.cache.users"

const (
	// MaxAge is the backstop: copies are served only while the node has
	// confirmed, within MaxAge, that it heard every change event the other
	// nodes recorded in the store.
	MaxAge = 2 * time.Second
	// markEvery is how often a node records its count of events and checks
	// the others'. A missed event is found within about two of these.
	markEvery = 500 * time.Millisecond
	// markRefresh rewrites an idle node's mark, so forgetMarksAfter never
	// removes a live node's.
	markRefresh = time.Minute
	// forgetMarksAfter removes the marks of stopped nodes.
	forgetMarksAfter = time.Hour
	// CopyMaxAge bounds a copy's own age, for a change made outside kj
	// that nobody marked.
	CopyMaxAge = 5 * time.Minute
)

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

	marks marks

	walletHit, walletMiss, walletBypass    prometheus.Counter
	profileHit, profileMiss, profileBypass prometheus.Counter
}

// New keeps copies of db's users in the node, told of changes by db's
// commits and, from other nodes, by b. Close stops listening.
func New(db storage.DB, b bus.Bus, c clock.Clock) *Views {
	v := &Views{db: db, bus: b, clock: c, maxAge: CopyMaxAge, origin: strconv.FormatInt(storage.NewID(), 36),
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
	v.marks.heard = map[string]int64{}
	v.checkMarks() // a node serves copies from its first check on
	// The check runs on the machine's time, not v.clock: the backstop is
	// about time that really passed, and a test that moves its fake clock
	// by days must not run a check for every half second of them.
	v.marks.mu.Lock()
	v.marks.timer = time.AfterFunc(markEvery, v.tick)
	v.marks.mu.Unlock()
	return v
}

// Close stops checking the marks; copies are no longer served.
func (v *Views) Close() {
	v.marks.mu.Lock()
	v.marks.closed = true
	if v.marks.timer != nil {
		v.marks.timer.Stop()
	}
	v.marks.mu.Unlock()
	v.marks.confirmed.Store(0)
}

// kept reports whether copies may be served now.
func (v *Views) kept() bool {
	if !v.live || (v.bus != nil && !bus.Up(v.bus)) {
		return false
	}
	confirmed := v.marks.confirmed.Load()
	return confirmed != 0 && time.Now().UnixNano()-confirmed < int64(MaxAge)
}

// Wallet is the user's wallet summary.
func (v *Views) Wallet(ctx context.Context, userID int64) (storage.WalletSummary, error) {
	return read(v, v.wallets, userID, v.maxAge, v.walletHit, v.walletMiss, v.walletBypass, func() (storage.WalletSummary, error) {
		return storage.WalletSummaryOf(ctx, v.db, userID)
	})
}

// Profile is the user's row with the facts the mine page shows
// (storage.ErrNotFound when the user is gone). The row's password hash is
// not kept.
func (v *Views) Profile(ctx context.Context, userID int64) (storage.ProfileFacts, error) {
	return read(v, v.profiles, userID, v.maxAge, v.profileHit, v.profileMiss, v.profileBypass, func() (storage.ProfileFacts, error) {
		f, err := storage.ProfileFactsOf(ctx, v.db, userID)
		f.User.PasswordHash = ""
		return f, err
	})
}

// Agents is the number of operators (customer-service agents).
func (v *Views) Agents(ctx context.Context) (int, error) {
	// `kj admin create-operator` adds one from another process, unmarked:
	// the count is one row, so it keeps the short age.
	return read(v, v.agents, 0, MaxAge, nil, nil, nil, func() (int, error) { return storage.CountAgents(ctx, v.db) })
}

func read[V any](v *Views, t *table[V], id int64, maxAge time.Duration, hit, miss, bypass prometheus.Counter, load func() (V, error)) (V, error) {
	if !v.kept() {
		inc(bypass)
		return load()
	}
	now := v.clock.Now()
	if x, ok := t.get(id, now, maxAge); ok {
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
	// Events are numbered even without a bus: a node of the same store
	// that has none learns of them from the mark alone.
	ctx := context.Background()
	if c.All {
		seq := v.marks.published.Add(1)
		if v.bus != nil {
			_ = v.bus.Publish(ctx, Subject, []byte(v.origin+" "+strconv.FormatInt(seq, 10)+" *"))
		}
		return
	}
	for len(c.Users) > 0 {
		n := min(len(c.Users), idsPerEvent)
		seq := v.marks.published.Add(1)
		if v.bus == nil {
			c.Users = c.Users[n:]
			continue
		}
		b := make([]byte, 0, len(v.origin)+20+n*20)
		b = append(b, v.origin...)
		b = append(b, ' ')
		b = strconv.AppendInt(b, seq, 10)
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
	seqText, rest, _ := strings.Cut(rest, " ")
	seq, err := strconv.ParseInt(seqText, 10, 64)
	if err != nil || v.marks.heardEvent(origin, seq) {
		v.dropAll() // an event in between was lost (or this one is unreadable)
		return
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

// marks is a node's side of the change marks (see the package comment).
type marks struct {
	published atomic.Int64 // events this node numbered
	confirmed atomic.Int64 // unix nanos when the last good check began; 0: none

	mu       sync.Mutex
	heard    map[string]int64 // the highest seq heard of each other origin
	recorded int64            // the seq last written to the store
	at       time.Time        // when it was written
	forgotAt time.Time        // when stopped nodes' marks were last removed
	timer    *time.Timer
	closed   bool
}

// heardEvent notes event seq of origin and reports whether one before it
// was missed. The first event heard of an origin counts as a gap unless it
// is its first: what came before is unknown.
func (m *marks) heardEvent(origin string, seq int64) (gap bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	last, known := m.heard[origin]
	switch {
	case seq <= last:
		return false // late: a check already took it into account
	case !known:
		gap = seq > 1
	default:
		gap = seq != last+1
	}
	m.heard[origin] = seq
	return gap
}

func (v *Views) tick() {
	v.checkMarks()
	v.marks.mu.Lock()
	if !v.marks.closed {
		v.marks.timer = time.AfterFunc(markEvery, v.tick)
	}
	v.marks.mu.Unlock()
}

// checkMarks records this node's count of events and compares the other
// nodes' with what it heard; when it finds none missed, copies may be
// served for MaxAge from its start.
func (v *Views) checkMarks() {
	ctx, cancel := context.WithTimeout(context.Background(), MaxAge)
	defer cancel()
	began := time.Now()
	m := &v.marks
	published := m.published.Load()
	m.mu.Lock()
	write := published != m.recorded || began.Sub(m.at) >= markRefresh
	forget := began.Sub(m.forgotAt) >= forgetMarksAfter/4
	m.mu.Unlock()
	if write {
		if err := storage.PutChangeMark(ctx, v.db, v.origin, published, began); err != nil {
			return
		}
		m.mu.Lock()
		m.recorded, m.at = published, began
		m.mu.Unlock()
	}
	if forget {
		if err := storage.ForgetChangeMarks(ctx, v.db, began.Add(-forgetMarksAfter)); err == nil {
			m.mu.Lock()
			m.forgotAt = began
			m.mu.Unlock()
		}
	}
	stored, err := storage.ChangeMarks(ctx, v.db)
	if err != nil {
		return
	}
	missed := false
	m.mu.Lock()
	for origin, seq := range stored {
		if origin != v.origin && seq > m.heard[origin] {
			missed = true
			m.heard[origin] = seq
		}
	}
	m.mu.Unlock()
	if missed {
		v.dropAll()
	}
	m.confirmed.Store(began.UnixNano())
}
