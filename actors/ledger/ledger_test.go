package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"kj/internal/bus"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

func startWriter(t *testing.T, db storage.DB, opts Options) *Writer {
	t.Helper()
	sys := quietSystem()
	w, err := Start(sys, db, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		w.Stop(ctx)
		sys.Shutdown()
	})
	return w
}

// quietSystem is an actor system that logs only errors.
func quietSystem() *actor.ActorSystem {
	return actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.NewTextHandler(io.Discard, nil))
	}))
}

func balanceOf(t *testing.T, db storage.DB, a AccountRef) int64 {
	t.Helper()
	b, err := storage.AccountBalance(context.Background(), db, a)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestWriterGroupCommitsAndPushesBalances(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		ids := seedUsers(t, db, 20)
		b := bus.NewMemory()
		defer b.Close()
		var mu sync.Mutex
		pushes := map[string]BalancePush{}
		sub, err := b.Subscribe(bus.UserSubjects, func(subject string, data []byte) {
			var n bus.Notification
			var p BalancePush
			if json.Unmarshal(data, &n) != nil || n.Key != BalanceKey || json.Unmarshal([]byte(n.Data), &p) != nil {
				t.Errorf("bad push %s", data)
				return
			}
			uid, _ := bus.UserFromSubject(subject)
			mu.Lock()
			pushes[uid] = p
			mu.Unlock()
		})
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Unsubscribe()
		var batches []int
		w := startWriter(t, db, Options{Bus: b, onBatch: func(n int, _ time.Duration) {
			mu.Lock()
			batches = append(batches, n)
			mu.Unlock()
		}})

		// 20 users × 10 concurrent credits of 100.
		var wg sync.WaitGroup
		for i, id := range ids {
			for k := range 10 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					res, err := w.Submit(ctx, Transfer{Debit: RechargeClearing, Credit: Wallet(id), Amount: 100,
						Kind: storage.KindRecharge, IdempotencyKey: fmt.Sprintf("c-%d-%d", i, k)})
					if err != nil || len(res) != 1 || res[0].TransferID == 0 || res[0].Replayed {
						t.Errorf("submit: %v %+v", err, res)
					}
				}()
			}
		}
		wg.Wait()
		for _, id := range ids {
			if got := balanceOf(t, db, Wallet(id)); got != 1000 {
				t.Fatalf("wallet %d: %d", id, got)
			}
		}
		mu.Lock()
		n := len(batches)
		mu.Unlock()
		if n >= 200 {
			t.Fatalf("200 concurrent submissions took %d transactions: no group commit", n)
		}
		testenv.Eventually(t, 5*time.Second, func() bool {
			mu.Lock()
			defer mu.Unlock()
			for _, id := range ids {
				if pushes[fmt.Sprint(id)].Amount != 1000 {
					return false
				}
			}
			return true
		}, "every wallet's last push says 1000")

		// An overdraft fails alone and pushes nothing.
		res, err := w.Submit(ctx, Transfer{Debit: Wallet(ids[0]), Credit: BetsInPlay, Amount: 1001, Kind: "bet", IdempotencyKey: "over"})
		if !errors.Is(err, ErrInsufficientBalance) || res != nil {
			t.Fatalf("overdraft: %v %v", res, err)
		}
		// Invalid transfers are refused before they reach the actor.
		if _, err := w.Submit(ctx, Transfer{Debit: House, Credit: Wallet(ids[0]), Amount: 0, Kind: "x", IdempotencyKey: "z"}); !errors.Is(err, ErrInvalidTransfer) {
			t.Fatalf("zero amount: %v", err)
		}
		storagetest.CheckLedger(t, db)
	})
}

// TestWriterSupervisorRestart crashes the writer actor while a batch is
// committing and more operations are queued: the committing batch still
// commits and answers, the queued ones are answered ErrRestarted (nothing of
// them written), the supervisor restarts the actor, and the same
// operations resubmitted with the same keys are written exactly once.
func TestWriterSupervisorRestart(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		ids := seedUsers(t, db, 3)
		w := startWriter(t, db, Options{})

		hold, entered := make(chan struct{}), make(chan struct{})
		first := make(chan error, 1)
		go func() {
			_, err := w.SubmitOp(ctx, Op{
				Transfers: []Transfer{{Debit: RechargeClearing, Credit: Wallet(ids[0]), Amount: 500, Kind: "recharge", IdempotencyKey: "held"}},
				Hook: func(context.Context, storage.Tx) error {
					close(entered)
					<-hold
					return nil
				},
			})
			first <- err
		}()
		<-entered // the batch is committing; the actor is free
		type out struct {
			res []Result
			err error
		}
		queued := make(chan out, 2)
		transfers := []Transfer{
			{Debit: RechargeClearing, Credit: Wallet(ids[1]), Amount: 70, Kind: "recharge", IdempotencyKey: "q1"},
			{Debit: RechargeClearing, Credit: Wallet(ids[2]), Amount: 30, Kind: "recharge", IdempotencyKey: "q2"},
		}
		for _, tr := range transfers {
			go func() {
				res, err := w.Submit(ctx, tr)
				queued <- out{res, err}
			}()
		}
		testenv.Eventually(t, 5*time.Second, func() bool {
			return queueLen(w) == 2
		}, "two operations queued behind the committing batch")

		w.sys.Root.Send(w.shards[0].pid, crash{})
		for range 2 {
			if o := <-queued; !errors.Is(o.err, ErrRestarted) {
				t.Fatalf("queued operation: %+v, want ErrRestarted", o)
			}
		}
		testenv.Eventually(t, 5*time.Second, func() bool { return w.Restarts() == 1 }, "one restart")
		close(hold)
		if err := <-first; err != nil {
			t.Fatalf("the batch committing during the crash: %v", err)
		}
		if got := balanceOf(t, db, Wallet(ids[1])); got != 0 {
			t.Fatalf("a refused operation was written: %d", got)
		}
		// The restarted writer takes the retries, each once.
		for range 2 {
			for _, tr := range transfers {
				if _, err := w.Submit(ctx, tr); err != nil {
					t.Fatal(err)
				}
			}
		}
		for i, want := range []int64{500, 70, 30} {
			if got := balanceOf(t, db, Wallet(ids[i])); got != want {
				t.Fatalf("wallet %d: %d, want %d", i, got, want)
			}
		}
		if r := storagetest.CheckLedger(t, db); r.Transfers != 3 {
			t.Fatalf("transfers %d, want 3", r.Transfers)
		}
	})
}

