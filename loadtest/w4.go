package loadtest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"kj/storage"
)

// W4: bets end to end over HTTP (/api/activation/betRequest) against one
// node with one activation window. Round A: 10,000 players each bet once,
// scheduled evenly over the first 2 s of betting (5,000 bets/s offered);
// then the round is drawn and its 10,000 bets settled, timed from the
// round's drawing deadline to its settled_at. Round B: steady bets at
// listed rates (500, 1,000, 2,000 ... 10,000 bets/s), 2 s per step, to
// find the rate held with p99 ack <= 50 ms. A bet's cost (the server's,
// PostgreSQL's and the generator's CPU per bet) is taken over the 1,000
// bets/s step. Targets: the burst acknowledged with p99 <= 100 ms and no
// error; >= 5,000 bets/s steady with p99 ack <= 50 ms; 10k bets settled
// <= 0.5 s. With -peer floor the burst and the steady ramp, with the same
// players and generator, run against the floor (floor.go) once kj has
// stopped; the floor keeps no rounds, so there is no settlement there.
func init() {
	register(&Workload{
		ID: "W4", Title: "bet burst over HTTP, then steady bets",
		Target: Target{Text: "burst of 10,000 bets in 2 s with p99 ack <= 100 ms, 0 errors; >= 5,000 bets/s steady with p99 ack <= 50 ms; 10k bets settled <= 0.5 s",
			Limits: map[string]float64{"min:sustainedBetsPerSec": 5000, "max:burstP99AckMs": 100, "max:burstErrors": 0, "max:settle10kMs": 500}},
		Budget: 5 * time.Minute, SmokeBudget: 2 * time.Minute,
		Run: runW4,
	})
}

// The W4 steps named by its figures: the steady target and the rate a bet
// is costed at.
const (
	w4TargetRate = 5000
	w4CostRate   = 1000
)

// w4Shape is W4's shape: players (one connection each up to conns), the
// burst's length, the steady ramp, the window's phases, the fund.
type w4Shape struct {
	players, conns         int
	burst                  time.Duration
	steady                 Ramp
	betting, drawing, rest time.Duration
	fund, minBet, maxBet   int64
}

func w4ShapeOf(o *Options) w4Shape {
	sh := w4Shape{players: 10000, conns: 1000, burst: 2 * time.Second,
		// 9 steps of 2 s: inside round B's 22 s of betting.
		steady:  Ramp{Steps: []float64{500, w4CostRate, 2000, 3000, 4000, w4TargetRate, 6500, 8000, 10000}, Hold: 2 * time.Second},
		betting: 22 * time.Second, drawing: 2 * time.Second, rest: 3 * time.Second,
		fund: 100_000_000, minBet: 100, maxBet: 1000000}
	if o.Smoke {
		sh.players, sh.conns, sh.burst = 40, 8, 500*time.Millisecond
		sh.steady = Ramp{Start: 20, Step: 20, Max: 40, Hold: 500 * time.Millisecond}
		sh.betting, sh.drawing, sh.rest = 3*time.Second, time.Second, time.Second
	}
	if len(o.Steps) > 0 {
		sh.steady.Steps = o.Steps // -steps: a short steady ramp (the generator's cost at 1,000 bets/s)
	}
	return sh
}

func (sh w4Shape) config() map[string]any {
	return map[string]any{"players": sh.players, "connections": sh.conns, "burst": sh.burst.String(), "steady": sh.steady,
		"generator": leanGenerator}
}

// w4Bets returns what appends the request placing bet i of an issue:
// each a different player in turn, a fresh betId, amounts and contents
// varied.
func w4Bets(api *LeanAPI, accounts []Account, seq *atomic.Int64) func(issue string) func(req []byte) []byte {
	contents := []string{"BIG", "SMALL", "SINGLE", "DOUBLE"}
	b := make([]byte, 0, 128)
	return func(issue string) func(req []byte) []byte {
		return func(req []byte) []byte {
			i := seq.Add(1) - 1
			a := accounts[i%int64(len(accounts))]
			b = append(b[:0], `{"windowId":1,"issue":"`...)
			b = append(b, issue...)
			b = append(b, `","content":"`...)
			b = append(b, contents[i%4]...)
			b = append(b, `","amount":`...)
			b = strconv.AppendInt(b, 100+(i%50)*10, 10)
			b = append(b, `,"betId":"w4-`...)
			b = append(b, issue...)
			b = append(b, '-')
			b = strconv.AppendInt(b, i, 10)
			b = append(b, `"}`...)
			return api.AppendPost(req, "/activation/betRequest", a.Token, b)
		}
	}
}

