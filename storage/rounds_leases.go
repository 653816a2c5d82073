package storage

import "context"

// RoundLease says which node runs a window until when. Epoch grows each time
// the window changes hands.
type RoundLease struct {
	WindowID  int64
	Holder    string
	ExpiresAt int64
	Epoch     int64
}

// AcquireRoundLeases renews the leases holder already has, takes every lease
// that has lapsed (or was released), and returns the leases holder now
// holds, valid until now+ttlMs. On PostgreSQL two nodes taking the same
// lease queue on its row and the second finds it no longer lapsed.
func AcquireRoundLeases(ctx context.Context, db DB, holder string, now, ttlMs int64) ([]RoundLease, error) {
	var held []RoundLease
	err := db.Tx(ctx, func(tx Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE round_leases SET expires_at = $1
			WHERE holder = $2 AND expires_at > $3`, now+ttlMs, holder, now); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE round_leases SET holder = $1, expires_at = $2, epoch = epoch + 1
			WHERE expires_at <= $3`, holder, now+ttlMs, now); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT window_id, holder, expires_at, epoch FROM round_leases
			WHERE holder = $1 AND expires_at > $2 ORDER BY window_id`, holder, now)
		held, err = CollectRows(rows, err, func(r Rows) (RoundLease, error) {
			var l RoundLease
			return l, r.Scan(&l.WindowID, &l.Holder, &l.ExpiresAt, &l.Epoch)
		})
		return err
	})
	return held, err
}

// ReleaseRoundLeases gives up holder's leases (at shutdown) so another node
// takes the windows over at its next attempt instead of waiting for expiry.
func ReleaseRoundLeases(ctx context.Context, q Querier, holder string) error {
	_, err := q.Exec(ctx, `UPDATE round_leases SET expires_at = 0 WHERE holder = $1`, holder)
	return err
}

// RoundLeases lists every lease (operators, tests).
func RoundLeases(ctx context.Context, q Querier) ([]RoundLease, error) {
	rows, err := q.Query(ctx, `SELECT window_id, holder, expires_at, epoch FROM round_leases ORDER BY window_id`)
	return CollectRows(rows, err, func(r Rows) (RoundLease, error) {
		var l RoundLease
		return l, r.Scan(&l.WindowID, &l.Holder, &l.ExpiresAt, &l.Epoch)
	})
}
