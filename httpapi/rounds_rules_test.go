package httpapi

import (
	"context"
	"testing"
	"time"

	"kj/actors/window"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

// An operator's change of odds and limits reaches the first round created
// after it. Players see the coming round's odds and limits on the window
// while they differ from the current round's; the console shows the
// current round's apart from the settings and the round they apply from.
// Limits in fractional cents are refused.
func TestRulesChangeShownForTheComingRound(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, c := roundsServer(t, db)
		h := s.Handler()
		_, userTok := newUser(t, s, "player")
		_, opTok := contentOperator(t, s, "oscar")
		lottery := func(id string) window.CurrentAndComing {
			return data[window.CurrentAndComing](t, call(t, h, "POST", "/api/activation/getNewLottery", `{"windowId":`+id+`}`, "token", userTok.Token))
		}
		admin := func() []window.RulesInEffect {
			return data[[]window.RulesInEffect](t, call(t, h, "POST", "/api/admin/windows", `{}`, "token", opTok.Token))
		}

		for _, body := range []string{`{"windowId":1,"minBet":12.5}`, `{"windowId":1,"maxBet":"1000.5"}`} {
			if r := call(t, h, "POST", "/api/admin/windows/update", body, "token", opTok.Token); r.Code == 0 {
				t.Fatalf("%s: accepted", body)
			}
		}
		if l := lottery("1"); l.Coming != nil {
			t.Fatalf("nothing changed, yet a coming change: %+v", l.Coming)
		}
		cur, _ := storage.LatestRound(context.Background(), db, 1)
		if list := admin(); list[0].Pending || list[0].FromIssue != cur.Issue || list[0].Current == nil || list[0].Current.OddsBP != 19800 {
			t.Fatalf("before the change: %+v", list[0])
		}

		if r := call(t, h, "POST", "/api/admin/windows/update", `{"windowId":1,"odds":"1.95","minBet":250}`, "token", opTok.Token); r.Code != 0 {
			t.Fatalf("edit: %+v", r)
		}
		l := lottery("1")
		if l.Round == nil || l.Round.OddsBP != 19800 || l.Round.MinBet != 100 {
			t.Fatalf("the current round changed: %+v", l.Round)
		}
		if l.Coming == nil || l.Coming.Odds != "1.95" || l.Coming.MinBet != 250 || l.Coming.MaxBet != 100000 {
			t.Fatalf("coming %+v, want 1.95 and 2.50 - 1,000.00", l.Coming)
		}
		if l2 := lottery("2"); l2.Coming != nil {
			t.Fatalf("window 2 did not change: %+v", l2.Coming)
		}
		list := admin()
		w1 := list[0]
		wantFrom := cur.Issue[:12] + "00002" // the next round of the day
		if w1.OddsBP != 19500 || w1.Current == nil || w1.Current.OddsBP != 19800 || w1.Current.Issue != cur.Issue || !w1.Pending || w1.FromIssue != wantFrom {
			t.Fatalf("console after the change: %+v (current %+v), want current 1.98 and 1.95 from %s", w1, w1.Current, wantFrom)
		}
		if list[1].Pending || list[1].FromIssue == "" {
			t.Fatalf("window 2: %+v", list[1])
		}

		// Drawn and settled, the next round is created with the new rules
		// while the current one rests: still coming.
		closeAndDraw(t, c, cur.BettingEndsAt, cur.DrawingEndsAt)
		testenv.Eventually(t, 10*time.Second, func() bool {
			n, err := storage.LatestRound(context.Background(), db, 1)
			return err == nil && n.Seq == 2
		}, "next round scheduled")
		next, _ := storage.LatestRound(context.Background(), db, 1)
		if next.Issue != wantFrom {
			t.Fatalf("the next round is %s, the console said %s", next.Issue, wantFrom)
		}
		if l := lottery("1"); l.Coming == nil || l.Coming.Issue != next.Issue || l.Coming.MinBet != 250 {
			t.Fatalf("during rest: coming %+v", l.Coming)
		}
		if w1 := admin()[0]; !w1.Pending || w1.FromIssue != next.Issue {
			t.Fatalf("console during rest: %+v", w1)
		}

		// The new round runs with them: nothing is coming any more.
		c.Set(time.UnixMilli(next.StartsAt))
		testenv.Eventually(t, 10*time.Second, func() bool {
			l := lottery("1")
			return l.Round != nil && l.Round.Issue == next.Issue
		}, "the next round is current")
		if l := lottery("1"); l.Coming != nil || l.Round.OddsBP != 19500 {
			t.Fatalf("the new round: %+v coming %+v", l.Round, l.Coming)
		}
		if w1 := admin()[0]; w1.Pending || w1.FromIssue != next.Issue || w1.Current.OddsBP != 19500 {
			t.Fatalf("console once applied: %+v", w1)
		}
	})
}
