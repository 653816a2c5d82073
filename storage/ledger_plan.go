package storage

import (
	"context"
	"fmt"
	"sort"
)

// LedgerPlan posts ledger ops inside a caller's transaction with exactly
// PostLedgerOps' rules (running balances, one balance update per account,
// a failing op leaves the others standing, replays by idempotency key), in
// three steps the caller pipelines with its own statements: QueueLoad puts
// the ledger's reads into the caller's read pipeline, Apply runs the ops in
// memory against them, QueueWrite puts the ledger's writes into the
// caller's write pipeline. The bet desk sends a whole batch of bets, or a
// batch of settled bets, this way in two round trips between BEGIN and
// COMMIT.
//
// FreshKeys is for callers that know no key of their ops was written
// before, because each key is written only together with a change of a
// row they have just read (a bet's stake with its bet row, a settlement's
// transfers with the bet leaving its open state). Then the keys are not
// looked up; the unique index on the key still refuses a duplicate
// (ErrConflict, which LedgerRetryable accepts: the caller's retry reads the
// rows again and finds the bet stored or settled).
type LedgerPlan struct {
	b         *ledgerBatch
	freshKeys bool
	keysRead  map[string]bool // keys looked up by QueueLoad
	idsRead   map[int64]bool  // accounts looked up by QueueLoad
}

// NewLedgerPlan starts a plan for ops posted at now.
func NewLedgerPlan(now int64, freshKeys bool) *LedgerPlan {
	b := newLedgerBatch(nil, now, 0)
	b.existing = map[string]StoredTransfer{}
	return &LedgerPlan{b: b, freshKeys: freshKeys, keysRead: map[string]bool{}, idsRead: map[int64]bool{}}
}

// QueueLoad queues the reads of the accounts the ops may touch and, unless
// the keys are fresh, of the transfers already stored under keys. An
// account or key Apply needs that was not read here is read then, in a
// round trip of its own.
func (p *LedgerPlan) QueueLoad(pl *Pipeline, keys []string, accounts []AccountRef) {
	ids := make([]int64, 0, len(accounts))
	for _, a := range accounts {
		if id := a.ID(); !p.idsRead[id] {
			p.idsRead[id] = true
			ids = append(ids, id)
		}
	}
	if !p.freshKeys && len(keys) > 0 {
		for _, k := range keys {
			p.keysRead[k] = true
		}
		queueTransfersByKey(pl, keys, p.b.scanTransfers)
	}
	if len(ids) > 0 {
		queueAccounts(pl, ids, p.b.scanAccounts)
	}
}

// noteAccount records an account's balance read by one of the caller's
// statements in the load pipeline.
func (p *LedgerPlan) noteAccount(id int64, kind AccountKind, balance int64) {
	p.idsRead[id] = true
	p.b.accounts[id] = &ledgerAccount{kind: kind, start: balance, bal: balance}
}

func queueTransfersByKey(pl *Pipeline, keys []string, scan func(Rows) error) {
	const cols = `SELECT id, idempotency_key, debit_account, credit_account, amount, kind, ref, created_at
		FROM ledger_transfers WHERE idempotency_key`
	if pl.Dialect() == Postgres {
		pl.Query(cols+` = ANY($1)`, []any{keys}, scan)
		return
	}
	for _, c := range chunks(len(keys), 500) {
		part := keys[c[0]:c[1]]
		pl.Query(cols+` IN (`+placeholders(len(part), 1)+`)`, anySlice(part), scan)
	}
}

func queueAccounts(pl *Pipeline, ids []int64, scan func(Rows) error) {
	if pl.Dialect() == Postgres {
		pl.Query(`SELECT id, kind, balance FROM ledger_accounts WHERE id = ANY($1)`, []any{ids}, scan)
		return
	}
	for _, c := range chunks(len(ids), 500) {
		part := ids[c[0]:c[1]]
		pl.Query(`SELECT id, kind, balance FROM ledger_accounts WHERE id IN (`+placeholders(len(part), 1)+`)`, anySlice(part), scan)
	}
}

