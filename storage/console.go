package storage

// What the operator console reads and changes beyond the areas' own
// queries: operator roles, frozen sign-in, a user's recent history, the
// dashboard's figures and one round's bets.

import (
	"context"
	"strconv"
)

// Operator roles.
const (
	OperatorAdmin = "admin" // everything, manages operators
	OperatorAgent = "agent" // customer service, review queues, activation
)

// OperatorRole is the role of an operator account; "" for a player.
// ErrNotFound when the user does not exist. An operator stored without a
// role (made before roles, or by CreateUser with IsOperator) is an admin,
// as every operator was before roles.
func OperatorRole(ctx context.Context, q Querier, userID int64) (string, error) {
	var role string
	var isOperator int
	err := q.QueryRow(ctx, `SELECT operator_role, is_operator FROM users WHERE id = $1`, userID).Scan(&role, &isOperator)
	switch {
	case isOperator != 1:
		role = ""
	case role == "":
		role = OperatorAdmin
	}
	return role, err
}

// SetOperatorRole makes userID an operator with role (activated, as
// operators are). ErrNotFound when the user does not exist.
func SetOperatorRole(ctx context.Context, q Querier, userID int64, role string, at int64) error {
	defer touchedAll(q) // customerId and the agents count follow the operators
	return affected(q.Exec(ctx, `UPDATE users SET is_operator = 1, is_activation = 1, operator_role = $1, updated_at = $2 WHERE id = $3`,
		role, at, userID))
}

// OperatorRow is an operator as the console lists them.
type OperatorRow struct {
	ID          int64
	Account     string
	Nickname    string
	Role        string
	CreatedAt   int64
	LastLoginAt int64
}

// ListOperators lists every operator account, oldest first.
func ListOperators(ctx context.Context, q Querier) ([]OperatorRow, error) {
	rows, err := q.Query(ctx, `SELECT id, account, nickname, operator_role, created_at, last_login_at
		FROM users WHERE is_operator = 1 ORDER BY created_at, id`)
	return CollectRows(rows, err, func(r Rows) (OperatorRow, error) {
		var o OperatorRow
		err := r.Scan(&o.ID, &o.Account, &o.Nickname, &o.Role, &o.CreatedAt, &o.LastLoginAt)
		if o.Role == "" {
			o.Role = OperatorAdmin
		}
		return o, err
	})
}

// FrozenAt is when an operator froze the user's sign-in (unix ms), 0 when
// not frozen. ErrNotFound when the user does not exist.
func FrozenAt(ctx context.Context, q Querier, userID int64) (int64, error) {
	var at int64
	err := q.QueryRow(ctx, `SELECT frozen_at FROM users WHERE id = $1`, userID).Scan(&at)
	return at, err
}

// SetFrozen freezes (at > 0) or unfreezes (at = 0) a user's sign-in and
// reports whether the state changed. ErrNotFound when the user does not
// exist.
func SetFrozen(ctx context.Context, q Querier, userID, at, now int64) (bool, error) {
	defer touched(q, userID)
	cond := `frozen_at <> 0`
	if at > 0 {
		cond = `frozen_at = 0`
	}
	n, err := q.Exec(ctx, `UPDATE users SET frozen_at = $1, updated_at = $2 WHERE id = $3 AND `+cond, at, now, userID)
	if err == nil && n == 0 {
		if _, err := FrozenAt(ctx, q, userID); err != nil {
			return false, err
		}
	}
	return n == 1, err
}

// ClearFundPassword removes a user's fund password (an operator's reset:
// the user sets a new one before the next exchange) and reports whether
// there was one. ErrNotFound when the user does not exist.
func ClearFundPassword(ctx context.Context, q Querier, userID, now int64) (bool, error) {
	defer touched(q, userID)
	n, err := q.Exec(ctx, `UPDATE users SET fund_password_hash = '', updated_at = $1 WHERE id = $2 AND fund_password_hash <> ''`,
		now, userID)
	if err == nil && n == 0 {
		if _, err := UserByID(ctx, q, userID); err != nil {
			return false, err
		}
	}
	return n == 1, err
}

