package window

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"kj/internal/bus"
	"kj/internal/clock"
	"kj/storage"
)

// tick is the window's timer firing for the deadline it was armed for.
type tick struct {
	gen uint64
}

// windowActor runs one window's rounds forever: betting → drawing → rest.
// It holds no state the store does not have: on start (and after a
// supervisor restart, or on another node after a takeover) it loads the
// window's latest round and does whatever is due by now, so a restart in
// any phase resumes the same round with the same seed, and a round whose
// draw or settlement was interrupted is finished exactly once (every step
// is a conditional update on the state it leaves).
//
// Deadlines are absolute times stored in the round, all computed from its
// start. One timer per window is armed for the next deadline; when it fires
// late the work is still judged against the stored deadline, and bets are
// judged by their arrival time, never by when the timer ran.
type windowActor struct {
	run *Runner
	id  int64

	round *storage.Round // the window's latest round
	prev  *storage.Round // the round before it, for the rest phase's result

	timer clock.Timer
	gen   uint64
	due   time.Time // the deadline the armed timer is for

	said     phaseKey // the last phase announced, so a change is pushed once
	failures int      // consecutive store failures, for the retry backoff
	idle     bool     // disabled window with nothing left to do
}

type phaseKey struct {
	round int64
	phase Phase
}

func (a *windowActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		a.step(ctx)
	case tick:
		if m.gen != a.gen {
			return // a timer that was replaced
		}
		late := a.run.Clock.Now().Sub(a.due)
		phaseLateness.Observe(late.Seconds())
		if a.run.onLate != nil {
			a.run.onLate(late)
		}
		a.step(ctx)
	case *actor.Stopping, *actor.Restarting:
		a.stopTimer()
	}
}

func (a *windowActor) stopTimer() {
	if a.timer != nil {
		a.timer.Stop()
		a.timer = nil
	}
	a.gen++
}

// arm sets the one timer of this window for at.
func (a *windowActor) arm(ctx actor.Context, at time.Time) {
	a.stopTimer()
	gen, self, root := a.gen, ctx.Self(), ctx.ActorSystem().Root
	a.due = at
	a.timer = a.run.Clock.AfterFunc(at.Sub(a.run.Clock.Now()), func() { root.Send(self, tick{gen: gen}) })
	if a.run.onArm != nil {
		a.run.onArm(a.id, at)
	}
}

// step does everything that is due by now, then arms the timer for the next
// deadline. A store failure is retried with a growing delay (up to 5 s); it
// never skips a step.
func (a *windowActor) step(ctx actor.Context) {
	for range 64 { // bounded: each pass moves the round forward or returns
		next, err := a.advance(ctx)
		if err != nil {
			a.failures++
			delay := min(time.Duration(a.failures)*250*time.Millisecond, 5*time.Second)
			a.run.Log.Error("window step failed", "window", a.id, "retry_in", delay, "err", err)
			a.round, a.prev = nil, nil // reload from the store on retry
			a.arm(ctx, a.run.Clock.Now().Add(delay))
			return
		}
		a.failures = 0
		if !next.IsZero() {
			a.arm(ctx, next)
			return
		}
		if a.idle {
			a.stopTimer()
			return
		}
	}
	// Far behind (a long pause): let the mailbox breathe, then go on.
	a.arm(ctx, a.run.Clock.Now())
}

