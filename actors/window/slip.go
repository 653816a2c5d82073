package window

import (
	"context"
	"strconv"
	"time"
)

// MaxSlipSelections is how many selections a slip holds at most: one per
// bet content.
const MaxSlipSelections = 4

// Selection is one line of a slip: a content and its stake in cents.
type Selection struct {
	Content Content `json:"content"`
	Amount  int64   `json:"amount"`
}

// SlipRequest is a player's bet slip as it arrived: several selections on
// one round, accepted or refused together. Each selection becomes a bet of
// its own, with the bet id SlipBetID(SlipID, n), and settles on its own.
type SlipRequest struct {
	UserID     int64
	WindowID   int64
	Issue      string
	SlipID     string
	Selections []Selection
	ArrivedAt  time.Time
}

// SlipBetID is the bet id of a slip's selection n (0-based): the slip id
// and the selection's number from 1, so a resent slip names the same bets.
func SlipBetID(slipID string, n int) string { return slipID + "." + strconv.Itoa(n+1) }

// maxSlipIDLen leaves room in a bet id (64) for the selection's number.
const maxSlipIDLen = 62

// Bets checks the slip's own fields and returns its selections as bets:
// 1-4 selections of distinct contents, each a valid bet, under a slip id
// that is a bet id of at most 62 characters.
func (r SlipRequest) Bets() ([]BetRequest, error) {
	if len(r.Selections) == 0 || len(r.Selections) > MaxSlipSelections {
		return nil, ErrSlipInvalid
	}
	if len(r.SlipID) > maxSlipIDLen || !ValidBetID(r.SlipID) {
		return nil, ErrBadBetID
	}
	seen := make(map[Content]bool, len(r.Selections))
	reqs := make([]BetRequest, len(r.Selections))
	for n, sel := range r.Selections {
		q := BetRequest{UserID: r.UserID, WindowID: r.WindowID, Issue: r.Issue, Content: sel.Content,
			Amount: sel.Amount, BetID: SlipBetID(r.SlipID, n), ArrivedAt: r.ArrivedAt}
		if err := q.Check(); err != nil {
			return nil, err
		}
		if seen[sel.Content] {
			return nil, ErrSlipInvalid
		}
		seen[sel.Content] = true
		reqs[n] = q
	}
	return reqs, nil
}

// SlipView is a placed slip: its bets, in the order of its selections, and
// the total staked.
type SlipView struct {
	SlipID string    `json:"slipId"`
	Total  int64     `json:"total"`
	Bets   []BetView `json:"bets"`
}

// BetSlip places a slip: every selection is pre-checked as a single bet
// would be, then the desk accepts them together (one ledger operation for
// the total) or refuses them all with the first selection's refusal.
func (s *Rounds) BetSlip(ctx context.Context, req SlipRequest) (SlipView, error) {
	reqs, err := req.Bets()
	if err != nil {
		return SlipView{}, err
	}
	for _, q := range reqs {
		if err := s.precheck(ctx, q); err != nil {
			return SlipView{}, err
		}
	}
	bets, err := s.Desk.PlaceSlip(ctx, reqs)
	if err != nil {
		return SlipView{}, err
	}
	v := SlipView{SlipID: req.SlipID, Bets: make([]BetView, len(bets))}
	for n, b := range bets {
		v.Bets[n] = ViewBet(b)
		v.Total += b.Amount
	}
	return v, nil
}
