package storage

import (
	"context"
	"strings"
)

// Accounts: captchas, SMS codes, session clean-up after password changes,
// superiors, and the operators' user search. Users themselves are in
// users.go.

// CreateCaptcha stores the hash of a captcha's answer until expiresAt and
// drops captchas that expired before now, so the table stays small without
// a sweeper.
func CreateCaptcha(ctx context.Context, q Querier, id, answerHash string, expiresAt, now int64) error {
	if _, err := q.Exec(ctx, `DELETE FROM captchas WHERE expires_at <= $1`, now); err != nil {
		return err
	}
	_, err := q.Exec(ctx, `INSERT INTO captchas (id, answer_hash, expires_at) VALUES ($1, $2, $3)`, id, answerHash, expiresAt)
	return err
}

// TakeCaptcha removes a captcha and returns its answer hash and expiry, so
// every captcha is checked at most once whatever the answer. ErrNotFound
// when the id is unknown or already used.
func TakeCaptcha(ctx context.Context, q Querier, id string) (answerHash string, expiresAt int64, err error) {
	err = q.QueryRow(ctx, `DELETE FROM captchas WHERE id = $1 RETURNING answer_hash, expires_at`, id).Scan(&answerHash, &expiresAt)
	return answerHash, expiresAt, err
}

// PutSMSCode stores the hash of the code sent to phone for purpose,
// replacing any earlier code for the same pair, and drops expired codes.
func PutSMSCode(ctx context.Context, q Querier, phone, purpose, codeHash string, expiresAt, now int64) error {
	if _, err := q.Exec(ctx, `DELETE FROM sms_codes WHERE expires_at <= $1`, now); err != nil {
		return err
	}
	_, err := q.Exec(ctx, `INSERT INTO sms_codes (phone, purpose, code_hash, expires_at, created_at)
		VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (phone, purpose) DO UPDATE SET code_hash = $3, expires_at = $4, created_at = $5`,
		phone, purpose, codeHash, expiresAt, now)
	return err
}

// TakeSMSCode consumes the code of phone and purpose when codeHash matches
// and it has not expired at now. ErrNotFound otherwise (nothing changes).
func TakeSMSCode(ctx context.Context, q Querier, phone, purpose, codeHash string, now int64) error {
	var p string
	return q.QueryRow(ctx, `DELETE FROM sms_codes
		WHERE phone = $1 AND purpose = $2 AND code_hash = $3 AND expires_at > $4 RETURNING phone`,
		phone, purpose, codeHash, now).Scan(&p)
}

// SMSCodeMatches says whether codeHash is the live code of phone and
// purpose at now, without consuming it (a check that must cost the same
// whether or not the rest of the request holds).
func SMSCodeMatches(ctx context.Context, q Querier, phone, purpose, codeHash string, now int64) (bool, error) {
	var n int
	err := q.QueryRow(ctx, `SELECT COUNT(*) FROM sms_codes
		WHERE phone = $1 AND purpose = $2 AND code_hash = $3 AND expires_at > $4`, phone, purpose, codeHash, now).Scan(&n)
	return n > 0, err
}

// DeleteSMSCode forgets the code of phone and purpose (after too many wrong
// tries, or when it could not be sent).
func DeleteSMSCode(ctx context.Context, q Querier, phone, purpose string) error {
	_, err := q.Exec(ctx, `DELETE FROM sms_codes WHERE phone = $1 AND purpose = $2`, phone, purpose)
	return err
}

// EndUserSessions moves every active session of userID except exceptID to
// state and returns the ids it ended (to announce them after commit).
func EndUserSessions(ctx context.Context, q Querier, userID, exceptID int64, state int) ([]int64, error) {
	rows, err := q.Query(ctx, `UPDATE auth_sessions SET state = $1
		WHERE user_id = $2 AND state = $3 AND id <> $4 RETURNING id`, state, userID, SessionActive, exceptID)
	return CollectRows(rows, err, func(r Rows) (int64, error) {
		var id int64
		return id, r.Scan(&id)
	})
}

// RecordLogin notes when and from which address a user signed in.
func RecordLogin(ctx context.Context, q Querier, userID, at int64, ip string) error {
	_, err := q.Exec(ctx, `UPDATE users SET last_login_at = $1, last_login_ip = $2 WHERE id = $3`, at, ip, userID)
	return err
}

// BindSuperior sets the superior of a user that has none yet. ErrConflict
// when one is already bound (the check and the write are one statement, so
// two concurrent binds cannot both win).
func BindSuperior(ctx context.Context, q Querier, userID, superiorID, now int64) error {
	defer touched(q, userID)
	n, err := q.Exec(ctx, `UPDATE users SET superior_id = $1, updated_at = $2 WHERE id = $3 AND superior_id = 0`,
		superiorID, now, userID)
	if err == nil && n == 0 {
		return ErrConflict
	}
	return err
}

