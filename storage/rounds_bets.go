package storage

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// Bet states (round_bets.state): the click record's "unmatched" until its
// round is settled, then won or lost.
const (
	BetOpen = 0
	BetWon  = 1
	BetLost = 2
)

// RoundBet is one accepted bet (a click record). ID is the note number;
// BetID is the client's idempotency key.
type RoundBet struct {
	ID        int64
	BetID     string
	UserID    int64
	RoundID   int64
	WindowID  int64
	Issue     string
	Content   string
	Amount    int64 // cents
	State     int
	Payout    int64 // cents credited back to the wallet, stake included
	PlacedAt  int64
	SettledAt int64
}

const betColumns = `id, bet_id, user_id, round_id, window_id, issue, content, amount, state, payout,
	placed_at, settled_at`

func scanBet(r Row) (RoundBet, error) {
	var b RoundBet
	err := r.Scan(&b.ID, &b.BetID, &b.UserID, &b.RoundID, &b.WindowID, &b.Issue, &b.Content,
		&b.Amount, &b.State, &b.Payout, &b.PlacedAt, &b.SettledAt)
	return b, err
}

func scanBets(rows Rows, err error) ([]RoundBet, error) {
	return CollectRows(rows, err, func(r Rows) (RoundBet, error) { return scanBet(r) })
}

// StakeKey is the ledger idempotency key of a bet's stake. The stake is
// written in the same transaction as its bet, with the bet's row id as its
// ref, so the unique index on the ledger's keys is what keeps a bet id to
// one bet (round_bets has no index of its own on bet_id since 0421), and a
// bet is found by its bet id through its stake.
func StakeKey(betID string) string { return "bet:" + betID + ":stake" }

// KindBetStake is the transfer kind of a bet's stake (wallet → bets in play).
const KindBetStake = "bet"

// KindBetStakesSettled is the transfer kind of the stakes of the bets one
// settlement transaction settled (bets in play → house, ref the round's
// id): one transfer for them all, winners' and losers' alike, so a loser
// costs no ledger row of its own and a winner one (the whole payout,
// house → wallet).
const KindBetStakesSettled = "bet_stakes_settled"

// StakesSettledKey is the ledger idempotency key of the stakes transfer of
// the bets a settlement transaction settled, firstID and lastID the lowest
// and highest of their row ids. It is written only together with those
// bets leaving their open state, and a bet leaves it once, so no two
// transactions that commit share a set of bets, nor, therefore, a key.
func StakesSettledKey(roundID, firstID, lastID int64) string {
	return "round:" + strconv.FormatInt(roundID, 10) + ":settle:" + strconv.FormatInt(firstID, 10) + "-" + strconv.FormatInt(lastID, 10)
}

// betsByStakeKeys selects the bets whose stakes carry the keys bound from
// $1 on (a list of placeholders on SQLite, an array on PostgreSQL); the
// CASE keeps the cast away from other kinds' refs.
func betsByStakeKeys(in string) string {
	return `SELECT ` + prefixed("b.", betColumns) + ` FROM ledger_transfers t
		JOIN round_bets b ON b.id = CAST(CASE WHEN t.kind = '` + KindBetStake + `' THEN t.ref END AS BIGINT)
		WHERE t.idempotency_key ` + in + ` AND t.kind = '` + KindBetStake + `'`
}

func stakeKeys(betIDs []string) []string {
	keys := make([]string, len(betIDs))
	for i, id := range betIDs {
		keys[i] = StakeKey(id)
	}
	return keys
}

// BetsByBetIDs loads the bets that already carry one of the given keys
// (the bets the desk placed: found through their stakes).
func BetsByBetIDs(ctx context.Context, q Querier, betIDs []string) ([]RoundBet, error) {
	if len(betIDs) == 0 {
		return nil, nil
	}
	keys := stakeKeys(betIDs)
	if q.Dialect() == Postgres {
		// One array parameter: no statement with thousands of placeholders.
		rows, err := q.Query(ctx, betsByStakeKeys(`= ANY($1)`), keys)
		return scanBets(rows, err)
	}
	var out []RoundBet
	for _, c := range chunks(len(keys), 500) {
		part := keys[c[0]:c[1]]
		rows, err := q.Query(ctx, betsByStakeKeys(`IN (`+placeholders(len(part), 1)+`)`), anySlice(part)...)
		bets, err := scanBets(rows, err)
		if err != nil {
			return nil, err
		}
		out = append(out, bets...)
	}
	return out, nil
}

