package storage

import "context"

// SessionDeviceLimit is the state of a session signed out because its user
// signed in on more devices than the devices login policy allows
// (KJ_LOGIN_MAX_DEVICES); its token answers with words of its own, not
// "logged in elsewhere".
const SessionDeviceLimit = 3

// DeviceSession is one live sign-in as the user's device list shows it.
type DeviceSession struct {
	ID        int64
	Platform  int
	Device    string // label from the User-Agent; '' for sessions older than the column
	CreatedAt int64  // unix ms
}

// CreateDeviceSession stores s beside the user's other sessions (the
// devices login policy: a newer sign-in on the same platform does not
// replace the older), then signs out the oldest live ones beyond
// maxDevices with SessionDeviceLimit and returns their ids. Sessions of
// exceptPlatform (the operators' console) neither count nor are signed
// out here: that platform keeps one session, replaced by a newer one, and
// its ids come back in replaced. A session whose jwt expired at now is
// dead already and does not count.
func CreateDeviceSession(ctx context.Context, tx Tx, s AuthSession, maxDevices int, now int64, exceptPlatform int) (replaced, overLimit []int64, err error) {
	// Two sign-ins of one user at once must not both count the same
	// sessions and leave one too many: the user's row serialises them
	// (SQLite's write transactions are exclusive already).
	var uid int64
	if err := tx.QueryRow(ctx, `SELECT id FROM users WHERE id = $1`+tx.Dialect().ForUpdate(), s.UserID).Scan(&uid); err != nil {
		return nil, nil, err
	}
	if s.Platform == exceptPlatform {
		replaced, err := CreateSession(ctx, tx, s)
		return replaced, nil, err
	}
	_, err = tx.Exec(ctx, `INSERT INTO auth_sessions (`+sessionColumns+`)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)`,
		s.ID, s.UserID, s.Platform, s.TokenHash, s.JWTHash, s.ChatTokenHash,
		s.TokenExpiresAt, s.JWTExpiresAt, s.State, s.CreatedAt)
	if err != nil {
		return nil, nil, err
	}
	// The newest maxDevices stay; the new session is the newest (ties on
	// the millisecond go by id, and the new one is kept whatever its id).
	rows, err := tx.Query(ctx, `SELECT id FROM auth_sessions
		WHERE user_id = $1 AND state = $2 AND platform <> $3 AND jwt_expires_at > $4 AND id <> $5
		ORDER BY created_at DESC, id DESC`, s.UserID, SessionActive, exceptPlatform, now, s.ID)
	live, err := CollectRows(rows, err, func(r Rows) (int64, error) {
		var id int64
		return id, r.Scan(&id)
	})
	if err != nil {
		return nil, nil, err
	}
	keep := max(maxDevices-1, 0)
	if len(live) <= keep {
		return nil, nil, nil
	}
	for _, id := range live[keep:] {
		if err := EndSession(ctx, tx, id, SessionDeviceLimit); err != nil {
			return nil, nil, err
		}
	}
	return nil, live[keep:], nil
}

// SetSessionDevice records the device label of a session.
func SetSessionDevice(ctx context.Context, q Querier, id int64, device string) error {
	return affected(q.Exec(ctx, `UPDATE auth_sessions SET device = $1 WHERE id = $2`, device, id))
}

// LiveSessionsOfUser lists a user's active sessions whose jwt has not
// expired at now (the sign-ins that can still be used), newest first.
func LiveSessionsOfUser(ctx context.Context, q Querier, userID, now int64) ([]DeviceSession, error) {
	rows, err := q.Query(ctx, `SELECT id, platform, device, created_at FROM auth_sessions
		WHERE user_id = $1 AND state = $2 AND jwt_expires_at > $3
		ORDER BY created_at DESC, id DESC`, userID, SessionActive, now)
	return CollectRows(rows, err, func(r Rows) (DeviceSession, error) {
		var d DeviceSession
		return d, r.Scan(&d.ID, &d.Platform, &d.Device, &d.CreatedAt)
	})
}

// EndSessionOf signs out one active session of userID: ErrNotFound when id
// is not an active session of that user (someone else's, ended, unknown),
// so a caller can end only its own.
func EndSessionOf(ctx context.Context, q Querier, userID, id int64, state int) error {
	return affected(q.Exec(ctx, `UPDATE auth_sessions SET state = $1 WHERE id = $2 AND user_id = $3 AND state = $4`,
		state, id, userID, SessionActive))
}
