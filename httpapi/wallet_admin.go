package httpapi

// Operator review of wallet orders (/api/admin/...). The review rules, and
// the ledger operation that moves an order's money with its status and its
// audit entry in one transaction, are kj/wallet's; operatorAudit writes the
// entries the way this API's operator action log reads them.

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"kj/internal/apierr"
	"kj/storage"
	"kj/wallet"
)

func init() {
	registerArea(func(s *Server) {
		s.Post("/admin/recharge/list", Operator, s.adminRechargeList)
		s.Post("/admin/recharge/confirm", Operator, reviewRoute(s, (*wallet.Wallet).ConfirmRecharge, s.reviewedRechargeJSON))
		s.Post("/admin/recharge/fail", Operator, reviewRoute(s, (*wallet.Wallet).FailRecharge, s.reviewedRechargeJSON))
		s.Post("/admin/exchange/list", Operator, s.adminExchangeList)
		s.Post("/admin/exchange/complete", Operator, reviewRoute(s, (*wallet.Wallet).CompleteExchange, reviewedExchangeJSON))
		s.Post("/admin/exchange/fail", Operator, reviewRoute(s, (*wallet.Wallet).FailExchange, reviewedExchangeJSON))
	})
}

// operatorAudit is the operator action log of one call (RecordOperatorAction):
// the operator and their address, with each entry's before and after. It
// writes with the call's context, as the routes always did.
type operatorAudit struct{ c *Call }

func (a operatorAudit) Reviewed(_ context.Context, tx storage.Tx, action string, r wallet.Review) error {
	return RecordOperatorAction(a.c, tx, action, r.OrderID, auditChange{Before: orderState{r.From, r.Amount, r.UserID},
		After: orderState{r.To, r.Amount, r.UserID}, Remark: r.Remark})
}

func (a operatorAudit) BankChanged(_ context.Context, tx storage.Tx, action string, before *storage.Bank, after storage.Bank) error {
	change := auditChange{After: toBankJSON(after)}
	if before != nil {
		change.Before = toBankJSON(*before)
	}
	return RecordOperatorAction(a.c, tx, action, after.ID, change)
}

// operator is the caller as the wallet's reviewer.
func operator(c *Call) wallet.Operator {
	return wallet.Operator{ID: c.User.ID, Audit: operatorAudit{c}}
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

// rechargeReviewJSON is a recharge order in the operators' queue: above
// KJ_RECHARGE_MAX it needs a second operator's approval, and says who gave
// the first.
type rechargeReviewJSON struct {
	orderJSON
	NeedsSecondApproval bool   `json:"needsSecondApproval"`
	FirstApprovedBy     string `json:"firstApprovedBy,omitempty"` // the first approver's account
	FirstApprovedAt     int64  `json:"firstApprovedAt,omitempty"`
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
	orders, total, err := s.Wallet.RechargeOrders(c.Ctx, status, req.Keyword, limit, offset)
	if err != nil {
		return nil, err
	}
	list, err := s.withApprovals(c.Ctx, orders)
	if err != nil {
		return nil, err
	}
	for i, o := range orders {
		list[i].UserID, list[i].Account = strconv.FormatInt(o.UserID, 10), o.Account
	}
	return replyList(list, total, limit, offset), nil
}

// withApprovals shows recharge orders with their approval state and the
// accounts of their first approvers.
func (s *Server) withApprovals(ctx context.Context, orders []storage.RechargeOrder) ([]rechargeReviewJSON, error) {
	ids := make([]int64, len(orders))
	for i, o := range orders {
		ids[i] = o.ID
	}
	approvals, err := s.Wallet.RechargeApprovals(ctx, ids)
	if err != nil {
		return nil, err
	}
	var approvers []int64
	for _, a := range approvals {
		if a.FirstBy != 0 {
			approvers = append(approvers, a.FirstBy)
		}
	}
	names := map[int64]string{}
	if len(approvers) > 0 {
		users, err := storage.UsersByIDs(ctx, s.DB, approvers)
		if err != nil {
			return nil, err
		}
		for _, u := range users {
			names[u.ID] = u.Account
		}
	}
	out := make([]rechargeReviewJSON, len(orders))
	for i, o := range orders {
		out[i] = rechargeReviewJSON{orderJSON: rechargeJSON(o)}
		if a, ok := approvals[o.ID]; ok {
			out[i].NeedsSecondApproval = true
			if a.FirstBy != 0 {
				out[i].FirstApprovedBy, out[i].FirstApprovedAt = names[a.FirstBy], a.FirstAt
			}
		}
	}
	return out, nil
}

// reviewedRechargeJSON is a recharge order after an operator's review: a
// first approval of an order needing two leaves it under review, with its
// first approver named.
func (s *Server) reviewedRechargeJSON(c *Call, o storage.RechargeOrder) (rechargeReviewJSON, error) {
	list, err := s.withApprovals(c.Ctx, []storage.RechargeOrder{o})
	if err != nil {
		return rechargeReviewJSON{}, err
	}
	return list[0], nil
}

func (s *Server) adminExchangeList(c *Call) (any, error) {
	return reviewQueue(s, c, s.Wallet.ExchangeOrders, func(o storage.ExchangeOrder) orderJSON {
		out := exchangeJSON(o, true) // operators pay to the full number
		out.UserID, out.Account = strconv.FormatInt(o.UserID, 10), o.Account
		return out
	})
}

// reviewQueue answers an operator's list of orders in one state (the
// review queue by default), narrowed to an account or order number when
// the keyword is given, each shown by view with its user.
func reviewQueue[O any](s *Server, c *Call, list func(context.Context, int, string, int, int) ([]O, int, error),
	view func(O) orderJSON) (any, error) {
	var req reviewListRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	status, limit, offset, err := req.parse()
	if err != nil {
		return nil, err
	}
	orders, total, err := list(c.Ctx, status, req.Keyword, limit, offset)
	if err != nil {
		return nil, err
	}
	return replyList(contentMap(orders, view), total, limit, offset), nil
}

// reviewRoute is the route of one review of an order: it reads the
// order's id and the remark, has the wallet review it and shows the order.
func reviewRoute[O, V any](s *Server, review func(*wallet.Wallet, context.Context, wallet.Operator, int64, string) (O, error),
	view func(*Call, O) (V, error)) Handler {
	return func(c *Call) (any, error) {
		var req struct {
			OrderID json.RawMessage `json:"orderId"`
			Remark  string          `json:"remark"`
		}
		if err := c.Decode(&req); err != nil {
			return nil, err
		}
		id, err := wallet.ParseID(req.OrderID, "orderId")
		if err != nil {
			return nil, err
		}
		o, err := review(s.Wallet, c.Ctx, operator(c), id, req.Remark)
		if err != nil {
			return nil, err
		}
		return view(c, o)
	}
}

// reviewedExchangeJSON is a reviewed exchange as the operator sees it: the
// full card number and the user, without the account.
func reviewedExchangeJSON(_ *Call, o storage.ExchangeOrder) (orderJSON, error) {
	out := exchangeJSON(o, true)
	out.UserID = strconv.FormatInt(o.UserID, 10)
	return out, nil
}
