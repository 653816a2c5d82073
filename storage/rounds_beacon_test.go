package storage_test

import (
	"context"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

// The commitment and the void are conditional moves like every other step of
// a round: each happens once, and a voided round is never listed as drawn.
func TestRoundCommitAndVoidHappenOnce(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		storage.EnsureRoundWindows(ctx, db, 1, defaultWindow, 1)
		r := storage.Round{ID: storage.NewID(), WindowID: 1, Seq: 1, Issue: "20260301000100001",
			StartsAt: 1000, BettingEndsAt: 2000, DrawingEndsAt: 3000, RestEndsAt: 4000,
			OddsBP: 19800, MinBet: 100, MaxBet: 1000, Seed: "aa", SeedHash: "bb",
			BeaconRound: 77, BeaconURL: "https://beacon.example/chain", BeaconAt: 2600}
		if err := storage.CreateRound(ctx, db, r); err != nil {
			t.Fatal(err)
		}
		if got, _ := storage.RoundByID(ctx, db, r.ID); got.BeaconRound != 77 || got.BeaconURL != r.BeaconURL || got.BeaconAt != 2600 {
			t.Fatalf("beacon fields not stored: %+v", got)
		}
		var bets []storage.RoundBet
		for i, amount := range []int64{500, 300} {
			bets = append(bets, storage.RoundBet{ID: storage.NewID(), BetID: "v" + string(rune('a'+i)), UserID: 7, RoundID: r.ID,
				WindowID: 1, Issue: r.Issue, Content: "BIG", Amount: amount, PlacedAt: 1500})
		}
		if err := storage.InsertRoundBets(ctx, db, bets); err != nil {
			t.Fatal(err)
		}
		if ok, _ := storage.CommitRoundBets(ctx, db, r.ID, "h1"); ok {
			t.Fatal("an open round was committed")
		}
		if ok, _ := storage.VoidRound(ctx, db, r.ID, "beacon_late", 3100); ok {
			t.Fatal("an open round was voided")
		}
		storage.CloseRound(ctx, db, r.ID, 2500)
		lines, err := storage.BetLinesOfRound(ctx, db, r.ID)
		if err != nil || len(lines) != 2 || lines[0].ID != bets[0].ID || lines[1].Amount != 300 {
			t.Fatalf("bet lines %+v %v", lines, err)
		}
		for i, want := range []bool{true, false} {
			if ok, err := storage.CommitRoundBets(ctx, db, r.ID, "h1"); ok != want || err != nil {
				t.Fatalf("commit #%d: %v %v", i, ok, err)
			}
		}
		for i, want := range []bool{true, false} {
			if ok, err := storage.VoidRound(ctx, db, r.ID, "beacon_late", 3100); ok != want || err != nil {
				t.Fatalf("void #%d: %v %v", i, ok, err)
			}
		}
		if ok, _ := storage.FinishVoidedRound(ctx, db, r.ID, 3200); ok {
			t.Fatal("a voided round with open bets finished")
		}
		if n, err := storage.RefundBets(ctx, db, []int64{bets[0].ID, bets[1].ID}, 3150); n != 2 || err != nil {
			t.Fatalf("refund: %d %v", n, err)
		}
		if n, _ := storage.RefundBets(ctx, db, []int64{bets[0].ID}, 3160); n != 0 {
			t.Fatal("a refunded bet changed again")
		}
		for i, want := range []bool{true, false} {
			if ok, err := storage.FinishVoidedRound(ctx, db, r.ID, 3200); ok != want || err != nil {
				t.Fatalf("finish #%d: %v %v", i, ok, err)
			}
		}
		got, _ := storage.RoundByID(ctx, db, r.ID)
		if got.State != storage.RoundVoided || got.VoidReason != "beacon_late" || got.BetsHash != "h1" || got.SettledAt != 3200 || got.HasResult() {
			t.Fatalf("voided round %+v", got)
		}
		stored, _ := storage.BetsOfRound(ctx, db, r.ID)
		if stored[0].State != storage.BetRefunded || stored[0].Payout != 500 || stored[1].Payout != 300 {
			t.Fatalf("refunded bets %+v", stored)
		}
		if list, _ := storage.DrawnRounds(ctx, db, 1, 10, 0); len(list) != 0 {
			t.Fatal("a voided round is listed with the drawn ones")
		}
		if all, _ := storage.AllDrawnRounds(ctx, db); len(all) != 0 {
			t.Fatal("a voided round is counted as drawn")
		}
		if counts, _ := storage.DrawnTripleCounts(ctx, db, 0); len(counts) != 0 {
			t.Fatalf("a voided round counts in the fairness report: %+v", counts)
		}
	})
}
