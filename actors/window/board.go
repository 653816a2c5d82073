package window

import (
	"context"
	"encoding/json"
	"math"
	"sync"
	"time"

	"kj/internal/bus"
	"kj/internal/clock"
	"kj/storage"
)

// BoardSubject carries what the lobby shows of the rounds: a round as it
// stands after each move its window makes (created, closed, drawn,
// settled; published by the node that runs the window) and a round's bet
// totals after each bet batch commits (published by the node whose desk
// wrote it). Only nodes listen: it never reaches a socket.
const BoardSubject = "kj.rounds.board"

// BoardMaxAge bounds how long the board is trusted without reading the
// store again: the bus is at-most-once, and a lost event must not leave
// the lobby wrong for longer.
const BoardMaxAge = 2 * time.Second

// boardEvent is one message on BoardSubject.
type boardEvent struct {
	Round  *storage.Round `json:"round,omitempty"`  // the round after a move; Seed is never sent
	Totals []roundTotals  `json:"totals,omitempty"` // rounds' bet totals after a batch
}

// roundTotals are a round's bets and stake as a batch's commit left them.
// They only grow while the round is open, so the largest seen is newest
// and events may arrive in any order.
type roundTotals struct {
	WindowID int64 `json:"windowId"`
	RoundID  int64 `json:"roundId"`
	Bets     int64 `json:"bets"`
	Staked   int64 `json:"staked"`
}

// Board keeps in the node what the lobby (lotteryList) and a bet's
// pre-checks read: the enabled windows, each window's newest rounds (the
// current one and the one scheduled next) with their bet totals, and the
// count of rounds drawn. It is loaded from the store and then follows
// BoardSubject, so in the steady state a lobby costs no store query; the
// events that change it (a round's move, a batch's totals, a draw) come
// from whichever node made them. A window edit or a bus reconnection drops
// it, and BoardMaxAge is the backstop for an event the bus lost.
type Board struct {
	db     storage.DB
	clock  clock.Clock
	maxAge time.Duration

	mu      sync.Mutex
	windows []int64 // enabled windows, by id; nil: not loaded
	byID    map[int64]*boardWindow
	at      time.Time
	seq     uint64        // drops so far: a load that began before a drop is not kept
	loading bool          // a load is under way: the others answer from the older copy meanwhile
	loaded  chan struct{} // closed when the load under way ends (waited on when there is no older copy)
	subs    []bus.Subscription
}

type boardWindow struct {
	roundsCount int64
	lastDrawn   string          // issue of the newest drawn round counted in roundsCount
	rounds      []storage.Round // the newest rounds known, by seq, at most two
}

// NewBoard returns a board reading db, following b (nil: this node's own
// events only).
func NewBoard(db storage.DB, b bus.Bus, clk clock.Clock) (*Board, error) {
	bd := &Board{db: db, clock: clk, maxAge: BoardMaxAge}
	if b == nil {
		return bd, nil
	}
	for subject, h := range map[string]bus.Handler{
		BoardSubject:          bd.onEvent,
		WindowsChangedSubject: func(string, []byte) { bd.drop() },
	} {
		sub, err := b.Subscribe(subject, h)
		if err != nil {
			bd.Close()
			return nil, err
		}
		bd.subs = append(bd.subs, sub)
	}
	// Events published while the bus was down never came.
	bus.OnResume(b, bd.drop)
	return bd, nil
}

// Close stops following the bus.
func (bd *Board) Close() {
	for _, s := range bd.subs {
		_ = s.Unsubscribe()
	}
	bd.subs = nil
}

func (bd *Board) drop() {
	bd.mu.Lock()
	bd.windows, bd.byID = nil, nil
	bd.seq++
	bd.mu.Unlock()
}

func (bd *Board) onEvent(_ string, data []byte) {
	var ev boardEvent
	if json.Unmarshal(data, &ev) != nil {
		return
	}
	bd.apply(ev)
}

// apply brings the board up to an event. Events about windows or rounds it
// does not hold are left to the next load.
func (bd *Board) apply(ev boardEvent) {
	bd.mu.Lock()
	defer bd.mu.Unlock()
	if bd.byID == nil {
		return
	}
	if r := ev.Round; r != nil {
		if w := bd.byID[r.WindowID]; w != nil {
			w.note(*r)
		}
	}
	for _, t := range ev.Totals {
		w := bd.byID[t.WindowID]
		if w == nil {
			continue
		}
		for i := range w.rounds {
			if r := &w.rounds[i]; r.ID == t.RoundID {
				r.BetsCount, r.Staked = max(r.BetsCount, t.Bets), max(r.Staked, t.Staked)
			}
		}
	}
}

// note takes in a round as it stands after a move: a newer state of a
// round held, or a newer round; older news is ignored. A draw not counted
// yet counts.
func (w *boardWindow) note(r storage.Round) {
	r.Seed = ""
	if r.HasResult() && r.Issue > w.lastDrawn {
		w.roundsCount++
		w.lastDrawn = r.Issue
	}
	for i := range w.rounds {
		if old := &w.rounds[i]; old.ID == r.ID {
			if r.State >= old.State {
				r.BetsCount, r.Staked = max(r.BetsCount, old.BetsCount), max(r.Staked, old.Staked)
				*old = r
			}
			return
		}
	}
	if n := len(w.rounds); n > 0 && r.Seq < w.rounds[n-1].Seq {
		return
	}
	w.rounds = append(w.rounds, r)
	if len(w.rounds) > 2 {
		w.rounds = append([]storage.Round(nil), w.rounds[len(w.rounds)-2:]...)
	}
}

