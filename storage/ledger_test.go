package storage_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

func commit(t *testing.T, db storage.DB, ops ...storage.Op) []storage.OpResult {
	t.Helper()
	res, err := storage.CommitLedgerBatch(context.Background(), db, 1000, ops, 0)
	if err != nil {
		t.Fatalf("batch: %v", err)
	}
	return res
}

func balance(t *testing.T, db storage.DB, a storage.AccountRef) int64 {
	t.Helper()
	b, err := storage.AccountBalance(context.Background(), db, a)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func op(ts ...storage.Transfer) storage.Op { return storage.Op{Transfers: ts} }

func tr(from, to storage.AccountRef, amount int64, key string) storage.Transfer {
	return storage.Transfer{Debit: from, Credit: to, Amount: amount, Kind: "test", Ref: "r-" + key, IdempotencyKey: key}
}

func TestLedgerBatchSemantics(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		alice, bob := storedUser(t, db, "alice"), storedUser(t, db, "bob")
		wa, wb := storage.Wallet(alice.ID), storage.Wallet(bob.ID)

		// One batch: a credit, a spend relying on it, an overdraft that must
		// fail alone, a two-transfer op, and an in-batch replay.
		res := commit(t, db,
			op(tr(storage.RechargeClearing, wa, 10_000, "k1")),
			op(tr(wa, storage.BetsInPlay, 3_000, "k2")),
			op(tr(wb, storage.BetsInPlay, 1, "k3")),
			op(tr(storage.BetsInPlay, wa, 3_000, "k4"), tr(storage.House, wa, 2_940, "k5")),
			op(tr(storage.RechargeClearing, wa, 10_000, "k1")),
		)
		for i, want := range []error{nil, nil, storage.ErrInsufficientBalance, nil, nil} {
			if !errors.Is(res[i].Err, want) {
				t.Fatalf("op %d: err %v, want %v", i, res[i].Err, want)
			}
		}
		if r := res[0].Results[0]; r.Replayed || r.CreditBalance != 10_000 || r.DebitBalance != -10_000 {
			t.Fatalf("first credit result %+v", r)
		}
		if r := res[4].Results[0]; !r.Replayed || r.TransferID != res[0].Results[0].TransferID {
			t.Fatalf("in-batch replay %+v, want the original id %d", r, res[0].Results[0].TransferID)
		}
		if r := res[3].Results[1]; r.CreditBalance != 12_940 {
			t.Fatalf("win result %+v", r)
		}
		if got := balance(t, db, wa); got != 12_940 {
			t.Fatalf("alice %d", got)
		}
		if got := balance(t, db, wb); got != 0 {
			t.Fatalf("bob %d (the failed op wrote nothing)", got)
		}
		if got := balance(t, db, storage.House); got != -2_940 {
			t.Fatalf("house %d", got)
		}
		r := storagetest.CheckLedger(t, db)
		if r.Transfers != 4 || r.Entries != 8 {
			t.Fatalf("report %s", r)
		}

		// Replays across batches: same body → the original; different
		// body → ErrKeyReused; a partly known op → ErrKeyReused.
		res = commit(t, db,
			op(tr(storage.RechargeClearing, wa, 10_000, "k1")),
			op(tr(storage.RechargeClearing, wa, 10_001, "k1")),
			op(tr(wa, storage.House, 5, "k2")),
			op(tr(wa, storage.House, 5, "k6"), tr(wa, storage.BetsInPlay, 3_000, "k2")),
		)
		if res[0].Err != nil || !res[0].Results[0].Replayed || res[0].Results[0].TransferID == 0 {
			t.Fatalf("replay: %+v", res[0])
		}
		for i := 1; i < 4; i++ {
			if !errors.Is(res[i].Err, storage.ErrKeyReused) {
				t.Fatalf("op %d: %v, want ErrKeyReused", i, res[i].Err)
			}
		}
		if got := balance(t, db, wa); got != 12_940 {
			t.Fatalf("alice after replays %d", got)
		}

		// Static rules.
		for name, o := range map[string]storage.Op{
			"zero":        op(tr(storage.House, wa, 0, "z")),
			"negative":    op(tr(storage.House, wa, -5, "n")),
			"huge":        op(tr(storage.House, wa, storage.MaxAmount+1, "h")),
			"self":        op(tr(wa, wa, 5, "s")),
			"no key":      op(tr(storage.House, wa, 5, "")),
			"bad account": op(tr(storage.AccountRef{Kind: 9}, wa, 5, "b")),
			"dup key":     op(tr(storage.House, wa, 5, "d"), tr(storage.House, wb, 5, "d")),
			"empty":       {},
		} {
			if res := commit(t, db, o); !errors.Is(res[0].Err, storage.ErrInvalidTransfer) {
				t.Errorf("%s: %v, want ErrInvalidTransfer", name, res[0].Err)
			}
		}
		// A wallet of nobody.
		if res := commit(t, db, op(tr(storage.House, storage.Wallet(1<<40), 5, "ghost"))); !errors.Is(res[0].Err, storage.ErrUnknownAccount) {
			t.Fatalf("ghost wallet: %v", res[0].Err)
		}

		// A hook commits with its op; a failing hook fails only its op and
		// leaves nothing of it behind.
		if _, err := db.Exec(ctx, `CREATE TABLE hook_probe (id BIGINT PRIMARY KEY)`); err != nil {
			t.Fatal(err)
		}
		insert := func(id int64) func(context.Context, storage.Tx) error {
			return func(ctx context.Context, tx storage.Tx) error {
				_, err := tx.Exec(ctx, `INSERT INTO hook_probe (id) VALUES ($1)`, id)
				return err
			}
		}
		errNo := errors.New("order is not pending")
		res = commit(t, db,
			storage.Op{Transfers: []storage.Transfer{tr(wa, storage.WithdrawalPending, 100, "h1")}, Hook: insert(1)},
			storage.Op{Transfers: []storage.Transfer{tr(wa, storage.WithdrawalPending, 100, "h2")}, Hook: func(ctx context.Context, tx storage.Tx) error {
				if err := insert(2)(ctx, tx); err != nil {
					return err
				}
				return errNo
			}},
			storage.Op{Transfers: []storage.Transfer{tr(wa, storage.WithdrawalPending, 100, "h3")}, Hook: insert(1)}, // duplicate row
			storage.Op{Transfers: []storage.Transfer{tr(wa, storage.WithdrawalPending, 100, "h4")}, Hook: insert(4)},
		)
		if res[0].Err != nil || !errors.Is(res[1].Err, errNo) || !errors.Is(res[2].Err, storage.ErrConflict) || res[3].Err != nil {
			t.Fatalf("hooks: %v / %v / %v / %v", res[0].Err, res[1].Err, res[2].Err, res[3].Err)
		}
		var n int
		db.QueryRow(ctx, `SELECT COUNT(*) FROM hook_probe`).Scan(&n)
		if n != 2 {
			t.Fatalf("hook rows %d, want 2 (ids 1 and 4)", n)
		}
		if got := balance(t, db, storage.WithdrawalPending); got != 200 {
			t.Fatalf("withdrawal pending %d", got)
		}
		// A replayed op skips its hook.
		res = commit(t, db, storage.Op{Transfers: []storage.Transfer{tr(wa, storage.WithdrawalPending, 100, "h1")}, Hook: insert(1)})
		if res[0].Err != nil || !res[0].Results[0].Replayed {
			t.Fatalf("replayed hook op: %+v", res[0])
		}

		// Corrections are reversing transfers.
		orig := tr(wa, storage.WithdrawalPending, 100, "h4")
		res = commit(t, db, op(storage.Reversal(orig, "h4-reversal")))
		if res[0].Err != nil {
			t.Fatal(res[0].Err)
		}
		if got := balance(t, db, storage.WithdrawalPending); got != 100 {
			t.Fatalf("after reversal %d", got)
		}
		storagetest.CheckLedger(t, db)

		// Entries and transfers are append-only in the store itself.
		if _, err := db.Exec(ctx, `UPDATE ledger_entries SET amount = amount + 1`); err == nil {
			t.Fatal("an entry was edited")
		}
		if _, err := db.Exec(ctx, `DELETE FROM ledger_transfers`); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Fatalf("a transfer was deleted (%v)", err)
		}
	})
}

