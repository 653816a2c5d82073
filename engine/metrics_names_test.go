package engine

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"gopkg.in/yaml.v3"

	"kj/storage"
)

// TestDashboardAndAlertMetricsAreExported keeps deploy/ honest: every kj_,
// go_ and process_ metric that the Grafana dashboard or an alert rule
// names must be served at /metrics by a running node. Metrics with labels
// appear only once something happened, so the test first does a little of
// everything: API calls, a chat socket with a good and a bad request, a
// ledger transfer, a bet.
func TestDashboardAndAlertMetricsAreExported(t *testing.T) {
	names := deployMetricNames(t)
	if len(names) < 30 {
		t.Fatalf("found only %d metric names in deploy/: %v", len(names), names)
	}

	n := serveNode(t, map[string]string{"KJ_WINDOW_COUNT": "1", "KJ_WINDOW_BETTING": "1h"})
	base := n.Base
	ctx := context.Background()

	// API: register and sign in.
	if code, _ := post(t, base+"/api/register", "", `{"account":"metrics1","password":"abc123","confirmPassword":"abc123"}`); code != 0 {
		t.Fatalf("register: code %d", code)
	}
	code, data := post(t, base+"/api/accountLogin", "", `{"account":"metrics1","password":"abc123","platform":5,"operationID":"m"}`)
	var login struct {
		Token, ChatToken, UserID string
	}
	if code != 0 || json.Unmarshal(data, &login) != nil {
		t.Fatalf("sign-in: code %d %s", code, data)
	}
	uid, err := strconv.ParseInt(login.UserID, 10, 64)
	if err != nil {
		t.Fatal(err)
	}

	// Money: a recharge through the node's ledger writer, then a bet.
	if _, err := n.Ledger.Submit(ctx, storage.Transfer{Debit: storage.RechargeClearing, Credit: storage.Wallet(uid),
		Amount: 100_000, Kind: storage.KindRecharge, IdempotencyKey: "metrics-fund"}); err != nil {
		t.Fatal(err)
	}
	var round struct {
		Round *struct {
			Issue string `json:"issue"`
		} `json:"round"`
	}
	deadline := time.Now().Add(10 * time.Second)
	for round.Round == nil && time.Now().Before(deadline) {
		if code, data := post(t, base+"/api/activation/getNewLottery", login.Token, `{"windowId":1}`); code == 0 {
			_ = json.Unmarshal(data, &round)
		}
		if round.Round == nil {
			time.Sleep(50 * time.Millisecond)
		}
	}
	if round.Round == nil {
		t.Fatal("window 1 opened no round within 10 s")
	}
	if code, data := post(t, base+"/api/activation/betRequest", login.Token,
		fmt.Sprintf(`{"windowId":1,"issue":%q,"content":"BIG","amount":100,"betId":"metrics-bet"}`, round.Round.Issue)); code != 0 {
		t.Fatalf("bet: code %d %s", code, data)
	}

	// Chat: a socket, a known request and a refused one.
	q := url.Values{"sendID": {login.UserID}, "token": {login.ChatToken}, "platformID": {"5"}, "operationID": {"m"}}
	conn, _, err := websocket.DefaultDialer.Dial("ws://"+n.Addr+"/ws?"+q.Encode(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	call := func(name, op string, args ...any) string {
		d, _ := json.Marshal(args)
		f, _ := json.Marshal(map[string]string{"reqFuncName": name, "operationID": op, "userID": login.UserID, "data": string(d)})
		if err := conn.WriteMessage(websocket.TextMessage, f); err != nil {
			t.Fatal(err)
		}
		_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		for {
			_, b, err := conn.ReadMessage()
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if strings.Contains(string(b), `"operationID":"`+op+`"`) {
				return string(b)
			}
		}
	}
	if r := call("Login", "l", login.UserID, login.ChatToken); !strings.Contains(r, `"errCode":0`) {
		t.Fatalf("chat login: %s", r)
	}
	if r := call("GetSelfUserInfo", "s"); !strings.Contains(r, `"errCode":0`) {
		t.Fatalf("GetSelfUserInfo: %s", r)
	}
	if r := call("GetUsersInfo", "bad", 42); strings.Contains(r, `"errCode":0`) {
		t.Fatalf("a malformed request was accepted: %s", r)
	}

	exported := scrapeNames(t, base+"/metrics")
	var missing []string
	for _, name := range names {
		if !exported[name] {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		t.Fatalf("named in deploy/ but not exported by a running node: %v", missing)
	}
}

var metricName = regexp.MustCompile(`\b(?:kj|go|process)_[a-z0-9_]+\b`)

// deployMetricNames lists the metrics the dashboard's queries and the
// alert rules' expressions name.
func deployMetricNames(t *testing.T) []string {
	t.Helper()
	var exprs []string
	b, err := os.ReadFile("../deploy/grafana/kj.json")
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		Panels []struct {
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(b, &dash); err != nil {
		t.Fatalf("deploy/grafana/kj.json: %v", err)
	}
	for _, p := range dash.Panels {
		for _, q := range p.Targets {
			exprs = append(exprs, q.Expr)
		}
	}
	b, err = os.ReadFile("../deploy/prometheus/alerts.yml")
	if err != nil {
		t.Fatal(err)
	}
	var rules struct {
		Groups []struct {
			Rules []struct {
				Alert string `yaml:"alert"`
				Expr  string `yaml:"expr"`
			} `yaml:"rules"`
		} `yaml:"groups"`
	}
	if err := yaml.Unmarshal(b, &rules); err != nil {
		t.Fatalf("deploy/prometheus/alerts.yml: %v", err)
	}
	alerts := 0
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			exprs = append(exprs, r.Expr)
			alerts++
		}
	}
	if alerts < 5 {
		t.Fatalf("only %d alert rules read from deploy/prometheus/alerts.yml", alerts)
	}
	seen := map[string]bool{}
	for _, e := range exprs {
		for _, m := range metricName.FindAllString(e, -1) {
			seen[m] = true
		}
	}
	out := make([]string, 0, len(seen))
	for m := range seen {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

// scrapeNames reads the sample names /metrics serves (histogram series
// with their _bucket, _sum and _count suffixes).
func scrapeNames(t *testing.T, url string) map[string]bool {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	names := map[string]bool{}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		if i := strings.IndexAny(line, "{ "); i > 0 {
			names[line[:i]] = true
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return names
}
