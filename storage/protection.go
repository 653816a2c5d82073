package storage

import (
	"context"
	"errors"
	"strconv"
	"strings"
)

// Player protection's rows (kj/protection owns the rules; migration
// 0600_protection). The same statements run on both stores.

// ProtectionLimit is one deposit or loss limit of a player: Amount is in
// effect (0: none) and, when NextAt is set, NextAmount replaces it then.
type ProtectionLimit struct {
	UserID     int64
	Kind       string // deposit, loss
	Period     string // day, week, month
	Amount     int64
	NextAmount int64
	NextAt     int64
	UpdatedAt  int64
}

// ProtectionLimits loads a player's limits.
func ProtectionLimits(ctx context.Context, q Querier, userID int64) ([]ProtectionLimit, error) {
	rows, err := q.Query(ctx, `SELECT user_id, kind, period, amount, next_amount, next_at, updated_at
		FROM protection_limits WHERE user_id = $1 ORDER BY kind, period`, userID)
	return CollectRows(rows, err, func(r Rows) (ProtectionLimit, error) {
		var l ProtectionLimit
		err := r.Scan(&l.UserID, &l.Kind, &l.Period, &l.Amount, &l.NextAmount, &l.NextAt, &l.UpdatedAt)
		return l, err
	})
}

// PutProtectionLimit writes a limit whole (insert or replace).
func PutProtectionLimit(ctx context.Context, q Querier, l ProtectionLimit) error {
	_, err := q.Exec(ctx, `INSERT INTO protection_limits (user_id, kind, period, amount, next_amount, next_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (user_id, kind, period) DO UPDATE SET amount = excluded.amount,
			next_amount = excluded.next_amount, next_at = excluded.next_at, updated_at = excluded.updated_at`,
		l.UserID, l.Kind, l.Period, l.Amount, l.NextAmount, l.NextAt, l.UpdatedAt)
	return err
}

// ProtectionExclusion is a cool-off or a self-exclusion; EndsAt 0 is
// permanent.
type ProtectionExclusion struct {
	ID        int64
	UserID    int64
	Kind      string // cooloff, selfexclusion
	StartsAt  int64
	EndsAt    int64
	CreatedAt int64
	Account   string // operators' listing only
}

const exclusionColumns = `e.id, e.user_id, e.kind, e.starts_at, e.ends_at, e.created_at`

func scanExclusion(r Rows) (ProtectionExclusion, error) {
	var e ProtectionExclusion
	err := r.Scan(&e.ID, &e.UserID, &e.Kind, &e.StartsAt, &e.EndsAt, &e.CreatedAt)
	return e, err
}

// ProtectionExclusionsInForce lists a player's exclusions that have not
// ended at now (permanent ones included), the latest-ending first.
func ProtectionExclusionsInForce(ctx context.Context, q Querier, userID, now int64) ([]ProtectionExclusion, error) {
	rows, err := q.Query(ctx, `SELECT `+exclusionColumns+` FROM protection_exclusions e
		WHERE e.user_id = $1 AND (e.ends_at = 0 OR e.ends_at > $2)
		ORDER BY CASE WHEN e.ends_at = 0 THEN 1 ELSE 0 END DESC, e.ends_at DESC`, userID, now)
	return CollectRows(rows, err, scanExclusion)
}