// w4Run is the burst and the steady ramp of one server, each step costed.
type w4Run struct {
	burst StepResult
	steps []StepResult // the steady ramp's
	all   *Histogram
}

func (w w4Run) figures(o *Options) map[string]float64 {
	b := w.burst
	f := map[string]float64{"burstBetsPerSec": b.Achieved, "burstP99AckMs": b.Latency.P99, "burstP999AckMs": b.Latency.P999,
		"sustainedBetsPerSec": Sustained(w.steps), "burstErrors": float64(b.Errors)}
	target, cost := float64(w4TargetRate), float64(w4CostRate)
	if o.Smoke && len(w.steps) > 0 {
		target, cost = w.steps[len(w.steps)-1].Offered, w.steps[len(w.steps)-1].Offered
	}
	f["holdsAt5k"] = 0
	if at := atRate(w.steps, target); at != nil {
		f["p99AckMsAt5k"] = at.Latency.P99
		if at.Verdict == Holds.String() {
			f["holdsAt5k"] = 1
		}
	}
	for k, v := range stepCostFigures(w.steps, cost, "Bet", "At1k") {
		f[k] = v
	}
	return f
}

func (w w4Run) notes(o *Options) []string {
	if o.Smoke && len(w.steps) > 0 {
		return []string{fmt.Sprintf("smoke: the figures named At5k and At1k are taken at the smoke's last steady step (%.0f bets/s)", w.steps[len(w.steps)-1].Offered)}
	}
	return nil
}

// w4Burst sends the burst of one bet per player over sh.burst.
func w4Burst(ctx context.Context, o *Options, name string, sh w4Shape, sample func() BoxSample, api *LeanAPI, next func([]byte) []byte) (StepResult, *Histogram, error) {
	rate := float64(sh.players) / sh.burst.Seconds()
	loop := api.Loop(sh.conns, next)
	defer loop.Close()
	// The players have the app open: their connections are, before the
	// burst's clock starts.
	if err := loop.Open(); err != nil {
		return StepResult{}, nil, err
	}
	steps, h := Driver{Name: name + " burst", Ramp: Ramp{Start: rate, Max: rate, Hold: sh.burst}, Lanes: sh.conns, MaxLag: time.Minute,
		Target: 50 * time.Millisecond, Sample: sample, Loop: loop}.Run(ctx)
	if len(steps) == 0 {
		return StepResult{}, nil, ctx.Err()
	}
	b := steps[0]
	o.logf("%s burst: offered %.0f/s achieved %.0f/s errors %d missed %d %s, cpu µs/bet server %.1f postgres %.1f generator %.1f%s",
		name, b.Offered, b.Achieved, b.Errors, b.Missed, b.Latency, perDone(b.ServerCPUSec, b.Done), perDone(b.PostgresCPUSec, b.Done), perDone(b.GeneratorCPUSec, b.Done),
		firstError(loop))
	return b, h, nil
}

// w4Steady runs the steady ramp.
func w4Steady(ctx context.Context, o *Options, name string, sh w4Shape, sample func() BoxSample, api *LeanAPI, next func([]byte) []byte) ([]StepResult, *Histogram) {
	loop := api.Loop(sh.conns, next)
	defer loop.Close()
	return Driver{Name: name, Ramp: sh.steady, Lanes: sh.conns, Target: 50 * time.Millisecond, Sample: sample, Loop: loop,
		OnStep: func(i int, s StepResult) {
			o.logf("%s step %d: offered %.0f/s achieved %.0f/s errors %d missed %d %s, cpu µs/bet server %.1f postgres %.1f generator %.1f → %s%s",
				name, i, s.Offered, s.Achieved, s.Errors, s.Missed, s.Latency, perDone(s.ServerCPUSec, s.Done), perDone(s.PostgresCPUSec, s.Done),
				perDone(s.GeneratorCPUSec, s.Done), s.Verdict, firstError(loop))
		}}.Run(ctx)
}

func runW4(ctx context.Context, o *Options) (*Result, error) {
	if err := checkHTTPPeer(o, "W4"); err != nil {
		return nil, err
	}
	r, accounts, err := runW4KJ(ctx, o)
	if err != nil || o.Peer == "" {
		return r, err
	}
	// kj's server is stopped by now: the floor has the box to itself too.
	if r.Peer, err = runW4Floor(ctx, o, accounts); err != nil {
		return nil, fmt.Errorf("peer %s: %w", o.Peer, err)
	}
	return r, nil
}

