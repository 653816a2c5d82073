package storage_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"kj/storage"
	"kj/storage/storagetest"
)

// A statement prepared while its table was nearly empty keeps the plan it
// got then (a scan of the whole table) until the table is analyzed; with
// autovacuum off for the table, AnalyzeStale is what analyzes it, and the
// statement is planned again (an index scan).
func TestAnalyzeStaleReplansWhatAnEmptyTablePlanned(t *testing.T) {
	pg := storagetest.Postgres(t).(*storage.PG)
	ctx := context.Background()
	exec := func(sql string, args ...any) {
		t.Helper()
		if _, err := pg.Pool.Exec(ctx, sql, args...); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	// The server's setting may be either; the table's own makes the case.
	exec(`ALTER TABLE chat_conversations SET (autovacuum_enabled = false)`)
	addConversations := func(from, to int) {
		exec(`INSERT INTO chat_conversations (id, session_type, created_at)
			SELECT 'si_' || i, 1, 1 FROM generate_series($1::int, $2::int) AS i`, from, to)
	}
	addConversations(1, 10)

	conn, err := pg.Pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	for _, sql := range []string{
		`PREPARE alloc(text[], bigint[]) AS UPDATE chat_conversations AS c SET max_seq = c.max_seq + v.n
			FROM unnest($1, $2) AS v(id, n) WHERE c.id = v.id`,
		`SET plan_cache_mode = force_generic_plan`,
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	scansAll := func() bool {
		t.Helper()
		plan := explainAlloc(t, conn)
		return strings.Contains(plan, "Seq Scan on chat_conversations")
	}
	if !scansAll() {
		t.Fatalf("a 10-row table's generic plan should scan it (the case this guards against): %s", explainAlloc(t, conn))
	}
	addConversations(11, 20000)
	// Usually the cached plan outlives the inserts. Other backends' DDL
	// (tests migrating their schemas beside this one) can overflow the
	// server's invalidation queue, which resets this backend's caches and
	// replans from the table's size; then only reltuples below shows the
	// analyze.
	if !scansAll() {
		t.Logf("the cached plan was replanned before the analyze (an invalidation reset): %s", explainAlloc(t, conn))
	}

	// The inserts reach the statistics the query reads within a second or
	// so of their commit.
	deadline := time.Now().Add(15 * time.Second)
	for {
		names, err := pg.AnalyzeStale(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(names, "chat_conversations") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("chat_conversations was never analyzed (last pass: %v)", names)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if plan := explainAlloc(t, conn); !strings.Contains(plan, "Index Scan using chat_conversations_pkey") {
		t.Fatalf("after the analyze the statement should use the key: %s", plan)
	}
	var tuples float64
	if err := pg.Pool.QueryRow(ctx, `SELECT reltuples FROM pg_class WHERE oid = 'chat_conversations'::regclass`).Scan(&tuples); err != nil {
		t.Fatal(err)
	}
	if tuples != 20000 {
		t.Fatalf("reltuples = %v, want 20000", tuples)
	}
	names, err := pg.AnalyzeStale(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(names, "chat_conversations") {
		t.Fatalf("analyzed again with nothing changed: %v", names)
	}
}

func explainAlloc(t *testing.T, conn *pgxpool.Conn) string {
	t.Helper()
	rows, err := conn.Query(context.Background(), `EXPLAIN EXECUTE alloc('{si_1}', '{1}')`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		b.WriteString(line + "\n")
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
