package engine

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"kj/storage"
	"kj/storage/storagetest"
)

func TestPeriodicLedgerCheckExportsProblems(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		u := rechargedUser(t, db, "lw", 500)
		ledgerCheckProblems.Set(-1)
		ledgerCheckTime.Set(0)
		checkLedgerOnce(ctx, db, log)
		if p, at := gauge(t, ledgerCheckProblems), gauge(t, ledgerCheckTime); p != 0 || at <= 0 {
			t.Fatalf("healthy ledger: problems %v at %v", p, at)
		}
		// A balance changed behind the ledger's back: its stored balance,
		// the total and the negative wallet are three problems.
		db.Exec(ctx, `UPDATE ledger_accounts SET balance = -100 WHERE id = $1`, u.ID)
		checkLedgerOnce(ctx, db, log)
		if p := gauge(t, ledgerCheckProblems); p != 3 {
			t.Fatalf("broken ledger: problems %v, want 3", p)
		}
		// A check that cannot run leaves the last outcome standing.
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		checkLedgerOnce(cancelled, db, log)
		if p := gauge(t, ledgerCheckProblems); p != 3 {
			t.Fatalf("a check that could not run changed the figure to %v", p)
		}
	})
}

func gauge(t *testing.T, g prometheus.Gauge) float64 {
	t.Helper()
	var m dto.Metric
	if err := g.Write(&m); err != nil {
		t.Fatal(err)
	}
	return m.GetGauge().GetValue()
}
