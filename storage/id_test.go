package storage_test

import (
	"context"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

// Two processes on one PostgreSQL store take different node numbers, and
// the ids each then makes carry its own (bits 12-21), so ids made in the
// same millisecond on two nodes differ.
func TestClaimIDNodeGivesEachProcessItsOwnNumber(t *testing.T) {
	ctx := context.Background()
	db := storagetest.Postgres(t)
	t.Cleanup(func() { storage.SetIDNode(0) })
	a, err := storage.ClaimIDNode(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	idA := storage.NewID()
	b, err := storage.ClaimIDNode(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	idB := storage.NewID()
	if a == b || a < 0 || a > 1023 || b > 1023 {
		t.Fatalf("node numbers %d and %d", a, b)
	}
	if got := idA >> 12 & 1023; got != a {
		t.Fatalf("id %d carries node %d, want %d", idA, got, a)
	}
	if got := idB >> 12 & 1023; got != b || storage.IDNode() != b {
		t.Fatalf("id %d carries node %d, want %d", idB, got, b)
	}
	// The embedded store is one process: node 0.
	if n, err := storage.ClaimIDNode(ctx, storagetest.SQLite(t)); err != nil || n != 0 || storage.IDNode() != 0 {
		t.Fatalf("sqlite: node %d, %v", n, err)
	}
}
