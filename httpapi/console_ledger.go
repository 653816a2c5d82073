package httpapi

// A user's wallet records as the console's user detail shows them: a range
// of days in KJ_DAY_TIMEZONE, paged, and the same range as CSV.

import (
	"strconv"

	"kj/internal/apierr"
	"kj/storage"
	"kj/wallet"
)

func init() {
	registerArea(func(s *Server) {
		s.Post("/admin/user/ledger", Operator, s.adminUserLedger)
		s.Post("/admin/user/ledger/export", Operator, s.adminUserLedgerExport)
	})
}

// userLedgerRequest is the filter of both routes.
type userLedgerRequest struct {
	UserID   UserIDParam `json:"userId"`
	From     string      `json:"from"` // yyyy-mm-dd, the first day (in KJ_DAY_TIMEZONE); "" open
	To       string      `json:"to"`   // yyyy-mm-dd, the last day included; "" open
	Page     int         `json:"page"`
	PageSize int         `json:"pageSize"`
}

// decodeUserLedger reads the filter: the user and [from, to) in unix ms.
func (s *Server) decodeUserLedger(c *Call) (req userLedgerRequest, from, to int64, err error) {
	if err = c.Decode(&req); err != nil {
		return
	}
	if req.UserID == 0 {
		err = apierr.Required("userId")
		return
	}
	if from, err = s.dayStart(req.From, 0, "from"); err != nil {
		return
	}
	if to, err = s.dayStart(req.To, 1, "to"); err != nil {
		return
	}
	if from != 0 && to != 0 && to <= from {
		err = apierr.Invalid("to")
	}
	return
}

func (s *Server) adminUserLedger(c *Call) (any, error) {
	req, from, to, err := s.decodeUserLedger(c)
	if err != nil {
		return nil, err
	}
	limit, offset, err := paging(req.Page, req.PageSize)
	if err != nil {
		return nil, err
	}
	lines, total, err := storage.WalletLinesBetween(c.Ctx, s.DB, int64(req.UserID), from, to, limit, offset)
	if err != nil {
		return nil, err
	}
	list := make([]walletLineView, 0, len(lines))
	for _, l := range lines {
		list = append(list, walletLineView{TransferID: strconv.FormatInt(l.TransferID, 10), Kind: l.Kind, Ref: l.Ref,
			Amount: l.Amount, BalanceAfter: l.BalanceAfter, CreatedAt: l.CreatedAt})
	}
	return replyList(list, total, limit, offset), nil
}

// ledgerCSVHeads are the records export's column titles, in apierr.Langs order.
var ledgerCSVHeads = [6][]string{
	{"Time", "Kind", "Reference", "Amount", "Balance after", "Transfer"},
	{"Hora", "Tipo", "Referencia", "Importe", "Saldo después", "Transferencia"},
	{"Masa", "Jenis", "Rujukan", "Jumlah", "Baki selepas", "Pindahan"},
	{"Thời gian", "Loại", "Tham chiếu", "Số tiền", "Số dư sau", "Giao dịch"},
	{"时间", "类型", "关联单号", "金额", "变动后余额", "流水号"},
	{"時間", "類型", "關聯單號", "金額", "變動後餘額", "流水號"},
}

// adminUserLedgerExport answers a user's wallet records in the range (up to
// maxExportRows, newest first) as CSV, amounts in points and times in
// KJ_DAY_TIMEZONE, through the orders export's csvText.
func (s *Server) adminUserLedgerExport(c *Call) (any, error) {
	req, from, to, err := s.decodeUserLedger(c)
	if err != nil {
		return nil, err
	}
	lines, total, err := storage.WalletLinesBetween(c.Ctx, s.DB, int64(req.UserID), from, to, maxExportRows, 0)
	if err != nil {
		return nil, err
	}
	if total > maxExportRows {
		return nil, apierr.Fail(apierr.CodeBadRequest, "export.too.many", "max", strconv.Itoa(maxExportRows))
	}
	zone, at := s.dayClock()
	rows := make([][]string, 0, len(lines))
	for _, l := range lines {
		rows = append(rows, []string{at(l.CreatedAt), l.Kind, l.Ref, wallet.FormatCents(l.Amount),
			wallet.FormatCents(l.BalanceAfter), strconv.FormatInt(l.TransferID, 10)})
	}
	text, err := csvText(ledgerCSVHeads[langIndex(c.Lang)], rows)
	if err != nil {
		return nil, err
	}
	name := "records-" + strconv.FormatInt(int64(req.UserID), 10) + "-" + s.Clock.Now().In(zone).Format("20060102-150405") + ".csv"
	return ordersExport{FileName: name, CSV: text, Rows: len(lines)}, nil
}