func TestLedgerCheckFindsProblems(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		u := storedUser(t, db, "carol")
		w := storage.Wallet(u.ID)
		commit(t, db, op(tr(storage.RechargeClearing, w, 500, "a")))
		storagetest.CheckLedger(t, db)
		// A balance edited behind the ledger's back.
		if _, err := db.Exec(ctx, `UPDATE ledger_accounts SET balance = -7 WHERE id = $1`, u.ID); err != nil {
			t.Fatal(err)
		}
		// An entry with no transfer and no account.
		if _, err := db.Exec(ctx, `INSERT INTO ledger_entries (account_id, transfer_id, amount, created_at) VALUES (999999999999, 42, 5, 0)`); err != nil {
			t.Fatal(err)
		}
		r, err := storage.CheckLedger(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		text := r.String()
		for _, want := range []string{
			"balances of all accounts sum to -507, not 0",
			"stored balance -7, entries sum to 500",
			"negative balance -7",
			"account 999999999999 (wallet:999999999999): has entries but no account row",
			"entries of transfer 42, which does not exist",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("report lacks %q:\n%s", want, text)
			}
		}
		if r.OK() {
			t.Fatal("report says ok")
		}
	})
}

// TestLedgerConcurrentWritersRecompute pauses one batch after it read the
// balances (in its hook) while another writer spends from the same wallet
// and the same holding account. The paused batch's assumptions are stale:
// it must notice under the row locks, recompute from fresh balances, and
// refuse what no longer fits — never write a negative balance.
// PostgreSQL only: there, writers really overlap (SQLite's are exclusive).
func TestLedgerConcurrentWritersRecompute(t *testing.T) {
	db := storagetest.Postgres(t)
	ctx := context.Background()
	u := storedUser(t, db, "hal")
	w := storage.Wallet(u.ID)
	commit(t, db,
		op(tr(storage.RechargeClearing, w, 100, "fund")),
		op(tr(storage.RechargeClearing, w, 100, "fund2"), tr(w, storage.BetsInPlay, 100, "stake")))
	// wallet 100, bets in play 100

	for name, pair := range map[string][2]storage.Transfer{
		"wallet":       {tr(w, storage.House, 80, "slow-spend"), tr(w, storage.House, 50, "fast-spend")},
		"bets in play": {tr(storage.BetsInPlay, w, 100, "slow-payout"), tr(storage.BetsInPlay, storage.House, 60, "fast-loss")},
	} {
		t.Run(name, func(t *testing.T) {
			paused, resume := make(chan struct{}), make(chan struct{})
			var once bool
			slow := make(chan storage.OpResult, 1)
			go func() {
				res, err := storage.CommitLedgerBatch(ctx, db, 2000, []storage.Op{{
					Transfers: []storage.Transfer{pair[0]},
					Hook: func(context.Context, storage.Tx) error {
						if !once { // only the first attempt waits
							once = true
							close(paused)
							<-resume
						}
						return nil
					},
				}}, 0)
				if err != nil {
					t.Error(err)
					slow <- storage.OpResult{Err: err}
					return
				}
				slow <- res[0]
			}()
			<-paused
			if res := commit(t, db, op(pair[1])); res[0].Err != nil {
				t.Fatalf("the fast writer: %v", res[0].Err)
			}
			close(resume)
			if r := <-slow; !errors.Is(r.Err, storage.ErrInsufficientBalance) {
				t.Fatalf("the stale batch: %+v, want ErrInsufficientBalance after recomputing", r)
			}
			storagetest.CheckLedger(t, db)
		})
	}
	if got := balance(t, db, w); got != 50 {
		t.Fatalf("wallet %d, want 50", got)
	}
	if got := balance(t, db, storage.BetsInPlay); got != 40 {
		t.Fatalf("bets in play %d, want 40", got)
	}
}

