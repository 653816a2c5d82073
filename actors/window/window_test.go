package window

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

func TestPhaseMachineExactTransitions(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		e := newEnv(t, db, 1, testRules)
		r1 := e.firstRound()
		if r1.Issue != "20260301000100001" || r1.Seq != 1 || r1.StartsAt != ms(t0) ||
			r1.BettingEndsAt != ms(t0)+60000 || r1.DrawingEndsAt != ms(t0)+70000 || r1.RestEndsAt != ms(t0)+90000 {
			t.Fatalf("first round laid out wrong: %+v", r1)
		}
		if len(r1.Seed) != 64 || r1.SeedHash == "" || r1.State != storage.RoundOpen {
			t.Fatalf("seed must be committed before betting opens: %+v", r1)
		}
		p := e.waitPhase(1, r1.Issue, PhaseBetting)
		if p.ServerTime != ms(t0) || p.Deadline != r1.BettingEndsAt || p.SeedHash != r1.SeedHash {
			t.Fatalf("betting push %+v", p)
		}
		// One timer for the window, one for the lease: never one per bet.
		if n := e.clock.Pending(); n != 2 {
			t.Fatalf("%d timers pending, want 2", n)
		}

		// The deadline: players see drawing; the row closes after the grace.
		e.to(at(r1.BettingEndsAt), 1, at(r1.BettingEndsAt).Add(500*time.Millisecond))
		if p := e.waitPhase(1, r1.Issue, PhaseDrawing); p.Deadline != r1.DrawingEndsAt || p.ServerTime != r1.BettingEndsAt {
			t.Fatalf("drawing push %+v", p)
		}
		if e.round(r1.ID).State != storage.RoundOpen {
			t.Fatal("closed before the grace for bets in transit")
		}
		e.to(at(r1.BettingEndsAt+500), 1, at(r1.DrawingEndsAt))
		if got := e.round(r1.ID); got.State != storage.RoundClosed || got.ClosedAt != r1.BettingEndsAt+500 {
			t.Fatalf("after the grace: %+v", got)
		}
		if len(e.pushes.results()) != 0 {
			t.Fatal("result pushed before the drawing ended")
		}

		// The draw is handled 3 s late: the next round still starts exactly
		// when the rest of this one ends.
		e.to(at(r1.DrawingEndsAt+3000), 1, at(r1.RestEndsAt))
		got := e.waitRound(r1.ID, storage.RoundSettled)
		want := Draw(mustHex(t, got.Seed), got.Issue)
		if [3]int{got.D0, got.D1, got.D2} != want.Digits {
			t.Fatalf("digits %v, the seed draws %v", [3]int{got.D0, got.D1, got.D2}, want.Digits)
		}
		r2 := e.latest(1)
		if r2.Seq != 2 || r2.Issue != "20260301000100002" || r2.StartsAt != r1.RestEndsAt ||
			r2.BettingEndsAt != r1.RestEndsAt+60000 || r2.SeedHash == r1.SeedHash {
			t.Fatalf("second round: %+v", r2)
		}
		testenv.Eventually(t, 5*time.Second, func() bool { return len(e.pushes.results()) == 1 }, "result push")
		res := e.pushes.results()[0]
		if res.Issue != r1.Issue || res.ServerSeed != got.Seed || res.Digits != want.Digits || res.Sum != want.Sum {
			t.Fatalf("result push %+v", res)
		}
		rest := e.waitPhase(1, r1.Issue, PhaseRest)
		if rest.Deadline != r2.StartsAt || rest.Next == nil || rest.Next.Issue != r2.Issue || rest.Next.SeedHash != r2.SeedHash {
			t.Fatalf("rest push %+v", rest)
		}

		e.to(at(r2.StartsAt), 1, at(r2.BettingEndsAt))
		if p := e.waitPhase(1, r2.Issue, PhaseBetting); p.Deadline != r2.BettingEndsAt {
			t.Fatalf("second betting push %+v", p)
		}
		// Phases of round 1 were announced once each, in order.
		var seen []Phase
		for _, p := range e.pushes.phases(1) {
			if p.Issue == r1.Issue {
				seen = append(seen, p.Phase)
			}
		}
		if fmt.Sprint(seen) != "[betting drawing rest]" {
			t.Fatalf("round 1 phases pushed: %v", seen)
		}
	})
}

