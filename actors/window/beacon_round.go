package window

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"kj/storage"
)

// How a window's round commits to its bets, waits for its beacon, draws or
// is voided. The steps are conditional updates on the state they leave, as
// every other step, so a restart or a second node repeats none of them.

// Void reasons (rounds.void_reason), translated for players as
// rounds.void.<reason>.
const (
	// VoidBeaconLate: the beacon's value did not come within the wait.
	VoidBeaconLate = "beacon_late"
	// VoidClosedLate: betting closed (and the bet list was committed) only
	// once the beacon value could already be public, so the operator might
	// have known the outcome while bets could still change.
	VoidClosedLate = "closed_late"
)

// DefaultBeaconWait is how long a draw waits for a late beacon value when
// the beacon names no wait (KJ_ROUNDS_BEACON_WAIT's default).
const DefaultBeaconWait = 30 * time.Second

// PushVoided is the key of the broadcast that a round was voided.
const PushVoided = "round.voided"

// VoidedPush tells everyone that a round was voided and why; each player
// with bets in it also gets round.settled pushes of their refunded bets.
type VoidedPush struct {
	WindowID   int64  `json:"windowId"`
	Issue      string `json:"issue"`
	Reason     string `json:"reason"`     // beacon_late | closed_late
	ServerSeed string `json:"serverSeed"` // revealed, so anyone can see what the draw would have been
	VoidedAt   int64  `json:"voidedAt"`
}

// withBeacon fixes, on a round being created, the beacon round that will
// decide it: the first one published strictly after the close deadline
// plus a margin. Nothing is set when no beacon is configured.
func (a *windowActor) withBeacon(c context.Context, r *storage.Round) error {
	b := a.run.Beacon
	if b == nil {
		return nil
	}
	info, err := b.Info(c)
	if err != nil {
		return err // retried: a round is never created without its beacon
	}
	closeAt := time.UnixMilli(r.BettingEndsAt).Add(closeGrace(*r))
	r.BeaconRound = info.RoundAfter(closeAt.Add(beaconMargin))
	r.BeaconAt = info.RoundAt(r.BeaconRound).UnixMilli()
	r.BeaconURL = b.base()
	return nil
}

// close ends betting and commits the round to its bet list in one
// transaction: the close takes the round's row, after which no bet joins,
// so the hash covers exactly the accepted bets.
func (a *windowActor) close(c context.Context, r *storage.Round, ms int64) error {
	return a.run.DB.Tx(c, func(tx storage.Tx) error {
		moved, err := storage.CloseRound(c, tx, r.ID, ms)
		if err != nil || !moved {
			return err
		}
		lines, err := storage.BetLinesOfRound(c, tx, r.ID)
		if err != nil {
			return err
		}
		_, err = storage.CommitRoundBets(c, tx, r.ID, BetsHash(lines))
		return err
	})
}

func (a *windowActor) beaconWait() time.Duration {
	if b := a.run.Beacon; b != nil && b.Wait > 0 {
		return b.Wait
	}
	return DefaultBeaconWait
}

// voidAt is when a round still waiting for its beacon value is voided:
// the wait after the later of its drawing deadline and its beacon round.
func (a *windowActor) voidAt(r *storage.Round) time.Time {
	return time.UnixMilli(max(r.DrawingEndsAt, r.BeaconAt)).Add(a.beaconWait())
}

// draw computes the result of a closed round whose drawing time is over
// and stores it; the seed is revealed from then on. A round decided by a
// beacon waits for the beacon round's time and value: it returns the time
// to try again while the value is not there, and voids the round once the
// wait is over.
func (a *windowActor) draw(c context.Context, r *storage.Round, now time.Time) (time.Time, error) {
	ms := now.UnixMilli()
	seed, err := hex.DecodeString(r.Seed)
	if err != nil {
		return time.Time{}, fmt.Errorf("window %d: round %s: stored seed: %w", a.id, r.Issue, err)
	}
	var value string
	if r.BeaconRound != 0 {
		if r.ClosedAt >= r.BeaconAt {
			return time.Time{}, a.void(c, r, VoidClosedLate, ms)
		}
		if ms < r.BeaconAt {
			return time.UnixMilli(r.BeaconAt), nil
		}
		v, err := a.beaconValue(c, r.BeaconRound)
		if err != nil {
			deadline := a.voidAt(r)
			if !now.Before(deadline) {
				a.run.Log.Warn("beacon value late: round voided", "window", a.id, "issue", r.Issue,
					"beacon_round", r.BeaconRound, "err", err)
				return time.Time{}, a.void(c, r, VoidBeaconLate, ms)
			}
			if !errors.Is(err, ErrBeaconNotYet) {
				a.run.Log.Warn("beacon read failed", "window", a.id, "beacon_round", r.BeaconRound, "err", err)
			}
			retry := now.Add(500 * time.Millisecond)
			if retry.After(deadline) {
				retry = deadline
			}
			return retry, nil
		}
		value = v.Randomness
	}
	o := DrawRound(seed, r.Issue, r.BetsHash, r.BeaconRound, value)
	var moved bool
	err = a.run.DB.Tx(c, func(tx storage.Tx) error {
		moved, err = storage.DrawRound(c, tx, *r, o.Digits[0], o.Digits[1], o.Digits[2], value, ms)
		return err
	})
	if err != nil {
		return time.Time{}, err
	}
	if moved {
		drawn := *r
		drawn.State, drawn.D0, drawn.D1, drawn.D2, drawn.DrawnAt = storage.RoundDrawn, o.Digits[0], o.Digits[1], o.Digits[2], ms
		drawn.BeaconValue = value
		a.publish(c, "", PushResult, ViewResult(drawn))
	}
	return time.Time{}, nil
}

