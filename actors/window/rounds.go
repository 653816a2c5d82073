package window

import (
	"context"
	"errors"
	"time"

	"kj/internal/clock"
	"kj/storage"
)

// Rounds is what the HTTP routes use: bets go to the Desk, reads come from
// the store. It holds no window state of its own, so any node answers.
type Rounds struct {
	DB     storage.DB
	Ledger Ledger
	Clock  clock.Clock
	Desk   *Desk
	// Defs, when set, answers the windows' definitions from the node's
	// copy (see Definitions); nil reads them from the store every time.
	Defs *Definitions
	// Board, when set, answers the lobby and a bet's pre-checks from the
	// node's memory (see Board); nil reads the store.
	Board *Board
	// Balances, when set, answers a player's balance for the lobby (the
	// node's memory where it keeps one); nil reads the ledger.
	Balances BalanceReader
	// Beacon is the public beacon new rounds are drawn with (nil: none,
	// the rules say the draw is foreseeable by the operator).
	Beacon *Beacon

	trend trendCache // each window's trend board, extended on each draw
}

// definitions lists the windows (every one when all, else the enabled).
func (s *Rounds) definitions(ctx context.Context, all bool) ([]storage.RoundWindow, error) {
	if s.Defs == nil {
		return storage.RoundWindows(ctx, s.DB, !all)
	}
	ws, err := s.Defs.All(ctx)
	if err != nil || all {
		return ws, err
	}
	enabled := make([]storage.RoundWindow, 0, len(ws))
	for _, w := range ws {
		if w.Enabled == 1 {
			enabled = append(enabled, w)
		}
	}
	return enabled, nil
}

// Lobby is the list of windows (lotteryList).
type Lobby struct {
	ServerTime      int64         `json:"serverTime"`
	AvailablePoints int64         `json:"availablePoints"` // the caller's wallet, cents
	Windows         []LobbyWindow `json:"windows"`
}

// LobbyWindow is one window in the lobby: where its current round stands.
type LobbyWindow struct {
	WindowID    int64  `json:"windowId"`
	Index       int64  `json:"index"`
	Issue       string `json:"issue"` // "" before the window's first round
	Phase       Phase  `json:"phase"`
	Deadline    int64  `json:"deadline"`
	SeedHash    string `json:"seedHash"`
	RoundsCount int64  `json:"roundsCount"` // rounds drawn so far
	OrdersCount int64  `json:"ordersCount"` // bets in the current round
	TotalPoints int64  `json:"totalPoints"` // cents staked in the current round
}

// BalanceReader answers a player's wallet balance in cents.
type BalanceReader interface {
	Balance(ctx context.Context, userID int64) (int64, error)
}

func (s *Rounds) balance(ctx context.Context, userID int64) (int64, error) {
	if s.Balances != nil {
		return s.Balances.Balance(ctx, userID)
	}
	return s.Ledger.Balance(ctx, s.DB, userID)
}

// Lobby lists the enabled windows with their current rounds: from the
// node's board when there is one, else from the store.
func (s *Rounds) Lobby(ctx context.Context, userID int64) (Lobby, error) {
	now := s.Clock.Now().UnixMilli()
	if s.Board != nil {
		ws, err := s.Board.lobby(ctx, now)
		if err != nil {
			return Lobby{}, err
		}
		bal, err := s.balance(ctx, userID)
		if err != nil {
			return Lobby{}, err
		}
		return Lobby{ServerTime: now, AvailablePoints: bal, Windows: ws}, nil
	}
	ws, err := storage.RoundWindows(ctx, s.DB, true)
	if err != nil {
		return Lobby{}, err
	}
	rs, err := storage.CurrentRounds(ctx, s.DB, now)
	if err != nil {
		return Lobby{}, err
	}
	byWindow := make(map[int64]storage.Round, len(rs))
	for _, r := range rs {
		byWindow[r.WindowID] = r
	}
	bal, err := s.balance(ctx, userID)
	if err != nil {
		return Lobby{}, err
	}
	out := Lobby{ServerTime: now, AvailablePoints: bal, Windows: make([]LobbyWindow, 0, len(ws))}
	for _, w := range ws {
		lw := LobbyWindow{WindowID: w.ID, Index: w.ID, RoundsCount: w.RoundsCount, Phase: PhaseUpcoming}
		if r, ok := byWindow[w.ID]; ok {
			lw.Issue, lw.SeedHash, lw.OrdersCount, lw.TotalPoints = r.Issue, r.SeedHash, r.BetsCount, r.Staked
			lw.Phase, lw.Deadline = PhaseAt(r, now)
		}
		out.Windows = append(out.Windows, lw)
	}
	return out, nil
}

