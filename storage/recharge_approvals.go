package storage

import (
	"context"
	"strconv"
	"strings"
)

// RechargeApproval is the approval state of a recharge order above the
// configured maximum: it needs two operators, and FirstBy (0: nobody yet)
// has approved it once.
type RechargeApproval struct {
	OrderID int64
	FirstBy int64
	FirstAt int64
}

// CreateRechargeApproval marks an order as needing two operators' approval
// (inside the transaction that creates the order).
func CreateRechargeApproval(ctx context.Context, q Querier, orderID int64) error {
	_, err := q.Exec(ctx, `INSERT INTO recharge_approvals (order_id, first_by, first_at) VALUES ($1, 0, 0)`, orderID)
	return err
}

// RechargeApprovalOf loads an order's approval state; ErrNotFound when the
// order needs only one approval.
func RechargeApprovalOf(ctx context.Context, q Querier, orderID int64) (RechargeApproval, error) {
	var a RechargeApproval
	err := q.QueryRow(ctx, `SELECT order_id, first_by, first_at FROM recharge_approvals WHERE order_id = $1`, orderID).
		Scan(&a.OrderID, &a.FirstBy, &a.FirstAt)
	return a, err
}

// SetRechargeFirstApproval records operator as the first approver of an
// order still under review that nobody approved yet, and reports whether
// it did (false: someone approved first, or the order left review).
func SetRechargeFirstApproval(ctx context.Context, q Querier, orderID, operator, at int64) (bool, error) {
	n, err := q.Exec(ctx, `UPDATE recharge_approvals SET first_by = $1, first_at = $2
		WHERE order_id = $3 AND first_by = 0
		AND EXISTS (SELECT 1 FROM recharge_orders o WHERE o.id = $3 AND o.status = $4)`, operator, at, orderID, OrderUnderReview)
	return n == 1, err
}

// RechargeApprovals loads the approval state of the orders among ids that
// need two approvals, by order id, in one statement.
func RechargeApprovals(ctx context.Context, q Querier, ids []int64) (map[int64]RechargeApproval, error) {
	out := make(map[int64]RechargeApproval)
	if len(ids) == 0 {
		return out, nil
	}
	marks := make([]string, len(ids))
	args := make([]any, len(ids))
	for i, id := range ids {
		marks[i], args[i] = "$"+strconv.Itoa(i+1), id
	}
	rows, err := q.Query(ctx, `SELECT order_id, first_by, first_at FROM recharge_approvals
		WHERE order_id IN (`+strings.Join(marks, ",")+`)`, args...)
	list, err := CollectRows(rows, err, func(r Rows) (RechargeApproval, error) {
		var a RechargeApproval
		err := r.Scan(&a.OrderID, &a.FirstBy, &a.FirstAt)
		return a, err
	})
	for _, a := range list {
		out[a.OrderID] = a
	}
	return out, err
}