func TestBetsJudgedByArrivalTimeAtTheDeadline(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		e := newEnv(t, db, 1, testRules)
		r := e.firstRound()
		alice := e.player(100000)

		if _, err := e.betAt(alice, r, Big, 100, "early", t0.Add(-time.Millisecond)); !errors.Is(err, ErrBettingNotOpen) {
			t.Fatalf("bet before the start: %v", err)
		}
		// The clock reaches the deadline; the timer has fired, the row is not
		// closed yet. A bet that arrived 1 ms before still counts; one
		// arriving at the deadline does not.
		e.to(at(r.BettingEndsAt), 1, at(r.BettingEndsAt+500))
		if b, err := e.betAt(alice, r, Big, 100, "in-time", at(r.BettingEndsAt-1)); err != nil || b.PlacedAt != r.BettingEndsAt-1 {
			t.Fatalf("bet 1 ms before the deadline: %+v %v", b, err)
		}
		if _, err := e.betAt(alice, r, Small, 100, "at-deadline", at(r.BettingEndsAt)); !errors.Is(err, ErrBettingClosed) {
			t.Fatalf("bet at the deadline: %v", err)
		}
		// Once the round is closed even a bet stamped in time is refused:
		// it would come after the round's bets were final.
		e.to(at(r.BettingEndsAt+500), 1, at(r.DrawingEndsAt))
		if _, err := e.betAt(alice, r, Small, 100, "stamped-in-time-but-too-slow", at(r.BettingEndsAt-1)); !errors.Is(err, ErrBettingClosed) {
			t.Fatalf("bet after close: %v", err)
		}
		if n := e.betCount(); n != 1 {
			t.Fatalf("%d bets stored, want 1", n)
		}
		if e.balance(alice) != 100000-100 || e.round(r.ID).BetsCount != 1 || e.round(r.ID).Staked != 100 {
			t.Fatalf("stake not taken once: balance %d round %+v", e.balance(alice), e.round(r.ID))
		}
		e.to(at(r.DrawingEndsAt), 1, at(r.RestEndsAt))
		e.waitRound(r.ID, storage.RoundSettled)
		e.ledgerOK()
	})
}

// TestRestartInEachPhase stops the node in each phase (and once more after
// the seed was committed for the next round) and starts a fresh one: it
// resumes the same round with the same seed and deadlines, and every bet is
// settled exactly once.
func TestRestartInEachPhase(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		e := newEnv(t, db, 1, testRules)
		n := e.node("a")
		e.waitArmed(1, t0.Add(60*time.Second))
		r := e.latest(1)
		alice := e.player(100000)
		if _, err := e.bet(alice, r, Big, 1000, "a1"); err != nil {
			t.Fatal(err)
		}
		if _, err := e.bet(alice, r, Double, 2000, "a2"); err != nil {
			t.Fatal(err)
		}
		restart := func(next time.Time) {
			t.Helper()
			n.Stop(context.Background())
			e.mu.Lock()
			delete(e.armed, 1)
			e.mu.Unlock()
			n = e.node("a")
			e.waitArmed(1, next)
			got := e.round(r.ID)
			if got.Seed != r.Seed || got.SeedHash != r.SeedHash || got.StartsAt != r.StartsAt || got.BettingEndsAt != r.BettingEndsAt {
				t.Fatalf("after restart the round changed: %+v, was %+v", got, r)
			}
		}
		restart(at(r.BettingEndsAt)) // betting
		e.to(at(r.BettingEndsAt+100), 1, at(r.BettingEndsAt+500))
		restart(at(r.BettingEndsAt + 500)) // drawing, row still open
		e.to(at(r.BettingEndsAt+500), 1, at(r.DrawingEndsAt))
		restart(at(r.DrawingEndsAt)) // drawing, closed
		e.to(at(r.DrawingEndsAt), 1, at(r.RestEndsAt))
		e.waitRound(r.ID, storage.RoundSettled)
		r2 := e.latest(1)
		restart(at(r.RestEndsAt)) // rest: the next round is already committed
		if l := e.latest(1); l.ID != r2.ID || l.Seed != r2.Seed {
			t.Fatalf("restart in rest replaced the committed next round: %+v vs %+v", l, r2)
		}
		bets, _ := storage.BetsOfRound(context.Background(), db, r.ID)
		o := Draw(mustHex(t, r.Seed), r.Issue)
		want := int64(100000 - 3000)
		for _, b := range bets {
			if b.State == storage.BetOpen {
				t.Fatalf("bet %s not settled", b.BetID)
			}
			if o.Wins(Content(b.Content)) {
				want += Payout(b.Amount, r.OddsBP)
			}
		}
		if got := e.balance(alice); got != want {
			t.Fatalf("balance %d, want %d", got, want)
		}
		if e.system(storage.BetsInPlay) != 0 {
			t.Fatal("stakes left in play")
		}
		e.ledgerOK()
	})
}

// faultDB fails statements a predicate picks, inside transactions too, to
// stand for a node dying at that point.
type faultDB struct {
	storage.DB
	fail atomic.Pointer[func(sql string) error]
}

func (f *faultDB) check(sql string) error {
	if p := f.fail.Load(); p != nil {
		return (*p)(sql)
	}
	return nil
}

