package httpapi

import (
	"context"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"kj/auth"
	"kj/internal/apierr"
	"kj/storage"
	"kj/storage/storagetest"
)

// documentedRoleTable reads docs/API.md's table of /api/admin routes and
// the roles allowed on each.
func documentedRoleTable(t *testing.T) map[string][]string {
	t.Helper()
	b, err := os.ReadFile("../docs/API.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `(/admin/[A-Za-z/]+)` \\| ((?:admin|agent)(?:, (?:admin|agent))*) \\|$")
	table := map[string][]string{}
	for _, m := range row.FindAllStringSubmatch(string(b), -1) {
		table[m[1]] = strings.Split(m[2], ", ")
	}
	return table
}

// newAgent stores an agent (operator with role agent) and signs it in.
func newAgent(t *testing.T, s *Server, account string) (storage.User, auth.Tokens) {
	t.Helper()
	u, _ := newOperator(t, s, account)
	if err := storage.SetOperatorRole(context.Background(), s.DB, u.ID, storage.OperatorAgent, 1); err != nil {
		t.Fatal(err)
	}
	return u, mustLogin(t, s, account, "abc123")
}

// Every /api/admin route × {admin, agent, player, none} is allowed or
// refused exactly as docs/API.md's role table says; the table lists every
// route. A refused call is refused before its handler runs, so it changes
// nothing.
func TestEveryAdminRouteByRole(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		table := documentedRoleTable(t)
		_, adminTok := newOperator(t, s, "boss_a")
		_, agentTok := newAgent(t, s, "desk_a")
		_, playerTok := newUser(t, s, "pat_a")
		seen := 0
		for _, r := range s.Routes() {
			if !strings.HasPrefix(r.Path, "/admin/") {
				continue
			}
			seen++
			roles, listed := table[r.Path]
			if !listed {
				t.Errorf("%s is missing from docs/API.md's role table", r.Path)
				continue
			}
			if r.Access != Operator {
				t.Errorf("%s is not an operator route", r.Path)
			}
			agentAllowed := false
			for _, role := range roles {
				agentAllowed = agentAllowed || role == "agent"
			}
			if agentAllowed != RoleAllows(storage.OperatorAgent, r.Path) {
				t.Errorf("%s: docs/API.md says agent=%v, the server %v", r.Path, agentAllowed, !agentAllowed)
			}
			path := "/api" + r.Path
			if got := call(t, h, r.Method, path, `{}`); got.Code != apierr.CodeTokenExpired {
				t.Errorf("%s without a token: %d, want 401", r.Path, got.Code)
			}
			if got := call(t, h, r.Method, path, `{}`, "token", playerTok.Token); got.Code != apierr.CodeOperatorOnly || got.Status != 403 {
				t.Errorf("%s as a player: %d/%d, want 1003/403", r.Path, got.Code, got.Status)
			}
			refused := func(got reply) bool {
				return got.Status == 403 || got.Code == apierr.CodeRoleRefused || got.Code == apierr.CodeOperatorOnly || got.Code == apierr.CodeTokenExpired
			}
			got := call(t, h, r.Method, path, `{}`, "token", agentTok.Token)
			switch {
			case agentAllowed && refused(got):
				t.Errorf("%s as an agent: refused %d/%d, want allowed", r.Path, got.Code, got.Status)
			case !agentAllowed && (got.Code != apierr.CodeRoleRefused || got.Status != 403):
				t.Errorf("%s as an agent: %d/%d, want 1010/403", r.Path, got.Code, got.Status)
			}
			if got := call(t, h, r.Method, path, `{}`, "token", adminTok.Token); refused(got) {
				t.Errorf("%s as an admin: refused %d/%d", r.Path, got.Code, got.Status)
			}
		}
		if seen != len(table) {
			t.Errorf("docs/API.md lists %d /admin routes, the server has %d", len(table), seen)
		}
		if seen < 55 {
			t.Errorf("only %d /admin routes registered", seen)
		}
	})
}

