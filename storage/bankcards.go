package storage

import (
	"context"
)

// Bank is one entry of the bank list users bind cards of.
type Bank struct {
	ID        int64
	Name      string
	Country   string // ISO 3166-1 alpha-2
	Sort      int
	Enabled   int
	CreatedAt int64
	UpdatedAt int64
}

const bankColumns = `id, name, country, sort, enabled, created_at, updated_at`

func scanBank(r Row) (Bank, error) {
	var b Bank
	err := r.Scan(&b.ID, &b.Name, &b.Country, &b.Sort, &b.Enabled, &b.CreatedAt, &b.UpdatedAt)
	return b, err
}

// Banks lists the bank list by country and sort order; only enabled banks
// unless all.
func Banks(ctx context.Context, q Querier, all bool) ([]Bank, error) {
	where := ` WHERE enabled = 1`
	if all {
		where = ``
	}
	rows, err := q.Query(ctx, `SELECT `+bankColumns+` FROM banks`+where+` ORDER BY country, sort, name`)
	return CollectRows(rows, err, func(r Rows) (Bank, error) { return scanBank(r) })
}

// BankByID loads one bank; ErrNotFound when missing.
func BankByID(ctx context.Context, q Querier, id int64) (Bank, error) {
	return scanBank(q.QueryRow(ctx, `SELECT `+bankColumns+` FROM banks WHERE id = $1`, id))
}

// CreateBank adds a bank; ErrConflict when the country has one of that name.
func CreateBank(ctx context.Context, q Querier, b Bank) error {
	_, err := q.Exec(ctx, `INSERT INTO banks (`+bankColumns+`) VALUES ($1,$2,$3,$4,$5,$6,$7)`,
		b.ID, b.Name, b.Country, b.Sort, b.Enabled, b.CreatedAt, b.UpdatedAt)
	return err
}

// UpdateBank changes a bank's name, country, order and availability.
func UpdateBank(ctx context.Context, q Querier, b Bank) error {
	return affected(q.Exec(ctx, `UPDATE banks SET name = $1, country = $2, sort = $3, enabled = $4, updated_at = $5 WHERE id = $6`,
		b.Name, b.Country, b.Sort, b.Enabled, b.UpdatedAt, b.ID))
}

// BankCard is a card a user bound for exchanges.
type BankCard struct {
	ID         int64
	UserID     int64
	BankID     int64
	BankName   string
	HolderName string
	CardNumber string
	CreatedAt  int64
}

const cardColumns = `id, user_id, bank_id, bank_name, holder_name, card_number, created_at`

func scanCard(r Row) (BankCard, error) {
	var c BankCard
	err := r.Scan(&c.ID, &c.UserID, &c.BankID, &c.BankName, &c.HolderName, &c.CardNumber, &c.CreatedAt)
	return c, err
}

// CreateBankCard binds a card; ErrConflict when the user bound that number.
func CreateBankCard(ctx context.Context, q Querier, c BankCard) error {
	defer touched(q, c.UserID)
	_, err := q.Exec(ctx, `INSERT INTO bank_cards (`+cardColumns+`) VALUES ($1,$2,$3,$4,$5,$6,$7)`,
		c.ID, c.UserID, c.BankID, c.BankName, c.HolderName, c.CardNumber, c.CreatedAt)
	return err
}

// CreateBankCardUnderCap binds a card in tx unless the user already has max
// cards; false when the cap is reached. The user's row is locked first, so
// parallel binds of one user take turns and the count they see is final.
func CreateBankCardUnderCap(ctx context.Context, tx Tx, c BankCard, max int) (bool, error) {
	var id int64
	if err := tx.QueryRow(ctx, `SELECT id FROM users WHERE id = $1`+tx.Dialect().ForUpdate(), c.UserID).Scan(&id); err != nil {
		return false, err
	}
	n, err := CountBankCards(ctx, tx, c.UserID)
	if err != nil {
		return false, err
	}
	if n >= max {
		return false, nil
	}
	return true, CreateBankCard(ctx, tx, c)
}

// BankCardsOf lists a user's cards, oldest first.
func BankCardsOf(ctx context.Context, q Querier, userID int64) ([]BankCard, error) {
	rows, err := q.Query(ctx, `SELECT `+cardColumns+` FROM bank_cards WHERE user_id = $1 ORDER BY created_at, id`, userID)
	return CollectRows(rows, err, func(r Rows) (BankCard, error) { return scanCard(r) })
}

// CountBankCards is how many cards a user has bound.
func CountBankCards(ctx context.Context, q Querier, userID int64) (int, error) {
	return count(ctx, q, `SELECT COUNT(*) FROM bank_cards WHERE user_id = $1`, userID)
}

// BankCardOf loads a card only if it belongs to userID: someone else's
// card is ErrNotFound, exactly like a missing one.
func BankCardOf(ctx context.Context, q Querier, userID, id int64) (BankCard, error) {
	return scanCard(q.QueryRow(ctx, `SELECT `+cardColumns+` FROM bank_cards WHERE id = $1 AND user_id = $2`, id, userID))
}

// DeleteBankCard unbinds a card of userID; ErrNotFound when the user has no
// such card.
func DeleteBankCard(ctx context.Context, q Querier, userID, id int64) error {
	defer touched(q, userID)
	return affected(q.Exec(ctx, `DELETE FROM bank_cards WHERE id = $1 AND user_id = $2`, id, userID))
}
