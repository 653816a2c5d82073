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
	"strconv"
	"strings"
	"unicode/utf8"

	"kj/actors/ledger"
	"kj/internal/apierr"
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
	Status   *int   `json:"status"`  // default 0: under review
	Keyword  string `json:"keyword"` // an account or order number (exact); empty: all
	Page     int    `json:"page"`
	PageSize int    `json:"pageSize"`
}

func (r *reviewListRequest) parse() (status, limit, offset int, err error) {
	if r.Status != nil {
		status = *r.Status
	}
	if status < storage.OrderUnderReview || status > storage.OrderFailed {
		return 0, 0, 0, apierr.Invalid("status")
	}
	if r.Keyword = strings.TrimSpace(r.Keyword); len(r.Keyword) > 64 {
		return 0, 0, 0, apierr.Invalid("keyword")
	}
	limit, offset, err = paging(r.Page, r.PageSize)
	return status, limit, offset, err
}

type reviewRequest struct {
	OrderID json.RawMessage `json:"orderId"`
	Remark  string          `json:"remark"`
}

// decodeReview reads an operator's review of an order: the order's id and
// the remark, trimmed (required when remarkRequired).
func decodeReview(c *Call, remarkRequired bool) (int64, string, error) {
	var r reviewRequest
	if err := c.Decode(&r); err != nil {
		return 0, "", err
	}
	id, err := parseID(r.OrderID, "orderId")
	if err != nil {
		return 0, "", err
	}
	remark := strings.TrimSpace(r.Remark)
	if remark == "" && remarkRequired {
		return 0, "", apierr.Required("remark")
	}
	if utf8.RuneCountInString(remark) > 200 {
		return 0, "", apierr.Invalid("remark")
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
	return reviewQueue(s, c, storage.RechargeOrdersFind, func(o storage.RechargeOrder) orderJSON {
		out := rechargeJSON(o)
		out.UserID, out.Account = strconv.FormatInt(o.UserID, 10), o.Account
		return out
	})
}

// reviewQueue answers an operator's list of orders in one state (the
// review queue by default), narrowed to an account or order number when
// the keyword is given, each shown by view with its user.
func reviewQueue[O any](s *Server, c *Call, list func(context.Context, storage.Querier, int, string, int, int) ([]O, int, error),
	view func(O) orderJSON) (any, error) {
	var req reviewListRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	status, limit, offset, err := req.parse()
	if err != nil {
		return nil, err
	}
	orders, total, err := list(c.Ctx, s.DB, status, req.Keyword, limit, offset)
	if err != nil {
		return nil, err
	}
	return replyList(contentMap(orders, view), total, limit, offset), nil
}

// settledAs answers a second review of an order: fine if it already went
// the same way, CodeOrderProcessed if it went the other way.
func settledAs(status, want int) error {
	if status == want {
		return nil
	}
	return apierr.Fail(apierr.CodeOrderProcessed, "order.processed")
}

func (s *Server) adminRechargeConfirm(c *Call) (any, error) {
	o, err := reviewOrder(s, c, false, storage.OrderCompleted, storage.RechargeOrderByID,
		func(o storage.RechargeOrder) int { return o.Status },
		func(o storage.RechargeOrder, remark string) error {
			return s.submit(c.Ctx, ledger.Op{
				Transfers: []ledger.Transfer{{Debit: ledger.RechargeClearing, Credit: ledger.Wallet(o.UserID), Amount: o.Amount,
					Kind: storage.KindRecharge, Ref: o.OrderNo, IdempotencyKey: "recharge:" + strconv.FormatInt(o.ID, 10)}},
				Hook: auditHook(c, statusHook(storage.SetRechargeStatus, o.ID, storage.OrderCompleted, c.User.ID, remark, s.Clock.Now().UnixMilli()),
					"recharge.confirm", o.ID, auditChange{Before: orderState{o.Status, o.Amount, o.UserID},
						After: orderState{storage.OrderCompleted, o.Amount, o.UserID}, Remark: remark}),
			})
		})
	if err != nil {
		return nil, err
	}
	return rechargeJSON(o), nil
}

// reviewOrder is an operator's review of an order that moves money: read
// the order id (and remark), load the order and, while it is still under
// review, let move submit its money together with the status change. A
// refusal caused by a concurrent review (possibly in the same ledger batch,
// where this operation's transfer may fail before its hook looks) is
// answered from the order's state, reloaded; settledAs then says whether
// it went the way asked.
func reviewOrder[O any](s *Server, c *Call, remarkRequired bool, to int,
	load func(context.Context, storage.Querier, int64) (O, error), status func(O) int,
	move func(o O, remark string) error) (O, error) {
	var zero O
	id, remark, err := decodeReview(c, remarkRequired)
	if err != nil {
		return zero, err
	}
	o, err := load(c.Ctx, s.DB, id)
	if err != nil {
		return zero, contentStoreErr(err)
	}
	if status(o) == storage.OrderUnderReview {
		err = move(o, remark)
		o2, lerr := load(c.Ctx, s.DB, id)
		if lerr != nil {
			return zero, lerr
		}
		if err != nil && status(o2) == storage.OrderUnderReview {
			return zero, err
		}
		o = o2
	}
	if err := settledAs(status(o), to); err != nil {
		return zero, err
	}
	return o, nil
}

func (s *Server) adminRechargeFail(c *Call) (any, error) {
	id, remark, err := decodeReview(c, false)
	if err != nil {
		return nil, err
	}
	err = s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		ok, err := storage.SetRechargeStatus(c.Ctx, tx, id, storage.OrderUnderReview, storage.OrderFailed, c.User.ID, remark,
			s.Clock.Now().UnixMilli())
		if err != nil || !ok {
			return err
		}
		o, err := storage.RechargeOrderByID(c.Ctx, tx, id)
		if err != nil {
			return err
		}
		return RecordOperatorAction(c, tx, "recharge.fail", id, auditChange{Before: orderState{storage.OrderUnderReview, o.Amount, o.UserID},
			After: orderState{o.Status, o.Amount, o.UserID}, Remark: remark})
	})
	if err != nil {
		return nil, err
	}
	o, err := storage.RechargeOrderByID(c.Ctx, s.DB, id)
	if err != nil {
		return nil, contentStoreErr(err)
	}
	if err := settledAs(o.Status, storage.OrderFailed); err != nil {
		return nil, err
	}
	return rechargeJSON(o), nil
}

