package storage_test

import (
	"context"
	"errors"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

// planPost posts ops through a LedgerPlan in one transaction: the load in
// one pipeline (the accounts named), Apply, the writes in another.
func planPost(t *testing.T, db storage.DB, fresh bool, accounts []storage.AccountRef, ops ...storage.Op) ([]storage.OpResult, error) {
	t.Helper()
	ctx := context.Background()
	var res []storage.OpResult
	err := db.Tx(ctx, func(tx storage.Tx) error {
		plan := storage.NewLedgerPlan(2000, fresh)
		reads := storage.NewPipeline(tx.Dialect())
		var keys []string
		for _, op := range ops {
			for _, t := range op.Transfers {
				keys = append(keys, t.IdempotencyKey)
			}
		}
		plan.QueueLoad(reads, keys, accounts)
		if err := reads.Run(ctx, tx); err != nil {
			return err
		}
		var err error
		if res, err = plan.Apply(ctx, tx, ops); err != nil {
			return err
		}
		writes := storage.NewPipeline(tx.Dialect())
		plan.QueueWrite(writes)
		return writes.Run(ctx, tx)
	})
	return res, err
}

// A LedgerPlan keeps the ledger's rules: running balances within the
// batch, an overdraft fails its op alone, replays by key; accounts the load
// did not name are read (and a user's wallet opened) by Apply; fresh keys
// are not looked up, and a stored one is refused by the unique index.
func TestLedgerPlanKeepsTheLedgerRules(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		alice, bob := storedUser(t, db, "alice"), storedUser(t, db, "bob")
		wa, wb := storage.Wallet(alice.ID), storage.Wallet(bob.ID)
		commit(t, db, op(tr(storage.RechargeClearing, wa, 10_000, "fund")))

		// Bob's wallet is not in the load, and he has none yet: Apply
		// opens it and his stake fails for want of money.
		res, err := planPost(t, db, false, []storage.AccountRef{wa, storage.BetsInPlay},
			op(tr(wa, storage.BetsInPlay, 6_000, "s1")),
			op(tr(wa, storage.BetsInPlay, 6_000, "s2")),
			op(tr(wb, storage.BetsInPlay, 1, "s3")),
			op(tr(storage.RechargeClearing, wa, 10_000, "fund")))
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range []error{nil, storage.ErrInsufficientBalance, storage.ErrInsufficientBalance, nil} {
			if !errors.Is(res[i].Err, want) {
				t.Fatalf("op %d: err %v, want %v", i, res[i].Err, want)
			}
		}
		if r := res[0].Results[0]; r.DebitBalance != 4_000 || r.CreditBalance != 6_000 {
			t.Fatalf("stake result %+v", r)
		}
		if !res[3].Results[0].Replayed {
			t.Fatalf("the stored key was not replayed: %+v", res[3])
		}
		if balance(t, db, wa) != 4_000 || balance(t, db, storage.BetsInPlay) != 6_000 || balance(t, db, wb) != 0 {
			t.Fatalf("balances %d %d %d", balance(t, db, wa), balance(t, db, storage.BetsInPlay), balance(t, db, wb))
		}

		// Fresh keys: the store is not asked, so a stored key fails the
		// transaction (ErrConflict, which the callers retry) and writes
		// nothing.
		_, err = planPost(t, db, true, []storage.AccountRef{wa, storage.BetsInPlay}, op(tr(wa, storage.BetsInPlay, 100, "s1")))
		if !errors.Is(err, storage.ErrConflict) || !storage.LedgerRetryable(err) {
			t.Fatalf("a stored key posted as fresh: %v", err)
		}
		if balance(t, db, wa) != 4_000 {
			t.Fatalf("a failed plan moved the wallet to %d", balance(t, db, wa))
		}
		if rep, err := storage.CheckLedger(context.Background(), db); err != nil || !rep.OK() {
			t.Fatalf("ledger check: %v %v", err, rep)
		}
	})
}