// InsertRoundBets stores accepted bets with multi-row INSERTs. It does not
// check their bet ids: the desk writes each bet with its stake, whose
// ledger key is unique (StakeKey).
func InsertRoundBets(ctx context.Context, q Querier, bets []RoundBet) error {
	if ptx, ok := PgxTx(q); ok && len(bets) >= 64 {
		// COPY is the cheapest way into PostgreSQL for a big batch.
		_, err := ptx.CopyFrom(ctx, pgx.Identifier{"round_bets"}, strings.Split(strings.Join(strings.Fields(betColumns), ""), ","),
			pgx.CopyFromSlice(len(bets), func(i int) ([]any, error) {
				b := bets[i]
				return []any{b.ID, b.BetID, b.UserID, b.RoundID, b.WindowID, b.Issue, b.Content, b.Amount,
					int16(b.State), b.Payout, b.PlacedAt, b.SettledAt}, nil
			}))
		return pgErr(err)
	}
	// At most 500 rows a statement keeps its parameter count modest.
	return insertRows(ctx, q, `INSERT INTO round_bets (`+betColumns+`) VALUES `, len(bets), 12, 500, func(args []any, i int) []any {
		b := bets[i]
		return append(args, b.ID, b.BetID, b.UserID, b.RoundID, b.WindowID, b.Issue, b.Content,
			b.Amount, b.State, b.Payout, b.PlacedAt, b.SettledAt)
	})
}

// OpenBets returns up to limit unsettled bets of a round in note order,
// locked for the settling transaction.
func OpenBets(ctx context.Context, q Querier, roundID int64, limit int) ([]RoundBet, error) {
	rows, err := q.Query(ctx, `SELECT `+betColumns+` FROM round_bets
		WHERE round_id = $1 AND state = $2 ORDER BY id LIMIT $3`+q.Dialect().ForUpdate(),
		roundID, BetOpen, limit)
	return scanBets(rows, err)
}

// SettleBets gives each listed open bet its result. Winners are paid
// amount × oddsBP / 10000 cents, rounded down; losers get 0. Only bets still
// open change, so a replay changes nothing; it returns how many changed.
func SettleBets(ctx context.Context, q Querier, ids []int64, won bool, oddsBP, now int64) (int64, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	state, payout := BetLost, "0"
	if won {
		state, payout = BetWon, "amount * "+strconv.FormatInt(oddsBP, 10)+" / 10000"
	}
	if q.Dialect() == Postgres {
		return q.Exec(ctx, `UPDATE round_bets SET state = $1, settled_at = $2, payout = `+payout+`
			WHERE state = $3 AND id = ANY($4)`, state, now, BetOpen, ids)
	}
	args := []any{state, now, BetOpen}
	for _, id := range ids {
		args = append(args, id)
	}
	return q.Exec(ctx, `UPDATE round_bets SET state = $1, settled_at = $2, payout = `+payout+`
		WHERE state = $3 AND id IN (`+placeholders(len(ids), 4)+`)`, args...)
}

// BetsOfUserInRound lists one player's bets in a round, oldest first.
func BetsOfUserInRound(ctx context.Context, q Querier, roundID, userID int64) ([]RoundBet, error) {
	rows, err := q.Query(ctx, `SELECT `+betColumns+` FROM round_bets
		WHERE round_id = $1 AND user_id = $2 ORDER BY id`, roundID, userID)
	return scanBets(rows, err)
}

// BetsOfRound lists every bet of a round (verifiers and tests).
func BetsOfRound(ctx context.Context, q Querier, roundID int64) ([]RoundBet, error) {
	rows, err := q.Query(ctx, `SELECT `+betColumns+` FROM round_bets WHERE round_id = $1 ORDER BY id`, roundID)
	return scanBets(rows, err)
}

// Bet record filters (the click-record tabs).
const (
	BetsAll       = 0
	BetsUnmatched = 1 // not settled yet
	BetsMatched   = 2 // settled, won or lost
)

