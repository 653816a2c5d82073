package wallet

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"kj/internal/apierr"
	"kj/internal/clock"
	"kj/storage"
	"kj/storage/storagetest"
)

// rechargeOf is a recharge request of amount cents.
func rechargeOf(amount int64, protocol, hash string) RechargeRequest {
	return RechargeRequest{Amount: json.RawMessage(fmt.Sprint(amount)), Protocol: protocol, TxHash: hash}
}

func TestRechargeOptionsFollowTheConfiguration(t *testing.T) {
	w := &Wallet{}
	if o := w.RechargeOptions(); o.Protocols == nil || len(o.Protocols) != 0 {
		t.Fatalf("no address: %+v, want an empty list", o)
	}
	w.Config.USDTERC20Address, w.Config.RechargeMinDeposit, w.Config.RechargeViaService = testERC20, 1500, true
	o := w.RechargeOptions()
	if len(o.Protocols) != 1 || o.Protocols[0] != (Protocol{"ERC20", "USDT-ERC20", "Ethereum", testERC20, 1500, storage.MaxAmount}) || o.MinDeposit != 1500 || !o.ViaService {
		t.Fatalf("ERC20 only: %+v", o)
	}
}

func TestRechargeOrdersAndReview(t *testing.T) {
	eachWallet(t, func(t *testing.T, w *Wallet) {
		db, ctx := w.DB, t.Context()
		clk := w.Clock.(*clock.Fake)
		jade := newUser(t, w, "jade", false)
		mallory := newUser(t, w, "mallory", false)
		op := newOperator(t, w, "otto")

		before := counts(t, db)
		for _, c := range []struct {
			req  RechargeRequest
			code int
		}{
			{RechargeRequest{Protocol: "TRC20", TxHash: tronHash}, apierr.CodeRequired},
			{rechargeOf(999, "TRC20", tronHash), apierr.CodeBelowMinDeposit},
			{rechargeOf(1000, "", tronHash), apierr.CodeRequired},
			{rechargeOf(1000, "BEP20", tronHash), apierr.CodeProtocolUnknown},
			{rechargeOf(1000, "TRC20", ""), apierr.CodeRequired},
			{rechargeOf(1000, "TRC20", "0x"+tronHash), apierr.CodeTxHashInvalid},
			{rechargeOf(1000, "ERC20", tronHash), apierr.CodeTxHashInvalid},
			{rechargeOf(1000, "TRC20", tronHash[:63]), apierr.CodeTxHashInvalid},
			{rechargeOf(1000, "TRC20", strings.Repeat("g", 64)), apierr.CodeTxHashInvalid},
		} {
			_, err := w.Recharge(ctx, jade.ID, c.req)
			wantCode(t, err, c.code, fmt.Sprintf("%+v", c.req))
		}
		_, err := w.Recharge(ctx, jade.ID, rechargeOf(999, "TRC20", tronHash))
		if e := wantCode(t, err, apierr.CodeBelowMinDeposit, "below the minimum"); e.Args["min"] != "10.00" {
			t.Fatalf("min %v", e.Args)
		}
		if after := counts(t, db); after != before {
			t.Fatalf("refused orders wrote: %s -> %s", before, after)
		}

		// Protocol and hash are read in any case; the same order again is
		// the same order; the transaction claimed by another order is not.
		o1, err := w.Recharge(ctx, jade.ID, rechargeOf(2500, " trc20 ", strings.ToUpper(tronHash)))
		if err != nil || o1.Status != storage.OrderUnderReview || o1.Amount != 2500 || o1.Protocol != "TRC20" || o1.TxHash != tronHash || o1.Address != testTRC20 {
			t.Fatalf("order %+v %v", o1, err)
		}
		if again, err := w.Recharge(ctx, jade.ID, rechargeOf(2500, "TRC20", tronHash)); err != nil || again.ID != o1.ID {
			t.Fatalf("resubmitted: %+v %v", again, err)
		}
		_, err = w.Recharge(ctx, jade.ID, rechargeOf(2600, "TRC20", tronHash))
		wantCode(t, err, apierr.CodeTxHashUsed, "another amount on the same transaction")
		_, err = w.Recharge(ctx, mallory.ID, rechargeOf(2500, "TRC20", tronHash))
		wantCode(t, err, apierr.CodeTxHashUsed, "another user's transaction")
		o2, err := w.Recharge(ctx, jade.ID, rechargeOf(1000, "ERC20", "0x"+strings.Repeat("ab", 32)))
		if err != nil || o2.Address != testERC20 {
			t.Fatalf("ERC20 order %+v %v", o2, err)
		}
		if queue, total, err := w.RechargeOrders(ctx, storage.OrderUnderReview, "", 20, 0); err != nil || total != 2 || queue[0].ID != o1.ID || queue[0].Account != "jade" {
			t.Fatalf("queue %+v %d %v", queue, total, err)
		}

		// Confirmed four times at once and again later: credited once,
		// audited once.
		_, err = w.ConfirmRecharge(ctx, op, o1.ID, strings.Repeat("r", 201))
		wantCode(t, err, apierr.CodeInvalid, "a remark over 200 characters")
		clk.Advance(time.Minute)
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if got, err := w.ConfirmRecharge(ctx, op, o1.ID, ""); err != nil || got.Status != storage.OrderCompleted || got.ReviewedAt != clk.Now().UnixMilli() || got.ReviewedBy != op.ID {
					t.Errorf("confirmed %+v %v", got, err)
				}
			}()
		}
		wg.Wait()
		if _, err := w.ConfirmRecharge(ctx, op, o1.ID, ""); err != nil {
			t.Fatalf("confirmed again: %v", err)
		}
		if got := balance(t, db, storage.Wallet(jade.ID)); got != 2500 {
			t.Fatalf("balance %d after confirming five times", got)
		}
		if n := len(audited(t, db, "recharge.confirm", o1.ID)); n != 1 {
			t.Fatalf("%d recharge.confirm entries", n)
		}
		_, err = w.FailRecharge(ctx, op, o1.ID, "late")
		wantCode(t, err, apierr.CodeOrderProcessed, "failing a confirmed order")
		_, err = w.ConfirmRecharge(ctx, op, 424242, "")
		wantCode(t, err, apierr.CodeNotFound, "confirming a missing order")
		_, err = w.FailRecharge(ctx, op, 424242, "")
		wantCode(t, err, apierr.CodeNotFound, "failing a missing order")

		// Failing o2 twice, then confirming it: refused, nothing credited.
		failed, err := w.FailRecharge(ctx, op, o2.ID, "  no such transaction ")
		if err != nil || failed.Status != storage.OrderFailed || failed.Remark != "no such transaction" {
			t.Fatalf("failed %+v %v", failed, err)
		}
		if _, err := w.FailRecharge(ctx, op, o2.ID, ""); err != nil {
			t.Fatalf("failed again: %v", err)
		}
		_, err = w.ConfirmRecharge(ctx, op, o2.ID, "")
		wantCode(t, err, apierr.CodeOrderProcessed, "confirming a failed order")
		if n := len(audited(t, db, "recharge.fail", o2.ID)); n != 1 {
			t.Fatalf("%d recharge.fail entries", n)
		}
		if got := balance(t, db, storage.Wallet(jade.ID)); got != 2500 {
			t.Fatalf("balance %d", got)
		}
		if s, err := w.Summary(ctx, jade.ID); err != nil || s.Balance != 2500 || !s.IsRecharge || s.ExchangeMin != 1000 || s.ExchangeMax != 500_000 {
			t.Fatalf("summary %+v %v", s, err)
		}
		if s, _ := w.Summary(ctx, mallory.ID); s.IsRecharge {
			t.Fatal("a user who never recharged counts as recharged")
		}
		recs, total, err := w.PointsRecords(ctx, jade.ID, storage.FlowIncome, 0, 20, 0)
		if err != nil || total != 2 || recs[0].OrderNo != o2.OrderNo || recs[0].State != storage.OrderFailed || recs[1].State != storage.OrderCompleted || recs[1].Amount != 2500 {
			t.Fatalf("records %+v %d %v", recs, total, err)
		}
		if _, total, _ := w.PointsRecords(ctx, mallory.ID, storage.FlowAll, 0, 20, 0); total != 0 {
			t.Fatalf("mallory sees %d records", total)
		}
		if r := storagetest.CheckLedger(t, db); r.Transfers != 1 {
			t.Fatalf("transfers %d, want 1", r.Transfers)
		}
	})
}

