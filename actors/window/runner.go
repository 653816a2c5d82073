// Package window runs the activation windows: scheduled betting rounds
// (betting → drawing → rest) with provably fair draws, settled through the
// double-entry ledger.
//
//   - Runner: on each node, takes leases on windows from the store and runs
//     one supervised window actor per window it holds; another node takes a
//     window over within seconds when its holder dies.
//   - windowActor: one per window; moves its rounds through their phases on
//     absolute deadlines, draws, settles in batches, pushes phases, results
//     and settlements.
//   - Desk: on every node, accepts bets in batches against the round's
//     stored deadline, whichever node runs the window.
//   - Rounds: what the HTTP routes read and call.
//   - Draw / Verify: the provably fair recipe.
package window

import (
	"context"
	"log/slog"
	"sort"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"kj/internal/bus"
	"kj/internal/clock"
	"kj/storage"
)

// Runner runs, on one node, the windows whose lease this node holds.
type Runner struct {
	DB    storage.DB
	Desk  *Desk // settles the rounds (this node's writer of round money)
	Bus   bus.Bus
	Clock clock.Clock
	Log   *slog.Logger
	// Node names this node as the lease holder; nodes must differ.
	Node string
	// LeaseTTL is how long a lease lasts without renewal (default 5 s); the
	// holder renews every LeaseTTL/5, so a dead node's windows are taken
	// over within about LeaseTTL + LeaseTTL/5.
	LeaseTTL time.Duration
	// SettleBatch is how many bets one settlement batch pays (default
	// defaultSettleBatch; on PostgreSQL settlePartsPG transactions side by
	// side, each over its part of the players).
	SettleBatch int
	// Board, when set, is this node's board: each move of a window run
	// here reaches it at once (the other nodes' over the bus).
	Board *Board
	// Beacon, when set, decides each new round's draw together with its
	// seed (beacon.go); nil draws from the seed alone, which the operator
	// can foresee.
	Beacon *Beacon

	props  []actor.PropsOption                    // extra window-actor options (tests inject faults)
	onArm  func(window int64, deadline time.Time) // tests: a window armed its timer
	onLate func(late time.Duration)               // benchmarks: a timer was handled this late

	mu       sync.Mutex
	system   *actor.ActorSystem
	pid      *actor.PID
	children map[int64]*actor.PID
}

func (r *Runner) leaseTTL() time.Duration {
	if r.LeaseTTL <= 0 {
		return 5 * time.Second
	}
	return r.LeaseTTL
}

// defaultSettleBatch is the bets a settlement batch pays by default. Each
// batch costs its transactions' fixed round trips and commits, and the
// window actor's pushes of one batch run between it and the next: 10,000
// bets settled in ~80-95 ms in batches of 5,000 against ~100-115 ms in
// batches of 2,000 (BenchmarkW4Settle10k, shared 2-core box), and no
// faster in one batch of 10,000, whose players would all wait for the
// whole round's transaction before the first push.
const defaultSettleBatch = 5000

func (r *Runner) settleBatch() int {
	if r.SettleBatch <= 0 {
		return defaultSettleBatch
	}
	return r.SettleBatch
}

// Start spawns the supervisor of this node's windows in system. It takes
// its leases at once and then keeps renewing them.
func (r *Runner) Start(system *actor.ActorSystem) error {
	if r.Log == nil {
		r.Log = slog.Default()
	}
	r.mu.Lock()
	r.system, r.children = system, map[int64]*actor.PID{}
	r.mu.Unlock()
	// Window actors are restarted when they fail (a panic); more than 10
	// failures a minute stops one, and the next lease round respawns it.
	strategy := actor.NewOneForOneStrategy(10, time.Minute, actor.DefaultDecider)
	props := actor.PropsFromProducer(func() actor.Actor { return &supervisor{run: r} },
		actor.WithSupervisor(strategy))
	pid, err := system.Root.SpawnNamed(props, "windows")
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.pid = pid
	r.mu.Unlock()
	return nil
}

// Stop stops this node's window actors and releases their leases so another
// node takes them over at once.
func (r *Runner) Stop(ctx context.Context) {
	r.mu.Lock()
	system, pid := r.system, r.pid
	r.pid = nil
	r.mu.Unlock()
	if pid == nil {
		return
	}
	_ = system.Root.StopFuture(pid).Wait()
	if err := storage.ReleaseRoundLeases(ctx, r.DB, r.Node); err != nil {
		r.Log.Warn("releasing window leases failed", "err", err)
	}
}

// Running lists the windows this node runs now.
func (r *Runner) Running() []int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	ids := make([]int64, 0, len(r.children))
	for id := range r.children {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

func (r *Runner) childPID(id int64) *actor.PID {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.children[id]
}

type leaseTick struct{ gen uint64 }

// supervisor is the parent of this node's window actors: it holds the
// leases and starts or stops a window actor as its lease comes or goes.
type supervisor struct {
	run       *Runner
	byPID     map[string]int64
	timer     clock.Timer
	gen       uint64
	lastRenew time.Time
}

func (s *supervisor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		s.byPID = map[string]int64{}
		s.lease(ctx)
	case leaseTick:
		if m.gen == s.gen {
			s.lease(ctx)
		}
	case *actor.Terminated:
		if id, ok := s.byPID[m.Who.Id]; ok {
			delete(s.byPID, m.Who.Id)
			s.run.mu.Lock()
			if p := s.run.children[id]; p != nil && p.Id == m.Who.Id {
				delete(s.run.children, id)
			}
			s.run.mu.Unlock()
			windowsRunning.Dec()
		}
	case *actor.Stopping:
		if s.timer != nil {
			s.timer.Stop()
		}
		s.gen++
	}
}

// lease renews and takes leases, then makes the running windows match.
func (s *supervisor) lease(ctx actor.Context) {
	run := s.run
	now := run.Clock.Now()
	ttl := run.leaseTTL()
	held, err := storage.AcquireRoundLeases(context.Background(), run.DB, run.Node, now.UnixMilli(), ttl.Milliseconds())
	want := map[int64]bool{}
	if err != nil {
		run.Log.Error("window leases: renewal failed", "node", run.Node, "err", err)
		if now.Sub(s.lastRenew) < ttl {
			// Still ours until the old expiry: keep running what runs.
			for _, id := range run.Running() {
				want[id] = true
			}
		}
	} else {
		s.lastRenew = now
		for _, l := range held {
			want[l.WindowID] = true
		}
	}
	run.mu.Lock()
	var stop []*actor.PID
	for id, pid := range run.children {
		if !want[id] {
			stop = append(stop, pid)
			delete(run.children, id)
		}
	}
	for id := range want {
		if run.children[id] != nil {
			continue
		}
		id := id
		props := actor.PropsFromProducer(func() actor.Actor { return &windowActor{run: run, id: id} }, run.props...)
		pid := ctx.Spawn(props)
		run.children[id] = pid
		s.byPID[pid.Id] = id
		windowsRunning.Inc()
		run.Log.Info("window started", "window", id, "node", run.Node)
	}
	run.mu.Unlock()
	for _, pid := range stop {
		ctx.Stop(pid)
		run.Log.Info("window lease lost; stopping", "node", run.Node, "pid", pid.Id)
	}
	s.gen++
	gen, self, root := s.gen, ctx.Self(), ctx.ActorSystem().Root
	s.timer = run.Clock.AfterFunc(ttl/5, func() { root.Send(self, leaseTick{gen: gen}) })
}
