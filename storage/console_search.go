package storage

// The console's search of the order queues and records: any part of the
// order number, the transaction hash (recharges), the user's account or
// nickname, case-insensitive, with LIKE's wildcards in the keyword taken
// literally; a date range on when the order was made; any state or one.
// On PostgreSQL trigram indexes (migration 0550) serve the substring match.

import (
	"context"
	"strings"
)

// OrderSearch narrows SearchRechargeOrders and SearchExchangeOrders.
type OrderSearch struct {
	Status   int    // an order state, or -1 for any
	Keyword  string // matched anywhere in the order number, tx hash, account or nickname; "" matches all
	From, To int64  // created in [From, To), unix ms; 0 leaves that side open
	Limit    int
	Offset   int
}

// OrderHit is an order found with its user's account and nickname.
type OrderHit[O any] struct {
	Order    O
	Account  string
	Nickname string
}

// likePattern is the LIKE pattern of a substring search for keyword
// (lower-cased, wildcards escaped with \).
func likePattern(keyword string) string {
	return "%" + likeEscaper.Replace(strings.ToLower(strings.TrimSpace(keyword))) + "%"
}

// SearchRechargeOrders finds recharge orders by f, with the total count:
// the review queue (state 0) oldest first, other lists newest first.
func SearchRechargeOrders(ctx context.Context, q Querier, f OrderSearch) ([]OrderHit[RechargeOrder], int, error) {
	return searchOrders(ctx, q, "recharge_orders", rechargeColumns, ` OR LOWER(o.tx_hash) LIKE $2 ESCAPE '\'`, f, scanRecharge)
}

// SearchExchangeOrders is SearchRechargeOrders for exchanges (no tx hash).
func SearchExchangeOrders(ctx context.Context, q Querier, f OrderSearch) ([]OrderHit[ExchangeOrder], int, error) {
	return searchOrders(ctx, q, "exchange_orders", exchangeColumns, ``, f, scanExchange)
}

func searchOrders[O any](ctx context.Context, q Querier, table, columns, more string, f OrderSearch,
	scan func(Row, ...any) (O, error)) ([]OrderHit[O], int, error) {
	kw := strings.TrimSpace(f.Keyword)
	from := ` FROM ` + table + ` o LEFT JOIN users u ON u.id = o.user_id
		WHERE (CAST($1 AS INTEGER) < 0 OR o.status = $1)
		AND ($3 = '' OR LOWER(o.order_no) LIKE $2 ESCAPE '\' OR LOWER(u.account) LIKE $2 ESCAPE '\'
			OR LOWER(u.nickname) LIKE $2 ESCAPE '\'` + more + `)
		AND (CAST($4 AS BIGINT) = 0 OR o.created_at >= $4) AND (CAST($5 AS BIGINT) = 0 OR o.created_at < $5)`
	args := []any{f.Status, likePattern(kw), kw, f.From, f.To}
	var total int
	if err := q.QueryRow(ctx, `SELECT COUNT(*)`+from, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	order := ` ORDER BY o.created_at DESC, o.id DESC`
	if f.Status == OrderUnderReview {
		order = ` ORDER BY o.created_at, o.id` // the queue: the longest waiting first
	}
	rows, err := q.Query(ctx, `SELECT `+prefixed("o.", columns)+`, COALESCE(u.account, ''), COALESCE(u.nickname, '')`+from+order+
		` LIMIT $6 OFFSET $7`, append(args, f.Limit, f.Offset)...)
	out, err := CollectRows(rows, err, func(r Rows) (OrderHit[O], error) {
		var h OrderHit[O]
		o, err := scan(r, &h.Account, &h.Nickname)
		h.Order = o
		return h, err
	})
	return out, total, err
}
