package window

import (
	"strconv"

	"kj/storage"
)

// The JSON shapes the API answers and the pushes carry. Times are unix ms,
// amounts cents.

// BetView is one bet as its player sees it (a click record).
type BetView struct {
	BetID     string  `json:"betId"`
	NoteNo    string  `json:"noteNo"`
	WindowID  int64   `json:"windowId"`
	Issue     string  `json:"issue"`
	Content   Content `json:"content"`
	Amount    int64   `json:"amount"`
	Matched   bool    `json:"matched"` // settled
	Result    string  `json:"result"`  // "win", "lose", "refund" (round voided), or "" while unmatched
	Payout    int64   `json:"payout"`  // credited back, stake included; 0 for a loss
	PlacedAt  int64   `json:"placedAt"`
	SettledAt int64   `json:"settledAt"`
}

// ViewBet renders a stored bet.
func ViewBet(b storage.RoundBet) BetView {
	v := BetView{BetID: b.BetID, NoteNo: strconv.FormatInt(b.ID, 10), WindowID: b.WindowID,
		Issue: b.Issue, Content: Content(b.Content), Amount: b.Amount, Payout: b.Payout,
		PlacedAt: b.PlacedAt, SettledAt: b.SettledAt}
	switch b.State {
	case storage.BetWon:
		v.Matched, v.Result = true, "win"
	case storage.BetLost:
		v.Matched, v.Result = true, "lose"
	case storage.BetRefunded:
		v.Matched, v.Result = true, "refund" // its round was voided
	}
	return v
}

// ViewBets renders bets; never nil, so JSON shows [].
func ViewBets(bs []storage.RoundBet) []BetView {
	out := make([]BetView, 0, len(bs))
	for _, b := range bs {
		out = append(out, ViewBet(b))
	}
	return out
}

// ResultView is a drawn round with everything needed to verify it.
type ResultView struct {
	WindowID   int64      `json:"windowId"`
	Issue      string     `json:"issue"`
	Digits     [3]int     `json:"digits"`
	Sum        int        `json:"sum"`
	Outcome    [2]Content `json:"outcome"`
	SeedHash   string     `json:"seedHash"`
	ServerSeed string     `json:"serverSeed"`
	DrawnAt    int64      `json:"drawnAt"`
	// The draw's other inputs (draw_beacon.go): the bet list committed at
	// the close, and the beacon round that decided it, where to read it
	// and its value. BeaconRound 0: no beacon; the digits come from the
	// seed and issue alone, which the operator could foresee.
	BetsHash    string `json:"betsHash"`
	BeaconRound int64  `json:"beaconRound"`
	BeaconURL   string `json:"beaconUrl"` // the beacon round's public address; "" without a beacon
	BeaconAt    int64  `json:"beaconAt"`  // when the beacon publishes the round (unix ms)
	BeaconValue string `json:"beaconValue"`
}

// ViewResult renders a round with a result (state drawn or settled).
func ViewResult(r storage.Round) ResultView {
	o := Outcome{Digits: [3]int{r.D0, r.D1, r.D2}, Sum: r.D0 + r.D1 + r.D2}
	v := ResultView{WindowID: r.WindowID, Issue: r.Issue, Digits: o.Digits, Sum: o.Sum,
		Outcome: o.Labels(), SeedHash: r.SeedHash, ServerSeed: r.Seed, DrawnAt: r.DrawnAt,
		BetsHash: r.BetsHash, BeaconRound: r.BeaconRound, BeaconAt: r.BeaconAt, BeaconValue: r.BeaconValue}
	if r.BeaconRound != 0 {
		v.BeaconURL = BeaconRoundURL(r.BeaconURL, r.BeaconRound)
	}
	return v
}

