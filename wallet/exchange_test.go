package wallet

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"kj/internal/apierr"
	"kj/storage"
	"kj/storage/storagetest"
)

// fund credits amount cents to u through a confirmed recharge.
func fund(t *testing.T, w *Wallet, op Operator, u storage.User, amount int64, hash string) {
	t.Helper()
	ctx := t.Context()
	o, err := w.Recharge(ctx, u.ID, rechargeOf(amount, "TRC20", hash))
	if err == nil {
		_, err = w.ConfirmRecharge(ctx, op, o.ID, "")
	}
	if err != nil {
		t.Fatal(err)
	}
}

// exchangeOf is an exchange request of amount cents to card, with key as
// its Idempotency-Key.
func exchangeOf(amount int64, card int64, pw, key string) ExchangeRequest {
	return ExchangeRequest{Amount: json.RawMessage(fmt.Sprint(amount)), BankCardID: json.RawMessage(fmt.Sprintf("%q", fmt.Sprint(card))),
		FundPassword: pw, RequestKey: key}
}

func TestExchangeRulesAndIdempotency(t *testing.T) {
	eachWallet(t, func(t *testing.T, w *Wallet) {
		db, ctx := w.DB, t.Context()
		kira := newUser(t, w, "kira", false)
		mallory := withFundPassword(t, w, newUser(t, w, "mallory", false))
		op := newOperator(t, w, "oona")

		// Without a card nothing else is looked at, not even the amount.
		_, err := w.Exchange(ctx, kira, ExchangeRequest{Amount: json.RawMessage(`"abc"`)})
		wantCode(t, err, apierr.CodeNoBankCard, "no card")
		kira = withFundPassword(t, w, kira)
		card := bindCard(t, w, kira, "4000123412341234").ID
		malloryCard := bindCard(t, w, mallory, "5000123412341234").ID
		fund(t, w, op, kira, 10_000, hashN(1))
		fund(t, w, op, mallory, 10_000, hashN(2))

		before := counts(t, db)
		for _, c := range []struct {
			req  ExchangeRequest
			code int
		}{
			{ExchangeRequest{FundPassword: "123456"}, apierr.CodeRequired},
			{exchangeOf(999, card, "123456", ""), apierr.CodeExchangeBelowMin},
			{exchangeOf(500_001, card, "123456", ""), apierr.CodeExchangeAboveMax},
			{ExchangeRequest{Amount: json.RawMessage(`2000`), FundPassword: "123456"}, apierr.CodeRequired},
			{exchangeOf(2000, malloryCard, "123456", ""), apierr.CodeNotFound}, // someone else's card
			{exchangeOf(2000, 777, "123456", ""), apierr.CodeNotFound},
			{exchangeOf(2000, card, "", ""), apierr.CodeRequired},
			{exchangeOf(2000, card, "000000", ""), apierr.CodeFundPasswordWrong},
			{exchangeOf(2000, card, "123456", "bad key!"), apierr.CodeInvalid},
			{exchangeOf(10_001, card, "123456", ""), apierr.CodeInsufficientBalance},
			{exchangeOf(10_001, card, "123456", "k0"), apierr.CodeInsufficientBalance},
		} {
			_, err := w.Exchange(ctx, kira, c.req)
			wantCode(t, err, c.code, fmt.Sprintf("%+v", c.req))
		}
		_, err = w.Exchange(ctx, kira, exchangeOf(999, card, "123456", ""))
		if e := wantCode(t, err, apierr.CodeExchangeBelowMin, "below the minimum"); e.Args["min"] != "10.00" {
			t.Fatalf("min %v", e.Args)
		}
		if after := counts(t, db); after != before {
			t.Fatalf("refused exchanges wrote: %s -> %s", before, after)
		}

		// A named request retried, also several times at once (within the
		// fund password's tries in flight), is one order and one debit; the
		// name with another request is refused.
		e1, err := w.Exchange(ctx, kira, exchangeOf(3000, card, "123456", "req-1"))
		if err != nil || e1.Status != storage.OrderUnderReview || e1.Amount != 3000 || e1.CardNumber != "4000123412341234" || e1.BankName != "BBVA" {
			t.Fatalf("exchange %+v %v", e1, err)
		}
		var wg sync.WaitGroup
		for range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if again, err := w.Exchange(ctx, kira, exchangeOf(3000, card, "123456", "req-1")); err != nil || again.ID != e1.ID {
					t.Errorf("a retried exchange: %+v %v", again, err)
				}
			}()
		}
		wg.Wait()
		_, err = w.Exchange(ctx, kira, exchangeOf(3001, card, "123456", "req-1"))
		wantCode(t, err, apierr.CodeRequestKeyReused, "the key with another amount")
		// A new name first sent several times at once.
		k2 := make([]storage.ExchangeOrder, 3)
		k2err := make([]error, len(k2))
		for i := range k2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				k2[i], k2err[i] = w.Exchange(ctx, kira, exchangeOf(1500, card, "123456", "req-2"))
			}()
		}
		wg.Wait()
		for i := range k2 {
			if k2err[i] != nil || k2[i].ID != k2[0].ID {
				t.Fatalf("req-2 at once: %+v %v", k2, k2err)
			}
		}
		// Mallory's key of the same name is hers.
		if m, err := w.Exchange(ctx, mallory, exchangeOf(3000, malloryCard, "123456", "req-1")); err != nil || m.ID == e1.ID {
			t.Fatalf("mallory's own key: %+v %v", m, err)
		}
		if s, err := w.Summary(ctx, kira.ID); err != nil || s.Balance != 5500 || s.Frozen != 4500 || s.Cards != 1 {
			t.Fatalf("after the exchange %+v %v", s, err)
		}
		// Unnamed requests are each an order.
		e2, err := w.Exchange(ctx, kira, exchangeOf(2000, card, "123456", ""))
		if err != nil || e2.ID == e1.ID {
			t.Fatalf("second exchange %+v %v", e2, err)
		}
		// Deleting the card later does not change the order.
		if err := w.DeleteCard(ctx, kira.ID, card); err != nil {
			t.Fatal(err)
		}
		if o, _ := storage.ExchangeOrderByID(ctx, db, e2.ID); o.CardNumber != "4000123412341234" {
			t.Fatalf("order after the card left: %+v", o)
		}
		if r := storagetest.CheckLedger(t, db); r.Transfers != 6 { // the two recharges, e1, req-2's, mallory's and e2
			t.Fatalf("transfers %d, want 6", r.Transfers)
		}
	})
}

