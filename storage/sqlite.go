package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Lite is the embedded store: one SQLite file, pure Go, no server.
type Lite struct {
	db       *sql.DB
	watchers commitWatchers // told what each commit changed (commits.go)
}

// OpenSQLite opens (creating) the database file at path. WAL mode lets
// readers run beside the single writer; write transactions start IMMEDIATE
// so two writers queue on busy_timeout instead of failing on lock upgrade.
func OpenSQLite(path string) (*Lite, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("storage: create %s: %w", dir, err)
		}
	}
	dsn := "file:" + path + "?_txlock=immediate" +
		"&_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)" +
		"&_pragma=synchronous(FULL)&_pragma=foreign_keys(ON)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(8)
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	return &Lite{db: db}, nil
}

func (l *Lite) Dialect() Dialect { return SQLite }

func (l *Lite) Exec(ctx context.Context, q string, args ...any) (int64, error) {
	countQuery(ctx)
	return liteExec(ctx, l.db, q, args)
}

func (l *Lite) Query(ctx context.Context, q string, args ...any) (Rows, error) {
	countQuery(ctx)
	return liteQuery(ctx, l.db, q, args)
}

func (l *Lite) QueryRow(ctx context.Context, q string, args ...any) Row {
	countQuery(ctx)
	return liteRow{l.db.QueryRowContext(ctx, rewrite(q), args...)}
}

func (l *Lite) Tx(ctx context.Context, fn func(Tx) error) error {
	tx, err := l.db.BeginTx(ctx, nil)
	if err != nil {
		return liteErr(err)
	}
	defer tx.Rollback()
	ch := &txChanges{}
	if err := fn(liteTx{tx, ch}); err != nil {
		return err
	}
	err = liteErr(tx.Commit())
	afterCommit(ctx, &l.watchers, ch)
	return err
}

func (l *Lite) Ping(ctx context.Context) error { return l.db.PingContext(ctx) }
func (l *Lite) Close()                         { l.db.Close() }

type liteTx struct {
	tx *sql.Tx
	ch *txChanges // what the transaction changed (commits.go)
}

func (t liteTx) Dialect() Dialect { return SQLite }
func (t liteTx) Exec(ctx context.Context, q string, args ...any) (int64, error) {
	countQuery(ctx)
	return liteExec(ctx, t.tx, q, args)
}
func (t liteTx) Query(ctx context.Context, q string, args ...any) (Rows, error) {
	countQuery(ctx)
	return liteQuery(ctx, t.tx, q, args)
}
func (t liteTx) QueryRow(ctx context.Context, q string, args ...any) Row {
	countQuery(ctx)
	return liteRow{t.tx.QueryRowContext(ctx, rewrite(q), args...)}
}

type liteConn interface {
	ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

func liteExec(ctx context.Context, c liteConn, q string, args []any) (int64, error) {
	res, err := c.ExecContext(ctx, rewrite(q), args...)
	if err != nil {
		return 0, liteErr(err)
	}
	return res.RowsAffected()
}

func liteQuery(ctx context.Context, c liteConn, q string, args []any) (Rows, error) {
	r, err := c.QueryContext(ctx, rewrite(q), args...)
	if err != nil {
		return nil, liteErr(err)
	}
	return liteRows{r}, nil
}

type liteRows struct{ r *sql.Rows }

func (r liteRows) Next() bool             { return r.r.Next() }
func (r liteRows) Scan(dest ...any) error { return liteErr(r.r.Scan(dest...)) }
func (r liteRows) Err() error             { return liteErr(r.r.Err()) }
func (r liteRows) Close()                 { r.r.Close() }

type liteRow struct{ r *sql.Row }

func (r liteRow) Scan(dest ...any) error { return liteErr(r.r.Scan(dest...)) }

func liteErr(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return fmt.Errorf("%w: %s", ErrConflict, se.Error())
		}
	}
	return err
}

// liteBusy reports SQLite's "database is locked": another writer held the
// lock longer than busy_timeout (a heavily loaded machine); the
// transaction may simply run again.
func liteBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}

// rewrite turns PostgreSQL placeholders ($1) into SQLite's numbered ones
// (?1), leaving string literals and quoted identifiers alone.
func rewrite(q string) string {
	if !strings.Contains(q, "$") {
		return q
	}
	var b strings.Builder
	b.Grow(len(q))
	var quote byte
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '$' && i+1 < len(q) && q[i+1] >= '0' && q[i+1] <= '9':
			c = '?'
		}
		b.WriteByte(c)
	}
	return b.String()
}
