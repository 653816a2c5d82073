package httpapi

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"kj/actors/window"
	"kj/internal/apierr"
	"kj/internal/clock"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

// roundsServer is testServer with two activation windows running on the
// fake clock (60 s betting, 10 s drawing, 20 s rest, odds 1.98, bets 1.00 to
// 1,000.00).
func roundsServer(t *testing.T, db storage.DB) (*Server, *clock.Fake) {
	t.Helper()
	s, c := testServer(t, db)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	desk := window.NewDesk(db, window.StoreLedger{}, c, s.Bus, quiet, 100)
	t.Cleanup(desk.Close)
	s.Rounds = &window.Rounds{DB: db, Ledger: window.StoreLedger{}, Clock: c, Desk: desk}
	s.lobbyBalancesFromViews() // as New does with the node's windows
	results, err := s.Rounds.FollowResults(s.Bus)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = results.Unsubscribe() })
	ctx := context.Background()
	if err := storage.EnsureRoundWindows(ctx, db, 2, storage.RoundWindow{OddsBP: 19800, MinBet: 100, MaxBet: 100000,
		BettingMs: 60000, DrawingMs: 10000, RestMs: 20000}, c.Now().UnixMilli()); err != nil {
		t.Fatal(err)
	}
	run := &window.Runner{DB: db, Desk: desk, Bus: s.Bus, Clock: c, Log: quiet, Node: "test", LeaseTTL: time.Hour}
	if err := run.Start(actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet }))); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { run.Stop(context.Background()) })
	waitTimers(t, c, 3)
	return s, c
}

// waitTimers waits until n timers are armed: the lease's and one per
// window, i.e. every window has done what was due and waits again.
func waitTimers(t *testing.T, c *clock.Fake, n int) {
	t.Helper()
	testenv.Eventually(t, 10*time.Second, func() bool { return c.Pending() == n }, "%d timers armed", n)
}

// closeAndDraw moves the fake clock through a round: to the end of its
// betting, just past the close, and to the end of its drawing, waiting at
// the first two steps until every window has acted.
func closeAndDraw(t *testing.T, c *clock.Fake, bettingEndsAt, drawingEndsAt int64) {
	t.Helper()
	c.Set(time.UnixMilli(bettingEndsAt))
	waitTimers(t, c, 3)
	c.Set(time.UnixMilli(bettingEndsAt + 500))
	waitTimers(t, c, 3)
	c.Set(time.UnixMilli(drawingEndsAt))
}

// fund credits a user's wallet as a confirmed recharge would.
// roundsPlayer starts a test of the players' rounds routes: a rounds server
// (roundsServer), alice with cents in her wallet, and post, which calls
// /api/activation/<path> as alice in en-US.
func roundsPlayer(t *testing.T, db storage.DB, cents int64) (*Server, *clock.Fake, storage.User, func(path, body string) reply) {
	t.Helper()
	s, c := roundsServer(t, db)
	h := s.Handler()
	alice, tok := newUser(t, s, "alice")
	fund(t, db, alice.ID, cents)
	return s, c, alice, func(path, body string) reply {
		return call(t, h, "POST", "/api/activation/"+path, body, "token", tok.Token, "Accept-Language", "en-US")
	}
}

func fund(t *testing.T, db storage.DB, userID, cents int64) {
	t.Helper()
	res, err := storage.CommitLedgerBatch(context.Background(), db, 1, []storage.Op{{Transfers: []storage.Transfer{{
		Debit: storage.RechargeClearing, Credit: storage.Wallet(userID), Amount: cents, Kind: storage.KindRecharge,
		IdempotencyKey: fmt.Sprintf("test-fund-%d-%d", userID, cents)}}}}, 0)
	if err != nil || res[0].Err != nil {
		t.Fatalf("fund: %v %+v", err, res)
	}
}

// listOf is the records screens' page: {list, total, page, pageSize}.
type listOf[T any] struct {
	List     []T `json:"list"`
	Total    int `json:"total"`
	Page     int `json:"page"`
	PageSize int `json:"pageSize"`
}

