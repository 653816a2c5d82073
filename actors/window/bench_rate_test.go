package window

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"kj/internal/bus"
	"kj/internal/clock"
	"kj/storage"
	"kj/storage/storagetest"
)

// BenchmarkW4DeskAtRate places bets through one desk at a steady rate for
// 4 s (1,000 and 5,000 bets/s, W4's cost step and its target) and reports
// the desk's batches, the ack latency and the PostgreSQL CPU per bet of
// this benchmark's own backends only (/proc of the pool's connections), so
// that other clients of a shared PostgreSQL do not count, as they do in
// W4's figure of every postgres process. The WAL writer's and
// checkpointer's share is not in it. Then it closes and draws the round and
// settles every bet of it (the warm-up's too) in the runner's batches of
// 2,000, and reports that CPU per bet settled: W4's target counts placing
// and settling together (pg-cpu-us/bet-total).
//
//	go test -run '^$' -bench W4DeskAtRate -benchtime 1x ./actors/window/
func BenchmarkW4DeskAtRate(b *testing.B) {
	for _, rate := range []int{1000, 5000} {
		b.Run(fmt.Sprint(rate), func(b *testing.B) {
			for range b.N {
				benchDeskAtRate(b, rate, 4*time.Second)
			}
		})
	}
}

func benchDeskAtRate(b *testing.B, rate int, hold time.Duration) {
	db := storagetest.Postgres(b)
	pg, ok := db.(*storage.PG)
	if !ok {
		b.Skip("needs PostgreSQL's pool")
	}
	fake, mb, quiet := clock.NewFake(t0), bus.NewMemory(), slog.New(slog.NewTextHandler(io.Discard, nil))
	defer mb.Close()
	desk := NewDesk(db, StoreLedger{}, fake, mb, quiet, 1000)
	defer desk.Close()
	linger := 20 * time.Millisecond
	if v := os.Getenv("KJ_BENCH_LINGER"); v != "" {
		var err error
		if linger, err = time.ParseDuration(v); err != nil {
			b.Fatal(err)
		}
	}
	desk.SetLinger(linger)
	var batches batchLog
	desk.onBatch = batches.add
	ctx := context.Background()
	r := benchOpenRound(b, db, "rate-1")
	n := rate * int(hold/time.Second)
	players := seedPlayers(b, db, min(n, 10000), 10_000_000)
	// A warm-up second, so that every connection the desk uses exists and
	// has its statements prepared before the CPU is counted.
	place := func(i int, tag string) error {
		_, err := desk.Place(ctx, BetRequest{UserID: players[i%len(players)], WindowID: 1, Issue: r.Issue,
			Content: Contents[i%4], Amount: 100 + int64(i%50)*10, BetID: fmt.Sprintf("%s-%d", tag, i), ArrivedAt: fake.Now()})
		return err
	}
	steady := func(count int, tag string, lat []time.Duration) {
		var wg sync.WaitGroup
		start := time.Now()
		for i := range count {
			time.Sleep(time.Until(start.Add(time.Second * time.Duration(i) / time.Duration(rate))))
			wg.Add(1)
			go func() {
				defer wg.Done()
				t := time.Now()
				if err := place(i, tag); err != nil {
					b.Error(err)
				}
				if lat != nil {
					lat[i] = time.Since(t)
				}
			}()
		}
		wg.Wait()
	}
	steady(rate, "warm", nil)
	before := storagetest.BackendCPU(b, pg)
	batches = batchLog{}
	lat := make([]time.Duration, n)
	b.ResetTimer()
	steady(n, "bet", lat)
	b.StopTimer()
	after := storagetest.BackendCPU(b, pg)
	if after == nil {
		b.Skip("PostgreSQL's backends are not on this host: their CPU cannot be read")
	}
	cpu := storagetest.BackendCPUSince(before, after)
	b.ReportMetric(float64(cpu.Microseconds())/float64(n), "pg-cpu-us/bet")
	b.ReportMetric(float64(pct(lat, 0.5))/1e6, "p50-ack-ms")
	b.ReportMetric(float64(pct(lat, 0.99))/1e6, "p99-ack-ms")
	batches.report(b)
	if os.Getenv("KJ_BENCH_PLANS") != "" {
		logPlans(b, pg)
	}

	settled, settleCPU, _ := benchSettle(b, db, desk, r, defaultSettleBatch)
	if settled != n+rate {
		b.Fatalf("settled %d bets, placed %d", settled, n+rate)
	}
	perSettled := float64(settleCPU.Microseconds()) / float64(settled)
	b.ReportMetric(perSettled, "settle-pg-cpu-us/bet")
	b.ReportMetric(float64(cpu.Microseconds())/float64(n)+perSettled, "pg-cpu-us/bet-total")
}

