package protection

import (
	"context"
	"strconv"
	"sync"
	"time"

	"kj/internal/bus"
	"kj/storage"
)

// ChangedSubject carries the id of a player whose limits or exclusions
// changed, so every node drops its copy of that player's figures.
const ChangedSubject = "kj.cache.protection"

// MaxAge bounds how old a node's copy of a player's figures may be when a
// bet is judged. Within it the copy follows this node's own bets at once;
// it learns of the player's bets placed on other nodes, and of the returns
// of settled bets, when it reloads. A return only lowers the loss, so a
// copy behind on returns refuses early rather than late.
const MaxAge = 5 * time.Second

// cacheCap is how many players' figures a node keeps before it forgets
// the stale ones.
const cacheCap = 50_000

// ListAge bounds how old a node's list of protected players may be while
// the bus is up (every change reaches every node over it at once); with
// the bus down, MaxAge does.
const ListAge = time.Minute

// cache keeps, per player, what judging a bet needs: the loss limits, the
// exclusions, and the losses of the current day, week and month. The bet
// path is hot (thousands of bets a second), so it must not ask the store
// each time.
//
// Most players set no limit: the node keeps the list of those who have a
// loss limit or an exclusion (protected), so every other player's bet
// costs a map lookup and no read at all.
type cache struct {
	s     *Service
	bus   bus.Bus
	mu    sync.Mutex
	users map[int64]*figures

	listMu    sync.Mutex // held while the list loads, so one read serves all waiting bets
	protected map[int64]bool
	listed    time.Time // when protected was loaded; zero: load it
}

// figures are one player's: loaded from the store, then moved by this
// node's bets.
type figures struct {
	mu         sync.Mutex
	loaded     time.Time // zero: load before use
	gen        uint64    // bumped at each load and drop
	dayStart   int64     // the day the figures were loaded in (a new day reloads)
	limits     [3]storage.ProtectionLimit
	exclusions []storage.ProtectionExclusion
	loss       [3]int64 // stakes minus returns per period, in Periods' order
}

func newCache(s *Service, b bus.Bus) *cache {
	c := &cache{s: s, bus: b, users: map[int64]*figures{}}
	if b != nil {
		if _, err := b.Subscribe(ChangedSubject, func(_ string, data []byte) {
			if id, err := strconv.ParseInt(string(data), 10, 64); err == nil {
				c.mark(id)
				c.drop(id)
			}
		}); err == nil {
			// Changes published while the bus was down never came.
			bus.OnResume(b, c.dropAll)
		}
	}
	return c
}

func (c *cache) get(userID int64) *figures {
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.users[userID]
	if f == nil {
		if len(c.users) >= cacheCap {
			c.forgetStale()
		}
		f = &figures{}
		c.users[userID] = f
	}
	return f
}

// forgetStale drops the figures that would be reloaded anyway (c.mu held).
func (c *cache) forgetStale() {
	now := c.s.Clock.Now()
	for id, f := range c.users {
		if f.mu.TryLock() {
			if now.Sub(f.loaded) >= MaxAge {
				delete(c.users, id)
			}
			f.mu.Unlock()
		}
	}
}

func (c *cache) drop(userID int64) {
	c.mu.Lock()
	f := c.users[userID]
	c.mu.Unlock()
	if f != nil {
		f.mu.Lock()
		f.loaded, f.gen = time.Time{}, f.gen+1
		f.mu.Unlock()
	}
}

func (c *cache) dropAll() {
	c.mu.Lock()
	clear(c.users)
	c.mu.Unlock()
	c.listMu.Lock()
	c.listed = time.Time{}
	c.listMu.Unlock()
}

// mark puts a player on the list of protected players (a change of
// theirs was made; the next load of the list confirms it).
func (c *cache) mark(userID int64) {
	c.listMu.Lock()
	if c.protected != nil {
		c.protected[userID] = true
	}
	c.listMu.Unlock()
}

// isProtected reports whether the player's bets need judging, from the
// node's list, loaded again when older than ListAge (MaxAge while the bus
// is down).
func (c *cache) isProtected(ctx context.Context, userID int64, now time.Time) (bool, error) {
	c.listMu.Lock()
	defer c.listMu.Unlock()
	age := ListAge
	if c.bus == nil || !bus.Up(c.bus) {
		age = MaxAge
	}
	if c.protected == nil || now.Sub(c.listed) >= age || now.Before(c.listed) {
		ids, err := storage.ProtectedPlayers(ctx, c.s.DB, now.UnixMilli())
		if err != nil {
			return false, err
		}
		c.protected = make(map[int64]bool, len(ids))
		for _, id := range ids {
			c.protected[id] = true
		}
		c.listed = now
	}
	return c.protected[userID], nil
}

