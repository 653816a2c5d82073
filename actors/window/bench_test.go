package window

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"kj/internal/bus"
	"kj/internal/clock"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

// Benchmarks shaped like W4 and W5 of docs/PERFORMANCE.md, on PostgreSQL (the
// load-test issue owns the end-to-end versions over HTTP):
//
//	go test -run '^$' -bench 'W4|W5' -benchtime 1x ./actors/window/

// seedPlayers inserts n users and funds each wallet with cents.
func seedPlayers(tb testing.TB, db storage.DB, n int, cents int64) []int64 {
	tb.Helper()
	ctx := context.Background()
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = storage.NewID()
	}
	err := db.Tx(ctx, func(tx storage.Tx) error {
		for i, id := range ids {
			if err := storage.CreateUser(ctx, tx, storage.User{ID: id, Account: fmt.Sprintf("w4p%d", i), PasswordHash: "x",
				InviteCode: fmt.Sprintf("pro_w4p%d", i), CreatedAt: 1, UpdatedAt: 1}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	for from := 0; from < n; from += 2000 {
		var ops []storage.Op
		for _, id := range ids[from:min(from+2000, n)] {
			ops = append(ops, storage.Op{Transfers: []storage.Transfer{{Debit: storage.RechargeClearing, Credit: storage.Wallet(id),
				Amount: cents, Kind: storage.KindRecharge, IdempotencyKey: fmt.Sprintf("w4-fund-%d", id)}}})
		}
		if _, err := storage.CommitLedgerBatch(ctx, db, 1, ops, 0); err != nil {
			tb.Fatal(err)
		}
	}
	return ids
}

func pct(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

// BenchmarkW4BetBurstAndSettle: 10,000 players each place one bet at the
// same moment through one node's desk (durable before each reply), then
// the round is drawn and its 10,000 bets settled.
func BenchmarkW4BetBurstAndSettle(b *testing.B) { benchW4(b, 0) }

// BenchmarkW4BetsOverTwoSeconds: W4's shape, 10,000 players placing their
// bets evenly over the first 2 s of the betting phase.
func BenchmarkW4BetsOverTwoSeconds(b *testing.B) { benchW4(b, 2*time.Second) }

func benchW4(b *testing.B, spread time.Duration) {
	for range b.N {
		db := storagetest.Postgres(b)
		fake, mb, quiet := clock.NewFake(t0), bus.NewMemory(), slog.New(slog.NewTextHandler(io.Discard, nil))
		desk := NewDesk(db, StoreLedger{}, fake, mb, quiet, 1000)
		var batches batchLog
		desk.onBatch = batches.add
		rules := storage.RoundWindow{OddsBP: 19800, MinBet: 100, MaxBet: 100000, BettingMs: 3600000, DrawingMs: 10000, RestMs: 20000}
		if err := storage.EnsureRoundWindows(context.Background(), db, 1, rules, ms(t0)); err != nil {
			b.Fatal(err)
		}
		run := &Runner{DB: db, Desk: desk, Bus: mb, Clock: fake, Log: quiet, Node: "bench", LeaseTTL: 24 * time.Hour}
		if err := run.Start(actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet }))); err != nil {
			b.Fatal(err)
		}
		const players = 10000
		ids := seedPlayers(b, db, players, 100000)
		var r storage.Round
		testenv.Eventually(b, 10*time.Second, func() bool {
			var err error
			r, err = storage.LatestRound(context.Background(), db, 1)
			return err == nil
		}, "round")

		lat := make([]time.Duration, players)
		var wg sync.WaitGroup
		b.ResetTimer()
		start := time.Now()
		for i, id := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				time.Sleep(time.Until(start.Add(spread * time.Duration(i) / players))) // the offered schedule
				t := time.Now()
				_, err := desk.Place(context.Background(), BetRequest{UserID: id, WindowID: 1, Issue: r.Issue,
					Content: Contents[i%4], Amount: 100 + int64(i%50)*10, BetID: fmt.Sprintf("w4-%d", i), ArrivedAt: fake.Now()})
				if err != nil {
					b.Error(err)
				}
				lat[i] = time.Since(t)
			}()
		}
		wg.Wait()
		took := time.Since(start)
		b.StopTimer()
		b.ReportMetric(float64(players)/took.Seconds(), "bets/s")
		b.ReportMetric(float64(pct(lat, 0.99))/1e6, "p99-ack-ms")
		batches.report(b)

		fake.Set(at(r.BettingEndsAt + 500))
		testenv.Eventually(b, 30*time.Second, func() bool {
			x, _ := storage.RoundByID(context.Background(), db, r.ID)
			return x.State == storage.RoundClosed
		}, "closed")
		start = time.Now()
		fake.Set(at(r.DrawingEndsAt))
		testenv.Eventually(b, 60*time.Second, func() bool {
			x, _ := storage.RoundByID(context.Background(), db, r.ID)
			return x.State == storage.RoundSettled
		}, "settled")
		b.ReportMetric(time.Since(start).Seconds()*1000, "draw+settle-10k-ms")
		if rep, err := storage.CheckLedger(context.Background(), db); err != nil || !rep.OK() {
			b.Fatalf("ledger: %v %s", err, rep)
		}
		run.Stop(context.Background())
		desk.Close()
		mb.Close()
	}
}

