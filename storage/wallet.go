package storage

import (
	"context"
	"errors"
	"strconv"
)

// Order states, as the web app's points and exchange records show them.
const (
	OrderUnderReview = 0
	OrderCompleted   = 1
	OrderFailed      = 2
)

// RechargeOrder is a user's claim of a USDT deposit, reviewed by an operator.
type RechargeOrder struct {
	ID         int64
	OrderNo    string
	UserID     int64
	Amount     int64 // cents of points
	Protocol   string
	Address    string // the deposit address shown when the order was made
	TxHash     string
	Status     int
	Remark     string
	ReviewedBy int64
	ReviewedAt int64
	CreatedAt  int64
	Account    string // the user's account, filled by operator listings
}

const rechargeColumns = `id, order_no, user_id, amount, protocol, address, tx_hash, status, remark,
	reviewed_by, reviewed_at, created_at`

func scanRecharge(r Row, extra ...any) (RechargeOrder, error) {
	var o RechargeOrder
	dest := append([]any{&o.ID, &o.OrderNo, &o.UserID, &o.Amount, &o.Protocol, &o.Address, &o.TxHash, &o.Status,
		&o.Remark, &o.ReviewedBy, &o.ReviewedAt, &o.CreatedAt}, extra...)
	err := r.Scan(dest...)
	return o, err
}

// CreateRechargeOrder inserts o; ErrConflict when its transaction hash (or
// number) was used.
func CreateRechargeOrder(ctx context.Context, q Querier, o RechargeOrder) error {
	_, err := q.Exec(ctx, `INSERT INTO recharge_orders (`+rechargeColumns+`)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)`,
		o.ID, o.OrderNo, o.UserID, o.Amount, o.Protocol, o.Address, o.TxHash, o.Status, o.Remark,
		o.ReviewedBy, o.ReviewedAt, o.CreatedAt)
	return err
}

// RechargeOrderByID loads one order; ErrNotFound when missing.
func RechargeOrderByID(ctx context.Context, q Querier, id int64) (RechargeOrder, error) {
	return scanRecharge(q.QueryRow(ctx, `SELECT `+rechargeColumns+` FROM recharge_orders WHERE id = $1`, id))
}

// RechargeOrderByTxHash finds the order of a transaction hash.
func RechargeOrderByTxHash(ctx context.Context, q Querier, hash string) (RechargeOrder, error) {
	return scanRecharge(q.QueryRow(ctx, `SELECT `+rechargeColumns+` FROM recharge_orders WHERE tx_hash = $1`, hash))
}

// SetRechargeStatus moves an order from one state to another and reports
// whether it did (false: it was not in from any more).
func SetRechargeStatus(ctx context.Context, q Querier, id int64, from, to int, reviewer int64, remark string, at int64) (bool, error) {
	return setOrderStatus(ctx, q, "recharge_orders", id, from, to, reviewer, remark, at)
}

// RechargeOrdersByStatus lists orders in a state, oldest first (the review
// queue), with the user's account, and the total count.
func RechargeOrdersByStatus(ctx context.Context, q Querier, status, limit, offset int) ([]RechargeOrder, int, error) {
	return ordersByStatus(ctx, q, "recharge_orders", rechargeColumns, status, limit, offset, scanRecharge,
		func(o *RechargeOrder, account string) { o.Account = account })
}

// ExchangeOrder is a withdrawal of points to a bank card.
type ExchangeOrder struct {
	ID         int64
	OrderNo    string
	UserID     int64
	Amount     int64
	BankCardID int64
	BankName   string
	HolderName string
	CardNumber string
	Status     int
	Remark     string
	RequestKey string
	ReviewedBy int64
	ReviewedAt int64
	CreatedAt  int64
	Account    string // the user's account, filled by operator listings
}

const exchangeColumns = `id, order_no, user_id, amount, bank_card_id, bank_name, holder_name, card_number,
	status, remark, request_key, reviewed_by, reviewed_at, created_at`

func scanExchange(r Row, extra ...any) (ExchangeOrder, error) {
	var o ExchangeOrder
	dest := append([]any{&o.ID, &o.OrderNo, &o.UserID, &o.Amount, &o.BankCardID, &o.BankName, &o.HolderName,
		&o.CardNumber, &o.Status, &o.Remark, &o.RequestKey, &o.ReviewedBy, &o.ReviewedAt, &o.CreatedAt}, extra...)
	err := r.Scan(dest...)
	return o, err
}

// CreateExchangeOrder inserts o (inside the ledger transaction of its debit).
func CreateExchangeOrder(ctx context.Context, q Querier, o ExchangeOrder) error {
	defer touched(q, o.UserID)
	_, err := q.Exec(ctx, `INSERT INTO exchange_orders (`+exchangeColumns+`)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14)`,
		o.ID, o.OrderNo, o.UserID, o.Amount, o.BankCardID, o.BankName, o.HolderName, o.CardNumber,
		o.Status, o.Remark, o.RequestKey, o.ReviewedBy, o.ReviewedAt, o.CreatedAt)
	return err
}

