package storage_test

import (
	"context"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

// The console finds users and orders by any part of an account, nickname,
// order number or tx hash, whatever the case; "%" and "_" in the keyword
// are letters, not wildcards; a date range and a state narrow the orders.
func TestConsoleSearchFindsBySubstringWithWildcardsLiteral(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		alice, bob := newUser("alice_01"), newUser("bobby")
		bob.Nickname = "Alice's friend"
		carl := newUser("carl%x")
		addUsers(t, db, alice, bob, carl)
		orders := []storage.RechargeOrder{
			{ID: storage.NewID(), OrderNo: "R20260301AAA1", UserID: alice.ID, Amount: 12000, Protocol: "TRC20", TxHash: "0xDEADbeef01", CreatedAt: 1_000},
			{ID: storage.NewID(), OrderNo: "R20260302BBB2", UserID: bob.ID, Amount: 500, Protocol: "TRC20", TxHash: "0xcafe02", Status: storage.OrderCompleted, CreatedAt: 2_000},
			{ID: storage.NewID(), OrderNo: "R20260303CCC3", UserID: carl.ID, Amount: 700, Protocol: "TRC20", TxHash: "0xcafe03", CreatedAt: 3_000},
		}
		for _, o := range orders {
			if err := storage.CreateRechargeOrder(ctx, db, o); err != nil {
				t.Fatal(err)
			}
		}
		find := func(f storage.OrderSearch) []string {
			t.Helper()
			f.Limit = 10
			hits, total, err := storage.SearchRechargeOrders(ctx, db, f)
			if err != nil || total != len(hits) {
				t.Fatalf("%+v: %d of %d, %v", f, len(hits), total, err)
			}
			var nos []string
			for _, h := range hits {
				nos = append(nos, h.Order.OrderNo+"/"+h.Account)
			}
			return nos
		}
		for kw, want := range map[string]int{
			"alice": 2, "ALI": 2, // alice_01's account; bobby's nickname
			"aaa1": 1, "0302": 1, "deadBEEF": 1, "cafe": 2, // order number, tx hash
			"_": 1, "e_0": 1, "%": 1, "l%x": 1, "a%1": 0, // wildcards are literal
			"": 3, "nobody": 0,
		} {
			if got := find(storage.OrderSearch{Status: -1, Keyword: kw}); len(got) != want {
				t.Errorf("keyword %q found %v, want %d", kw, got, want)
			}
		}
		if got := find(storage.OrderSearch{Status: -1, From: 2_000, To: 3_000}); len(got) != 1 || got[0] != "R20260302BBB2/bobby" {
			t.Errorf("[2000, 3000): %v", got)
		}
		if got := find(storage.OrderSearch{Status: storage.OrderUnderReview, Keyword: "r2026"}); len(got) != 2 || got[0] != "R20260301AAA1/alice_01" {
			t.Errorf("the queue, oldest first: %v", got)
		}
		if got := find(storage.OrderSearch{Status: storage.OrderCompleted}); len(got) != 1 {
			t.Errorf("completed: %v", got)
		}
		ex, _, err := storage.SearchExchangeOrders(ctx, db, storage.OrderSearch{Status: -1, Keyword: "alice", Limit: 10})
		if err != nil || len(ex) != 0 {
			t.Errorf("exchanges: %v %v", ex, err)
		}

		users := func(kw string) int {
			t.Helper()
			_, n, err := storage.FindUsers(ctx, db, storage.UserQuery{Keyword: kw, IsActivation: -1, Limit: 10})
			if err != nil {
				t.Fatal(err)
			}
			return int(n)
		}
		for kw, want := range map[string]int{"alice": 2, "lic": 2, "ce_0": 1, "_": 1, "%": 1, "BOB": 1} {
			if got := users(kw); got != want {
				t.Errorf("users %q: %d, want %d", kw, got, want)
			}
		}
	})
}
