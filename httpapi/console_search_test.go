package httpapi

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"kj/storage"
)

// shanghaiDays puts the server's days in Asia/Shanghai (KJ_DAY_TIMEZONE) and
// answers the time of an hour of one of those days.
func shanghaiDays(s *Server) func(d string, hour int) int64 {
	zone, _ := time.LoadLocation("Asia/Shanghai")
	s.Config.DayZone = zone
	return func(d string, hour int) int64 {
		t0, _ := time.ParseInLocation(time.DateOnly, d, zone)
		return t0.Add(time.Duration(hour) * time.Hour).UnixMilli()
	}
}

// The console's order search finds by part of an account, its date range
// is of days in KJ_DAY_TIMEZONE, and the CSV export has the same rows with
// amounts in points and formula-like cells defused.
func TestOrderSearchDateRangesAndCSV(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		day := shanghaiDays(s)
		_, agentTok := newAgent(t, s, "desk_csv")
		u, _ := newUser(t, s, "alice_csv")
		for i, o := range []storage.RechargeOrder{
			{OrderNo: "R1", Amount: 12000, TxHash: "0xaa01", Remark: "=HYPERLINK(\"x\")", CreatedAt: day("2026-03-01", 0)}, // 00:00 Shanghai
			{OrderNo: "R2", Amount: 505, TxHash: "0xaa02", Remark: "a,b \"q\"", CreatedAt: day("2026-03-01", 23)},
			{OrderNo: "R3", Amount: 100, TxHash: "0xaa03", CreatedAt: day("2026-03-02", 0)},
		} {
			o.ID, o.UserID, o.Protocol = storage.NewID()+int64(i), u.ID, "TRC20"
			if err := storage.CreateRechargeOrder(t.Context(), db, o); err != nil {
				t.Fatal(err)
			}
		}
		search := func(body string) listOf[foundOrder] {
			t.Helper()
			return contentOK[listOf[foundOrder]](t, contentPost(t, s, "/admin/orders/search", body, agentTok.Token))
		}
		if l := search(`{"kind":"recharge","keyword":"ALICE"}`); l.Total != 3 || l.List[0].Account != "alice_csv" {
			t.Fatalf("by part of the account: %+v", l)
		}
		if l := search(`{"kind":"recharge","from":"2026-03-01","to":"2026-03-01"}`); l.Total != 2 {
			t.Fatalf("one Shanghai day: %+v", l)
		}
		if l := search(`{"kind":"recharge","from":"2026-03-02"}`); l.Total != 1 || l.List[0].OrderNo != "R3" {
			t.Fatalf("from a day: %+v", l)
		}
		if r := post(t, s, agentTok.Token, "/admin/orders/search", `{"kind":"recharge","from":"2026-03-02","to":"2026-03-01"}`); r.Code == 0 {
			t.Fatal("a range ending before it starts was accepted")
		}
		if r := post(t, s, agentTok.Token, "/admin/orders/search", `{"kind":"bets"}`); r.Code == 0 {
			t.Fatal("an unknown kind was accepted")
		}

		r := post(t, s, agentTok.Token, "/admin/orders/export", `{"kind":"recharge","keyword":"alice","to":"2026-03-01"}`)
		var ex ordersExport
		if r.Code != 0 || json.Unmarshal(r.Data, &ex) != nil || ex.Rows != 2 || !strings.HasSuffix(ex.FileName, ".csv") {
			t.Fatalf("export: %d %s %+v", r.Code, r.Message, ex)
		}
		rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(ex.CSV, "\uFEFF"))).ReadAll()
		if err != nil || len(rows) != 3 {
			t.Fatalf("csv %q: %v", ex.CSV, err)
		}
		got := fmt.Sprint(rows[1:])
		for _, want := range []string{"R2 alice_csv", "5.05", "a,b \"q\"", "R1 alice_csv", "120.00", "'=HYPERLINK", "2026-03-01 00:00:00", "under review"} {
			if !strings.Contains(got, want) {
				t.Errorf("csv rows %s lack %q", got, want)
			}
		}
		zh := post(t, s, agentTok.Token, "/admin/orders/export", `{"kind":"recharge"}`, "Accept-Language", "zh-CN")
		if !strings.Contains(string(zh.Data), "订单号") || !strings.Contains(string(zh.Data), "审核中") {
			t.Fatalf("zh-CN export: %s", zh.Data)
		}
	})
}

func TestCSVCellDefusesFormulas(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"=1+1": "'=1+1", "+1": "'+1", "-2": "'-2", "@SUM": "'@SUM", "\tx": "'\tx", "ok": "ok", "": ""} {
		if got := csvCell(in); got != want {
			t.Errorf("csvCell(%q) = %q, want %q", in, got, want)
		}
	}
}
