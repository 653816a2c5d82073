package storage

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"kj/internal/rawio"
)

// PG is the PostgreSQL store on a pgx pool.
type PG struct {
	Pool *pgxpool.Pool
	// generic is a small second pool on the same server whose sessions
	// plan each prepared statement once (plan_cache_mode =
	// force_generic_plan), for the chat batch's set-based statements.
	// Left to the default, PostgreSQL keeps planning appendPG afresh for
	// every execution: its arrays' lengths make every custom plan look
	// cheaper than the generic one, so it never switches, and planning
	// its three CTEs was ~40 % of PostgreSQL's CPU per transaction
	// (BenchmarkChatWriterRate: 873 → 540 µs of it per one-message
	// transaction at 250 msg/s). Only statements whose plan does not
	// depend on their values go here: one plan per statement is exactly
	// what must not happen to, say, a lookup whose best plan depends on
	// the round it names. A plan made while a table was small is replaced
	// when the table is analyzed (autovacuum, or KeepStatistics where it
	// is off), as any cached plan is.
	generic  *pgxpool.Pool
	watchers commitWatchers // told what each commit changed (commits.go)
}

// genericPlanConns is the generic pool's size: the chat writer keeps a
// few transactions in flight (chat.Config.Writers).
const genericPlanConns = 8

// OpenPostgres connects to url and checks the connection.
func OpenPostgres(ctx context.Context, url string) (*PG, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("storage: KJ_DATABASE_URL: %w", err)
	}
	return OpenPostgresConfig(ctx, cfg)
}

// OpenPostgresConfig connects with a prepared pool config (tests set the
// search_path of their own schema this way).
func OpenPostgresConfig(ctx context.Context, cfg *pgxpool.Config) (*PG, error) {
	if cfg.MaxConns < 16 {
		cfg.MaxConns = 16
	}
	// Reads and writes on the connections are raw calls (rawio): a chat
	// commit's answer otherwise woke the runtime's monitor thread each
	// time the node had gone idle while it waited.
	if dial := cfg.ConnConfig.DialFunc; dial != nil {
		cfg.ConnConfig.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := dial(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return rawio.Wrap(c), nil
		}
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("storage: postgres: %w", err)
	}
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := pool.Ping(pctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("storage: postgres at %s:%d unreachable: %w", cfg.ConnConfig.Host, cfg.ConnConfig.Port, err)
	}
	gcfg := cfg.Copy()
	gcfg.ConnConfig.RuntimeParams["plan_cache_mode"] = "force_generic_plan"
	gcfg.MaxConns, gcfg.MinConns = genericPlanConns, 0
	generic, err := pgxpool.NewWithConfig(ctx, gcfg)
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("storage: postgres: %w", err)
	}
	return &PG{Pool: pool, generic: generic}, nil
}

// Pools is every pool the store holds: Pool and the chat batch's
// generic-plan pool (tests read their backends' CPU).
func (p *PG) Pools() []*pgxpool.Pool { return []*pgxpool.Pool{p.Pool, p.generic} }

func (p *PG) Dialect() Dialect { return Postgres }

func (p *PG) Exec(ctx context.Context, sql string, args ...any) (int64, error) {
	countQuery(ctx)
	return pgExec(ctx, p.Pool, sql, args)
}

func (p *PG) Query(ctx context.Context, sql string, args ...any) (Rows, error) {
	countQuery(ctx)
	return pgQuery(ctx, p.Pool, sql, args)
}

func (p *PG) QueryRow(ctx context.Context, sql string, args ...any) Row {
	countQuery(ctx)
	return pgRow{p.Pool.QueryRow(ctx, sql, args...)}
}

func (p *PG) Tx(ctx context.Context, fn func(Tx) error) error {
	tx, err := p.Pool.Begin(ctx)
	if err != nil {
		return pgErr(err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	ch := &txChanges{}
	if err := fn(pgTx{tx, ch}); err != nil {
		return err
	}
	err = pgErr(tx.Commit(ctx))
	afterCommit(ctx, &p.watchers, ch)
	return err
}

func (p *PG) Ping(ctx context.Context) error { return p.Pool.Ping(ctx) }
func (p *PG) Close() {
	p.Pool.Close()
	p.generic.Close()
}

type pgTx struct {
	tx pgx.Tx
	ch *txChanges // what the transaction changed (commits.go)
}

func (t pgTx) Dialect() Dialect { return Postgres }
func (t pgTx) Exec(ctx context.Context, sql string, args ...any) (int64, error) {
	countQuery(ctx)
	return pgExec(ctx, t.tx, sql, args)
}
func (t pgTx) Query(ctx context.Context, sql string, args ...any) (Rows, error) {
	countQuery(ctx)
	return pgQuery(ctx, t.tx, sql, args)
}
func (t pgTx) QueryRow(ctx context.Context, sql string, args ...any) Row {
	countQuery(ctx)
	return pgRow{t.tx.QueryRow(ctx, sql, args...)}
}

// PgxTx exposes the pgx transaction behind tx, for the few hot paths (the
// ledger writer's COPY) that use PostgreSQL-only features. ok is false on
// other stores.
func PgxTx(tx Tx) (pgx.Tx, bool) {
	t, ok := tx.(pgTx)
	return t.tx, ok
}

type pgConn interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

func pgExec(ctx context.Context, c pgConn, sql string, args []any) (int64, error) {
	tag, err := c.Exec(ctx, sql, args...)
	if err != nil {
		return 0, pgErr(err)
	}
	return tag.RowsAffected(), nil
}

func pgQuery(ctx context.Context, c pgConn, sql string, args []any) (Rows, error) {
	r, err := c.Query(ctx, sql, args...)
	if err != nil {
		return nil, pgErr(err)
	}
	return pgRows{r}, nil
}

type pgRows struct{ r pgx.Rows }

func (r pgRows) Next() bool             { return r.r.Next() }
func (r pgRows) Scan(dest ...any) error { return pgErr(r.r.Scan(dest...)) }
func (r pgRows) Err() error             { return pgErr(r.r.Err()) }
func (r pgRows) Close()                 { r.r.Close() }

type pgRow struct{ r pgx.Row }

func (r pgRow) Scan(dest ...any) error { return pgErr(r.r.Scan(dest...)) }

// pgErr maps driver errors onto the package's sentinel errors.
func pgErr(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return ErrNotFound
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" {
		return fmt.Errorf("%w: %s", ErrConflict, pe.ConstraintName)
	}
	return err
}