// changed drops a player's figures here and on every node, after a change
// of their limits or exclusions has committed.
func (c *cache) changed(ctx context.Context, userID int64) {
	c.mark(userID)
	c.drop(userID)
	if c.bus != nil {
		// A lost event costs at most MaxAge on the other nodes.
		_ = c.bus.Publish(ctx, ChangedSubject, []byte(strconv.FormatInt(userID, 10)))
	}
}

// load reads a player's figures from the store (f.mu held).
func (c *cache) load(ctx context.Context, f *figures, userID int64, now time.Time) error {
	s := c.s
	ms := now.UnixMilli()
	limits, err := storage.ProtectionLimits(ctx, s.DB, userID)
	if err != nil {
		return err
	}
	ex, err := storage.ProtectionExclusionsInForce(ctx, s.DB, userID, ms)
	if err != nil {
		return err
	}
	starts := s.starts(now)
	totals, err := storage.BetTotalsSince(ctx, s.DB, userID, starts)
	if err != nil {
		return err
	}
	f.limits = [3]storage.ProtectionLimit{}
	for _, l := range limits {
		if i := periodIndex(l.Period); l.Kind == Loss && i >= 0 {
			f.limits[i] = l
		}
	}
	f.exclusions = ex
	for i := range f.loss {
		f.loss[i] = totals[i].Loss()
	}
	f.loaded, f.dayStart, f.gen = now, starts[0], f.gen+1
	return nil
}

// check judges a stake against the figures at now (f.mu held).
func (s *Service) check(f *figures, now time.Time, stake int64) error {
	ms := now.UnixMilli()
	var in *storage.ProtectionExclusion
	for i, e := range f.exclusions {
		if e.StartsAt <= ms && (e.EndsAt == 0 || e.EndsAt > ms) {
			if in == nil || e.EndsAt == 0 || (in.EndsAt != 0 && e.EndsAt > in.EndsAt) {
				in = &f.exclusions[i]
			}
		}
	}
	if in != nil {
		return s.excludedError(in)
	}
	for i, p := range Periods {
		if l := Effective(f.limits[i], ms); l > 0 && f.loss[i]+stake > l {
			return &LimitError{Kind: Loss, Period: p, Limit: l, ResetsAt: s.PeriodEnd(now, p)}
		}
	}
	return nil
}

// Bet judges a stake of a player against their exclusions and loss
// limits and, when it passes, runs place (which places the bet or bets,
// e.g. a slip's selections for their total stake) and counts the stake
// at once, so the player's next bet on this node sees it. A refusal is a
// *ExcludedError or a *LimitError and place is not run; place's own error
// is returned as it is, and its stake is taken back. The figures come
// from the node's memory (MaxAge); a store that cannot load them refuses
// the bet with its error.
func (s *Service) Bet(ctx context.Context, userID, stake int64, place func() error) error {
	now := s.Clock.Now()
	protected, err := s.cache.isProtected(ctx, userID, now)
	if err != nil {
		return err
	}
	if !protected {
		return place() // no loss limit, no exclusion: nothing to judge or count
	}
	f := s.cache.get(userID)
	f.mu.Lock()
	if now.Sub(f.loaded) >= MaxAge || now.Before(f.loaded) || s.PeriodStart(now, Day).UnixMilli() != f.dayStart {
		if err := s.cache.load(ctx, f, userID, now); err != nil {
			f.loaded = time.Time{}
			f.mu.Unlock()
			return err
		}
	}
	err = s.check(f, now, stake)
	gen := f.gen
	if err == nil {
		for i := range f.loss {
			f.loss[i] += stake
		}
	}
	f.mu.Unlock()
	if err != nil {
		return err
	}
	if err := place(); err != nil {
		f.mu.Lock()
		if f.gen == gen { // not reloaded meanwhile: the stake is still counted
			for i := range f.loss {
				f.loss[i] -= stake
			}
		}
		f.mu.Unlock()
		return err
	}
	return nil
}
