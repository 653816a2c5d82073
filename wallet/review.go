package wallet

// Operator review of wallet orders. Every state change that moves money is
// one ledger operation whose hook moves the order out of "under review"
// and writes the audit entry in the same transaction as the money, so an
// order is credited, paid or refunded at most once however many times (and
// on however many nodes) the button is pressed: the second press replays
// the ledger key or finds the order no longer under review.

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"kj/actors/ledger"
	"kj/internal/apierr"
	"kj/storage"
)

// Audit writes an operator's change into the operator action log inside
// tx, the transaction of the change itself, so the entry commits with the
// change or not at all. httpapi supplies it per request: it knows the
// operator and the address they call from, and how an entry reads.
type Audit interface {
	// Reviewed records an order's move out of review.
	Reviewed(ctx context.Context, tx storage.Tx, action string, r Review) error
	// BankChanged records an edit of the bank list; before is nil for an
	// addition.
	BankChanged(ctx context.Context, tx storage.Tx, action string, before *storage.Bank, after storage.Bank) error
}

// Review is an order's move from one status to another, as the audit log
// keeps it.
type Review struct {
	OrderID, UserID, Amount int64
	From, To                int
	Remark                  string
}

// Operator is who reviews: their user id (the orders' reviewer) and the
// log their changes go to.
type Operator struct {
	ID    int64
	Audit Audit
}

// errNotPending fails a ledger hook whose order left "under review"
// meanwhile (another operator, or a concurrent request, got there first).
var errNotPending = errors.New("order is no longer under review")

// RechargeOrders is a page of the review queue of recharge orders in one
// status, narrowed to an account or order number when keyword is given.
func (w *Wallet) RechargeOrders(ctx context.Context, status int, keyword string, limit, offset int) ([]storage.RechargeOrder, int, error) {
	return storage.RechargeOrdersFind(ctx, w.DB, status, keyword, limit, offset)
}

// ExchangeOrders is RechargeOrders for exchange orders.
func (w *Wallet) ExchangeOrders(ctx context.Context, status int, keyword string, limit, offset int) ([]storage.ExchangeOrder, int, error) {
	return storage.ExchangeOrdersFind(ctx, w.DB, status, keyword, limit, offset)
}

// remarkOf trims an operator's remark and checks its length.
func remarkOf(remark string) (string, error) {
	remark = strings.TrimSpace(remark)
	if utf8.RuneCountInString(remark) > 200 {
		return "", apierr.Invalid("remark")
	}
	return remark, nil
}

// order is what a review needs of a recharge or an exchange order.
type order struct {
	ID, UserID, Amount int64
	OrderNo            string
	Status             int
}

// orders are the store's functions for one kind of order.
type orders[O any] struct {
	load      func(ctx context.Context, q storage.Querier, id int64) (O, error)
	setStatus func(ctx context.Context, q storage.Querier, id int64, from, to int, reviewer int64, remark string, at int64) (bool, error)
	fields    func(O) order
}

var (
	recharges = orders[storage.RechargeOrder]{storage.RechargeOrderByID, storage.SetRechargeStatus, func(o storage.RechargeOrder) order {
		return order{ID: o.ID, UserID: o.UserID, Amount: o.Amount, OrderNo: o.OrderNo, Status: o.Status}
	}}
	exchanges = orders[storage.ExchangeOrder]{storage.ExchangeOrderByID, storage.SetExchangeStatus, func(o storage.ExchangeOrder) order {
		return order{ID: o.ID, UserID: o.UserID, Amount: o.Amount, OrderNo: o.OrderNo, Status: o.Status}
	}}
)

