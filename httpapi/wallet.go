package httpapi

// The points wallet's routes: balance, USDT recharge orders, exchange to a
// bank card, and the records screens. The rules, and the ledger operations
// that move the money, are kj/wallet's (Deps.Wallet): these handlers decode
// the request, call it and encode its answer.

import (
	"context"
	"strconv"
	"time"

	"kj/internal/apierr"
	"kj/storage"
	"kj/wallet"
)

func init() {
	registerArea(func(s *Server) {
		s.Post("/user/amount", Identified, s.userAmount)
		s.Post("/user/getUserAmount", Identified, s.userAmount)
		s.Post("/user/getChainTypes", User, s.chainTypes)
		s.Post("/user/rechargeOrder", User, s.rechargeOrder)
		s.Post("/user/exchange", User, s.exchange)
		s.Post("/user/userCoinRecode", User, s.pointsRecords)
		s.Post("/user/userExchangeRecode", User, s.exchangeRecords)
	})
}

// amountReply is the points account of the mine page, in cents.
type amountReply struct {
	UserID          string `json:"userId"`
	Amount          int64  `json:"amount"`       // spendable balance
	FrozenAmount    int64  `json:"frozenAmount"` // exchanges under review
	HasFundPassword bool   `json:"hasFundPassword"`
	BankCardCount   int    `json:"bankCardCount"`
	IsRecharge      bool   `json:"isRecharge"` // has had a recharge credited
	ExchangeMin     int64  `json:"exchangeMin"`
	ExchangeMax     int64  `json:"exchangeMax"`
}

func (s *Server) userAmount(c *Call) (any, error) {
	u := c.User
	w, err := s.Wallet.Summary(c.Ctx, u.ID)
	if err != nil {
		return nil, err
	}
	return amountReply{UserID: u.IDString(), Amount: w.Balance, FrozenAmount: w.Frozen, HasFundPassword: w.HasFundPassword,
		BankCardCount: w.Cards, IsRecharge: w.IsRecharge, ExchangeMin: w.ExchangeMin, ExchangeMax: w.ExchangeMax}, nil
}

func (s *Server) chainTypes(c *Call) (any, error) {
	r := s.Wallet.RechargeOptions()
	return map[string]any{"list": r.Protocols, "minDep": r.MinDeposit, "maxDep": r.MaxDeposit, "currency": "USDT", "service": r.ViaService}, nil
}

// orderJSON is a recharge or exchange order as the client sees it.
type orderJSON struct {
	ID         string `json:"id"`
	OrderNo    string `json:"orderNo"`
	Amount     int64  `json:"amount"`
	Status     int    `json:"status"` // 0 under review, 1 completed, 2 failed
	Remark     string `json:"remark"`
	CreatedAt  int64  `json:"createdAt"`
	ReviewTime int64  `json:"reviewTime"` // 0 until reviewed
	// recharge
	Protocol string `json:"protocol,omitempty"`
	Address  string `json:"address,omitempty"`
	TxHash   string `json:"txHash,omitempty"`
	// exchange
	BankName   string `json:"bankName,omitempty"`
	HolderName string `json:"holderName,omitempty"`
	CardNumber string `json:"cardNumber,omitempty"` // masked, except for operators
	// operator listings
	UserID  string `json:"userId,omitempty"`
	Account string `json:"account,omitempty"`
}

func rechargeJSON(o storage.RechargeOrder) orderJSON {
	return orderJSON{ID: strconv.FormatInt(o.ID, 10), OrderNo: o.OrderNo, Amount: o.Amount, Status: o.Status, Remark: o.Remark,
		CreatedAt: o.CreatedAt, ReviewTime: o.ReviewedAt, Protocol: o.Protocol, Address: o.Address, TxHash: o.TxHash}
}

func exchangeJSON(o storage.ExchangeOrder, fullCard bool) orderJSON {
	card := wallet.MaskCard(o.CardNumber)
	if fullCard {
		card = o.CardNumber
	}
	return orderJSON{ID: strconv.FormatInt(o.ID, 10), OrderNo: o.OrderNo, Amount: o.Amount, Status: o.Status, Remark: o.Remark,
		CreatedAt: o.CreatedAt, ReviewTime: o.ReviewedAt, BankName: o.BankName, HolderName: o.HolderName, CardNumber: card}
}

func (s *Server) rechargeOrder(c *Call) (any, error) {
	var req wallet.RechargeRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	o, err := s.Wallet.Recharge(c.Ctx, c.User.ID, req)
	if err != nil {
		return nil, err
	}
	return s.rechargeView(c, o) // with its hold by the deposit limit, if any (protection.go)
}

