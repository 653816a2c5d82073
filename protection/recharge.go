package protection

import (
	"context"
	"errors"
	"time"

	"kj/storage"
)

// Recharges: a player who has stopped themselves cannot place a recharge
// order; an order beyond a deposit limit is taken (its funds are already
// sent) but held, not credited, until the limit allows it or an operator
// releases it. The wallet calls these (wallet.Deposits).

// Placing refuses a recharge order of a player in a cool-off or a
// self-exclusion (*ExcludedError).
func (s *Service) Placing(ctx context.Context, userID int64) error {
	now := s.Clock.Now().UnixMilli()
	ex, err := s.exclusionInForce(ctx, s.DB, userID, now)
	if err != nil {
		return err
	}
	if ex != nil {
		return s.excludedError(ex)
	}
	return nil
}

// Placed runs in the transaction that creates order o: when o would take
// the player's deposits of a period beyond their limit, it holds o and
// returns the *HeldError saying which limit and until when (the order is
// still created); otherwise nil.
func (s *Service) Placed(ctx context.Context, tx storage.Tx, o storage.RechargeOrder) error {
	now := s.Clock.Now()
	held, err := s.overDeposit(ctx, tx, o, now)
	if err != nil || held == nil {
		return err
	}
	if err := storage.PutProtectionHold(ctx, tx, s.holdRow(o, held, now)); err != nil {
		return err
	}
	return held
}

// overDeposit is the hold o needs under the deposit limits at now, or nil.
func (s *Service) overDeposit(ctx context.Context, q storage.Querier, o storage.RechargeOrder, now time.Time) (*HeldError, error) {
	ms := now.UnixMilli()
	limits, err := storage.ProtectionLimits(ctx, q, o.UserID)
	if err != nil {
		return nil, err
	}
	var lim [3]int64
	some := false
	for _, l := range limits {
		if i := periodIndex(l.Period); l.Kind == Deposit && i >= 0 {
			lim[i] = Effective(l, ms)
			some = some || lim[i] > 0
		}
	}
	if !some {
		return nil, nil
	}
	deps, err := storage.DepositsSince(ctx, q, o.UserID, o.ID, s.starts(now))
	if err != nil {
		return nil, err
	}
	// The longest period over its limit says when the order can go: the
	// others reset before it.
	var out *HeldError
	for i, p := range Periods {
		if lim[i] > 0 && deps[i]+o.Amount > lim[i] {
			out = &HeldError{Reason: Deposit + "." + p, Limit: lim[i], Until: s.PeriodEnd(now, p)}
		}
	}
	return out, nil
}

func (s *Service) holdRow(o storage.RechargeOrder, h *HeldError, now time.Time) storage.ProtectionHold {
	var until int64
	if !h.Until.IsZero() {
		until = h.Until.UnixMilli()
	}
	return storage.ProtectionHold{OrderID: o.ID, UserID: o.UserID, Reason: h.Reason, UntilAt: until, CreatedAt: now.UnixMilli()}
}

// Crediting is asked before an operator credits order o. An order an
// operator released goes through. Otherwise a player in a cool-off or a
// self-exclusion, or a deposit limit the order would now break, holds the
// order (recorded, so the console lists it) and refuses with the
// *HeldError; an order held earlier that the limit now allows is let go
// and goes through.
func (s *Service) Crediting(ctx context.Context, o storage.RechargeOrder) error {
	h, err := storage.ProtectionHoldOf(ctx, s.DB, o.ID)
	switch {
	case err == nil && h.ReleasedBy != 0:
		return nil // an operator decided
	case err != nil && !errors.Is(err, storage.ErrNotFound):
		return err
	}
	wasHeld := err == nil && h.ReleasedAt == 0
	now := s.Clock.Now()
	var held *HeldError
	ex, err := s.exclusionInForce(ctx, s.DB, o.UserID, now.UnixMilli())
	if err != nil {
		return err
	}
	if ex != nil {
		e := s.excludedError(ex)
		held = &HeldError{Reason: ex.Kind, Until: e.Until}
	} else if held, err = s.overDeposit(ctx, s.DB, o, now); err != nil {
		return err
	}
	if held != nil {
		if err := storage.PutProtectionHold(ctx, s.DB, s.holdRow(o, held, now)); err != nil {
			return err
		}
		return held
	}
	if wasHeld {
		if _, err := storage.ReleaseProtectionHold(ctx, s.DB, o.ID, 0, now.UnixMilli()); err != nil {
			return err
		}
	}
	return nil
}

// Release lets a held order be credited, by an operator's decision, inside
// tx (with the operator's audit entry). It reports whether the order was
// held.
func (s *Service) Release(ctx context.Context, tx storage.Tx, orderID, operatorID int64) (bool, error) {
	return storage.ReleaseProtectionHold(ctx, tx, orderID, operatorID, s.Clock.Now().UnixMilli())
}

// HoldOf is an order's hold still in force, or nil.
func (s *Service) HoldOf(ctx context.Context, orderID int64) (*storage.ProtectionHold, error) {
	h, err := storage.ProtectionHoldOf(ctx, s.DB, orderID)
	if errors.Is(err, storage.ErrNotFound) || (err == nil && h.ReleasedAt != 0) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &h, nil
}

// Held reports whether err is a hold (Placed's report).
func (s *Service) Held(err error) bool {
	var h *HeldError
	return errors.As(err, &h)
}