func TestActivationRoutesPlayARound(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, c, alice, post := roundsPlayer(t, db, 50000)
		h := s.Handler()

		r := post("lotteryList", `{}`)
		lobby := data[window.Lobby](t, r)
		if r.Code != 0 || len(lobby.Windows) != 2 || lobby.AvailablePoints != 50000 || lobby.Windows[0].Phase != window.PhaseBetting ||
			lobby.Windows[1].Issue != "20260301000200001" || lobby.Windows[0].Deadline != c.Now().UnixMilli()+60000 {
			t.Fatalf("lotteryList: %+v %s", r, r.Data)
		}

		r = call(t, h, "POST", "/api/activation/getRuleList", `{}`, "Accept-Language", "en-US")
		if r.Code != 0 || !strings.Contains(string(r.Data), `"odds":"1.98","oddsBp":19800`) ||
			!strings.Contains(string(r.Data), "returns 1.98 times the stake; bets from 1.00 to 1000.00. Betting 60 s, drawing 10 s, rest 20 s.") {
			t.Fatalf("getRuleList: %s", r.Data)
		}

		r = post("getNewLottery", `{"windowId":1}`)
		cur := data[window.Current](t, r)
		if r.Code != 0 || cur.Round == nil || cur.Round.Issue != "20260301000100001" || cur.Round.Phase != window.PhaseBetting ||
			len(cur.Round.SeedHash) != 64 || cur.Previous != nil || cur.Result != nil || len(cur.MyBets) != 0 {
			t.Fatalf("getNewLottery: %s", r.Data)
		}
		stored, _ := storage.LatestRound(context.Background(), db, 1)
		if strings.Contains(string(r.Data), stored.Seed) {
			t.Fatal("the server seed leaked before the draw")
		}

		bet := fmt.Sprintf(`{"windowId":1,"issue":"%s","content":"BIG","amount":2500,"betId":"alice-0001"}`, cur.Round.Issue)
		r = post("betRequest", bet)
		placed := data[window.BetView](t, r)
		if r.Code != 0 || placed.NoteNo == "" || placed.Amount != 2500 || placed.Matched || placed.Content != window.Big {
			t.Fatalf("betRequest: %+v %s", r, r.Data)
		}
		if again := data[window.BetView](t, post("betRequest", bet)); again.NoteNo != placed.NoteNo {
			t.Fatalf("resend made a new bet: %+v vs %+v", again, placed)
		}
		if b, _ := storage.AccountBalance(context.Background(), db, storage.Wallet(alice.ID)); b != 47500 {
			t.Fatalf("balance after the bet %d", b)
		}
		if cur = data[window.Current](t, post("getNewLottery", `{"windowId":1}`)); len(cur.MyBets) != 1 || cur.Round.OrdersCount != 1 || cur.Round.TotalPoints != 2500 {
			t.Fatalf("my bets: %+v", cur)
		}
		recs := data[listOf[window.BetView]](t, post("lotteryBettingRecord", `{"tab":"unmatched","days":0}`))
		if len(recs.List) != 1 || recs.List[0].BetID != "alice-0001" || recs.Total != 1 || recs.Page != 1 || recs.PageSize != 20 {
			t.Fatalf("unmatched records: %+v", recs)
		}

		// Play the round out: close, draw, settle, rest.
		closeAndDraw(t, c, cur.Round.BettingEndsAt, cur.Round.DrawingEndsAt)
		testenv.Eventually(t, 10*time.Second, func() bool {
			r, _ := storage.RoundByID(context.Background(), db, stored.ID)
			return r.State == storage.RoundSettled
		}, "round settled")
		waitTimers(t, c, 3)

		cur = data[window.Current](t, post("getNewLottery", `{"windowId":1}`))
		if cur.Round.Phase != window.PhaseRest || cur.Result == nil || cur.Next == nil || cur.Next.Issue != "20260301000100002" {
			t.Fatalf("in rest: %+v", cur)
		}
		hist := data[listOf[window.ResultView]](t, call(t, h, "POST", "/api/activation/historyPrize", `{"windowId":1}`))
		if len(hist.List) != 1 || hist.Total != 1 || hist.List[0].ServerSeed != stored.Seed {
			t.Fatalf("history: %+v", hist)
		}
		// The engine serves windows from the cached definitions, which zero
		// rounds_count: the history's total still counts the drawn rounds.
		defs, err := window.NewDefinitions(db, nil, c, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		cached := &window.Rounds{DB: db, Ledger: window.StoreLedger{}, Clock: c, Defs: defs}
		if list, total, err := cached.History(context.Background(), 1, 10, 0); err != nil || total != 1 || len(list) != 1 {
			t.Fatalf("history through the cached definitions: %d rounds, total %d, %v", len(list), total, err)
		}
		res := hist.List[0]
		if err := window.Verify(res.Issue, res.ServerSeed, res.SeedHash, res.Digits); err != nil {
			t.Fatal(err)
		}
		win := res.Sum >= 14
		matched := data[listOf[window.BetView]](t, post("lotteryBettingRecord", `{"tab":"matched","days":7}`))
		if all := data[listOf[window.BetView]](t, post("lotteryBettingRecord", `{"tab":"unmatched"}`)); all.Total != 0 {
			t.Fatalf("still unmatched after settlement: %+v", all)
		}
		if len(matched.List) != 1 || !matched.List[0].Matched || (matched.List[0].Result == "win") != win {
			t.Fatalf("matched records: %+v (sum %d)", matched, res.Sum)
		}
		wantBal := int64(47500)
		if win {
			wantBal += 4950
		}
		if b, _ := storage.AccountBalance(context.Background(), db, storage.Wallet(alice.ID)); b != wantBal {
			t.Fatalf("balance after settlement %d, want %d", b, wantBal)
		}
		if rep, _ := storage.CheckLedger(context.Background(), db); !rep.OK() {
			t.Fatal(rep)
		}
	})
}

