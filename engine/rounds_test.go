package engine

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"kj/actors/window"
	"kj/internal/bus"
	"kj/internal/config"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

// TestClusterRunsEachWindowOnOneNode: two nodes on PostgreSQL and NATS with
// 1 s phases. Each window runs on exactly one node; a bet placed through
// either node is settled; pushes reach the other node's bus; when the
// holder shuts down, the other node carries its windows on within seconds.
func TestClusterRunsEachWindowOnOneNode(t *testing.T) {
	_, dbURL := storagetest.PostgresURL(t)
	open := func(id string) *Node {
		cfg, err := config.Load(nil, func(k string) string {
			return map[string]string{
				"KJ_DATA_DIR": t.TempDir(), "KJ_DATABASE_URL": dbURL, "KJ_NATS_URL": testenv.NATSURL(),
				"KJ_NODE_ID": id, "KJ_WINDOW_COUNT": "2",
				"KJ_WINDOW_BETTING": "1s", "KJ_WINDOW_DRAWING": "1s", "KJ_WINDOW_REST": "1s",
			}[k]
		})
		if err != nil {
			t.Fatal(err)
		}
		n, err := Open(context.Background(), cfg, NewLogger(io.Discard, "error"))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	a := open("node-a")
	aClosed := false
	t.Cleanup(func() {
		if !aClosed {
			a.Close(context.Background())
		}
	})
	testenv.Eventually(t, 5*time.Second, func() bool { return len(a.Windows.Running()) == 2 }, "node a runs both windows")
	b := open("node-b")
	t.Cleanup(func() { b.Close(context.Background()) })

	var mu sync.Mutex
	var phases []window.PhasePush
	sub, err := b.Bus.Subscribe(bus.BroadcastSubject, func(_ string, data []byte) {
		var n bus.Notification
		var p window.PhasePush
		if json.Unmarshal(data, &n) == nil && n.Key == window.PushPhase && json.Unmarshal([]byte(n.Data), &p) == nil {
			mu.Lock()
			phases = append(phases, p)
			mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()

	// A player bets through node b on a window node a runs.
	ctx := context.Background()
	uid := storage.NewID()
	if err := storage.CreateUser(ctx, b.DB, storage.User{ID: uid, Account: "clusterp", PasswordHash: "x", InviteCode: "pro_clusterp", CreatedAt: 1, UpdatedAt: 1}); err != nil {
		t.Fatal(err)
	}
	if res, err := storage.CommitLedgerBatch(ctx, b.DB, 1, []storage.Op{{Transfers: []storage.Transfer{{Debit: storage.RechargeClearing,
		Credit: storage.Wallet(uid), Amount: 10000, Kind: storage.KindRecharge, IdempotencyKey: "cluster-fund"}}}}, 0); err != nil || res[0].Err != nil {
		t.Fatalf("fund: %v %+v", err, res)
	}
	var bet window.BetView
	testenv.Eventually(t, 10*time.Second, func() bool {
		cur, err := b.Rounds.Current(ctx, 1, uid)
		if err != nil || cur.Round == nil || cur.Round.Phase != window.PhaseBetting {
			return false
		}
		bet, err = b.Rounds.Bet(ctx, window.BetRequest{UserID: uid, WindowID: 1, Issue: cur.Round.Issue,
			Content: window.Double, Amount: 500, BetID: "cluster-bet", ArrivedAt: time.Now()})
		return err == nil
	}, "a bet accepted through node b")
	testenv.Eventually(t, 10*time.Second, func() bool {
		recs, _, _ := b.Rounds.Records(ctx, uid, storage.BetsMatched, 0, 10, 0)
		return len(recs) == 1 && recs[0].NoteNo == bet.NoteNo
	}, "the bet settled by node a")
	if len(b.Windows.Running()) != 0 {
		t.Fatalf("node b runs %v while node a holds every lease", b.Windows.Running())
	}
	mu.Lock()
	seen := len(phases)
	mu.Unlock()
	if seen == 0 {
		t.Fatal("node a's phase pushes never reached node b's bus")
	}

	// Node a shuts down: node b carries on with both windows.
	before, _ := storage.LatestRound(ctx, b.DB, 2)
	start := time.Now()
	a.Close(context.Background())
	aClosed = true
	testenv.Eventually(t, 5*time.Second, func() bool { return slices.Equal(b.Windows.Running(), []int64{1, 2}) }, "node b takes both windows")
	t.Logf("takeover after a graceful shutdown: %v", time.Since(start))
	testenv.Eventually(t, 10*time.Second, func() bool {
		r, err := storage.LatestRound(ctx, b.DB, 2)
		return err == nil && r.Seq >= before.Seq+2
	}, "window 2 keeps scheduling rounds on node b")
	drawn, _ := storage.AllDrawnRounds(ctx, b.DB)
	for _, r := range drawn {
		if err := window.Verify(r.Issue, r.Seed, r.SeedHash, [3]int{r.D0, r.D1, r.D2}); err != nil {
			t.Fatal(err)
		}
	}
	var report strings.Builder
	if err := LedgerCheck(ctx, b.DB, &report); err != nil {
		t.Fatalf("kj ledger check: %v\n%s", err, report.String())
	}
	if n := len(drawn); n < 4 {
		t.Fatalf("only %d rounds drawn", n)
	}
}