// ExchangeOrderByID loads one order; ErrNotFound when missing.
func ExchangeOrderByID(ctx context.Context, q Querier, id int64) (ExchangeOrder, error) {
	return scanExchange(q.QueryRow(ctx, `SELECT `+exchangeColumns+` FROM exchange_orders WHERE id = $1`, id))
}

// ExchangeOrderByRequestKey finds the order a request created.
func ExchangeOrderByRequestKey(ctx context.Context, q Querier, key string) (ExchangeOrder, error) {
	return scanExchange(q.QueryRow(ctx, `SELECT `+exchangeColumns+` FROM exchange_orders WHERE request_key = $1`, key))
}

// SetExchangeStatus moves an order from one state to another and reports
// whether it did.
func SetExchangeStatus(ctx context.Context, q Querier, id int64, from, to int, reviewer int64, remark string, at int64) (bool, error) {
	return setOrderStatus(ctx, q, "exchange_orders", id, from, to, reviewer, remark, at)
}

// ExchangeOrdersByStatus lists orders in a state, oldest first, with the
// user's account, and the total count.
func ExchangeOrdersByStatus(ctx context.Context, q Querier, status, limit, offset int) ([]ExchangeOrder, int, error) {
	return ordersByStatus(ctx, q, "exchange_orders", exchangeColumns, status, limit, offset, scanExchange,
		func(o *ExchangeOrder, account string) { o.Account = account })
}

// setOrderStatus is the review step of both order tables: move the order
// from one state to another only if it is still in from, so two reviews
// racing on one order cannot both win.
func setOrderStatus(ctx context.Context, q Querier, table string, id int64, from, to int, reviewer int64, remark string, at int64) (bool, error) {
	// RETURNING names the owner, whose frozen amount and recharge flag
	// the node keeps (commits.go).
	var userID int64
	err := q.QueryRow(ctx, `UPDATE `+table+` SET status = $1, reviewed_by = $2, remark = $3, reviewed_at = $4
		WHERE id = $5 AND status = $6 RETURNING user_id`, to, reviewer, remark, at, id, from).Scan(&userID)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	touched(q, userID)
	return true, nil
}

// ordersByStatus is the operators' review queue of both order tables:
// the orders in a state, oldest first, each with its user's account, and
// the total count.
func ordersByStatus[O any](ctx context.Context, q Querier, table, columns string, status, limit, offset int,
	scan func(Row, ...any) (O, error), setAccount func(*O, string)) ([]O, int, error) {
	var total int
	if err := q.QueryRow(ctx, `SELECT COUNT(*) FROM `+table+` WHERE status = $1`, status).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := q.Query(ctx, `SELECT `+prefixed("o.", columns)+`, COALESCE(u.account, '')
		FROM `+table+` o LEFT JOIN users u ON u.id = o.user_id
		WHERE o.status = $1 ORDER BY o.created_at, o.id LIMIT $2 OFFSET $3`, status, limit, offset)
	out, err := CollectRows(rows, err, withAccount(scan, setAccount))
	return out, total, err
}

// withAccount scans an order row followed by its user's account.
func withAccount[O any](scan func(Row, ...any) (O, error), setAccount func(*O, string)) func(Rows) (O, error) {
	return func(r Rows) (O, error) {
		var account string
		o, err := scan(r, &account)
		setAccount(&o, account)
		return o, err
	}
}