// advance makes one move of the round and returns the zero time when it
// should be called again at once, or the next deadline to wait for.
func (a *windowActor) advance(ctx actor.Context) (time.Time, error) {
	c := context.Background()
	now := a.run.Clock.Now()
	ms := now.UnixMilli()
	if a.round == nil {
		if err := a.load(c); err != nil {
			return time.Time{}, err
		}
		if a.round == nil {
			return time.Time{}, a.create(c, nil, now)
		}
	}
	r := a.round
	switch {
	case ms < r.StartsAt:
		// Rest of the previous round; the next one is committed and waits.
		if a.prev != nil {
			a.announce(c, a.prev, PhaseRest, r.StartsAt, r)
		}
		return time.UnixMilli(r.StartsAt), nil
	case r.State == storage.RoundOpen && ms < r.BettingEndsAt:
		a.announce(c, r, PhaseBetting, r.BettingEndsAt, nil)
		return time.UnixMilli(r.BettingEndsAt), nil
	case r.State == storage.RoundOpen:
		a.announce(c, r, PhaseDrawing, r.DrawingEndsAt, nil)
		if closeAt := time.UnixMilli(r.BettingEndsAt).Add(closeGrace(*r)); now.Before(closeAt) {
			return closeAt, nil
		}
		if err := a.close(c, r, ms); err != nil {
			return time.Time{}, err
		}
		return time.Time{}, a.reload(c)
	case r.State == storage.RoundClosed && ms < r.DrawingEndsAt:
		a.announce(c, r, PhaseDrawing, r.DrawingEndsAt, nil)
		return time.UnixMilli(r.DrawingEndsAt), nil
	case r.State == storage.RoundClosed:
		wait, err := a.draw(c, r, now)
		if err != nil || !wait.IsZero() {
			return wait, err // a beacon round not published yet is waited for
		}
		return time.Time{}, a.reload(c)
	case r.State == storage.RoundDrawn, r.State == storage.RoundVoided && r.SettledAt == 0:
		// A voided round's bets are refunded the way a drawn round's are paid.
		if err := a.settle(c, r); err != nil {
			return time.Time{}, err
		}
		return time.Time{}, a.reload(c)
	default: // settled, or voided and refunded: schedule the next round
		return time.Time{}, a.create(c, r, now)
	}
}

// load reads the window's latest round and the one before it.
func (a *windowActor) load(c context.Context) error {
	r, err := storage.LatestRound(c, a.run.DB, a.id)
	if errors.Is(err, storage.ErrNotFound) {
		a.round, a.prev = nil, nil
		return nil
	}
	if err != nil {
		return err
	}
	a.round, a.prev = &r, nil
	a.run.Board.Moved(c, a.run.Bus, r) // a takeover tells where the round stands
	if r.Seq > 1 {
		p, err := storage.PreviousDrawnRound(c, a.run.DB, a.id, r.Seq)
		if err != nil && !errors.Is(err, storage.ErrNotFound) {
			return err
		}
		if err == nil {
			a.prev = &p
		}
	}
	return nil
}

func (a *windowActor) reload(c context.Context) error {
	r, err := storage.RoundByID(c, a.run.DB, a.round.ID)
	if err != nil {
		return err
	}
	a.round = &r
	a.run.Board.Moved(c, a.run.Bus, r)
	return nil
}

// create stores the round after prev (nil: the window's first) with a fresh
// seed, before its betting opens. A disabled window opens no new round.
func (a *windowActor) create(c context.Context, prev *storage.Round, now time.Time) error {
	w, err := storage.RoundWindowByID(c, a.run.DB, a.id)
	if err != nil {
		return err
	}
	if w.Enabled != 1 {
		a.idle = true
		return nil
	}
	a.idle = false
	seed, err := NewSeed()
	if err != nil {
		return err
	}
	start, seq := now, int64(1)
	if prev != nil {
		start, seq = nextStart(*prev, w, now), prev.Seq+1
	}
	r := planRound(w, seq, nextIssue(prev, w.ID, start), start, seed)
	if err := a.withBeacon(c, &r); err != nil {
		return err
	}
	err = storage.CreateRound(c, a.run.DB, r)
	if errors.Is(err, storage.ErrConflict) {
		// Another node (an overlapping lease) created it first: use theirs.
		return a.load(c)
	}
	if err != nil {
		return err
	}
	roundsCreated.Inc()
	a.round, a.prev = &r, prev
	a.run.Board.Moved(c, a.run.Bus, r)
	return nil
}

