package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"kj/auth"
	"kj/internal/apierr"
	"kj/internal/bus"
	"kj/storage"
	"kj/storage/storagetest"
)

// newOperator stores an operator with password "abc123" and signs it in
// through /accountLogin, as operators do.
func newOperator(t *testing.T, s *Server, account string) (storage.User, auth.Tokens) {
	t.Helper()
	now := s.Clock.Now().UnixMilli()
	op := storage.User{ID: storage.NewID(), Account: account, PasswordHash: testPasswordHash(t), Nickname: account,
		InviteCode: "pro_" + account, IsOperator: 1, IsActivation: 1, CreatedAt: now, UpdatedAt: now}
	if err := storage.CreateUser(context.Background(), s.DB, op); err != nil {
		t.Fatal(err)
	}
	return op, mustLogin(t, s, account, "abc123")
}

func TestOperatorRoutes(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, clk := testServer(t, db)
		h := s.Handler()
		alice, aliceTok := newUser(t, s, "alice_a")
		clk.Advance(time.Second)
		bob, _ := newUser(t, s, "bob_b")
		_, opTok := newOperator(t, s, "op_desk")

		// Users never reach operator routes.
		for _, path := range []string{"/api/admin/users", "/api/admin/user", "/api/admin/activateUser"} {
			r := call(t, h, "POST", path, `{"userId":"`+alice.IDString()+`"}`, "token", aliceTok.Token, "Accept-Language", "en-US")
			if r.Code != apierr.CodeOperatorOnly || r.Status != 403 || r.Message != "This page is for operators only" {
				t.Fatalf("%s as a user: %+v", path, r)
			}
			if r := call(t, h, "POST", path, `{}`); r.Code != apierr.CodeTokenExpired {
				t.Fatalf("%s without a token: %+v", path, r)
			}
		}
		if got, _ := storage.UserByID(context.Background(), db, alice.ID); got.IsActivation != 0 {
			t.Fatal("a user activated itself")
		}

		op := func(path, body string) reply {
			return call(t, h, "POST", path, body, "token", opTok.Token, "Accept-Language", "en-US")
		}
		list := data[adminUsersReply](t, op("/api/admin/users", `{}`))
		if list.Total != 3 || len(list.List) != 3 || list.List[0].Account != "op_desk" || list.List[2].Account != "alice_a" ||
			list.Page != 1 || list.PageSize != 20 {
			t.Fatalf("list: %+v", list)
		}
		if list.List[0].LastLoginAt == 0 || list.List[0].LastLoginIP != "192.0.2.1" || list.List[0].IsOperator != 1 {
			t.Fatalf("the operator's last sign-in: %+v", list.List[0])
		}
		if l := data[adminUsersReply](t, op("/api/admin/users", `{"keyword":"B_B"}`)); l.Total != 1 || l.List[0].UserID != bob.IDString() {
			t.Fatalf("keyword: %+v", l)
		}
		if l := data[adminUsersReply](t, op("/api/admin/users", `{"pageSize":1,"page":2}`)); l.Total != 3 || len(l.List) != 1 || l.List[0].Account != "bob_b" {
			t.Fatalf("page 2: %+v", l)
		}
		for body, code := range map[string]int{
			`{"pageSize":101}`: apierr.CodeInvalid, `{"page":-1}`: apierr.CodeInvalid, `{"isActivation":2}`: apierr.CodeInvalid, `{"page":"1"}`: apierr.CodeBadRequest,
		} {
			if r := op("/api/admin/users", body); r.Code != code {
				t.Errorf("%s: %+v", body, r)
			}
		}

		// Find by id (string or number) or account.
		for _, body := range []string{`{"userId":"` + alice.IDString() + `"}`, `{"userId":` + alice.IDString() + `}`, `{"account":"alice_a"}`} {
			if u := data[AdminUser](t, op("/api/admin/user", body)); u.UserID != alice.IDString() || u.Account != "alice_a" || u.SuperiorID != "0" {
				t.Fatalf("find %s: %+v", body, u)
			}
		}
		for body, code := range map[string]int{
			`{}`: apierr.CodeRequired, `{"userId":"12"}`: apierr.CodeAccountUnknown, `{"account":"nobody"}`: apierr.CodeAccountUnknown,
			`{"userId":"abc"}`: apierr.CodeBadRequest, `{"userId":true}`: apierr.CodeBadRequest,
		} {
			if r := op("/api/admin/user", body); r.Code != code {
				t.Errorf("find %s: %+v", body, r)
			}
		}

		// Activate: the user's sockets are told, and /user/mine shows it.
		alicePush := recordBus[bus.Notification](t, s.Bus, bus.UserSubject(alice.IDString()))
		r := op("/api/admin/activateUser", `{"userId":"`+alice.IDString()+`"}`)
		if r.Code != 0 || data[AdminUser](t, r).IsActivation != 1 {
			t.Fatalf("activate: %+v", r)
		}
		if info := data[UserInfo](t, call(t, h, "POST", "/api/user/mine", "{}", "token", aliceTok.Token)); info.IsActivation != 1 {
			t.Fatalf("mine after activation: %+v", info)
		}
		if pushed := alicePush.wait(t, 1); len(pushed) != 1 || pushed[0].Key != UserUpdatedKey || pushed[0].Data != `{"isActivation":1}` {
			t.Fatalf("activation push %+v", pushed)
		}
		if l := data[adminUsersReply](t, op("/api/admin/users", `{"isActivation":0}`)); l.Total != 1 || l.List[0].Account != "bob_b" {
			t.Fatalf("filter not activated: %+v", l)
		}
		for body, code := range map[string]int{
			`{}`: apierr.CodeRequired, `{"userId":"12"}`: apierr.CodeAccountUnknown, `{"userId":"` + bob.IDString() + `","isActivation":5}`: apierr.CodeInvalid,
		} {
			if r := op("/api/admin/activateUser", body); r.Code != code {
				t.Errorf("activate %s: %+v", body, r)
			}
		}
		if r := op("/api/admin/activateUser", `{"userId":"`+alice.IDString()+`","isActivation":0}`); r.Code != 0 || data[AdminUser](t, r).IsActivation != 0 {
			t.Fatalf("deactivate: %+v", r)
		}
	})
}

