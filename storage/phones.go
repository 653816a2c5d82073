package storage

import "context"

// SetUserPhone binds phone to a user; verified says an SMS code sent to it
// came back. A verified phone is one account's only (ErrConflict when
// another account has it verified).
func SetUserPhone(ctx context.Context, q Querier, userID int64, phone string, verified bool, at int64) error {
	defer touched(q, userID)
	v := 0
	if verified {
		v = 1
	}
	return affected(q.Exec(ctx, `UPDATE users SET phone = $1, phone_verified = $2, updated_at = $3 WHERE id = $4`, phone, v, at, userID))
}

// PhoneVerified says whether the user's bound phone was verified by SMS.
func PhoneVerified(ctx context.Context, q Querier, userID int64) (bool, error) {
	var v int
	err := q.QueryRow(ctx, `SELECT phone_verified FROM users WHERE id = $1`, userID).Scan(&v)
	return v == 1, err
}