// SessionsOfUser lists a user's sign-ins (sessions), newest first.
func SessionsOfUser(ctx context.Context, q Querier, userID int64, limit int) ([]AuthSession, error) {
	rows, err := q.Query(ctx, `SELECT `+sessionColumns+` FROM auth_sessions WHERE user_id = $1
		ORDER BY created_at DESC, id DESC LIMIT $2`, userID, limit)
	return CollectRows(rows, err, func(r Rows) (AuthSession, error) { return scanSession(r) })
}

// WalletLine is one entry of a user's wallet with the balance it left.
type WalletLine struct {
	TransferID   int64
	Kind         string
	Ref          string
	Amount       int64 // signed cents
	BalanceAfter int64
	CreatedAt    int64
}

// WalletLines lists the newest entries of a user's wallet with the balance
// after each, read in one snapshot with the balance itself.
func WalletLines(ctx context.Context, q Querier, userID int64, limit int) (balance int64, lines []WalletLine, err error) {
	rows, err := q.Query(ctx, `SELECT COALESCE((SELECT balance FROM ledger_accounts WHERE id = $1), 0),
		COALESCE(t.id, 0), COALESCE(t.kind, ''), COALESCE(t.ref, ''), COALESCE(e.amount, 0), COALESCE(e.created_at, 0)
		FROM (SELECT 1 AS one) o
		LEFT JOIN (SELECT transfer_id, amount, created_at FROM ledger_entries WHERE account_id = $1
			ORDER BY transfer_id DESC LIMIT $2) e ON 1 = 1
		LEFT JOIN ledger_transfers t ON t.id = e.transfer_id
		ORDER BY e.transfer_id DESC`, userID, limit)
	all, err := CollectRows(rows, err, func(r Rows) (WalletLine, error) {
		var l WalletLine
		return l, r.Scan(&balance, &l.TransferID, &l.Kind, &l.Ref, &l.Amount, &l.CreatedAt)
	})
	if err != nil {
		return 0, nil, err
	}
	after := balance
	for _, l := range all {
		if l.TransferID == 0 {
			continue // the user has no entries: only the balance row
		}
		l.BalanceAfter = after
		after -= l.Amount
		lines = append(lines, l)
	}
	return balance, lines, nil
}

// RechargeOrdersOf lists a user's recharge orders, newest first.
func RechargeOrdersOf(ctx context.Context, q Querier, userID int64, limit int) ([]RechargeOrder, error) {
	rows, err := q.Query(ctx, `SELECT `+rechargeColumns+` FROM recharge_orders WHERE user_id = $1
		ORDER BY created_at DESC, id DESC LIMIT $2`, userID, limit)
	return CollectRows(rows, err, func(r Rows) (RechargeOrder, error) { return scanRecharge(r) })
}

// DayFigures are one day's figures of the dashboard. Money comes from the
// ledger's transfers, so it agrees with `kj ledger check`.
type DayFigures struct {
	Registrations int64 // players registered
	ActiveUsers   int64 // players who signed in or placed a bet
	RechargeCount int64 // recharges credited
	RechargeTotal int64
	ExchangeCount int64 // exchanges paid out
	ExchangeTotal int64
}

