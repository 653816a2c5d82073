// Package storagetest gives tests a fresh, migrated store of each kind:
// PostgreSQL in a schema of its own (dropped afterwards) and SQLite in a
// temporary file. Each runs the same test against both, which is how the
// conformance suite keeps the two implementations alike.
package storagetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
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

// Migrating a fresh SQLite store runs every migration's statements through
// the pure-Go SQLite, 0.1-0.5 s a store under -race (httpapi's smallest
// SQLite subtest took 0.48 s, 0.03 s on a copy), and the packages' tests
// open hundreds of stores. The migrations are deterministic SQL (no clock,
// no random values; only schema_migrations' applied_at differs), so every
// SQLite store here is a copy of one store migrated once per test binary.
// Each copy still goes through storage.Migrate, which must find nothing to
// apply: a copy that were behind fails the test instead of hiding a
// migration from it, and the template's own run is a migration of an
// empty store, as every test once did.

// sqliteTemplate is the bytes of a migrated store, made once per test
// binary and kept in memory (its files are removed at once, so a binary
// that dies leaves nothing behind).
var sqliteTemplate = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "kj-storagetest-sqlite-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	db, err := storage.OpenSQLite(filepath.Join(dir, "migrated", "kj.db"))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if _, err := storage.Migrate(context.Background(), db); err != nil {
		return nil, err
	}
	// VACUUM INTO writes the whole store into one new file, so that file
	// alone is the store: copying the WAL-mode original could miss pages
	// still in its write-ahead log.
	path := filepath.Join(dir, "kj.db")
	if _, err := db.Exec(context.Background(), "VACUUM INTO '"+strings.ReplaceAll(path, "'", "''")+"'"); err != nil {
		return nil, err
	}
	return os.ReadFile(path)
})

// sqliteIn returns a migrated embedded store in dir, where `kj serve` with
// KJ_DATA_DIR=dir finds it, written from sqliteTemplate.
func sqliteIn(t testing.TB, dir string) storage.DB {
	t.Helper()
	tmpl, err := sqliteTemplate()
	if err != nil {
		t.Fatalf("migrated SQLite template: %v", err)
	}
	path := filepath.Join(dir, "kj.db")
	if err := os.WriteFile(path, tmpl, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := storage.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	if applied, err := storage.Migrate(context.Background(), db); err != nil || len(applied) != 0 {
		t.Fatalf("the copied SQLite store is not fully migrated: applied %v, %v", applied, err)
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