// ConfirmRecharge credits a recharge order under review to its user. An
// order above the maximum needs two operators: the first approval is
// recorded (and audited as recharge.approve) and leaves the order under
// review; a second approval by another operator credits it; the first
// approver approving again is refused (CodeSecondApprovalSame).
func (w *Wallet) ConfirmRecharge(ctx context.Context, op Operator, id int64, remark string) (storage.RechargeOrder, error) {
	if o, err := storage.RechargeOrderByID(ctx, w.DB, id); err == nil && o.Status == storage.OrderUnderReview {
		if err := w.deposits().Crediting(ctx, o); err != nil { // held by player protection
			return storage.RechargeOrder{}, err
		}
	}
	a, err := storage.RechargeApprovalOf(ctx, w.DB, id)
	twoNeeded := err == nil
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return storage.RechargeOrder{}, err
	}
	if twoNeeded && a.FirstBy == 0 {
		o, recorded, err := w.firstApproval(ctx, op, id, remark)
		if err != nil || recorded {
			return o, err
		}
		// Another operator approved first meanwhile: this is the second.
		if a, err = storage.RechargeApprovalOf(ctx, w.DB, id); err != nil {
			return storage.RechargeOrder{}, err
		}
	}
	var guard func(context.Context, storage.Tx) error
	if twoNeeded {
		if a.FirstBy == op.ID {
			o, err := storage.RechargeOrderByID(ctx, w.DB, id)
			if err != nil {
				return o, notFound(err)
			}
			if o.Status == storage.OrderUnderReview {
				return storage.RechargeOrder{}, apierr.Fail(apierr.CodeSecondApprovalSame, "wallet.recharge.second.same")
			}
		}
		// Checked again in the transaction that credits: the first
		// approval is someone else's.
		guard = func(ctx context.Context, tx storage.Tx) error {
			a, err := storage.RechargeApprovalOf(ctx, tx, id)
			if err != nil {
				return err
			}
			if a.FirstBy == 0 || a.FirstBy == op.ID {
				return apierr.Fail(apierr.CodeSecondApprovalSame, "wallet.recharge.second.same")
			}
			return nil
		}
	}
	return reviewOrder(ctx, w, recharges, op, id, remark, storage.OrderCompleted, "recharge.confirm", guard, func(o order) ledger.Transfer {
		return ledger.Transfer{Debit: ledger.RechargeClearing, Credit: ledger.Wallet(o.UserID), Amount: o.Amount,
			Kind: storage.KindRecharge, Ref: o.OrderNo, IdempotencyKey: "recharge:" + strconv.FormatInt(o.ID, 10)}
	})
}

// firstApproval records op as the first approver of an order needing two,
// with its audit entry, and reports whether it did (false: another
// operator got there first). The order stays under review.
func (w *Wallet) firstApproval(ctx context.Context, op Operator, id int64, remark string) (storage.RechargeOrder, bool, error) {
	remark, err := remarkOf(remark)
	if err != nil {
		return storage.RechargeOrder{}, false, err
	}
	var recorded bool
	err = w.DB.Tx(ctx, func(tx storage.Tx) error {
		ok, err := storage.SetRechargeFirstApproval(ctx, tx, id, op.ID, w.now())
		if err != nil || !ok {
			return err
		}
		recorded = true
		o, err := storage.RechargeOrderByID(ctx, tx, id)
		if err != nil {
			return err
		}
		return op.Audit.Reviewed(ctx, tx, "recharge.approve", Review{OrderID: id, UserID: o.UserID, Amount: o.Amount,
			From: o.Status, To: o.Status, Remark: remark})
	})
	if err != nil {
		return storage.RechargeOrder{}, false, err
	}
	o, err := storage.RechargeOrderByID(ctx, w.DB, id)
	if err != nil {
		return o, false, notFound(err)
	}
	if !recorded && o.Status != storage.OrderUnderReview {
		// Failed (or credited) meanwhile: answered as any late review is.
		return o, true, settledAs(o.Status, storage.OrderCompleted)
	}
	return o, recorded, nil
}

// RechargeApprovals is the approval state of the orders among ids that
// need two operators, by order id.
func (w *Wallet) RechargeApprovals(ctx context.Context, ids []int64) (map[int64]storage.RechargeApproval, error) {
	return storage.RechargeApprovals(ctx, w.DB, ids)
}

// FailRecharge marks a recharge order under review failed; no money moves.
func (w *Wallet) FailRecharge(ctx context.Context, op Operator, id int64, remark string) (storage.RechargeOrder, error) {
	remark, err := remarkOf(remark)
	if err != nil {
		return storage.RechargeOrder{}, err
	}
	err = w.DB.Tx(ctx, func(tx storage.Tx) error {
		ok, err := storage.SetRechargeStatus(ctx, tx, id, storage.OrderUnderReview, storage.OrderFailed, op.ID, remark, w.now())
		if err != nil || !ok {
			return err
		}
		o, err := storage.RechargeOrderByID(ctx, tx, id)
		if err != nil {
			return err
		}
		return op.Audit.Reviewed(ctx, tx, "recharge.fail", Review{OrderID: id, UserID: o.UserID, Amount: o.Amount,
			From: storage.OrderUnderReview, To: o.Status, Remark: remark})
	})
	if err != nil {
		return storage.RechargeOrder{}, err
	}
	o, err := storage.RechargeOrderByID(ctx, w.DB, id)
	if err != nil {
		return storage.RechargeOrder{}, notFound(err)
	}
	if err := settledAs(o.Status, storage.OrderFailed); err != nil {
		return storage.RechargeOrder{}, err
	}
	return o, nil
}

