package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"kj/storage"
)

// Ledger runs `kj ledger <subcommand>`. `kj ledger check` verifies the
// ledger's invariants on the configured store (it may run beside live
// nodes): all balances sum to zero, every stored balance equals the sum of
// its entries, no wallet is negative, every transfer is its two postings. It
// prints the report and fails, listing the offending accounts, when any
// invariant is broken.
func Ledger(args []string) error {
	if len(args) == 0 || args[0] != "check" {
		return errors.New("usage: kj ledger check [flags]")
	}
	ctx := context.Background()
	_, db, _, err := commandStore(ctx, args[1:], false)
	if err != nil {
		return err
	}
	defer db.Close()
	return LedgerCheck(ctx, db, os.Stdout)
}

// LedgerCheck writes the check's report to w and returns an error when the
// ledger is inconsistent.
func LedgerCheck(ctx context.Context, db storage.DB, w io.Writer) error {
	r, err := storage.CheckLedger(ctx, db)
	if err != nil {
		return fmt.Errorf("ledger check: %w", err)
	}
	fmt.Fprintf(w, "%s store: %s\n", db.Dialect(), r)
	if !r.OK() {
		return fmt.Errorf("ledger check failed: %d problem(s)", len(r.Problems))
	}
	return nil
}
