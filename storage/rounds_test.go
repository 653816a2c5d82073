package storage_test

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

var defaultWindow = storage.RoundWindow{OddsBP: 19800, MinBet: 100, MaxBet: 100000,
	BettingMs: 60000, DrawingMs: 10000, RestMs: 20000}

func TestRoundWindowsEnsureKeepsEditsAndEnablesByCount(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		if err := storage.EnsureRoundWindows(ctx, db, 3, defaultWindow, 5); err != nil {
			t.Fatal(err)
		}
		w2, _ := storage.RoundWindowByID(ctx, db, 2)
		w2.OddsBP, w2.UpdatedAt = 19500, 6
		if err := storage.UpdateRoundWindowRules(ctx, db, w2); err != nil {
			t.Fatal(err)
		}
		// A restart with fewer windows: window 3 is disabled, 2 keeps its edit.
		if err := storage.EnsureRoundWindows(ctx, db, 2, defaultWindow, 7); err != nil {
			t.Fatal(err)
		}
		all, _ := storage.RoundWindows(ctx, db, false)
		on, _ := storage.RoundWindows(ctx, db, true)
		if len(all) != 3 || len(on) != 2 || on[1].OddsBP != 19500 || all[2].Enabled != 0 {
			t.Fatalf("all %+v\nenabled %+v", all, on)
		}
		if err := storage.UpdateRoundWindowRules(ctx, db, storage.RoundWindow{ID: 99}); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("unknown window: %v", err)
		}
		leases, _ := storage.RoundLeases(ctx, db)
		if len(leases) != 3 {
			t.Fatalf("leases %+v", leases)
		}
	})
}

func TestRoundTransitionsHappenOnce(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		storage.EnsureRoundWindows(ctx, db, 1, defaultWindow, 1)
		r := storage.Round{ID: storage.NewID(), WindowID: 1, Seq: 1, Issue: "20260301000100001",
			StartsAt: 1000, BettingEndsAt: 2000, DrawingEndsAt: 3000, RestEndsAt: 4000,
			OddsBP: 19800, MinBet: 100, MaxBet: 1000, Seed: "aa", SeedHash: "bb"}
		if err := storage.CreateRound(ctx, db, r); err != nil {
			t.Fatal(err)
		}
		dup := r
		dup.ID = storage.NewID()
		if err := storage.CreateRound(ctx, db, dup); !errors.Is(err, storage.ErrConflict) {
			t.Fatalf("same seq twice: %v", err)
		}
		if cur, err := storage.CurrentRound(ctx, db, 1, 999); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("round before its start is not current: %+v %v", cur, err)
		}
		for i, want := range []bool{true, false} {
			if ok, err := storage.CloseRound(ctx, db, r.ID, 2000); err != nil || ok != want {
				t.Fatalf("close #%d: %v %v", i, ok, err)
			}
		}
		for i, want := range []bool{true, false} {
			var ok bool
			err := db.Tx(ctx, func(tx storage.Tx) error {
				var err error
				ok, err = storage.DrawRound(ctx, tx, r, 1, 2, 3, "", 3000)
				return err
			})
			if err != nil || ok != want {
				t.Fatalf("draw #%d: %v %v", i, ok, err)
			}
		}
		w, _ := storage.RoundWindowByID(ctx, db, 1)
		if w.RoundsCount != 1 {
			t.Fatalf("rounds counted %d times", w.RoundsCount)
		}
		bet := storage.RoundBet{ID: storage.NewID(), BetID: "k1", UserID: 7, RoundID: r.ID, WindowID: 1,
			Issue: r.Issue, Content: "BIG", Amount: 500, PlacedAt: 1500}
		if err := db.Tx(ctx, func(tx storage.Tx) error { return placeBets(ctx, tx, []storage.RoundBet{bet}) }); err != nil {
			t.Fatal(err)
		}
		again := bet
		again.ID = storage.NewID()
		if err := db.Tx(ctx, func(tx storage.Tx) error { return placeBets(ctx, tx, []storage.RoundBet{again}) }); !errors.Is(err, storage.ErrConflict) {
			t.Fatalf("bet id twice: %v", err)
		}
		if got, err := storage.BetsByBetIDs(ctx, db, []string{"k1"}); err != nil || len(got) != 1 || got[0].ID != bet.ID {
			t.Fatalf("bet k1 found as %+v, %v", got, err)
		}
		if ok, _ := storage.FinishRound(ctx, db, r.ID, 3001); ok {
			t.Fatal("a round with an open bet must not finish")
		}
		if n, err := storage.SettleBets(ctx, db, []int64{bet.ID}, true, 19800, 3001); err != nil || n != 1 {
			t.Fatalf("settle: %d %v", n, err)
		}
		if n, _ := storage.SettleBets(ctx, db, []int64{bet.ID}, false, 19800, 3002); n != 0 {
			t.Fatal("a settled bet changed again")
		}
		got, _ := storage.BetsOfRound(ctx, db, r.ID)
		if got[0].State != storage.BetWon || got[0].Payout != 990 || got[0].SettledAt != 3001 {
			t.Fatalf("settled bet %+v", got[0])
		}
		if ok, err := storage.FinishRound(ctx, db, r.ID, 3003); !ok || err != nil {
			t.Fatalf("finish: %v %v", ok, err)
		}
		if ok, _ := storage.FinishRound(ctx, db, r.ID, 3004); ok {
			t.Fatal("finished twice")
		}
		drawn, _ := storage.DrawnRounds(ctx, db, 1, 10, 0)
		if len(drawn) != 1 || drawn[0].D0+drawn[0].D1+drawn[0].D2 != 6 || drawn[0].State != storage.RoundSettled {
			t.Fatalf("drawn %+v", drawn)
		}
	})
}

