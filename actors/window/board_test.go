package window

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"kj/storage"
	"kj/storage/storagetest"
)

// countingDB counts the statements run on a store outside any transaction
// and the transactions opened (statements inside a transaction go to its
// tx, uncounted): a node's store work, to assert a route makes none.
type countingDB struct {
	storage.DB
	outside atomic.Int64
	txs     atomic.Int64
}

func (c *countingDB) Exec(ctx context.Context, sql string, args ...any) (int64, error) {
	c.outside.Add(1)
	return c.DB.Exec(ctx, sql, args...)
}

func (c *countingDB) Query(ctx context.Context, sql string, args ...any) (storage.Rows, error) {
	c.outside.Add(1)
	return c.DB.Query(ctx, sql, args...)
}

func (c *countingDB) QueryRow(ctx context.Context, sql string, args ...any) storage.Row {
	c.outside.Add(1)
	return c.DB.QueryRow(ctx, sql, args...)
}

func (c *countingDB) Tx(ctx context.Context, fn func(tx storage.Tx) error) error {
	c.txs.Add(1)
	return c.DB.Tx(ctx, fn)
}

func (c *countingDB) reset() { c.outside.Store(0); c.txs.Store(0) }

// walletsInMemory answers balances from a map: the node's memory of the
// wallets (item 4 of issue 38), which this package does not own.
type walletsInMemory map[int64]int64

func (w walletsInMemory) Balance(_ context.Context, user int64) (int64, error) { return w[user], nil }

// A node that does not run the window (b) answers the lobby from its board
// and places bets with no store work but its desk's transaction: its
// lobby follows its own bets at once, another node's bets, and the
// window's moves (betting, drawing, the draw, the next round) over the
// bus, and always equals what the store says once the events arrived.
func TestBoardAnswersTheLobbyAndPrechecksFromMemory(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		e := newEnv(t, db, 2, testRules)
		r := e.firstRound()
		alice := e.player(100000)
		ctx := context.Background()

		cdb := &countingDB{DB: db}
		board, err := NewBoard(cdb, e.bus, e.clock)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(board.Close)
		board.maxAge = time.Hour // the events alone keep it right; the age is the backstop
		desk := NewDesk(cdb, StoreLedger{}, e.clock, e.bus, e.log, 100)
		t.Cleanup(desk.Close)
		desk.UseBoard(board)
		b := &Rounds{DB: cdb, Ledger: StoreLedger{}, Clock: e.clock, Desk: desk, Board: board,
			Balances: walletsInMemory{alice: 100000}}
		store := &Rounds{DB: db, Ledger: StoreLedger{}, Clock: e.clock}

		// The lobby's windows from memory equal the store's, once the bus
		// delivered (the balance is the wallets' memory's, not the board's).
		same := func(what string) Lobby {
			t.Helper()
			var mem, want Lobby
			deadline := time.Now().Add(10 * time.Second)
			equal := func() bool {
				var err error
				if mem, err = b.Lobby(ctx, alice); err != nil {
					t.Fatal(err)
				}
				if want, err = store.Lobby(ctx, alice); err != nil {
					t.Fatal(err)
				}
				return reflect.DeepEqual(mem.Windows, want.Windows)
			}
			for !equal() {
				if time.Now().After(deadline) {
					t.Fatalf("%s: the board's lobby %+v, the store's %+v", what, mem.Windows, want.Windows)
				}
				time.Sleep(5 * time.Millisecond) // polling the condition, with a deadline
			}
			return mem
		}
		same("first round")
		cdb.reset()

		if _, err := b.Bet(ctx, BetRequest{UserID: alice, WindowID: 1, Issue: r.Issue, Content: Big,
			Amount: 500, BetID: "board-1", ArrivedAt: e.clock.Now()}); err != nil {
			t.Fatal(err)
		}
		if n, txs := cdb.outside.Load(), cdb.txs.Load(); n != 0 || txs != 1 {
			t.Fatalf("a bet: %d store statements outside the desk's transaction, %d transactions; want 0 and 1", n, txs)
		}
		// Its own bet shows at once, with no store query.
		l, err := b.Lobby(ctx, alice)
		if err != nil {
			t.Fatal(err)
		}
		if w := l.Windows[0]; w.OrdersCount != 1 || w.TotalPoints != 500 || w.Phase != PhaseBetting || w.Issue != r.Issue {
			t.Fatalf("lobby after the node's own bet: %+v", w)
		}
		// Refusals the board can decide cost no transaction either.
		_, err = b.Bet(ctx, BetRequest{UserID: alice, WindowID: 1, Issue: r.Issue, Content: Big,
			Amount: 99, BetID: "board-low", ArrivedAt: e.clock.Now()})
		var le *LimitError
		if !errors.As(err, &le) || !le.Below() || le.Min != 100 {
			t.Fatalf("a bet below the minimum: %v", err)
		}
		// Another node's bet arrives over the bus.
		if _, err := e.bet(alice, r, Small, 700, "board-2"); err != nil {
			t.Fatal(err)
		}
		l = same("another node's bet")
		if w := l.Windows[0]; w.OrdersCount != 2 || w.TotalPoints != 1200 {
			t.Fatalf("lobby after another node's bet: %+v", w)
		}
		if n, txs := cdb.outside.Load(), cdb.txs.Load(); n != 0 || txs != 1 {
			t.Fatalf("lobbies and a refused bet: %d store statements, %d transactions; want 0 and 1", n, txs)
		}

		// The window moves on; the board follows its events.
		e.to(at(r.BettingEndsAt), 1, at(r.BettingEndsAt+500))
		e.to(at(r.BettingEndsAt+500), 1, at(r.DrawingEndsAt))
		same("drawing")
		e.to(at(r.DrawingEndsAt), 1, at(r.RestEndsAt))
		l = same("drawn, resting")
		if w := l.Windows[0]; w.RoundsCount != 1 || w.Phase != PhaseRest {
			t.Fatalf("lobby after the draw: %+v", w)
		}
		next := e.latest(1)
		if next.Issue == r.Issue {
			t.Fatalf("no next round after the draw")
		}
		// A bet on the next round before it opens is refused from memory.
		cdb.reset()
		_, err = b.Bet(ctx, BetRequest{UserID: alice, WindowID: 1, Issue: next.Issue, Content: Big,
			Amount: 500, BetID: "board-early", ArrivedAt: e.clock.Now()})
		if !errors.Is(err, ErrBettingNotOpen) {
			t.Fatalf("a bet before the round opens: %v", err)
		}
		e.to(at(next.StartsAt), 1, at(next.BettingEndsAt))
		l = same("the next round")
		if w := l.Windows[0]; w.Issue != next.Issue || w.Phase != PhaseBetting || w.OrdersCount != 0 {
			t.Fatalf("lobby in the next round: %+v", w)
		}
		if n, txs := cdb.outside.Load(), cdb.txs.Load(); n != 0 || txs != 0 {
			t.Fatalf("following the window: %d store statements, %d transactions; want none", n, txs)
		}

		// The age is the backstop: an old board reads the store again.
		board.maxAge = BoardMaxAge
		e.clock.Advance(BoardMaxAge)
		same("after the maximum age")
		if cdb.outside.Load() == 0 {
			t.Fatal("an old board did not read the store")
		}
	})
}

