package storage_test

import (
	"context"
	"errors"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

func TestWalletOrdersAndRecords(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		u, other := storedUser(t, db, "dora"), storedUser(t, db, "eve")

		r1 := storage.RechargeOrder{ID: storage.NewID(), OrderNo: "R1", UserID: u.ID, Amount: 5000, Protocol: "TRC20",
			Address: "T...", TxHash: "aa", CreatedAt: 100}
		if err := storage.CreateRechargeOrder(ctx, db, r1); err != nil {
			t.Fatal(err)
		}
		dup := r1
		dup.ID, dup.OrderNo, dup.UserID = storage.NewID(), "R2", other.ID
		if err := storage.CreateRechargeOrder(ctx, db, dup); !errors.Is(err, storage.ErrConflict) {
			t.Fatalf("same tx hash twice: %v", err)
		}
		r2 := storage.RechargeOrder{ID: storage.NewID(), OrderNo: "R3", UserID: u.ID, Amount: 700, Protocol: "ERC20",
			Address: "0x", TxHash: "bb", CreatedAt: 300}
		storage.CreateRechargeOrder(ctx, db, r2)

		pending, total, err := storage.RechargeOrdersByStatus(ctx, db, storage.OrderUnderReview, 10, 0)
		if err != nil || total != 2 || len(pending) != 2 || pending[0].ID != r1.ID || pending[0].Account != "dora" {
			t.Fatalf("review queue %+v %d %v", pending, total, err)
		}
		// Confirm r1 through the ledger with its status change as the hook.
		res := commit(t, db, storage.Op{
			Transfers: []storage.Transfer{{Debit: storage.RechargeClearing, Credit: storage.Wallet(u.ID), Amount: r1.Amount,
				Kind: storage.KindRecharge, Ref: r1.OrderNo, IdempotencyKey: "recharge:1"}},
			Hook: func(ctx context.Context, tx storage.Tx) error {
				ok, err := storage.SetRechargeStatus(ctx, tx, r1.ID, storage.OrderUnderReview, storage.OrderCompleted, 9, "", 200)
				if err == nil && !ok {
					err = errors.New("not pending")
				}
				return err
			},
		})
		if res[0].Err != nil {
			t.Fatal(res[0].Err)
		}
		if ok, _ := storage.SetRechargeStatus(ctx, db, r1.ID, storage.OrderUnderReview, storage.OrderFailed, 9, "x", 201); ok {
			t.Fatal("a completed order was failed")
		}
		if ok, _ := storage.SetRechargeStatus(ctx, db, r2.ID, storage.OrderUnderReview, storage.OrderFailed, 9, "no such tx", 400); !ok {
			t.Fatal("fail r2")
		}
		if f, err := storage.ProfileFactsOf(ctx, db, u.ID); err != nil || !f.Recharged {
			t.Fatal("isRecharge", err)
		}
		if f, _ := storage.ProfileFactsOf(ctx, db, other.ID); f.Recharged {
			t.Fatal("isRecharge of a user without recharges")
		}

		// An exchange: debit with its order as the hook.
		x := storage.ExchangeOrder{ID: storage.NewID(), OrderNo: "E1", UserID: u.ID, Amount: 1200, BankCardID: 1,
			BankName: "BBVA", HolderName: "Dora", CardNumber: "1234567890123", RequestKey: "exchange:1"}
		res = commit(t, db, storage.Op{
			Transfers: []storage.Transfer{{Debit: storage.Wallet(u.ID), Credit: storage.WithdrawalPending, Amount: x.Amount,
				Kind: storage.KindExchange, Ref: x.OrderNo, IdempotencyKey: x.RequestKey}},
			Hook: func(ctx context.Context, tx storage.Tx) error { return storage.CreateExchangeOrder(ctx, tx, x) },
		})
		if res[0].Err != nil {
			t.Fatal(res[0].Err)
		}
		if got, _ := storage.PendingExchangeTotal(ctx, db, u.ID); got != 1200 {
			t.Fatalf("frozen %d", got)
		}
		if sum, err := storage.WalletSummaryOf(ctx, db, u.ID); err != nil || sum != (storage.WalletSummary{Balance: 3800, Frozen: 1200, IsRecharge: true}) {
			t.Fatalf("summary %+v %v", sum, err)
		}
		if sum, err := storage.WalletSummaryOf(ctx, db, other.ID); err != nil || sum != (storage.WalletSummary{}) {
			t.Fatalf("empty summary %+v %v", sum, err)
		}
		if got, err := storage.ExchangeOrderByRequestKey(ctx, db, "exchange:1"); err != nil || got.ID != x.ID {
			t.Fatalf("by request key: %+v %v", got, err)
		}

		// Points details: two recharges (one failed), one exchange.
		recs, total, err := storage.PointsRecords(ctx, db, u.ID, storage.FlowAll, 0, 10, 0)
		if err != nil || total != 3 {
			t.Fatalf("records %+v %d %v", recs, total, err)
		}
		// The ledger writes with time 1000 (commit helper), newest first.
		if recs[0].Type != storage.KindExchange || recs[0].Amount != -1200 || recs[0].State != 0 || recs[0].OrderNo != "E1" {
			t.Fatalf("exchange line %+v", recs[0])
		}
		if recs[1].OrderNo != "R3" || recs[1].State != storage.OrderFailed || recs[2].OrderNo != "R1" || recs[2].State != storage.OrderCompleted {
			t.Fatalf("recharge lines %+v", recs[1:])
		}
		income, total, _ := storage.PointsRecords(ctx, db, u.ID, storage.FlowIncome, 0, 10, 0)
		if total != 2 || len(income) != 2 {
			t.Fatalf("income %+v", income)
		}
		spent, total, _ := storage.PointsRecords(ctx, db, u.ID, storage.FlowExpenditure, 0, 10, 0)
		if total != 1 || spent[0].OrderNo != "E1" {
			t.Fatalf("expenditure %+v", spent)
		}
		recent, total, _ := storage.PointsRecords(ctx, db, u.ID, storage.FlowAll, 250, 10, 0)
		if total != 2 {
			t.Fatalf("since 250: %+v", recent)
		}
		page2, total, _ := storage.PointsRecords(ctx, db, u.ID, storage.FlowAll, 0, 2, 2)
		if total != 3 || len(page2) != 1 || page2[0].OrderNo != "R1" {
			t.Fatalf("page 2: %+v", page2)
		}
		if recs, total, _ := storage.PointsRecords(ctx, db, other.ID, storage.FlowAll, 0, 10, 0); total != 0 || len(recs) != 0 {
			t.Fatalf("another user's records leak: %+v", recs)
		}

		// Exchange records with a state filter.
		if ok, _ := storage.SetExchangeStatus(ctx, db, x.ID, storage.OrderUnderReview, storage.OrderCompleted, 9, "", 1500); !ok {
			t.Fatal("complete")
		}
		done, total, err := storage.UserExchangeOrders(ctx, db, u.ID, storage.OrderCompleted, 0, 10, 0)
		if err != nil || total != 1 || done[0].ReviewedAt != 1500 {
			t.Fatalf("completed exchanges %+v %v", done, err)
		}
		if _, total, _ := storage.UserExchangeOrders(ctx, db, u.ID, storage.OrderUnderReview, 0, 10, 0); total != 0 {
			t.Fatal("under review")
		}
		storagetest.CheckLedger(t, db)
	})
}

