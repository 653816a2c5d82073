package window

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"kj/storage"
	"kj/storage/storagetest"
)

// stallingLedger holds the first batch that posts through it until
// released: a batch stalled in the middle of its transaction.
type stallingLedger struct {
	StoreLedger
	once     sync.Once
	stalled  chan struct{}
	release  chan struct{}
	released sync.Once
}

func newStallingLedger() *stallingLedger {
	return &stallingLedger{stalled: make(chan struct{}), release: make(chan struct{})}
}

func (l *stallingLedger) let() { l.released.Do(func() { close(l.release) }) }

func (l *stallingLedger) Apply(ctx context.Context, tx storage.Tx, plan *storage.LedgerPlan, ops []storage.Op) ([]storage.OpResult, error) {
	first := false
	l.once.Do(func() { first = true })
	if first {
		close(l.stalled)
		<-l.release
	}
	return l.StoreLedger.Apply(ctx, tx, plan, ops)
}

// stalledDesk is a desk on PostgreSQL whose first batch stalls in its
// ledger apply until released, beside an armed window 1 and its open round.
func stalledDesk(t *testing.T) (storage.DB, *env, storage.Round, *stallingLedger, *Desk) {
	t.Helper()
	db := storagetest.Postgres(t)
	e := newEnv(t, db, 1, testRules)
	r := e.firstRound()
	stall := newStallingLedger()
	desk := NewDesk(db, stall, e.clock, e.bus, e.log, 500)
	t.Cleanup(desk.Close)
	t.Cleanup(stall.let) // runs first: a failing test does not leave the desk stuck
	return db, e, r, stall, desk
}

type placed struct {
	bet storage.RoundBet
	err error
}

// placeStalled places req in the background and returns once the batch
// it is in has stalled; the channel gives its outcome after stall.let.
func placeStalled(desk *Desk, stall *stallingLedger, req BetRequest) <-chan placed {
	first := make(chan placed, 1)
	go func() {
		b, err := desk.Place(context.Background(), req)
		first <- placed{b, err}
	}()
	<-stall.stalled
	return first
}

// A batch that stalls does not hold up the bets queued behind it: they
// are written and acknowledged while it is stuck (on PostgreSQL, where
// batches run side by side).
func TestDeskStalledBatchDoesNotHoldUpLaterBets(t *testing.T) {
	_, e, r, stall, desk := stalledDesk(t)
	alice, bob := e.player(100000), e.player(100000)

	first := placeStalled(desk, stall, BetRequest{UserID: alice, WindowID: 1, Issue: r.Issue,
		Content: Big, Amount: 500, BetID: "stalled-1", ArrivedAt: e.clock.Now()})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := desk.Place(ctx, BetRequest{UserID: bob, WindowID: 1, Issue: r.Issue,
		Content: Small, Amount: 700, BetID: "behind-1", ArrivedAt: e.clock.Now()}); err != nil {
		t.Fatalf("the bet behind a stalled batch: %v", err)
	}
	select {
	case p := <-first:
		t.Fatalf("the stalled batch finished before it was released: %+v", p)
	default:
	}
	stall.let()
	if p := <-first; p.err != nil {
		t.Fatalf("the stalled bet once released: %v", p.err)
	}
	got := e.round(r.ID)
	if got.BetsCount != 2 || got.Staked != 1200 || e.balance(alice) != 99500 || e.balance(bob) != 99300 {
		t.Fatalf("round %d bets staking %d; balances %d %d", got.BetsCount, got.Staked, e.balance(alice), e.balance(bob))
	}
	if rep := e.ledgerOK(); !rep.OK() {
		t.Fatal(rep)
	}
}

// A resend that lands in the desk's other batch while the first copy's
// batch is stalled is written by that other batch; the stalled batch, once
// released, must answer its copy with that same bet, not with the ledger's
// "key reused" (it used to: a player's resend during a burst got an error).
func TestDeskResendRacingAcrossBatchesGetsTheBet(t *testing.T) {
	_, e, r, stall, desk := stalledDesk(t)
	alice := e.player(100000)
	req := BetRequest{UserID: alice, WindowID: 1, Issue: r.Issue, Content: Big, Amount: 500,
		BetID: "raced-1", ArrivedAt: e.clock.Now()}

	first := placeStalled(desk, stall, req)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resent, err := desk.Place(ctx, req)
	if err != nil {
		t.Fatalf("the resend in the other batch: %v", err)
	}
	stall.let()
	p := <-first
	if p.err != nil || p.bet.ID != resent.ID {
		t.Fatalf("the stalled copy: %+v %v, want the bet the resend wrote (%d)", p.bet, p.err, resent.ID)
	}
	if got := e.round(r.ID); got.BetsCount != 1 || got.Staked != 500 || e.balance(alice) != 99500 {
		t.Fatalf("round %d bets staking %d, balance %d: want one bet", got.BetsCount, got.Staked, e.balance(alice))
	}
	if rep := e.ledgerOK(); !rep.OK() {
		t.Fatal(rep)
	}
}

// A batch judged against an open round that closes before the batch's end
// is judged again: its bets are refused as late and leave no trace.
func TestDeskBatchOvertakenByTheCloseIsRefused(t *testing.T) {
	db, e, r, stall, desk := stalledDesk(t)
	alice := e.player(100000)
	bets, transfers := e.betCount(), e.transfers()

	first := placeStalled(desk, stall, BetRequest{UserID: alice, WindowID: 1, Issue: r.Issue,
		Content: Big, Amount: 500, BetID: "overtaken-1", ArrivedAt: e.clock.Now()})
	if ok, err := storage.CloseRound(context.Background(), db, r.ID, e.clock.Now().UnixMilli()); err != nil || !ok {
		t.Fatalf("close: %v %v", ok, err)
	}
	stall.let()
	if p := <-first; !errors.Is(p.err, ErrBettingClosed) {
		t.Fatalf("a bet overtaken by the close: %+v", p)
	}
	got := e.round(r.ID)
	if got.BetsCount != 0 || e.betCount() != bets || e.transfers() != transfers || e.balance(alice) != 100000 {
		t.Fatalf("the refused bet left a trace: round %+v, bets %d→%d, transfers %d→%d, balance %d",
			got, bets, e.betCount(), transfers, e.transfers(), e.balance(alice))
	}
}
