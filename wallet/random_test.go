package wallet

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"kj/internal/apierr"
	"kj/storage"
	"kj/storage/storagetest"
)

// TestWalletRandomised runs users and operators concurrently: recharge
// orders (some resubmitted, some claiming another user's transaction),
// confirmations and failures (some twice, some racing each other),
// exchanges (some retried with their request key, some beyond the balance)
// and their completion or refund (some racing). Afterwards the ledger
// check passes and every balance equals what the final order states say it
// must be; every acknowledged order exists, and every review that changed
// an order is audited once.
func TestWalletRandomised(t *testing.T) {
	eachWallet(t, func(t *testing.T, w *Wallet) {
		db, ctx := w.DB, t.Context()
		const users, rounds = 6, 14
		type player struct {
			user storage.User
			card int64
		}
		players := make([]player, users)
		for i := range players {
			u := withFundPassword(t, w, newUser(t, w, fmt.Sprintf("p%d", i), false))
			players[i] = player{u, bindCard(t, w, u, fmt.Sprintf("40001234123400%02d", i)).ID}
		}
		ops := []Operator{newOperator(t, w, "oper1"), newOperator(t, w, "oper2")}

		// expect says whether err is one of codes (0: no error), failing
		// the test otherwise.
		expect := func(err error, what string, codes ...int) bool {
			code := 0
			var e *apierr.Error
			if errors.As(err, &e) {
				code = e.Code
			} else if err != nil {
				code = -1
			}
			for _, c := range codes {
				if code == c {
					return true
				}
			}
			t.Errorf("%s: %v", what, err)
			return false
		}
		// errOf is the error of a review, whatever order it answers.
		errOf := func(_ any, err error) error { return err }
		var ackMu sync.Mutex
		acked := map[int64]int64{} // exchange order id -> amount, as acknowledged to the client
		recharges := make(chan int64, 2*users*rounds)
		exchanges := make(chan int64, users*rounds)

		var usersWG sync.WaitGroup
		for i, p := range players {
			usersWG.Add(1)
			go func() {
				defer usersWG.Done()
				r := rand.New(rand.NewPCG(uint64(i), 5))
				for n := range rounds {
					req := rechargeOf(1000+r.Int64N(20_000), "TRC20", hashN(i*1000+n))
					// CodeTxHashUsed: a neighbour claimed this hash first (below)
					if o, err := w.Recharge(ctx, p.user.ID, req); expect(err, "recharge", 0, apierr.CodeTxHashUsed) && err == nil {
						recharges <- o.ID
						if r.IntN(4) == 0 { // the same order again
							if again, err := w.Recharge(ctx, p.user.ID, req); expect(err, "recharge again", 0) && again.ID != o.ID {
								t.Errorf("resubmitted recharge made order %d besides %d", again.ID, o.ID)
							}
						}
					}
					if r.IntN(5) == 0 { // someone else's transaction (or not yet: then it is ours)
						other := (i + 1) % users
						o, err := w.Recharge(ctx, p.user.ID, rechargeOf(5000, "TRC20", hashN(other*1000+n)))
						if expect(err, "claim another's hash", 0, apierr.CodeTxHashUsed) && err == nil {
							recharges <- o.ID
						}
					}
					if r.IntN(2) == 0 {
						req := exchangeOf(1000+r.Int64N(8_000), p.card, "123456", fmt.Sprintf("k%d", n))
						var first int64
						for range 1 + r.IntN(2) {
							o, err := w.Exchange(ctx, p.user, req)
							if !expect(err, "exchange", 0, apierr.CodeInsufficientBalance) || err != nil {
								continue
							}
							if first != 0 && o.ID != first {
								t.Errorf("retried exchange %s made order %d besides %d", req.RequestKey, o.ID, first)
							}
							if first == 0 {
								first = o.ID
								ackMu.Lock()
								acked[o.ID] = o.Amount
								ackMu.Unlock()
								exchanges <- o.ID
							}
						}
					}
				}
			}()
		}

		var opsWG sync.WaitGroup
		for k, op := range ops {
			opsWG.Add(1)
			go func() {
				defer opsWG.Done()
				r := rand.New(rand.NewPCG(uint64(100+k), 6))
				race := func(fs ...func()) {
					var wg sync.WaitGroup
					for _, f := range fs {
						wg.Add(1)
						go func() { defer wg.Done(); f() }()
					}
					wg.Wait()
				}
				recharges, exchanges := recharges, exchanges // set to nil when drained
				for recharges != nil || exchanges != nil {
					select {
					case id, open := <-recharges:
						if !open {
							recharges = nil
							continue
						}
						confirm := func() { expect(errOf(w.ConfirmRecharge(ctx, op, id, "")), "confirm", 0, apierr.CodeOrderProcessed) }
						fail := func() {
							expect(errOf(w.FailRecharge(ctx, op, id, "not received")), "fail", 0, apierr.CodeOrderProcessed)
						}
						switch r.IntN(5) {
						case 0, 1:
							confirm()
						case 2:
							fail()
						case 3:
							race(confirm, confirm, confirm)
						case 4:
							race(confirm, fail)
						}
					case id, open := <-exchanges:
						if !open {
							exchanges = nil
							continue
						}
						complete := func() { expect(errOf(w.CompleteExchange(ctx, op, id, "")), "complete", 0, apierr.CodeOrderProcessed) }
						refund := func() {
							expect(errOf(w.FailExchange(ctx, op, id, "bank refused")), "refund", 0, apierr.CodeOrderProcessed)
						}
						switch r.IntN(5) {
						case 0:
							// left under review
						case 1:
							complete()
						case 2:
							refund()
						case 3:
							race(complete, complete, refund)
						case 4:
							race(refund, refund, complete)
						}
					}
				}
			}()
		}
		usersWG.Wait()
		close(recharges)
		close(exchanges)
		opsWG.Wait()

		// The model: what the final order states say each account holds,
		// how many transfers and audit entries they took.
		report := storagetest.CheckLedger(t, db)
		var clearing, pending, withdrawn int64
		var wantTransfers, wantAudits int
		wallet := map[int64]int64{}
		rows, err := db.Query(ctx, `SELECT user_id, amount, status FROM recharge_orders`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var uid, amount int64
			var status int
			rows.Scan(&uid, &amount, &status)
			if status != storage.OrderUnderReview {
				wantAudits++
			}
			if status == storage.OrderCompleted {
				wallet[uid] += amount
				clearing -= amount
				wantTransfers++
			}
		}
		rows.Close()
		rows, err = db.Query(ctx, `SELECT id, user_id, amount, status FROM exchange_orders`)
		if err != nil {
			t.Fatal(err)
		}
		stored := map[int64]int64{}
		for rows.Next() {
			var id, uid, amount int64
			var status int
			rows.Scan(&id, &uid, &amount, &status)
			stored[id] = amount
			wantTransfers++
			switch status {
			case storage.OrderUnderReview:
				wallet[uid] -= amount
				pending += amount
			case storage.OrderCompleted:
				wallet[uid] -= amount
				withdrawn += amount
				wantTransfers++
				wantAudits++
			case storage.OrderFailed:
				wantTransfers++ // debited, then refunded
				wantAudits++
			}
		}
		rows.Close()
		for _, p := range players {
			if got := balance(t, db, storage.Wallet(p.user.ID)); got != wallet[p.user.ID] {
				t.Errorf("%s: balance %d, orders say %d", p.user.Account, got, wallet[p.user.ID])
			}
		}
		for a, want := range map[storage.AccountRef]int64{storage.RechargeClearing: clearing, storage.WithdrawalPending: pending, storage.Withdrawn: withdrawn} {
			if got := balance(t, db, a); got != want {
				t.Errorf("%v: %d, orders say %d", a, got, want)
			}
		}
		if report.Transfers != wantTransfers {
			t.Errorf("%d transfers, orders account for %d", report.Transfers, wantTransfers)
		}
		if n, err := storage.CountAudit(ctx, db, storage.AuditFilter{}); err != nil || n != wantAudits {
			t.Errorf("%d audit entries (%v), reviews account for %d", n, err, wantAudits)
		}
		if len(stored) != len(acked) {
			t.Errorf("%d exchange orders stored, %d acknowledged", len(stored), len(acked))
		}
		for id, amount := range acked {
			if stored[id] != amount {
				t.Errorf("acknowledged exchange %d (%d) stored as %d", id, amount, stored[id])
			}
		}
		t.Logf("%s; %d exchanges", report, len(acked))
	})
}
