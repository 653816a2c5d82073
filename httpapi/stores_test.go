package httpapi

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

// Migrating a fresh SQLite store costs 0.1-0.5 s under -race (the pure-Go
// SQLite runs every migration's statements instrumented; the smallest
// SQLite subtest took 0.48 s, 0.03 s on a copy), and this package's tests
// open well over a hundred of them. The migrations are
// deterministic SQL (no clock, no random values; only schema_migrations'
// applied_at differs), so the tests' stores are copies of one store
// migrated once per test binary, and each copy is still run through
// storage.Migrate, which finds nothing to apply but fails the test if the
// copy were behind.

// sqliteTemplate is the bytes of a migrated store, made once per test
// binary and kept in memory (its file is removed at once, so a binary that
// dies leaves nothing behind).
var sqliteTemplate = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "kj-httpapi-sqlite-")
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

// testSQLite is a fresh, migrated SQLite store in a temporary directory of
// the test's, as storagetest.SQLite gives, written from sqliteTemplate.
func testSQLite(t testing.TB) storage.DB {
	t.Helper()
	tmpl, err := sqliteTemplate()
	if err != nil {
		t.Fatalf("migrated SQLite template: %v", err)
	}
	path := filepath.Join(t.TempDir(), "kj.db")
	if err := os.WriteFile(path, tmpl, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := storage.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	if applied, err := storage.Migrate(context.Background(), db); err != nil || len(applied) != 0 {
		t.Fatalf("the copied store is not fully migrated: applied %v, %v", applied, err)
	}
	return db
}

// eachStore is storagetest.Each with the SQLite store from testSQLite: f
// runs as the subtests "postgres" and "sqlite", each on a fresh store.
func eachStore(t *testing.T, f func(t *testing.T, db storage.DB)) {
	t.Helper()
	t.Run("postgres", func(t *testing.T) { f(t, storagetest.Postgres(t)) })
	t.Run("sqlite", func(t *testing.T) { f(t, testSQLite(t)) })
}
