package storage

import "context"

// PostLedgerOps applies ops to the ledger inside tx, a transaction the
// caller owns, with exactly the rules of CommitLedgerBatch (running
// balances, one balance update per account, a failing op leaves the others
// standing, replays by idempotency key). The rounds need this so a batch of
// bets is one transaction with the rows it locks and writes: the round that
// must still be open, the bet rows, the round's totals, the stakes.
//
// When it (or the commit) fails with an error LedgerRetryable accepts —
// another writer moved a checked balance, a duplicate key, a deadlock —
// the caller runs its whole transaction again.
func PostLedgerOps(ctx context.Context, tx Tx, now int64, ops []Op) ([]OpResult, error) {
	b := newLedgerBatch(ops, now, 0)
	if err := b.run(ctx, tx); err != nil {
		return nil, err
	}
	return b.out, nil
}

// LedgerRetryable reports whether a transaction that posted ledger ops
// failed as a whole for a reason a fresh attempt can get past.
func LedgerRetryable(err error) bool { return retryableLedgerError(err) }