// UserExchangeOrders lists a user's exchanges since a time, newest first,
// optionally only those in one state (status < 0: all), and the total.
func UserExchangeOrders(ctx context.Context, q Querier, userID int64, status int, since int64, limit, offset int) ([]ExchangeOrder, int, error) {
	where := `user_id = $1 AND created_at >= $2`
	args := []any{userID, since}
	if status >= 0 {
		where += ` AND status = $3`
		args = append(args, status)
	}
	var total int
	if err := q.QueryRow(ctx, `SELECT COUNT(*) FROM exchange_orders WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	n := len(args)
	rows, err := q.Query(ctx, `SELECT `+exchangeColumns+` FROM exchange_orders WHERE `+where+`
		ORDER BY created_at DESC, id DESC LIMIT $`+strconv.Itoa(n+1)+` OFFSET $`+strconv.Itoa(n+2), append(args, limit, offset)...)
	out, err := CollectRows(rows, err, func(r Rows) (ExchangeOrder, error) { return scanExchange(r) })
	return out, total, err
}

// PendingExchangeTotal is what a user has under review (frozen points).
func PendingExchangeTotal(ctx context.Context, q Querier, userID int64) (int64, error) {
	var n int64
	err := q.QueryRow(ctx, `SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM exchange_orders WHERE user_id = $1 AND status = $2`,
		userID, OrderUnderReview).Scan(&n)
	return n, err
}

// WalletSummary is what the mine page shows of a user's wallet.
type WalletSummary struct {
	Balance    int64 // spendable, cents
	Frozen     int64 // exchanges under review
	Cards      int   // bank cards bound
	IsRecharge bool  // a recharge was credited

	HasFundPassword bool // the user has set a fund password
}

// WalletSummaryOf reads a user's summary in one statement (one round trip,
// one snapshot).
func WalletSummaryOf(ctx context.Context, q Querier, userID int64) (WalletSummary, error) {
	var w WalletSummary
	var recharged, fundPassword int
	err := q.QueryRow(ctx, `SELECT
		COALESCE((SELECT balance FROM ledger_accounts WHERE id = $1), 0),
		(SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM exchange_orders WHERE user_id = $1 AND status = $2),
		(SELECT COUNT(*) FROM bank_cards WHERE user_id = $1),
		(SELECT COUNT(*) FROM (SELECT 1 FROM recharge_orders WHERE user_id = $1 AND status = $3 LIMIT 1) x),
		(SELECT COUNT(*) FROM users WHERE id = $1 AND fund_password_hash <> '')`,
		userID, OrderUnderReview, OrderCompleted).Scan(&w.Balance, &w.Frozen, &w.Cards, &recharged, &fundPassword)
	w.IsRecharge = recharged > 0
	w.HasFundPassword = fundPassword > 0
	return w, err
}

// PointsRecord is one line of a user's points details: a recharge order
// (any state) or a movement of the wallet (exchange, refund, bets ...).
type PointsRecord struct {
	ID      int64  // recharge order id or transfer id
	Type    string // the transfer kind: recharge, exchange, exchange_refund, bet ...
	Amount  int64  // signed cents: income > 0, expenditure < 0
	State   int    // 0 under review, 1 completed, 2 failed
	OrderNo string
	Time    int64
}

// Points record filters.
const (
	FlowAll         = 0
	FlowIncome      = 1
	FlowExpenditure = 2
)

// PointsRecords lists a user's points details since a time, newest first,
// and the total. Recharges come from their orders (so one under review or
// failed shows with its state); every other line is a wallet entry, an
// exchange carrying the state of its order.
func PointsRecords(ctx context.Context, q Querier, userID int64, flow int, since int64, limit, offset int) ([]PointsRecord, int, error) {
	from := `FROM (
		SELECT 'recharge' AS type, r.id AS id, r.amount AS amount, r.status AS state, r.order_no AS order_no, r.created_at AS at
		FROM recharge_orders r WHERE r.user_id = $1 AND r.created_at >= $2
		UNION ALL
		SELECT t.kind, t.id, e.amount, COALESCE(x.status, 1), t.ref, e.created_at
		FROM ledger_entries e
		JOIN ledger_transfers t ON t.id = e.transfer_id
		LEFT JOIN exchange_orders x ON t.kind = 'exchange' AND x.order_no = t.ref
		WHERE e.account_id = $1 AND e.created_at >= $2 AND t.kind <> 'recharge'
	) rec`
	switch flow {
	case FlowIncome:
		from += ` WHERE amount > 0`
	case FlowExpenditure:
		from += ` WHERE amount < 0`
	}
	var total int
	if err := q.QueryRow(ctx, `SELECT COUNT(*) `+from, userID, since).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := q.Query(ctx, `SELECT type, id, amount, state, order_no, at `+from+`
		ORDER BY at DESC, id DESC LIMIT $3 OFFSET $4`, userID, since, limit, offset)
	out, err := CollectRows(rows, err, func(r Rows) (PointsRecord, error) {
		var p PointsRecord
		return p, r.Scan(&p.Type, &p.ID, &p.Amount, &p.State, &p.OrderNo, &p.Time)
	})
	return out, total, err
}

// SetFundPasswordHash replaces a user's fund password hash if it is still
// old (compare-and-set, so two concurrent changes cannot both win); it
// reports whether it did.
func SetFundPasswordHash(ctx context.Context, q Querier, userID int64, old, hash string, at int64) (bool, error) {
	defer touched(q, userID)
	n, err := q.Exec(ctx, `UPDATE users SET fund_password_hash = $1, updated_at = $2 WHERE id = $3 AND fund_password_hash = $4`,
		hash, at, userID, old)
	if err == nil && n == 0 {
		if _, err := UserByID(ctx, q, userID); errors.Is(err, ErrNotFound) {
			return false, ErrNotFound
		}
	}
	return n == 1, err
}