func (f *faultDB) Exec(ctx context.Context, sql string, args ...any) (int64, error) {
	if err := f.check(sql); err != nil {
		return 0, err
	}
	return f.DB.Exec(ctx, sql, args...)
}

func (f *faultDB) Query(ctx context.Context, sql string, args ...any) (storage.Rows, error) {
	if err := f.check(sql); err != nil {
		return nil, err
	}
	return f.DB.Query(ctx, sql, args...)
}

func (f *faultDB) QueryRow(ctx context.Context, sql string, args ...any) storage.Row {
	if err := f.check(sql); err != nil {
		return errRow{err}
	}
	return f.DB.QueryRow(ctx, sql, args...)
}

func (f *faultDB) Tx(ctx context.Context, fn func(storage.Tx) error) error {
	return f.DB.Tx(ctx, func(tx storage.Tx) error { return fn(faultTx{tx, f}) })
}

type faultTx struct {
	storage.Tx
	f *faultDB
}

func (t faultTx) Exec(ctx context.Context, sql string, args ...any) (int64, error) {
	if err := t.f.check(sql); err != nil {
		return 0, err
	}
	return t.Tx.Exec(ctx, sql, args...)
}

func (t faultTx) Query(ctx context.Context, sql string, args ...any) (storage.Rows, error) {
	if err := t.f.check(sql); err != nil {
		return nil, err
	}
	return t.Tx.Query(ctx, sql, args...)
}

func (t faultTx) QueryRow(ctx context.Context, sql string, args ...any) storage.Row {
	if err := t.f.check(sql); err != nil {
		return errRow{err}
	}
	return t.Tx.QueryRow(ctx, sql, args...)
}

type errRow struct{ err error }

func (r errRow) Scan(...any) error { return r.err }

// TestCrashBetweenDrawAndSettlement: the node stores the result and dies
// before paying anyone. Another node finds the round drawn, settles it once
// and goes on; the ledger balances and no bet is paid twice.
func TestCrashBetweenDrawAndSettlement(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		fdb := &faultDB{DB: db}
		e := newEnv(t, db, 1, testRules)
		// Node a's store connection "dies" at its first settlement query.
		a := &Runner{DB: fdb, Desk: NewDesk(fdb, StoreLedger{}, e.clock, e.bus, e.log, 100), Bus: e.bus,
			Clock: e.clock, Log: e.log, Node: "a", LeaseTTL: 5 * time.Second, onArm: e.noteArm}
		t.Cleanup(a.Desk.Close)
		if err := a.Start(e.actorSystem()); err != nil {
			t.Fatal(err)
		}
		e.waitArmed(1, t0.Add(60*time.Second))
		r := e.latest(1)
		var players []int64
		for i := range 6 {
			p := e.player(50000)
			players = append(players, p)
			if _, err := e.bet(p, r, Contents[i%4], int64(100*(i+1)), fmt.Sprintf("c%d", i)); err != nil {
				t.Fatal(err)
			}
		}
		before := e.transfers()
		dead := make(chan struct{})
		var once atomic.Bool
		crash := func(sql string) error {
			if strings.Contains(sql, "FROM round_bets WHERE round_id = $1 AND state = 0") { // every part's pick of open bets
				if once.CompareAndSwap(false, true) {
					close(dead)
				}
				return errors.New("connection lost")
			}
			return nil
		}
		fdb.fail.Store(&crash)
		e.clock.Set(at(r.BettingEndsAt + 500))
		e.waitRound(r.ID, storage.RoundClosed)
		e.clock.Set(at(r.DrawingEndsAt))
		<-dead
		a.kill()
		if got := e.round(r.ID); got.State != storage.RoundDrawn {
			t.Fatalf("round should be drawn and unsettled, is %+v", got)
		}
		if e.transfers() != before {
			t.Fatal("money moved before the crash")
		}

		// Node b takes the lapsed lease and finishes the round.
		e.clock.Set(at(r.DrawingEndsAt).Add(6 * time.Second))
		e.node("b")
		got := e.waitRound(r.ID, storage.RoundSettled)
		if got.SettledCount != 6 || got.DrawnAt != r.DrawingEndsAt {
			t.Fatalf("settled %+v", got)
		}
		if w, _ := storage.RoundWindowByID(context.Background(), db, 1); w.RoundsCount != 1 {
			t.Fatalf("drawn %d times", w.RoundsCount)
		}
		o := Draw(mustHex(t, r.Seed), r.Issue)
		wins := 0
		for i, p := range players {
			want := int64(50000 - 100*(i+1))
			if o.Wins(Contents[i%4]) {
				want += Payout(int64(100*(i+1)), r.OddsBP)
				wins++
			}
			if got := e.balance(p); got != want {
				t.Fatalf("player %d: balance %d, want %d", i, got, want)
			}
		}
		// One transfer per winner (the payout) and one per settlement
		// transaction (the stakes, one per part of the players that had
		// bets: at most two), once.
		var stakes int
		if err := db.QueryRow(context.Background(), `SELECT COUNT(*) FROM ledger_transfers WHERE kind = $1`,
			KindStakesSettled).Scan(&stakes); err != nil {
			t.Fatal(err)
		}
		if n := e.transfers() - before; stakes < 1 || stakes > settlePartsPG || n != stakes+wins {
			t.Fatalf("%d settlement transfers (%d of stakes), want %d wins and 1..%d of stakes", n, stakes, wins, settlePartsPG)
		}
		if len(e.pushes.results()) != 1 {
			t.Fatalf("result pushed %d times", len(e.pushes.results()))
		}
		e.ledgerOK()
	})
}

