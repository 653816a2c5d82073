package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"kj/engine/seed"
)

// Seed runs `kj seed --demo`: load the configuration, open and migrate the
// store, seed it, and print what was loaded and the operator's password.
func Seed(args []string, out io.Writer) error {
	demo := false
	var rest []string
	for _, a := range args {
		if a == "--demo" || a == "-demo" {
			demo = true
		} else {
			rest = append(rest, a)
		}
	}
	if !demo {
		return errors.New("seed: say what to seed; the only choice is `kj seed --demo` (demo content into an empty store)")
	}
	ctx := context.Background()
	cfg, db, _, err := commandStore(ctx, rest, true)
	if err != nil {
		return err
	}
	defer db.Close()
	res, err := seed.Demo(ctx, db, cfg.DataDir, time.Now())
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	fmt.Fprintf(out, "demo content loaded into the %s store: %d banners, %d videos, %d cities, %d listings, %d notices, %d files under %s\n",
		db.Dialect(), res.Banners, res.Videos, res.Cities, res.Listings, res.Notices, res.Files, filepath.Join(cfg.DataDir, "files", "demo"))
	fmt.Fprintf(out, "customer-service operator: account %q, password %q (sign in at /api/accountLogin; change it before going live)\n",
		res.OperatorAccount, res.OperatorPassword)
	return nil
}
