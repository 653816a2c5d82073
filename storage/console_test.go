package storage_test

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

func TestOperatorRolesFreezeAndFundPasswordReset(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		player, op := newUser("pia"), newUser("opa")
		player.FundPasswordHash = "fund-hash"
		addUsers(t, db, player, op)
		if r, err := storage.OperatorRole(ctx, db, player.ID); err != nil || r != "" {
			t.Fatalf("a player's role %q %v", r, err)
		}
		legacy := newUser("olda")
		legacy.IsOperator = 1
		addUsers(t, db, legacy)
		if r, _ := storage.OperatorRole(ctx, db, legacy.ID); r != storage.OperatorAdmin {
			t.Fatalf("an operator without a stored role: %q, want admin", r)
		}
		if err := storage.SetOperatorRole(ctx, db, op.ID, storage.OperatorAgent, 5); err != nil {
			t.Fatal(err)
		}
		if r, _ := storage.OperatorRole(ctx, db, op.ID); r != storage.OperatorAgent {
			t.Fatalf("role %q", r)
		}
		if u, _ := storage.UserByID(ctx, db, op.ID); u.IsOperator != 1 || u.IsActivation != 1 {
			t.Fatalf("an operator is activated: %+v", u)
		}
		if err := storage.SetOperatorRole(ctx, db, 42, storage.OperatorAgent, 5); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("unknown user: %v", err)
		}
		ops, err := storage.ListOperators(ctx, db)
		if err != nil || len(ops) != 2 || ops[0].Account != "opa" || ops[0].Role != storage.OperatorAgent || ops[1].Role != storage.OperatorAdmin {
			t.Fatalf("operators %+v %v", ops, err)
		}

		if changed, err := storage.SetFrozen(ctx, db, player.ID, 77, 77); err != nil || !changed {
			t.Fatalf("freeze %v %v", changed, err)
		}
		if changed, _ := storage.SetFrozen(ctx, db, player.ID, 78, 78); changed {
			t.Fatal("a second freeze changed the state")
		}
		if at, _ := storage.FrozenAt(ctx, db, player.ID); at != 77 {
			t.Fatalf("frozen at %d", at)
		}
		if changed, _ := storage.SetFrozen(ctx, db, player.ID, 0, 79); !changed {
			t.Fatal("unfreeze")
		}
		if _, err := storage.SetFrozen(ctx, db, 42, 1, 1); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("freezing nobody: %v", err)
		}

		if had, err := storage.ClearFundPassword(ctx, db, player.ID, 80); err != nil || !had {
			t.Fatalf("reset %v %v", had, err)
		}
		if u, _ := storage.UserByID(ctx, db, player.ID); u.FundPasswordHash != "" {
			t.Fatal("the fund password stayed")
		}
		if had, err := storage.ClearFundPassword(ctx, db, player.ID, 81); err != nil || had {
			t.Fatalf("second reset %v %v", had, err)
		}
		if _, err := storage.ClearFundPassword(ctx, db, 42, 81); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("resetting nobody: %v", err)
		}
	})
}

// The wallet lines give each entry the balance it left, ending at the
// balance of the ledger account.
func TestWalletLinesRunBackFromTheBalance(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		u := storedUser(t, db, "wanda")
		if bal, lines, err := storage.WalletLines(ctx, db, u.ID, 10); err != nil || bal != 0 || len(lines) != 0 {
			t.Fatalf("no entries: %d %+v %v", bal, lines, err)
		}
		w := storage.Wallet(u.ID)
		commit(t, db, op(storage.Transfer{Debit: storage.RechargeClearing, Credit: w, Amount: 5000, Kind: storage.KindRecharge, Ref: "R1", IdempotencyKey: "a"}))
		commit(t, db, op(storage.Transfer{Debit: w, Credit: storage.WithdrawalPending, Amount: 1200, Kind: storage.KindExchange, Ref: "X1", IdempotencyKey: "b"}))
		commit(t, db, op(storage.Transfer{Debit: w, Credit: storage.BetsInPlay, Amount: 300, Kind: "bet", Ref: "9", IdempotencyKey: "c"}))
		bal, lines, err := storage.WalletLines(ctx, db, u.ID, 2)
		if err != nil || bal != 3500 || len(lines) != 2 {
			t.Fatalf("%d %+v %v", bal, lines, err)
		}
		if lines[0].Kind != "bet" || lines[0].Amount != -300 || lines[0].BalanceAfter != 3500 ||
			lines[1].Kind != storage.KindExchange || lines[1].Amount != -1200 || lines[1].BalanceAfter != 3800 || lines[1].Ref != "X1" {
			t.Fatalf("lines %+v", lines)
		}
	})
}