func TestBetRequestBadInputWritesNothing(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, _ := roundsServer(t, db)
		h := s.Handler()
		alice, tok := newUser(t, s, "alice")
		_, bobTok := newUser(t, s, "bob")
		fund(t, db, alice.ID, 3000)
		round, _ := storage.LatestRound(context.Background(), db, 1)
		issue := round.Issue
		bet := func(token, body string) reply {
			return call(t, h, "POST", "/api/activation/betRequest", body, "token", token, "Accept-Language", "en-US")
		}
		if r := bet(tok.Token, `{"windowId":1,"issue":"`+issue+`","content":"SMALL","amount":100,"betId":"mine"}`); r.Code != 0 {
			t.Fatalf("valid bet: %+v", r)
		}
		count := func() (bets, transfers int64) {
			return countRows(t, db, "round_bets"), countRows(t, db, "ledger_transfers")
		}
		b0, t0 := count()
		body := func(kv string) string {
			return `{"windowId":1,"issue":"` + issue + `","content":"BIG","betId":"x1",` + kv + `}`
		}
		cases := []struct {
			name, token, body string
			code              int
			msg               string
		}{
			{"no token", "", body(`"amount":100`), apierr.CodeTokenExpired, ""},
			{"no window", tok.Token, `{"issue":"` + issue + `","content":"BIG","amount":100,"betId":"x1"}`, apierr.CodeRequired, "windowId is required"},
			{"no issue", tok.Token, `{"windowId":1,"content":"BIG","amount":100,"betId":"x1"}`, apierr.CodeRequired, "issue is required"},
			{"no content", tok.Token, `{"windowId":1,"issue":"` + issue + `","amount":100,"betId":"x1"}`, apierr.CodeRequired, "content is required"},
			{"no amount", tok.Token, body(`"amount":null`), apierr.CodeRequired, "amount is required"},
			{"no bet id", tok.Token, `{"windowId":1,"issue":"` + issue + `","content":"BIG","amount":100}`, apierr.CodeRequired, "betId is required"},
			{"unknown window", tok.Token, `{"windowId":9,"issue":"` + issue + `","content":"BIG","amount":100,"betId":"x1"}`, apierr.CodeWindowUnknown, "Activation window 9 does not exist"},
			{"window as text", tok.Token, `{"windowId":"one","issue":"` + issue + `","content":"BIG","amount":100,"betId":"x1"}`, apierr.CodeBadRequest, "Field windowId has the wrong type"},
			{"stale issue", tok.Token, `{"windowId":1,"issue":"20260228000100001","content":"BIG","amount":100,"betId":"x1"}`, apierr.CodeIssueUnknown, "Round 20260228000100001 does not exist in this window"},
			{"wrong content", tok.Token, `{"windowId":1,"issue":"` + issue + `","content":"TRIPLE","amount":100,"betId":"x1"}`, apierr.CodeBetContentInvalid, "Bet content must be BIG, SMALL, SINGLE or DOUBLE"},
			{"fractional", tok.Token, body(`"amount":10.5`), apierr.CodeBetAmountInvalid, "Bet amount must be a positive whole number of cents"},
			{"exponent", tok.Token, body(`"amount":1e3`), apierr.CodeBetAmountInvalid, ""},
			{"negative", tok.Token, body(`"amount":-100`), apierr.CodeBetAmountInvalid, ""},
			{"zero", tok.Token, body(`"amount":0`), apierr.CodeBetAmountInvalid, ""},
			{"words", tok.Token, body(`"amount":"lots"`), apierr.CodeBetAmountInvalid, ""},
			{"below min", tok.Token, body(`"amount":99`), apierr.CodeBetBelowMin, "The minimum bet is 1.00"},
			{"above max", tok.Token, body(`"amount":100001`), apierr.CodeBetAboveMax, "The maximum bet is 1000.00"},
			{"overflow", tok.Token, body(`"amount":100000000000000000000000000000`), apierr.CodeBetAboveMax, "The maximum bet is 1000.00"},
			{"bad bet id", tok.Token, `{"windowId":1,"issue":"` + issue + `","content":"BIG","amount":100,"betId":"no spaces"}`, apierr.CodeBetIDInvalid, ""},
			{"someone else's bet id", bobTok.Token, `{"windowId":1,"issue":"` + issue + `","content":"SMALL","amount":100,"betId":"mine"}`, apierr.CodeBetIDTaken, "This bet id is already used by another player"},
			{"bet id reused", tok.Token, `{"windowId":1,"issue":"` + issue + `","content":"SMALL","amount":200,"betId":"mine"}`, apierr.CodeBetIDReused, ""},
			{"insufficient balance", tok.Token, body(`"amount":5000`), apierr.CodeInsufficientBalance, "Insufficient balance"},
			{"bob has nothing", bobTok.Token, body(`"amount":100`), apierr.CodeInsufficientBalance, "Insufficient balance"},
		}
		for _, c := range cases {
			r := bet(c.token, c.body)
			if r.Code != c.code || c.msg != "" && r.Message != c.msg {
				t.Errorf("%s: got %d %q, want %d %q", c.name, r.Code, r.Message, c.code, c.msg)
			}
		}
		if b, tr := count(); b != b0 || tr != t0 {
			t.Fatalf("refused bets wrote: bets %d→%d transfers %d→%d", b0, b, t0, tr)
		}
		r := bet(tok.Token, body(`"amount":100`))
		if r.Code != 0 {
			t.Fatalf("a valid bet after the refusals: %+v", r)
		}
		if r := call(t, h, "POST", "/api/activation/betRequest", body(`"amount":100`), "token", tok.Token, "Accept-Language", "zh-CN"); r.Code != 0 {
			t.Fatalf("resend: %+v", r)
		}
		if r := call(t, h, "POST", "/api/activation/betRequest", body(`"amount":5000`), "token", tok.Token, "Accept-Language", "vi-VN"); r.Code != apierr.CodeBetIDReused {
			t.Fatalf("reuse: %+v", r)
		}
		// Record and history filters.
		for _, q := range []string{`{"tab":"won"}`, `{"days":3}`, `{"page":-1}`, `{"pageSize":500}`} {
			if r := call(t, h, "POST", "/api/activation/lotteryBettingRecord", q, "token", tok.Token); r.Code != apierr.CodeInvalid {
				t.Errorf("records %s: %+v", q, r)
			}
		}
		if r := call(t, h, "POST", "/api/activation/historyPrize", `{"windowId":7}`); r.Code != apierr.CodeWindowUnknown {
			t.Errorf("history of an unknown window: %+v", r)
		}
		if r := call(t, h, "POST", "/api/activation/getNewLottery", `{}`, "token", tok.Token); r.Code != apierr.CodeRequired {
			t.Errorf("getNewLottery without a window: %+v", r)
		}
	})
}