// DayFiguresBetween reads the figures of [from, to) (unix ms).
func DayFiguresBetween(ctx context.Context, q Querier, from, to int64) (DayFigures, error) {
	var f DayFigures
	err := q.QueryRow(ctx, `SELECT
		(SELECT COUNT(*) FROM users WHERE is_operator = 0 AND created_at >= $1 AND created_at < $2),
		(SELECT COUNT(*) FROM (
			SELECT s.user_id FROM auth_sessions s WHERE s.created_at >= $1 AND s.created_at < $2
			UNION
			SELECT b.user_id FROM round_bets b WHERE b.placed_at >= $1 AND b.placed_at < $2
		) a JOIN users u ON u.id = a.user_id AND u.is_operator = 0),
		(SELECT COUNT(*) FROM ledger_transfers WHERE kind = $3 AND created_at >= $1 AND created_at < $2),
		(SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM ledger_transfers WHERE kind = $3 AND created_at >= $1 AND created_at < $2),
		(SELECT COUNT(*) FROM ledger_transfers WHERE kind = $4 AND created_at >= $1 AND created_at < $2),
		(SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM ledger_transfers WHERE kind = $4 AND created_at >= $1 AND created_at < $2)`,
		from, to, KindRecharge, KindExchangePaid).Scan(&f.Registrations, &f.ActiveUsers, &f.RechargeCount, &f.RechargeTotal,
		&f.ExchangeCount, &f.ExchangeTotal)
	return f, err
}

// Transfer kinds of the rounds (actors/window posts them; repeated here so
// the dashboard's query names them without importing the windows). Rounds
// settled before the one-transfer settlement carry bet_lose per loser and
// bet_return + bet_win (the gain) per winner; later ones one
// KindBetStakesSettled per settlement transaction and bet_win (the whole
// payout) per winner. Both stay in the ledger and are read alike.
const (
	kindStake  = KindBetStake
	kindReturn = "bet_return"
	kindWin    = "bet_win"
	kindLose   = "bet_lose"
)

// WindowFigures are a window's bets and the house result in a time range,
// from the ledger: Staked is the stakes taken, PaidOut what went back to
// winners (stake and gain) and refunds, House what the house account
// gained (settled stakes minus payouts) — summed over every window and all
// time it is the house account's balance.
type WindowFigures struct {
	WindowID int64
	Bets     int64
	Staked   int64
	PaidOut  int64
	House    int64
}

// WindowFiguresBetween reads each window's figures of the transfers made in
// [from, to) (unix ms); windows without any are left out.
//
// PaidOut is bet_return + bet_win: a refund, or an old winner's stake back
// and gain, or a new winner's whole payout. House is bet_lose +
// bet_stakes_settled − bet_win: an old round's lost stakes minus the
// winners' gains, a new round's settled stakes (winners' too) minus the
// whole payouts — the same sum, since a winner's payout is its stake plus
// its gain, and each bet is settled under one of the two.
func WindowFiguresBetween(ctx context.Context, q Querier, from, to int64) ([]WindowFigures, error) {
	// A bet's transfers carry the bet's row id as ref, a settlement's
	// stakes transfer the round's id; the CASEs keep the casts away from
	// other kinds' refs (order numbers).
	rows, err := q.Query(ctx, `SELECT w,
			SUM(CASE WHEN kind = $3 THEN 1 ELSE 0 END),
			SUM(CASE WHEN kind = $3 THEN amount ELSE 0 END),
			SUM(CASE WHEN kind = $4 OR kind = $5 THEN amount ELSE 0 END),
			SUM(CASE WHEN kind = $6 OR kind = $7 THEN amount WHEN kind = $5 THEN -amount ELSE 0 END)
		FROM (
			SELECT b.window_id AS w, t.kind AS kind, t.amount AS amount
			FROM ledger_transfers t
			JOIN round_bets b ON b.id = CAST(CASE WHEN t.kind IN ($3, $4, $5, $6) THEN t.ref END AS BIGINT)
			WHERE t.kind IN ($3, $4, $5, $6) AND t.created_at >= $1 AND t.created_at < $2
			UNION ALL
			SELECT r.window_id, t.kind, t.amount
			FROM ledger_transfers t
			JOIN rounds r ON r.id = CAST(CASE WHEN t.kind = $7 THEN t.ref END AS BIGINT)
			WHERE t.kind = $7 AND t.created_at >= $1 AND t.created_at < $2
		) x
		GROUP BY w ORDER BY w`, from, to, kindStake, kindReturn, kindWin, kindLose, KindBetStakesSettled)
	return CollectRows(rows, err, func(r Rows) (WindowFigures, error) {
		var w WindowFigures
		return w, r.Scan(&w.WindowID, &w.Bets, &w.Staked, &w.PaidOut, &w.House)
	})
}

