package httpapi

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"kj/actors/window"
	"kj/internal/apierr"
	"kj/protection"
	"kj/storage"
	"kj/storage/storagetest"
	"kj/wallet"
)

// protectionLangs are the six languages every refusal is checked in.
var protectionLangs = []string{"zh-CN", "zh-HANT", "en-US", "es-ES", "ms-MY", "vi-VN"}

// refusedInEveryLanguage posts body to path as token in each language and
// fails the test unless every reply has code and the message of key with
// args in that language (each naming what must be named: want).
func refusedInEveryLanguage(t *testing.T, s *Server, token, path, body string, code int, key string, args map[string]any, want ...string) {
	t.Helper()
	seen := map[string]bool{}
	for _, lang := range protectionLangs {
		r := call(t, s.Handler(), "POST", "/api"+path, body, "token", token, "Accept-Language", lang)
		if r.Code != code {
			t.Fatalf("%s %s in %s: %d %q, want code %d", path, body, lang, r.Code, r.Message, code)
		}
		if exp := apierr.Translate(lang, key, args); r.Message != exp || r.Message == key {
			t.Fatalf("%s in %s: message %q, want %q", path, lang, r.Message, exp)
		}
		for _, w := range want {
			if !strings.Contains(r.Message, w) {
				t.Fatalf("%s in %s: %q does not name %q", path, lang, r.Message, w)
			}
		}
		seen[r.Message] = true
	}
	if len(seen) != len(protectionLangs) {
		t.Fatalf("%s: %d distinct messages in %d languages", path, len(seen), len(protectionLangs))
	}
}