// Apply runs ops against the balances read (reading, and opening, what the
// load did not cover) and returns one OpResult per op, as PostLedgerOps
// does. Nothing is written until QueueWrite's pipeline runs. Apply is called
// once per plan.
func (p *LedgerPlan) Apply(ctx context.Context, tx Tx, ops []Op) ([]OpResult, error) {
	b := p.b
	b.ops, b.out = ops, make([]OpResult, len(ops))
	touchWallets(tx, ops)
	var keys []string
	ids := map[int64]bool{}
	for i, op := range ops {
		if err := ValidateOp(op, b.maxTransfers); err != nil {
			b.out[i].Err = err
			continue
		}
		for _, t := range op.Transfers {
			if !p.freshKeys && !p.keysRead[t.IdempotencyKey] {
				keys = append(keys, t.IdempotencyKey)
			}
			for _, id := range []int64{t.Debit.ID(), t.Credit.ID()} {
				if b.accounts[id] == nil && !ids[id] {
					ids[id] = true
				}
			}
		}
	}
	var missing []int64
	for id := range ids {
		missing = append(missing, id)
	}
	sort.Slice(missing, func(i, j int) bool { return missing[i] < missing[j] })
	if len(keys) > 0 || len(missing) > 0 {
		// Whatever the load did not cover: read it now (and open the
		// wallets of users that have none yet, as PostLedgerOps does).
		pl := NewPipeline(tx.Dialect())
		if len(keys) > 0 {
			queueTransfersByKey(pl, keys, b.scanTransfers)
		}
		if len(missing) > 0 {
			queueAccounts(pl, missing, b.scanAccounts)
		}
		if err := pl.Run(ctx, tx); err != nil {
			return nil, err
		}
		var wallets []int64
		for _, id := range missing {
			if b.accounts[id] == nil && id > maxSystemAccount {
				wallets = append(wallets, id)
			}
		}
		if len(wallets) > 0 {
			if err := b.openWallets(ctx, tx, wallets); err != nil {
				return nil, err
			}
		}
	}
	for i, op := range ops {
		if b.out[i].Err != nil {
			continue
		}
		if err := b.apply(ctx, tx, i, op); err != nil {
			return nil, err
		}
	}
	return b.out, nil
}

// QueueWrite queues the new transfers and entries and one balance update
// per account moved; on PostgreSQL the update checks, under the row locks
// it takes, what the batch assumed of the balances it read (see
// ledger_pg.go) and fails the pipeline with a retryable error otherwise.
func (p *LedgerPlan) QueueWrite(pl *Pipeline) {
	b := p.b
	if len(b.tIDs) == 0 {
		return
	}
	ids, deltas := b.moved()
	now := b.now
	if pl.Dialect() != Postgres || len(b.tIDs) >= copyThreshold {
		pl.Copy("ledger_transfers", []string{"id", "idempotency_key", "debit_account", "credit_account", "amount", "kind", "ref", "created_at"},
			len(b.tIDs), 100, func(i int) []any {
				return []any{b.tIDs[i], b.tKey[i], b.tDebit[i], b.tCredit[i], b.tAmount[i], b.tKind[i], b.tRef[i], now}
			})
		pl.Copy("ledger_entries", []string{"account_id", "transfer_id", "amount", "created_at"}, len(b.eAccount), 200,
			func(i int) []any { return []any{b.eAccount[i], b.eTransfer[i], b.eAmount[i], now} })
	} else {
		pl.Exec(insertTransfersPG, []any{b.tIDs, b.tKey, b.tDebit, b.tCredit, b.tAmount, b.tKind, b.tRef, now,
			b.eAccount, b.eTransfer, b.eAmount}, nil)
	}
	if pl.Dialect() != Postgres {
		for i, id := range ids {
			pl.Exec(`UPDATE ledger_accounts SET balance = balance + $1, updated_at = $2 WHERE id = $3`,
				[]any{deltas[i], now, id}, nil)
		}
		return
	}
	pl.Query(updateBalancesPG, []any{ids, deltas, now, hotAccounts(ids)}, func(rows Rows) error {
		n, err := b.checkBalances(rows)
		if err != nil {
			return err
		}
		if n != len(ids) {
			return fmt.Errorf("ledger: %d of %d balances updated", n, len(ids))
		}
		return nil
	})
}
