package window

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"kj/storage/storagetest"
)

// With a linger, bets arriving steadily share a batch's transaction once
// the desk has seen a few of them (the first ones, on a desk that was
// idle, go at once); without one, bets arriving one after another while a
// writer is free are written one batch each.
func TestDeskLingerGathersBetsIntoOneBatch(t *testing.T) {
	for _, tc := range []struct {
		linger     time.Duration
		maxBatches int // for 16 bets sent 5 ms apart
		minBatches int
	}{{linger: 200 * time.Millisecond, maxBatches: 8, minBatches: 1}, {linger: 0, maxBatches: 16, minBatches: 6}} {
		t.Run(fmt.Sprint("linger=", tc.linger), func(t *testing.T) {
			db := storagetest.SQLite(t)
			e := newEnv(t, db, 1, testRules)
			r := e.firstRound()
			desk := NewDesk(db, StoreLedger{}, e.clock, e.bus, e.log, 500)
			t.Cleanup(desk.Close)
			desk.SetLinger(tc.linger)
			var mu sync.Mutex
			var sizes []int
			desk.onBatch = func(bets int, _ time.Time, _ time.Duration) {
				mu.Lock()
				sizes = append(sizes, bets)
				mu.Unlock()
			}
			player := e.player(100000)
			var wg sync.WaitGroup
			errs := make(chan error, 16)
			for i := range 16 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, err := desk.Place(context.Background(), BetRequest{UserID: player, WindowID: 1, Issue: r.Issue,
						Content: Big, Amount: 500, BetID: fmt.Sprintf("linger-%d", i), ArrivedAt: e.clock.Now()})
					errs <- err
				}()
				// Slower than a batch on the embedded store takes, so that
				// without a linger a free writer takes each bet alone.
				time.Sleep(5 * time.Millisecond)
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			// The desk answers a batch's callers before it reports the
			// batch, so wait until the reports account for all 16 bets.
			deadline := time.Now().Add(5 * time.Second)
			for {
				mu.Lock()
				n := 0
				for _, b := range sizes {
					n += b
				}
				if n >= 16 || time.Now().After(deadline) {
					break
				}
				mu.Unlock()
				time.Sleep(time.Millisecond)
			}
			defer mu.Unlock()
			if len(sizes) > tc.maxBatches || len(sizes) < tc.minBatches {
				t.Fatalf("batches %v: want %d to %d for 16 bets", sizes, tc.minBatches, tc.maxBatches)
			}
			if got := e.round(r.ID); got.BetsCount != 16 || e.balance(player) != 92000 {
				t.Fatalf("round holds %d bets, balance %d; want 16 and 92000", got.BetsCount, e.balance(player))
			}
		})
	}
}

// A lone bet on a quiet desk does not wait for company, however long the
// linger: it is answered in a fraction of it.
func TestDeskLingerLoneBetDoesNotWait(t *testing.T) {
	db := storagetest.SQLite(t)
	e := newEnv(t, db, 1, testRules)
	r := e.firstRound()
	desk := NewDesk(db, StoreLedger{}, e.clock, e.bus, e.log, 500)
	t.Cleanup(desk.Close)
	desk.SetLinger(5 * time.Second)
	player := e.player(100000)
	for i := range 3 {
		start := time.Now()
		if _, err := desk.Place(context.Background(), BetRequest{UserID: player, WindowID: 1, Issue: r.Issue,
			Content: Big, Amount: 500, BetID: fmt.Sprintf("lone-%d", i), ArrivedAt: e.clock.Now()}); err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took > 2500*time.Millisecond {
			t.Fatalf("bet %d took %v: it waited for the linger", i, took)
		}
	}
}

// The wait follows the arrival rate: none on a quiet desk, the time the
// rate takes to bring the batch to its target, at most the linger.
func TestArrivalRateWait(t *testing.T) {
	const max = 20 * time.Millisecond
	var a arrivalRate
	if w := a.wait(max, 1, lingerTarget); w != 0 {
		t.Fatalf("idle desk waits %v", w)
	}
	now := time.Unix(1000, 0)
	// 1,000 bets/s for a second, a bet each ms.
	for range 1000 {
		now = now.Add(time.Millisecond)
		a.note(now, 1)
	}
	if a.perSec < 900 || a.perSec > 1100 {
		t.Fatalf("rate %.0f/s after 1,000/s", a.perSec)
	}
	if w := a.wait(max, 1, lingerTarget); w != max {
		t.Fatalf("at 1,000/s a batch of 1 waits %v, want the linger %v (31 bets take 31 ms)", w, max)
	}
	if w := a.wait(max, 26, lingerTarget); w < 5*time.Millisecond || w > 7*time.Millisecond {
		t.Fatalf("at 1,000/s a batch of 26 waits %v, want ~6 ms", w)
	}
	if w := a.wait(max, lingerTarget, lingerTarget); w != 0 {
		t.Fatalf("a full batch waits %v", w)
	}
	if w := a.wait(0, 1, lingerTarget); w != 0 {
		t.Fatalf("no linger, yet a wait of %v", w)
	}
	// At 100 bets/s the linger would gather 2: not worth a wait.
	var slow arrivalRate
	for range 200 {
		now = now.Add(10 * time.Millisecond)
		slow.note(now, 1)
	}
	if w := slow.wait(max, 1, lingerTarget); w != 0 {
		t.Fatalf("at 100/s a batch waits %v", w)
	}
	// Half a second after the steady rate stopped, the desk is quiet again.
	a.note(now.Add(500*time.Millisecond), 0)
	if w := a.wait(max, 1, lingerTarget); w != 0 {
		t.Fatalf("0.5 s after the last bet a batch waits %v", w)
	}
}
