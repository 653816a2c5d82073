package protection

import (
	"context"
	"errors"
	"time"

	"kj/storage"
)

// Limit is one limit as the player sees it: the amount in force (0:
// none) and a raise waiting, if any.
type Limit struct {
	Kind   string `json:"kind"`
	Period string `json:"period"`
	Amount int64  `json:"amount"` // cents in force; 0: no limit
	// Pending: a raise (or a removal, NextAmount 0) takes effect at NextAt.
	Pending    bool  `json:"pending"`
	NextAmount int64 `json:"nextAmount"`
	NextAt     int64 `json:"nextAt"` // unix ms; 0 when nothing waits
	// Used is what counts against the limit in the current period and
	// ResetsAt when that period ends (unix ms).
	Used     int64 `json:"used"`
	ResetsAt int64 `json:"resetsAt"`
}

// Exclusion is a cool-off or a self-exclusion in force.
type Exclusion struct {
	Kind     string `json:"kind"`
	StartsAt int64  `json:"startsAt"`
	EndsAt   int64  `json:"endsAt"` // 0: permanent
}

// Status is everything the responsible-play page shows.
type Status struct {
	Limits         []Limit    `json:"limits"` // every kind × period, set or not
	Exclusion      *Exclusion `json:"exclusion"`
	RealityMinutes int        `json:"realityMinutes"` // 0: off
	// TodayNet is the player's net result of bets placed today (returns
	// minus stakes, cents); SinceNet the same since the moment asked for
	// (the play session's start), 0 when none was.
	TodayNet int64 `json:"todayNet"`
	SinceNet int64 `json:"sinceNet"`
	Now      int64 `json:"now"`
}

// Status reads a player's settings and figures; since (unix ms, 0: none)
// is the start of the play session whose net result the reality check
// shows.
func (s *Service) Status(ctx context.Context, userID, since int64) (Status, error) {
	now := s.Clock.Now()
	nowMs := now.UnixMilli()
	limits, err := storage.ProtectionLimits(ctx, s.DB, userID)
	if err != nil {
		return Status{}, err
	}
	starts := s.starts(now)
	marks := append(append([]int64(nil), starts...), max(since, 0))
	bets, err := storage.BetTotalsSince(ctx, s.DB, userID, marks)
	if err != nil {
		return Status{}, err
	}
	deps, err := storage.DepositsSince(ctx, s.DB, userID, 0, starts)
	if err != nil {
		return Status{}, err
	}
	out := Status{Now: nowMs, TodayNet: -bets[0].Loss()}
	if since > 0 {
		out.SinceNet = -bets[len(starts)].Loss()
	}
	for _, kind := range []string{Deposit, Loss} {
		for i, p := range Periods {
			l := Limit{Kind: kind, Period: p, ResetsAt: s.PeriodEnd(now, p).UnixMilli()}
			for _, row := range limits {
				if row.Kind == kind && row.Period == p {
					l.Amount = Effective(row, nowMs)
					if row.NextAt > nowMs {
						l.Pending, l.NextAmount, l.NextAt = true, row.NextAmount, row.NextAt
					}
				}
			}
			if kind == Deposit {
				l.Used = deps[i]
			} else {
				l.Used = bets[i].Loss()
			}
			out.Limits = append(out.Limits, l)
		}
	}
	ex, err := s.exclusionInForce(ctx, s.DB, userID, nowMs)
	if err != nil {
		return Status{}, err
	}
	if ex != nil {
		out.Exclusion = &Exclusion{Kind: ex.Kind, StartsAt: ex.StartsAt, EndsAt: ex.EndsAt}
	}
	if out.RealityMinutes, err = storage.ProtectionReality(ctx, s.DB, userID); err != nil {
		return Status{}, err
	}
	return out, nil
}

// exclusionInForce is the exclusion that ends last among those in force
// at now, or nil.
func (s *Service) exclusionInForce(ctx context.Context, q storage.Querier, userID, now int64) (*storage.ProtectionExclusion, error) {
	list, err := storage.ProtectionExclusionsInForce(ctx, q, userID, now)
	if err != nil || len(list) == 0 {
		return nil, err
	}
	for _, e := range list {
		if e.StartsAt <= now {
			return &e, nil
		}
	}
	return nil, nil
}

