package httpapi

// The console's order queues and records: search by any part of the order
// number, tx hash, account or nickname, a range of days (KJ_DAY_TIMEZONE),
// one state or all, paged; and the same list as CSV for a spreadsheet.

import (
	"bytes"
	"context"
	"encoding/csv"
	"regexp"
	"strconv"
	"strings"
	"time"

	"kj/internal/apierr"
	"kj/storage"
	"kj/wallet"
)

func init() {
	registerArea(func(s *Server) {
		s.Post("/admin/orders/search", Operator, s.adminOrdersSearch)
		s.Post("/admin/orders/export", Operator, s.adminOrdersExport)
	})
}

// ordersSearchRequest is the filter of both routes.
type ordersSearchRequest struct {
	Kind     string `json:"kind"`    // "recharge" or "exchange"
	Status   *int   `json:"status"`  // absent: any state
	Keyword  string `json:"keyword"` // any part of order number, tx hash, account or nickname
	From     string `json:"from"`    // yyyy-mm-dd, the first day (in KJ_DAY_TIMEZONE); "" open
	To       string `json:"to"`      // yyyy-mm-dd, the last day included; "" open
	Page     int    `json:"page"`
	PageSize int    `json:"pageSize"`
}

// foundOrder is an order as the console's search lists it.
type foundOrder struct {
	orderJSON
	Nickname string `json:"nickName"`
	// A recharge above KJ_RECHARGE_MAX, as the review queue shows it.
	NeedsSecondApproval bool   `json:"needsSecondApproval,omitempty"`
	FirstApprovedBy     string `json:"firstApprovedBy,omitempty"`
	FirstApprovedAt     int64  `json:"firstApprovedAt,omitempty"`
}

// maxExportRows bounds one CSV export; a longer list is narrowed by dates.
const maxExportRows = 10_000

func (s *Server) decodeOrderSearch(c *Call) (ordersSearchRequest, storage.OrderSearch, error) {
	var req ordersSearchRequest
	if err := c.Decode(&req); err != nil {
		return req, storage.OrderSearch{}, err
	}
	if req.Kind != "recharge" && req.Kind != "exchange" {
		return req, storage.OrderSearch{}, apierr.Invalid("kind")
	}
	f := storage.OrderSearch{Status: -1, Keyword: strings.TrimSpace(req.Keyword)}
	if len(f.Keyword) > 64 {
		return req, f, apierr.Invalid("keyword")
	}
	if req.Status != nil {
		if *req.Status < storage.OrderUnderReview || *req.Status > storage.OrderFailed {
			return req, f, apierr.Invalid("status")
		}
		f.Status = *req.Status
	}
	var err error
	if f.From, err = s.dayStart(req.From, 0, "from"); err != nil {
		return req, f, err
	}
	if f.To, err = s.dayStart(req.To, 1, "to"); err != nil {
		return req, f, err
	}
	if f.From != 0 && f.To != 0 && f.To <= f.From {
		return req, f, apierr.Invalid("to")
	}
	return req, f, nil
}

// dayStart is the start of day (yyyy-mm-dd) plus after days, at midnight in
// KJ_DAY_TIMEZONE, in unix ms; 0 for "".
func (s *Server) dayStart(day string, after int, field string) (int64, error) {
	if day == "" {
		return 0, nil
	}
	zone := s.Config.DayZone
	if zone == nil {
		zone = time.UTC
	}
	d, err := time.ParseInLocation(time.DateOnly, day, zone)
	if err != nil {
		return 0, apierr.Invalid(field)
	}
	return d.AddDate(0, 0, after).UnixMilli(), nil
}

// searchOrders runs f on the kind's table, each order as the console shows it.
func (s *Server) searchOrders(ctx context.Context, kind string, f storage.OrderSearch) ([]foundOrder, int, error) {
	if kind == "recharge" {
		hits, total, err := storage.SearchRechargeOrders(ctx, s.DB, f)
		return contentMap(hits, func(h storage.OrderHit[storage.RechargeOrder]) foundOrder {
			o := rechargeJSON(h.Order)
			o.UserID, o.Account = strconv.FormatInt(h.Order.UserID, 10), h.Account
			return foundOrder{orderJSON: o, Nickname: h.Nickname}
		}), total, err
	}
	hits, total, err := storage.SearchExchangeOrders(ctx, s.DB, f)
	return contentMap(hits, func(h storage.OrderHit[storage.ExchangeOrder]) foundOrder {
		o := exchangeJSON(h.Order, true) // operators pay to the full number
		o.UserID, o.Account = strconv.FormatInt(h.Order.UserID, 10), h.Account
		return foundOrder{orderJSON: o, Nickname: h.Nickname}
	}), total, err
}

