package httpapi

import (
	"context"
	"fmt"
	"testing"
	"time"

	"kj/actors/window"
	"kj/internal/apierr"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

// A two-selection slip through the route: one debit of the total, a bet
// each in the records, a resend answered with the same bets, and each bet
// settled on its own when the round is drawn; the ledger check stays green.
func TestBetSlipRoutePlaysARound(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		_, c, alice, post := roundsPlayer(t, db, 10000)
		round, _ := storage.LatestRound(context.Background(), db, 1)
		body := fmt.Sprintf(`{"windowId":1,"issue":"%s","slipId":"alice-slip-1","selections":[{"content":"BIG","amount":2500},{"content":"SINGLE","amount":"1500"}]}`, round.Issue)
		r := post("betSlip", body)
		slip := data[window.SlipView](t, r)
		if r.Code != 0 || slip.SlipID != "alice-slip-1" || slip.Total != 4000 || len(slip.Bets) != 2 ||
			slip.Bets[0].BetID != "alice-slip-1.1" || slip.Bets[0].Content != window.Big || slip.Bets[0].Amount != 2500 ||
			slip.Bets[1].BetID != "alice-slip-1.2" || slip.Bets[1].Content != window.Single || slip.Bets[1].Amount != 1500 {
			t.Fatalf("betSlip: %+v %s", r, r.Data)
		}
		if again := data[window.SlipView](t, post("betSlip", body)); len(again.Bets) != 2 ||
			again.Bets[0].NoteNo != slip.Bets[0].NoteNo || again.Bets[1].NoteNo != slip.Bets[1].NoteNo {
			t.Fatalf("resend made new bets: %+v vs %+v", again, slip)
		}
		if b, _ := storage.AccountBalance(context.Background(), db, storage.Wallet(alice.ID)); b != 6000 {
			t.Fatalf("balance after the slip %d", b)
		}
		cur := data[window.Current](t, post("getNewLottery", `{"windowId":1}`))
		if len(cur.MyBets) != 2 || cur.Round.OrdersCount != 2 || cur.Round.TotalPoints != 4000 {
			t.Fatalf("my bets: %+v", cur)
		}

		closeAndDraw(t, c, round.BettingEndsAt, round.DrawingEndsAt)
		var drawn storage.Round
		testenv.Eventually(t, 10*time.Second, func() bool {
			drawn, _ = storage.RoundByID(context.Background(), db, round.ID)
			return drawn.State == storage.RoundSettled
		}, "round settled")
		sum := drawn.D0 + drawn.D1 + drawn.D2
		recs := data[listOf[window.BetView]](t, post("lotteryBettingRecord", `{"tab":"matched"}`))
		if len(recs.List) != 2 {
			t.Fatalf("matched records: %+v", recs)
		}
		want := int64(6000)
		for _, b := range recs.List {
			win := b.Content == window.Big && sum >= 14 || b.Content == window.Single && sum%2 == 1
			if (b.Result == "win") != win || win && b.Payout != b.Amount*drawn.OddsBP/10000 || !win && b.Payout != 0 {
				t.Fatalf("bet %s on %s, sum %d: %+v", b.BetID, b.Content, sum, b)
			}
			want += b.Payout
		}
		if b, _ := storage.AccountBalance(context.Background(), db, storage.Wallet(alice.ID)); b != want {
			t.Fatalf("balance after settlement %d, want %d", b, want)
		}
		if rep, _ := storage.CheckLedger(context.Background(), db); !rep.OK() {
			t.Fatal(rep)
		}
	})
}