// An admin creates an agent, who signs in with its role, may not manage
// operators, and whose role change applies to its very next call.
func TestOperatorsCreatedByAnAdmin(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		boss, adminTok := newOperator(t, s, "boss_b")
		var created operatorView
		ok(t, s, adminTok.Token, "/admin/operators/create", `{"account":"desk_b","password":"pass1234","role":"agent"}`, &created)
		if created.Role != "agent" || created.Account != "desk_b" {
			t.Fatalf("created %+v", created)
		}
		// A taken account.
		fails(t, s, adminTok.Token, "/admin/operators/create", `{"account":"desk_b","password":"pass1234","role":"agent"}`, apierr.CodeAccountExists)
		// An unknown role.
		fails(t, s, adminTok.Token, "/admin/operators/create", `{"account":"desk_c","password":"pass1234","role":"root"}`, apierr.CodeInvalid)
		agentTok := mustLogin(t, s, "desk_b", "pass1234")
		var me adminMeView
		ok(t, s, agentTok.Token, "/admin/me", `{}`, &me)
		if me.Role != "agent" || me.Account != "desk_b" {
			t.Fatalf("me %+v", me)
		}
		// An agent may not create an admin.
		fails(t, s, agentTok.Token, "/admin/operators/create", `{"account":"desk_d","password":"pass1234","role":"admin"}`, apierr.CodeRoleRefused)
		// An admin may not demote itself.
		fails(t, s, adminTok.Token, "/admin/operators/role", `{"userId":"`+boss.IDString()+`","role":"agent"}`, apierr.CodeInvalid)
		ok(t, s, adminTok.Token, "/admin/operators/role", `{"userId":"`+created.UserID+`","role":"admin"}`, nil)
		// The promoted agent's very next call has the admin role.
		ok(t, s, agentTok.Token, "/admin/operators/list", `{}`, nil)
		entries, _ := storage.ListAudit(context.Background(), db, storage.AuditFilter{Operator: "boss_b"}, 10, 0)
		if len(entries) != 2 || entries[1].Action != "operator.create" || entries[0].Action != "operator.role" || entries[1].Target != created.UserID {
			t.Fatalf("audit %+v", entries)
		}
	})
}

// Freezing a player ends its sessions at once and refuses sign-in until an
// operator unfreezes it; both are audited. Operators cannot be frozen here.
func TestFreezeEndsSessionsAndRefusesSignIn(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		_, agentTok := newAgent(t, s, "desk_f")
		boss, _ := newOperator(t, s, "boss_f")
		pat, patTok := newUser(t, s, "pat_f")
		id := pat.IDString()
		// A freeze needs a reason.
		fails(t, s, agentTok.Token, "/admin/user/freeze", `{"userId":"`+id+`","frozen":1}`, apierr.CodeRequired)
		// A refused freeze leaves the player signed in.
		ok(t, s, patTok.Token, "/user/mine", `{}`, nil)
		r := call(t, h, "POST", "/api/admin/user/freeze", `{"userId":"`+id+`","frozen":1,"reason":"chargeback"}`, "token", agentTok.Token)
		if r.Code != 0 || !strings.Contains(string(r.Data), `"sessionsEnded":1`) {
			t.Fatalf("freeze: %+v", r)
		}
		// The frozen player's token is refused at once.
		fails(t, s, patTok.Token, "/user/mine", `{}`, apierr.CodeTokenExpired)
		if r := login(t, s, "pat_f", "abc123", 5); r.Code != apierr.CodeAccountFrozen || !strings.Contains(r.Message, "frozen") {
			t.Fatalf("frozen sign-in: %+v", r)
		}
		var detail userDetailView
		ok(t, s, agentTok.Token, "/admin/user/detail", `{"userId":"`+id+`"}`, &detail)
		if !detail.Frozen || len(detail.SignIns) != 1 || detail.SignIns[0].State != storage.SessionSignedOut {
			t.Fatalf("detail %+v", detail)
		}
		// Operators cannot be frozen here.
		fails(t, s, agentTok.Token, "/admin/user/freeze", `{"userId":"`+boss.IDString()+`","frozen":1,"reason":"x"}`, apierr.CodeRoleRefused)
		ok(t, s, agentTok.Token, "/admin/user/freeze", `{"userId":"`+id+`","frozen":0}`, nil)
		mustLogin(t, s, "pat_f", "abc123")
		entries, _ := storage.ListAudit(context.Background(), db, storage.AuditFilter{Target: id}, 10, 0)
		if len(entries) != 2 || entries[0].Action != "user.unfreeze" || entries[1].Action != "user.freeze" || entries[1].Operator != "desk_f" ||
			!strings.Contains(entries[1].Detail, "chargeback") {
			t.Fatalf("audit %+v", entries)
		}
	})
}

