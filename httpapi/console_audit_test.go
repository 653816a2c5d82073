package httpapi

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"kj/internal/apierr"
	"kj/storage"
	"kj/storage/storagetest"
)

// The console's tools for a day's work (issue 35 #11, #12): the order
// search shows a recharge's second-approval state as the queue does; the
// audit log is filtered by any part of the operator's account, names the
// order number of the order a row is about, and lists every action it
// records with a name in words for the action picker.
func TestConsoleOrderSearchAndAuditFilters(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, _ := walletServer(t, db)
		s.Wallet.Config.RechargeMax = 100_000
		_, tok := newUser(t, s, "jade_search")
		_, otto := newOperator(t, s, "otto_desk")
		var big orderJSON
		ok(t, s, tok.Token, "/user/rechargeOrder", fmt.Sprintf(`{"amount":100001,"protocol":"TRC20","txHash":%q}`, hashN(7)), &big)
		ok(t, s, otto.Token, "/admin/recharge/confirm", fmt.Sprintf(`{"orderId":%q}`, big.ID), nil)

		var found struct {
			Total int
			List  []struct {
				OrderNo             string
				NeedsSecondApproval bool
				FirstApprovedBy     string
			}
		}
		ok(t, s, otto.Token, "/admin/orders/search", `{"kind":"recharge","keyword":"JADE_S"}`, &found)
		if found.Total != 1 || found.List[0].OrderNo != big.OrderNo || !found.List[0].NeedsSecondApproval || found.List[0].FirstApprovedBy != "otto_desk" {
			t.Fatalf("search %+v, want the order flagged and approved first by otto_desk", found)
		}

		type row struct {
			Action  string
			Reading auditReading
		}
		audit := func(body string) []row {
			var l struct{ List []row }
			ok(t, s, otto.Token, "/admin/audit/list", body, &l)
			return l.List
		}
		rows := audit(`{"operator":"TO_D","action":"recharge.approve"}`)
		if len(rows) != 1 || rows[0].Reading.OrderID != big.ID || rows[0].Reading.OrderNo != big.OrderNo {
			t.Fatalf("by part of the operator's account: %+v, want order %s", rows, big.OrderNo)
		}
		for _, other := range []string{`{"operator":"olga"}`, `{"operator":"otto%"}`} {
			if rows := audit(other); len(rows) != 0 {
				t.Fatalf("%s: %+v", other, rows)
			}
		}

		for _, lang := range apierr.Langs {
			var actions struct {
				List []struct{ Action, Name string }
			}
			r := post(t, s, otto.Token, "/admin/audit/actions", `{}`, "Accept-Language", lang)
			if r.Code != 0 || json.Unmarshal(r.Data, &actions) != nil {
				t.Fatalf("%s: %d %s", lang, r.Code, r.Message)
			}
			if len(actions.List) != len(auditActions) {
				t.Fatalf("%s: %d actions, want %d", lang, len(actions.List), len(auditActions))
			}
			for _, a := range actions.List {
				if _, known := auditActions[a.Action]; !known || a.Name == "" || a.Name == a.Action || strings.ContainsAny(a.Name, "{}") {
					t.Errorf("%s: %s named %q", lang, a.Action, a.Name)
				}
			}
		}
	})
}