func TestBanksAndCards(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		banks, err := storage.Banks(ctx, db, false)
		if err != nil || len(banks) < 50 {
			t.Fatalf("seeded banks: %d %v", len(banks), err)
		}
		countries := map[string]int{}
		for _, b := range banks {
			countries[b.Country]++
		}
		for _, c := range []string{"CN", "TW", "HK", "VN", "MY", "ES"} {
			if countries[c] == 0 {
				t.Errorf("no banks of %s", c)
			}
		}
		b, _ := storage.BankByID(ctx, db, 50)
		if b.Name != "Vietcombank" {
			t.Fatalf("bank 50 %+v", b)
		}
		b.Enabled = 0
		b.UpdatedAt = 5
		if err := storage.UpdateBank(ctx, db, b); err != nil {
			t.Fatal(err)
		}
		if after, _ := storage.Banks(ctx, db, false); len(after) != len(banks)-1 {
			t.Fatal("a disabled bank is listed")
		}
		if all, _ := storage.Banks(ctx, db, true); len(all) != len(banks) {
			t.Fatal("operators see every bank")
		}
		if err := storage.CreateBank(ctx, db, storage.Bank{ID: storage.NewID(), Name: "BBVA", Country: "ES", Enabled: 1}); !errors.Is(err, storage.ErrConflict) {
			t.Fatalf("duplicate bank: %v", err)
		}

		u, other := storedUser(t, db, "finn"), storedUser(t, db, "gus")
		card := storage.BankCard{ID: storage.NewID(), UserID: u.ID, BankID: 91, BankName: "BBVA", HolderName: "Finn", CardNumber: "4000123412341234", CreatedAt: 1}
		if err := storage.CreateBankCard(ctx, db, card); err != nil {
			t.Fatal(err)
		}
		again := card
		again.ID = storage.NewID()
		if err := storage.CreateBankCard(ctx, db, again); !errors.Is(err, storage.ErrConflict) {
			t.Fatalf("same card twice: %v", err)
		}
		if _, err := storage.BankCardOf(ctx, db, other.ID, card.ID); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("someone else's card: %v", err)
		}
		if err := storage.DeleteBankCard(ctx, db, other.ID, card.ID); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("deleting someone else's card: %v", err)
		}
		if n, _ := storage.CountBankCards(ctx, db, u.ID); n != 1 {
			t.Fatalf("cards %d", n)
		}
		if err := storage.DeleteBankCard(ctx, db, u.ID, card.ID); err != nil {
			t.Fatal(err)
		}
		if cards, _ := storage.BankCardsOf(ctx, db, u.ID); len(cards) != 0 {
			t.Fatal("card still listed")
		}

		// Fund password compare-and-set.
		if ok, err := storage.SetFundPasswordHash(ctx, db, u.ID, "", "h1", 2); !ok || err != nil {
			t.Fatalf("set: %v %v", ok, err)
		}
		if ok, _ := storage.SetFundPasswordHash(ctx, db, u.ID, "", "h2", 3); ok {
			t.Fatal("set twice")
		}
		if _, err := storage.SetFundPasswordHash(ctx, db, 12345, "", "h", 3); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("nobody: %v", err)
		}
	})
}
