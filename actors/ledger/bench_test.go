package ledger

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"kj/storage"
	"kj/storage/storagetest"
)

// BenchmarkLedgerWriter is workload W4L of docs/PERFORMANCE.md: the ledger writer
// alone on PostgreSQL (fsync on), many concurrent submitters, each
// submitting one transfer at a time and waiting for its commit, as bets and
// recharges do. Half the transfers are bets (wallet → bets in play, a hot
// account), half are credits (recharge clearing → wallet, another hot one).
// A posting is one ledger entry; a transfer writes two.
//
// Two loads: 4096 submitters in flight measures throughput at saturation;
// 256 in flight shows the commit latency of a busy but unsaturated writer.
//
//	go test -run '^$' -bench LedgerWriter -benchtime 400000x ./actors/ledger/
func BenchmarkLedgerWriter(b *testing.B) {
	for _, c := range []struct{ shards, inflight int }{{1, 4096}, {2, 4096}, {1, 256}} {
		// One funded store per case, reused by every round of b.N.
		db := storagetest.Postgres(b)
		ids := seedUsers(b, db, 10_000)
		fund(b, db, ids)
		var seq atomic.Int64
		b.Run(fmt.Sprintf("shards=%d/inflight=%d", c.shards, c.inflight), func(b *testing.B) {
			benchLedgerWriter(b, db, ids, &seq, c.shards, c.inflight)
		})
	}
}

// fund gives every wallet plenty to bet with.
func fund(b *testing.B, db storage.DB, ids []int64) {
	ops := make([]storage.Op, len(ids))
	for i, id := range ids {
		ops[i] = storage.Op{Transfers: []storage.Transfer{{Debit: RechargeClearing, Credit: Wallet(id), Amount: 1 << 40,
			Kind: "recharge", IdempotencyKey: fmt.Sprintf("fund-%d", i)}}}
	}
	res, err := storage.CommitLedgerBatch(context.Background(), db, 1, ops, 0)
	if err != nil {
		b.Fatal(err)
	}
	for _, r := range res {
		if r.Err != nil {
			b.Fatal(r.Err)
		}
	}
}

func benchLedgerWriter(b *testing.B, db storage.DB, ids []int64, seq *atomic.Int64, shards, inflight int) {
	ctx := context.Background()
	sys := quietSystem()
	defer sys.Shutdown()
	var batchMu sync.Mutex
	var commits []time.Duration
	w, err := Start(sys, db, Options{Shards: shards, onBatch: func(_ int, d time.Duration) {
		batchMu.Lock()
		commits = append(commits, d)
		batchMu.Unlock()
	}})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Stop(ctx)

	lat := make([][]time.Duration, 0)
	var latMu sync.Mutex
	b.SetParallelism(max(1, inflight/runtime.GOMAXPROCS(0)))
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		r := rand.New(rand.NewPCG(uint64(seq.Add(1)), uint64(time.Now().UnixNano())))
		var mine []time.Duration
		for pb.Next() {
			n := seq.Add(1)
			id := ids[r.IntN(len(ids))]
			t := Transfer{Debit: Wallet(id), Credit: BetsInPlay, Amount: 1 + r.Int64N(1000), Kind: "bet",
				Ref: "bench", IdempotencyKey: fmt.Sprintf("b-%d", n)}
			if n%2 == 0 {
				t.Debit, t.Credit, t.Kind = RechargeClearing, Wallet(id), "recharge"
			}
			t0 := time.Now()
			if _, err := w.Submit(ctx, t); err != nil {
				b.Error(err)
				return
			}
			mine = append(mine, time.Since(t0))
		}
		latMu.Lock()
		lat = append(lat, mine)
		latMu.Unlock()
	})
	elapsed := time.Since(start)
	b.StopTimer()

	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	batchMu.Lock()
	defer batchMu.Unlock()
	b.ReportMetric(float64(2*b.N)/elapsed.Seconds(), "postings/s")
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "transfers/s")
	b.ReportMetric(ms(percentile(all, 0.99)), "p99-ack-ms")
	b.ReportMetric(ms(percentile(commits, 0.99)), "p99-commit-ms")
	if len(commits) > 0 {
		b.ReportMetric(float64(b.N)/float64(len(commits)), "transfers/batch")
	}
	if r, err := storage.CheckLedger(ctx, db); err != nil || !r.OK() {
		b.Fatalf("ledger check after the benchmark: %v %s", err, r)
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

// seedUsers inserts n users in one statement and returns their ids.
func seedUsers(tb testing.TB, db storage.DB, n int) []int64 {
	tb.Helper()
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = storage.NewID()
	}
	ctx := context.Background()
	err := db.Tx(ctx, func(tx storage.Tx) error {
		for i, id := range ids {
			if err := storage.CreateUser(ctx, tx, storage.User{ID: id, Account: fmt.Sprintf("u%d", i), PasswordHash: "x",
				InviteCode: fmt.Sprintf("pro_u%d", i), CreatedAt: 1, UpdatedAt: 1}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return ids
}