func (s *Server) exchange(c *Call) (any, error) {
	var req wallet.ExchangeRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	req.RequestKey = c.R.Header.Get("Idempotency-Key")
	o, err := s.Wallet.Exchange(c.Ctx, c.User, req)
	if err != nil {
		return nil, err
	}
	return exchangeJSON(o, false), nil
}

// listRequest is the body of the records screens.
type listRequest struct {
	Tab      string `json:"tab"`
	Days     *int   `json:"days"` // 0 today, 7, 15, 30; absent: all time
	Page     int    `json:"page"`
	PageSize int    `json:"pageSize"`
}

// window turns days and paging into a start time, limit and offset.
func (s *Server) window(r listRequest) (since int64, limit, offset int, err error) {
	if r.Days != nil {
		now := s.Clock.Now().In(time.Local)
		switch *r.Days {
		case 0: // today, from local midnight
			y, m, d := now.Date()
			since = time.Date(y, m, d, 0, 0, 0, 0, time.Local).UnixMilli()
		case 7, 15, 30:
			since = now.Add(-time.Duration(*r.Days) * 24 * time.Hour).UnixMilli()
		default:
			return 0, 0, 0, apierr.Invalid("days")
		}
	}
	limit, offset, err = paging(r.Page, r.PageSize)
	return since, limit, offset, err
}

// paging validates page (from 1) and pageSize (1-100, default 20).
func paging(page, size int) (limit, offset int, err error) {
	if page == 0 {
		page = 1
	}
	if size == 0 {
		size = 20
	}
	if page < 1 || page > 100_000 {
		return 0, 0, apierr.Invalid("page")
	}
	if size < 1 || size > 100 {
		return 0, 0, apierr.Invalid("pageSize")
	}
	return size, (page - 1) * size, nil
}

type listReply struct {
	List     any `json:"list"`
	Total    int `json:"total"`
	Page     int `json:"page"`
	PageSize int `json:"pageSize"`
}

func replyList(list any, total, limit, offset int) listReply {
	return listReply{List: list, Total: total, Page: offset/limit + 1, PageSize: limit}
}

// pointsRecord is one line of the points details screen.
type pointsRecord struct {
	ID      string `json:"id"`
	Type    string `json:"type"`   // recharge, exchange, exchange_refund, bet, win ...
	Amount  int64  `json:"amount"` // signed cents: income > 0, expenditure < 0
	State   int    `json:"state"`  // 0 under review, 1 completed, 2 failed
	OrderNo string `json:"orderNo"`
	Time    int64  `json:"time"`
}

func (s *Server) pointsRecords(c *Call) (any, error) {
	flows := map[string]int{"": storage.FlowAll, "all": storage.FlowAll, "income": storage.FlowIncome, "expenditure": storage.FlowExpenditure}
	return recordsPage(s, c, flows, s.Wallet.PointsRecords, func(r storage.PointsRecord) pointsRecord {
		return pointsRecord{ID: strconv.FormatInt(r.ID, 10), Type: r.Type, Amount: r.Amount, State: r.State, OrderNo: r.OrderNo, Time: r.Time}
	})
}

func (s *Server) exchangeRecords(c *Call) (any, error) {
	statuses := map[string]int{"": -1, "all": -1, "review": storage.OrderUnderReview, "success": storage.OrderCompleted, "failed": storage.OrderFailed}
	return recordsPage(s, c, statuses, s.Wallet.ExchangeRecords, func(o storage.ExchangeOrder) orderJSON {
		return exchangeJSON(o, false)
	})
}

// recordsPage answers a page of one of the user's records screens: the
// request's tab picks the filter find is asked with (tabs lists the tabs
// the screen has), within the request's window of days.
func recordsPage[R, V any](s *Server, c *Call, tabs map[string]int,
	find func(ctx context.Context, userID int64, filter int, since int64, limit, offset int) ([]R, int, error),
	view func(R) V) (any, error) {
	var req listRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	filter, ok := tabs[req.Tab]
	if !ok {
		return nil, apierr.Invalid("tab")
	}
	since, limit, offset, err := s.window(req)
	if err != nil {
		return nil, err
	}
	recs, total, err := find(c.Ctx, c.User.ID, filter, since, limit, offset)
	if err != nil {
		return nil, err
	}
	return replyList(contentMap(recs, view), total, limit, offset), nil
}
