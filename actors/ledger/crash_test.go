package ledger

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"kj/auth"
	"kj/internal/apierr"
	"kj/internal/bus"
	"kj/internal/clock"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

// TestCrashMidStream is the durability test of the money path, run against
// the real binary on each store: `kj serve` is killed with SIGKILL in the
// middle of a stream of recharge confirmations and again in the middle of a
// stream of exchanges; after each kill it is restarted on the same store and
// every request of the stream is sent again with the same keys. Nothing
// acknowledged is lost, nothing is applied twice, balances equal what the
// orders say, and `kj ledger check` passes.
func TestCrashMidStream(t *testing.T) {
	bin := testenv.BuildKJ(t)
	storagetest.EachServed(t, func(t *testing.T, db storage.DB, env map[string]string) {
		crashMidStream(t, bin, db, env)
	})
}

// node is one kj process the test talks to over the HTTP API.
type node struct {
	*testenv.Process
	t *testing.T
}

// startKJ runs `kj serve` on the store env names, with the wallet settings
// the money paths need.
func startKJ(t *testing.T, bin string, env map[string]string) *node {
	t.Helper()
	all := map[string]string{"KJ_USDT_TRC20_ADDRESS": "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7", "KJ_RECHARGE_MIN_DEPOSIT": "100", "KJ_EXCHANGE_MIN": "100"}
	for k, v := range env {
		all[k] = v
	}
	return &node{Process: testenv.StartServe(t, bin, all), t: t}
}

type apiReply struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

var client = &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 32}}

// api posts to a node; a transport error (the node died) is returned as is.
func (n *node) api(path, token, body string, headers ...string) (apiReply, error) {
	req, _ := http.NewRequest("POST", n.URL()+"/api"+path, strings.NewReader(body))
	req.Header.Set("token", token)
	req.Header.Set("Accept-Language", "en-US")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := client.Do(req)
	if err != nil {
		return apiReply{}, err
	}
	defer resp.Body.Close()
	var r apiReply
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return apiReply{}, err
	}
	return r, nil
}

func (n *node) must(path, token, body string, out any, headers ...string) {
	n.t.Helper()
	r, err := n.api(path, token, body, headers...)
	if err != nil || r.Code != 0 {
		n.t.Fatalf("%s %s: %v %+v", path, body, err, r)
	}
	if out != nil {
		json.Unmarshal(r.Data, out)
	}
}

// stream sends every request with `workers` in parallel until all are
// answered or the node dies; it kills the node once killAfter requests
// were acknowledged. It returns the acknowledged replies by index.
func (n *node) stream(reqs []func() (apiReply, error), workers, killAfter int) map[int]apiReply {
	var mu sync.Mutex
	acked := map[int]apiReply{}
	var count atomic.Int64
	var once sync.Once
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r, err := reqs[i]()
				// A user's tries at the fund password are counted while in
				// flight, so parallel requests of one user may be told to
				// slow down (1007); a client sends those again, as here.
				for err == nil && r.Code == apierr.CodeRateLimited {
					time.Sleep(10 * time.Millisecond)
					r, err = reqs[i]()
				}
				if err != nil {
					continue // the node died under this request: outcome unknown
				}
				if r.Code != 0 {
					n.t.Errorf("request %d: %+v", i, r)
					continue
				}
				mu.Lock()
				acked[i] = r
				mu.Unlock()
				if killAfter > 0 && count.Add(1) == int64(killAfter) {
					once.Do(n.Kill)
				}
			}
		}()
	}
	for i := range reqs {
		next <- i
	}
	close(next)
	wg.Wait()
	return acked
}

