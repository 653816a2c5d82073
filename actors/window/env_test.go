package window

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"kj/internal/bus"
	"kj/internal/clock"
	"kj/internal/testenv"
	"kj/storage"
)

// t0 is where the fake clock starts in every test.
var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

var testRules = Rules{OddsBP: 19800, MinBet: 100, MaxBet: 100000,
	Betting: 60 * time.Second, Drawing: 10 * time.Second, Rest: 20 * time.Second}

// env is one store with the windows' machinery around it, driven by a fake
// clock. Nodes (runners) come and go on it; the desk and the bus stay.
type env struct {
	t      *testing.T
	db     storage.DB
	clock  *clock.Fake
	bus    *bus.Memory
	desk   *Desk
	rounds *Rounds
	pushes *pushLog
	log    *slog.Logger

	mu    sync.Mutex
	armed map[int64]time.Time // latest deadline each window armed its timer for
}

func newEnv(t *testing.T, db storage.DB, windows int64, rules Rules) *env {
	t.Helper()
	e := &env{t: t, db: db, clock: clock.NewFake(t0), bus: bus.NewMemory(),
		log: slog.New(slog.NewTextHandler(io.Discard, nil)), armed: map[int64]time.Time{}}
	t.Cleanup(func() { e.bus.Close() })
	e.pushes = recordPushes(t, e.bus)
	e.desk = NewDesk(db, StoreLedger{}, e.clock, e.bus, e.log, 500)
	t.Cleanup(e.desk.Close)
	e.rounds = &Rounds{DB: db, Ledger: StoreLedger{}, Clock: e.clock, Desk: e.desk}
	w := storage.RoundWindow{OddsBP: rules.OddsBP, MinBet: rules.MinBet, MaxBet: rules.MaxBet,
		BettingMs: rules.Betting.Milliseconds(), DrawingMs: rules.Drawing.Milliseconds(), RestMs: rules.Rest.Milliseconds()}
	if err := storage.EnsureRoundWindows(context.Background(), db, windows, w, t0.UnixMilli()); err != nil {
		t.Fatal(err)
	}
	return e
}

// node starts a runner named name in an actor system of its own (a node).
func (e *env) node(name string, opts ...actor.PropsOption) *Runner {
	e.t.Helper()
	return e.nodeTTL(name, time.Hour, opts...)
}

// nodeTTL is node with a lease lifetime (an hour unless a test needs
// takeovers, so big clock jumps never make a node lose its windows).
func (e *env) nodeTTL(name string, ttl time.Duration, opts ...actor.PropsOption) *Runner {
	e.t.Helper()
	r := &Runner{DB: e.db, Desk: e.desk, Bus: e.bus, Clock: e.clock, Log: e.log, Node: name,
		LeaseTTL: ttl, props: opts, onArm: e.noteArm}
	if err := r.Start(e.actorSystem()); err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { r.kill() })
	return r
}

func (e *env) actorSystem() *actor.ActorSystem {
	return actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return e.log }))
}

func (e *env) noteArm(w int64, at time.Time) {
	e.mu.Lock()
	e.armed[w] = at
	e.mu.Unlock()
}

// kill stops a node's actors without releasing its leases, as a crash
// would leave them.
func (r *Runner) kill() {
	r.mu.Lock()
	system, pid := r.system, r.pid
	r.pid = nil
	r.mu.Unlock()
	if pid != nil {
		_ = system.Root.StopFuture(pid).Wait()
	}
}

// waitArmed waits until window w has armed its timer for at.
func (e *env) waitArmed(w int64, at time.Time) {
	e.t.Helper()
	testenv.Eventually(e.t, 10*time.Second, func() bool {
		e.mu.Lock()
		defer e.mu.Unlock()
		return e.armed[w].Equal(at)
	}, "window %d never armed its timer for %v", w, at)
}

// to moves the fake clock to at and waits until window w armed next.
func (e *env) to(at time.Time, w int64, next time.Time) {
	e.t.Helper()
	e.clock.Set(at)
	e.waitArmed(w, next)
}

// latest is window w's latest round.
func (e *env) latest(w int64) storage.Round {
	e.t.Helper()
	r, err := storage.LatestRound(context.Background(), e.db, w)
	if err != nil {
		e.t.Fatalf("window %d latest round: %v", w, err)
	}
	return r
}

// firstRound starts node "a" and returns window 1's first round once the
// window has armed its timer for the end of its betting (t0 + 60 s).
func (e *env) firstRound() storage.Round {
	e.t.Helper()
	e.node("a")
	e.waitArmed(1, t0.Add(60*time.Second))
	return e.latest(1)
}