func (s *Server) adminExchangeList(c *Call) (any, error) {
	return reviewQueue(s, c, storage.ExchangeOrdersFind, func(o storage.ExchangeOrder) orderJSON {
		out := exchangeJSON(o, true) // operators pay to the full number
		out.UserID, out.Account = strconv.FormatInt(o.UserID, 10), o.Account
		return out
	})
}

// reviewExchange moves an exchange under review to `to` with its money:
// completed pays withdrawal-pending out; failed refunds it to the wallet
// (a refund finding withdrawal-pending already paid out by a concurrent
// review is answered from the order's state, as reviewOrder does).
func (s *Server) reviewExchange(c *Call, to int, remarkRequired bool) (any, error) {
	o, err := reviewOrder(s, c, remarkRequired, to, storage.ExchangeOrderByID,
		func(o storage.ExchangeOrder) int { return o.Status },
		func(o storage.ExchangeOrder, remark string) error {
			t := ledger.Transfer{Debit: ledger.WithdrawalPending, Credit: ledger.Withdrawn, Amount: o.Amount,
				Kind: storage.KindExchangePaid, Ref: o.OrderNo, IdempotencyKey: "exchange-paid:" + strconv.FormatInt(o.ID, 10)}
			if to == storage.OrderFailed {
				t.Credit, t.Kind, t.IdempotencyKey = ledger.Wallet(o.UserID), storage.KindExchangeRefund, "exchange-refund:"+strconv.FormatInt(o.ID, 10)
			}
			action := "exchange.complete"
			if to == storage.OrderFailed {
				action = "exchange.fail"
			}
			return s.submit(c.Ctx, ledger.Op{Transfers: []ledger.Transfer{t},
				Hook: auditHook(c, statusHook(storage.SetExchangeStatus, o.ID, to, c.User.ID, remark, s.Clock.Now().UnixMilli()),
					action, o.ID, auditChange{Before: orderState{o.Status, o.Amount, o.UserID}, After: orderState{to, o.Amount, o.UserID}, Remark: remark})})
		})
	if err != nil {
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
