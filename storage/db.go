// Package storage owns the product's data: the schema migrations, a small
// database interface (DB) with two implementations — PostgreSQL through a pgx
// pool (production, cluster mode) and embedded SQLite (single node, no setup)
// — and the repositories of each area written once, in the SQL both accept.
//
// SQL conventions, so one statement runs on both stores:
//   - placeholders are $1, $2 ...; the SQLite side rewrites them;
//   - ids are BIGINT made by NewID (time-ordered), never SERIAL/AUTOINCREMENT;
//   - times are BIGINT unix milliseconds; flags are SMALLINT 0/1; no NULLs
//     unless a column truly has "no value" (then scan into a pointer);
//   - dialect-only clauses (FOR UPDATE) come from the Dialect helpers.
package storage

import (
	"context"
	"errors"
)

// Dialect names the SQL flavour behind a DB.
type Dialect string

const (
	Postgres Dialect = "postgres"
	SQLite   Dialect = "sqlite"
)

// ForUpdate is the row-lock clause for a SELECT inside a transaction.
// SQLite has none: its write transactions are already exclusive.
func (d Dialect) ForUpdate() string {
	if d == Postgres {
		return " FOR UPDATE"
	}
	return ""
}

// Querier runs statements; both DB and Tx are Queriers.
type Querier interface {
	// Exec runs a statement and returns the number of rows it affected.
	Exec(ctx context.Context, sql string, args ...any) (int64, error)
	Query(ctx context.Context, sql string, args ...any) (Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) Row
	Dialect() Dialect
}

// count runs a SELECT COUNT(*) statement.
func count(ctx context.Context, q Querier, sql string, args ...any) (int, error) {
	var n int
	err := q.QueryRow(ctx, sql, args...).Scan(&n)
	return n, err
}

// affected passes on the result of an Exec that must touch a row: its
// error, or ErrNotFound when it touched none.
func affected(n int64, err error) error {
	if err == nil && n == 0 {
		return ErrNotFound
	}
	return err
}

// DB is a connection pool to one store.
type DB interface {
	Querier
	// Tx runs fn in one transaction: committed when fn returns nil, rolled
	// back otherwise. Inside fn use only tx, never the DB itself.
	Tx(ctx context.Context, fn func(tx Tx) error) error
	Ping(ctx context.Context) error
	Close()
}

// Tx is an open transaction.
type Tx interface {
	Querier
}

// Rows is a result set; always Close it.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

// Row is a single-row result. Scan returns ErrNotFound when there is none.
type Row interface {
	Scan(dest ...any) error
}

var (
	// ErrNotFound: the row does not exist.
	ErrNotFound = errors.New("storage: not found")
	// ErrConflict: a unique constraint refused the write.
	ErrConflict = errors.New("storage: conflict")
)

// CollectRows scans every row with scan and closes rows.
func CollectRows[T any](rows Rows, err error, scan func(Rows) (T, error)) ([]T, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// firstOf is the first of a list read by CollectRows, or ErrNotFound when
// the list is empty.
func firstOf[T any](list []T, err error) (T, error) {
	var zero T
	if err != nil {
		return zero, err
	}
	if len(list) == 0 {
		return zero, ErrNotFound
	}
	return list[0], nil
}

// prefixed qualifies a column list with a table alias.
func prefixed(alias, columns string) string {
	out := make([]byte, 0, len(columns)*2)
	start := true
	for i := 0; i < len(columns); i++ {
		c := columns[i]
		if start && c != ' ' && c != '\t' && c != '\n' {
			out = append(out, alias...)
			start = false
		}
		if c == ',' {
			start = true
		}
		out = append(out, c)
	}
	return string(out)
}