// A loss limit and the exclusions over HTTP: refusals with their codes and
// messages in six languages, nothing written by a refused bet, and bad
// input refused with its own codes.
func TestProtectionRefusesBetsOverHTTP(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, c := roundsServer(t, db)
		s.Wallet.Config.USDTTRC20Address = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7" // recharges are offered
		alice, tok := newUser(t, s, "alice")
		fund(t, db, alice.ID, 50000)
		round, _ := storage.LatestRound(context.Background(), db, 1)
		n := 0
		bet := func(amount int) string {
			n++
			return fmt.Sprintf(`{"windowId":1,"issue":%q,"content":"BIG","amount":%d,"betId":"a-%d"}`, round.Issue, amount, n)
		}

		var l protection.Limit
		ok(t, s, tok.Token, "/protection/limit", `{"kind":"loss","period":"day","amount":1000}`, &l)
		if l.Amount != 1000 || l.Pending {
			t.Fatalf("limit: %+v", l)
		}
		first := bet(600)
		var placed window.BetView
		ok(t, s, tok.Token, "/activation/betRequest", first, &placed)
		bets := countRows(t, db, "round_bets")
		// Its answer lost, the app sends the same bet again: it gets the bet
		// placed, though the first copy's stake now leaves the limit no room
		// for a second.
		var again window.BetView
		ok(t, s, tok.Token, "/activation/betRequest", first, &again)
		if again.BetID != placed.BetID || countRows(t, db, "round_bets") != bets {
			t.Fatalf("a resend over the limit: %+v against %+v, %d bets; want the same bet and nothing written", again, placed, countRows(t, db, "round_bets"))
		}
		resets := protectionTime(time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)) // KJ_DAY_TIMEZONE is UTC here
		refusedInEveryLanguage(t, s, tok.Token, "/activation/betRequest", bet(500), apierr.CodeLossLimit, "protection.loss.day",
			map[string]any{"limit": "10.00", "resets": resets}, "10.00", "2026-03-02 00:00")
		if got := countRows(t, db, "round_bets"); got != bets {
			t.Fatalf("a refused bet was written: %d bets, want %d", got, bets)
		}
		// Raising waits 24 hours: the bet is still refused.
		ok(t, s, tok.Token, "/protection/limit", `{"kind":"loss","period":"day","amount":100000}`, &l)
		if l.Amount != 1000 || !l.Pending || l.NextAt != c.Now().Add(24*time.Hour).UnixMilli() {
			t.Fatalf("raise: %+v", l)
		}
		fails(t, s, tok.Token, "/activation/betRequest", bet(500), apierr.CodeLossLimit)

		// Bad input changes nothing.
		fails(t, s, tok.Token, "/protection/limit", `{"kind":"loss","period":"day","amount":-5}`, apierr.CodeLimitInvalid)
		fails(t, s, tok.Token, "/protection/limit", `{"kind":"loss","period":"day","amount":"1.5"}`, apierr.CodeLimitInvalid)
		fails(t, s, tok.Token, "/protection/limit", `{"kind":"luck","period":"day","amount":5}`, apierr.CodeInvalid)
		fails(t, s, tok.Token, "/protection/limit", `{"kind":"loss","period":"year","amount":5}`, apierr.CodeInvalid)
		fails(t, s, tok.Token, "/protection/limit", `{"kind":"loss","period":"day"}`, apierr.CodeRequired)
		refusedInEveryLanguage(t, s, tok.Token, "/protection/reality", `{"minutes":241}`, apierr.CodeRealityInvalid,
			"protection.reality.invalid", nil, "240")
		refusedInEveryLanguage(t, s, tok.Token, "/protection/limit", `{"kind":"deposit","period":"week","amount":-1}`,
			apierr.CodeLimitInvalid, "protection.limit.invalid", map[string]any{"max": wallet.FormatCents(storage.MaxAmount)})
		var st protection.Status
		ok(t, s, tok.Token, "/protection/status", `{}`, &st)
		if st.Limits[3].Amount != 1000 || st.Limits[3].NextAmount != 100000 || st.Limits[0].Amount != 0 || st.RealityMinutes != 0 ||
			st.TodayNet != -600 || st.Limits[3].Used != 600 {
			t.Fatalf("status after bad input: %+v", st)
		}

		// A cool-off stops bets and recharges at once; it cannot be
		// shortened.
		refusedInEveryLanguage(t, s, tok.Token, "/protection/exclude", `{"kind":"cooloff","days":43}`, apierr.CodeExclusionRange,
			"protection.cooloff.range", nil, "42")
		refusedInEveryLanguage(t, s, tok.Token, "/protection/exclude", `{"kind":"selfexclusion","months":3}`, apierr.CodeExclusionRange,
			"protection.selfexclusion.range", nil, "60")
		fails(t, s, tok.Token, "/protection/exclude", `{"kind":"nap","days":2}`, apierr.CodeInvalid)
		fails(t, s, tok.Token, "/protection/exclude", `{"days":2}`, apierr.CodeRequired)
		ok(t, s, tok.Token, "/protection/exclude", `{"kind":"cooloff","days":2}`, nil)
		until := protectionTime(c.Now().Add(48 * time.Hour))
		refusedInEveryLanguage(t, s, tok.Token, "/activation/betRequest", bet(100), apierr.CodeCoolingOff, "protection.cooloff",
			map[string]any{"until": until}, "2026-03-03 10:00")
		refusedInEveryLanguage(t, s, tok.Token, "/user/rechargeOrder", `{"amount":5000,"protocol":"TRC20","txHash":"`+hashN(7)+`"}`,
			apierr.CodeCoolingOff, "protection.cooloff", map[string]any{"until": until})
		refusedInEveryLanguage(t, s, tok.Token, "/protection/exclude", `{"kind":"cooloff","days":1}`, apierr.CodeExclusionShorter,
			"protection.exclusion.shorter", map[string]any{"until": until}, "2026-03-03 10:00")

		// A permanent self-exclusion of another player.
		bob, bobTok := newUser(t, s, "bob")
		fund(t, db, bob.ID, 50000)
		var e protection.Exclusion
		ok(t, s, bobTok.Token, "/protection/exclude", `{"kind":"selfexclusion","permanent":true}`, &e)
		if e.EndsAt != 0 || e.Kind != protection.SelfExclusion {
			t.Fatalf("exclusion: %+v", e)
		}
		refusedInEveryLanguage(t, s, bobTok.Token, "/activation/betRequest",
			fmt.Sprintf(`{"windowId":1,"issue":%q,"content":"SMALL","amount":100,"betId":"b-1"}`, round.Issue),
			apierr.CodeSelfExcluded, "protection.excluded.permanent", nil)
		refusedInEveryLanguage(t, s, bobTok.Token, "/protection/exclude", `{"kind":"cooloff","days":5}`, apierr.CodeExclusionShorter,
			"protection.exclusion.shorter.permanent", nil)

		// Every operator sees both, agents too.
		_, op := newOperator(t, s, "otto")
		var list listOf[exclusionJSON]
		ok(t, s, op.Token, "/admin/protection/exclusions", `{}`, &list)
		if list.Total != 2 || list.List[0].Account != "bob" || list.List[0].EndsAt != 0 || !list.List[0].InForce ||
			list.List[1].Account != "alice" || list.List[1].Kind != protection.CoolOff {
			t.Fatalf("exclusions: %+v", list)
		}
		ok(t, s, op.Token, "/admin/protection/exclusions", `{"account":"alice"}`, &list)
		if list.Total != 1 || list.List[0].Account != "alice" {
			t.Fatalf("alice's: %+v", list)
		}
		if !RoleAllows(storage.OperatorAgent, "/admin/protection/exclusions") || RoleAllows(storage.OperatorAgent, "/admin/protection/holds/release") {
			t.Fatal("agents must see exclusions and must not release holds")
		}
		fails(t, s, tok.Token, "/admin/protection/exclusions", `{}`, apierr.CodeOperatorOnly)
	})
}

