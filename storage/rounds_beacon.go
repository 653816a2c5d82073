package storage

import (
	"context"
)

// BetRefunded is a bet of a voided round: its stake went back to the wallet
// (payout = amount).
const BetRefunded = 3

// BetLine is what a round's bet-list commitment covers of one bet: its note
// number, what it is on and its stake. Player ids are left out: the list is
// public once the round closes.
type BetLine struct {
	ID      int64
	Content string
	Amount  int64
}

// BetLinesOfRound lists every accepted bet of a round in note order, for
// the bet-list commitment and for anyone checking it.
func BetLinesOfRound(ctx context.Context, q Querier, roundID int64) ([]BetLine, error) {
	rows, err := q.Query(ctx, `SELECT id, content, amount FROM round_bets WHERE round_id = $1 ORDER BY id`, roundID)
	return CollectRows(rows, err, func(r Rows) (BetLine, error) {
		var b BetLine
		err := r.Scan(&b.ID, &b.Content, &b.Amount)
		return b, err
	})
}

// CommitRoundBets stores the bet-list hash of a closed round that has none
// yet. It runs in the closing transaction, right after CloseRound took the
// row: no bet can join the round after it, so the hash covers exactly the
// bets the round holds.
func CommitRoundBets(ctx context.Context, q Querier, id int64, betsHash string) (bool, error) {
	n, err := q.Exec(ctx, `UPDATE rounds SET bets_hash = $1 WHERE id = $2 AND state = $3 AND bets_hash = ''`,
		betsHash, id, RoundClosed)
	return n == 1, err
}

// VoidRound moves a closed round to voided with its reason; it reports
// whether this call made the move. Its bets are refunded afterwards, in
// batches (RefundBets), and FinishVoidedRound marks the end.
func VoidRound(ctx context.Context, q Querier, id int64, reason string, now int64) (bool, error) {
	n, err := q.Exec(ctx, `UPDATE rounds SET state = $1, void_reason = $2, drawn_at = $3
		WHERE id = $4 AND state = $5`, RoundVoided, reason, now, id, RoundClosed)
	return n == 1, err
}

// RefundBets marks the listed open bets refunded (payout = their stake);
// bets no longer open are left alone, so a replay changes nothing. It
// returns how many changed.
func RefundBets(ctx context.Context, q Querier, ids []int64, now int64) (int64, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	if q.Dialect() == Postgres {
		return q.Exec(ctx, `UPDATE round_bets SET state = $1, settled_at = $2, payout = amount
			WHERE state = $3 AND id = ANY($4)`, BetRefunded, now, BetOpen, ids)
	}
	args := []any{BetRefunded, now, BetOpen}
	for _, id := range ids {
		args = append(args, id)
	}
	return q.Exec(ctx, `UPDATE round_bets SET state = $1, settled_at = $2, payout = amount
		WHERE state = $3 AND id IN (`+placeholders(len(ids), 4)+`)`, args...)
}

// FinishVoidedRound records, once no bet of the voided round is left open,
// that every bet is refunded (settled_at); it reports whether this call
// did.
func FinishVoidedRound(ctx context.Context, q Querier, id, now int64) (bool, error) {
	n, err := q.Exec(ctx, `UPDATE rounds SET settled_at = $1 WHERE id = $2 AND state = $3 AND settled_at = 0
		AND NOT EXISTS (SELECT 1 FROM round_bets WHERE round_id = $2 AND state = $4)`,
		now, id, RoundVoided, BetOpen)
	return n == 1, err
}
