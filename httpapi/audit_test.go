package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"image"
	"image/png"
	"io/fs"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"kj/actors/window"
	"kj/internal/apierr"
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
	t.Parallel()
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
			if e.Action != c.action || e.OperatorID != op.ID || e.Target != target || d["ip"] != "203.0.113.7" ||
				(d["before"] == nil) != (c.action == "bank.add") || d["after"] == nil {
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

// auditActionsWritten reads the module's Go sources (tests left out) for
// the audit actions the code writes: the string literals given to the
// functions that write rows (RecordOperatorAction, recordAudit,
// storage.RecordAudit, the Audit hooks of the wallet and of customer
// service), assigned to a variable named action, and the kinds given to
// contentSave (kind.create, kind.update) and contentDelete (kind.delete).
func auditActionsWritten(t *testing.T) map[string]string {
	t.Helper()
	isAction := regexp.MustCompile(`^[a-z]+(\.[a-zA-Z]+)+$`)
	writers := map[string]bool{"RecordOperatorAction": true, "recordAudit": true, "RecordAudit": true,
		"Reviewed": true, "BankChanged": true, "reviewOrder": true, "Audit": true}
	found := map[string]string{} // action -> where
	fset := token.NewFileSet()
	literal := func(e ast.Expr) (string, bool) {
		if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			v, err := strconv.Unquote(lit.Value)
			return v, err == nil
		}
		return "", false
	}
	callee := func(c *ast.CallExpr) string {
		switch f := c.Fun.(type) {
		case *ast.Ident:
			return f.Name
		case *ast.SelectorExpr:
			return f.Sel.Name
		}
		return ""
	}
	root := ".."
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "node_modules" || n == "testdata" || (strings.HasPrefix(n, ".") && path != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				name := callee(x)
				if name == "RecordAudit" && path != filepath.Join("..", "httpapi", "audit.go") && path != filepath.Join("..", "engine", "seed", "seed.go") {
					t.Errorf("%s: writes an audit row without recordAudit (%s)", path, fset.Position(x.Pos()))
				}
				if (name == "contentSave" || name == "contentDelete") && len(x.Args) > 1 {
					if kind, ok := literal(x.Args[1]); ok {
						suffixes := []string{".create", ".update"}
						if name == "contentDelete" {
							suffixes = []string{".delete"}
						}
						for _, s := range suffixes {
							found[kind+s] = path
						}
					}
				}
				if writers[name] {
					for _, a := range x.Args {
						if v, ok := literal(a); ok && isAction.MatchString(v) {
							found[v] = path
						}
					}
				}
			case *ast.AssignStmt:
				for i, l := range x.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name == "action" && i < len(x.Rhs) {
						if v, ok := literal(x.Rhs[i]); ok && isAction.MatchString(v) {
							found[v] = path
						}
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) < 30 {
		t.Fatalf("only %d audit actions found in the sources: has a writer been renamed?", len(found))
	}
	return found
}

// auditRowShape checks one row: its operator, the address it came from,
// the object it names, and before and after both written out — before null
// exactly for a creation, after null exactly for a deletion.
func auditRowShape(t *testing.T, e storage.AuditEntry, operatorID int64, address, target string, creation, deletion bool) {
	t.Helper()
	var d map[string]json.RawMessage
	if err := json.Unmarshal([]byte(e.Detail), &d); err != nil {
		t.Fatalf("%s: detail %q is not an object", e.Action, e.Detail)
	}
	before, hasBefore := d["before"]
	after, hasAfter := d["after"]
	switch {
	case e.OperatorID != operatorID:
		t.Errorf("%s: operator %d, want %d", e.Action, e.OperatorID, operatorID)
	case string(d["ip"]) != strconv.Quote(address):
		t.Errorf("%s: ip %s, want %q (detail %s)", e.Action, d["ip"], address, e.Detail)
	case e.Target == "" || (target != "" && e.Target != target):
		t.Errorf("%s: target %q, want %q", e.Action, e.Target, target)
	case !hasBefore || !hasAfter:
		t.Errorf("%s: detail %s lacks before or after", e.Action, e.Detail)
	case (string(before) == "null") != creation:
		t.Errorf("%s: before %s (creation %v)", e.Action, before, creation)
	case (string(after) == "null") != deletion:
		t.Errorf("%s: after %s (deletion %v)", e.Action, after, deletion)
	}
}

// TestEveryAuditActionRecordsWhoWhereWhatBeforeAndAfter: the actions the
// code writes (read from the sources) are exactly those auditActions
// lists, and every one of them, made through its route, leaves one row
// that names the operator, the client address, the object, and the
// object's values before and after (before null only for a creation,
// after null only for a deletion). demo.seed (kj seed --demo) and the
// command line's operator.create are checked in engine's tests.
func TestEveryAuditActionRecordsWhoWhereWhatBeforeAndAfter(t *testing.T) {
	t.Parallel()
	written := auditActionsWritten(t)
	for a, where := range written {
		if _, ok := auditActions[a]; !ok {
			t.Errorf("%s writes audit action %q, which auditActions does not list", where, a)
		}
	}
	for a := range auditActions {
		if _, ok := written[a]; !ok {
			t.Errorf("auditActions lists %q, which no code writes", a)
		}
	}
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, clk := walletServer(t, db)
		ctx := context.Background()
		s.Config.DataDir = t.TempDir()
		if err := storage.EnsureRoundWindows(ctx, db, 1, storage.RoundWindow{OddsBP: 19800, MinBet: 100, MaxBet: 100000,
			BettingMs: 60000, DrawingMs: 10000, RestMs: 20000}, clk.Now().UnixMilli()); err != nil {
			t.Fatal(err)
		}
		s.Rounds = &window.Rounds{DB: db, Ledger: window.StoreLedger{}, Clock: clk}
		s.Config.TrustProxy = true
		const addr = "198.51.100.23"
		op, opTok := newOperator(t, s, "audit_all")
		agent, _ := newAgent(t, s, "audit_desk")
		pat, patTok := newUser(t, s, "audit_pat")
		setFundPassword(t, s, patTok.Token)
		card := bindCard(t, s, patTok.Token, "4000123412341299")
		visitor := storage.Visitor{ID: storage.NewID(), UserID: pat.ID, CreatedAt: 1, LastMessageAt: 1}
		if err := storage.CreateVisitor(ctx, db, visitor); err != nil {
			t.Fatal(err)
		}
		vno := strconv.FormatInt(visitor.ID, 10)
		order := func() string {
			var o orderJSON
			ok(t, s, patTok.Token, "/user/rechargeOrder", fmt.Sprintf(`{"amount":5000,"protocol":"TRC20","txHash":%q}`, hashN(int(clk.Now().UnixNano()%100000))), &o)
			clk.Advance(1)
			return o.ID
		}
		exchange := func() string {
			var o orderJSON
			ok(t, s, patTok.Token, "/user/exchange", fmt.Sprintf(`{"amount":1000,"bankCardId":%q,"fundPassword":"123456"}`, card), &o)
			return o.ID
		}
		img := image.NewRGBA(image.Rect(0, 0, 4, 4))
		var pngData bytes.Buffer
		png.Encode(&pngData, img)

		seen := map[string]bool{}
		// do makes one audited call and checks the one row it leaves; the
		// reply's data is returned for the ids of what it made.
		do := func(action, path, body string, creation, deletion bool, target string) json.RawMessage {
			t.Helper()
			before := len(auditEntries(t, db))
			var r reply
			if path == "/admin/upload" {
				ctype, b := multipartFile(t, "pic.png", pngData.Bytes())
				r = send(t, s.Handler(), request("POST", "/api/admin/upload", b, "Content-Type", ctype, "token", opTok.Token,
					"Accept-Language", "en-US", "X-Forwarded-For", addr))
			} else {
				r = post(t, s, opTok.Token, path, body, "X-Forwarded-For", addr)
			}
			if r.Code != 0 {
				t.Fatalf("%s %s: %d %s", path, body, r.Code, r.Message)
			}
			es := auditEntries(t, db)
			if len(es) != before+1 || es[len(es)-1].Action != action {
				t.Fatalf("%s left %d rows (last %+v), want one %s", path, len(es)-before, es[len(es)-1], action)
			}
			auditRowShape(t, es[len(es)-1], op.ID, addr, target, creation, deletion)
			seen[action] = true
			return r.Data
		}
		idOf := func(data json.RawMessage, field string) string {
			t.Helper()
			var m map[string]any
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatalf("data %s", data)
			}
			id, _ := m[field].(string)
			if id == "" {
				t.Fatalf("no %s in %s", field, data)
			}
			return id
		}
		const creation, deletion, change = true, true, false

		// Operators and players.
		created := idOf(do("operator.create", "/admin/operators/create", `{"account":"audit_new","password":"pass1234","role":"agent"}`, creation, change, ""), "userId")
		do("operator.role", "/admin/operators/role", fmt.Sprintf(`{"userId":%q,"role":"admin"}`, created), change, change, created)
		do("operator.disable", "/admin/operators/disable", fmt.Sprintf(`{"userId":%q,"disabled":1}`, created), change, change, created)
		do("operator.enable", "/admin/operators/disable", fmt.Sprintf(`{"userId":%q,"disabled":0}`, created), change, change, created)
		do("operator.password.reset", "/admin/operators/resetPassword", fmt.Sprintf(`{"userId":%q,"password":"pass5678"}`, created), change, change, created)
		do("user.activation", "/admin/activateUser", fmt.Sprintf(`{"userId":%q,"isActivation":1}`, pat.IDString()), change, change, pat.IDString())
		do("user.freeze", "/admin/user/freeze", fmt.Sprintf(`{"userId":%q,"frozen":1,"reason":"check"}`, pat.IDString()), change, change, pat.IDString())
		do("user.unfreeze", "/admin/user/freeze", fmt.Sprintf(`{"userId":%q,"frozen":0}`, pat.IDString()), change, change, pat.IDString())
		patTok = mustLogin(t, s, "audit_pat", "abc123") // the freeze ended the player's sessions
		// Money and rules.
		for _, a := range []string{"recharge.confirm", "recharge.fail"} {
			id := order()
			do(a, "/admin/"+strings.Replace(a, ".", "/", 1), fmt.Sprintf(`{"orderId":%q,"remark":"checked"}`, id), change, change, id)
		}
		for _, a := range []string{"exchange.complete", "exchange.fail"} {
			id := exchange()
			do(a, "/admin/"+strings.Replace(a, ".", "/", 1), fmt.Sprintf(`{"orderId":%q,"remark":"paid"}`, id), change, change, id)
		}
		// An order above the recharge maximum: the first operator's
		// confirmation is an approval, recorded, that credits nothing.
		max := s.Wallet.Config.RechargeMax
		s.Wallet.Config.RechargeMax = 4000
		big := order()
		do("recharge.approve", "/admin/recharge/confirm", fmt.Sprintf(`{"orderId":%q,"remark":"first look"}`, big), change, change, big)
		s.Wallet.Config.RechargeMax = max
		// A recharge held by the player's deposit limit, let through (protection.go).
		ok(t, s, patTok.Token, "/protection/limit", `{"kind":"deposit","period":"day","amount":1000}`, nil)
		held := order()
		do("recharge.release", "/admin/protection/holds/release", fmt.Sprintf(`{"orderId":%q,"remark":"asked"}`, held), change, change, held)
		do("user.fundPassword.reset", "/admin/user/resetFundPassword", fmt.Sprintf(`{"userId":%q,"reason":"forgot"}`, pat.IDString()), change, change, pat.IDString())
		do("window.rules", "/admin/windows/update", `{"windowId":1,"odds":"1.95","maxBet":50000}`, change, change, "1")
		bank := idOf(do("bank.add", "/admin/bank/add", `{"name":"Banco Todo","country":"ES","sort":9}`, creation, change, ""), "id")
		do("bank.update", "/admin/bank/update", fmt.Sprintf(`{"id":%q,"name":"Banco Todo 2","country":"ES","sort":9,"enabled":1}`, bank), change, change, bank)
		// Customer service.
		do("customer.reply", "/admin/customer/reply", fmt.Sprintf(`{"visitorNo":%q,"content":"Hello"}`, vno), change, change, vno)
		do("customer.handover", "/admin/customer/handover", fmt.Sprintf(`{"visitorNo":%q,"serviceId":%q}`, vno, agent.IDString()), change, change, vno)
		// Content.
		city := ""
		for _, k := range []struct{ kind, create, update string }{
			{"banner", `{"title":"A","image":"/files/content/1.png"}`, `{"id":%q,"title":"B","image":"/files/content/1.png"}`},
			{"video", `{"kind":"find","title":"A","url":"/files/demo/a.mp4"}`, `{"id":%q,"kind":"find","title":"B","url":"/files/demo/a.mp4"}`},
			{"city", `{"name":"Braga"}`, `{"id":%q,"name":"Braga Sul"}`},
			{"listing", `{"cityId":"CITY","name":"Ana","age":30,"contact":"+351 911"}`, `{"id":%q,"cityId":"CITY","name":"Ana M","age":30}`},
		} {
			body := strings.ReplaceAll(k.create, "CITY", city)
			id := idOf(do(k.kind+".create", "/admin/"+k.kind+"/save", body, creation, change, ""), "id")
			do(k.kind+".update", "/admin/"+k.kind+"/save", strings.ReplaceAll(fmt.Sprintf(k.update, id), "CITY", city), change, change, id)
			if k.kind == "city" {
				city = id // deleted after its listing
				continue
			}
			do(k.kind+".delete", "/admin/"+k.kind+"/delete", fmt.Sprintf(`{"id":%q}`, id), change, deletion, id)
		}
		do("city.delete", "/admin/city/delete", fmt.Sprintf(`{"id":%q}`, city), change, deletion, city)
		notice := idOf(do("notice.publish", "/admin/notice/publish", `{"title":"Hi","content":"All"}`, creation, change, ""), "id")
		do("notice.update", "/admin/notice/update", fmt.Sprintf(`{"id":%q,"title":"Hi 2","content":"All"}`, notice), change, change, notice)
		do("notice.delete", "/admin/notice/delete", fmt.Sprintf(`{"id":%q}`, notice), change, deletion, notice)
		// Settings, the manifest, domains and uploads: the first save of a
		// setting has the default in force before it.
		do("video.limit", "/admin/video/limit", `{"limit":3}`, change, change, storage.SettingVideoLimit)
		do("settings.save", "/admin/settings/save", `{"appName":"Kay"}`, change, change, storage.SettingApp)
		do("manifest.save", "/admin/manifest/save", `{"resource":{"version":"1.0.1","path":"/files/r.zip"}}`, change, change, storage.SettingManifest)
		do("domain.save", "/admin/domain/save", `{"domain":"audit.example.org"}`, creation, change, "audit.example.org")
		do("domain.save", "/admin/domain/save", `{"domain":"audit.example.org","appName":"Kay"}`, change, change, "audit.example.org")
		do("domain.delete", "/admin/domain/delete", `{"domain":"audit.example.org"}`, change, deletion, "audit.example.org")
		do("file.upload", "/admin/upload", ``, creation, change, "")
		// A player deleting their own account: the row's operator is the
		// player (account_data.go), and after is null (a deletion).
		leaver, leaverTok := newUser(t, s, "audit_leaver")
		if r := post(t, s, leaverTok.Token, "/user/account/delete", `{"password":"abc123"}`, "X-Forwarded-For", addr); r.Code != 0 {
			t.Fatalf("/user/account/delete: %d %s", r.Code, r.Message)
		}
		if es := auditEntries(t, db); es[len(es)-1].Action != "user.delete" {
			t.Fatalf("the deletion left %+v", es[len(es)-1])
		} else {
			auditRowShape(t, es[len(es)-1], leaver.ID, addr, leaver.IDString(), change, deletion)
			seen["user.delete"] = true
		}

		// What an update records before and after is the stored object.
		es, _ := storage.ListAudit(ctx, db, storage.AuditFilter{Action: "settings.save"}, 1, 0)
		if len(es) != 1 || !strings.Contains(es[0].Detail, `"before":{"appName":""`) || !strings.Contains(es[0].Detail, `"after":{"appName":"Kay"`) {
			t.Errorf("settings.save row: %+v", es)
		}
		es, _ = storage.ListAudit(ctx, db, storage.AuditFilter{Action: "video.limit"}, 1, 0)
		if want := fmt.Sprintf(`"before":{"limit":%d},"after":{"limit":3}`, s.Config.VideoDailyLimit); len(es) != 1 || !strings.Contains(es[0].Detail, want) {
			t.Errorf("video.limit row: %+v, want %s", es, want)
		}
		es, _ = storage.ListAudit(ctx, db, storage.AuditFilter{Action: "listing.create"}, 1, 0)
		if len(es) != 1 || strings.Contains(es[0].Detail, "+351") {
			t.Errorf("a listing's contact reached the audit log: %+v", es)
		}
		// Each row made here reads in words in every locale (audit_render.go).
		for _, l := range apierr.Langs {
			for page := 1; ; page++ {
				list := contentOK[contentList[auditView]](t, contentPost(t, s, "/admin/audit/list",
					fmt.Sprintf(`{"page":%d,"pageSize":50}`, page), opTok.Token, "Accept-Language", l))
				for _, e := range list.List {
					if e.Reading.Text == "" || e.Reading.Text == e.Action || strings.ContainsAny(e.Reading.Text, "{}") {
						t.Errorf("%s in %s reads %q", e.Action, l, e.Reading.Text)
					}
				}
				if page >= list.Pages {
					break
				}
			}
		}
		for a := range auditActions {
			if !seen[a] && a != "demo.seed" {
				t.Errorf("%s was not made by this test", a)
			}
		}
	})
}

// The console's audit list names the command line as the operator of the
// rows `kj admin` writes (operator 0), with the system account that ran it.
func TestCommandLineRowsShowAsCLIInTheConsole(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		u, err := CreateOperator(context.Background(), db, s.Clock.Now(), "cli_made", "abc123", storage.OperatorAdmin, CommandLineActor())
		if err != nil {
			t.Fatal(err)
		}
		tok := mustLogin(t, s, "cli_made", "abc123")
		list := contentOK[contentList[auditView]](t, contentPost(t, s, "/admin/audit/list", `{"action":"operator.create"}`, tok.Token))
		if len(list.List) != 1 {
			t.Fatalf("rows: %+v", list)
		}
		e := list.List[0]
		d, _ := json.Marshal(e.Detail)
		if e.Operator != "cli" || e.OperatorID != 0 || e.Target != u.IDString() || !strings.Contains(string(d), `"ip":"cli"`) ||
			!strings.Contains(string(d), `"osUser":"`) || !strings.Contains(string(d), `"before":null`) {
			t.Fatalf("row %+v, detail %s", e, d)
		}
	})
}
