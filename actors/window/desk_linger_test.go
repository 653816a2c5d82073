package window

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"kj/storage/storagetest"
)

// With a linger, bets that arrive within it of a batch's first share its
// transaction; without one, bets arriving one after another while a
// writer is free are written one batch each.
func TestDeskLingerGathersBetsIntoOneBatch(t *testing.T) {
	for _, tc := range []struct {
		linger     time.Duration
		maxBatches int // for 8 bets sent 1 ms apart
		minBatches int
	}{{linger: 200 * time.Millisecond, maxBatches: 2, minBatches: 1}, {linger: 0, maxBatches: 8, minBatches: 3}} {
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
			errs := make(chan error, 8)
			for i := range 8 {
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
			// batch, so wait until the reports account for all 8 bets.
			deadline := time.Now().Add(5 * time.Second)
			for {
				mu.Lock()
				n := 0
				for _, b := range sizes {
					n += b
				}
				if n >= 8 || time.Now().After(deadline) {
					break
				}
				mu.Unlock()
				time.Sleep(time.Millisecond)
			}
			defer mu.Unlock()
			if len(sizes) > tc.maxBatches || len(sizes) < tc.minBatches {
				t.Fatalf("batches %v: want %d to %d for 8 bets", sizes, tc.minBatches, tc.maxBatches)
			}
			if got := e.round(r.ID); got.BetsCount != 8 || e.balance(player) != 96000 {
				t.Fatalf("round holds %d bets, balance %d; want 8 and 96000", got.BetsCount, e.balance(player))
			}
		})
	}
}