// A batch whose wallet another writer moves on every optimistic attempt
// still commits: its retry reads the balances under row locks, so the other
// writer waits for it instead of overtaking it again. Before, every attempt
// lost the same race and the batch failed with nothing wrong in it.
// PostgreSQL only (SQLite's writers are exclusive).
func TestLedgerRetryHoldsTheRowsItRead(t *testing.T) {
	db := storagetest.Postgres(t)
	ctx := context.Background()
	u := storedUser(t, db, "rita")
	w := storage.Wallet(u.ID)
	commit(t, db, op(tr(storage.RechargeClearing, w, 1_000, "fund")))

	attempts, overtaken := 0, 0
	res, err := storage.CommitLedgerBatch(ctx, db, 2000, []storage.Op{{
		Transfers: []storage.Transfer{tr(w, storage.House, 100, "spend")},
		Hook: func(context.Context, storage.Tx) error {
			attempts++
			// Another connection tries the wallet's row without waiting: it
			// gets it only while this attempt holds no lock on it, and then
			// moves the balance under this attempt's feet.
			locked := db.Tx(ctx, func(tx storage.Tx) error {
				_, err := tx.Exec(ctx, `SELECT id FROM ledger_accounts WHERE id = $1 FOR UPDATE NOWAIT`, w.ID())
				return err
			}) != nil
			if !locked {
				overtaken++
				commit(t, db, op(tr(storage.RechargeClearing, w, 1, "nudge-"+strings.Repeat("x", attempts))))
			}
			return nil
		},
	}}, 0)
	if err != nil || res[0].Err != nil {
		t.Fatalf("the batch failed after %d attempts (%d overtaken): %v %v", attempts, overtaken, err, res)
	}
	if attempts != 2 || overtaken != 1 {
		t.Fatalf("%d attempts, %d overtaken; want the second, locked attempt to commit", attempts, overtaken)
	}
	if got := balance(t, db, w); got != 1_000+1-100 {
		t.Fatalf("wallet %d, want %d", got, 1_000+1-100)
	}
	storagetest.CheckLedger(t, db)
}