func TestOperatorEditsWindowRules(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, c := roundsServer(t, db)
		h := s.Handler()
		_, userTok := newUser(t, s, "player")
		_, opTok := contentOperator(t, s, "oscar")
		edit := func(token, body string) reply {
			return call(t, h, "POST", "/api/admin/windows/update", body, "token", token, "Accept-Language", "en-US")
		}
		if r := edit(userTok.Token, `{"windowId":1,"odds":"1.95"}`); r.Code != apierr.CodeOperatorOnly {
			t.Fatalf("a player edited rules: %+v", r)
		}
		bad := map[string]string{
			`{"windowId":1,"odds":"1.99999"}`:             "odds must be within 1.00 - 100.00",
			`{"windowId":1,"odds":0.5}`:                   "odds must be within 1.00 - 100.00",
			`{"windowId":1,"minBet":0}`:                   "minBet must be within 1 - 1000000000000",
			`{"windowId":1,"minBet":200000}`:              "maxBet must be within 200000 - 1000000000000",
			`{"windowId":1,"bettingMs":500}`:              "bettingMs must be within 1000 - 86400000",
			`{"windowId":1,"restMs":1e20}`:                "",
			`{"windowId":1,"drawingMs":-5}`:               "drawingMs must be within 1000 - 86400000",
			`{"windowId":1,"drawingMs":9999999999999999}`: "drawingMs must be within 1000 - 86400000",
		}
		for body, msg := range bad {
			r := edit(opTok.Token, body)
			if r.Code == 0 || msg != "" && (r.Code != apierr.CodeWindowRulesInvalid || r.Message != msg) {
				t.Errorf("%s: %d %q", body, r.Code, r.Message)
			}
		}
		if r := edit(opTok.Token, `{"windowId":42,"odds":"2"}`); r.Code != apierr.CodeWindowUnknown {
			t.Fatalf("unknown window: %+v", r)
		}
		r := edit(opTok.Token, `{"windowId":1,"odds":"1.95","minBet":200,"bettingMs":30000}`)
		w := data[window.WindowRules](t, r)
		if r.Code != 0 || w.OddsBP != 19500 || w.Odds != "1.95" || w.MinBet != 200 || w.MaxBet != 100000 || w.BettingMs != 30000 || w.RestMs != 20000 {
			t.Fatalf("edit: %+v %s", r, r.Data)
		}
		list := data[[]window.WindowRules](t, call(t, h, "POST", "/api/admin/windows", `{}`, "token", opTok.Token))
		if len(list) != 2 || list[0].OddsBP != 19500 || list[1].OddsBP != 19800 {
			t.Fatalf("admin list: %+v", list)
		}
		// The round in progress keeps its rules; the next one gets the new ones.
		cur, _ := storage.LatestRound(context.Background(), db, 1)
		if cur.OddsBP != 19800 || cur.MinBet != 100 {
			t.Fatalf("the running round changed: %+v", cur)
		}
		closeAndDraw(t, c, cur.BettingEndsAt, cur.DrawingEndsAt)
		testenv.Eventually(t, 10*time.Second, func() bool {
			n, err := storage.LatestRound(context.Background(), db, 1)
			return err == nil && n.Seq == 2
		}, "next round scheduled")
		next, _ := storage.LatestRound(context.Background(), db, 1)
		if next.OddsBP != 19500 || next.MinBet != 200 || next.BettingEndsAt-next.StartsAt != 30000 || next.StartsAt != cur.RestEndsAt {
			t.Fatalf("next round: %+v", next)
		}
	})
}