// gatedDB holds every query outside a transaction until open is closed.
type gatedDB struct {
	countingDB
	open chan struct{}
}

func (g *gatedDB) Query(ctx context.Context, sql string, args ...any) (storage.Rows, error) {
	<-g.open
	return g.countingDB.Query(ctx, sql, args...)
}

func (g *gatedDB) QueryRow(ctx context.Context, sql string, args ...any) storage.Row {
	<-g.open
	return g.countingDB.QueryRow(ctx, sql, args...)
}

// A burst of bets on a node with no board (never loaded, or dropped) makes
// one load, not one per bet: the others wait for it and answer from it.
func TestBoardLoadsOnceForABurst(t *testing.T) {
	db := storagetest.SQLite(t)
	e := newEnv(t, db, 1, testRules)
	r := e.firstRound()
	g := &gatedDB{countingDB: countingDB{DB: db}, open: make(chan struct{})}
	board, err := NewBoard(g, nil, e.clock)
	if err != nil {
		t.Fatal(err)
	}
	const n = 50
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, ok, err := board.Round(context.Background(), 1, r.Issue)
			if err == nil && (!ok || got.ID != r.ID) {
				err = fmt.Errorf("round %+v, ok %v; want %d", got, ok, r.ID)
			}
			errs <- err
		}()
	}
	// Let the callers pile up on the first load (the store is held), then
	// let it through.
	time.Sleep(100 * time.Millisecond)
	close(g.open)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if q := g.outside.Load(); q != 3 {
		t.Fatalf("%d callers made %d store queries; want one load's 3", n, q)
	}
}
