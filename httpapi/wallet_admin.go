package httpapi

// Operator review of wallet orders (/api/admin/...). Every state change is
// one ledger operation whose hook moves the order out of "under review" in
// the same transaction as the money, so an order is credited, paid or
// refunded at most once however many times (and on however many nodes)
// the button is pressed: the second press replays the ledger key or finds
// the order no longer under review.

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"kj/actors/ledger"
	"kj/storage"
)

func init() {
	registerArea(func(s *Server) {
		s.Post("/admin/recharge/list", Operator, s.adminRechargeList)
		s.Post("/admin/recharge/confirm", Operator, s.adminRechargeConfirm)
		s.Post("/admin/recharge/fail", Operator, s.adminRechargeFail)
		s.Post("/admin/exchange/list", Operator, s.adminExchangeList)
		s.Post("/admin/exchange/complete", Operator, s.adminExchangeComplete)
		s.Post("/admin/exchange/fail", Operator, s.adminExchangeFail)
	})
}

type reviewListRequest struct {
	Status   *int `json:"status"` // default 0: under review
	Page     int  `json:"page"`
	PageSize int  `json:"pageSize"`
}

func (r reviewListRequest) parse() (status, limit, offset int, err error) {
	if r.Status != nil {
		status = *r.Status
	}
	if status < storage.OrderUnderReview || status > storage.OrderFailed {
		return 0, 0, 0, Invalid("status")
	}
	limit, offset, err = paging(r.Page, r.PageSize)
	return status, limit, offset, err
}

type reviewRequest struct {
	OrderID json.RawMessage `json:"orderId"`
	Remark  string          `json:"remark"`
}

func (r reviewRequest) parse(remarkRequired bool) (int64, string, error) {
	id, err := parseID(r.OrderID, "orderId")
	if err != nil {
		return 0, "", err
	}
	remark := strings.TrimSpace(r.Remark)
	if remark == "" && remarkRequired {
		return 0, "", Required("remark")
	}
	if utf8.RuneCountInString(remark) > 200 {
		return 0, "", Invalid("remark")
	}
	return id, remark, nil
}

// statusHook moves an order from under review to `to` inside the ledger
// transaction, failing the operation if it already left.
func statusHook(set func(ctx context.Context, q storage.Querier, id int64, from, to int, reviewer int64, remark string, at int64) (bool, error),
	id int64, to int, reviewer int64, remark string, at int64) func(context.Context, storage.Tx) error {
	return func(ctx context.Context, tx storage.Tx) error {
		ok, err := set(ctx, tx, id, storage.OrderUnderReview, to, reviewer, remark, at)
		if err == nil && !ok {
			err = errNotPending
		}
		return err
	}
}

func (s *Server) adminRechargeList(c *Call) (any, error) {
	var req reviewListRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	status, limit, offset, err := req.parse()
	if err != nil {
		return nil, err
	}
	orders, total, err := storage.RechargeOrdersByStatus(c.Ctx, s.DB, status, limit, offset)
	if err != nil {
		return nil, err
	}
	out := make([]orderJSON, len(orders))
	for i, o := range orders {
		out[i] = rechargeJSON(o)
		out[i].UserID, out[i].Account = strconv.FormatInt(o.UserID, 10), o.Account
	}
	return replyList(out, total, limit, offset), nil
}

// settledAs answers a second review of an order: fine if it already went
// the same way, CodeOrderProcessed if it went the other way.
func settledAs(status, want int) error {
	if status == want {
		return nil
	}
	return Fail(CodeOrderProcessed, "order.processed")
}

func (s *Server) adminRechargeConfirm(c *Call) (any, error) {
	var req reviewRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	id, remark, err := req.parse(false)
	if err != nil {
		return nil, err
	}
	o, err := storage.RechargeOrderByID(c.Ctx, s.DB, id)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, NotFound()
	}
	if err != nil {
		return nil, err
	}
	if o.Status == storage.OrderUnderReview {
		err = s.submit(c.Ctx, ledger.Op{
			Transfers: []ledger.Transfer{{Debit: ledger.RechargeClearing, Credit: ledger.Wallet(o.UserID), Amount: o.Amount,
				Kind: storage.KindRecharge, Ref: o.OrderNo, IdempotencyKey: "recharge:" + strconv.FormatInt(o.ID, 10)}},
			Hook: statusHook(storage.SetRechargeStatus, o.ID, storage.OrderCompleted, c.User.ID, remark, s.Clock.Now().UnixMilli()),
		})
		// Refused: if the order left "under review" meanwhile (a concurrent
		// review won, possibly in the same batch, where this operation's
		// transfer may fail before its hook looks), answer from its state.
		o2, lerr := storage.RechargeOrderByID(c.Ctx, s.DB, id)
		if lerr != nil {
			return nil, lerr
		}
		if err != nil && o2.Status == storage.OrderUnderReview {
			return nil, err
		}
		o = o2
	}
	if err := settledAs(o.Status, storage.OrderCompleted); err != nil {
		return nil, err
	}
	return rechargeJSON(o), nil
}

