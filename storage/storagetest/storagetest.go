// Package storagetest gives tests a fresh, migrated store of each kind:
// PostgreSQL in a schema of its own (dropped afterwards) and SQLite in a
// temporary file. Each runs the same test against both, which is how the
// conformance suite keeps the two implementations alike.
package storagetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"kj/internal/testenv"
	"kj/storage"
)

// Each runs f as two subtests, "postgres" and "sqlite", each with its own
// fresh migrated store.
func Each(t *testing.T, f func(t *testing.T, db storage.DB)) {
	t.Helper()
	t.Run("postgres", func(t *testing.T) { f(t, Postgres(t)) })
	t.Run("sqlite", func(t *testing.T) { f(t, SQLite(t)) })
}

// EachServed is Each for tests that also run `kj serve` on the store: f
// gets, besides the store, the environment that points the process at it.
func EachServed(t *testing.T, f func(t *testing.T, db storage.DB, env map[string]string)) {
	t.Helper()
	t.Run("postgres", func(t *testing.T) {
		db, url := PostgresURL(t)
		f(t, db, map[string]string{"KJ_DATABASE_URL": url})
	})
	t.Run("sqlite", func(t *testing.T) {
		dir := t.TempDir()
		f(t, sqliteIn(t, dir), map[string]string{"KJ_DATA_DIR": dir})
	})
}

// CheckLedger runs the ledger check on db and fails the test on any
// problem; it returns the report for the test's own counts.
func CheckLedger(t testing.TB, db storage.DB) storage.LedgerReport {
	t.Helper()
	r, err := storage.CheckLedger(context.Background(), db)
	if err != nil {
		t.Fatalf("ledger check: %v", err)
	}
	if !r.OK() {
		t.Fatalf("ledger check failed: %s", r)
	}
	return r
}

// SQLite returns a migrated embedded store in a temporary directory.
func SQLite(t testing.TB) storage.DB {
	t.Helper()
	return sqliteIn(t, t.TempDir())
}

// sqliteIn returns a migrated embedded store in dir, where `kj serve` with
// KJ_DATA_DIR=dir finds it.
func sqliteIn(t testing.TB, dir string) storage.DB {
	t.Helper()
	db, err := storage.OpenSQLite(filepath.Join(dir, "kj.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	if _, err := storage.Migrate(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	return db
}

// Postgres returns a migrated PostgreSQL store living in a schema of its
// own, so parallel tests and runs never see each other's rows.
func Postgres(t testing.TB) storage.DB {
	t.Helper()
	db, _ := PostgresURL(t)
	return db
}

// PostgresURL is Postgres plus a connection URL of the same schema, for
// tests that start a separate server process on it.
func PostgresURL(t testing.TB) (storage.DB, string) {
	t.Helper()
	testenv.Needs(t, "PostgreSQL")
	ctx := context.Background()
	url := testenv.DatabaseURL()
	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("PostgreSQL is required and unreachable at %s (set KJ_TEST_DATABASE_URL or run `make services`): %v", url, err)
	}
	schema := fmt.Sprintf("kjtest_%d", rand.Uint64()>>1)
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		admin.Close(ctx)
		t.Fatalf("create test schema: %v", err)
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = schema
	cfg.MaxConns = 8
	db, err := storage.OpenPostgresConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		db.Close()
		admin.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		admin.Close(context.Background())
	})
	if _, err := storage.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	sep := "?"
	if containsQuery(url) {
		sep = "&"
	}
	return db, url + sep + "search_path=" + schema
}

func containsQuery(u string) bool {
	for i := range len(u) {
		if u[i] == '?' {
			return true
		}
	}
	return false
}