// Activation is for players: no operator — agent or admin — can set an
// operator's account (admin or agent) to "not activated" through
// /admin/activateUser (an agent could lock an admin out of the app's
// activated features). The refusal is translated, changes nothing and
// records nothing; players are activated and deactivated as before.
func TestActivationRefusesOperatorsAccounts(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, _ := testServer(t, db)
		ctx := context.Background()
		boss, bossTok := newOperator(t, s, "boss_act")
		other, _ := newOperator(t, s, "boss_act2")
		desk, deskTok := newAgent(t, s, "desk_act")
		desk2, _ := newAgent(t, s, "desk_act2")
		pat, _ := newUser(t, s, "pat_act")
		cases := []struct {
			name, token string
			target      storage.User
		}{
			{"agent on an admin", deskTok.Token, boss},
			{"agent on another agent", deskTok.Token, desk2},
			{"agent on itself", deskTok.Token, desk},
			{"admin on another admin", bossTok.Token, other},
			{"admin on an agent", bossTok.Token, desk},
		}
		for _, c := range cases {
			for _, status := range []int{0, 1} {
				r := post(t, s, c.token, "/admin/activateUser", fmt.Sprintf(`{"userId":%q,"isActivation":%d}`, c.target.IDString(), status))
				if r.Code != apierr.CodeRoleRefused || r.Status != http.StatusForbidden ||
					r.Message != "This is an operator's account: only admins change it, under Operators" {
					t.Fatalf("%s, isActivation %d: %+v, want refused", c.name, status, r)
				}
			}
			if u, err := storage.UserByID(ctx, db, c.target.ID); err != nil || u.IsActivation != 1 {
				t.Fatalf("%s: the operator's account is now %+v (%v)", c.name, u, err)
			}
		}
		if es := auditEntries(t, db); len(es) != 0 {
			t.Fatalf("refused activations recorded %+v", es)
		}
		// Players: both roles still activate and deactivate them.
		for _, tok := range []string{deskTok.Token, bossTok.Token} {
			for _, status := range []int{1, 0} {
				var u AdminUser
				ok(t, s, tok, "/admin/activateUser", fmt.Sprintf(`{"userId":%q,"isActivation":%d}`, pat.IDString(), status), &u)
				if got, _ := storage.UserByID(ctx, db, pat.ID); u.IsActivation != status || got.IsActivation != status {
					t.Fatalf("player set to %d: answered %+v, stored %d", status, u, got.IsActivation)
				}
			}
		}
		if es := auditEntries(t, db); len(es) != 4 {
			t.Fatalf("%d audit entries for 4 player changes", len(es))
		}
	})
}
