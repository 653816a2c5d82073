package window

import (
	"fmt"
	"strconv"
	"time"

	"kj/storage"
)

// Phase is where a round stands for players.
type Phase string

// The phases of a round (betting, drawing, rest; docs/GLOSSARY.md), plus the moment before a scheduled round
// opens.
const (
	PhaseUpcoming Phase = "upcoming" // created (seed committed), betting not open yet
	PhaseBetting  Phase = "betting"
	PhaseDrawing  Phase = "drawing"
	PhaseRest     Phase = "rest"
)

// IssueNumber is a round's number: the UTC date of its start (YYYYMMDD),
// the window (4 digits) and the round's count that day in the window
// (5 digits), e.g. 20260301 0001 00042 → "20260301000100042". Fixed widths
// keep issue numbers of a window in the same order as strings and numbers.
func IssueNumber(start time.Time, windowID int64, counter int) string {
	return start.UTC().Format("20060102") + fmt.Sprintf("%04d%05d", windowID, counter)
}

// nextIssue numbers the round that starts at start after prev (nil for the
// window's first round): the day's counter goes on, or restarts at 1 on a
// new UTC day.
func nextIssue(prev *storage.Round, windowID int64, start time.Time) string {
	counter := 1
	day := start.UTC().Format("20060102")
	if prev != nil && len(prev.Issue) == 17 && prev.Issue[:8] == day {
		if n, err := strconv.Atoi(prev.Issue[12:]); err == nil {
			counter = n + 1
		}
	}
	return IssueNumber(start, windowID, counter)
}

// closeGrace is how long after the betting deadline the round's row is
// closed. A bet is judged by its arrival time, so one that arrived just
// before the deadline must still find the round open when its transaction
// runs; the grace covers that transit. It is at most half the drawing
// phase so the draw never waits for it.
func closeGrace(r storage.Round) time.Duration {
	g := 500 * time.Millisecond
	if d := time.Duration(r.DrawingEndsAt-r.BettingEndsAt) * time.Millisecond / 2; d < g {
		g = d
	}
	return g
}

// PhaseAt is the phase of r at now (ms) as players see it. A round whose
// drawing time is over but whose result is not stored yet (its node died
// and another is taking over) still shows as drawing.
func PhaseAt(r storage.Round, now int64) (Phase, int64) {
	switch {
	case now < r.StartsAt:
		return PhaseUpcoming, r.StartsAt
	case now < r.BettingEndsAt && r.State == storage.RoundOpen:
		return PhaseBetting, r.BettingEndsAt
	case now < r.DrawingEndsAt || r.State < storage.RoundDrawn:
		return PhaseDrawing, r.DrawingEndsAt
	}
	return PhaseRest, r.RestEndsAt
}

// planRound lays out a round of w starting at start: absolute deadlines, all
// computed from the start so no phase drifts from the schedule.
func planRound(w storage.RoundWindow, seq int64, issue string, start time.Time, seed []byte) storage.Round {
	rules := RulesOf(w)
	s := start.UnixMilli()
	b := s + rules.Betting.Milliseconds()
	d := b + rules.Drawing.Milliseconds()
	return storage.Round{
		ID: storage.NewID(), WindowID: w.ID, Seq: seq, Issue: issue, State: storage.RoundOpen,
		StartsAt: s, BettingEndsAt: b, DrawingEndsAt: d, RestEndsAt: d + rules.Rest.Milliseconds(),
		OddsBP: w.OddsBP, MinBet: w.MinBet, MaxBet: w.MaxBet,
		Seed: fmt.Sprintf("%x", seed), SeedHash: SeedHash(seed),
	}
}

// nextStart is when the round after prev starts: exactly at prev's end, so
// rounds follow each other without drift. Only when that start is so far
// in the past that its whole betting phase is already over (the window was
// not run for a while) does the schedule restart from now.
func nextStart(prev storage.Round, w storage.RoundWindow, now time.Time) time.Time {
	start := time.UnixMilli(prev.RestEndsAt)
	if !now.Before(start.Add(time.Duration(w.BettingMs) * time.Millisecond)) {
		return now
	}
	return start
}