// BetsOfUser pages through one player's bets placed at or after since (ms),
// newest first, and counts all that match.
func BetsOfUser(ctx context.Context, q Querier, userID int64, filter int, since int64, limit, offset int) ([]RoundBet, int, error) {
	cond := ""
	switch filter {
	case BetsUnmatched:
		cond = ` AND state = 0`
	case BetsMatched:
		cond = ` AND state <> 0`
	}
	var total int
	if err := q.QueryRow(ctx, `SELECT COUNT(*) FROM round_bets WHERE user_id = $1 AND placed_at >= $2`+cond,
		userID, since).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := q.Query(ctx, `SELECT `+betColumns+` FROM round_bets
		WHERE user_id = $1 AND placed_at >= $2`+cond+` ORDER BY placed_at DESC, id DESC LIMIT $3 OFFSET $4`,
		userID, since, limit, offset)
	bets, err := scanBets(rows, err)
	return bets, total, err
}

// QueueBetsByBetIDs queues BetsByBetIDs; found gets the bets.
func QueueBetsByBetIDs(pl *Pipeline, betIDs []string, found func([]RoundBet)) {
	if len(betIDs) == 0 {
		return
	}
	scan := func(rows Rows) error {
		bets, err := scanBets(rows, nil)
		found(bets)
		return err
	}
	keys := stakeKeys(betIDs)
	if pl.Dialect() == Postgres {
		pl.Query(betsByStakeKeys(`= ANY($1)`), []any{keys}, scan)
		return
	}
	for _, c := range chunks(len(keys), 500) {
		part := keys[c[0]:c[1]]
		pl.Query(betsByStakeKeys(`IN (`+placeholders(len(part), 1)+`)`), anySlice(part), scan)
	}
}

// insertBetsPG binds round_bets' columns as arrays: one statement text for
// any number of bets.
const insertBetsPG = `INSERT INTO round_bets (` + betColumns + `)
	SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::text[], $7::text[],
		$8::bigint[], $9::smallint[], $10::bigint[], $11::bigint[], $12::bigint[])`

// QueueInsertRoundBets queues InsertRoundBets: COPY for a big batch on
// PostgreSQL, else one array-bound INSERT; multi-row INSERTs elsewhere.
func QueueInsertRoundBets(pl *Pipeline, bets []RoundBet) {
	if len(bets) == 0 {
		return
	}
	if pl.Dialect() == Postgres && len(bets) < copyThreshold {
		n := len(bets)
		id, user, round, window, amount, payout, placed, settled := make([]int64, n), make([]int64, n), make([]int64, n),
			make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
		betID, issue, content := make([]string, n), make([]string, n), make([]string, n)
		state := make([]int16, n)
		for i, b := range bets {
			id[i], betID[i], user[i], round[i], window[i], issue[i] = b.ID, b.BetID, b.UserID, b.RoundID, b.WindowID, b.Issue
			content[i], amount[i], state[i], payout[i], placed[i], settled[i] = b.Content, b.Amount, int16(b.State), b.Payout, b.PlacedAt, b.SettledAt
		}
		pl.Exec(insertBetsPG, []any{id, betID, user, round, window, issue, content, amount, state, payout, placed, settled}, nil)
		return
	}
	pl.Copy("round_bets", strings.Split(strings.Join(strings.Fields(betColumns), ""), ","), len(bets), 500, func(i int) []any {
		b := bets[i]
		return []any{b.ID, b.BetID, b.UserID, b.RoundID, b.WindowID, b.Issue, b.Content, b.Amount,
			int16(b.State), b.Payout, b.PlacedAt, b.SettledAt}
	})
}

// QueueSettleOpenBets queues the settlement of up to limit open bets of a
// drawn round, in note order, as one UPDATE that picks and changes them:
// a bet whose content is among winners is won and paid amount × oddsBP /
// 10000 cents (rounded down), any other lost. Only bets still open change
// (another node's settlement of the same bets, committed meanwhile, leaves
// them out), and found gets exactly the bets this statement changed, as
// settled — the ones whose payouts the caller posts in the same
// transaction. On PostgreSQL the same statement reads the wallets of those
// that pay into plan. Only the bets of part's players are picked (see
// BetPart).
func QueueSettleOpenBets(pl *Pipeline, plan *LedgerPlan, roundID int64, part BetPart, limit int, winners []string, oddsBP, now int64, found func([]RoundBet)) {
	if len(winners) == 0 {
		winners = []string{""}
	}
	if pl.Dialect() == Postgres {
		queueCloseOpenBetsPG(pl, plan, part, `state = CASE WHEN b.content = ANY($4::text[]) THEN 1 ELSE 2 END,
			payout = CASE WHEN b.content = ANY($4::text[]) THEN b.amount * $5::bigint / 10000 ELSE 0 END`,
			[]any{roundID, limit, now, winners, oddsBP}, found)
		return
	}
	in := placeholders(len(winners), 4)
	args := append([]any{roundID, limit, now}, anySlice(winners)...)
	queueCloseOpenBetsLite(pl, part, `state = CASE WHEN content IN (`+in+`) THEN 1 ELSE 2 END,
		payout = CASE WHEN content IN (`+in+`) THEN amount * `+strconv.FormatInt(oddsBP, 10)+` / 10000 ELSE 0 END`, args, found)
}

