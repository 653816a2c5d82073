package httpapi

import (
	"fmt"
	"strings"
	"testing"

	"kj/internal/apierr"
	"kj/storage"
	"kj/storage/storagetest"
)

// A recharge above KJ_RECHARGE_MAX over HTTP: the recharge page is told
// the maximum; the order is taken and flagged in the queue; the first
// operator's confirmation records the approval (named in the queue) and
// credits nothing; the same operator again is refused with a translated
// message; another operator's confirmation credits it once; both steps are
// in the audit log. Fractional cents stay refused on the way in.
func TestRechargeAboveTheMaximumOverHTTP(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, _ := walletServer(t, db)
		s.Wallet.Config.RechargeMax = 100_000
		_, tok := newUser(t, s, "jade")
		_, otto := newOperator(t, s, "otto")
		_, olga := newOperator(t, s, "olga")

		var chains struct{ MaxDep int64 }
		ok(t, s, tok.Token, "/user/getChainTypes", `{}`, &chains)
		if chains.MaxDep != 100_000 {
			t.Fatalf("maxDep %d, want 100000", chains.MaxDep)
		}
		order := func(amount string, n int) string {
			return fmt.Sprintf(`{"amount":%s,"protocol":"TRC20","txHash":%q}`, amount, hashN(n))
		}
		for _, fraction := range []string{"100000.5", "1250.25", "1e5"} {
			fails(t, s, tok.Token, "/user/rechargeOrder", order(fraction, 1), apierr.CodeAmountInvalid)
		}
		var big orderJSON
		ok(t, s, tok.Token, "/user/rechargeOrder", order("100001", 1), &big)

		type queued struct {
			ID                  string
			Status              int
			NeedsSecondApproval bool
			FirstApprovedBy     string
		}
		queue := func() queued {
			var q struct{ List []queued }
			ok(t, s, otto.Token, "/admin/recharge/list", `{"status":0}`, &q)
			if len(q.List) != 1 || q.List[0].ID != big.ID {
				t.Fatalf("queue %+v", q)
			}
			return q.List[0]
		}
		if q := queue(); !q.NeedsSecondApproval || q.FirstApprovedBy != "" {
			t.Fatalf("queued %+v, want flagged and not approved yet", q)
		}
		confirm := fmt.Sprintf(`{"orderId":%q}`, big.ID)
		var first queued
		ok(t, s, otto.Token, "/admin/recharge/confirm", confirm, &first)
		if first.Status != storage.OrderUnderReview || !first.NeedsSecondApproval || first.FirstApprovedBy != "otto" {
			t.Fatalf("after the first approval %+v", first)
		}
		if q := queue(); q.FirstApprovedBy != "otto" {
			t.Fatalf("queue after the first approval %+v", q)
		}
		r := fails(t, s, otto.Token, "/admin/recharge/confirm", confirm, apierr.CodeSecondApprovalSame)
		if !strings.Contains(r.Message, "another operator") {
			t.Fatalf("message %q", r.Message)
		}
		var credited queued
		ok(t, s, olga.Token, "/admin/recharge/confirm", confirm, &credited)
		if credited.Status != storage.OrderCompleted || credited.FirstApprovedBy != "otto" {
			t.Fatalf("after the second approval %+v", credited)
		}
		ok(t, s, olga.Token, "/admin/recharge/confirm", confirm, &credited) // again: nothing more
		var w amountReply
		ok(t, s, tok.Token, "/user/getUserAmount", `{}`, &w)
		if w.Amount != 100_001 {
			t.Fatalf("balance %d, want the order credited once", w.Amount)
		}
		for action, want := range map[string]int{"recharge.approve": 1, "recharge.confirm": 1} {
			list, err := storage.ListAudit(t.Context(), db, storage.AuditFilter{Action: action, Target: big.ID}, 10, 0)
			if err != nil || len(list) != want {
				t.Fatalf("%s: %d entries %v, want %d", action, len(list), err, want)
			}
		}
	})
}
