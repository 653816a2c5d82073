package engine

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

// rechargedUser stores a user of account whose wallet a recharge of cents
// credited: a healthy ledger of one transfer and two entries.
func rechargedUser(t *testing.T, db storage.DB, account string, cents int64) storage.User {
	t.Helper()
	ctx := context.Background()
	u := storage.User{ID: storage.NewID(), Account: account, PasswordHash: "x", InviteCode: "pro_" + account}
	if err := storage.CreateUser(ctx, db, u); err != nil {
		t.Fatal(err)
	}
	res, err := storage.CommitLedgerBatch(ctx, db, 1, []storage.Op{{Transfers: []storage.Transfer{{Debit: storage.RechargeClearing,
		Credit: storage.Wallet(u.ID), Amount: cents, Kind: "recharge", IdempotencyKey: account + "-1"}}}}, 0)
	if err != nil || res[0].Err != nil {
		t.Fatal(err, res)
	}
	return u
}

func TestLedgerCheckCommand(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		u := rechargedUser(t, db, "lc", 900)
		var out bytes.Buffer
		if err := LedgerCheck(ctx, db, &out); err != nil || !strings.Contains(out.String(), "1 transfers, 2 entries, balances sum to 0: ok") {
			t.Fatalf("healthy ledger: %v %q", err, out.String())
		}
		// A wallet changed behind the ledger's back fails the check and is named.
		db.Exec(ctx, `UPDATE ledger_accounts SET balance = -100 WHERE id = $1`, u.ID)
		out.Reset()
		err := LedgerCheck(ctx, db, &out)
		if err == nil || !strings.Contains(err.Error(), "ledger check failed") {
			t.Fatalf("broken ledger passed: %v", err)
		}
		for _, want := range []string{"wallet:" + u.IDString() + "): stored balance -100, entries sum to 900", "negative balance -100", "sum to -1000, not 0"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("output lacks %q:\n%s", want, out.String())
			}
		}
	})
}