// RoundView is a round in progress. The seed is never part of it.
type RoundView struct {
	WindowID      int64  `json:"windowId"`
	Issue         string `json:"issue"`
	Phase         Phase  `json:"phase"`
	Deadline      int64  `json:"deadline"` // end of the current phase
	StartsAt      int64  `json:"startsAt"`
	BettingEndsAt int64  `json:"bettingEndsAt"`
	DrawingEndsAt int64  `json:"drawingEndsAt"`
	RestEndsAt    int64  `json:"restEndsAt"`
	SeedHash      string `json:"seedHash"`
	Odds          string `json:"odds"`
	OddsBP        int64  `json:"oddsBp"`
	MinBet        int64  `json:"minBet"`
	MaxBet        int64  `json:"maxBet"`
	OrdersCount   int64  `json:"ordersCount"`
	TotalPoints   int64  `json:"totalPoints"`
	// BeaconRound decides the draw with the seed (0: no beacon, the draw
	// is foreseeable by the operator); BetsHash is set from the close.
	BeaconRound int64  `json:"beaconRound"`
	BeaconAt    int64  `json:"beaconAt"`
	BetsHash    string `json:"betsHash"`
	// VoidReason is set when the round was voided and its bets refunded.
	VoidReason string `json:"voidReason,omitempty"`
}

// ViewRound renders r as it stands at now (ms).
func ViewRound(r storage.Round, now int64) RoundView {
	phase, deadline := PhaseAt(r, now)
	return RoundView{WindowID: r.WindowID, Issue: r.Issue, Phase: phase, Deadline: deadline,
		StartsAt: r.StartsAt, BettingEndsAt: r.BettingEndsAt, DrawingEndsAt: r.DrawingEndsAt,
		RestEndsAt: r.RestEndsAt, SeedHash: r.SeedHash, Odds: FormatOdds(r.OddsBP), OddsBP: r.OddsBP,
		MinBet: r.MinBet, MaxBet: r.MaxBet, OrdersCount: r.BetsCount, TotalPoints: r.Staked,
		BeaconRound: r.BeaconRound, BeaconAt: r.BeaconAt, BetsHash: r.BetsHash, VoidReason: r.VoidReason}
}

// Push keys of the business notifications the windows send (delivered to
// chat sockets as OnRecvCustomBusinessMessage {key, data}).
const (
	PushPhase   = "round.phase"   // to everyone: a window changed phase
	PushResult  = "round.result"  // to everyone: a round's digits and revealed seed
	PushSettled = "round.settled" // to one player: their bets of a round settled
	PushOutcome = "round.outcome" // to one player: a round they bet in is drawn and paid
)

// OutcomePush tells a player, wherever they are in the app, how a round
// they bet in ended: its result and what their bets staked and paid, once
// the round's settlement is complete (one push per round, not per batch).
// After a restart in the middle of a settlement it covers the bets settled
// since.
type OutcomePush struct {
	Result ResultView `json:"result"`
	Bets   int        `json:"bets"`
	Staked int64      `json:"staked"`
	Payout int64      `json:"payout"` // stake included; 0 when every bet lost
}

// PhasePush announces a phase change with the countdown anchor: the phase
// ends at Deadline and the server's clock read ServerTime when it was sent,
// so a client counts down Deadline − ServerTime from receipt, immune to its
// own clock's offset. In the rest phase Next is the round that opens at
// Deadline, with its seed commitment.
type PhasePush struct {
	WindowID   int64      `json:"windowId"`
	Issue      string     `json:"issue"`
	Phase      Phase      `json:"phase"`
	ServerTime int64      `json:"serverTime"`
	Deadline   int64      `json:"deadline"`
	SeedHash   string     `json:"seedHash"`
	Next       *NextRound `json:"next,omitempty"`
}

// NextRound is the round scheduled after the current one.
type NextRound struct {
	Issue    string `json:"issue"`
	StartsAt int64  `json:"startsAt"`
	SeedHash string `json:"seedHash"`
}

// SettledPush tells a player how their bets of one round ended; several
// pushes may come for one round when its settlement runs in batches.
type SettledPush struct {
	WindowID int64     `json:"windowId"`
	Issue    string    `json:"issue"`
	Bets     []BetView `json:"bets"`
	Payout   int64     `json:"payout"` // sum of the bets' payouts
}