// current is the window's round that has started by now, if the board
// holds it.
func (w *boardWindow) current(now int64) (storage.Round, bool) {
	for i := len(w.rounds) - 1; i >= 0; i-- {
		if w.rounds[i].StartsAt <= now {
			return w.rounds[i], true
		}
	}
	return storage.Round{}, false
}

// round is the round of issue, if the board holds it.
func (w *boardWindow) round(issue string) (storage.Round, bool) {
	for _, r := range w.rounds {
		if r.Issue == issue {
			return r, true
		}
	}
	return storage.Round{}, false
}

// fresh loads the board when it is not loaded or too old; it returns with
// bd.mu held. One request loads an old board; the others answer from it
// meanwhile. With no board at all (never loaded, or dropped) the others
// wait for that one load rather than each making its own: a burst of bets
// arriving just after a drop was a load per bet (W4's burst: 12 % of the
// server's CPU in the store's round queries).
func (bd *Board) fresh(ctx context.Context) (err error) {
	bd.mu.Lock()
	for bd.byID == nil && bd.loading {
		loaded := bd.loaded
		bd.mu.Unlock()
		select {
		case <-loaded:
		case <-ctx.Done():
			bd.mu.Lock()
			return ctx.Err()
		}
		bd.mu.Lock()
	}
	if bd.byID != nil && (bd.loading || bd.clock.Now().Sub(bd.at) < bd.maxAge) {
		return nil
	}
	seq := bd.seq
	bd.loading, bd.loaded = true, make(chan struct{})
	bd.mu.Unlock()
	defer func() { bd.loading = false; close(bd.loaded) }() // runs with bd.mu held again
	started := bd.clock.Now()
	ws, err := storage.RoundWindows(ctx, bd.db, true)
	if err != nil {
		bd.mu.Lock()
		return err
	}
	// The newest round of every window, and the newest started by now
	// (the same one unless the next is already scheduled).
	latest, err := storage.CurrentRounds(ctx, bd.db, math.MaxInt64)
	if err != nil {
		bd.mu.Lock()
		return err
	}
	current, err := storage.CurrentRounds(ctx, bd.db, started.UnixMilli())
	if err != nil {
		bd.mu.Lock()
		return err
	}
	byID := make(map[int64]*boardWindow, len(ws))
	windows := make([]int64, 0, len(ws))
	for _, w := range ws {
		windows = append(windows, w.ID)
		byID[w.ID] = &boardWindow{roundsCount: w.RoundsCount}
	}
	for _, list := range [][]storage.Round{current, latest} {
		for _, r := range list {
			w := byID[r.WindowID]
			if w == nil {
				continue
			}
			if r.HasResult() && r.Issue > w.lastDrawn {
				w.lastDrawn = r.Issue // already counted in rounds_count
			}
			r.Seed = ""
			if n := len(w.rounds); n == 0 || w.rounds[n-1].Seq < r.Seq {
				w.rounds = append(w.rounds, r)
			}
		}
	}
	bd.mu.Lock()
	if bd.seq == seq {
		bd.windows, bd.byID, bd.at = windows, byID, started
	} else if bd.byID == nil {
		// Dropped while loading: answer this once from what was read.
		bd.windows, bd.byID, bd.at = windows, byID, time.Time{}
	}
	return nil
}

// lobby lists the enabled windows with where their current rounds stand
// at now (ms).
func (bd *Board) lobby(ctx context.Context, now int64) ([]LobbyWindow, error) {
	err := bd.fresh(ctx)
	defer bd.mu.Unlock()
	if err != nil {
		return nil, err
	}
	out := make([]LobbyWindow, 0, len(bd.windows))
	for _, id := range bd.windows {
		w := bd.byID[id]
		lw := LobbyWindow{WindowID: id, Index: id, RoundsCount: w.roundsCount, Phase: PhaseUpcoming}
		if r, ok := w.current(now); ok {
			lw.Issue, lw.SeedHash, lw.OrdersCount, lw.TotalPoints = r.Issue, r.SeedHash, r.BetsCount, r.Staked
			lw.Phase, lw.Deadline = PhaseAt(r, now)
		}
		out = append(out, lw)
	}
	return out, nil
}

// Round answers a window's round by issue from the board: ok is false when
// the board does not hold it (an older round, an unknown issue, a disabled
// window), and the store must decide.
func (bd *Board) Round(ctx context.Context, windowID int64, issue string) (r storage.Round, ok bool, err error) {
	err = bd.fresh(ctx)
	defer bd.mu.Unlock()
	if err != nil {
		return storage.Round{}, false, err
	}
	w := bd.byID[windowID]
	if w == nil {
		return storage.Round{}, false, nil
	}
	r, ok = w.round(issue)
	return r, ok, nil
}

// Moved applies a round's move on this node at once and tells the others.
func (bd *Board) Moved(ctx context.Context, b bus.Bus, r storage.Round) {
	r.Seed = ""
	ev := boardEvent{Round: &r}
	if bd != nil {
		bd.apply(ev)
	}
	publishBoard(ctx, b, ev)
}

// publishBoard sends ev to the other nodes (this node applies it itself).
func publishBoard(ctx context.Context, b bus.Bus, ev boardEvent) {
	if b == nil {
		return
	}
	if data, err := json.Marshal(ev); err == nil {
		_ = b.Publish(ctx, BoardSubject, data)
	}
}