// A slip with any bad selection, or that the balance covers only in part,
// is refused whole with a translated message, and nothing is written.
func TestBetSlipRefusedWholeWritesNothing(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, _ := roundsServer(t, db)
		h := s.Handler()
		alice, tok := newUser(t, s, "alice")
		_, bobTok := newUser(t, s, "bob")
		fund(t, db, alice.ID, 3000)
		round, _ := storage.LatestRound(context.Background(), db, 1)
		issue := round.Issue
		slip := func(token, lang, body string) reply {
			return call(t, h, "POST", "/api/activation/betSlip", body, "token", token, "Accept-Language", lang)
		}
		with := func(id, sels string) string {
			return `{"windowId":1,"issue":"` + issue + `","slipId":"` + id + `","selections":[` + sels + `]}`
		}
		if r := slip(tok.Token, "en-US", with("mine", `{"content":"SMALL","amount":100},{"content":"DOUBLE","amount":100}`)); r.Code != 0 {
			t.Fatalf("valid slip: %+v", r)
		}
		b0, t0 := countRows(t, db, "round_bets"), countRows(t, db, "ledger_transfers")
		cases := []struct {
			name, token, lang, body string
			code                    int
			msg                     string
		}{
			{"no token", "", "en-US", with("x1", `{"content":"BIG","amount":100}`), apierr.CodeTokenExpired, ""},
			{"no window", tok.Token, "en-US", `{"issue":"` + issue + `","slipId":"x1","selections":[{"content":"BIG","amount":100}]}`, apierr.CodeRequired, "windowId is required"},
			{"no slip id", tok.Token, "en-US", `{"windowId":1,"issue":"` + issue + `","selections":[{"content":"BIG","amount":100}]}`, apierr.CodeRequired, "slipId is required"},
			{"no selections", tok.Token, "en-US", with("x1", ``), apierr.CodeRequired, "selections is required"},
			{"five selections", tok.Token, "en-US", with("x1", `{"content":"BIG","amount":100},{"content":"SMALL","amount":100},{"content":"SINGLE","amount":100},{"content":"DOUBLE","amount":100},{"content":"BIG","amount":100}`),
				apierr.CodeBetSlipInvalid, "A bet slip holds 1 to 4 selections, each on a different content"},
			{"the same content twice", tok.Token, "zh-CN", with("x1", `{"content":"BIG","amount":100},{"content":"BIG","amount":200}`),
				apierr.CodeBetSlipInvalid, "投注单须包含 1 至 4 个选项，且每个选项的内容不同"},
			{"a selection without amount", tok.Token, "en-US", with("x1", `{"content":"BIG","amount":100},{"content":"SMALL"}`), apierr.CodeRequired, "amount is required"},
			{"a selection without content", tok.Token, "en-US", with("x1", `{"content":"BIG","amount":100},{"amount":100}`), apierr.CodeRequired, "content is required"},
			{"a fractional amount", tok.Token, "en-US", with("x1", `{"content":"BIG","amount":100},{"content":"SMALL","amount":10.5}`), apierr.CodeBetAmountInvalid, ""},
			{"a wrong content", tok.Token, "en-US", with("x1", `{"content":"BIG","amount":100},{"content":"TRIPLE","amount":100}`), apierr.CodeBetContentInvalid, ""},
			{"a selection below the minimum", tok.Token, "es-ES", with("x1", `{"content":"BIG","amount":100},{"content":"SMALL","amount":99}`), apierr.CodeBetBelowMin, ""},
			{"a selection above the maximum", tok.Token, "en-US", with("x1", `{"content":"BIG","amount":100001},{"content":"SMALL","amount":100}`), apierr.CodeBetAboveMax, "The maximum bet is 1000.00"},
			{"a bad slip id", tok.Token, "en-US", with("no spaces", `{"content":"BIG","amount":100}`), apierr.CodeBetIDInvalid, ""},
			{"balance covers only part", tok.Token, "en-US", with("x1", `{"content":"BIG","amount":2000},{"content":"SINGLE","amount":1000}`), apierr.CodeInsufficientBalance, "Insufficient balance"},
			{"someone else's slip", bobTok.Token, "en-US", with("mine", `{"content":"SMALL","amount":100},{"content":"DOUBLE","amount":100}`), apierr.CodeBetIDTaken, ""},
			{"slip id reused", tok.Token, "vi-VN", with("mine", `{"content":"SMALL","amount":100},{"content":"DOUBLE","amount":200}`), apierr.CodeBetIDReused, ""},
			{"unknown window", tok.Token, "en-US", `{"windowId":9,"issue":"` + issue + `","slipId":"x1","selections":[{"content":"BIG","amount":100}]}`, apierr.CodeWindowUnknown, ""},
			{"stale issue", tok.Token, "en-US", `{"windowId":1,"issue":"20260228000100001","slipId":"x1","selections":[{"content":"BIG","amount":100}]}`, apierr.CodeIssueUnknown, ""},
		}
		for _, c := range cases {
			r := slip(c.token, c.lang, c.body)
			if r.Code != c.code || c.msg != "" && r.Message != c.msg || r.Message == "" {
				t.Errorf("%s: got %d %q, want %d %q", c.name, r.Code, r.Message, c.code, c.msg)
			}
		}
		if b, tr := countRows(t, db, "round_bets"), countRows(t, db, "ledger_transfers"); b != b0 || tr != t0 {
			t.Fatalf("refused slips wrote: bets %d→%d transfers %d→%d", b0, b, t0, tr)
		}
		if b, _ := storage.AccountBalance(context.Background(), db, storage.Wallet(alice.ID)); b != 2800 {
			t.Fatalf("balance %d after refused slips", b)
		}
		// The whole balance in one slip is accepted.
		if r := slip(tok.Token, "en-US", with("x1", `{"content":"BIG","amount":1800},{"content":"SINGLE","amount":1000}`)); r.Code != 0 {
			t.Fatalf("a slip of the whole balance: %+v", r)
		}
		if rep, _ := storage.CheckLedger(context.Background(), db); !rep.OK() {
			t.Fatal(rep)
		}
	})
}

// Player protection judges a slip by its total: a loss limit each
// selection alone stays under refuses the slip whole, writing nothing.
func TestBetSlipIsHeldToTheLossLimitByItsTotal(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, _ := roundsServer(t, db)
		h := s.Handler()
		alice, tok := newUser(t, s, "alice")
		fund(t, db, alice.ID, 50000)
		round, _ := storage.LatestRound(context.Background(), db, 1)
		post := func(path, body string) reply {
			return call(t, h, "POST", "/api/"+path, body, "token", tok.Token, "Accept-Language", "en-US")
		}
		if r := post("protection/limit", `{"kind":"loss","period":"day","amount":1000}`); r.Code != 0 {
			t.Fatalf("limit: %+v", r)
		}
		slip := func(id string, a, b int) reply {
			return post("activation/betSlip", fmt.Sprintf(`{"windowId":1,"issue":%q,"slipId":%q,"selections":[{"content":"BIG","amount":%d},{"content":"DOUBLE","amount":%d}]}`, round.Issue, id, a, b))
		}
		bets, transfers := countRows(t, db, "round_bets"), countRows(t, db, "ledger_transfers")
		if r := slip("over", 600, 600); r.Code != apierr.CodeLossLimit || r.Message == "" {
			t.Fatalf("a slip over the loss limit by its total: %+v", r)
		}
		if countRows(t, db, "round_bets") != bets || countRows(t, db, "ledger_transfers") != transfers {
			t.Fatal("a slip refused by the loss limit wrote")
		}
		if r := slip("under", 500, 500); r.Code != 0 {
			t.Fatalf("a slip within the loss limit: %+v", r)
		}
		if b, _ := storage.AccountBalance(context.Background(), db, storage.Wallet(alice.ID)); b != 49000 {
			t.Fatalf("balance %d", b)
		}
	})
}