func runW4KJ(ctx context.Context, o *Options) (*Result, []Account, error) {
	sh := w4ShapeOf(o)
	st, accounts, err := stackWithUsers(ctx, o, StackOptions{Pprof: o.Profile != "", Env: merge(map[string]string{
		"KJ_WINDOW_COUNT": "1", "KJ_WINDOW_BETTING": sh.betting.String(), "KJ_WINDOW_DRAWING": sh.drawing.String(),
		"KJ_WINDOW_REST": sh.rest.String(), "KJ_WINDOW_MIN_BET": strconv.FormatInt(sh.minBet, 10), "KJ_WINDOW_MAX_BET": strconv.FormatInt(sh.maxBet, 10),
	})}, FixtureOptions{Users: sh.players, Fund: sh.fund}, "W4")
	if err != nil {
		return nil, nil, err
	}
	defer st.Close(context.Background())
	node := st.Nodes[0]
	api, err := NewLeanAPI(node.URL, sh.conns)
	if err != nil {
		return nil, nil, err
	}
	defer api.Close()
	// Every player opens the app before the burst, as players' apps would have.
	if err := warmAPI(ctx, api, accounts, sh.conns); err != nil {
		return nil, nil, err
	}
	var seq atomic.Int64
	bet := w4Bets(api, accounts, &seq)
	sample := NewStepSampler(st.pids()...).Sample
	mark := st.Mark()

	// Round A: the burst.
	roundA, err := nextRound(ctx, st.DB, 300*time.Millisecond)
	if err != nil {
		return nil, nil, err
	}
	o.logf("W4: round %s opens at %s; burst of %d bets over %v", roundA.Issue, time.UnixMilli(roundA.StartsAt).Format("15:04:05.000"), sh.players, sh.burst)
	sleepUntil(ctx, time.UnixMilli(roundA.StartsAt))
	prof := NewProfiler(o, node, "W4")
	prof.During(ctx, sh.burst+time.Second, "burst")
	seq.Store(0)
	var run w4Run
	var burstHist *Histogram
	if run.burst, burstHist, err = w4Burst(ctx, o, "W4", sh, sample, api, bet(roundA.Issue)); err != nil {
		return nil, nil, err
	}
	steadyRun := func(round storage.Round) {
		seq.Store(1 << 20) // bet ids of this ramp never meet the burst's
		run.steps, run.all = w4Steady(ctx, o, "W4", sh, sample, api, bet(round.Issue))
	}
	if o.Smoke {
		// Smoke runs ramp in round A's remaining betting time, saving a
		// round's wait: the settlement then covers more than the burst.
		steadyRun(roundA)
	}
	// Settlement of round A (then, in a real run, round B's ramp).
	settled, err := waitSettled(ctx, st.DB, roundA.ID, time.UnixMilli(roundA.DrawingEndsAt).Add(60*time.Second))
	if err != nil {
		return nil, nil, err
	}
	settleMs := float64(settled.SettledAt - settled.DrawingEndsAt)
	o.logf("W4: round %s: %d bets, drawn %d ms and settled %d ms after its drawing deadline", settled.Issue, settled.BetsCount,
		settled.DrawnAt-settled.DrawingEndsAt, settled.SettledAt-settled.DrawingEndsAt)
	if !o.Smoke {
		roundB, err := nextRound(ctx, st.DB, 300*time.Millisecond)
		if err != nil {
			return nil, nil, err
		}
		sleepUntil(ctx, time.UnixMilli(roundB.StartsAt))
		steadyRun(roundB)
	}
	prof.Wait()
	server, box, err := st.Measure(ctx, mark)
	if err != nil {
		return nil, nil, err
	}
	if rep, err := storage.CheckLedger(ctx, st.DB); err != nil || !rep.OK() {
		return nil, nil, fmt.Errorf("ledger check after W4: %v %s", err, rep)
	}
	run.all.Merge(burstHist)
	cfg := sh.config()
	cfg["betting"], cfg["drawing"], cfg["rest"] = sh.betting.String(), sh.drawing.String(), sh.rest.String()
	r := &Result{Steps: append([]StepResult{run.burst}, run.steps...), Latency: run.all.Summary(), Server: server, Box: box,
		Config: cfg, Figures: run.figures(o)}
	r.Figures["settle10kMs"] = settleMs
	for _, s := range r.Steps {
		r.Errors += s.Errors
	}
	r.Notes = append(r.Notes, fmt.Sprintf("round %s: %d bets settled %.0f ms after its drawing deadline (drawn after %d ms)",
		settled.Issue, settled.BetsCount, settleMs, settled.DrawnAt-settled.DrawingEndsAt))
	r.Notes = append(r.Notes, run.notes(o)...)
	for k, v := range rampCostFigures(r.Steps, "Bet") {
		r.Figures[k] = v
	}
	return r, accounts, nil
}

