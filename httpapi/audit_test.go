package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"kj/actors/window"
	"kj/storage"
	"kj/storage/storagetest"
)

// auditEntries lists every audit entry, oldest first.
func auditEntries(t *testing.T, db storage.DB) []storage.AuditEntry {
	t.Helper()
	es, err := storage.ListAudit(context.Background(), db, storage.AuditFilter{}, 1000, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
		es[i], es[j] = es[j], es[i]
	}
	return es
}

// TestOperatorActionsOnMoneyMembershipAndRulesAreAuditedOnce: each operator
// route that changes money, membership or rules leaves exactly one audit
// entry naming the operator, the object, the values before and after and
// the client address.
func TestOperatorActionsOnMoneyMembershipAndRulesAreAuditedOnce(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, clk := walletServer(t, db)
		ctx := context.Background()
		if err := storage.EnsureRoundWindows(ctx, db, 1, storage.RoundWindow{OddsBP: 19800, MinBet: 100, MaxBet: 100000,
			BettingMs: 60000, DrawingMs: 10000, RestMs: 20000}, clk.Now().UnixMilli()); err != nil {
			t.Fatal(err)
		}
		s.Rounds = &window.Rounds{DB: db, Ledger: window.StoreLedger{}, Clock: clk}
		s.Config.TrustProxy = true // the address comes from the proxy's X-Forwarded-For
		u, tok := newUser(t, s, "audit_kim")
		op, opTok := newOperator(t, s, "audit_op")
		setFundPassword(t, s, tok.Token)
		card := bindCard(t, s, tok.Token, "4000123412341234")
		order := func() string {
			var o orderJSON
			ok(t, s, tok.Token, "/user/rechargeOrder", fmt.Sprintf(`{"amount":5000,"protocol":"TRC20","txHash":%q}`, hashN(int(clk.Now().UnixNano()%1000))), &o)
			clk.Advance(1)
			return o.ID
		}
		exchange := func() string {
			var o orderJSON
			ok(t, s, tok.Token, "/user/exchange", fmt.Sprintf(`{"amount":1000,"bankCardId":%q,"fundPassword":"123456"}`, card), &o)
			return o.ID
		}
		confirmed := order()
		failed := order()
		// Money for the exchanges, credited by a confirmed recharge (audited
		// like any other).
		cases := []struct {
			path, action string
			body         func() string
			target       func() string
		}{
			{"/admin/recharge/confirm", "recharge.confirm", func() string { return fmt.Sprintf(`{"orderId":%q}`, confirmed) }, func() string { return confirmed }},
			{"/admin/recharge/fail", "recharge.fail", func() string { return fmt.Sprintf(`{"orderId":%q,"remark":"no such transfer"}`, failed) }, func() string { return failed }},
			{"/admin/exchange/complete", "exchange.complete", nil, nil},
			{"/admin/exchange/fail", "exchange.fail", nil, nil},
			{"/admin/activateUser", "user.activation", func() string { return fmt.Sprintf(`{"userId":%q,"isActivation":1}`, u.IDString()) }, func() string { return u.IDString() }},
			{"/admin/windows/update", "window.rules", func() string { return `{"windowId":1,"odds":"1.95","maxBet":50000}` }, func() string { return "1" }},
			{"/admin/bank/add", "bank.add", func() string { return `{"name":"Banco Auditado","country":"ES","sort":9}` }, nil},
			{"/admin/bank/update", "bank.update", nil, nil},
			// The console's routes audit themselves (without before/after):
			// still one entry each.
			{"/admin/user/resetFundPassword", "user.fundPassword.reset", func() string { return fmt.Sprintf(`{"userId":%q,"reason":"forgot it"}`, u.IDString()) }, func() string { return u.IDString() }},
			{"/admin/user/freeze", "user.freeze", func() string { return fmt.Sprintf(`{"userId":%q,"frozen":1,"reason":"spam"}`, u.IDString()) }, func() string { return u.IDString() }},
		}
		var bankID string
		for _, c := range cases {
			var body, target string
			switch c.action {
			case "exchange.complete", "exchange.fail":
				id := exchange()
				body, target = fmt.Sprintf(`{"orderId":%q,"remark":"checked"}`, id), id
			case "bank.update":
				body, target = fmt.Sprintf(`{"id":%q,"name":"Banco Auditado 2","country":"ES","sort":9,"enabled":1}`, bankID), bankID
			default:
				body = c.body()
				if c.target != nil {
					target = c.target()
				}
			}
			before := len(auditEntries(t, db))
			r := post(t, s, opTok.Token, c.path, body, "X-Forwarded-For", "203.0.113.7")
			if r.Code != 0 {
				t.Fatalf("%s %s: %d %s", c.path, body, r.Code, r.Message)
			}
			if c.action == "bank.add" {
				var b struct {
					ID string `json:"id"`
				}
				if err := json.Unmarshal(r.Data, &b); err != nil {
					t.Fatalf("bank add: %s", r.Data)
				}
				bankID, target = b.ID, b.ID
			}
			es := auditEntries(t, db)
			if len(es) != before+1 {
				t.Fatalf("%s left %d audit entries, want 1", c.path, len(es)-before)
			}
			e := es[len(es)-1]
			var d map[string]any
			if err := json.Unmarshal([]byte(e.Detail), &d); err != nil {
				t.Fatalf("%s: detail %q", c.path, e.Detail)
			}
			console := strings.HasPrefix(c.path, "/admin/user/")
			if e.Action != c.action || e.OperatorID != op.ID || e.Target != target || d["ip"] != "203.0.113.7" ||
				!console && ((d["before"] == nil) != (c.action == "bank.add") || d["after"] == nil) {
				t.Fatalf("%s: entry %+v (detail %s); want action %s by %d on %s with ip, before and after", c.path, e, e.Detail, c.action, op.ID, target)
			}
			// A repeated press changes nothing and records nothing.
			if strings.HasPrefix(c.action, "recharge.") || strings.HasPrefix(c.action, "exchange.") || c.action == "user.freeze" {
				post(t, s, opTok.Token, c.path, body)
				if n := len(auditEntries(t, db)); n != before+1 {
					t.Fatalf("%s pressed twice left %d entries, want 1", c.path, n-before)
				}
			}
		}
	})
}