type crashWindow struct{}

// TestSupervisorRestartsAFailedWindow: a window actor that panics is
// restarted by its supervisor and carries on with the same round.
func TestSupervisorRestartsAFailedWindow(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		e := newEnv(t, db, 2, testRules)
		var starts atomic.Int32
		failing := actor.WithReceiverMiddleware(func(next actor.ReceiverFunc) actor.ReceiverFunc {
			return func(c actor.ReceiverContext, env *actor.MessageEnvelope) {
				switch env.Message.(type) {
				case crashWindow:
					panic("window failure requested by the test")
				case *actor.Started:
					starts.Add(1)
				}
				next(c, env)
			}
		})
		n := e.node("a", failing)
		e.waitArmed(1, t0.Add(60*time.Second))
		e.waitArmed(2, t0.Add(60*time.Second))
		r := e.latest(1)
		e.clock.Set(at(r.BettingEndsAt + 200))
		e.waitPhase(1, r.Issue, PhaseDrawing)
		e.waitArmed(1, at(r.BettingEndsAt+500))
		e.mu.Lock()
		delete(e.armed, 1)
		e.mu.Unlock()
		pid := n.childPID(1)
		n.system.Root.Send(pid, crashWindow{})
		// Restarted in place (same PID), it re-arms the close of its round.
		e.waitArmed(1, at(r.BettingEndsAt+500))
		if starts.Load() != 3 || n.childPID(1) != pid {
			t.Fatalf("starts %d (want 2 windows + 1 restart), pid %v → %v", starts.Load(), pid, n.childPID(1))
		}
		e.to(at(r.BettingEndsAt+500), 1, at(r.DrawingEndsAt))
		e.to(at(r.DrawingEndsAt), 1, at(r.RestEndsAt))
		if got := e.waitRound(r.ID, storage.RoundSettled); got.Seed != r.Seed {
			t.Fatal("seed changed across the restart")
		}
	})
}

// TestAnotherNodeTakesOverWithinSeconds: node a dies without releasing its
// leases; node b runs its windows once the leases lapse.
func TestAnotherNodeTakesOverWithinSeconds(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		e := newEnv(t, db, 2, testRules)
		a := e.nodeTTL("a", 5*time.Second)
		e.waitArmed(1, t0.Add(60*time.Second))
		e.waitArmed(2, t0.Add(60*time.Second))
		b := e.nodeTTL("b", 5*time.Second)
		// b tried, found the leases held, and armed its next try.
		testenv.Eventually(t, 5*time.Second, func() bool { return e.clock.Pending() == 4 }, "b's lease timer")
		if len(b.Running()) != 0 || len(a.Running()) != 2 {
			t.Fatalf("a runs %v, b runs %v", a.Running(), b.Running())
		}
		a.kill()
		e.mu.Lock()
		clear(e.armed)
		e.mu.Unlock()
		r := e.latest(1)
		// Step the clock a second at a time: b tries every second and takes
		// over once a's last renewal (at most 5 s old) has lapsed.
		took := time.Duration(0)
		for len(b.Running()) < 2 && took < 10*time.Second {
			e.clock.Advance(time.Second)
			took += time.Second
			// b re-arms its lease timer when it has handled the tick.
			testenv.Eventually(t, 5*time.Second, func() bool { return e.clock.Pending() >= 1 }, "b handled its lease tick")
		}
		if len(b.Running()) != 2 || took > 6*time.Second {
			t.Fatalf("b runs %v after %v", b.Running(), took)
		}
		e.waitArmed(1, at(r.BettingEndsAt))
		e.waitArmed(2, at(r.BettingEndsAt))
		e.clock.Set(at(r.BettingEndsAt + 500))
		e.waitRound(r.ID, storage.RoundClosed)
		e.clock.Set(at(r.DrawingEndsAt))
		if got := e.waitRound(r.ID, storage.RoundSettled); got.Seed != r.Seed {
			t.Fatal("the new node changed the seed")
		}
	})
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("seed %q: %v", s, err)
	}
	return b
}