// settle pays out the drawn round in batches, pushing each player their
// results as each batch commits, then marks the round settled.
func (a *windowActor) settle(c context.Context, r *storage.Round) error {
	start := time.Now()
	// The round is drawn, so its bet count is final, and settled_count
	// moves in the same transaction as the bets it counts: once every bet
	// is counted settled there is nothing left to ask the desk for. That
	// spares the desk's single writer a transaction per round without
	// bets, and the final empty one of every round with bets (with 1,000
	// windows, hundreds a second queued behind the bets).
	settled := r.SettledCount
	// Each player's whole round, for the round.outcome push once it is paid.
	outcomes := map[int64]*OutcomePush{}
	// A batch's round.settled pushes (an encoding and a publish each, the
	// actor's own CPU) go out while the desk settles the next batch rather
	// than between the two, where the store would wait for them. One
	// goroutine sends them in batch order, so a player's pushes keep
	// theirs; all are out before the round is marked settled, as before.
	pushes := make(chan map[int64]*SettledPush, 4)
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		for byUser := range pushes {
			for uid, p := range byUser {
				a.publish(c, fmt.Sprint(uid), PushSettled, p)
			}
		}
	}()
	pushed := false
	flush := func() {
		if !pushed {
			pushed = true
			close(pushes)
			<-sent
		}
	}
	defer flush()
	for settled < r.BetsCount {
		bets, err := a.run.Desk.settle(c, *r, a.run.settleBatch())
		if err != nil {
			return err
		}
		if len(bets) == 0 {
			break
		}
		settled += int64(len(bets))
		betsSettled.Add(float64(len(bets)))
		byUser := map[int64]*SettledPush{}
		for _, b := range bets {
			p := byUser[b.UserID]
			if p == nil {
				p = &SettledPush{WindowID: r.WindowID, Issue: r.Issue}
				byUser[b.UserID] = p
			}
			p.Bets = append(p.Bets, ViewBet(b))
			p.Payout += b.Payout
			op := outcomes[b.UserID]
			if op == nil {
				op = &OutcomePush{Result: ViewResult(*r)}
				outcomes[b.UserID] = op
			}
			op.Bets++
			op.Staked += b.Amount
			op.Payout += b.Payout
		}
		pushes <- byUser
	}
	finish := storage.FinishRound
	if r.State == storage.RoundVoided {
		finish = storage.FinishVoidedRound
		outcomes = nil // refunds, not results: round.voided and round.settled told them
	}
	// Every round.settled push is out before the round reads settled.
	flush()
	if _, err := finish(c, a.run.DB, r.ID, a.run.Clock.Now().UnixMilli()); err != nil {
		return err
	}
	settleSeconds.Observe(time.Since(start).Seconds())
	for uid, p := range outcomes {
		a.publish(c, fmt.Sprint(uid), PushOutcome, p)
	}
	return nil
}

// announce pushes a phase change once per round and phase.
func (a *windowActor) announce(c context.Context, r *storage.Round, phase Phase, deadline int64, next *storage.Round) {
	k := phaseKey{r.ID, phase}
	if a.said == k {
		return
	}
	a.said = k
	p := PhasePush{WindowID: a.id, Issue: r.Issue, Phase: phase, ServerTime: a.run.Clock.Now().UnixMilli(),
		Deadline: deadline, SeedHash: r.SeedHash}
	if next != nil {
		p.Next = &NextRound{Issue: next.Issue, StartsAt: next.StartsAt, SeedHash: next.SeedHash}
	}
	a.publish(c, "", PushPhase, p)
}

// publish sends a business notification: to one user, or to everyone when
// userID is empty. The bus is at-most-once; what matters is in the store.
func (a *windowActor) publish(c context.Context, userID, key string, v any) {
	var err error
	if userID == "" {
		err = bus.Broadcast(c, a.run.Bus, key, v)
	} else {
		err = bus.PushToUser(c, a.run.Bus, userID, key, v)
	}
	if err != nil {
		a.run.Log.Warn("window push failed", "window", a.id, "key", key, "err", err)
	}
}