func TestExchangeReview(t *testing.T) {
	eachWallet(t, func(t *testing.T, w *Wallet) {
		db, ctx := w.DB, t.Context()
		kira := withFundPassword(t, w, newUser(t, w, "kira", false))
		op := newOperator(t, w, "oona")
		card := bindCard(t, w, kira, "4000123412341234").ID
		fund(t, w, op, kira, 10_000, hashN(1))
		e1, err := w.Exchange(ctx, kira, exchangeOf(3000, card, "123456", ""))
		if err != nil {
			t.Fatal(err)
		}
		e2, err := w.Exchange(ctx, kira, exchangeOf(2000, card, "123456", ""))
		if err != nil {
			t.Fatal(err)
		}
		if queue, total, err := w.ExchangeOrders(ctx, storage.OrderUnderReview, "kira", 20, 0); err != nil || total != 2 || queue[0].CardNumber != "4000123412341234" {
			t.Fatalf("queue %+v %d %v", queue, total, err)
		}

		// Completed twice: paid once; then it cannot fail. Failing needs a
		// remark.
		for range 2 {
			if done, err := w.CompleteExchange(ctx, op, e1.ID, ""); err != nil || done.Status != storage.OrderCompleted {
				t.Fatalf("completed %+v %v", done, err)
			}
		}
		_, err = w.FailExchange(ctx, op, e1.ID, "x")
		wantCode(t, err, apierr.CodeOrderProcessed, "failing a completed exchange")
		_, err = w.FailExchange(ctx, op, e2.ID, "  ")
		wantCode(t, err, apierr.CodeRequired, "failing without a remark")
		_, err = w.CompleteExchange(ctx, op, 424242, "")
		wantCode(t, err, apierr.CodeNotFound, "a missing exchange")

		// Complete and fail e2 at the same time: exactly one side wins.
		results := make(chan error, 6)
		var wg sync.WaitGroup
		for i := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var err error
				if i%2 == 0 {
					_, err = w.CompleteExchange(ctx, op, e2.ID, "")
				} else {
					_, err = w.FailExchange(ctx, op, e2.ID, "card closed")
				}
				results <- err
			}()
		}
		wg.Wait()
		close(results)
		var ok, processed int
		for err := range results {
			if err == nil {
				ok++
			} else {
				wantCode(t, err, apierr.CodeOrderProcessed, "the losing side")
				processed++
			}
		}
		if ok != 3 || processed != 3 {
			t.Fatalf("complete vs fail: %d ok, %d refused; want one side only", ok, processed)
		}
		e2now, _ := storage.ExchangeOrderByID(ctx, db, e2.ID)
		wantWallet, wantWithdrawn, action := int64(5000), int64(5000), "exchange.complete"
		if e2now.Status == storage.OrderFailed {
			wantWallet, wantWithdrawn, action = 7000, 3000, "exchange.fail"
			if e2now.Remark != "card closed" {
				t.Fatalf("remark %q", e2now.Remark)
			}
		}
		if got := balance(t, db, storage.Wallet(kira.ID)); got != wantWallet {
			t.Fatalf("balance %d, want %d (e2 %d)", got, wantWallet, e2now.Status)
		}
		if pending, withdrawn := balance(t, db, storage.WithdrawalPending), balance(t, db, storage.Withdrawn); pending != 0 || withdrawn != wantWithdrawn {
			t.Fatalf("pending %d, withdrawn %d", pending, withdrawn)
		}
		if n := len(audited(t, db, action, e2.ID)); n != 1 {
			t.Fatalf("%d %s entries", n, action)
		}
		if n := len(audited(t, db, "exchange.complete", e1.ID)); n != 1 {
			t.Fatalf("%d exchange.complete entries of e1", n)
		}
		if list, total, err := w.ExchangeRecords(ctx, kira.ID, storage.OrderCompleted, 0, 20, 0); err != nil || total != map[bool]int{true: 2, false: 1}[action == "exchange.complete"] || list[len(list)-1].ID != e1.ID {
			t.Fatalf("completed exchanges %+v %d %v", list, total, err)
		}
		storagetest.CheckLedger(t, db)
	})
}
