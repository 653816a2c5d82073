package storage

import (
	"context"
)

// Round states (rounds.state). A round only moves forward, and every move is
// a conditional UPDATE on the state it leaves, so a transition happens once
// even when two nodes attempt it.
const (
	RoundOpen    = 0 // betting until betting_ends_at
	RoundClosed  = 1 // no more bets; waiting for the draw
	RoundDrawn   = 2 // digits stored, seed revealed, settlement under way
	RoundSettled = 3 // every bet has its result
	// RoundVoided: the draw could not be made fairly (the beacon's value
	// came too late, or the round closed after it was public); every bet
	// is refunded, and SettledAt is set once the last one is.
	RoundVoided = 4
)

// HasResult reports a round with digits (drawn or settled; a voided round
// has none).
func (r Round) HasResult() bool { return r.State == RoundDrawn || r.State == RoundSettled }

// withResult is the SQL condition of HasResult ($-free, both stores).
const withResult = `state IN (2, 3)`

// RoundWindow is one activation window and the rules its next rounds get.
type RoundWindow struct {
	ID          int64
	OddsBP      int64 // payout multiple in 1/10000
	MinBet      int64 // cents
	MaxBet      int64 // cents
	BettingMs   int64
	DrawingMs   int64
	RestMs      int64
	Enabled     int
	RoundsCount int64
	CreatedAt   int64
	UpdatedAt   int64
}

const windowColumns = `id, odds_bp, min_bet, max_bet, betting_ms, drawing_ms, rest_ms, enabled,
	rounds_count, created_at, updated_at`

func scanWindow(r Row) (RoundWindow, error) {
	var w RoundWindow
	err := r.Scan(&w.ID, &w.OddsBP, &w.MinBet, &w.MaxBet, &w.BettingMs, &w.DrawingMs, &w.RestMs,
		&w.Enabled, &w.RoundsCount, &w.CreatedAt, &w.UpdatedAt)
	return w, err
}

