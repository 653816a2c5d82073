package storage

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
)

// Session states.
const (
	SessionActive    = 0
	SessionSignedOut = 1
	SessionReplaced  = 2
)

// AuthSession is one sign-in on one platform. The secrets themselves are
// never stored, only their SHA-256 (HashSecret).
type AuthSession struct {
	ID             int64
	UserID         int64
	Platform       int
	TokenHash      string
	JWTHash        string
	ChatTokenHash  string
	TokenExpiresAt int64 // unix ms
	JWTExpiresAt   int64 // unix ms
	State          int
	CreatedAt      int64
}

// HashSecret is how tokens are looked up: a random 256-bit secret needs no
// salt or slow KDF, and a leaked table yields nothing usable.
func HashSecret(secret string) string {
	h := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(h[:])
}

const sessionColumns = `id, user_id, platform, token_hash, jwt_hash, chat_token_hash,
	token_expires_at, jwt_expires_at, state, created_at`

func scanSession(r Row) (AuthSession, error) {
	var s AuthSession
	err := r.Scan(&s.ID, &s.UserID, &s.Platform, &s.TokenHash, &s.JWTHash, &s.ChatTokenHash,
		&s.TokenExpiresAt, &s.JWTExpiresAt, &s.State, &s.CreatedAt)
	return s, err
}

// CreateSession stores s and marks the user's other active sessions on the
// same platform as replaced, returning the ids of those it replaced (so
// their sockets can be kicked).
func CreateSession(ctx context.Context, tx Tx, s AuthSession) (replaced []int64, err error) {
	rows, err := tx.Query(ctx, `UPDATE auth_sessions SET state = $1
		WHERE user_id = $2 AND platform = $3 AND state = $4 RETURNING id`,
		SessionReplaced, s.UserID, s.Platform, SessionActive)
	replaced, err = CollectRows(rows, err, func(r Rows) (int64, error) {
		var id int64
		return id, r.Scan(&id)
	})
	if err != nil {
		return nil, err
	}
	_, err = tx.Exec(ctx, `INSERT INTO auth_sessions (`+sessionColumns+`)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)`,
		s.ID, s.UserID, s.Platform, s.TokenHash, s.JWTHash, s.ChatTokenHash,
		s.TokenExpiresAt, s.JWTExpiresAt, s.State, s.CreatedAt)
	return replaced, err
}

// SessionByToken finds the session of an access token (any state).
func SessionByToken(ctx context.Context, q Querier, token string) (AuthSession, error) {
	return scanSession(q.QueryRow(ctx, `SELECT `+sessionColumns+` FROM auth_sessions WHERE token_hash = $1`, HashSecret(token)))
}

// SessionUserByToken finds the session of an access token (any state) and
// its user in one round trip: every authenticated request does this, so it
// is one query instead of two. ErrNotFound when the token is unknown.
func SessionUserByToken(ctx context.Context, q Querier, token string) (AuthSession, User, error) {
	var s AuthSession
	var u User
	err := q.QueryRow(ctx, `SELECT `+prefixed("s.", sessionColumns)+`, `+prefixed("u.", userColumns)+`
		FROM auth_sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1`, HashSecret(token)).Scan(
		&s.ID, &s.UserID, &s.Platform, &s.TokenHash, &s.JWTHash, &s.ChatTokenHash, &s.TokenExpiresAt, &s.JWTExpiresAt, &s.State, &s.CreatedAt,
		&u.ID, &u.Account, &u.PasswordHash, &u.Nickname, &u.Avatar, &u.Phone, &u.InviteCode, &u.SuperiorID, &u.IsActivation,
		&u.IsOperator, &u.FundPasswordHash, &u.CreatedAt, &u.UpdatedAt)
	return s, u, err
}

// SessionsByID loads the sessions of ids that exist (any state), in one
// statement per 500 ids: the token cache confirms what it keeps this way.
func SessionsByID(ctx context.Context, q Querier, ids []int64) ([]AuthSession, error) {
	var out []AuthSession
	scan := func(rows Rows, err error) error {
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			s, err := scanSession(rows)
			if err != nil {
				return err
			}
			out = append(out, s)
		}
		return rows.Err()
	}
	if q.Dialect() == Postgres {
		return out, scan(q.Query(ctx, `SELECT `+sessionColumns+` FROM auth_sessions WHERE id = ANY($1)`, ids))
	}
	for _, c := range chunks(len(ids), 500) {
		part := ids[c[0]:c[1]]
		if err := scan(q.Query(ctx, `SELECT `+sessionColumns+` FROM auth_sessions WHERE id IN (`+placeholders(len(part), 1)+`)`, anySlice(part)...)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// SessionByJWT finds the session of a renewal token (any state).
func SessionByJWT(ctx context.Context, q Querier, jwt string) (AuthSession, error) {
	return scanSession(q.QueryRow(ctx, `SELECT `+sessionColumns+` FROM auth_sessions WHERE jwt_hash = $1`, HashSecret(jwt)))
}

// SessionByChatToken finds the session of a chat token (any state).
func SessionByChatToken(ctx context.Context, q Querier, chatToken string) (AuthSession, error) {
	return scanSession(q.QueryRow(ctx, `SELECT `+sessionColumns+` FROM auth_sessions WHERE chat_token_hash = $1`, HashSecret(chatToken)))
}

// SessionByID loads one session.
func SessionByID(ctx context.Context, q Querier, id int64) (AuthSession, error) {
	return scanSession(q.QueryRow(ctx, `SELECT `+sessionColumns+` FROM auth_sessions WHERE id = $1`, id))
}

// RenewSessionToken swaps the access token of an active session.
func RenewSessionToken(ctx context.Context, q Querier, id int64, tokenHash string, expiresAt int64) error {
	return affected(q.Exec(ctx, `UPDATE auth_sessions SET token_hash = $1, token_expires_at = $2
		WHERE id = $3 AND state = $4`, tokenHash, expiresAt, id, SessionActive))
}

// EndSession moves an active session to state (signed out or replaced).
func EndSession(ctx context.Context, q Querier, id int64, state int) error {
	_, err := q.Exec(ctx, `UPDATE auth_sessions SET state = $1 WHERE id = $2 AND state = $3`, state, id, SessionActive)
	return err
}