// batchLog keeps the desk's batches of a run: how many bets each wrote and
// how long its transaction took, to tell the desk's stalls from the store's.
type batchLog struct {
	mu    sync.Mutex
	sizes []int
	took  []time.Duration
}

func (l *batchLog) add(bets int, _ time.Time, took time.Duration) {
	l.mu.Lock()
	l.sizes = append(l.sizes, bets)
	l.took = append(l.took, took)
	l.mu.Unlock()
}

func (l *batchLog) report(b *testing.B) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.sizes) == 0 {
		return
	}
	total := 0
	for _, n := range l.sizes {
		total += n
	}
	b.ReportMetric(float64(len(l.sizes)), "batches")
	b.ReportMetric(float64(total)/float64(len(l.sizes)), "bets/batch")
	b.ReportMetric(float64(pct(l.took, 0.5))/1e6, "p50-batch-ms")
	b.ReportMetric(float64(pct(l.took, 1))/1e6, "max-batch-ms")
	if os.Getenv("KJ_BENCH_BATCHES") != "" {
		for i := range l.sizes {
			b.Logf("batch %d: %d bets in %v", i, l.sizes[i], l.took[i])
		}
	}
}

// BenchmarkW5ThousandWindows: 1,000 windows with 1 s phases on the real
// clock for 15 s; reports how late their timers were handled.
func BenchmarkW5ThousandWindows(b *testing.B) {
	for range b.N {
		db := storagetest.Postgres(b)
		quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
		mb := bus.NewMemory()
		desk := NewDesk(db, StoreLedger{}, clock.Real{}, mb, quiet, 1000)
		rules := storage.RoundWindow{OddsBP: 19800, MinBet: 100, MaxBet: 100000, BettingMs: 1000, DrawingMs: 1000, RestMs: 1000}
		if err := storage.EnsureRoundWindows(context.Background(), db, 1000, rules, time.Now().UnixMilli()); err != nil {
			b.Fatal(err)
		}
		var mu sync.Mutex
		var late []time.Duration
		warm := time.Now().Add(3 * time.Second)
		run := &Runner{DB: db, Desk: desk, Bus: mb, Clock: clock.Real{}, Log: quiet, Node: "bench",
			onLate: func(d time.Duration) {
				if time.Now().After(warm) {
					mu.Lock()
					late = append(late, d)
					mu.Unlock()
				}
			}}
		b.ResetTimer()
		if err := run.Start(actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet }))); err != nil {
			b.Fatal(err)
		}
		time.Sleep(15 * time.Second) // a benchmark's fixed observation window
		run.Stop(context.Background())
		b.StopTimer()
		desk.Close()
		mb.Close()
		mu.Lock()
		// Skip the first 3 s: the 1,000 windows start (and create their
		// first rounds) all at once.
		b.ReportMetric(float64(len(late)), "timers")
		b.ReportMetric(float64(pct(late, 0.5))/1e6, "p50-late-ms")
		b.ReportMetric(float64(pct(late, 0.99))/1e6, "p99-late-ms")
		b.ReportMetric(float64(pct(late, 1))/1e6, "max-late-ms")
		mu.Unlock()
		var drawn int
		db.QueryRow(context.Background(), `SELECT COUNT(*) FROM rounds WHERE state = 3`).Scan(&drawn)
		b.ReportMetric(float64(drawn), "rounds-settled")
	}
}