func (a *windowActor) beaconValue(c context.Context, n int64) (BeaconValue, error) {
	if a.run.Beacon == nil {
		// The round was created with a beacon that is no longer
		// configured: its value cannot come, so the wait ends in a void.
		return BeaconValue{}, fmt.Errorf("%w: no beacon configured on this node", ErrBeaconNotYet)
	}
	return a.run.Beacon.Value(c, n)
}

// void moves a closed round to voided; its bets are then refunded like a
// settlement (settle), and everyone is told.
func (a *windowActor) void(c context.Context, r *storage.Round, reason string, ms int64) error {
	moved, err := storage.VoidRound(c, a.run.DB, r.ID, reason, ms)
	if err != nil {
		return err
	}
	if moved {
		roundsVoided.Inc()
		a.publish(c, "", PushVoided, VoidedPush{WindowID: r.WindowID, Issue: r.Issue, Reason: reason,
			ServerSeed: r.Seed, VoidedAt: ms})
	}
	return nil
}

var roundsVoided = promauto.NewCounter(prometheus.CounterOpts{
	Name: "kj_rounds_voided_total",
	Help: "Rounds voided (beacon value late, or closed after it could be public); their bets refunded.",
})

// BeaconSettings is how the node draws new rounds, for the rules: the
// beacon chain and how long a draw waits for it. Nil: no beacon.
type BeaconSettings struct {
	URL    string `json:"url"`
	WaitMs int64  `json:"waitMs"`
}

// BeaconSettings answers the node's beacon, or nil when none is
// configured (the draw is the seed's alone, foreseeable by the operator).
func (s *Rounds) BeaconSettings() *BeaconSettings {
	if s.Beacon == nil {
		return nil
	}
	wait := s.Beacon.Wait
	if wait <= 0 {
		wait = DefaultBeaconWait
	}
	return &BeaconSettings{URL: s.Beacon.base(), WaitMs: wait.Milliseconds()}
}

// BetList is a closed round's committed bet list, as anyone may check it:
// SHA-256 of its lines (BetLineText) is BetsHash, an input of the draw.
type BetList struct {
	WindowID int64         `json:"windowId"`
	Issue    string        `json:"issue"`
	BetsHash string        `json:"betsHash"` // "" while betting is open
	Bets     []BetListItem `json:"bets"`     // empty while betting is open
}

// BetListItem is one accepted bet as the commitment covers it; whose bet
// it is stays private.
type BetListItem struct {
	NoteNo  string  `json:"noteNo"`
	Content Content `json:"content"`
	Amount  int64   `json:"amount"`
}

// BetList answers a round's committed bet list once betting has closed.
func (s *Rounds) BetList(ctx context.Context, windowID int64, issue string) (BetList, error) {
	if _, err := s.window(ctx, windowID); err != nil {
		return BetList{}, err
	}
	r, err := storage.RoundByIssue(ctx, s.DB, windowID, issue, false)
	if errors.Is(err, storage.ErrNotFound) {
		return BetList{}, ErrUnknownIssue
	}
	if err != nil {
		return BetList{}, err
	}
	out := BetList{WindowID: windowID, Issue: issue, BetsHash: r.BetsHash, Bets: []BetListItem{}}
	if r.BetsHash == "" {
		return out, nil // not committed yet: the list is not final
	}
	lines, err := storage.BetLinesOfRound(ctx, s.DB, r.ID)
	if err != nil {
		return BetList{}, err
	}
	for _, l := range lines {
		out.Bets = append(out.Bets, BetListItem{NoteNo: strconv.FormatInt(l.ID, 10), Content: Content(l.Content), Amount: l.Amount})
	}
	return out, nil
}
