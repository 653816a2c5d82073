package httpapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	"kj/actors/window"
	"kj/internal/apierr"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

// The bet list a round commits to at its close is public through
// /activation/roundBets: empty while betting is open, then every accepted
// bet (no player named) whose lines hash to the round's betsHash.
func TestRoundBetsListsTheCommittedBets(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, c, alice, post := roundsPlayer(t, db, 50000)
		h := s.Handler()
		cur := data[window.Current](t, post("getNewLottery", `{"windowId":1}`))
		issue := cur.Round.Issue
		for i, b := range []string{`"BIG","amount":2500`, `"SMALL","amount":100`} {
			if r := post("betRequest", fmt.Sprintf(`{"windowId":1,"issue":"%s","content":%s,"betId":"list-%d"}`, issue, b, i)); r.Code != 0 {
				t.Fatalf("bet: %+v", r)
			}
		}
		open := data[window.BetList](t, post("roundBets", fmt.Sprintf(`{"windowId":1,"issue":"%s"}`, issue)))
		if open.BetsHash != "" || len(open.Bets) != 0 {
			t.Fatalf("the list of an open round is not final, yet it was answered: %+v", open)
		}
		if r := post("roundBets", `{"windowId":1}`); r.Code != apierr.CodeRequired || !strings.Contains(r.Message, "issue") {
			t.Fatalf("no issue: %+v", r)
		}
		if r := post("roundBets", `{"windowId":1,"issue":"20990101000100001"}`); r.Code != apierr.CodeIssueUnknown {
			t.Fatalf("unknown issue: %+v", r)
		}

		closeAndDraw(t, c, cur.Round.BettingEndsAt, cur.Round.DrawingEndsAt)
		testenv.Eventually(t, 10*time.Second, func() bool {
			r, _ := storage.RoundByIssue(context.Background(), db, 1, issue, false)
			return r.State == storage.RoundSettled
		}, "round settled")
		list := data[window.BetList](t, post("roundBets", fmt.Sprintf(`{"windowId":1,"issue":"%s"}`, issue)))
		var lines strings.Builder
		for _, b := range list.Bets {
			fmt.Fprintf(&lines, "%s:%s:%d\n", b.NoteNo, b.Content, b.Amount)
		}
		sum := sha256.Sum256([]byte(lines.String()))
		if len(list.Bets) != 2 || list.Bets[0].Content != window.Big || list.BetsHash != hex.EncodeToString(sum[:]) {
			t.Fatalf("bet list %+v does not hash to its betsHash (%x)", list, sum)
		}
		hist := data[listOf[window.ResultView]](t, call(t, h, "POST", "/api/activation/historyPrize", `{"windowId":1}`))
		if len(hist.List) != 1 || hist.List[0].BetsHash != list.BetsHash || hist.List[0].BeaconRound != 0 {
			t.Fatalf("history does not show the committed hash: %+v", hist)
		}
		if strings.Contains(string(post("roundBets", fmt.Sprintf(`{"windowId":1,"issue":"%s"}`, issue)).Data), fmt.Sprint(alice.ID)) {
			t.Fatal("the public bet list names the player")
		}
	})
}

// The rules say plainly whether the operator can foresee the draw.
func TestRulesSayWhetherTheDrawIsForeseeable(t *testing.T) {
	t.Parallel()
	s, _ := roundsServer(t, storagetest.SQLite(t))
	h := s.Handler()
	r := call(t, h, "POST", "/api/activation/getRuleList", `{}`, "Accept-Language", "en-US")
	if r.Code != 0 || !strings.Contains(string(r.Data), "the operator can know the result before betting closes") ||
		!strings.Contains(string(r.Data), `"beacon":null`) {
		t.Fatalf("without a beacon: %s", r.Data)
	}
	s.Rounds.Beacon = &window.Beacon{URL: "https://beacon.example/chain", Wait: 20 * time.Second}
	r = call(t, h, "POST", "/api/activation/getRuleList", `{}`, "Accept-Language", "zh-CN")
	if r.Code != 0 || !strings.Contains(string(r.Data), "https://beacon.example/chain") || !strings.Contains(string(r.Data), "20 秒") ||
		!strings.Contains(string(r.Data), `"waitMs":20000`) {
		t.Fatalf("with a beacon: %s", r.Data)
	}
}