// Current is a window's round now (getNewLottery).
type Current struct {
	WindowID   int64       `json:"windowId"`
	ServerTime int64       `json:"serverTime"`
	Round      *RoundView  `json:"round"`    // nil before the window's first round
	Result     *ResultView `json:"result"`   // the current round's result, once drawn
	Previous   *ResultView `json:"previous"` // the newest result before the current round
	Next       *NextRound  `json:"next"`     // the round scheduled next, once committed
	MyBets     []BetView   `json:"myBets"`   // the caller's bets in the current round
}

// Current loads a window's current round for a player.
func (s *Rounds) Current(ctx context.Context, windowID, userID int64) (Current, error) {
	now := s.Clock.Now().UnixMilli()
	if _, err := s.window(ctx, windowID); err != nil {
		return Current{}, err
	}
	out := Current{WindowID: windowID, ServerTime: now, MyBets: []BetView{}}
	latest, err := storage.LatestRound(ctx, s.DB, windowID)
	if errors.Is(err, storage.ErrNotFound) {
		return out, nil
	}
	if err != nil {
		return Current{}, err
	}
	cur := latest
	if latest.StartsAt > now {
		out.Next = &NextRound{Issue: latest.Issue, StartsAt: latest.StartsAt, SeedHash: latest.SeedHash}
		if cur, err = storage.CurrentRound(ctx, s.DB, windowID, now); errors.Is(err, storage.ErrNotFound) {
			return out, nil
		} else if err != nil {
			return Current{}, err
		}
	}
	v := ViewRound(cur, now)
	out.Round = &v
	if cur.HasResult() {
		res := ViewResult(cur)
		out.Result = &res
	}
	prev, err := storage.PreviousDrawnRound(ctx, s.DB, windowID, cur.Seq)
	if err == nil {
		pv := ViewResult(prev)
		out.Previous = &pv
	} else if !errors.Is(err, storage.ErrNotFound) {
		return Current{}, err
	}
	bets, err := storage.BetsOfUserInRound(ctx, s.DB, cur.ID, userID)
	if err != nil {
		return Current{}, err
	}
	out.MyBets = ViewBets(bets)
	return out, nil
}

func (s *Rounds) window(ctx context.Context, id int64) (storage.RoundWindow, error) {
	if s.Defs != nil {
		ws, err := s.Defs.All(ctx)
		if err != nil {
			return storage.RoundWindow{}, err
		}
		for _, w := range ws {
			if w.ID == id && w.Enabled == 1 {
				return w, nil
			}
		}
		return storage.RoundWindow{}, ErrUnknownWindow
	}
	w, err := storage.RoundWindowByID(ctx, s.DB, id)
	if errors.Is(err, storage.ErrNotFound) || err == nil && w.Enabled != 1 {
		return w, ErrUnknownWindow
	}
	return w, err
}

// WindowRules is a window's settings as players and operators see them.
// Rounds already scheduled keep the rules they were created with.
type WindowRules struct {
	WindowID  int64  `json:"windowId"`
	Odds      string `json:"odds"`   // "1.98"
	OddsBP    int64  `json:"oddsBp"` // 19800
	MinBet    int64  `json:"minBet"`
	MaxBet    int64  `json:"maxBet"`
	BettingMs int64  `json:"bettingMs"`
	DrawingMs int64  `json:"drawingMs"`
	RestMs    int64  `json:"restMs"`
	Enabled   bool   `json:"enabled"`
}

func viewRules(w storage.RoundWindow) WindowRules {
	return WindowRules{WindowID: w.ID, Odds: FormatOdds(w.OddsBP), OddsBP: w.OddsBP, MinBet: w.MinBet,
		MaxBet: w.MaxBet, BettingMs: w.BettingMs, DrawingMs: w.DrawingMs, RestMs: w.RestMs, Enabled: w.Enabled == 1}
}

