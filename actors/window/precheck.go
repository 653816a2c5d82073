package window

import (
	"context"

	"kj/storage"
)

// precheck refuses from the node's board, without the desk or the store, a
// bet the desk would refuse whatever the store holds: one that arrived
// before its round's betting opened, or whose amount is outside the limits
// of its round while betting is open (a round keeps the limits it was
// created with, so no bet of that amount was ever accepted in it, and a
// resend of an accepted bet cannot be refused here).
//
// Everything else goes to the desk, whose transaction decides: a bet that
// arrived after betting closed, or that the wallet seems not to cover, may
// be the resend of a bet accepted in time (same bet id), which must get its
// bet back, and only the desk's transaction knows which bet ids are stored
// (on every node, and across restarts). A round the board does not hold
// (an older one, an unknown issue) goes to the desk too.
func (s *Rounds) precheck(ctx context.Context, req BetRequest) error {
	if s.Board == nil {
		return nil
	}
	if err := req.Check(); err != nil {
		return err
	}
	r, ok, err := s.Board.Round(ctx, req.WindowID, req.Issue)
	if err != nil || !ok {
		return nil // the desk decides (and meets a store that fails)
	}
	at := req.ArrivedAt.UnixMilli()
	switch {
	case at < r.StartsAt:
		return ErrBettingNotOpen
	case r.State == storage.RoundOpen && at < r.BettingEndsAt && (req.Amount < r.MinBet || req.Amount > r.MaxBet):
		return &LimitError{Amount: req.Amount, Min: r.MinBet, Max: r.MaxBet}
	}
	return nil
}
