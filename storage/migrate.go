package storage

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"
)

// Migrations are SQL files in migrations/, named NNNN_what.sql and applied
// once each, in name order, every one in its own transaction. A file named
// NNNN_what.postgres.sql or NNNN_what.sqlite.sql replaces NNNN_what.sql on
// that store, for the rare statement the two do not share.
//
// Numbers are grouped by area so parallel work does not collide:
// 0001-0099 foundation, 0100 accounts, 0200 wallet, 0300 chat, 0400 rounds,
// 0500 content.
//
//go:embed migrations/*.sql
var migrationFS embed.FS

// Migration is one schema step.
type Migration struct {
	Version string // file name without extension, e.g. 0001_users
	SQL     string
}

// Migrations returns the steps for dialect d in order.
func Migrations(d Dialect) ([]Migration, error) {
	entries, err := fs.ReadDir(migrationFS, "migrations")
	if err != nil {
		return nil, err
	}
	byVersion := map[string]Migration{}
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".sql")
		version, only, hasDialect := strings.Cut(name, ".")
		if hasDialect && Dialect(only) != d {
			continue
		}
		if _, exists := byVersion[version]; exists && !hasDialect {
			continue // the dialect-specific file already won
		}
		b, err := migrationFS.ReadFile(path.Join("migrations", e.Name()))
		if err != nil {
			return nil, err
		}
		byVersion[version] = Migration{Version: version, SQL: string(b)}
	}
	out := make([]Migration, 0, len(byVersion))
	for _, m := range byVersion {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	return out, nil
}

// Migrate applies every migration the store has not seen and returns the
// versions it applied. On PostgreSQL an advisory lock makes nodes that start
// together take turns.
func Migrate(ctx context.Context, db DB) ([]string, error) {
	if _, err := db.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version TEXT PRIMARY KEY,
		applied_at BIGINT NOT NULL)`); err != nil {
		return nil, fmt.Errorf("storage: migrations table: %w", err)
	}
	ms, err := Migrations(db.Dialect())
	if err != nil {
		return nil, err
	}
	var applied []string
	err = db.Tx(ctx, func(tx Tx) error {
		if db.Dialect() == Postgres {
			// Held until this transaction ends; each step below commits with it.
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(727001)`); err != nil {
				return err
			}
		}
		done := map[string]bool{}
		rows, err := tx.Query(ctx, `SELECT version FROM schema_migrations`)
		if err != nil {
			return err
		}
		for rows.Next() {
			var v string
			if err := rows.Scan(&v); err != nil {
				rows.Close()
				return err
			}
			done[v] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, m := range ms {
			if done[m.Version] {
				continue
			}
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return fmt.Errorf("storage: migration %s: %w", m.Version, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)`,
				m.Version, time.Now().UnixMilli()); err != nil {
				return err
			}
			applied = append(applied, m.Version)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return applied, nil
}