// CompleteExchange pays an exchange under review out of withdrawal-pending.
func (w *Wallet) CompleteExchange(ctx context.Context, op Operator, id int64, remark string) (storage.ExchangeOrder, error) {
	return reviewOrder(ctx, w, exchanges, op, id, remark, storage.OrderCompleted, "exchange.complete", nil, func(o order) ledger.Transfer {
		return ledger.Transfer{Debit: ledger.WithdrawalPending, Credit: ledger.Withdrawn, Amount: o.Amount,
			Kind: storage.KindExchangePaid, Ref: o.OrderNo, IdempotencyKey: "exchange-paid:" + strconv.FormatInt(o.ID, 10)}
	})
}

// FailExchange refunds an exchange under review to the wallet (a refund
// finding withdrawal-pending already paid out by a concurrent review is
// answered from the order's state, as reviewOrder does). The user is told
// why, so the remark is required.
func (w *Wallet) FailExchange(ctx context.Context, op Operator, id int64, remark string) (storage.ExchangeOrder, error) {
	if strings.TrimSpace(remark) == "" {
		return storage.ExchangeOrder{}, apierr.Required("remark")
	}
	return reviewOrder(ctx, w, exchanges, op, id, remark, storage.OrderFailed, "exchange.fail", nil, func(o order) ledger.Transfer {
		return ledger.Transfer{Debit: ledger.WithdrawalPending, Credit: ledger.Wallet(o.UserID), Amount: o.Amount,
			Kind: storage.KindExchangeRefund, Ref: o.OrderNo, IdempotencyKey: "exchange-refund:" + strconv.FormatInt(o.ID, 10)}
	})
}

// reviewOrder is an operator's review of an order that moves money: check
// the remark, load the order and, while it is still under review, submit
// its transfer in one ledger operation with the order's move to `to` and
// the audit entry. A refusal caused by a concurrent review (possibly in the
// same ledger batch, where this operation's transfer may fail before its
// hook looks) is answered from the order's state, reloaded; settledAs then
// says whether it went the way asked. guard, when set, is checked first in
// the transaction of the move and refuses it with its error.
func reviewOrder[O any](ctx context.Context, w *Wallet, kind orders[O], op Operator, id int64, remark string, to int, action string,
	guard func(context.Context, storage.Tx) error, transfer func(order) ledger.Transfer) (O, error) {
	var zero O
	remark, err := remarkOf(remark)
	if err != nil {
		return zero, err
	}
	o, err := kind.load(ctx, w.DB, id)
	if err != nil {
		return zero, notFound(err)
	}
	if f := kind.fields(o); f.Status == storage.OrderUnderReview {
		at := w.now()
		err = w.submit(ctx, ledger.Op{Transfers: []ledger.Transfer{transfer(f)}, Hook: func(ctx context.Context, tx storage.Tx) error {
			if guard != nil {
				if err := guard(ctx, tx); err != nil {
					return err
				}
			}
			ok, err := kind.setStatus(ctx, tx, f.ID, storage.OrderUnderReview, to, op.ID, remark, at)
			if err == nil && !ok {
				err = errNotPending
			}
			if err != nil {
				return err
			}
			return op.Audit.Reviewed(ctx, tx, action, Review{OrderID: f.ID, UserID: f.UserID, Amount: f.Amount, From: f.Status, To: to, Remark: remark})
		}})
		o2, lerr := kind.load(ctx, w.DB, id)
		if lerr != nil {
			return zero, lerr
		}
		if err != nil && kind.fields(o2).Status == storage.OrderUnderReview {
			return zero, err
		}
		o = o2
	}
	if err := settledAs(kind.fields(o).Status, to); err != nil {
		return zero, err
	}
	return o, nil
}

// settledAs answers a second review of an order: fine if it already went
// the same way, CodeOrderProcessed if it went the other way.
func settledAs(status, want int) error {
	if status == want {
		return nil
	}
	return apierr.Fail(apierr.CodeOrderProcessed, "order.processed")
}
