package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"kj/actors/ledger"
	"kj/actors/window"
	"kj/internal/config"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

// openNode opens a node on env for a test, closed at its end.
func openNode(t *testing.T, env map[string]string) *Node {
	t.Helper()
	env["KJ_DATA_DIR"] = t.TempDir()
	cfg, err := config.Load(nil, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	n, err := Open(context.Background(), cfg, NewLogger(io.Discard, "error"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close(context.Background()) })
	return n
}

// balanceVia is what /user/amount answers on node n to tok's holder.
func balanceVia(t *testing.T, n *Node, tok string) int64 {
	req := httptest.NewRequest("POST", "/api/user/amount", strings.NewReader("{}"))
	req.Header.Set("token", tok)
	w := httptest.NewRecorder()
	n.API.Handler().ServeHTTP(w, req)
	var env struct {
		Code int
		Data struct{ Amount int64 }
	}
	if err := json.Unmarshal(w.Body.Bytes(), &env); err != nil || env.Code != 0 {
		t.Errorf("/user/amount: %s", w.Body.String())
		return -1
	}
	return env.Data.Amount
}

// player is a funded user signed in through node n.
func player(t *testing.T, n *Node, account string, cents int64) (int64, string) {
	t.Helper()
	ctx := context.Background()
	uid := storage.NewID()
	if err := storage.CreateUser(ctx, n.DB, storage.User{ID: uid, Account: account, PasswordHash: "x", InviteCode: "pro_" + account, CreatedAt: 1, UpdatedAt: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := n.Ledger.Submit(ctx, ledger.Transfer{Debit: ledger.RechargeClearing, Credit: ledger.Wallet(uid), Amount: cents,
		Kind: storage.KindRecharge, IdempotencyKey: "fund-" + account}); err != nil {
		t.Fatal(err)
	}
	var tok string
	err := n.DB.Tx(ctx, func(tx storage.Tx) error {
		tk, _, err := n.Sessions.SignIn(ctx, tx, uid, 5)
		tok = tk.Token
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return uid, tok
}

// checkBalances runs, at once, bets, recharge confirmations, exchanges and
// exchange reviews (refunds), each player's writes through one node, and
// after every acknowledged write reads the player's balance from every
// node: the writing node never shows a value older than the write (one the
// store held at or after the acknowledgement), every other node reaches
// the store's value within a bound (one bus round trip, polled).
func checkBalances(t *testing.T, nodes []*Node) {
	ctx := context.Background()
	store := nodes[0].DB
	storeBalance := func(uid int64) int64 {
		b, err := storage.AccountBalance(ctx, store, storage.Wallet(uid))
		if err != nil {
			t.Error(err)
		}
		return b
	}
	check := func(writer *Node, uid int64, tok, what string) {
		s0 := storeBalance(uid)
		r := balanceVia(t, writer, tok)
		s1 := storeBalance(uid)
		if r != s0 && r != s1 {
			t.Errorf("%s: the writing node shows %d, the store held %d then %d after the acknowledgement", what, r, s0, s1)
		}
		for _, other := range nodes {
			if other == writer {
				continue
			}
			deadline := time.Now().Add(2 * time.Second)
			for {
				want := storeBalance(uid)
				got := balanceVia(t, other, tok)
				if got == want {
					break
				}
				if time.Now().After(deadline) {
					t.Errorf("%s: the other node still shows %d, the store %d", what, got, want)
					break
				}
				time.Sleep(time.Millisecond) // the bus event is on its way
			}
		}
	}
	const rounds = 30
	var wg sync.WaitGroup
	run := func(f func(i int)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				if t.Failed() {
					return
				}
				f(i)
			}
		}()
	}
	on := func(i int) *Node { return nodes[i%len(nodes)] }
	// Recharge confirmations: clearing → wallet, through the ledger writer.
	rUID, rTok := player(t, nodes[0], "viewrecharge", 1)
	run(func(i int) {
		n := on(i)
		if _, err := n.Ledger.Submit(ctx, ledger.Transfer{Debit: ledger.RechargeClearing, Credit: ledger.Wallet(rUID), Amount: 100,
			Kind: storage.KindRecharge, IdempotencyKey: fmt.Sprintf("view-recharge-%d", i)}); err != nil {
			t.Error(err)
			return
		}
		check(n, rUID, rTok, "recharge")
	})
	// Exchanges (wallet → pending) and their reviews refunding every other one.
	eUID, eTok := player(t, nodes[0], "viewexchange", 100_000)
	run(func(i int) {
		n := on(i + 1)
		if _, err := n.Ledger.Submit(ctx, ledger.Transfer{Debit: ledger.Wallet(eUID), Credit: ledger.WithdrawalPending, Amount: 300,
			Kind: "exchange", IdempotencyKey: fmt.Sprintf("view-exchange-%d", i)}); err != nil {
			t.Error(err)
			return
		}
		check(n, eUID, eTok, "exchange")
		if i%2 == 0 {
			if _, err := n.Ledger.Submit(ctx, ledger.Transfer{Debit: ledger.WithdrawalPending, Credit: ledger.Wallet(eUID), Amount: 300,
				Kind: "exchange_refund", IdempotencyKey: fmt.Sprintf("view-refund-%d", i)}); err != nil {
				t.Error(err)
				return
			}
			check(n, eUID, eTok, "exchange review")
		}
	})
	// Bets through the bet desk, settled by whichever node runs the window
	// (its settlements move the balance too, beside the check).
	bUID, bTok := player(t, nodes[0], "viewbets", 100_000)
	bets := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		deadline := time.Now().Add(15 * time.Second)
		for i := 0; bets < rounds && time.Now().Before(deadline) && !t.Failed(); i++ {
			n := on(i)
			cur, err := n.Rounds.Current(ctx, 1, bUID)
			if err != nil || cur.Round == nil || cur.Round.Phase != window.PhaseBetting {
				time.Sleep(5 * time.Millisecond) // a betting phase is coming
				continue
			}
			if _, err := n.Rounds.Bet(ctx, window.BetRequest{UserID: bUID, WindowID: 1, Issue: cur.Round.Issue,
				Content: window.Double, Amount: 100, BetID: fmt.Sprintf("view-bet-%d", i), ArrivedAt: time.Now()}); err != nil {
				continue // the phase ended meanwhile
			}
			bets++
			check(n, bUID, bTok, "bet")
		}
	}()
	wg.Wait()
	if bets == 0 && !t.Failed() {
		t.Error("no bet was accepted within 15 s")
	}
}

// Two nodes on PostgreSQL and NATS keep every balance exact under bets,
// exchanges, recharge confirmations and exchange reviews at once.
func TestBalancesStayExactAcrossNodes(t *testing.T) {
	_, dbURL := storagetest.PostgresURL(t)
	env := func(id string) map[string]string {
		return map[string]string{"KJ_DATABASE_URL": dbURL, "KJ_NATS_URL": testenv.NATSURL(), "KJ_NODE_ID": id,
			"KJ_WINDOW_COUNT": "1", "KJ_WINDOW_BETTING": "1s", "KJ_WINDOW_DRAWING": "1s", "KJ_WINDOW_REST": "1s"}
	}
	a := openNode(t, env("view-a"))
	b := openNode(t, env("view-b"))
	checkBalances(t, []*Node{a, b})
}

// The same on the embedded store, one node.
func TestBalancesStayExactOnTheEmbeddedStore(t *testing.T) {
	n := openNode(t, map[string]string{"KJ_WINDOW_COUNT": "1", "KJ_WINDOW_BETTING": "1s", "KJ_WINDOW_DRAWING": "1s", "KJ_WINDOW_REST": "1s"})
	checkBalances(t, []*Node{n})
}
