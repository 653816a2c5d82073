package httpapi

import (
	"encoding/json"
	"errors"
	"math"

	"kj/actors/window"
	"kj/internal/apierr"
)

// The bet slip (/activation/betSlip): several selections on one round,
// accepted or refused together with one debit of the total. Each selection
// becomes a bet with its own id (slipId.1, slipId.2, ...) that settles on
// its own; /activation/betRequest stays the single bet.

type slipSelectionReq struct {
	Content string          `json:"content"`
	Amount  json.RawMessage `json:"amount"`
}

type betSlipReq struct {
	WindowID   int64              `json:"windowId"`
	Issue      string             `json:"issue"`
	SlipID     string             `json:"slipId"`
	Selections []slipSelectionReq `json:"selections"`
}

func (s *Server) betSlip(c *Call) (any, error) {
	arrived := s.Clock.Now() // the slip is judged by when it arrived, as a bet is
	rs, req, err := roundsRequest[betSlipReq](s, c)
	if err != nil {
		return nil, err
	}
	if err := checkBetRound(req.WindowID, req.Issue); err != nil {
		return nil, err
	}
	switch {
	case req.SlipID == "":
		return nil, apierr.Required("slipId")
	case len(req.Selections) == 0:
		return nil, apierr.Required("selections")
	case len(req.Selections) > window.MaxSlipSelections:
		return nil, slipInvalid()
	}
	sels := make([]window.Selection, len(req.Selections))
	var total int64 // the slip's stake, saturating: an amount that large is refused by the round's maximum
	for n, sel := range req.Selections {
		if err := checkStake(sel.Content, sel.Amount); err != nil {
			return nil, err
		}
		amount, err := parseCents(sel.Amount)
		if err != nil {
			return nil, err
		}
		sels[n] = window.Selection{Content: window.Content(sel.Content), Amount: amount}
		if total > math.MaxInt64-amount {
			total = math.MaxInt64
		} else {
			total += amount
		}
	}
	// Player protection judges the slip once, by its total, as it judges a
	// single bet by its amount (protection.go).
	var slip window.SlipView
	betIDs := make([]string, len(sels))
	for n := range sels {
		betIDs[n] = window.SlipBetID(req.SlipID, n)
	}
	err = s.ProtectedBet(c.Ctx, c.User.ID, total, betIDs, func() (err error) {
		slip, err = rs.BetSlip(c.Ctx, window.SlipRequest{UserID: c.User.ID, WindowID: req.WindowID, Issue: req.Issue,
			SlipID: req.SlipID, Selections: sels, ArrivedAt: arrived})
		return err
	})
	switch {
	case errors.Is(err, window.ErrSlipInvalid):
		return nil, slipInvalid()
	case err != nil:
		return nil, roundsError(err, req.WindowID, req.Issue)
	}
	return slip, nil
}

// slipInvalid refuses a slip of no, too many or repeated selections.
func slipInvalid() error {
	return apierr.Fail(apierr.CodeBetSlipInvalid, "rounds.slip.invalid", "max", window.MaxSlipSelections)
}
