package window

import (
	"context"
	"errors"
	"time"

	"kj/storage"
)

// A window's rules are copied into each round when the round is created
// (planRound), and the next round is created as soon as the current one is
// settled, during its rest. An operator's change therefore reaches the
// first round created after it: the current round keeps its odds and
// limits, and so does the next one when it already exists. What follows
// says which round that is, for players (Current.Coming) and operators
// (RulesInEffect).

// RoundRules is the odds and limits a round is played with.
type RoundRules struct {
	Issue  string `json:"issue,omitempty"` // the round's number ("" while not yet created)
	Odds   string `json:"odds"`
	OddsBP int64  `json:"oddsBp"`
	MinBet int64  `json:"minBet"`
	MaxBet int64  `json:"maxBet"`
}

func roundRules(r storage.Round) RoundRules {
	return RoundRules{Issue: r.Issue, Odds: FormatOdds(r.OddsBP), OddsBP: r.OddsBP, MinBet: r.MinBet, MaxBet: r.MaxBet}
}

func sameRules(a, b RoundRules) bool {
	return a.OddsBP == b.OddsBP && a.MinBet == b.MinBet && a.MaxBet == b.MaxBet
}

// CurrentAndComing is a window's round now (Current) with, when they
// differ from the current round's, the odds and limits of the round after
// it: players are told before it starts.
type CurrentAndComing struct {
	Current
	Coming *RoundRules `json:"coming,omitempty"`
}

// CurrentAndComing loads a window's current round for a player, and the
// coming round's odds and limits when an operator changed them: the next
// round's own when it is already created, else the window's (it will be
// created with them).
func (s *Rounds) CurrentAndComing(ctx context.Context, windowID, userID int64) (CurrentAndComing, error) {
	cur, err := s.Current(ctx, windowID, userID)
	out := CurrentAndComing{Current: cur}
	if err != nil || cur.Round == nil {
		return out, err
	}
	w, err := s.window(ctx, windowID)
	if err != nil {
		return out, err
	}
	next := RoundRules{Odds: FormatOdds(w.OddsBP), OddsBP: w.OddsBP, MinBet: w.MinBet, MaxBet: w.MaxBet}
	if cur.Next != nil {
		latest, err := storage.LatestRound(ctx, s.DB, windowID)
		if err != nil {
			return out, err
		}
		next = roundRules(latest)
	}
	now := RoundRules{OddsBP: cur.Round.OddsBP, MinBet: cur.Round.MinBet, MaxBet: cur.Round.MaxBet}
	if !sameRules(next, now) {
		out.Coming = &next
	}
	return out, nil
}

// RulesInEffect is a window's settings as the console shows them: what
// the current round is played with, and from which round the settings (as
// last changed) apply.
type RulesInEffect struct {
	WindowRules
	// Current is the odds and limits of the round now (nil before the
	// window's first round).
	Current *RoundRules `json:"current"`
	// FromIssue is the first round played with the window's settings: the
	// current round's number when it already is, else the next round's
	// (its number as it will be when it is not created yet).
	FromIssue string `json:"fromIssue"`
	// Pending: the settings do not apply to the current round yet.
	Pending bool `json:"pending"`
}

// RulesInEffect lists every window's settings with the odds and limits of
// its current round and the round its settings apply from.
func (s *Rounds) RulesInEffect(ctx context.Context) ([]RulesInEffect, error) {
	ws, err := s.definitions(ctx, true)
	if err != nil {
		return nil, err
	}
	now := s.Clock.Now()
	out := make([]RulesInEffect, 0, len(ws))
	for _, w := range ws {
		e := RulesInEffect{WindowRules: viewRules(w)}
		set := RoundRules{OddsBP: w.OddsBP, MinBet: w.MinBet, MaxBet: w.MaxBet}
		latest, err := storage.LatestRound(ctx, s.DB, w.ID)
		if errors.Is(err, storage.ErrNotFound) {
			out = append(out, e)
			continue
		}
		if err != nil {
			return nil, err
		}
		cur := latest
		if latest.StartsAt > now.UnixMilli() {
			if c, err := storage.CurrentRound(ctx, s.DB, w.ID, now.UnixMilli()); err == nil {
				cur = c
			} else if !errors.Is(err, storage.ErrNotFound) {
				return nil, err
			}
		}
		c := roundRules(cur)
		e.Current = &c
		switch {
		case sameRules(c, set):
			e.FromIssue = cur.Issue
		case latest.Seq > cur.Seq && sameRules(roundRules(latest), set):
			e.FromIssue, e.Pending = latest.Issue, true
		default:
			// The first round created from now on: the one after latest.
			start := nextStart(latest, w, now)
			if start.Before(now) {
				start = now
			}
			e.FromIssue, e.Pending = nextIssue(&latest, w.ID, start.Truncate(time.Millisecond)), true
		}
		out = append(out, e)
	}
	return out, nil
}