// runW4Floor sends W4's burst and steady ramp to the floor, with kj's
// players and tokens and the same generator. The floor keeps no rounds:
// every bet goes to one issue, and nothing is drawn or settled.
func runW4Floor(ctx context.Context, o *Options, accounts []Account) (*PeerResult, error) {
	sh := w4ShapeOf(o)
	srv, err := StartFloor(ctx, o, accounts, sh.fund, "-min-bet", strconv.FormatInt(sh.minBet, 10), "-max-bet", strconv.FormatInt(sh.maxBet, 10))
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	api, err := NewLeanAPI(srv.URL(), sh.conns)
	if err != nil {
		return nil, err
	}
	defer api.Close()
	if err := warmAPI(ctx, api, accounts, sh.conns); err != nil {
		return nil, err
	}
	var seq atomic.Int64
	bet := w4Bets(api, accounts, &seq)
	sample := NewStepSampler(srv.PID).Sample
	mark := srv.mark()
	var run w4Run
	var burstHist *Histogram
	if run.burst, burstHist, err = w4Burst(ctx, o, "W4 floor", sh, sample, api, bet("floor-a")); err != nil {
		return nil, err
	}
	seq.Store(1 << 20)
	run.steps, run.all = w4Steady(ctx, o, "W4 floor", sh, sample, api, bet("floor-b"))
	server, box, err := srv.measure(mark)
	if err != nil {
		return nil, err
	}
	run.all.Merge(burstHist)
	steps := append([]StepResult{run.burst}, run.steps...)
	cfg := sh.config()
	cfg["server"] = "loadtest/cmd/floor: net/http and encoding/json, no middleware, balances and bets in maps under one mutex"
	pr := &PeerResult{Name: srv.Spec.Name, Version: srv.Spec.Version, Steps: steps, Latency: run.all.Summary(), Server: server, Box: box,
		Figures: run.figures(o), Config: cfg,
		Notes: append([]string{"the floor keeps no rounds: the burst and the steady ramp only, no drawing or settlement (no settle10kMs)"}, run.notes(o)...)}
	for k, v := range rampCostFigures(steps, "Bet") {
		pr.Figures[k] = v
	}
	o.logf("W4 floor: %s", figuresText(&Result{Figures: pr.Figures}))
	return pr, nil
}

func merge(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// warmAPI has every player open the app once (its wallet, /user/amount)
// before the burst, over n concurrent keep-alive connections, as players'
// apps have done before they bet: the connections are open and the node has
// seen each player's token (its token cache holds them, as it would).
func warmAPI(ctx context.Context, api interface {
	Call(ctx context.Context, path, token string, body, out any) error
}, accounts []Account, n int) error {
	next := make(chan Account)
	errc := make(chan error, n)
	for range n {
		go func() {
			var first error
			for a := range next {
				if err := api.Call(ctx, "/user/amount", a.Token, nil, nil); err != nil && first == nil {
					first = err
				}
			}
			errc <- first
		}()
	}
	for _, a := range accounts {
		next <- a
	}
	close(next)
	var first error
	for range n {
		if err := <-errc; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// nextRound waits for window 1's next round to be committed with a start
// at least lead ahead, so the generator can be ready when betting opens.
func nextRound(ctx context.Context, db storage.DB, lead time.Duration) (storage.Round, error) {
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		r, err := storage.LatestRound(ctx, db, 1)
		if err == nil && time.UnixMilli(r.StartsAt).After(time.Now().Add(lead)) {
			return r, nil
		}
		if err != nil && !errors.Is(err, storage.ErrNotFound) {
			return r, err
		}
		select {
		case <-ctx.Done():
			return r, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return storage.Round{}, errors.New("no round scheduled within 2 minutes")
}

// waitSettled polls the round until it is settled.
func waitSettled(ctx context.Context, db storage.DB, id int64, deadline time.Time) (storage.Round, error) {
	for {
		r, err := storage.RoundByID(ctx, db, id)
		if err != nil {
			return r, err
		}
		if r.State == storage.RoundSettled {
			return r, nil
		}
		if time.Now().After(deadline) {
			return r, fmt.Errorf("round %s not settled by %s (state %d)", r.Issue, deadline.Format("15:04:05"), r.State)
		}
		select {
		case <-ctx.Done():
			return r, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func sleepUntil(ctx context.Context, t time.Time) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Until(t)):
	}
}

// waitUntil waits for t; false when stop closes or ctx ends first.
func waitUntil(ctx context.Context, stop <-chan struct{}, t time.Time) bool {
	select {
	case <-stop:
		return false
	case <-ctx.Done():
		return false
	case <-time.After(time.Until(t)):
		return true
	}
}