func TestResetFundPassword(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		_, agentTok := newAgent(t, s, "desk_r")
		pat, _ := newUser(t, s, "pat_r")
		ctx := context.Background()
		if _, err := storage.SetFundPasswordHash(ctx, db, pat.ID, "", "some-hash", 1); err != nil {
			t.Fatal(err)
		}
		body := `{"userId":"` + pat.IDString() + `","reason":"forgot it"}`
		if r := call(t, h, "POST", "/api/admin/user/resetFundPassword", body, "token", agentTok.Token); r.Code != 0 || !strings.Contains(string(r.Data), `"reset":true`) {
			t.Fatalf("reset: %+v", r)
		}
		if u, _ := storage.UserByID(ctx, db, pat.ID); u.FundPasswordHash != "" {
			t.Fatal("the fund password stayed")
		}
		if r := call(t, h, "POST", "/api/admin/user/resetFundPassword", body, "token", agentTok.Token); r.Code != 0 || !strings.Contains(string(r.Data), `"reset":false`) {
			t.Fatalf("second reset: %+v", r)
		}
		fails(t, s, agentTok.Token, "/admin/user/resetFundPassword", `{"userId":"12345"}`, apierr.CodeAccountUnknown)
		if n, _ := storage.CountAudit(ctx, db, storage.AuditFilter{Action: "user.fundPassword.reset"}); n != 1 {
			t.Fatalf("%d audit entries, want 1 (nothing to reset is not an action)", n)
		}
	})
}

// The dashboard counts today's registrations and active players, not
// operators, and answers one line per day.
func TestDashboardCountsPlayers(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, clk := testServer(t, db)
		_, agentTok := newAgent(t, s, "desk_d")
		newUser(t, s, "pat_d1")
		newUser(t, s, "pat_d2")
		var d dashboardView
		ok(t, s, agentTok.Token, "/admin/dashboard", `{"days":3}`, &d)
		today := clk.Now().UTC().Format("2006-01-02")
		if len(d.Days) != 3 || d.To != today || d.Days[2].Day != today || d.Days[2].Registrations != 2 || d.Days[2].ActiveUsers != 2 || d.Days[0].Registrations != 0 {
			t.Fatalf("days %+v", d.Days)
		}
		fails(t, s, agentTok.Token, "/admin/dashboard", `{"days":40}`, apierr.CodeInvalid)
	})
}

// A conversation handed to another agent moves to that agent's inbox, with
// an audit entry.
func TestCustomerHandover(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		first, firstTok := newAgent(t, s, "desk_h1")
		second, secondTok := newAgent(t, s, "desk_h2")
		pat, _ := newUser(t, s, "pat_h")
		ctx := context.Background()
		v := storage.Visitor{ID: storage.NewID(), UserID: pat.ID, AgentID: first.ID, CreatedAt: 1, LastMessageAt: 1}
		if err := storage.CreateVisitor(ctx, db, v); err != nil {
			t.Fatal(err)
		}
		no := strconv.FormatInt(v.ID, 10)
		// A conversation cannot be handed to a player.
		fails(t, s, firstTok.Token, "/admin/customer/handover", `{"visitorNo":"`+no+`","serviceId":"`+pat.IDString()+`"}`, apierr.CodeInvalid)
		ok(t, s, firstTok.Token, "/admin/customer/handover", `{"visitorNo":"`+no+`","serviceId":"`+second.IDString()+`"}`, nil)
		mine := call(t, h, "POST", "/api/admin/customer/visitors", `{}`, "token", secondTok.Token)
		if mine.Code != 0 || !strings.Contains(string(mine.Data), no) {
			t.Fatalf("the second agent's inbox: %+v", mine)
		}
		if got, _ := storage.VisitorByID(ctx, db, v.ID); got.AgentID != second.ID {
			t.Fatalf("visitor agent %d", got.AgentID)
		}
		if n, _ := storage.CountAudit(ctx, db, storage.AuditFilter{Action: "customer.handover", Target: no}); n != 1 {
			t.Fatalf("%d audit entries", n)
		}
	})
}