// UserSummary is a user as operators see it in lists.
type UserSummary struct {
	User
	LastLoginAt int64
	LastLoginIP string
}

// UserQuery filters the operators' user list.
type UserQuery struct {
	// Keyword matches an account or nickname containing it (any case), or
	// equals a phone number or user id. Empty matches everyone.
	Keyword string
	// IsActivation filters by account status; -1 means any.
	IsActivation int
	Offset       int
	Limit        int
}

// FindUsers lists users matching uq, newest first, with the total count of
// matches.
func FindUsers(ctx context.Context, q Querier, uq UserQuery) ([]UserSummary, int64, error) {
	kw := strings.TrimSpace(uq.Keyword)
	like := "%" + likeEscaper.Replace(strings.ToLower(kw)) + "%"
	where := ` WHERE ($1 = '' OR lower(account) LIKE $2 ESCAPE '\' OR lower(nickname) LIKE $2 ESCAPE '\'
		OR phone = $1 OR CAST(id AS TEXT) = $1) AND ($3 < 0 OR is_activation = $3)`
	args := []any{kw, like, uq.IsActivation}
	var total int64
	if err := q.QueryRow(ctx, `SELECT COUNT(*) FROM users`+where, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := q.Query(ctx, `SELECT `+userColumns+`, last_login_at, last_login_ip FROM users`+where+
		` ORDER BY id DESC LIMIT $4 OFFSET $5`, append(args, uq.Limit, uq.Offset)...)
	list, err := CollectRows(rows, err, func(r Rows) (UserSummary, error) {
		var s UserSummary
		u := &s.User
		err := r.Scan(&u.ID, &u.Account, &u.PasswordHash, &u.Nickname, &u.Avatar, &u.Phone,
			&u.InviteCode, &u.SuperiorID, &u.IsActivation, &u.IsOperator, &u.FundPasswordHash,
			&u.CreatedAt, &u.UpdatedAt, &s.LastLoginAt, &s.LastLoginIP)
		return s, err
	})
	return list, total, err
}

// UserSummaryByID loads one user with its last sign-in.
func UserSummaryByID(ctx context.Context, q Querier, id int64) (UserSummary, error) {
	var s UserSummary
	u := &s.User
	err := q.QueryRow(ctx, `SELECT `+userColumns+`, last_login_at, last_login_ip FROM users WHERE id = $1`, id).Scan(
		&u.ID, &u.Account, &u.PasswordHash, &u.Nickname, &u.Avatar, &u.Phone,
		&u.InviteCode, &u.SuperiorID, &u.IsActivation, &u.IsOperator, &u.FundPasswordHash,
		&u.CreatedAt, &u.UpdatedAt, &s.LastLoginAt, &s.LastLoginIP)
	return s, err
}

// likeEscaper makes a keyword literal inside LIKE (accounts contain "_").
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// ProfileFacts are what the mine page shows beside the user row, owned by
// other areas: unread notices, the customer-service operator, whether a
// recharge was credited.
type ProfileFacts struct {
	User          User // the user row itself, read in the same statement
	UnreadNotices int
	AgentID       int64 // the operator answering the user's customer-service chat; 0 when none yet
	OperatorID    int64 // else the operator picked for the user: the (userID mod count)-th by id; 0 without operators
	Recharged     bool
}

// ProfileFactsOf reads ProfileFacts with the user row in one round trip
// (ErrNotFound when the user is gone): /user/mine runs on
// every visit of the mine page and was five queries (W6 profile: the store
// round trips were most of its cost).
func ProfileFactsOf(ctx context.Context, q Querier, userID int64) (ProfileFacts, error) {
	var f ProfileFacts
	var recharged int
	u := &f.User
	err := q.QueryRow(ctx, `SELECT `+prefixed("u.", userColumns)+`,
		(SELECT COUNT(*) FROM notices n WHERE `+forUser+` AND NOT `+readClause+`),
		COALESCE((SELECT agent_id FROM customer_visitors WHERE user_id = $1), 0),
		COALESCE((SELECT id FROM users WHERE is_operator = 1 ORDER BY id LIMIT 1
			OFFSET COALESCE($1 % NULLIF((SELECT COUNT(*) FROM users WHERE is_operator = 1), 0), 0)), 0),
		(SELECT COUNT(*) FROM (SELECT 1 FROM recharge_orders WHERE user_id = $1 AND status = $2 LIMIT 1) x)
		FROM users u WHERE u.id = $1`,
		userID, OrderCompleted).Scan(&u.ID, &u.Account, &u.PasswordHash, &u.Nickname, &u.Avatar, &u.Phone,
		&u.InviteCode, &u.SuperiorID, &u.IsActivation, &u.IsOperator, &u.FundPasswordHash, &u.CreatedAt, &u.UpdatedAt,
		&f.UnreadNotices, &f.AgentID, &f.OperatorID, &recharged)
	f.Recharged = recharged > 0
	return f, err
}
