package httpapi

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"kj/actors/window"
	"kj/internal/apierr"
	"kj/internal/clock"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

// showsOutcome reports whether r came out as outcome (of group).
func showsOutcome(r window.ResultView, group, outcome string) bool {
	if group == "digit" {
		for _, d := range r.Digits {
			if fmt.Sprint(d) == outcome {
				return true
			}
		}
		return false
	}
	for _, word := range strings.Fields(outcome) {
		if string(r.Outcome[0]) != word && string(r.Outcome[1]) != word {
			return false
		}
	}
	return true
}

// playRounds runs n whole rounds of both windows on the fake clock.
func playRounds(t *testing.T, db storage.DB, c *clock.Fake, n int) {
	t.Helper()
	ctx := context.Background()
	for i := 0; i < n; i++ {
		r, err := storage.CurrentRound(ctx, db, 1, c.Now().UnixMilli())
		if err != nil {
			t.Fatal(err)
		}
		closeAndDraw(t, c, r.BettingEndsAt, r.DrawingEndsAt)
		testenv.Eventually(t, 10*time.Second, func() bool {
			a, _ := storage.RoundByID(ctx, db, r.ID)
			b, _ := storage.LatestRound(ctx, db, 2)
			return a.State == storage.RoundSettled && b.Seq > r.Seq
		}, "round %s settled in both windows", r.Issue)
		waitTimers(t, c, 3)
		c.Set(time.UnixMilli(r.RestEndsAt))
		waitTimers(t, c, 3)
	}
}

// The trend board and the fairness reports agree with the history: the
// board is cached before any draw and still shows every round after them.
func TestTrendAndFairnessRoutes(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, c := roundsServer(t, db)
		h := s.Handler()
		_, tok := newUser(t, s, "trendy")
		post := func(path, body string) reply {
			return call(t, h, "POST", "/api/activation/"+path, body, "token", tok.Token, "Accept-Language", "en-US")
		}
		if tr := data[window.Trend](t, post("trend", `{"windowId":1}`)); tr.Rounds != 0 || len(tr.Boards) != 2 {
			t.Fatalf("trend before any draw: %+v", tr)
		}
		const rounds = 4
		playRounds(t, db, c, rounds)

		hist := data[listOf[window.ResultView]](t, call(t, h, "POST", "/api/activation/historyPrize", `{"windowId":1}`))
		if len(hist.List) != rounds {
			t.Fatalf("history %d rounds", len(hist.List))
		}
		r := post("trend", `{"windowId":1}`)
		tr := data[window.Trend](t, r)
		if r.Code != 0 || tr.Rounds != rounds || tr.LatestIssue != hist.List[0].Issue {
			t.Fatalf("trend: %s", r.Data)
		}
		for _, b := range tr.Boards {
			counts := map[window.Content]int{}
			for i, cell := range b.Bead {
				h := hist.List[rounds-1-i] // history is newest first, the board oldest first
				want := h.Outcome[0]
				if b.Kind == "parity" {
					want = h.Outcome[1]
				}
				if cell.Issue != h.Issue || cell.Value != want || cell.Col != i/6 || cell.Row != i%6 {
					t.Fatalf("%s bead %d: %+v, history %+v", b.Kind, i, cell, h)
				}
				counts[want]++
			}
			for v, n := range counts {
				if b.Counts[v] != n {
					t.Fatalf("%s counts %v, want %v", b.Kind, b.Counts, counts)
				}
			}
		}

		f := data[window.Fairness](t, post("fairness", `{"windowId":1}`))
		if f.Rounds != rounds || len(f.Tests) != 4 {
			t.Fatalf("fairness: %+v", f)
		}
		for _, x := range f.Tests {
			var seen int64
			for _, row := range x.Rows {
				seen += row.Observed
				if row.Observed > 0 && (row.Latest == nil || !showsOutcome(*row.Latest, x.Group, row.Outcome)) {
					t.Fatalf("%s %s: latest round %+v", x.Group, row.Outcome, row.Latest)
				}
				if row.Observed == 0 && row.Latest != nil {
					t.Fatalf("%s %s: a latest round for an outcome never drawn", x.Group, row.Outcome)
				}
			}
			if seen != x.Total || x.PValue < 0 || x.PValue > 1 {
				t.Fatalf("%s: rows add to %d of %d, p %v", x.Group, seen, x.Total, x.PValue)
			}
		}
		newest := f.Tests[0].Rows[0]
		if hist.List[0].Outcome[0] != window.Big {
			newest = f.Tests[0].Rows[1]
		}
		if newest.Latest == nil || newest.Latest.Issue != hist.List[0].Issue {
			t.Fatalf("the %s row does not name the newest round %s: %+v", newest.Outcome, hist.List[0].Issue, newest.Latest)
		}
		if r := post("fairness", `{"windowId":7}`); r.Code != apierr.CodeWindowUnknown {
			t.Fatalf("unknown window: %+v", r)
		}
		if r := post("trend", `{}`); r.Code != apierr.CodeRequired {
			t.Fatalf("no window: %+v", r)
		}

		// Operators: over all rounds, of one window or of both.
		_, admin := newOperator(t, s, "fair_boss")
		_, agent := newAgent(t, s, "fair_desk")
		all := data[window.Fairness](t, call(t, h, "POST", "/api/admin/rounds/fairness", `{}`, "token", admin.Token))
		if all.Rounds != 2*rounds {
			t.Fatalf("all windows: %+v", all)
		}
		one := data[window.Fairness](t, call(t, h, "POST", "/api/admin/rounds/fairness", `{"windowId":1}`, "token", agent.Token))
		if one.Rounds != rounds || one.Tests[0].ChiSq != f.Tests[0].ChiSq {
			t.Fatalf("window 1 for the agent: %+v vs %+v", one, f)
		}
		if r := call(t, h, "POST", "/api/admin/rounds/fairness", `{"windowId":9}`, "token", admin.Token); r.Code != apierr.CodeWindowUnknown {
			t.Fatalf("unknown window: %+v", r)
		}
	})
}