// EnsureRoundWindows creates windows 1..count that do not exist yet with the
// rules of defaults (existing windows keep theirs), enables exactly those
// windows, and makes sure each has a lease row. Safe to run from every node
// at start.
func EnsureRoundWindows(ctx context.Context, db DB, count int64, defaults RoundWindow, now int64) error {
	return db.Tx(ctx, func(tx Tx) error {
		for id := int64(1); id <= count; id++ {
			if _, err := tx.Exec(ctx, `INSERT INTO round_windows (`+windowColumns+`)
				VALUES ($1,$2,$3,$4,$5,$6,$7,1,0,$8,$8) ON CONFLICT (id) DO NOTHING`,
				id, defaults.OddsBP, defaults.MinBet, defaults.MaxBet, defaults.BettingMs,
				defaults.DrawingMs, defaults.RestMs, now); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO round_leases (window_id) VALUES ($1)
				ON CONFLICT (window_id) DO NOTHING`, id); err != nil {
				return err
			}
		}
		_, err := tx.Exec(ctx, `UPDATE round_windows SET enabled = CASE WHEN id <= $1 THEN 1 ELSE 0 END
			WHERE enabled <> CASE WHEN id <= $1 THEN 1 ELSE 0 END`, count)
		return err
	})
}

// RoundWindows lists windows by number; onlyEnabled leaves out windows
// beyond the configured count.
func RoundWindows(ctx context.Context, q Querier, onlyEnabled bool) ([]RoundWindow, error) {
	sql := `SELECT ` + windowColumns + ` FROM round_windows`
	if onlyEnabled {
		sql += ` WHERE enabled = 1`
	}
	rows, err := q.Query(ctx, sql+` ORDER BY id`)
	return CollectRows(rows, err, func(r Rows) (RoundWindow, error) { return scanWindow(r) })
}

// RoundWindowByID loads one window; ErrNotFound when it does not exist.
func RoundWindowByID(ctx context.Context, q Querier, id int64) (RoundWindow, error) {
	return scanWindow(q.QueryRow(ctx, `SELECT `+windowColumns+` FROM round_windows WHERE id = $1`, id))
}

// UpdateRoundWindowRules stores w's odds, limits and phase lengths.
func UpdateRoundWindowRules(ctx context.Context, q Querier, w RoundWindow) error {
	return affected(q.Exec(ctx, `UPDATE round_windows SET odds_bp = $1, min_bet = $2, max_bet = $3,
		betting_ms = $4, drawing_ms = $5, rest_ms = $6, updated_at = $7 WHERE id = $8`,
		w.OddsBP, w.MinBet, w.MaxBet, w.BettingMs, w.DrawingMs, w.RestMs, w.UpdatedAt, w.ID))
}

// Round is one betting round of a window. D0..D2 and a revealed Seed mean
// something only from RoundDrawn on.
type Round struct {
	ID            int64
	WindowID      int64
	Seq           int64
	Issue         string
	State         int
	StartsAt      int64
	BettingEndsAt int64
	DrawingEndsAt int64
	RestEndsAt    int64
	OddsBP        int64
	MinBet        int64
	MaxBet        int64
	Seed          string // hex; secret before the draw
	SeedHash      string
	D0, D1, D2    int
	BetsCount     int64
	Staked        int64
	Paid          int64
	SettledCount  int64
	ClosedAt      int64
	DrawnAt       int64
	SettledAt     int64
	// The beacon that decides the draw (BeaconRound 0: none configured)
	// and the commitment to the bets; see migration 0410.
	BeaconRound int64
	BeaconURL   string
	BeaconAt    int64
	BeaconValue string
	BetsHash    string
	VoidReason  string
}

const roundColumns = `id, window_id, seq, issue, state, starts_at, betting_ends_at, drawing_ends_at,
	rest_ends_at, odds_bp, min_bet, max_bet, seed, seed_hash, d0, d1, d2, bets_count, staked, paid,
	settled_count, closed_at, drawn_at, settled_at, beacon_round, beacon_url, beacon_at, beacon_value,
	bets_hash, void_reason`

func scanRound(r Row) (Round, error) {
	var x Round
	err := r.Scan(&x.ID, &x.WindowID, &x.Seq, &x.Issue, &x.State, &x.StartsAt, &x.BettingEndsAt,
		&x.DrawingEndsAt, &x.RestEndsAt, &x.OddsBP, &x.MinBet, &x.MaxBet, &x.Seed, &x.SeedHash,
		&x.D0, &x.D1, &x.D2, &x.BetsCount, &x.Staked, &x.Paid, &x.SettledCount, &x.ClosedAt,
		&x.DrawnAt, &x.SettledAt, &x.BeaconRound, &x.BeaconURL, &x.BeaconAt, &x.BeaconValue, &x.BetsHash,
		&x.VoidReason)
	return x, err
}

func scanRounds(rows Rows, err error) ([]Round, error) {
	return CollectRows(rows, err, func(r Rows) (Round, error) { return scanRound(r) })
}

// CreateRound inserts r (ID set). ErrConflict when the window already has a
// round with r's seq or the issue exists: another node created it first.
func CreateRound(ctx context.Context, q Querier, r Round) error {
	_, err := q.Exec(ctx, `INSERT INTO rounds (`+roundColumns+`) VALUES
		($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,
		$25,$26,$27,$28,$29,$30)`,
		r.ID, r.WindowID, r.Seq, r.Issue, r.State, r.StartsAt, r.BettingEndsAt, r.DrawingEndsAt,
		r.RestEndsAt, r.OddsBP, r.MinBet, r.MaxBet, r.Seed, r.SeedHash, r.D0, r.D1, r.D2,
		r.BetsCount, r.Staked, r.Paid, r.SettledCount, r.ClosedAt, r.DrawnAt, r.SettledAt,
		r.BeaconRound, r.BeaconURL, r.BeaconAt, r.BeaconValue, r.BetsHash, r.VoidReason)
	return err
}

// LatestRound is the window's round with the highest seq (possibly one that
// has not started yet); ErrNotFound when the window has none.
func LatestRound(ctx context.Context, q Querier, windowID int64) (Round, error) {
	return scanRound(q.QueryRow(ctx, `SELECT `+roundColumns+` FROM rounds
		WHERE window_id = $1 ORDER BY seq DESC LIMIT 1`, windowID))
}

// CurrentRound is the window's latest round that has started by now (ms).
func CurrentRound(ctx context.Context, q Querier, windowID, now int64) (Round, error) {
	return scanRound(q.QueryRow(ctx, `SELECT `+roundColumns+` FROM rounds
		WHERE window_id = $1 AND starts_at <= $2 ORDER BY seq DESC LIMIT 1`, windowID, now))
}

// CurrentRounds loads every window's current round (its latest started by
// now) in one query: per window one backward step on (window_id, seq), then
// the rounds by primary key, so it stays cheap however many rounds exist.
func CurrentRounds(ctx context.Context, q Querier, now int64) ([]Round, error) {
	rows, err := q.Query(ctx, `SELECT `+roundColumns+` FROM rounds WHERE id IN (
		SELECT (SELECT x.id FROM rounds x WHERE x.window_id = w.id AND x.starts_at <= $1
			ORDER BY x.seq DESC LIMIT 1) FROM round_windows w)`, now)
	return scanRounds(rows, err)
}

// RoundByIssue loads a window's round by its issue number. forUpdate locks
// the row until the transaction ends (bet acceptance against closing).
func RoundByIssue(ctx context.Context, q Querier, windowID int64, issue string, forUpdate bool) (Round, error) {
	lock := ""
	if forUpdate {
		lock = q.Dialect().ForUpdate()
	}
	return scanRound(q.QueryRow(ctx, `SELECT `+roundColumns+` FROM rounds
		WHERE window_id = $1 AND issue = $2`+lock, windowID, issue))
}

// RoundByID loads one round.
func RoundByID(ctx context.Context, q Querier, id int64) (Round, error) {
	return scanRound(q.QueryRow(ctx, `SELECT `+roundColumns+` FROM rounds WHERE id = $1`, id))
}

// PreviousDrawnRound is the window's newest round with a result before seq.
func PreviousDrawnRound(ctx context.Context, q Querier, windowID, beforeSeq int64) (Round, error) {
	return scanRound(q.QueryRow(ctx, `SELECT `+roundColumns+` FROM rounds
		WHERE window_id = $1 AND seq < $2 AND `+withResult+` ORDER BY seq DESC LIMIT 1`,
		windowID, beforeSeq))
}

// DrawnRounds pages through a window's rounds with a result, newest first.
func DrawnRounds(ctx context.Context, q Querier, windowID int64, limit, offset int) ([]Round, error) {
	rows, err := q.Query(ctx, `SELECT `+roundColumns+` FROM rounds
		WHERE window_id = $1 AND `+withResult+` ORDER BY seq DESC LIMIT $2 OFFSET $3`,
		windowID, limit, offset)
	return scanRounds(rows, err)
}

// DrawnRoundsCount is how many rounds of a window have a result: the
// window's rounds_count, which DrawRound keeps in the drawing transaction
// (read here, not from a cached definition, where it is zeroed).
func DrawnRoundsCount(ctx context.Context, q Querier, windowID int64) (int, error) {
	var n int64
	err := q.QueryRow(ctx, `SELECT rounds_count FROM round_windows WHERE id = $1`, windowID).Scan(&n)
	return int(n), err
}

// AllDrawnRounds lists every round with a result, oldest first (verifiers).
func AllDrawnRounds(ctx context.Context, q Querier) ([]Round, error) {
	rows, err := q.Query(ctx, `SELECT `+roundColumns+` FROM rounds WHERE `+withResult+`
		ORDER BY window_id, seq`)
	return scanRounds(rows, err)
}

// CloseRound ends betting: open -> closed. It waits for bet transactions
// holding the round's row and reports whether this call made the move.
func CloseRound(ctx context.Context, q Querier, id, now int64) (bool, error) {
	n, err := q.Exec(ctx, `UPDATE rounds SET state = $1, closed_at = $2 WHERE id = $3 AND state = $4`,
		RoundClosed, now, id, RoundOpen)
	return n == 1, err
}

// DrawRound stores the digits and the beacon value that drew them (""
// without a beacon): closed -> drawn, and counts the round on its window.
// It reports whether this call made the move.
func DrawRound(ctx context.Context, tx Tx, r Round, d0, d1, d2 int, beaconValue string, now int64) (bool, error) {
	n, err := tx.Exec(ctx, `UPDATE rounds SET state = $1, d0 = $2, d1 = $3, d2 = $4, drawn_at = $5,
		beacon_value = $6 WHERE id = $7 AND state = $8`, RoundDrawn, d0, d1, d2, now, beaconValue, r.ID, RoundClosed)
	if err != nil || n == 0 {
		return false, err
	}
	_, err = tx.Exec(ctx, `UPDATE round_windows SET rounds_count = rounds_count + 1 WHERE id = $1`, r.WindowID)
	return err == nil, err
}

// FinishRound marks a drawn round settled once no bet is left open.
func FinishRound(ctx context.Context, q Querier, id, now int64) (bool, error) {
	n, err := q.Exec(ctx, `UPDATE rounds SET state = $1, settled_at = $2 WHERE id = $3 AND state = $4
		AND NOT EXISTS (SELECT 1 FROM round_bets WHERE round_id = $3 AND state = $5)`,
		RoundSettled, now, id, RoundDrawn, BetOpen)
	return n == 1, err
}

// AddRoundStakes counts accepted bets on the round (one update per batch).
func AddRoundStakes(ctx context.Context, q Querier, id, bets, staked int64) error {
	_, err := q.Exec(ctx, `UPDATE rounds SET bets_count = bets_count + $1, staked = staked + $2
		WHERE id = $3`, bets, staked, id)
	return err
}

// AddOpenRoundStakes is AddRoundStakes for a round still open: it reports
// false, changing nothing, when the round closed meanwhile. The update takes
// the round's row lock, which CloseRound takes too, so a desk that read the
// round without a lock learns here, at the end of its transaction, whether
// its bets commit before the close or must be judged again.
func AddOpenRoundStakes(ctx context.Context, q Querier, id, bets, staked int64) (bool, error) {
	n, err := q.Exec(ctx, `UPDATE rounds SET bets_count = bets_count + $1, staked = staked + $2
		WHERE id = $3 AND state = $4`, bets, staked, id, RoundOpen)
	return n == 1, err
}

// AddRoundPayouts counts settled bets and what they paid (one update per batch).
func AddRoundPayouts(ctx context.Context, q Querier, id, settled, paid int64) error {
	_, err := q.Exec(ctx, `UPDATE rounds SET settled_count = settled_count + $1, paid = paid + $2
		WHERE id = $3`, settled, paid, id)
	return err
}
