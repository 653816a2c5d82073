package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"kj/internal/apierr"
	"kj/storage"
)

// An admin disables another operator: their token stops working at once,
// sign-in is refused until enabled again; an admin cannot disable or reset
// themselves; a password reset signs the operator out and only the new
// password signs in. Each change leaves its audit row, never the password.
func TestOperatorsAreDisabledAndTheirPasswordReset(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		admin, adminTok := newOperator(t, s, "ops_admin")
		agent, agentTok := newAgent(t, s, "ops_desk")
		body := func(id int64, rest string) string { return fmt.Sprintf(`{"userId":"%d"%s}`, id, rest) }

		r := post(t, s, adminTok.Token, "/admin/operators/disable", body(agent.ID, `,"disabled":1`))
		var list []operatorView
		if r.Code != 0 || json.Unmarshal(r.Data, &list) != nil {
			t.Fatalf("disable: %d %s", r.Code, r.Message)
		}
		for _, o := range list {
			if (o.UserID == agent.IDString()) != (o.DisabledAt != 0) {
				t.Fatalf("disabled state in the list: %+v", list)
			}
		}
		if r := post(t, s, agentTok.Token, "/admin/me", `{}`); r.Code == 0 {
			t.Fatal("a disabled operator's token still works")
		}
		if r := login(t, s, "ops_desk", "abc123", 5); r.Code != apierr.CodeAccountFrozen {
			t.Fatalf("a disabled operator signed in: %d %s", r.Code, r.Message)
		}
		if r := post(t, s, adminTok.Token, "/admin/operators/disable", body(admin.ID, `,"disabled":1`)); r.Code == 0 ||
			!strings.Contains(r.Message, "own operator account") {
			t.Fatalf("an admin disabled themselves: %d %s", r.Code, r.Message)
		}
		if r := post(t, s, adminTok.Token, "/admin/operators/disable", body(agent.ID, `,"disabled":0`)); r.Code != 0 {
			t.Fatalf("enable: %d %s", r.Code, r.Message)
		}
		agentTok = mustLogin(t, s, "ops_desk", "abc123")

		if r := post(t, s, adminTok.Token, "/admin/operators/resetPassword", body(agent.ID, `,"password":"x"`)); r.Code == 0 {
			t.Fatal("a password against the rules was set")
		}
		if r := post(t, s, adminTok.Token, "/admin/operators/resetPassword", body(admin.ID, `,"password":"newpass99"`)); r.Code == 0 {
			t.Fatal("an admin reset their own password here")
		}
		if r := post(t, s, agentTok.Token, "/admin/operators/resetPassword", body(admin.ID, `,"password":"newpass99"`)); r.Code != apierr.CodeRoleRefused {
			t.Fatalf("an agent reset an admin's password: %d", r.Code)
		}
		if r := post(t, s, adminTok.Token, "/admin/operators/resetPassword", body(agent.ID, `,"password":"newpass99"`)); r.Code != 0 {
			t.Fatalf("reset: %d %s", r.Code, r.Message)
		}
		if r := post(t, s, agentTok.Token, "/admin/me", `{}`); r.Code == 0 {
			t.Fatal("the reset left the operator signed in")
		}
		if r := login(t, s, "ops_desk", "abc123", 5); r.Code == 0 {
			t.Fatal("the old password still signs in")
		}
		mustLogin(t, s, "ops_desk", "newpass99")

		for _, a := range []string{"operator.disable", "operator.enable", "operator.password.reset"} {
			es, err := storage.ListAudit(t.Context(), db, storage.AuditFilter{Action: a}, 10, 0)
			if err != nil || len(es) != 1 || es[0].Target != agent.IDString() || es[0].OperatorID != admin.ID ||
				strings.Contains(es[0].Detail, "newpass99") {
				t.Fatalf("%s rows: %+v %v", a, es, err)
			}
		}
	})
}

// Every action the audit log records reads as a sentence in each of the
// six locales, and a review reads with its amount in points and links to
// its order and player.
func TestEveryAuditActionReadsInEveryLocale(t *testing.T) {
	t.Parallel()
	for a := range auditActions {
		texts, ok := auditTexts[a]
		if !ok {
			t.Errorf("%s has no sentence in auditTexts", a)
			continue
		}
		for i, l := range apierr.Langs {
			if texts[i] == "" || texts[i] == a {
				t.Errorf("%s in %s: %q", a, l, texts[i])
			}
			e := storage.AuditEntry{Action: a, Target: "42", Detail: `{"ip":"cli","before":null,"after":{"amount":12000,"status":1,"userId":"7"}}`}
			if got := readAudit(l, e).Text; strings.ContainsAny(got, "{}") || strings.Contains(got, "12000") {
				t.Errorf("%s in %s reads %q", a, l, got)
			}
		}
	}
	for a := range auditTexts {
		if _, ok := auditActions[a]; !ok {
			t.Errorf("auditTexts has %s, which auditActions does not list", a)
		}
	}
	e := storage.AuditEntry{Action: "recharge.confirm", Target: "9001",
		Detail: `{"ip":"198.51.100.7","before":{"status":0,"amount":12000,"userId":"7305"},"after":{"status":1,"amount":12000,"userId":"7305"},"remark":"ok"}`}
	got := readAudit("en-US", e)
	if got.Text != "Confirmed recharge order 9001 of 120.00" || got.OrderID != "9001" || got.UserID != "7305" || got.Remark != "ok" ||
		len(got.Changes) != 1 || got.Changes[0] != (auditFieldChange{"status", "under review", "completed"}) {
		t.Fatalf("en-US: %+v", got)
	}
	if zh := readAudit("zh-CN", e); zh.Text != "确认了充值订单 9001，金额 120.00" || zh.Changes[0].After != "已完成" {
		t.Fatalf("zh-CN: %+v", zh)
	}
}