// queueLen asks the actor how long its queue is (tests only).
func queueLen(w *Writer) int {
	f := w.sys.Root.RequestFuture(w.shards[0].pid, queueProbe{}, time.Second)
	v, err := f.Result()
	if err != nil {
		return -1
	}
	return v.(int)
}

func TestWriterStopDrainsThenRefuses(t *testing.T) {
	db := storagetest.SQLite(t)
	ctx := context.Background()
	ids := seedUsers(t, db, 1)
	sys := quietSystem()
	defer sys.Shutdown()
	w, err := Start(sys, db, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := w.Submit(ctx, Transfer{Debit: RechargeClearing, Credit: Wallet(ids[0]), Amount: 1, Kind: "recharge", IdempotencyKey: fmt.Sprint(i)})
			errs <- err
		}()
	}
	testenv.Eventually(t, 5*time.Second, func() bool { return len(errs) > 0 }, "a first commit")
	if err := w.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	close(errs)
	written := 0
	for err := range errs {
		switch {
		case err == nil:
			written++
		case !errors.Is(err, ErrStopped):
			t.Fatalf("submission during stop: %v", err)
		}
	}
	if got := balanceOf(t, db, Wallet(ids[0])); got != int64(written) {
		t.Fatalf("balance %d, but %d submissions were acknowledged", got, written)
	}
	if _, err := w.Submit(ctx, Transfer{Debit: RechargeClearing, Credit: Wallet(ids[0]), Amount: 1, Kind: "recharge", IdempotencyKey: "late"}); !errors.Is(err, ErrStopped) {
		t.Fatalf("after stop: %v", err)
	}
	storagetest.CheckLedger(t, db)
}

// TestWriterRandomised throws thousands of random concurrent operations at
// the writer — recharges, bets and their settlement, withdrawals with
// completion or refund, duplicates, reused keys, overdrafts — and then
// checks the ledger and every balance against a model built from the
// acknowledged outcomes.
func TestWriterRandomised(t *testing.T) {
	for _, shards := range []int{1, 3} {
		t.Run(fmt.Sprintf("shards=%d", shards), func(t *testing.T) {
			storagetest.Each(t, func(t *testing.T, db storage.DB) { randomised(t, db, shards) })
		})
	}
}

