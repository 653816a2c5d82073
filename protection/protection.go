// Package protection owns player protection: the deposit and loss limits a
// player sets on themselves (per day, week and month, the days in
// KJ_DAY_TIMEZONE), cool-offs and self-exclusions, the reality-check
// interval, and the recharge orders held by a deposit limit or an
// exclusion. The bet path asks it before every bet (Bet), answered from
// the node's memory; the wallet asks it before taking and before
// crediting a recharge (RechargeGuard). docs/PROTECTION.md describes the
// rules.
package protection

import (
	"errors"
	"fmt"
	"time"

	"kj/internal/bus"
	"kj/internal/clock"
	"kj/storage"
)

// Kinds of limit.
const (
	Deposit = "deposit"
	Loss    = "loss"
)

// Periods a limit counts over, each starting at local midnight in the day
// zone: the day, the week from Monday, the month from the 1st.
const (
	Day   = "day"
	Week  = "week"
	Month = "month"
)

// Periods in the order the totals keep them.
var Periods = []string{Day, Week, Month}

// Kinds of exclusion.
const (
	CoolOff       = "cooloff"
	SelfExclusion = "selfexclusion"
)

// Bounds of what a player may set.
const (
	// RaiseDelay is how long a raised (or removed) limit waits before it
	// takes effect; a lower one takes effect at once.
	RaiseDelay = 24 * time.Hour
	// CoolOffMin and CoolOffMax bound a cool-off.
	CoolOffMin = 24 * time.Hour
	CoolOffMax = 6 * 7 * 24 * time.Hour
	// SelfExclusionMinMonths is the shortest self-exclusion; the longest is
	// SelfExclusionMaxMonths, beyond which a player picks permanent.
	SelfExclusionMinMonths = 6
	SelfExclusionMaxMonths = 60
	// RealityMaxMinutes bounds the reality-check interval (0 is off).
	RealityMaxMinutes = 240
)

// Errors of bad input (the API turns them into its codes).
var (
	ErrBadKind      = errors.New("protection: kind must be deposit or loss")
	ErrBadPeriod    = errors.New("protection: period must be day, week or month")
	ErrBadAmount    = errors.New("protection: a limit must be 0 (none) or a positive amount of cents within the ledger's range")
	ErrBadReality   = errors.New("protection: the reality check is 0 (off) or 1 to 240 minutes")
	ErrBadExclusion = errors.New("protection: unknown kind of exclusion")
)

// LimitError refuses a bet (Kind loss) beyond a limit, or holds a recharge
// (Kind deposit): which limit, its amount and when its period resets.
type LimitError struct {
	Kind, Period string
	Limit        int64     // cents
	ResetsAt     time.Time // in the day zone
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("protection: %s %s limit of %d cents reached until %s", e.Period, e.Kind, e.Limit, e.ResetsAt.Format(time.RFC3339))
}

// ExcludedError refuses a bet or a recharge during a cool-off or a
// self-exclusion; Until is zero for a permanent one.
type ExcludedError struct {
	Kind  string
	Until time.Time
}

func (e *ExcludedError) Error() string {
	return fmt.Sprintf("protection: %s until %v", e.Kind, e.Until)
}

// Permanent reports whether the exclusion never ends.
func (e *ExcludedError) Permanent() bool { return e.Until.IsZero() }

// RangeError refuses an exclusion out of its range.
type RangeError struct{ Kind string }

func (e *RangeError) Error() string { return "protection: " + e.Kind + " out of range" }

// ShorterError refuses an exclusion that would end before the one in
// force (an exclusion cannot be shortened, only lengthened).
type ShorterError struct{ Until time.Time } // zero: the one in force is permanent

func (e *ShorterError) Error() string {
	return fmt.Sprintf("protection: already excluded until %v", e.Until)
}

// HeldError refuses to credit a recharge order held by a deposit limit or
// an exclusion, until the limit allows it or an operator releases it.
type HeldError struct {
	Reason string    // deposit.day, deposit.week, deposit.month, cooloff, selfexclusion
	Limit  int64     // the deposit limit (cents), for a deposit reason
	Until  time.Time // zero: until an operator decides
}

func (e *HeldError) Error() string { return "protection: recharge held (" + e.Reason + ")" }

// Service is player protection on one node. Its rules need only the
// store; the per-user figures the bet path reads are kept in memory
// (cache.go).
type Service struct {
	DB    storage.DB
	Clock clock.Clock
	Zone  *time.Location // KJ_DAY_TIMEZONE; nil is UTC
	cache *cache
}

// New builds the service; b (may be nil) carries word of a player's
// changed settings between the nodes' copies (ChangedSubject).
func New(db storage.DB, clk clock.Clock, zone *time.Location, b bus.Bus) *Service {
	if zone == nil {
		zone = time.UTC
	}
	s := &Service{DB: db, Clock: clk, Zone: zone}
	s.cache = newCache(s, b)
	return s
}

// PeriodStart is when the period containing t began, in the day zone.
func (s *Service) PeriodStart(t time.Time, period string) time.Time {
	t = t.In(s.Zone)
	y, m, d := t.Date()
	switch period {
	case Week:
		back := (int(t.Weekday()) + 6) % 7 // days since Monday
		return time.Date(y, m, d-back, 0, 0, 0, 0, s.Zone)
	case Month:
		return time.Date(y, m, 1, 0, 0, 0, 0, s.Zone)
	}
	return time.Date(y, m, d, 0, 0, 0, 0, s.Zone)
}

// PeriodEnd is when the period containing t resets.
func (s *Service) PeriodEnd(t time.Time, period string) time.Time {
	st := s.PeriodStart(t, period)
	switch period {
	case Week:
		return st.AddDate(0, 0, 7)
	case Month:
		return st.AddDate(0, 1, 0)
	}
	return st.AddDate(0, 0, 1)
}

// starts are the starts of the day, week and month containing t, in unix
// ms, in Periods' order.
func (s *Service) starts(t time.Time) []int64 {
	out := make([]int64, len(Periods))
	for i, p := range Periods {
		out[i] = s.PeriodStart(t, p).UnixMilli()
	}
	return out
}

// Effective is the limit in force at now (0: none): a raise waiting
// takes over once its time has come.
func Effective(l storage.ProtectionLimit, now int64) int64 {
	if l.NextAt > 0 && now >= l.NextAt {
		return l.NextAmount
	}
	return l.Amount
}

func validKind(k string) bool   { return k == Deposit || k == Loss }
func validPeriod(p string) bool { return p == Day || p == Week || p == Month }

func periodIndex(p string) int {
	for i, x := range Periods {
		if x == p {
			return i
		}
	}
	return -1
}
