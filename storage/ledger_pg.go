package storage

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// The PostgreSQL fast path of the ledger batch. Both reads go in one
// pipelined round trip. Writes of a large batch use COPY for the transfers
// and entries (the cheapest way into PostgreSQL); a small batch sends its
// array-bound statements (unnest) as one pipelined round trip, which is
// what keeps a lone transfer's latency low.
//
// Balances are read without row locks, so several writers (shards, nodes)
// insert in parallel and only queue on the hot system rows, at the very
// end and in one fixed order (id), which the closing UPDATE ... RETURNING
// takes first and holds until commit. Under those locks it checks what the
// batch assumed: a wallet must be exactly what was read plus the batch's own change (its
// per-transfer balances and overdraft checks depended on it); a shared
// holding account (bets in play, withdrawal pending), which other writers
// move all the time, must only stay ≥ 0. If either fails, the batch is
// recomputed from fresh balances (errBalanceMoved), this time read under
// row locks so that the retry cannot fail the same way.

// copyThreshold is the batch size from which COPY beats one round trip.
const copyThreshold = 64

func (b *ledgerBatch) loadPG(ctx context.Context, tx pgx.Tx, keys []string, accountIDs []int64) error {
	var batch pgx.Batch
	batch.Queue(`SELECT id, idempotency_key, debit_account, credit_account, amount, kind, ref, created_at
		FROM ledger_transfers WHERE idempotency_key = ANY($1)`, keys)
	if b.lockAccounts {
		batch.Queue(`SELECT id, kind, balance FROM ledger_accounts WHERE id = ANY($1) ORDER BY id FOR UPDATE`, accountIDs)
	} else {
		batch.Queue(`SELECT id, kind, balance FROM ledger_accounts WHERE id = ANY($1)`, accountIDs)
	}
	br := tx.SendBatch(ctx, &batch)
	defer br.Close()
	rows, err := br.Query()
	if err != nil {
		return pgErr(err)
	}
	if err := b.scanTransfers(pgRows{rows}); err != nil {
		return err
	}
	rows, err = br.Query()
	if err != nil {
		return pgErr(err)
	}
	if err := b.scanAccounts(pgRows{rows}); err != nil {
		return err
	}
	return pgErr(br.Close())
}

// The batch's new transfers and entries as whole columns (one statement
// text whatever the batch's size, prepared once per connection), in one
// statement: each statement of a transaction costs PostgreSQL its own
// bind, executor start and answer, a fixed cost the bets of a small batch
// share.
const insertTransfersPG = `WITH t AS (
		INSERT INTO ledger_transfers (id, idempotency_key, debit_account, credit_account, amount, kind, ref, created_at)
		SELECT i, k, d, c, a, kd, r, $8
		FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::text[], $7::text[]) AS u(i, k, d, c, a, kd, r))
	INSERT INTO ledger_entries (account_id, transfer_id, amount, created_at)
	SELECT a, t, m, $8 FROM unnest($9::bigint[], $10::bigint[], $11::bigint[]) AS u(a, t, m)`

// checkBalances reads updateBalancesPG's rows (id, balance after the
// update) and checks them against what the batch assumed: a wallet exactly
// its running balance, a no-overdraft account not below zero. It returns
// how many rows it read.
func (b *ledgerBatch) checkBalances(rows Rows) (int, error) {
	n := 0
	for rows.Next() {
		var id, bal int64
		if err := rows.Scan(&id, &bal); err != nil {
			return n, err
		}
		n++
		a := b.accounts[id]
		if (a.kind == AccountWallet && bal != a.bal) || (a.kind.NoOverdraft() && bal < 0) {
			return n, fmt.Errorf("%w: account %d is %d, expected %d", errBalanceMoved, id, bal, a.bal)
		}
	}
	return n, nil
}

// updateBalancesPG moves each balance ($1 the accounts in id order, $2
// their changes) and answers the balances after. It first locks the
// system accounts among them ($4, in id order: every writer queues on
// those rows in the same order, so two never deadlock), in the same
// statement: the CTE is read by an InitPlan that the one-time filter
// evaluates before the join fetches its first row. As a statement of its
// own the lock cost a round of bind and execute per transaction, and was
// planned anew each time (its generic plan, for ten ids, looked dearer
// than a custom one for the one or two it has).
const updateBalancesPG = `WITH hot AS (SELECT id FROM ledger_accounts WHERE id = ANY($4::bigint[]) ORDER BY id FOR UPDATE)
	UPDATE ledger_accounts AS a SET balance = a.balance + u.delta, updated_at = $3
	FROM unnest($1::bigint[], $2::bigint[]) AS u(id, delta)
	WHERE a.id = u.id AND (SELECT COUNT(*) FROM hot) >= 0
	RETURNING a.id, a.balance`

// hotAccounts are the system accounts among ids (updateBalancesPG's $4).
func hotAccounts(ids []int64) []int64 {
	hot := []int64{}
	for _, id := range ids {
		if id <= maxSystemAccount {
			hot = append(hot, id)
		}
	}
	return hot
}

func (b *ledgerBatch) writePG(ctx context.Context, tx pgx.Tx, ids, deltas []int64) error {
	var batch pgx.Batch
	if len(b.tIDs) >= copyThreshold {
		now := b.now
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"ledger_transfers"},
			[]string{"id", "idempotency_key", "debit_account", "credit_account", "amount", "kind", "ref", "created_at"},
			pgx.CopyFromSlice(len(b.tIDs), func(i int) ([]any, error) {
				return []any{b.tIDs[i], b.tKey[i], b.tDebit[i], b.tCredit[i], b.tAmount[i], b.tKind[i], b.tRef[i], now}, nil
			})); err != nil {
			return pgErr(err)
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"ledger_entries"},
			[]string{"account_id", "transfer_id", "amount", "created_at"},
			pgx.CopyFromSlice(len(b.eAccount), func(i int) ([]any, error) {
				return []any{b.eAccount[i], b.eTransfer[i], b.eAmount[i], now}, nil
			})); err != nil {
			return pgErr(err)
		}
	} else {
		batch.Queue(insertTransfersPG, b.tIDs, b.tKey, b.tDebit, b.tCredit, b.tAmount, b.tKind, b.tRef, b.now,
			b.eAccount, b.eTransfer, b.eAmount)
	}
	batch.Queue(updateBalancesPG, ids, deltas, b.now, hotAccounts(ids))
	br := tx.SendBatch(ctx, &batch)
	defer br.Close()
	for range len(batch.QueuedQueries) - 1 {
		if _, err := br.Exec(); err != nil {
			return pgErr(err)
		}
	}
	rows, err := br.Query()
	if err != nil {
		return pgErr(err)
	}
	n, err := b.checkBalances(pgRows{rows})
	rows.Close()
	if err == nil {
		err = pgErr(rows.Err())
	}
	if err != nil {
		return err
	}
	if n != len(ids) {
		return fmt.Errorf("ledger: %d of %d balances updated", n, len(ids))
	}
	return pgErr(br.Close())
}