// CreateProtectionExclusion records an exclusion.
func CreateProtectionExclusion(ctx context.Context, q Querier, e ProtectionExclusion) error {
	_, err := q.Exec(ctx, `INSERT INTO protection_exclusions (id, user_id, kind, starts_at, ends_at, created_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, e.ID, e.UserID, e.Kind, e.StartsAt, e.EndsAt, e.CreatedAt)
	return err
}

// ProtectionExclusionsFind pages through exclusions for operators, newest
// first: only those in force at now when current, narrowed to an account
// when account is not empty; it counts them too.
func ProtectionExclusionsFind(ctx context.Context, q Querier, current bool, now int64, account string, limit, offset int) ([]ProtectionExclusion, int, error) {
	where := `WHERE ($1 = 0 OR e.ends_at = 0 OR e.ends_at > $2) AND ($3 = '' OR u.account = $3)`
	cur := 0
	if current {
		cur = 1
	}
	var total int
	if err := q.QueryRow(ctx, `SELECT COUNT(*) FROM protection_exclusions e JOIN users u ON u.id = e.user_id `+where,
		cur, now, account).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := q.Query(ctx, `SELECT `+exclusionColumns+`, u.account FROM protection_exclusions e
		JOIN users u ON u.id = e.user_id `+where+` ORDER BY e.created_at DESC, e.id DESC LIMIT $4 OFFSET $5`,
		cur, now, account, limit, offset)
	list, err := CollectRows(rows, err, func(r Rows) (ProtectionExclusion, error) {
		var e ProtectionExclusion
		err := r.Scan(&e.ID, &e.UserID, &e.Kind, &e.StartsAt, &e.EndsAt, &e.CreatedAt, &e.Account)
		return e, err
	})
	return list, total, err
}

// ProtectionReality is a player's reality-check interval in minutes (0:
// off, also when never set).
func ProtectionReality(ctx context.Context, q Querier, userID int64) (int, error) {
	var m int
	err := q.QueryRow(ctx, `SELECT minutes FROM protection_reality WHERE user_id = $1`, userID).Scan(&m)
	if errors.Is(err, ErrNotFound) {
		return 0, nil
	}
	return m, err
}

// PutProtectionReality sets a player's reality-check interval.
func PutProtectionReality(ctx context.Context, q Querier, userID int64, minutes int, at int64) error {
	_, err := q.Exec(ctx, `INSERT INTO protection_reality (user_id, minutes, updated_at) VALUES ($1, $2, $3)
		ON CONFLICT (user_id) DO UPDATE SET minutes = excluded.minutes, updated_at = excluded.updated_at`,
		userID, minutes, at)
	return err
}

// BetTotals are a player's stakes and returns (payouts, refunds) over the
// bets placed since a moment; an open bet has returned nothing yet.
type BetTotals struct {
	Stakes, Returns int64
}

// Loss is stakes minus returns (negative: the player is ahead).
func (t BetTotals) Loss() int64 { return t.Stakes - t.Returns }

// BetTotalsSince sums a player's bets placed at or after each of since
// (unix ms), in one statement over the earliest of them (the user's bets
// index), the sums done by the store.
func BetTotalsSince(ctx context.Context, q Querier, userID int64, since []int64) ([]BetTotals, error) {
	out := make([]BetTotals, len(since))
	if len(since) == 0 {
		return out, nil
	}
	cols, args := sinceSums(since, []string{"amount", "payout"}, 3)
	var first int64 = since[0]
	for _, s := range since {
		first = min(first, s)
	}
	vals := make([]int64, 2*len(since))
	dst := make([]any, len(vals))
	for i := range vals {
		dst[i] = &vals[i]
	}
	err := q.QueryRow(ctx, `SELECT `+cols+` FROM (SELECT placed_at AS at, amount, payout FROM round_bets
		WHERE user_id = $1 AND placed_at >= $2) b`,
		append([]any{userID, first}, args...)...).Scan(dst...)
	for i := range out {
		out[i] = BetTotals{Stakes: vals[2*i], Returns: vals[2*i+1]}
	}
	return out, err
}

// sinceSums writes, for each moment of since and each column, a sum of
// the column over the rows at or after it (the "at" column), as
// CAST(COALESCE(SUM(CASE ...)) AS BIGINT) expressions (PostgreSQL sums
// BIGINT as NUMERIC) with placeholders from $from on.
func sinceSums(since []int64, columns []string, from int) (string, []any) {
	var b strings.Builder
	args := make([]any, 0, len(since))
	for i, s := range since {
		args = append(args, s)
		mark := "$" + strconv.Itoa(from+i)
		for _, c := range columns {
			if b.Len() > 0 {
				b.WriteString(", ")
			}
			b.WriteString("CAST(COALESCE(SUM(CASE WHEN at >= " + mark + " THEN " + c + " ELSE 0 END), 0) AS BIGINT)")
		}
	}
	return b.String(), args
}

// DepositsSince sums a player's recharge orders made at or after each of
// since that count towards a deposit limit: under review or credited, and
// not held (a held order counts once it is let through). except is left
// out (the order being judged; 0 for none).
func DepositsSince(ctx context.Context, q Querier, userID, except int64, since []int64) ([]int64, error) {
	out := make([]int64, len(since))
	if len(since) == 0 {
		return out, nil
	}
	cols, args := sinceSums(since, []string{"amount"}, 6)
	var first int64 = since[0]
	for _, s := range since {
		first = min(first, s)
	}
	dst := make([]any, len(out))
	for i := range out {
		dst[i] = &out[i]
	}
	err := q.QueryRow(ctx, `SELECT `+cols+` FROM (SELECT o.created_at AS at, o.amount FROM recharge_orders o
		WHERE o.user_id = $1 AND o.created_at >= $2 AND o.status IN ($3, $4) AND o.id <> $5
		AND NOT EXISTS (SELECT 1 FROM protection_holds h WHERE h.order_id = o.id AND h.released_at = 0)) d`,
		append([]any{userID, first, OrderUnderReview, OrderCompleted, except}, args...)...).Scan(dst...)
	return out, err
}

// ProtectionHold is a recharge order held by a deposit limit or an
// exclusion.
type ProtectionHold struct {
	OrderID    int64
	UserID     int64
	Reason     string
	UntilAt    int64
	CreatedAt  int64
	ReleasedBy int64
	ReleasedAt int64
	// operators' listing
	Account string
	OrderNo string
	Amount  int64
	Status  int
}

// PutProtectionHold holds an order, or re-holds it with a new reason and
// time (a hold the limit let go is held again when the order is still
// not credited and the limit refuses it once more).
func PutProtectionHold(ctx context.Context, q Querier, h ProtectionHold) error {
	_, err := q.Exec(ctx, `INSERT INTO protection_holds (order_id, user_id, reason, until_at, created_at, released_by, released_at)
		VALUES ($1, $2, $3, $4, $5, 0, 0)
		ON CONFLICT (order_id) DO UPDATE SET reason = excluded.reason, until_at = excluded.until_at,
			released_by = 0, released_at = 0`, h.OrderID, h.UserID, h.Reason, h.UntilAt, h.CreatedAt)
	return err
}

// ProtectionHoldOf loads an order's hold; ErrNotFound when it has none.
func ProtectionHoldOf(ctx context.Context, q Querier, orderID int64) (ProtectionHold, error) {
	var h ProtectionHold
	err := q.QueryRow(ctx, `SELECT order_id, user_id, reason, until_at, created_at, released_by, released_at
		FROM protection_holds WHERE order_id = $1`, orderID).
		Scan(&h.OrderID, &h.UserID, &h.Reason, &h.UntilAt, &h.CreatedAt, &h.ReleasedBy, &h.ReleasedAt)
	return h, err
}

// ReleaseProtectionHold lets a held order through: by an operator (by is
// their id) or by the limit itself (by 0). It reports whether the order
// was held.
func ReleaseProtectionHold(ctx context.Context, q Querier, orderID, by, at int64) (bool, error) {
	n, err := q.Exec(ctx, `UPDATE protection_holds SET released_by = $1, released_at = $2
		WHERE order_id = $3 AND released_at = 0`, by, at, orderID)
	return n == 1, err
}

// ProtectionHoldsOpen pages through the holds not released whose order is
// still under review, oldest first, with their orders; and counts them.
func ProtectionHoldsOpen(ctx context.Context, q Querier, limit, offset int) ([]ProtectionHold, int, error) {
	const from = ` FROM protection_holds h JOIN recharge_orders o ON o.id = h.order_id JOIN users u ON u.id = h.user_id
		WHERE h.released_at = 0 AND o.status = $1`
	var total int
	if err := q.QueryRow(ctx, `SELECT COUNT(*)`+from, OrderUnderReview).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := q.Query(ctx, `SELECT h.order_id, h.user_id, h.reason, h.until_at, h.created_at, h.released_by, h.released_at,
		u.account, o.order_no, o.amount, o.status`+from+` ORDER BY h.created_at, h.order_id LIMIT $2 OFFSET $3`,
		OrderUnderReview, limit, offset)
	list, err := CollectRows(rows, err, func(r Rows) (ProtectionHold, error) {
		var h ProtectionHold
		err := r.Scan(&h.OrderID, &h.UserID, &h.Reason, &h.UntilAt, &h.CreatedAt, &h.ReleasedBy, &h.ReleasedAt,
			&h.Account, &h.OrderNo, &h.Amount, &h.Status)
		return h, err
	})
	return list, total, err
}

// ProtectedPlayers lists the players whose bets player protection must
// judge at now: those with a loss limit, and those with an exclusion not
// ended. Every other player's bet needs no check (nor any read).
func ProtectedPlayers(ctx context.Context, q Querier, now int64) ([]int64, error) {
	rows, err := q.Query(ctx, `SELECT user_id FROM protection_limits WHERE kind = 'loss' AND (amount > 0 OR next_amount > 0)
		UNION SELECT user_id FROM protection_exclusions WHERE ends_at = 0 OR ends_at > $1`, now)
	return CollectRows(rows, err, func(r Rows) (int64, error) {
		var id int64
		err := r.Scan(&id)
		return id, err
	})
}