// randomised is TestWriterRandomised on one store with a number of shards;
// with several, writers run concurrently and meet on the hot accounts and,
// through gifts between users, on wallets.
func randomised(t *testing.T, db storage.DB, shards int) {
	{
		ctx := context.Background()
		const users, workers, opsPerWorker = 30, 16, 150
		ids := seedUsers(t, db, users)
		w := startWriter(t, db, Options{MaxBatch: 256, Shards: shards})

		var mu sync.Mutex
		model := map[AccountRef]int64{}
		apply := func(ts []Transfer) {
			mu.Lock()
			defer mu.Unlock()
			for _, t := range ts {
				model[t.Debit] -= t.Amount
				model[t.Credit] += t.Amount
			}
		}
		var (
			statsMu sync.Mutex
			stats   = map[string]int{}
		)
		count := func(k string) { statsMu.Lock(); stats[k]++; statsMu.Unlock() }

		// submit sends op (sometimes twice, concurrently or in sequence)
		// and records its effect once.
		submit := func(r *rand.Rand, ts ...Transfer) error {
			res, err := w.Submit(ctx, ts...)
			if err != nil && !errors.Is(err, ErrInsufficientBalance) {
				t.Errorf("%s: %v", ts[0].IdempotencyKey, err)
			}
			if r.IntN(5) == 0 { // the client retries the same operation
				res2, err2 := w.Submit(ctx, ts...)
				switch {
				case err == nil && (err2 != nil || !res2[0].Replayed || res2[0].TransferID != res[0].TransferID):
					t.Errorf("replay of %s: %v %+v, first %+v", ts[0].IdempotencyKey, err2, res2, res)
				case err != nil && err2 == nil:
					// refused first, accepted now that money arrived: the
					// retry is the one that counts
					err = nil
				}
				count("replayed")
			}
			if err == nil {
				apply(ts)
			}
			return err
		}

		var wg sync.WaitGroup
		for wk := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := rand.New(rand.NewPCG(uint64(wk), 99))
				for n := range opsPerWorker {
					key := fmt.Sprintf("w%d-%d", wk, n)
					u := Wallet(ids[r.IntN(users)])
					amt := 1 + r.Int64N(5_000)
					switch r.IntN(7) {
					case 0, 1: // recharge confirmed
						if err := submit(r, Transfer{Debit: RechargeClearing, Credit: u, Amount: amt, Kind: "recharge", IdempotencyKey: key}); err != nil {
							t.Errorf("recharge: %v", err)
						}
						count("recharge")
					case 2: // bet, then settle it as a win or a loss
						err := submit(r, Transfer{Debit: u, Credit: BetsInPlay, Amount: amt, Kind: "bet", IdempotencyKey: key})
						if errors.Is(err, ErrInsufficientBalance) {
							count("insufficient")
							continue
						}
						if err != nil {
							t.Errorf("bet: %v", err)
							continue
						}
						var settle []Transfer
						if r.IntN(2) == 0 {
							settle = []Transfer{
								{Debit: BetsInPlay, Credit: u, Amount: amt, Kind: "win", IdempotencyKey: key + "-stake"},
								{Debit: House, Credit: u, Amount: amt * 98 / 100, Kind: "win", IdempotencyKey: key + "-win"},
							}
						} else {
							settle = []Transfer{{Debit: BetsInPlay, Credit: House, Amount: amt, Kind: "loss", IdempotencyKey: key + "-loss"}}
						}
						if err := submit(r, settle...); err != nil {
							t.Errorf("settle: %v", err)
						}
						count("bet")
					case 3: // withdrawal, then completed or refunded
						err := submit(r, Transfer{Debit: u, Credit: WithdrawalPending, Amount: amt, Kind: "exchange", IdempotencyKey: key})
						if errors.Is(err, ErrInsufficientBalance) {
							count("insufficient")
							continue
						}
						if err != nil {
							t.Errorf("exchange: %v", err)
							continue
						}
						to := Withdrawn
						if r.IntN(2) == 0 {
							to = u
						}
						if err := submit(r, Transfer{Debit: WithdrawalPending, Credit: to, Amount: amt, Kind: "exchange_done", IdempotencyKey: key + "-done"}); err != nil {
							t.Errorf("exchange end: %v", err)
						}
						count("exchange")
					case 4: // a key reused with another amount
						if err := submit(r, Transfer{Debit: RechargeClearing, Credit: u, Amount: amt, Kind: "recharge", IdempotencyKey: key}); err != nil {
							t.Errorf("recharge: %v", err)
						}
						if _, err := w.Submit(ctx, Transfer{Debit: RechargeClearing, Credit: u, Amount: amt + 1, Kind: "recharge", IdempotencyKey: key}); !errors.Is(err, ErrKeyReused) {
							t.Errorf("reused key: %v", err)
						}
						count("reused")
					case 6: // a gift to another user (two wallets, maybe two shards)
						to := Wallet(ids[r.IntN(users)])
						if to == u {
							continue
						}
						err := submit(r, Transfer{Debit: u, Credit: to, Amount: amt, Kind: "gift", IdempotencyKey: key})
						if err != nil && !errors.Is(err, ErrInsufficientBalance) {
							t.Errorf("gift: %v", err)
						}
						count("gift")
					case 5: // an overdraft that must fail
						if _, err := w.Submit(ctx, Transfer{Debit: u, Credit: House, Amount: storage.MaxAmount, Kind: "bet", IdempotencyKey: key}); !errors.Is(err, ErrInsufficientBalance) {
							t.Errorf("overdraft: %v", err)
						}
						count("overdraft")
					}
				}
			}()
		}
		wg.Wait()
		r := storagetest.CheckLedger(t, db)
		mu.Lock()
		defer mu.Unlock()
		for _, a := range append([]AccountRef{House, RechargeClearing, WithdrawalPending, BetsInPlay, Withdrawn}, walletsOf(ids)...) {
			if got := balanceOf(t, db, a); got != model[a] {
				t.Errorf("%v: balance %d, model %d", a, got, model[a])
			}
		}
		t.Logf("%s; operations: %v", r, stats)
		if stats["insufficient"]+stats["overdraft"] == 0 || stats["replayed"] == 0 {
			t.Fatalf("the mix did not exercise failures and replays: %v", stats)
		}
	}
}

func walletsOf(ids []int64) []AccountRef {
	out := make([]AccountRef, len(ids))
	for i, id := range ids {
		out[i] = Wallet(id)
	}
	return out
}
