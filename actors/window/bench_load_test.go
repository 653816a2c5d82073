package window

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"kj/internal/bus"
	"kj/internal/clock"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

// BenchmarkW5UnderBetLoad is W5 "under W4 load" (docs/PERFORMANCE.md): the
// 1,000 windows with 1 s phases of BenchmarkW5ThousandWindows, while the
// same desk and store take W4's bet rate — 5,000 bets/s (10,000 players
// over 2 s), held for the whole 15 s observation — into a 1,001st window
// whose betting stays open. Reports the windows' timer lateness and the
// bets' throughput and p99 acknowledgement.
//
//	go test -run '^$' -bench W5UnderBetLoad -benchtime 1x ./actors/window/
func BenchmarkW5UnderBetLoad(b *testing.B) {
	const (
		windows = 1000
		players = 10000
		rate    = 5000 // bets per second
		observe = 15 * time.Second
		warmup  = 3 * time.Second
	)
	for range b.N {
		db := storagetest.Postgres(b)
		ctx := context.Background()
		quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
		mb := bus.NewMemory()
		desk := NewDesk(db, StoreLedger{}, clock.Real{}, mb, quiet, 1000)
		rules := storage.RoundWindow{OddsBP: 19800, MinBet: 100, MaxBet: 100000, BettingMs: 1000, DrawingMs: 1000, RestMs: 1000}
		now := time.Now().UnixMilli()
		if err := storage.EnsureRoundWindows(ctx, db, windows+1, rules, now); err != nil {
			b.Fatal(err)
		}
		long := rules
		long.ID, long.BettingMs, long.UpdatedAt = windows+1, 3600_000, now
		if err := storage.UpdateRoundWindowRules(ctx, db, long); err != nil {
			b.Fatal(err)
		}
		ids := seedPlayers(b, db, players, 10_000_000)

		var mu sync.Mutex
		var late []time.Duration
		warm := time.Now().Add(warmup)
		run := &Runner{DB: db, Desk: desk, Bus: mb, Clock: clock.Real{}, Log: quiet, Node: "bench",
			onLate: func(d time.Duration) {
				if time.Now().After(warm) {
					mu.Lock()
					late = append(late, d)
					mu.Unlock()
				}
			}}
		if err := run.Start(actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet }))); err != nil {
			b.Fatal(err)
		}
		var r storage.Round
		testenv.Eventually(b, 30*time.Second, func() bool {
			var err error
			r, err = storage.CurrentRound(ctx, db, windows+1, time.Now().UnixMilli())
			return err == nil && r.BettingEndsAt > time.Now().Add(time.Minute).UnixMilli()
		}, "the long window's round")

		b.ResetTimer()
		start := time.Now()
		total := int(rate * observe / time.Second)
		var acks []time.Duration
		var ackMu sync.Mutex
		var failed atomic.Int64
		var wg sync.WaitGroup
		for i := range total {
			sched := start.Add(time.Duration(i) * time.Second / rate)
			time.Sleep(time.Until(sched))
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := desk.Place(ctx, BetRequest{UserID: ids[i%players], WindowID: windows + 1, Issue: r.Issue,
					Content: Contents[i%4], Amount: 100, BetID: fmt.Sprintf("w5l-%d", i), ArrivedAt: time.Now()})
				d := time.Since(sched) // from the scheduled time: a stalled desk counts
				if err != nil {
					failed.Add(1)
					return
				}
				ackMu.Lock()
				acks = append(acks, d)
				ackMu.Unlock()
			}()
		}
		wg.Wait()
		took := time.Since(start)
		run.Stop(ctx)
		b.StopTimer()
		desk.Close()
		mb.Close()
		if n := failed.Load(); n > 0 {
			b.Errorf("%d of %d bets failed", n, total)
		}
		mu.Lock()
		b.ReportMetric(float64(len(late)), "timers")
		b.ReportMetric(float64(pct(late, 0.5))/1e6, "p50-late-ms")
		b.ReportMetric(float64(pct(late, 0.99))/1e6, "p99-late-ms")
		b.ReportMetric(float64(pct(late, 1))/1e6, "max-late-ms")
		mu.Unlock()
		b.ReportMetric(float64(len(acks))/took.Seconds(), "bets/s")
		b.ReportMetric(float64(pct(acks, 0.99))/1e6, "p99-ack-ms")
		if rep, err := storage.CheckLedger(ctx, db); err != nil || !rep.OK() {
			b.Fatalf("ledger: %v %s", err, rep)
		}
	}
}
