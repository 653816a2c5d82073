package window

import (
	"context"
	"fmt"
	"testing"
	"time"

	"kj/internal/bus"
	"kj/internal/clock"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

// windowsOnPostgres is a PostgreSQL store with n windows, each of max bet
// 1000.
func windowsOnPostgres(t *testing.T, n int64) storage.DB {
	t.Helper()
	db := storagetest.Postgres(t)
	if err := storage.EnsureRoundWindows(context.Background(), db, n, storage.RoundWindow{OddsBP: 19800, MinBet: 100, MaxBet: 1000,
		BettingMs: 60000, DrawingMs: 10000, RestMs: 20000}, t0.UnixMilli()); err != nil {
		t.Fatal(err)
	}
	return db
}

// An operator's edit of a window's rules, made on one node, is what every
// node serves once the bus has delivered it; before any edit the nodes
// serve their copies without asking the store.
func TestWindowDefinitionsFollowEditsOnEveryNode(t *testing.T) {
	for _, backend := range []string{"memory", "nats"} {
		t.Run(backend, func(t *testing.T) {
			db := windowsOnPostgres(t, 2)
			ctx := context.Background()
			clk := clock.NewFake(t0)
			var nodes [2]*Rounds
			var mem bus.Bus = bus.NewMemory()
			t.Cleanup(func() { mem.Close() })
			for i := range nodes {
				b := mem
				if backend == "nats" {
					nb, err := bus.NewNATS(testenv.NATSURL(), fmt.Sprintf("kj-test-defs-%d", i))
					if err != nil {
						t.Fatalf("NATS is required for this test (set KJ_TEST_NATS_URL or run `make services`): %v", err)
					}
					t.Cleanup(func() { nb.Close() })
					b = nb
				}
				defs, err := NewDefinitions(db, b, clk, time.Hour)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(defs.Close)
				if err := b.Ping(ctx); err != nil {
					t.Fatal(err)
				}
				nodes[i] = &Rounds{DB: db, Ledger: StoreLedger{}, Clock: clk, Defs: defs}
			}
			a, b := nodes[0], nodes[1]
			maxOf := func(r *Rounds) int64 {
				rules, err := r.Rules(ctx, false)
				if err != nil || len(rules) != 2 {
					t.Fatalf("rules %+v: %v", rules, err)
				}
				return rules[1].MaxBet
			}
			if maxOf(b) != 1000 {
				t.Fatal("first read")
			}
			// A change behind the cache's back (no event) is not seen: the
			// copy is what is served.
			w, _ := storage.RoundWindowByID(ctx, db, 2)
			w.MaxBet = 1500
			if err := storage.UpdateRoundWindowRules(ctx, db, w); err != nil {
				t.Fatal(err)
			}
			if maxOf(b) != 1000 {
				t.Fatal("the node asked the store instead of its copy")
			}
			maxBet := int64(5000)
			if _, err := a.UpdateRules(ctx, 2, RulesChange{MaxBet: &maxBet}); err != nil {
				t.Fatal(err)
			}
			if maxOf(a) != 5000 {
				t.Fatal("the editing node serves its old copy")
			}
			testenv.Eventually(t, 5*time.Second, func() bool { return maxOf(b) == 5000 }, "the other node never saw the edit")
			if _, err := b.window(ctx, 2); err != nil {
				t.Fatal(err)
			}
			if _, err := b.window(ctx, 3); err != ErrUnknownWindow {
				t.Fatalf("window 3: %v", err)
			}
		})
	}
}

// An edit whose bus event was lost while the node was cut off from NATS is
// served once the bus is back: the node drops its copy then.
func TestWindowDefinitionsReloadWhenTheBusResumes(t *testing.T) {
	db := windowsOnPostgres(t, 1)
	ctx := context.Background()
	clk := clock.NewFake(t0)
	b := bus.NewMemory()
	defer b.Close()
	defs, err := NewDefinitions(db, b, clk, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	defer defs.Close()
	maxBet := func() int64 {
		list, err := defs.All(ctx)
		if err != nil || len(list) != 1 {
			t.Fatalf("%+v: %v", list, err)
		}
		return list[0].MaxBet
	}
	if maxBet() != 1000 {
		t.Fatal("first read")
	}
	w, _ := storage.RoundWindowByID(ctx, db, 1)
	w.MaxBet = 1500 // edited on another node; its event is lost
	if err := storage.UpdateRoundWindowRules(ctx, db, w); err != nil {
		t.Fatal(err)
	}
	if maxBet() != 1000 {
		t.Fatal("the node asked the store instead of its copy")
	}
	b.Resume()
	if got := maxBet(); got != 1500 {
		t.Fatalf("after the bus resumed the node serves max bet %d, want the stored 1500", got)
	}
}