func (s *Server) adminOrdersSearch(c *Call) (any, error) {
	req, f, err := s.decodeOrderSearch(c)
	if err != nil {
		return nil, err
	}
	if f.Limit, f.Offset, err = paging(req.Page, req.PageSize); err != nil {
		return nil, err
	}
	list, total, err := s.searchOrders(c.Ctx, req.Kind, f)
	if err != nil {
		return nil, err
	}
	if req.Kind == "recharge" && len(list) > 0 {
		// The approval state (a second operator's approval) as the queue shows it.
		orders := make([]storage.RechargeOrder, len(list))
		for i, o := range list {
			orders[i].ID, _ = strconv.ParseInt(o.ID, 10, 64)
		}
		approved, err := s.withApprovals(c.Ctx, orders)
		if err != nil {
			return nil, err
		}
		for i, a := range approved {
			list[i].NeedsSecondApproval, list[i].FirstApprovedBy, list[i].FirstApprovedAt = a.NeedsSecondApproval, a.FirstApprovedBy, a.FirstApprovedAt
		}
	}
	return replyList(list, total, f.Limit, f.Offset), nil
}

// ordersExport is the CSV of a search: its file name and text (UTF-8 with a
// byte-order mark, so spreadsheets read Chinese names right).
type ordersExport struct {
	FileName string `json:"fileName"`
	CSV      string `json:"csv"`
	Rows     int    `json:"rows"`
}

// csvHeads are the export's column titles, in apierr.Langs order.
var csvHeads = [6][]string{
	{"Order number", "Account", "Nickname", "Amount", "Status", "Tx hash / bank", "Card", "Created", "Reviewed", "Remark"},
	{"Número de pedido", "Cuenta", "Apodo", "Importe", "Estado", "Hash / banco", "Tarjeta", "Creado", "Revisado", "Nota"},
	{"Nombor pesanan", "Akaun", "Nama panggilan", "Jumlah", "Status", "Hash / bank", "Kad", "Dicipta", "Disemak", "Catatan"},
	{"Mã lệnh", "Tài khoản", "Biệt danh", "Số tiền", "Trạng thái", "Hash / ngân hàng", "Thẻ", "Tạo lúc", "Duyệt lúc", "Ghi chú"},
	{"订单号", "账号", "昵称", "金额", "状态", "交易哈希 / 银行", "卡号", "创建时间", "审核时间", "备注"},
	{"訂單號", "帳號", "暱稱", "金額", "狀態", "交易雜湊 / 銀行", "卡號", "建立時間", "審核時間", "備註"},
}

// adminOrdersExport answers the orders of a search (every page, up to
// maxExportRows, newest first) as CSV, amounts in points and times in
// KJ_DAY_TIMEZONE.
func (s *Server) adminOrdersExport(c *Call) (any, error) {
	req, f, err := s.decodeOrderSearch(c)
	if err != nil {
		return nil, err
	}
	f.Limit = maxExportRows
	list, total, err := s.searchOrders(c.Ctx, req.Kind, f)
	if err != nil {
		return nil, err
	}
	if total > maxExportRows {
		return nil, apierr.Fail(apierr.CodeBadRequest, "export.too.many", "max", strconv.Itoa(maxExportRows))
	}
	li := langIndex(c.Lang)
	zone, at := s.dayClock()
	rows := make([][]string, 0, len(list))
	for _, o := range list {
		where, card := o.TxHash, o.CardNumber
		if req.Kind == "exchange" {
			where = o.BankName + " " + o.HolderName
		}
		status := strconv.Itoa(o.Status)
		if words, ok := orderStatusWords[o.Status]; ok {
			status = words[li]
		}
		row := []string{o.OrderNo, o.Account, o.Nickname, wallet.FormatCents(o.Amount), status, where, card,
			at(o.CreatedAt), at(o.ReviewTime), o.Remark}
		rows = append(rows, row)
	}
	text, err := csvText(csvHeads[li], rows)
	if err != nil {
		return nil, err
	}
	name := req.Kind + "-orders-" + s.Clock.Now().In(zone).Format("20060102-150405") + ".csv"
	return ordersExport{FileName: name, CSV: text, Rows: len(list)}, nil
}

// dayClock is KJ_DAY_TIMEZONE (UTC when unset) and a time in it as the
// exports write it ("" for 0).
func (s *Server) dayClock() (*time.Location, func(ms int64) string) {
	zone := s.Config.DayZone
	if zone == nil {
		zone = time.UTC
	}
	return zone, func(ms int64) string {
		if ms == 0 {
			return ""
		}
		return time.UnixMilli(ms).In(zone).Format(time.DateTime)
	}
}

// csvText is an export's file: UTF-8 with a byte-order mark, the head, then
// the rows with every cell passed through csvCell, except a plain amount
// ("-5.00", a debit) which is a number to a spreadsheet, never a formula.
func csvText(head []string, rows [][]string) (string, error) {
	var buf bytes.Buffer
	buf.WriteString("\uFEFF")
	w := csv.NewWriter(&buf)
	_ = w.Write(head)
	for _, row := range rows {
		for i := range row {
			if !plainAmount.MatchString(row[i]) {
				row[i] = csvCell(row[i])
			}
		}
		_ = w.Write(row)
	}
	w.Flush()
	return buf.String(), w.Error()
}

var plainAmount = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)

// csvCell keeps a spreadsheet from running a cell as a formula: text a
// player typed (a nickname, a remark) that starts with = + - @ or a tab or
// carriage return gets a leading apostrophe.
func csvCell(v string) string {
	if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
		return "'" + v
	}
	return v
}
