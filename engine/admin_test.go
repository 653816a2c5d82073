package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"kj/auth"
	"kj/engine/seed"
	"kj/storage"
	"kj/storage/storagetest"
)

func post(t *testing.T, url, token, body string) (code int, data json.RawMessage) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(body))
	req.Header.Set("token", token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var env struct {
		Code int             `json:"code"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		t.Fatal(err)
	}
	return env.Code, env.Data
}

// An operator made by `kj admin create-operator` beside a running node
// signs in through the API and reaches the operator routes.
func TestCreateOperatorBesideARunningNode(t *testing.T) {
	dir := t.TempDir()
	base := startNode(t, map[string]string{"KJ_DATA_DIR": dir})
	var out bytes.Buffer
	err := Admin([]string{"create-operator", "--account", "op_chief", "--password=-", "--data-dir", dir},
		strings.NewReader("s3cret99\n"), &out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "operator op_chief (admin) created") || strings.Contains(out.String(), "s3cret99") {
		t.Fatalf("output %q", out.String())
	}
	code, data := post(t, base+"/api/accountLogin", "", `{"account":"op_chief","password":"s3cret99","platform":5}`)
	if code != 0 {
		t.Fatalf("operator sign-in: %d %s", code, data)
	}
	var tok auth.Tokens
	json.Unmarshal(data, &tok)
	if code, data := post(t, base+"/api/admin/users", tok.Token, `{"keyword":"op_chief"}`); code != 0 || !strings.Contains(string(data), `"isOperator":1`) {
		t.Fatalf("operator route: %d %s", code, data)
	}
	if code, data := post(t, base+"/api/register", "", `{"account":"plain_user","password":"abc123"}`); code != 0 {
		t.Fatalf("register: %d %s", code, data)
	}
	if code, data = post(t, base+"/api/accountLogin", "", `{"account":"plain_user","password":"abc123","platform":5}`); code != 0 {
		t.Fatalf("user sign-in: %d %s", code, data)
	}
	json.Unmarshal(data, &tok)
	if code, _ := post(t, base+"/api/admin/users", tok.Token, `{}`); code != 1003 {
		t.Fatalf("a user on an operator route: %d", code)
	}
	// A second run with the same account changes nothing.
	if err := Admin([]string{"create-operator", "--account", "op_chief", "--password", "other123", "--data-dir", dir}, nil, &out); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("duplicate: %v", err)
	}
	if code, _ := post(t, base+"/api/accountLogin", "", `{"account":"op_chief","password":"s3cret99","platform":1}`); code != 0 {
		t.Fatal("the first password must still work")
	}
}

func TestCreateOperatorOnPostgres(t *testing.T) {
	db, url := storagetest.PostgresURL(t)
	var out bytes.Buffer
	if err := Admin([]string{"create-operator", "--database-url", url, "--account=pg_op", "--password", "abc123"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	u, err := storage.UserByAccount(context.Background(), db, "pg_op")
	if err != nil || u.IsOperator != 1 || u.IsActivation != 1 || !strings.HasPrefix(u.InviteCode, "pro_") || !auth.CheckPassword(u.PasswordHash, "abc123") {
		t.Fatalf("stored %+v %v", u, err)
	}
	if role, _ := storage.OperatorRole(context.Background(), db, u.ID); role != storage.OperatorAdmin {
		t.Fatalf("without --role: %q, want admin", role)
	}
	if err := Admin([]string{"create-operator", "--database-url", url, "--account=pg_agent", "--password", "abc123", "--role=agent"}, nil, &out); err != nil {
		t.Fatal(err)
	}
	a, _ := storage.UserByAccount(context.Background(), db, "pg_agent")
	if role, _ := storage.OperatorRole(context.Background(), db, a.ID); role != storage.OperatorAgent || !strings.Contains(out.String(), "pg_agent (agent) created") {
		t.Fatalf("--role=agent: %q, output %q", role, out.String())
	}
}

func TestCreateOperatorRefusesBadInput(t *testing.T) {
	db := storagetest.SQLite(t)
	ctx := context.Background()
	cases := map[[2]string]string{
		{"ab", "abc123"}:       "--account: Account must be 4-20 letters, digits or underscores",
		{"good_op", "abcdef"}:  "--password: Password must contain digits",
		{"good_op", "12345"}:   "--password: Password must be 6-20 characters",
		{"bad-name", "abc123"}: "--account: Account must be 4-20 letters, digits or underscores",
	}
	for in, want := range cases {
		if _, err := CreateOperator(ctx, db, time.Now(), in[0], in[1], storage.OperatorAgent); err == nil || err.Error() != want {
			t.Errorf("%v: %v, want %q", in, err, want)
		}
	}
	if _, err := CreateOperator(ctx, db, time.Now(), "good_op", "abc123", "owner"); err == nil || !strings.HasPrefix(err.Error(), "--role: ") {
		t.Errorf("unknown role: %v", err)
	}
	for _, args := range [][]string{
		{"create-operator", "--password", "abc123"},
		{"create-operator", "--account", "good_op"},
		{"create-operator", "--account"},
		{"create-operator", "--account", "good_op", "--password", "abc123", "--role", "owner"},
		{"remove-everything"},
	} {
		if err := Admin(args, nil, &bytes.Buffer{}); err == nil {
			t.Errorf("%v: want an error", args)
		}
	}
	var n int64
	db.QueryRow(ctx, `SELECT COUNT(*) FROM users`).Scan(&n)
	if n != 0 {
		t.Fatalf("refusals wrote %d users", n)
	}
}

// An operator made by `kj admin create-operator` leaves its audit row on
// either store: by no operator (0, the console shows "cli"), from "cli",
// naming the system account that ran it, on the new operator's id, with
// before null (a creation) and the account and role after. `kj seed
// --demo`'s row has the same shape.
func TestCommandLineAuditRows(t *testing.T) {
	storagetest.EachServed(t, func(t *testing.T, db storage.DB, env map[string]string) {
		ctx := context.Background()
		if _, err := seed.Demo(ctx, db, t.TempDir(), time.Now()); err != nil {
			t.Fatal(err)
		}
		storeFlag := []string{"--data-dir", env["KJ_DATA_DIR"]}
		if url := env["KJ_DATABASE_URL"]; url != "" {
			storeFlag = []string{"--database-url", url}
		}
		if err := Admin(append([]string{"create-operator", "--account", "cli_chief", "--password", "abc123", "--role", "agent"}, storeFlag...), nil, &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
		u, err := storage.UserByAccount(ctx, db, "cli_chief")
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []struct {
			action, target, after string
			operator              int64
		}{
			{"operator.create", u.IDString(), `{"account":"cli_chief","role":"agent"}`, 0},
			{"demo.seed", "demo", "", -1},
		} {
			es, err := storage.ListAudit(ctx, db, storage.AuditFilter{Action: want.action}, 10, 0)
			if err != nil || len(es) != 1 {
				t.Fatalf("%s rows: %+v (%v)", want.action, es, err)
			}
			e := es[0]
			var d struct {
				IP     string          `json:"ip"`
				OSUser string          `json:"osUser"`
				Before json.RawMessage `json:"before"`
				After  json.RawMessage `json:"after"`
			}
			if err := json.Unmarshal([]byte(e.Detail), &d); err != nil {
				t.Fatalf("%s: detail %q", want.action, e.Detail)
			}
			if e.Target != want.target || d.IP != "cli" || string(d.Before) != "null" || len(d.After) == 0 || string(d.After) == "null" ||
				(want.after != "" && string(d.After) != want.after) || (want.operator >= 0 && e.OperatorID != want.operator) {
				t.Fatalf("%s row: %+v, detail %s", want.action, e, e.Detail)
			}
			if want.action == "operator.create" && d.OSUser == "" {
				t.Fatalf("the command line's row names no system account: %s", e.Detail)
			}
		}
	})
}