// The dashboard's figures count the day's players and money from the
// ledger; the windows' house results over all time sum to the house
// account's balance, so the dashboard reconciles with the ledger check.
func TestDashboardFiguresReconcileWithTheLedger(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		a, b, opr := newUser("alma"), newUser("bert"), newUser("opr")
		a.CreatedAt, b.CreatedAt, opr.CreatedAt = 1500, 2500, 1600
		opr.IsOperator = 1
		addUsers(t, db, a, b, opr)
		db.Tx(ctx, func(tx storage.Tx) error {
			for i, u := range []storage.User{a, a, opr} {
				s := storage.AuthSession{ID: storage.NewID(), UserID: u.ID, Platform: 5 + i, TokenHash: "t" + strconv.Itoa(i),
					JWTHash: "j" + strconv.Itoa(i), ChatTokenHash: "c" + strconv.Itoa(i), State: storage.SessionActive, CreatedAt: 1700}
				if _, err := storage.CreateSession(ctx, tx, s); err != nil {
					t.Fatal(err)
				}
			}
			return nil
		})
		// Two bets of b in window 1 (one wins at 1.98, one loses) and one of a in window 2 (loses).
		bets := []storage.RoundBet{
			{ID: storage.NewID(), BetID: "w1", UserID: b.ID, RoundID: 1, WindowID: 1, Issue: "1", Content: "BIG", Amount: 1000, PlacedAt: 1800},
			{ID: storage.NewID(), BetID: "l1", UserID: b.ID, RoundID: 1, WindowID: 1, Issue: "1", Content: "SMALL", Amount: 400, PlacedAt: 1800},
			{ID: storage.NewID(), BetID: "l2", UserID: a.ID, RoundID: 2, WindowID: 2, Issue: "1", Content: "SMALL", Amount: 250, PlacedAt: 2600},
		}
		// And a later round of window 1, settled the way rounds are now:
		// one transfer of all its stakes to the house, the winner's whole
		// payout from the house, nothing of the loser's own.
		bets = append(bets,
			storage.RoundBet{ID: storage.NewID(), BetID: "w3", UserID: b.ID, RoundID: 3, WindowID: 1, Issue: "2", Content: "BIG", Amount: 500, PlacedAt: 2700},
			storage.RoundBet{ID: storage.NewID(), BetID: "l3", UserID: a.ID, RoundID: 3, WindowID: 1, Issue: "2", Content: "SMALL", Amount: 300, PlacedAt: 2700})
		if err := storage.CreateRound(ctx, db, storage.Round{ID: 3, WindowID: 1, Seq: 2, Issue: "2", State: storage.RoundSettled, OddsBP: 19800}); err != nil {
			t.Fatal(err)
		}
		db.Tx(ctx, func(tx storage.Tx) error { return storage.InsertRoundBets(ctx, tx, bets) })
		wa, wb := storage.Wallet(a.ID), storage.Wallet(b.ID)
		ref := func(i int) string { return strconv.FormatInt(bets[i].ID, 10) }
		tr := func(d, c storage.AccountRef, amt int64, kind, ref, key string) storage.Transfer {
			return storage.Transfer{Debit: d, Credit: c, Amount: amt, Kind: kind, Ref: ref, IdempotencyKey: key}
		}
		// Day one is [1000, 2000), day two [2000, 3000).
		if _, err := storage.CommitLedgerBatch(ctx, db, 1100, []storage.Op{
			op(tr(storage.RechargeClearing, wa, 9000, storage.KindRecharge, "RA", "ra")),
			op(tr(storage.RechargeClearing, wb, 5000, storage.KindRecharge, "RB", "rb")),
		}, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := storage.CommitLedgerBatch(ctx, db, 1800, []storage.Op{
			op(tr(wb, storage.BetsInPlay, 1000, "bet", ref(0), "s0")),
			op(tr(wb, storage.BetsInPlay, 400, "bet", ref(1), "s1")),
			op(tr(storage.BetsInPlay, wb, 1000, "bet_return", ref(0), "ret0"), tr(storage.House, wb, 980, "bet_win", ref(0), "win0")),
			op(tr(storage.BetsInPlay, storage.House, 400, "bet_lose", ref(1), "lose1")),
			op(tr(wa, storage.WithdrawalPending, 2000, storage.KindExchange, "XA", "xa")),
		}, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := storage.CommitLedgerBatch(ctx, db, 2600, []storage.Op{
			op(tr(wa, storage.BetsInPlay, 250, "bet", ref(2), "s2")),
			op(tr(storage.BetsInPlay, storage.House, 250, "bet_lose", ref(2), "lose2")),
			op(tr(storage.WithdrawalPending, storage.Withdrawn, 2000, storage.KindExchangePaid, "XA", "xpa")),
		}, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := storage.CommitLedgerBatch(ctx, db, 2700, []storage.Op{
			op(tr(wb, storage.BetsInPlay, 500, "bet", ref(3), "s3")),
			op(tr(wa, storage.BetsInPlay, 300, "bet", ref(4), "s4")),
			op(tr(storage.BetsInPlay, storage.House, 800, storage.KindBetStakesSettled, "3", storage.StakesSettledKey(3, bets[3].ID, bets[4].ID))),
			op(tr(storage.House, wb, 990, "bet_win", ref(3), "win3")),
		}, 0); err != nil {
			t.Fatal(err)
		}
		storagetest.CheckLedger(t, db)

		day1, err := storage.DayFiguresBetween(ctx, db, 1000, 2000)
		if err != nil {
			t.Fatal(err)
		}
		want1 := storage.DayFigures{Registrations: 1, ActiveUsers: 2, RechargeCount: 2, RechargeTotal: 14000}
		if day1 != want1 {
			t.Fatalf("day one %+v, want %+v", day1, want1)
		}
		day2, _ := storage.DayFiguresBetween(ctx, db, 2000, 3000)
		want2 := storage.DayFigures{Registrations: 1, ActiveUsers: 2, ExchangeCount: 1, ExchangeTotal: 2000}
		if day2 != want2 {
			t.Fatalf("day two %+v, want %+v", day2, want2)
		}

		w1, err := storage.WindowFiguresBetween(ctx, db, 1000, 2000)
		if err != nil || len(w1) != 1 || w1[0] != (storage.WindowFigures{WindowID: 1, Bets: 2, Staked: 1400, PaidOut: 1980, House: -580}) {
			t.Fatalf("day one windows %+v %v", w1, err)
		}
		all, _ := storage.WindowFiguresBetween(ctx, db, 0, 1<<62)
		var house int64
		for _, w := range all {
			house += w.House
		}
		// Window 1 over all time: the old round's figures and the new one's
		// (2 bets, 800 staked, 990 paid, the house 800 − 990) add up.
		if len(all) != 2 || all[0] != (storage.WindowFigures{WindowID: 1, Bets: 4, Staked: 2200, PaidOut: 2970, House: -770}) ||
			all[1] != (storage.WindowFigures{WindowID: 2, Bets: 1, Staked: 250, House: 250}) {
			t.Fatalf("all windows %+v", all)
		}
		if w2, err := storage.WindowFiguresBetween(ctx, db, 2650, 3000); err != nil || len(w2) != 1 ||
			w2[0] != (storage.WindowFigures{WindowID: 1, Bets: 2, Staked: 800, PaidOut: 990, House: -190}) {
			t.Fatalf("the new round's window %+v %v", w2, err)
		}
		if got := balance(t, db, storage.House); house != got {
			t.Fatalf("the windows' house results sum to %d, the house account holds %d", house, got)
		}

		if r, x, err := storage.PendingOrders(ctx, db); err != nil || r != 0 || x != 0 {
			t.Fatalf("pending %d %d %v", r, x, err)
		}
		rows, err := storage.BetsOfRoundWithAccounts(ctx, db, 1)
		if err != nil || len(rows) != 2 || rows[0].Account != "bert" || rows[0].BetID != "w1" {
			t.Fatalf("round bets %+v %v", rows, err)
		}
	})
}

func TestOrderSearchAndAuditFilters(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		u, v, opr := newUser("sam"), newUser("tom"), newUser("boss")
		addUsers(t, db, u, v, opr)
		for i, x := range []storage.User{u, u, v} {
			o := storage.RechargeOrder{ID: storage.NewID(), OrderNo: "RN" + strconv.Itoa(i), UserID: x.ID, Amount: 100, Protocol: "TRC20",
				TxHash: "h" + strconv.Itoa(i), CreatedAt: int64(i)}
			if err := storage.CreateRechargeOrder(ctx, db, o); err != nil {
				t.Fatal(err)
			}
		}
		for keyword, want := range map[string]int{"": 3, "sam": 2, "tom": 1, "RN2": 1, "nobody": 0, "sa": 0} {
			list, total, err := storage.RechargeOrdersFind(ctx, db, storage.OrderUnderReview, keyword, 10, 0)
			if err != nil || total != want || len(list) != want {
				t.Fatalf("%q: %d/%d %v", keyword, len(list), total, err)
			}
		}
		if list, _, _ := storage.RechargeOrdersFind(ctx, db, storage.OrderUnderReview, "RN2", 10, 0); list[0].Account != "tom" {
			t.Fatalf("%+v", list)
		}
		if list, total, err := storage.ExchangeOrdersFind(ctx, db, storage.OrderUnderReview, "sam", 10, 0); err != nil || total != 0 || len(list) != 0 {
			t.Fatalf("exchanges %v %d %v", list, total, err)
		}

		for i, a := range []struct {
			op     int64
			action string
			target string
			at     int64
		}{{opr.ID, "recharge.confirm", "RN0", 100}, {opr.ID, "user.freeze", "7", 200}, {u.ID, "recharge.confirm", "RN1", 300}} {
			if err := storage.RecordAudit(ctx, db, a.op, a.action, a.target, map[string]int{"i": i}, a.at); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []struct {
			f    storage.AuditFilter
			want int
		}{
			{storage.AuditFilter{}, 3},
			{storage.AuditFilter{Operator: "boss"}, 2},
			{storage.AuditFilter{Operator: "OS"}, 2},   // any part of the account, in any case
			{storage.AuditFilter{Operator: "b_ss"}, 0}, // "_" is literal
			{storage.AuditFilter{Operator: "boss", Action: "recharge.confirm"}, 1},
			{storage.AuditFilter{Target: "RN1"}, 1},
			{storage.AuditFilter{From: 150}, 2},
			{storage.AuditFilter{From: 150, To: 300}, 1},
			{storage.AuditFilter{OperatorID: u.ID}, 1},
		} {
			n, err := storage.CountAudit(ctx, db, c.f)
			list, lerr := storage.ListAudit(ctx, db, c.f, 10, 0)
			if err != nil || lerr != nil || n != c.want || len(list) != c.want {
				t.Fatalf("%+v: count %d list %d, want %d (%v %v)", c.f, n, len(list), c.want, err, lerr)
			}
		}
	})
}
