package httpapi

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"kj/storage"
)

// A user's wallet records in the console: a range of days in
// KJ_DAY_TIMEZONE narrows them, pages them with the balance after each, and
// the CSV export has the same rows in points with a debit as a plain number
// and a formula-like reference defused.
func TestUserLedgerDateRangeAndCSV(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		day := shanghaiDays(s)
		_, agentTok := newAgent(t, s, "desk_ledger")
		u, _ := newUser(t, s, "alice_ledger")
		w := storage.Wallet(u.ID)
		for i, m := range []struct {
			at        int64
			debit, cr storage.AccountRef
			amount    int64
			ref       string
		}{
			{day("2026-03-01", 0), storage.RechargeClearing, w, 12000, "R1"},     // 00:00 Shanghai
			{day("2026-03-01", 23), w, storage.BetsInPlay, 505, "=HYPERLINK(1)"}, // 23:00 Shanghai
			{day("2026-03-02", 0), storage.RechargeClearing, w, 100, "R3"},
		} {
			res, err := storage.CommitLedgerBatch(t.Context(), db, m.at, []storage.Op{{Transfers: []storage.Transfer{{Debit: m.debit,
				Credit: m.cr, Amount: m.amount, Kind: storage.KindRecharge, Ref: m.ref, IdempotencyKey: fmt.Sprint("ledger-range-", i)}}}}, 0)
			if err != nil || res[0].Err != nil {
				t.Fatalf("transfer %d: %v %+v", i, err, res)
			}
		}
		list := func(body string) listOf[walletLineView] {
			t.Helper()
			return contentOK[listOf[walletLineView]](t, contentPost(t, s, "/admin/user/ledger", body, agentTok.Token))
		}
		uid := fmt.Sprint(u.ID)
		if l := list(`{"userId":"` + uid + `"}`); l.Total != 3 || l.List[0].Ref != "R3" || l.List[0].BalanceAfter != 11595 {
			t.Fatalf("all records: %+v", l)
		}
		if l := list(`{"userId":"` + uid + `","from":"2026-03-01","to":"2026-03-01"}`); l.Total != 2 || len(l.List) != 2 ||
			l.List[0].Amount != -505 || l.List[0].BalanceAfter != 11495 || l.List[1].BalanceAfter != 12000 {
			t.Fatalf("one Shanghai day: %+v", l)
		}
		if l := list(`{"userId":"` + uid + `","to":"2026-03-01","page":2,"pageSize":1}`); l.Total != 2 || len(l.List) != 1 || l.List[0].Ref != "R1" {
			t.Fatalf("second page of the range: %+v", l)
		}
		for body, field := range map[string]string{
			`{"userId":"` + uid + `","from":"2026-3-1"}`:                     "from",
			`{"userId":"` + uid + `","from":"2026-03-02","to":"2026-03-01"}`: "to",
		} {
			r := post(t, s, agentTok.Token, "/admin/user/ledger", body, "Accept-Language", "en-US")
			if r.Code != 1002 || !strings.Contains(r.Message, field) {
				t.Errorf("%s: %d %q, want 1002 naming %s", body, r.Code, r.Message, field)
			}
		}

		r := post(t, s, agentTok.Token, "/admin/user/ledger/export", `{"userId":"`+uid+`","to":"2026-03-01"}`)
		var ex ordersExport
		if r.Code != 0 || json.Unmarshal(r.Data, &ex) != nil || ex.Rows != 2 || !strings.HasSuffix(ex.FileName, ".csv") {
			t.Fatalf("export: %d %s %+v", r.Code, r.Message, ex)
		}
		if !strings.HasPrefix(ex.CSV, "\uFEFF") {
			t.Fatal("export without a byte-order mark")
		}
		rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(ex.CSV, "\uFEFF"))).ReadAll()
		if err != nil || len(rows) != 3 {
			t.Fatalf("csv %q: %v", ex.CSV, err)
		}
		if want := []string{"2026-03-01 23:00:00", storage.KindRecharge, "'=HYPERLINK(1)", "-5.05", "114.95"}; fmt.Sprint(rows[1][:5]) != fmt.Sprint(want) {
			t.Errorf("csv row %q, want %q", rows[1], want)
		}
		if want := []string{"2026-03-01 00:00:00", storage.KindRecharge, "R1", "120.00", "120.00"}; fmt.Sprint(rows[2][:5]) != fmt.Sprint(want) {
			t.Errorf("csv row %q, want %q", rows[2], want)
		}
		zh := post(t, s, agentTok.Token, "/admin/user/ledger/export", `{"userId":"`+uid+`"}`, "Accept-Language", "zh-CN")
		if !strings.Contains(string(zh.Data), "变动后余额") {
			t.Fatalf("zh-CN export: %s", zh.Data)
		}
	})
}
