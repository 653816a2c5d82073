package storage

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// Pipeline gathers statements of one transaction that do not depend on
// each other's answers, to send them together: on PostgreSQL as one
// pipelined round trip (a pgx batch; COPYs go first, one round trip each),
// on SQLite one after the other. The bet desk builds each batch of bets
// from two of them, its reads and its writes, so a batch costs the store
// BEGIN, two round trips and COMMIT whatever it holds.
//
// A statement's callback reads its answer; an error from a callback (or
// from the store) ends Run with that error, and the transaction must be
// rolled back.
type Pipeline struct {
	dialect Dialect
	stmts   []pipeStmt
	copies  []pipeCopy
}

// NewPipeline starts an empty pipeline for a store of dialect d (the
// queueing functions pick their statements by it).
func NewPipeline(d Dialect) *Pipeline { return &Pipeline{dialect: d} }

// Dialect is the dialect of the store the pipeline is for.
func (p *Pipeline) Dialect() Dialect { return p.dialect }

type pipeStmt struct {
	sql  string
	args []any
	rows func(Rows) error // a query's rows; nil for a statement run for its effect
	done func(n int64) error
}

type pipeCopy struct {
	table string
	cols  []string
	n     int
	row   func(i int) []any
	per   int // rows per INSERT where there is no COPY
}

// Query queues a statement whose rows scan reads (it need not close them).
func (p *Pipeline) Query(sql string, args []any, scan func(Rows) error) {
	p.stmts = append(p.stmts, pipeStmt{sql: sql, args: args, rows: scan})
}

// Exec queues a statement run for its effect; done (may be nil) gets the
// number of rows it changed.
func (p *Pipeline) Exec(sql string, args []any, done func(n int64) error) {
	p.stmts = append(p.stmts, pipeStmt{sql: sql, args: args, done: done})
}

// Copy queues n rows into table: COPY on PostgreSQL, run before the
// pipelined statements; multi-row INSERTs of at most per rows elsewhere.
func (p *Pipeline) Copy(table string, cols []string, n, per int, row func(i int) []any) {
	if n > 0 {
		p.copies = append(p.copies, pipeCopy{table: table, cols: cols, n: n, row: row, per: per})
	}
}

// Len is the number of statements queued (COPYs not counted).
func (p *Pipeline) Len() int { return len(p.stmts) }

// Run sends what is queued inside tx and hands each answer to its callback.
func (p *Pipeline) Run(ctx context.Context, tx Tx) error {
	if ptx, ok := PgxTx(tx); ok {
		return p.runPG(ctx, ptx)
	}
	for _, c := range p.copies {
		insert := `INSERT INTO ` + c.table + ` (` + joinCols(c.cols) + `) VALUES `
		if err := insertRows(ctx, tx, insert, c.n, len(c.cols), c.per, func(args []any, i int) []any {
			return append(args, c.row(i)...)
		}); err != nil {
			return err
		}
	}
	for _, s := range p.stmts {
		if s.rows != nil {
			rows, err := tx.Query(ctx, s.sql, s.args...)
			if err != nil {
				return err
			}
			err = s.rows(rows)
			rows.Close()
			if err == nil {
				err = rows.Err()
			}
			if err != nil {
				return err
			}
			continue
		}
		n, err := tx.Exec(ctx, s.sql, s.args...)
		if err != nil {
			return err
		}
		if s.done != nil {
			if err := s.done(n); err != nil {
				return err
			}
		}
	}
	return nil
}

func (p *Pipeline) runPG(ctx context.Context, tx pgx.Tx) error {
	for _, c := range p.copies {
		countQuery(ctx)
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{c.table}, c.cols,
			pgx.CopyFromSlice(c.n, func(i int) ([]any, error) { return c.row(i), nil })); err != nil {
			return pgErr(err)
		}
	}
	if len(p.stmts) == 0 {
		return nil
	}
	var b pgx.Batch
	for _, s := range p.stmts {
		countQuery(ctx)
		b.Queue(s.sql, s.args...)
	}
	br := tx.SendBatch(ctx, &b)
	err := readPipelinePG(br, p.stmts)
	if cerr := br.Close(); err == nil {
		err = pgErr(cerr)
	}
	return err
}

func readPipelinePG(br pgx.BatchResults, stmts []pipeStmt) error {
	for _, s := range stmts {
		if s.rows != nil {
			rows, err := br.Query()
			if err != nil {
				return pgErr(err)
			}
			err = s.rows(pgRows{rows})
			rows.Close()
			if err == nil {
				err = pgErr(rows.Err())
			}
			if err != nil {
				return err
			}
			continue
		}
		tag, err := br.Exec()
		if err != nil {
			return pgErr(err)
		}
		if s.done != nil {
			if err := s.done(tag.RowsAffected()); err != nil {
				return err
			}
		}
	}
	return nil
}

func joinCols(cols []string) string {
	s := ""
	for i, c := range cols {
		if i > 0 {
			s += ", "
		}
		s += c
	}
	return s
}
