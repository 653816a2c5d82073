package storage

// Managing operator accounts from the console: who is disabled (an
// operator's sign-in frozen, as a player's is), how many admins can still
// sign in, and an admin's reset of an operator's password.

import "context"

// DisabledOperators maps each disabled operator (frozen sign-in) to when it
// was disabled (unix ms).
func DisabledOperators(ctx context.Context, q Querier) (map[int64]int64, error) {
	rows, err := q.Query(ctx, `SELECT id, frozen_at FROM users WHERE is_operator = 1 AND frozen_at <> 0`)
	type pair struct{ id, at int64 }
	list, err := CollectRows(rows, err, func(r Rows) (pair, error) {
		var p pair
		return p, r.Scan(&p.id, &p.at)
	})
	out := make(map[int64]int64, len(list))
	for _, p := range list {
		out[p.id] = p.at
	}
	return out, err
}

// EnabledAdmins counts the admins who can sign in, leaving out exceptID.
// An operator stored without a role is an admin (OperatorRole).
func EnabledAdmins(ctx context.Context, q Querier, exceptID int64) (int, error) {
	return count(ctx, q, `SELECT COUNT(*) FROM users WHERE is_operator = 1 AND frozen_at = 0
		AND (operator_role = $1 OR operator_role = '') AND id <> $2`, OperatorAdmin, exceptID)
}

// SetPasswordHash replaces a user's sign-in password hash. ErrNotFound when
// the user does not exist.
func SetPasswordHash(ctx context.Context, q Querier, userID int64, hash string, now int64) error {
	return affected(q.Exec(ctx, `UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3`, hash, now, userID))
}
