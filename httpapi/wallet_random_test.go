package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"kj/auth"
	"kj/internal/apierr"
	"kj/storage"
	"kj/storage/storagetest"
)

// TestWalletRandomisedOverHTTP runs users and operators concurrently
// through the real routes: recharge orders (some resubmitted, some claiming
// another user's transaction), confirmations and failures (some twice, some
// racing each other), exchanges (some retried with their Idempotency-Key,
// some beyond the balance) and their completion or refund (some racing).
// Afterwards the ledger check passes and every balance equals what the
// final order states say it must be; every acknowledged order exists.
func TestWalletRandomisedOverHTTP(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, _ := walletServer(t, db)
		ctx := context.Background()
		const users, rounds = 6, 14
		type player struct {
			user storage.User
			tok  auth.Tokens
			card string
		}
		players := make([]player, users)
		for i := range players {
			u, tok := newUser(t, s, fmt.Sprintf("p%d", i))
			setFundPassword(t, s, tok.Token)
			players[i] = player{u, tok, bindCard(t, s, tok.Token, fmt.Sprintf("40001234123400%02d", i))}
		}
		_, op1 := newOperator(t, s, "oper1")
		_, op2 := newOperator(t, s, "oper2")
		ops := []auth.Tokens{op1, op2}

		expect := func(r reply, what string, codes ...int) bool {
			for _, c := range codes {
				if r.Code == c {
					return true
				}
			}
			t.Errorf("%s: %d %s", what, r.Code, r.Message)
			return false
		}
		var ackMu sync.Mutex
		acked := map[string]int64{} // exchange order id -> amount, as acknowledged to the client
		recharges := make(chan string, 2*users*rounds)
		exchanges := make(chan string, users*rounds)

		var usersWG sync.WaitGroup
		for i, p := range players {
			usersWG.Add(1)
			go func() {
				defer usersWG.Done()
				r := rand.New(rand.NewPCG(uint64(i), 5))
				for n := range rounds {
					hash := hashN(i*1000 + n)
					body := fmt.Sprintf(`{"amount":%d,"protocol":"TRC20","txHash":%q}`, 1000+r.Int64N(20_000), hash)
					res := post(t, s, p.tok.Token, "/user/rechargeOrder", body)
					// 1206: a neighbour claimed this hash first (below)
					if expect(res, "recharge", 0, apierr.CodeTxHashUsed) && res.Code == 0 {
						var o orderJSON
						json.Unmarshal(res.Data, &o)
						recharges <- o.ID
						if r.IntN(4) == 0 { // the same order again
							if again := post(t, s, p.tok.Token, "/user/rechargeOrder", body); expect(again, "recharge again", 0) {
								var o2 orderJSON
								json.Unmarshal(again.Data, &o2)
								if o2.ID != o.ID {
									t.Errorf("resubmitted recharge made order %s besides %s", o2.ID, o.ID)
								}
							}
						}
					}
					if r.IntN(5) == 0 { // someone else's transaction (or not yet: then it is ours)
						other := (i + 1) % users
						res := post(t, s, p.tok.Token, "/user/rechargeOrder",
							fmt.Sprintf(`{"amount":5000,"protocol":"TRC20","txHash":%q}`, hashN(other*1000+n)))
						if expect(res, "claim another's hash", 0, apierr.CodeTxHashUsed) && res.Code == 0 {
							var o orderJSON
							json.Unmarshal(res.Data, &o)
							recharges <- o.ID
						}
					}
					if r.IntN(2) == 0 {
						key := fmt.Sprintf("k%d", n)
						body := fmt.Sprintf(`{"amount":%d,"bankCardId":%q,"fundPassword":"123456"}`, 1000+r.Int64N(8_000), p.card)
						tries := 1 + r.IntN(2)
						var first string
						for range tries {
							res := post(t, s, p.tok.Token, "/user/exchange", body, "Idempotency-Key", key)
							if !expect(res, "exchange", 0, apierr.CodeInsufficientBalance) || res.Code != 0 {
								continue
							}
							var o orderJSON
							json.Unmarshal(res.Data, &o)
							if first != "" && o.ID != first {
								t.Errorf("retried exchange %s made order %s besides %s", key, o.ID, first)
							}
							if first == "" {
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
				review := func(path, id, remark string, codes ...int) {
					expect(post(t, s, op.Token, path, fmt.Sprintf(`{"orderId":%q,"remark":%q}`, id, remark)), path, codes...)
				}
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
						confirm := func() { review("/admin/recharge/confirm", id, "", 0, apierr.CodeOrderProcessed) }
						fail := func() { review("/admin/recharge/fail", id, "not received", 0, apierr.CodeOrderProcessed) }
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
						complete := func() { review("/admin/exchange/complete", id, "", 0, apierr.CodeOrderProcessed) }
						refund := func() { review("/admin/exchange/fail", id, "bank refused", 0, apierr.CodeOrderProcessed) }
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

		// The model: what the final order states say each account holds.
		report := checkLedger(t, db)
		var clearing, pending, withdrawn int64
		var wantTransfers int
		wallet := map[int64]int64{}
		rows, err := db.Query(ctx, `SELECT user_id, amount, status FROM recharge_orders`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var uid, amount int64
			var status int
			rows.Scan(&uid, &amount, &status)
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
		stored := map[string]int64{}
		for rows.Next() {
			var id, uid, amount int64
			var status int
			rows.Scan(&id, &uid, &amount, &status)
			stored[fmt.Sprint(id)] = amount
			wantTransfers++
			switch status {
			case storage.OrderUnderReview:
				wallet[uid] -= amount
				pending += amount
			case storage.OrderCompleted:
				wallet[uid] -= amount
				withdrawn += amount
				wantTransfers++
			case storage.OrderFailed:
				wantTransfers++ // debited, then refunded
			}
		}
		rows.Close()
		for _, p := range players {
			if got := walletBalance(t, db, p.user.ID); got != wallet[p.user.ID] {
				t.Errorf("%s: balance %d, orders say %d", p.user.Account, got, wallet[p.user.ID])
			}
		}
		for a, want := range map[storage.AccountRef]int64{storage.RechargeClearing: clearing, storage.WithdrawalPending: pending, storage.Withdrawn: withdrawn} {
			if got, _ := storage.AccountBalance(ctx, db, a); got != want {
				t.Errorf("%v: %d, orders say %d", a, got, want)
			}
		}
		if report.Transfers != wantTransfers {
			t.Errorf("%d transfers, orders account for %d", report.Transfers, wantTransfers)
		}
		if len(stored) != len(acked) {
			t.Errorf("%d exchange orders stored, %d acknowledged", len(stored), len(acked))
		}
		for id, amount := range acked {
			if stored[id] != amount {
				t.Errorf("acknowledged exchange %s (%d) stored as %d", id, amount, stored[id])
			}
		}
		t.Logf("%s; %d exchanges", report, len(acked))
	})
}