// benchSettle closes and draws r (digits 1 2 3: small and even win) and
// settles all its bets through desk in batches of limit (the runner's
// are defaultSettleBatch), returning how many it settled, its backends'
// CPU and the wall time meanwhile.
func benchSettle(b *testing.B, db storage.DB, desk *Desk, r storage.Round, limit int) (int, time.Duration, time.Duration) {
	ctx := context.Background()
	if _, err := storage.CloseRound(ctx, db, r.ID, r.BettingEndsAt); err != nil {
		b.Fatal(err)
	}
	err := db.Tx(ctx, func(tx storage.Tx) error {
		_, err := storage.DrawRound(ctx, tx, r, 1, 2, 3, "", r.DrawingEndsAt)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	r.State, r.D0, r.D1, r.D2 = storage.RoundDrawn, 1, 2, 3
	before := storagetest.BackendCPU(b, db)
	start := time.Now()
	settled := 0
	for {
		bets, err := desk.settle(ctx, r, limit)
		if err != nil {
			b.Fatal(err)
		}
		if len(bets) == 0 {
			break
		}
		settled += len(bets)
	}
	took := time.Since(start)
	return settled, storagetest.BackendCPUSince(before, storagetest.BackendCPU(b, db)), took
}

// BenchmarkW4Settle10k places 10,000 bets of 10,000 players (not timed),
// then closes and draws the round and settles it through the desk in
// batches of the sub-benchmark's size, as the window actor does: the
// settlement alone of W4's burst, its wall time and PostgreSQL's CPU per
// bet, without the runner's draw and polling around it.
//
// KJ_BENCH_SETTLE_PARTS sets how many transactions settle a batch side by
// side (settlePartsPG by default).
func BenchmarkW4Settle10k(b *testing.B) {
	parts := 0
	if v := os.Getenv("KJ_BENCH_SETTLE_PARTS"); v != "" {
		var err error
		if parts, err = strconv.Atoi(v); err != nil {
			b.Fatal(err)
		}
	}
	for _, limit := range []int{2000, defaultSettleBatch, 10000} {
		b.Run(fmt.Sprint(limit), func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				db := storagetest.Postgres(b)
				fake, mb, quiet := clock.NewFake(t0), bus.NewMemory(), slog.New(slog.NewTextHandler(io.Discard, nil))
				desk := NewDesk(db, StoreLedger{}, fake, mb, quiet, 1000)
				desk.settleParts = parts
				r := benchOpenRound(b, db, "settle-1")
				const n = 10000
				players := seedPlayers(b, db, n, 100000)
				var wg sync.WaitGroup
				for i, id := range players {
					wg.Add(1)
					go func() {
						defer wg.Done()
						if _, err := desk.Place(context.Background(), BetRequest{UserID: id, WindowID: 1, Issue: r.Issue,
							Content: Contents[i%4], Amount: 100 + int64(i%50)*10, BetID: fmt.Sprintf("s-%d", i), ArrivedAt: fake.Now()}); err != nil {
							b.Error(err)
						}
					}()
				}
				wg.Wait()
				b.StartTimer()
				settled, cpu, took := benchSettle(b, db, desk, r, limit)
				b.StopTimer()
				if settled != n {
					b.Fatalf("settled %d of %d", settled, n)
				}
				b.ReportMetric(took.Seconds()*1000, "settle-10k-ms")
				b.ReportMetric(float64(cpu.Microseconds())/n, "settle-pg-cpu-us/bet")
				if rep, err := storage.CheckLedger(context.Background(), db); err != nil || !rep.OK() {
					b.Fatalf("ledger: %v %s", err, rep)
				}
				desk.Close()
				mb.Close()
			}
		})
	}
}

