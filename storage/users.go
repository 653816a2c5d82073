package storage

import (
	"context"
	"strconv"
)

// User is one account. Password and fund-password hashes never leave the
// server.
type User struct {
	ID               int64
	Account          string
	PasswordHash     string
	Nickname         string
	Avatar           string
	Phone            string
	InviteCode       string
	SuperiorID       int64
	IsActivation     int
	IsOperator       int
	FundPasswordHash string
	CreatedAt        int64
	UpdatedAt        int64
}

// IDString is the user id as the chat protocol and the web app carry it.
func (u User) IDString() string { return strconv.FormatInt(u.ID, 10) }

const userColumns = `id, account, password_hash, nickname, avatar, phone, invite_code,
	superior_id, is_activation, is_operator, fund_password_hash, created_at, updated_at`

func scanUser(r Row) (User, error) {
	var u User
	err := r.Scan(&u.ID, &u.Account, &u.PasswordHash, &u.Nickname, &u.Avatar, &u.Phone,
		&u.InviteCode, &u.SuperiorID, &u.IsActivation, &u.IsOperator, &u.FundPasswordHash,
		&u.CreatedAt, &u.UpdatedAt)
	return u, err
}

// CreateUser inserts u (its ID must be set). ErrConflict when the account or
// invite code is taken.
func CreateUser(ctx context.Context, q Querier, u User) error {
	if u.IsOperator == 1 {
		defer touchedAll(q) // customerId and the agents count follow the operators
	}
	_, err := q.Exec(ctx, `INSERT INTO users (`+userColumns+`)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13)`,
		u.ID, u.Account, u.PasswordHash, u.Nickname, u.Avatar, u.Phone, u.InviteCode,
		u.SuperiorID, u.IsActivation, u.IsOperator, u.FundPasswordHash, u.CreatedAt, u.UpdatedAt)
	return err
}

// UserByID loads one user; ErrNotFound when missing.
func UserByID(ctx context.Context, q Querier, id int64) (User, error) {
	return scanUser(q.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE id = $1`, id))
}

// UserByAccount loads the user signing in with account.
func UserByAccount(ctx context.Context, q Querier, account string) (User, error) {
	return scanUser(q.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE account = $1`, account))
}

// UserByInviteCode finds the owner of an invite code.
func UserByInviteCode(ctx context.Context, q Querier, code string) (User, error) {
	return scanUser(q.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE invite_code = $1`, code))
}

// UsersByIDs loads the users that exist among ids, in no particular order.
func UsersByIDs(ctx context.Context, q Querier, ids []int64) ([]User, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	args := make([]any, len(ids))
	ph := make([]byte, 0, len(ids)*4)
	for i, id := range ids {
		args[i] = id
		if i > 0 {
			ph = append(ph, ',')
		}
		ph = append(ph, '$')
		ph = strconv.AppendInt(ph, int64(i+1), 10)
	}
	rows, err := q.Query(ctx, `SELECT `+userColumns+` FROM users WHERE id IN (`+string(ph)+`)`, args...)
	return CollectRows(rows, err, func(r Rows) (User, error) { return scanUser(r) })
}

// UpdateUserFields sets the named columns of one user. Keys must be column
// names chosen by the caller, never user input.
func UpdateUserFields(ctx context.Context, q Querier, id int64, updatedAt int64, fields map[string]any) error {
	defer touched(q, id)
	sql := "UPDATE users SET updated_at = $1"
	args := []any{updatedAt}
	for col, v := range fields {
		args = append(args, v)
		sql += ", " + col + " = $" + strconv.Itoa(len(args))
	}
	args = append(args, id)
	return affected(q.Exec(ctx, sql+" WHERE id = $"+strconv.Itoa(len(args)), args...))
}