// A recharge beyond the deposit limit: the order is taken and held, the
// player told so; an operator's confirmation is refused (in six
// languages) until an operator releases it, which is audited; then it is
// credited once.
func TestRechargeBeyondTheDepositLimitIsHeldOverHTTP(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, _ := walletServer(t, db)
		jade, tok := newUser(t, s, "jade")
		_, op := newOperator(t, s, "otto")
		ok(t, s, tok.Token, "/protection/limit", `{"kind":"deposit","period":"day","amount":10000}`, nil)
		order := func(amount, n int) string {
			return fmt.Sprintf(`{"amount":%d,"protocol":"TRC20","txHash":%q}`, amount, hashN(n))
		}
		var first, second rechargeHeldJSON
		ok(t, s, tok.Token, "/user/rechargeOrder", order(6000, 1), &first)
		if first.Held || first.HeldMessage != "" {
			t.Fatalf("within the limit: %+v", first)
		}
		until := protectionTime(time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC))
		ok(t, s, tok.Token, "/user/rechargeOrder", order(5000, 2), &second)
		if want := apierr.Translate("en-US", "protection.held.deposit.day", map[string]any{"limit": "100.00", "until": until}); !second.Held ||
			second.HeldMessage != want {
			t.Fatalf("beyond the limit: %+v, want the message %q", second, want)
		}
		ok(t, s, op.Token, "/admin/recharge/confirm", fmt.Sprintf(`{"orderId":%q}`, first.ID), nil)
		refusedInEveryLanguage(t, s, op.Token, "/admin/recharge/confirm", fmt.Sprintf(`{"orderId":%q}`, second.ID),
			apierr.CodeRechargeHeld, "protection.held.deposit.day", map[string]any{"limit": "100.00", "until": until}, "100.00")
		var holds listOf[holdJSON]
		ok(t, s, op.Token, "/admin/protection/holds", `{}`, &holds)
		if holds.Total != 1 || holds.List[0].OrderID != second.ID || holds.List[0].Account != "jade" || holds.List[0].Reason != "deposit.day" ||
			holds.List[0].Amount != 5000 || !strings.Contains(holds.List[0].Message, "100.00") {
			t.Fatalf("holds: %+v", holds)
		}
		fails(t, s, tok.Token, "/admin/protection/holds/release", fmt.Sprintf(`{"orderId":%q}`, second.ID), apierr.CodeOperatorOnly)
		fails(t, s, op.Token, "/admin/protection/holds/release", fmt.Sprintf(`{"orderId":%q}`, first.ID), apierr.CodeNotFound)
		ok(t, s, op.Token, "/admin/protection/holds/release", fmt.Sprintf(`{"orderId":%q,"remark":"player asked by phone"}`, second.ID), nil)
		fails(t, s, op.Token, "/admin/protection/holds/release", fmt.Sprintf(`{"orderId":%q}`, second.ID), apierr.CodeNotFound)
		ok(t, s, op.Token, "/admin/recharge/confirm", fmt.Sprintf(`{"orderId":%q}`, second.ID), nil)
		w, err := storage.WalletSummaryOf(context.Background(), db, jade.ID)
		if err != nil || w.Balance != 11000 {
			t.Fatalf("balance %+v %v, want 11000", w, err)
		}
		var n int
		if err := db.QueryRow(context.Background(), `SELECT COUNT(*) FROM audit_log WHERE action = 'recharge.release' AND target = $1`,
			second.ID).Scan(&n); err != nil || n != 1 {
			t.Fatalf("%d release audit entries", n)
		}
		ok(t, s, op.Token, "/admin/protection/holds", `{}`, &holds)
		if holds.Total != 0 {
			t.Fatalf("holds after release: %+v", holds)
		}
		storagetest.CheckLedger(t, db)
	})
}