// PendingOrders counts recharge and exchange orders under review.
func PendingOrders(ctx context.Context, q Querier) (recharges, exchanges int64, err error) {
	err = q.QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM recharge_orders WHERE status = $1),
		(SELECT COUNT(*) FROM exchange_orders WHERE status = $1)`, OrderUnderReview).Scan(&recharges, &exchanges)
	return recharges, exchanges, err
}

// RoundBetRow is a bet of a round with its player's account.
type RoundBetRow struct {
	RoundBet
	Account string
}

// BetsOfRoundWithAccounts lists a round's bets, oldest first, with each
// player's account.
func BetsOfRoundWithAccounts(ctx context.Context, q Querier, roundID int64) ([]RoundBetRow, error) {
	rows, err := q.Query(ctx, `SELECT `+prefixed("b.", betColumns)+`, COALESCE(u.account, '')
		FROM round_bets b LEFT JOIN users u ON u.id = b.user_id WHERE b.round_id = $1 ORDER BY b.id`, roundID)
	return CollectRows(rows, err, func(r Rows) (RoundBetRow, error) {
		var b RoundBetRow
		err := r.Scan(&b.ID, &b.BetID, &b.UserID, &b.RoundID, &b.WindowID, &b.Issue, &b.Content, &b.Amount,
			&b.State, &b.Payout, &b.PlacedAt, &b.SettledAt, &b.Account)
		return b, err
	})
}

// RechargeOrdersFind is RechargeOrdersByStatus narrowed to one account or
// order number when keyword is not empty (the review queue's search).
func RechargeOrdersFind(ctx context.Context, q Querier, status int, keyword string, limit, offset int) ([]RechargeOrder, int, error) {
	return ordersFind(ctx, q, "recharge_orders", rechargeColumns, status, keyword, limit, offset, scanRecharge,
		func(o *RechargeOrder, account string) { o.Account = account })
}

// ExchangeOrdersFind is ExchangeOrdersByStatus narrowed like
// RechargeOrdersFind.
func ExchangeOrdersFind(ctx context.Context, q Querier, status int, keyword string, limit, offset int) ([]ExchangeOrder, int, error) {
	return ordersFind(ctx, q, "exchange_orders", exchangeColumns, status, keyword, limit, offset, scanExchange,
		func(o *ExchangeOrder, account string) { o.Account = account })
}

// ordersFind is ordersByStatus with the operator's search by account or
// order number.
func ordersFind[O any](ctx context.Context, q Querier, table, columns string, status int, keyword string, limit, offset int,
	scan func(Row, ...any) (O, error), setAccount func(*O, string)) ([]O, int, error) {
	from := ` FROM ` + table + ` o LEFT JOIN users u ON u.id = o.user_id WHERE o.status = $1` + orderSearch("o", 2)
	var total int
	if err := q.QueryRow(ctx, `SELECT COUNT(*)`+from, status, keyword).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := q.Query(ctx, `SELECT `+prefixed("o.", columns)+`, COALESCE(u.account, '')`+from+`
		ORDER BY o.created_at, o.id LIMIT $3 OFFSET $4`, status, keyword, limit, offset)
	out, err := CollectRows(rows, err, withAccount(scan, setAccount))
	return out, total, err
}

// orderSearch is the WHERE addition of an operator's search by account or
// order number (exact), with the keyword as parameter $n.
func orderSearch(alias string, n int) string {
	p := "$" + strconv.Itoa(n)
	return ` AND (` + p + ` = '' OR ` + alias + `.order_no = ` + p + ` OR u.account = ` + p + `)`
}