func (s *Server) adminRechargeFail(c *Call) (any, error) {
	var req reviewRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	id, remark, err := req.parse(false)
	if err != nil {
		return nil, err
	}
	if _, err := storage.SetRechargeStatus(c.Ctx, s.DB, id, storage.OrderUnderReview, storage.OrderFailed, c.User.ID, remark,
		s.Clock.Now().UnixMilli()); err != nil {
		return nil, err
	}
	o, err := storage.RechargeOrderByID(c.Ctx, s.DB, id)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, NotFound()
	}
	if err != nil {
		return nil, err
	}
	if err := settledAs(o.Status, storage.OrderFailed); err != nil {
		return nil, err
	}
	return rechargeJSON(o), nil
}

func (s *Server) adminExchangeList(c *Call) (any, error) {
	var req reviewListRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	status, limit, offset, err := req.parse()
	if err != nil {
		return nil, err
	}
	orders, total, err := storage.ExchangeOrdersByStatus(c.Ctx, s.DB, status, limit, offset)
	if err != nil {
		return nil, err
	}
	out := make([]orderJSON, len(orders))
	for i, o := range orders {
		out[i] = exchangeJSON(o, true) // operators pay to the full number
		out[i].UserID, out[i].Account = strconv.FormatInt(o.UserID, 10), o.Account
	}
	return replyList(out, total, limit, offset), nil
}

// reviewExchange moves an exchange under review to `to` with its money:
// completed pays withdrawal-pending out; failed refunds it to the wallet.
func (s *Server) reviewExchange(c *Call, to int, remarkRequired bool) (any, error) {
	var req reviewRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	id, remark, err := req.parse(remarkRequired)
	if err != nil {
		return nil, err
	}
	o, err := storage.ExchangeOrderByID(c.Ctx, s.DB, id)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, NotFound()
	}
	if err != nil {
		return nil, err
	}
	if o.Status == storage.OrderUnderReview {
		t := ledger.Transfer{Debit: ledger.WithdrawalPending, Credit: ledger.Withdrawn, Amount: o.Amount,
			Kind: storage.KindExchangePaid, Ref: o.OrderNo, IdempotencyKey: "exchange-paid:" + strconv.FormatInt(o.ID, 10)}
		if to == storage.OrderFailed {
			t.Credit, t.Kind, t.IdempotencyKey = ledger.Wallet(o.UserID), storage.KindExchangeRefund, "exchange-refund:"+strconv.FormatInt(o.ID, 10)
		}
		err = s.submit(c.Ctx, ledger.Op{Transfers: []ledger.Transfer{t},
			Hook: statusHook(storage.SetExchangeStatus, o.ID, to, c.User.ID, remark, s.Clock.Now().UnixMilli())})
		// As for recharges: a refusal caused by a concurrent review (the
		// refund finding withdrawal-pending already paid out, or the hook
		// finding the order settled) is answered from the order's state.
		o2, lerr := storage.ExchangeOrderByID(c.Ctx, s.DB, id)
		if lerr != nil {
			return nil, lerr
		}
		if err != nil && o2.Status == storage.OrderUnderReview {
			return nil, err
		}
		o = o2
	}
	if err := settledAs(o.Status, to); err != nil {
		return nil, err
	}
	out := exchangeJSON(o, true)
	out.UserID = strconv.FormatInt(o.UserID, 10)
	return out, nil
}

func (s *Server) adminExchangeComplete(c *Call) (any, error) {
	return s.reviewExchange(c, storage.OrderCompleted, false)
}

func (s *Server) adminExchangeFail(c *Call) (any, error) {
	return s.reviewExchange(c, storage.OrderFailed, true)
}
