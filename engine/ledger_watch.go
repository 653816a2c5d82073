package engine

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"kj/storage"
)

// The periodic ledger check: every KJ_LEDGER_CHECK_INTERVAL a node runs
// what `kj ledger check` runs and exports the outcome, so a broken
// invariant raises an alert (deploy/prometheus/alerts.yml,
// KjLedgerCheckFailed) instead of waiting for someone to run the command.
// The first check comes at a random moment within the interval, so the
// nodes of a cluster (and a rolling restart) spread their checks out.
var (
	ledgerCheckProblems = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "kj_ledger_check_problems",
		Help: "Broken invariants the last periodic ledger check found (KJ_LEDGER_CHECK_INTERVAL); 0 when the ledger is consistent.",
	})
	ledgerCheckTime = promauto.NewGauge(prometheus.GaugeOpts{
		Name: "kj_ledger_check_timestamp_seconds",
		Help: "When the last periodic ledger check finished, unix seconds; 0 before the first.",
	})
)

// checkLedgerOnce runs the check and exports its outcome; a check that
// could not run (the store is down) changes neither figure.
func checkLedgerOnce(ctx context.Context, db storage.DB, log *slog.Logger) {
	started := time.Now()
	r, err := storage.CheckLedger(ctx, db)
	if err != nil {
		log.Warn("periodic ledger check could not run", "err", err)
		return
	}
	ledgerCheckProblems.Set(float64(len(r.Problems)))
	ledgerCheckTime.Set(float64(time.Now().Unix()))
	if r.OK() {
		log.Info("ledger check", "accounts", r.Accounts, "transfers", r.Transfers, "seconds", time.Since(started).Seconds())
		return
	}
	log.Error("ledger check failed", "problems", len(r.Problems), "report", r.String())
}

// watchLedger checks the ledger every interval until ctx ends.
func watchLedger(ctx context.Context, db storage.DB, log *slog.Logger, every time.Duration) {
	if every <= 0 {
		return
	}
	t := time.NewTimer(rand.N(every))
	go func() {
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			checkLedgerOnce(ctx, db, log)
			t.Reset(every)
		}
	}()
}