func TestRoundLeasesTakeOverAfterExpiry(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		storage.EnsureRoundWindows(ctx, db, 2, defaultWindow, 1)
		a, err := storage.AcquireRoundLeases(ctx, db, "a", 1000, 5000)
		if err != nil || len(a) != 2 {
			t.Fatalf("a takes both: %+v %v", a, err)
		}
		if b, _ := storage.AcquireRoundLeases(ctx, db, "b", 2000, 5000); len(b) != 0 {
			t.Fatalf("b took live leases: %+v", b)
		}
		if a, _ = storage.AcquireRoundLeases(ctx, db, "a", 5000, 5000); len(a) != 2 || a[0].ExpiresAt != 10000 {
			t.Fatalf("a renews: %+v", a)
		}
		// a dies: its leases lapse at 10000 and b takes them.
		b, _ := storage.AcquireRoundLeases(ctx, db, "b", 10000, 5000)
		if len(b) != 2 || b[0].Epoch != a[0].Epoch+1 {
			t.Fatalf("b takes over: %+v (a had %+v)", b, a)
		}
		if a, _ = storage.AcquireRoundLeases(ctx, db, "a", 10001, 5000); len(a) != 0 {
			t.Fatalf("a came back and took b's leases: %+v", a)
		}
		if err := storage.ReleaseRoundLeases(ctx, db, "b"); err != nil {
			t.Fatal(err)
		}
		if a, _ = storage.AcquireRoundLeases(ctx, db, "a", 10002, 5000); len(a) != 2 {
			t.Fatalf("released leases are taken at once: %+v", a)
		}
	})
}

// placeBets writes bets with their stakes as the desk does: the bet rows
// and, through a ledger plan whose keys are fresh, a stake per bet (here
// from the recharge clearing account, so that no wallet is needed).
func placeBets(ctx context.Context, tx storage.Tx, bets []storage.RoundBet) error {
	plan := storage.NewLedgerPlan(1, true)
	ops := make([]storage.Op, len(bets))
	for i, b := range bets {
		ops[i] = storage.Op{Transfers: []storage.Transfer{{Debit: storage.RechargeClearing, Credit: storage.BetsInPlay,
			Amount: b.Amount, Kind: storage.KindBetStake, Ref: strconv.FormatInt(b.ID, 10), IdempotencyKey: storage.StakeKey(b.BetID)}}}
	}
	res, err := plan.Apply(ctx, tx, ops)
	if err != nil {
		return err
	}
	for _, r := range res {
		if r.Err != nil {
			return r.Err
		}
	}
	pl := storage.NewPipeline(tx.Dialect())
	plan.QueueWrite(pl)
	storage.QueueInsertRoundBets(pl, bets)
	return pl.Run(ctx, tx)
}

// TestRoundBetsInBulk covers the PostgreSQL COPY path of a big batch and
// its refusal of a taken bet id (by its stake's key).
func TestRoundBetsInBulk(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		var bets []storage.RoundBet
		var ids []string
		for i := range 150 {
			id := "bulk-" + string(rune('a'+i%26)) + string(rune('a'+i/26))
			ids = append(ids, id)
			bets = append(bets, storage.RoundBet{ID: storage.NewID(), BetID: id, UserID: 7, RoundID: 1, WindowID: 1,
				Issue: "i", Content: "SMALL", Amount: int64(100 + i), PlacedAt: 5})
		}
		if err := db.Tx(ctx, func(tx storage.Tx) error { return placeBets(ctx, tx, bets) }); err != nil {
			t.Fatal(err)
		}
		got, err := storage.BetsByBetIDs(ctx, db, append(ids, "missing"))
		if err != nil || len(got) != 150 {
			t.Fatalf("%d bets found, %v", len(got), err)
		}
		dup := append([]storage.RoundBet(nil), bets[:70]...)
		for i := range dup {
			dup[i].ID = storage.NewID()
			if i > 0 {
				dup[i].BetID += "-new"
			}
		}
		err = db.Tx(ctx, func(tx storage.Tx) error { return placeBets(ctx, tx, dup) })
		if !errors.Is(err, storage.ErrConflict) {
			t.Fatalf("a taken bet id in a bulk insert: %v", err)
		}
		var winners []int64
		for _, b := range bets[:100] {
			winners = append(winners, b.ID)
		}
		if n, err := storage.SettleBets(ctx, db, winners, true, 20000, 9); err != nil || n != 100 {
			t.Fatalf("settled %d, %v", n, err)
		}
		all, _ := storage.BetsOfRound(ctx, db, 1)
		for _, b := range all[:100] {
			if b.State != storage.BetWon || b.Payout != 2*b.Amount {
				t.Fatalf("bet %+v", b)
			}
		}
		if len(all) != 150 {
			t.Fatalf("the refused batch left %d rows", len(all)-150)
		}
	})
}
