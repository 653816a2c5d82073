package protection

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"kj/internal/bus"
	"kj/internal/clock"
	"kj/storage"
	"kj/storage/storagetest"
)

// countingDB counts the reads that reach the store.
type countingDB struct {
	storage.DB
	reads atomic.Int64
}

func (d *countingDB) Query(ctx context.Context, sql string, args ...any) (storage.Rows, error) {
	d.reads.Add(1)
	return d.DB.Query(ctx, sql, args...)
}

func (d *countingDB) QueryRow(ctx context.Context, sql string, args ...any) storage.Row {
	d.reads.Add(1)
	return d.DB.QueryRow(ctx, sql, args...)
}

// The bet path reads the store once per ListAge for the list of protected
// players and once per MaxAge per protected player, never per bet.
func TestBetsAreJudgedFromMemory(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, raw storage.DB) {
		ctx := context.Background()
		db := &countingDB{DB: raw}
		c := clock.NewFake(start)
		b := bus.NewMemory() // changes come over the bus: the list lives ListAge
		t.Cleanup(func() { b.Close() })
		s := New(db, c, shanghai, b)
		free, limited := newPlayer(t, raw, "free"), newPlayer(t, raw, "limited")
		if _, err := s.SetLimit(ctx, limited, Loss, Day, 100_000); err != nil {
			t.Fatal(err)
		}
		// Warm: the list, and the limited player's figures.
		if err := s.Bet(ctx, limited, 100, placed); err != nil {
			t.Fatal(err)
		}
		before := db.reads.Load()
		for i := 0; i < 200; i++ {
			if err := s.Bet(ctx, free, 100, placed); err != nil {
				t.Fatal(err)
			}
			if err := s.Bet(ctx, limited, 100, placed); err != nil {
				t.Fatal(err)
			}
		}
		if n := db.reads.Load() - before; n != 0 {
			t.Fatalf("400 bets read the store %d times, want 0", n)
		}
		// The 200 stakes counted in memory: the limit is reached at once.
		var le *LimitError
		if err := s.Bet(ctx, limited, 100_000-201*100+1, placed); !errors.As(err, &le) {
			t.Fatalf("in-memory total: %v", err)
		}
		// Past MaxAge the protected player's figures reload (3 reads); the
		// free player still costs nothing until the list is ListAge old.
		c.Advance(MaxAge)
		before = db.reads.Load()
		_ = s.Bet(ctx, limited, 1, placed)
		_ = s.Bet(ctx, free, 1, placed)
		if n := db.reads.Load() - before; n != 3 {
			t.Fatalf("after MaxAge: %d reads, want 3 (limits, exclusions, totals)", n)
		}
		// Once ListAge has passed the list is read again.
		c.Advance(ListAge)
		before = db.reads.Load()
		_ = s.Bet(ctx, free, 1, placed)
		if n := db.reads.Load() - before; n != 1 {
			t.Fatalf("after ListAge: %d reads, want 1 (the list)", n)
		}
	})
}

func BenchmarkBetFromMemory(b *testing.B) {
	db := storagetest.SQLite(b)
	ctx := context.Background()
	c := clock.NewFake(start)
	s := New(db, c, shanghai, nil)
	id := newPlayer(b, db, "bench")
	if _, err := s.SetLimit(ctx, id, Loss, Month, storage.MaxAmount); err != nil {
		b.Fatal(err)
	}
	for _, who := range []struct {
		name string
		id   int64
	}{{"protected", id}, {"unprotected", id + 1}} {
		b.Run(who.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := s.Bet(ctx, who.id, 1, placed); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