func (e *env) round(id int64) storage.Round {
	e.t.Helper()
	r, err := storage.RoundByID(context.Background(), e.db, id)
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

// waitRound waits until the round's stored state reaches state.
func (e *env) waitRound(id int64, state int) storage.Round {
	e.t.Helper()
	var r storage.Round
	testenv.Eventually(e.t, 10*time.Second, func() bool {
		r = e.round(id)
		return r.State >= state
	}, "round %d never reached state %d (at %d)", id, state, r.State)
	return r
}

var userSeq struct {
	sync.Mutex
	n int
}

// player creates a user whose wallet holds balance cents (recharged).
func (e *env) player(balance int64) int64 {
	e.t.Helper()
	ctx := context.Background()
	userSeq.Lock()
	userSeq.n++
	n := userSeq.n
	userSeq.Unlock()
	id := storage.NewID()
	u := storage.User{ID: id, Account: fmt.Sprintf("p%d_%d", n, id%100000), PasswordHash: "x",
		InviteCode: fmt.Sprintf("pro_%d", id), CreatedAt: 1, UpdatedAt: 1}
	if err := storage.CreateUser(ctx, e.db, u); err != nil {
		e.t.Fatal(err)
	}
	if balance > 0 {
		res, err := storage.CommitLedgerBatch(ctx, e.db, e.clock.Now().UnixMilli(), []storage.Op{{Transfers: []storage.Transfer{{
			Debit: storage.RechargeClearing, Credit: storage.Wallet(id), Amount: balance, Kind: storage.KindRecharge,
			IdempotencyKey: fmt.Sprintf("fund-%d", id)}}}}, 0)
		if err != nil || res[0].Err != nil {
			e.t.Fatalf("fund player: %v %+v", err, res)
		}
	}
	return id
}

func (e *env) balance(user int64) int64 {
	e.t.Helper()
	b, err := storage.AccountBalance(context.Background(), e.db, storage.Wallet(user))
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

func (e *env) system(a storage.AccountRef) int64 {
	e.t.Helper()
	b, err := storage.AccountBalance(context.Background(), e.db, a)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

// ledgerOK runs the ledger check (`kj ledger check`).
func (e *env) ledgerOK() storage.LedgerReport {
	e.t.Helper()
	rep, err := storage.CheckLedger(context.Background(), e.db)
	if err != nil {
		e.t.Fatal(err)
	}
	if !rep.OK() {
		e.t.Fatalf("ledger check failed: %s", rep)
	}
	return rep
}

func (e *env) transfers() int {
	e.t.Helper()
	return e.rowCount("ledger_transfers")
}

func (e *env) betCount() int {
	e.t.Helper()
	return e.rowCount("round_bets")
}

// rowCount counts the rows of a table.
func (e *env) rowCount(table string) int {
	e.t.Helper()
	var n int
	if err := e.db.QueryRow(context.Background(), `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

// bet places a bet arriving at the clock's current time.
func (e *env) bet(user int64, r storage.Round, c Content, amount int64, betID string) (storage.RoundBet, error) {
	return e.betAt(user, r, c, amount, betID, e.clock.Now())
}

func (e *env) betAt(user int64, r storage.Round, c Content, amount int64, betID string, at time.Time) (storage.RoundBet, error) {
	return e.desk.Place(context.Background(), BetRequest{UserID: user, WindowID: r.WindowID, Issue: r.Issue,
		Content: c, Amount: amount, BetID: betID, ArrivedAt: at})
}

// pushLog records the business notifications published on the bus.
type pushLog struct {
	mu  sync.Mutex
	all []push
}

type push struct {
	Subject string
	Key     string
	Data    string
}

func recordPushes(t *testing.T, b bus.Bus) *pushLog {
	p := &pushLog{}
	sub, err := b.Subscribe("kj.push.>", func(subject string, data []byte) {
		var n bus.Notification
		if err := json.Unmarshal(data, &n); err != nil {
			t.Errorf("push is not a notification: %s", data)
			return
		}
		p.mu.Lock()
		p.all = append(p.all, push{subject, n.Key, n.Data})
		p.mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sub.Unsubscribe() })
	return p
}

// decoded returns the pushes of key whose subject ends with suffix (""
// for all), decoded as T, in the order they were published.
func decoded[T any](p *pushLog, key, suffix string) []T {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []T
	for _, x := range p.all {
		if x.Key == key && strings.HasSuffix(x.Subject, suffix) {
			var v T
			json.Unmarshal([]byte(x.Data), &v)
			out = append(out, v)
		}
	}
	return out
}

// phases returns the phase pushes seen so far for window w.
func (p *pushLog) phases(w int64) []PhasePush {
	var out []PhasePush
	for _, v := range decoded[PhasePush](p, PushPhase, "") {
		if v.WindowID == w {
			out = append(out, v)
		}
	}
	return out
}

func (p *pushLog) results() []ResultView { return decoded[ResultView](p, PushResult, "") }

// settled returns the settlement pushes to user.
func (p *pushLog) settled(user int64) []SettledPush {
	return decoded[SettledPush](p, PushSettled, fmt.Sprintf(".%d", user))
}

// outcomes returns the round.outcome pushes to user.
func (p *pushLog) outcomes(user int64) []OutcomePush {
	return decoded[OutcomePush](p, PushOutcome, fmt.Sprintf(".%d", user))
}

// waitPhase waits for a phase push of window w for issue and phase.
func (e *env) waitPhase(w int64, issue string, ph Phase) PhasePush {
	e.t.Helper()
	var got PhasePush
	testenv.Eventually(e.t, 10*time.Second, func() bool {
		for _, p := range e.pushes.phases(w) {
			if p.Issue == issue && p.Phase == ph {
				got = p
				return true
			}
		}
		return false
	}, "no %s push for window %d issue %s; got %+v", ph, w, issue, e.pushes.phases(w))
	return got
}

func ms(t time.Time) int64 { return t.UnixMilli() }

func at(msec int64) time.Time { return time.UnixMilli(msec).UTC() }
