package engine

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"time"
)

// accountSweepEvery is how often a node ends the retention of deleted
// accounts (httpapi's SweepDeletedAccounts). Retention is counted in days
// or years, so an hour late costs nothing; the first sweep comes at a
// random moment within the hour so the nodes of a cluster spread theirs
// out (a second node finds nothing left to do).
const accountSweepEvery = time.Hour

// sweepDeletedAccounts runs sweep every accountSweepEvery until ctx ends.
func sweepDeletedAccounts(ctx context.Context, log *slog.Logger, sweep func(context.Context) (int, error)) {
	t := time.NewTimer(rand.N(accountSweepEvery))
	go func() {
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			n, err := sweep(ctx)
			switch {
			case err != nil:
				log.Warn("deleted accounts: retention sweep failed", "err", err, "purged", n)
			case n > 0:
				log.Info("deleted accounts: retention ended", "purged", n)
			}
			t.Reset(accountSweepEvery)
		}
	}()
}
