package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"kj/loadtest"
	"kj/storage"
)

// fixture loads the bulk fixture into an existing store (see
// loadtest/fixture.go): users with a known password, a signed-in session
// each, funded wallets, written to a JSON file of accounts and tokens.
func fixture(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("kjload fixture", flag.ContinueOnError)
	users := fs.Int("users", 1000, "accounts to create")
	fund := fs.Int64("fund", 0, "cents to credit to every wallet")
	prefix := fs.String("prefix", "ld", "account name prefix (accounts are <prefix>000001 ...)")
	db := fs.String("database", os.Getenv("KJ_DATABASE_URL"), "PostgreSQL URL of the kj store (default KJ_DATABASE_URL)")
	out := fs.String("out", "accounts.json", "file to write the accounts and their tokens to")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *db == "" {
		return fmt.Errorf("-database (or KJ_DATABASE_URL) is required: the PostgreSQL store kj serves")
	}
	st, err := storage.OpenPostgres(ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := storage.Migrate(ctx, st); err != nil {
		return err
	}
	accounts, err := loadtest.LoadUsers(ctx, st, loadtest.FixtureOptions{Users: *users, Prefix: *prefix, Fund: *fund})
	if err != nil {
		return err
	}
	if err := loadtest.WriteAccounts(*out, accounts); err != nil {
		return err
	}
	fmt.Printf("%d accounts (password %q) written to %s\n", len(accounts), loadtest.FixturePassword, *out)
	return nil
}

// report rewrites the figures table of loadtest/RESULTS.md from the
// result files.
func report(args []string) error {
	fs := flag.NewFlagSet("kjload report", flag.ContinueOnError)
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	dir := fs.String("results", filepath.Join(root, "loadtest", "results"), "results directory")
	file := fs.String("file", filepath.Join(root, "loadtest", "RESULTS.md"), "the results page to update")
	if err := fs.Parse(args); err != nil {
		return err
	}
	return loadtest.UpdateReport(*dir, *file)
}