// QueueRefundOpenBets is QueueSettleOpenBets for a voided round: each bet
// is refunded, its payout its stake.
func QueueRefundOpenBets(pl *Pipeline, plan *LedgerPlan, roundID int64, part BetPart, limit int, now int64, found func([]RoundBet)) {
	set := `state = ` + strconv.Itoa(BetRefunded) + `, payout = amount`
	if pl.Dialect() == Postgres {
		queueCloseOpenBetsPG(pl, plan, part, strings.ReplaceAll(set, "amount", "b.amount"), []any{roundID, limit, now}, found)
		return
	}
	queueCloseOpenBetsLite(pl, part, set, []any{roundID, limit, now}, found)
}

// BetPart names the bets of one part of the players: those whose user id
// is Is modulo Of (Of ≤ 1: every bet). Settlement runs the parts of a
// round side by side, one transaction each: no wallet is in two of them,
// so none fails another's balance check, and only the system accounts and
// the round's row, locked last in a fixed order, are shared.
type BetPart struct{ Of, Is int }

// openBetsOfRound picks a round's first open bets of part ($1 the round,
// $2 how many); the UPDATE around it takes their row locks and, if
// another transaction changed one first, checks again that it is still
// open. The part is written into the text (two small integers), so each
// part is a statement of its own, prepared once per connection.
func openBetsOfRound(part BetPart) string {
	of := ""
	if part.Of > 1 {
		of = ` AND user_id % ` + strconv.Itoa(part.Of) + ` = ` + strconv.Itoa(part.Is)
	}
	return `SELECT id FROM round_bets WHERE round_id = $1 AND state = 0` + of + ` ORDER BY id LIMIT $2`
}

// queueCloseOpenBetsPG settles with set ($3 the time), returning the bets
// with their wallets' kind and balance (0, 0: no wallet, or a bet that
// pays nothing), which it notes in plan. Only a bet with a payout moves
// its wallet (a loser's stake goes to the house in the transaction's one
// stakes transfer), so only those wallets are read.
func queueCloseOpenBetsPG(pl *Pipeline, plan *LedgerPlan, part BetPart, set string, args []any, found func([]RoundBet)) {
	cols := "s." + strings.Join(strings.Split(strings.Join(strings.Fields(betColumns), ""), ","), ", s.")
	pl.Query(`WITH s AS (
			UPDATE round_bets AS b SET `+set+`, settled_at = $3
			WHERE b.id IN (`+openBetsOfRound(part)+`) AND b.state = 0
			RETURNING b.*
		)
		SELECT `+cols+`, COALESCE(a.kind, 0), COALESCE(a.balance, 0)
		FROM s LEFT JOIN ledger_accounts a ON a.id = s.user_id AND s.payout > 0 ORDER BY s.id`, args,
		func(rows Rows) error {
			var bets []RoundBet
			for rows.Next() {
				var b RoundBet
				var kind int16
				var bal int64
				if err := rows.Scan(&b.ID, &b.BetID, &b.UserID, &b.RoundID, &b.WindowID, &b.Issue, &b.Content,
					&b.Amount, &b.State, &b.Payout, &b.PlacedAt, &b.SettledAt, &kind, &bal); err != nil {
					return err
				}
				if kind != 0 {
					plan.noteAccount(b.UserID, AccountKind(kind), bal)
				}
				bets = append(bets, b)
			}
			found(bets)
			return nil
		})
}

func queueCloseOpenBetsLite(pl *Pipeline, part BetPart, set string, args []any, found func([]RoundBet)) {
	pl.Query(`UPDATE round_bets SET `+set+`, settled_at = $3
		WHERE id IN (`+openBetsOfRound(part)+`) AND state = 0
		RETURNING `+betColumns, args, func(rows Rows) error {
		bets, err := scanBets(rows, nil)
		slices.SortFunc(bets, func(a, b RoundBet) int { return cmp.Compare(a.ID, b.ID) })
		found(bets)
		return err
	})
}