// SetLimit sets a player's limit of kind over period to amount cents (0:
// no limit). A lower limit takes effect at once and cancels a raise
// waiting; a higher one (or none) waits RaiseDelay, and asking again for
// the raise already waiting does not restart its wait.
func (s *Service) SetLimit(ctx context.Context, userID int64, kind, period string, amount int64) (Limit, error) {
	switch {
	case !validKind(kind):
		return Limit{}, ErrBadKind
	case !validPeriod(period):
		return Limit{}, ErrBadPeriod
	case amount < 0 || amount > storage.MaxAmount:
		return Limit{}, ErrBadAmount
	}
	now := s.Clock.Now().UnixMilli()
	err := s.DB.Tx(ctx, func(tx storage.Tx) error {
		rows, err := storage.ProtectionLimits(ctx, tx, userID)
		if err != nil {
			return err
		}
		cur := storage.ProtectionLimit{UserID: userID, Kind: kind, Period: period}
		for _, r := range rows {
			if r.Kind == kind && r.Period == period {
				cur = r
			}
		}
		in := Effective(cur, now)
		next := cur
		next.UpdatedAt = now
		if cur.NextAt > 0 && now >= cur.NextAt { // the raise has taken effect
			next.Amount, next.NextAmount, next.NextAt = in, 0, 0
		}
		switch {
		case lower(amount, in) || amount == in:
			next.Amount, next.NextAmount, next.NextAt = amount, 0, 0
		case next.NextAt > 0 && next.NextAmount == amount:
			// the same raise again: its wait goes on
		default:
			next.NextAmount, next.NextAt = amount, now+RaiseDelay.Milliseconds()
		}
		return storage.PutProtectionLimit(ctx, tx, next)
	})
	if err != nil {
		return Limit{}, err
	}
	s.cache.changed(ctx, userID)
	st, err := s.Status(ctx, userID, 0)
	if err != nil {
		return Limit{}, err
	}
	for _, l := range st.Limits {
		if l.Kind == kind && l.Period == period {
			return l, nil
		}
	}
	return Limit{}, errors.New("protection: limit not found after saving")
}

// lower reports whether limit a is stricter than b (0 is no limit).
func lower(a, b int64) bool { return a > 0 && (b == 0 || a < b) }

// SetReality sets the reality-check interval (0: off).
func (s *Service) SetReality(ctx context.Context, userID int64, minutes int) error {
	if minutes < 0 || minutes > RealityMaxMinutes {
		return ErrBadReality
	}
	return storage.PutProtectionReality(ctx, s.DB, userID, minutes, s.Clock.Now().UnixMilli())
}

// ExclusionRequest asks for a cool-off of Days days or a self-exclusion of
// Months months or Permanent.
type ExclusionRequest struct {
	Kind      string
	Days      int
	Months    int
	Permanent bool
}

// Exclude starts a cool-off or a self-exclusion at once. It cannot be
// ended before its time: a new one is taken only if it ends later than
// the one in force (or is permanent).
func (s *Service) Exclude(ctx context.Context, userID int64, req ExclusionRequest) (Exclusion, error) {
	now := s.Clock.Now()
	var ends int64
	switch req.Kind {
	case CoolOff:
		d := time.Duration(req.Days) * 24 * time.Hour
		if req.Permanent || req.Days <= 0 || d < CoolOffMin || d > CoolOffMax {
			return Exclusion{}, &RangeError{Kind: CoolOff}
		}
		ends = now.Add(d).UnixMilli()
	case SelfExclusion:
		switch {
		case req.Permanent:
			ends = 0
		case req.Months < SelfExclusionMinMonths || req.Months > SelfExclusionMaxMonths:
			return Exclusion{}, &RangeError{Kind: SelfExclusion}
		default:
			ends = now.In(s.Zone).AddDate(0, req.Months, 0).UnixMilli()
		}
	default:
		return Exclusion{}, ErrBadExclusion
	}
	e := storage.ProtectionExclusion{ID: storage.NewID(), UserID: userID, Kind: req.Kind, StartsAt: now.UnixMilli(),
		EndsAt: ends, CreatedAt: now.UnixMilli()}
	err := s.DB.Tx(ctx, func(tx storage.Tx) error {
		cur, err := s.exclusionInForce(ctx, tx, userID, now.UnixMilli())
		if err != nil {
			return err
		}
		if cur != nil && (cur.EndsAt == 0 || (ends != 0 && ends <= cur.EndsAt)) {
			var until time.Time
			if cur.EndsAt != 0 {
				until = time.UnixMilli(cur.EndsAt).In(s.Zone)
			}
			return &ShorterError{Until: until}
		}
		return storage.CreateProtectionExclusion(ctx, tx, e)
	})
	if err != nil {
		return Exclusion{}, err
	}
	s.cache.changed(ctx, userID)
	return Exclusion{Kind: e.Kind, StartsAt: e.StartsAt, EndsAt: e.EndsAt}, nil
}

// excludedError is the refusal of an exclusion in force.
func (s *Service) excludedError(e *storage.ProtectionExclusion) *ExcludedError {
	out := &ExcludedError{Kind: e.Kind}
	if e.EndsAt != 0 {
		out.Until = time.UnixMilli(e.EndsAt).In(s.Zone)
	}
	return out
}