// logPlans logs, for each statement the pool's connections prepared, how
// often PostgreSQL planned it anew (custom) and how often it reused its
// generic plan (KJ_BENCH_PLANS=1): a statement planned on every execution
// pays the planner each time.
func logPlans(b *testing.B, pg *storage.PG) {
	ctx := context.Background()
	for _, c := range pg.Pool.AcquireAllIdle(ctx) {
		rows, err := c.Conn().Query(ctx, `SELECT generic_plans, custom_plans, left(regexp_replace(statement, '\s+', ' ', 'g'), 100)
			FROM pg_prepared_statements WHERE generic_plans + custom_plans > 5 ORDER BY custom_plans DESC`)
		if err != nil {
			c.Release()
			b.Fatal(err)
		}
		for rows.Next() {
			var g, cu int64
			var st string
			if err := rows.Scan(&g, &cu, &st); err != nil {
				b.Fatal(err)
			}
			b.Logf("pid %d generic %d custom %d: %s", c.Conn().PgConn().PID(), g, cu, st)
		}
		rows.Close()
		c.Release()
	}
}

// BenchmarkW4DeskBatchCPU writes bets through the desk in batches of
// exactly 32 (the linger's target), one after the other, then settles the
// round: PostgreSQL's CPU per bet placed and per bet settled without the
// rate benchmark's spread of batch sizes, which moves its figure by more
// than a change of a few µs a bet does on a shared box.
//
//	go test -run '^$' -bench W4DeskBatchCPU -benchtime 1x ./actors/window/
func BenchmarkW4DeskBatchCPU(b *testing.B) {
	const size, batches = 32, 150
	for range b.N {
		db := storagetest.Postgres(b)
		pg, ok := db.(*storage.PG)
		if !ok {
			b.Skip("needs PostgreSQL's pool")
		}
		fake, mb, quiet := clock.NewFake(t0), bus.NewMemory(), slog.New(slog.NewTextHandler(io.Discard, nil))
		desk := NewDesk(db, StoreLedger{}, fake, mb, quiet, 1000)
		r := benchOpenRound(b, db, "batch-1")
		players := seedPlayers(b, db, 4000, 10_000_000)
		n := 0
		write := func(count int) {
			for range count {
				batch := make([]*betCall, size)
				for j := range batch {
					batch[j] = &betCall{reqs: []BetRequest{{UserID: players[n%len(players)], WindowID: 1, Issue: r.Issue,
						Content: Contents[n%4], Amount: 100 + int64(n%50)*10, BetID: fmt.Sprintf("bat-%d", n), ArrivedAt: fake.Now()}},
						res: make(chan betResult, 1)}
					n++
				}
				desk.write(batch)
				for _, c := range batch {
					if res := <-c.res; res.err != nil {
						b.Fatal(res.err)
					}
				}
			}
		}
		write(20) // warm-up: connections and prepared statements
		before := storagetest.BackendCPU(b, pg)
		b.ResetTimer()
		write(batches)
		b.StopTimer()
		cpu := storagetest.BackendCPUSince(before, storagetest.BackendCPU(b, pg))
		settled, settleCPU, _ := benchSettle(b, db, desk, r, defaultSettleBatch)
		if settled != n {
			b.Fatalf("settled %d bets, placed %d", settled, n)
		}
		place, settle := float64(cpu.Microseconds())/float64(size*batches), float64(settleCPU.Microseconds())/float64(settled)
		b.ReportMetric(place, "pg-cpu-us/bet")
		b.ReportMetric(settle, "settle-pg-cpu-us/bet")
		b.ReportMetric(place+settle, "pg-cpu-us/bet-total")
		desk.Close()
		mb.Close()
	}
}

// benchOpenRound makes window 1 and a round of it open for bets for an
// hour from t0, so a benchmark's bets never meet its deadline.
func benchOpenRound(b *testing.B, db storage.DB, issue string) storage.Round {
	b.Helper()
	rules := storage.RoundWindow{OddsBP: 19800, MinBet: 100, MaxBet: 100000, BettingMs: 3600000, DrawingMs: 10000, RestMs: 20000}
	ctx := context.Background()
	if err := storage.EnsureRoundWindows(ctx, db, 1, rules, ms(t0)); err != nil {
		b.Fatal(err)
	}
	r := storage.Round{ID: storage.NewID(), WindowID: 1, Seq: 1, Issue: issue, State: storage.RoundOpen,
		StartsAt: ms(t0), BettingEndsAt: ms(t0) + 3600000, DrawingEndsAt: ms(t0) + 3610000, RestEndsAt: ms(t0) + 3630000,
		OddsBP: 19800, MinBet: 100, MaxBet: 100000, Seed: "00", SeedHash: "x"}
	if err := storage.CreateRound(ctx, db, r); err != nil {
		b.Fatal(err)
	}
	return r
}