func crashMidStream(t *testing.T, bin string, db storage.DB, env map[string]string) {
	ctx := context.Background()
	const users, ordersPerUser, exchangesPerUser = 12, 16, 6
	sessions := &auth.Sessions{DB: db, Bus: bus.NewMemory(), Clock: clock.Real{}, TokenTTL: time.Hour, JWTTTL: time.Hour}
	signIn := func(u storage.User) string {
		if err := storage.CreateUser(ctx, db, u); err != nil {
			t.Fatal(err)
		}
		var tok auth.Tokens
		if err := db.Tx(ctx, func(tx storage.Tx) error {
			var err error
			tok, _, err = sessions.SignIn(ctx, tx, u.ID, 5)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return tok.Token
	}
	opToken := signIn(storage.User{ID: storage.NewID(), Account: "operator", PasswordHash: "x", InviteCode: "pro_op", IsOperator: 1})
	ids := make([]int64, users)
	tokens := make([]string, users)
	for i := range users {
		ids[i] = storage.NewID()
		tokens[i] = signIn(storage.User{ID: ids[i], Account: fmt.Sprintf("crash%d", i), PasswordHash: "x", InviteCode: fmt.Sprintf("pro_c%d", i)})
	}

	n := startKJ(t, bin, env)
	// Recharge orders, a fund password and a card for every user.
	type order struct {
		ID      string `json:"id"`
		OrderNo string `json:"orderNo"`
		Amount  int64  `json:"amount"`
		Status  int    `json:"status"`
	}
	var orders []order
	want := map[int64]int64{}
	cards := make([]string, users)
	for i := range users {
		for k := range ordersPerUser {
			var o order
			amount := int64(1000 + 100*k + i)
			n.must("/user/rechargeOrder", tokens[i], fmt.Sprintf(`{"amount":%d,"protocol":"TRC20","txHash":"%064x"}`, amount, i*1000+k+1), &o)
			orders = append(orders, o)
			want[ids[i]] += amount
		}
		n.must("/user/setWalletPwd", tokens[i], `{"password":"246810"}`, nil)
		var card struct{ ID string }
		n.must("/user/setBankCard", tokens[i], fmt.Sprintf(`{"name":"Crash %d","bank":1,"cardNumber":"62220000111122%02d","confirmCardNumber":"62220000111122%02d","fundPassword":"246810"}`, i, i, i), &card)
		cards[i] = card.ID
	}

	// Stream 1: confirmations, killed a third of the way.
	confirm := func(nd **node, o order) func() (apiReply, error) {
		return func() (apiReply, error) {
			return (*nd).api("/admin/recharge/confirm", opToken, fmt.Sprintf(`{"orderId":%q}`, o.ID))
		}
	}
	cur := n
	var reqs []func() (apiReply, error)
	for _, o := range orders {
		reqs = append(reqs, confirm(&cur, o))
	}
	acked := cur.stream(reqs, 8, len(orders)/3)
	if len(acked) < len(orders)/3 || len(acked) == len(orders) {
		t.Fatalf("%d of %d confirmations acknowledged: the kill did not land mid-stream", len(acked), len(orders))
	}
	t.Logf("killed after %d of %d confirmations were acknowledged", len(acked), len(orders))
	// Whatever was acknowledged is durable already.
	for i := range acked {
		o, err := storage.RechargeOrderByID(ctx, db, mustParse(t, orders[i].ID))
		if err != nil || o.Status != storage.OrderCompleted {
			t.Fatalf("acknowledged confirmation %d lost: %+v %v", i, o, err)
		}
	}
	cur = startKJ(t, bin, env)
	if again := cur.stream(reqs, 8, 0); len(again) != len(orders) {
		t.Fatalf("after restart %d of %d confirmations answered", len(again), len(orders))
	}
	for i, id := range ids {
		if got, _ := storage.AccountBalance(ctx, db, storage.Wallet(id)); got != want[id] {
			t.Fatalf("user %d: balance %d, confirmed orders total %d", i, got, want[id])
		}
	}
	r := storagetest.CheckLedger(t, db)
	if r.Transfers != len(orders) {
		t.Fatalf("%d transfers for %d confirmed orders", r.Transfers, len(orders))
	}

	// Stream 2: exchanges with idempotency keys, killed a third of the way.
	type exchange struct {
		user   int
		key    string
		amount int64
	}
	var exs []exchange
	for i := range users {
		for k := range exchangesPerUser {
			exs = append(exs, exchange{i, fmt.Sprintf("crash-%d-%d", i, k), int64(500 + 10*k)})
			want[ids[i]] -= int64(500 + 10*k)
		}
	}
	reqs = reqs[:0]
	for _, e := range exs {
		reqs = append(reqs, func() (apiReply, error) {
			return cur.api("/user/exchange", tokens[e.user], fmt.Sprintf(`{"amount":%d,"bankCardId":%q,"fundPassword":"246810"}`, e.amount, cards[e.user]),
				"Idempotency-Key", e.key)
		})
	}
	first := cur.stream(reqs, 8, len(exs)/3)
	if len(first) < len(exs)/3 || len(first) == len(exs) {
		t.Fatalf("%d of %d exchanges acknowledged: the kill did not land mid-stream", len(first), len(exs))
	}
	t.Logf("killed after %d of %d exchanges were acknowledged", len(first), len(exs))
	cur = startKJ(t, bin, env)
	second := cur.stream(reqs, 8, 0)
	if len(second) != len(exs) {
		t.Fatalf("after restart %d of %d exchanges answered", len(second), len(exs))
	}
	for i, r := range first {
		var a, b order
		json.Unmarshal(r.Data, &a)
		json.Unmarshal(second[i].Data, &b)
		if a.ID == "" || a.ID != b.ID {
			t.Fatalf("exchange %d: acknowledged as order %q before the kill, %q after", i, a.ID, b.ID)
		}
	}
	var stored int
	db.QueryRow(ctx, `SELECT COUNT(*) FROM exchange_orders`).Scan(&stored)
	if stored != len(exs) {
		t.Fatalf("%d exchange orders for %d requests", stored, len(exs))
	}
	for i, id := range ids {
		if got, _ := storage.AccountBalance(ctx, db, storage.Wallet(id)); got != want[id] {
			t.Fatalf("user %d: balance %d, want %d", i, got, want[id])
		}
	}
	if r := storagetest.CheckLedger(t, db); r.Transfers != len(orders)+len(exs) {
		t.Fatalf("%d transfers, want %d", r.Transfers, len(orders)+len(exs))
	}

	// A graceful stop drains and exits 0; the command-line check agrees.
	cur.Cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-cur.Exited:
		if cur.ExitErr != nil {
			t.Fatalf("SIGTERM exit: %v\n%s", cur.ExitErr, cur.Logs)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("kj did not drain after SIGTERM")
	}
	check := exec.Command(bin, "ledger", "check")
	check.Env = append([]string{"PATH=" + os.Getenv("PATH")}, envList(env)...)
	out, err := check.CombinedOutput()
	if err != nil || !strings.Contains(string(out), ": ok") {
		t.Fatalf("kj ledger check: %v\n%s", err, out)
	}
	t.Logf("kj ledger check: %s", strings.TrimSpace(string(out)))
}

func envList(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	return out
}

func mustParse(t *testing.T, s string) int64 {
	t.Helper()
	var id int64
	if _, err := fmt.Sscan(s, &id); err != nil {
		t.Fatal(err)
	}
	return id
}