// An order above KJ_RECHARGE_MAX is taken, flagged, and credited only when
// a second, different operator approves it: the first approval is recorded
// and audited, the same operator again is refused, and the credit happens
// once however the approvals race.
func TestRechargeAboveTheMaximumNeedsTwoOperators(t *testing.T) {
	eachWallet(t, func(t *testing.T, w *Wallet) {
		db, ctx := w.DB, t.Context()
		w.Config.RechargeMax = 100_000
		if o := w.RechargeOptions(); o.MaxDeposit != 100_000 || o.Protocols[0].MaxDep != 100_000 {
			t.Fatalf("options %+v", o)
		}
		jade := newUser(t, w, "jade", false)
		otto, olga, oscar := newOperator(t, w, "otto"), newOperator(t, w, "olga"), newOperator(t, w, "oscar")

		atMax, err := w.Recharge(ctx, jade.ID, rechargeOf(100_000, "TRC20", hashN(1)))
		if err != nil {
			t.Fatal(err)
		}
		big, err := w.Recharge(ctx, jade.ID, rechargeOf(100_001, "TRC20", hashN(2)))
		if err != nil || big.Status != storage.OrderUnderReview {
			t.Fatalf("above the maximum: %+v %v, want it taken under review", big, err)
		}
		approvals, err := w.RechargeApprovals(ctx, []int64{atMax.ID, big.ID})
		if err != nil || len(approvals) != 1 || approvals[big.ID].FirstBy != 0 {
			t.Fatalf("approvals %+v %v: want only the order above the maximum flagged", approvals, err)
		}

		// At the maximum one operator credits.
		if o, err := w.ConfirmRecharge(ctx, otto, atMax.ID, ""); err != nil || o.Status != storage.OrderCompleted {
			t.Fatalf("at the maximum: %+v %v", o, err)
		}
		// Above it, the first approval is recorded and credits nothing.
		o, err := w.ConfirmRecharge(ctx, otto, big.ID, "seen on chain")
		if err != nil || o.Status != storage.OrderUnderReview {
			t.Fatalf("first approval: %+v %v", o, err)
		}
		if a, _ := w.RechargeApprovals(ctx, []int64{big.ID}); a[big.ID].FirstBy != otto.ID || a[big.ID].FirstAt == 0 {
			t.Fatalf("first approval not recorded: %+v", a)
		}
		if n := len(audited(t, db, "recharge.approve", big.ID)); n != 1 {
			t.Fatalf("%d recharge.approve entries", n)
		}
		if got := balance(t, db, storage.Wallet(jade.ID)); got != 100_000 {
			t.Fatalf("balance %d after one approval of the large order", got)
		}
		// The same operator cannot give the second approval, however often.
		for range 3 {
			_, err = w.ConfirmRecharge(ctx, otto, big.ID, "")
			wantCode(t, err, apierr.CodeSecondApprovalSame, "the first approver again")
		}
		if got := balance(t, db, storage.Wallet(jade.ID)); got != 100_000 {
			t.Fatalf("balance %d after the first approver tried again", got)
		}
		// Two other operators at once: credited once, audited once.
		var wg sync.WaitGroup
		for _, op := range []Operator{olga, oscar, olga} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if got, err := w.ConfirmRecharge(ctx, op, big.ID, ""); err != nil || got.Status != storage.OrderCompleted {
					t.Errorf("second approval: %+v %v", got, err)
				}
			}()
		}
		wg.Wait()
		if got := balance(t, db, storage.Wallet(jade.ID)); got != 200_001 {
			t.Fatalf("balance %d, want both orders credited once", got)
		}
		if n := len(audited(t, db, "recharge.confirm", big.ID)); n != 1 {
			t.Fatalf("%d recharge.confirm entries", n)
		}
		if o, err := w.ConfirmRecharge(ctx, otto, big.ID, ""); err != nil || o.Status != storage.OrderCompleted {
			t.Fatalf("the first approver after the credit: %+v %v, want the credited order", o, err)
		}

		// A large order failed after its first approval is not credited by a second.
		other, err := w.Recharge(ctx, jade.ID, rechargeOf(500_000, "ERC20", "0x"+hashN(3)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.ConfirmRecharge(ctx, olga, other.ID, ""); err != nil {
			t.Fatal(err)
		}
		if _, err := w.FailRecharge(ctx, oscar, other.ID, "no such transfer"); err != nil {
			t.Fatal(err)
		}
		_, err = w.ConfirmRecharge(ctx, otto, other.ID, "")
		wantCode(t, err, apierr.CodeOrderProcessed, "a second approval of a failed order")
		if r := storagetest.CheckLedger(t, db); r.Transfers != 2 {
			t.Fatalf("transfers %d, want 2", r.Transfers)
		}
	})
}