// Rules lists every window's rules; all includes disabled windows.
func (s *Rounds) Rules(ctx context.Context, all bool) ([]WindowRules, error) {
	ws, err := s.definitions(ctx, all)
	if err != nil {
		return nil, err
	}
	out := make([]WindowRules, 0, len(ws))
	for _, w := range ws {
		out = append(out, viewRules(w))
	}
	return out, nil
}

// RulesChange is an operator's edit; nil fields stay as they are.
type RulesChange struct {
	OddsBP    *int64
	MinBet    *int64
	MaxBet    *int64
	BettingMs *int64
	DrawingMs *int64
	RestMs    *int64
	// Audit, when set, records the change in the update's transaction
	// (the operator's audit entry), with the rules before and after.
	Audit func(ctx context.Context, tx storage.Tx, before, after WindowRules) error
}

// UpdateRules applies an operator's edit to a window (enabled or not). It
// takes effect from the next round the window schedules.
func (s *Rounds) UpdateRules(ctx context.Context, windowID int64, ch RulesChange) (WindowRules, error) {
	var out WindowRules
	err := s.DB.Tx(ctx, func(tx storage.Tx) error {
		w, err := storage.RoundWindowByID(ctx, tx, windowID)
		if errors.Is(err, storage.ErrNotFound) {
			return ErrUnknownWindow
		}
		if err != nil {
			return err
		}
		before := viewRules(w)
		set := func(dst *int64, v *int64) {
			if v != nil {
				*dst = *v
			}
		}
		set(&w.OddsBP, ch.OddsBP)
		set(&w.MinBet, ch.MinBet)
		set(&w.MaxBet, ch.MaxBet)
		set(&w.BettingMs, ch.BettingMs)
		set(&w.DrawingMs, ch.DrawingMs)
		set(&w.RestMs, ch.RestMs)
		// Out-of-range milliseconds would overflow a Duration; clamp them
		// to a value Check refuses under the field's name.
		for _, ms := range []*int64{&w.BettingMs, &w.DrawingMs, &w.RestMs} {
			if *ms > int64(MaxPhase/time.Millisecond) || *ms < 0 {
				*ms = -1
			}
		}
		if err := RulesOf(w).Check(); err != nil {
			return err
		}
		w.UpdatedAt = s.Clock.Now().UnixMilli()
		if err := storage.UpdateRoundWindowRules(ctx, tx, w); err != nil {
			return err
		}
		out = viewRules(w)
		if ch.Audit != nil {
			return ch.Audit(ctx, tx, before, out)
		}
		return nil
	})
	if err == nil && s.Defs != nil {
		s.Defs.Changed(ctx)
	}
	return out, err
}

// Bet places a bet through the desk and answers the stored bet.
func (s *Rounds) Bet(ctx context.Context, req BetRequest) (BetView, error) {
	if err := s.precheck(ctx, req); err != nil {
		return BetView{}, err
	}
	b, err := s.Desk.Place(ctx, req)
	if err != nil {
		return BetView{}, err
	}
	return ViewBet(b), nil
}

// History pages through a window's results, newest first, and counts them.
func (s *Rounds) History(ctx context.Context, windowID int64, limit, offset int) ([]ResultView, int, error) {
	w, err := s.window(ctx, windowID)
	if err != nil {
		return nil, 0, err
	}
	rs, err := storage.DrawnRounds(ctx, s.DB, windowID, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	out := make([]ResultView, 0, len(rs))
	for _, r := range rs {
		out = append(out, ViewResult(r))
	}
	// rounds_count is kept in the transaction that draws a round; the
	// cached definitions zero it (it changes every round), so it is read
	// from the store.
	total, err := storage.DrawnRoundsCount(ctx, s.DB, w.ID)
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// Records pages through a player's bets (the click records) placed at or
// after since (unix ms), newest first, and counts them.
func (s *Rounds) Records(ctx context.Context, userID int64, filter int, since int64, limit, offset int) ([]BetView, int, error) {
	bets, total, err := storage.BetsOfUser(ctx, s.DB, userID, filter, since, limit, offset)
	if err != nil {
		return nil, 0, err
	}
	return ViewBets(bets), total, nil
}
