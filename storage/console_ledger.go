package storage

import "context"

// WalletLinesBetween pages a user's wallet entries made in [from, to) (unix
// ms; 0 leaves that end open), newest first, each with the balance after
// it, and counts the entries in the range.
func WalletLinesBetween(ctx context.Context, q Querier, userID, from, to int64, limit, offset int) ([]WalletLine, int, error) {
	where := ` FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id
		WHERE e.account_id = $1 AND (CAST($2 AS BIGINT) = 0 OR e.created_at >= $2)
		AND (CAST($3 AS BIGINT) = 0 OR e.created_at < $3)`
	var total int
	if err := q.QueryRow(ctx, `SELECT COUNT(*)`+where, userID, from, to).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := q.Query(ctx, `SELECT e.transfer_id, t.kind, COALESCE(t.ref, ''), e.amount, e.created_at`+where+
		` ORDER BY e.transfer_id DESC LIMIT $4 OFFSET $5`, userID, from, to, limit, offset)
	lines, err := CollectRows(rows, err, func(r Rows) (WalletLine, error) {
		var l WalletLine
		return l, r.Scan(&l.TransferID, &l.Kind, &l.Ref, &l.Amount, &l.CreatedAt)
	})
	if err != nil || len(lines) == 0 {
		return lines, total, err
	}
	// The balance after the newest line is today's balance less every entry
	// made after it; each older line's follows from the one above it.
	var after int64
	if err := q.QueryRow(ctx, `SELECT COALESCE((SELECT balance FROM ledger_accounts WHERE id = $1), 0)
		- COALESCE((SELECT SUM(amount) FROM ledger_entries WHERE account_id = $1 AND transfer_id > $2), 0)`,
		userID, lines[0].TransferID).Scan(&after); err != nil {
		return nil, 0, err
	}
	for i := range lines {
		lines[i].BalanceAfter = after
		after -= lines[i].Amount
	}
	return lines, total, nil
}
