package httpapi

// Audit entries of operator changes to money, membership and rules
// (recharge and exchange reviews, activation, window rules, the bank list),
// written in the transaction of the change itself: the ledger operation's
// hook for reviews that move money, the route's own transaction otherwise.

import (
	"context"
	"encoding/json"

	"kj/storage"
)

// auditChange is the detail of an audited change: the object's values
// before and after (before is omitted for a creation), and the operator's
// remark when there is one.
type auditChange struct {
	Before any    `json:"before,omitempty"`
	After  any    `json:"after"`
	Remark string `json:"remark,omitempty"`
}

// withClientIP returns detail with the client address added as "ip": into
// the JSON object detail encodes to, or beside it as "detail" when it is
// not an object.
func withClientIP(detail any, ip string) any {
	m := map[string]any{}
	if detail != nil {
		b, err := json.Marshal(detail)
		if err != nil || json.Unmarshal(b, &m) != nil {
			m = map[string]any{"detail": detail}
		}
	}
	m["ip"] = ip
	return m
}

// auditHook is RecordOperatorAction as a ledger hook: it runs inside the
// ledger's transaction after the hook before it (the order's status move)
// succeeded, so the money, the status and the entry commit together.
func auditHook(c *Call, before func(context.Context, storage.Tx) error, action string, target int64, change auditChange) func(context.Context, storage.Tx) error {
	return func(ctx context.Context, tx storage.Tx) error {
		if err := before(ctx, tx); err != nil {
			return err
		}
		return RecordOperatorAction(c, tx, action, target, change)
	}
}

// orderState is an order as an audit entry shows it before and after.
type orderState struct {
	Status int   `json:"status"`
	Amount int64 `json:"amount"`
	UserID int64 `json:"userId,string"`
}
