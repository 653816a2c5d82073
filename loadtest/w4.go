package loadtest

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"kj/storage"
)

// W4: bets end to end over HTTP (/api/activation/betRequest) against one
// node with one activation window. Round A: 10,000 players each bet once,
// scheduled evenly over the first 2 s of betting (5,000 bets/s offered);
// then the round is drawn and its 10,000 bets settled, timed from the
// round's drawing deadline to its settled_at. Round B: steady bets at a
// rising rate, 2 s per step, to find the rate held with p99 ack <= 50 ms.
// Targets: the burst acknowledged with p99 <= 100 ms and no error; >= 5,000
// bets/s steady with p99 ack <= 50 ms; 10k bets settled <= 0.5 s.
func init() {
	register(&Workload{
		ID: "W4", Title: "bet burst over HTTP, then steady bets",
		Target: Target{Text: "burst of 10,000 bets in 2 s with p99 ack <= 100 ms, 0 errors; >= 5,000 bets/s steady with p99 ack <= 50 ms; 10k bets settled <= 0.5 s",
			Limits: map[string]float64{"min:sustainedBetsPerSec": 5000, "max:burstP99AckMs": 100, "max:burstErrors": 0, "max:settle10kMs": 500}},
		Budget: 5 * time.Minute, SmokeBudget: 2 * time.Minute,
		Run: runW4,
	})
}

func runW4(ctx context.Context, o *Options) (*Result, error) {
	players, conns := 10000, 1000
	burst := 2 * time.Second
	steady := Ramp{Start: 500, Factor: 1.5, Max: 16000, Hold: 2 * time.Second}
	betting, drawing, rest := 22*time.Second, 2*time.Second, 3*time.Second
	if o.Smoke {
		players, conns = 40, 8
		burst = 500 * time.Millisecond
		steady = Ramp{Start: 20, Step: 20, Max: 40, Hold: 500 * time.Millisecond}
		betting, drawing, rest = 3*time.Second, time.Second, time.Second
	}
	st, accounts, err := stackWithUsers(ctx, o, StackOptions{Pprof: o.Profile != "", Env: merge(map[string]string{
		"KJ_WINDOW_COUNT": "1", "KJ_WINDOW_BETTING": betting.String(), "KJ_WINDOW_DRAWING": drawing.String(),
		"KJ_WINDOW_REST": rest.String(), "KJ_WINDOW_MIN_BET": "100", "KJ_WINDOW_MAX_BET": "1000000",
	})}, FixtureOptions{Users: players, Fund: 100_000_000}, "W4")
	if err != nil {
		return nil, err
	}
	defer st.Close(context.Background())
	node := st.Nodes[0]
	api := NewAPI(node.URL, conns, "")
	defer api.Close()
	// Every player opens the app before the burst, as players' apps would have.
	if err := warmAPI(ctx, api, accounts, conns); err != nil {
		return nil, err
	}
	contents := []string{"BIG", "SMALL", "SINGLE", "DOUBLE"}
	var seq atomic.Int64
	bet := func(round storage.Round) func(context.Context, int, time.Time) (time.Duration, error) {
		return func(ctx context.Context, lane int, sched time.Time) (time.Duration, error) {
			i := seq.Add(1) - 1
			a := accounts[i%int64(len(accounts))]
			err := api.Call(ctx, "/activation/betRequest", a.Token, map[string]any{"windowId": 1, "issue": round.Issue,
				"content": contents[i%4], "amount": 100 + (i%50)*10, "betId": fmt.Sprintf("w4-%s-%d", round.Issue, i)}, nil)
			return time.Since(sched), err
		}
	}
	mark := st.Mark()

	// Round A: the burst.
	roundA, err := nextRound(ctx, st.DB, 300*time.Millisecond)
	if err != nil {
		return nil, err
	}
	o.logf("W4: round %s opens at %s; burst of %d bets over %v", roundA.Issue, time.UnixMilli(roundA.StartsAt).Format("15:04:05.000"), players, burst)
	sleepUntil(ctx, time.UnixMilli(roundA.StartsAt))
	prof := NewProfiler(o, node, "W4")
	prof.During(ctx, burst+time.Second, "burst")
	rate := float64(players) / burst.Seconds()
	seq.Store(0)
	burstSteps, burstHist := Driver{Ramp: Ramp{Start: rate, Max: rate, Hold: burst}, Lanes: conns, MaxLag: time.Minute, Target: 50 * time.Millisecond, Do: bet(roundA)}.Run(ctx)
	if len(burstSteps) == 0 {
		return nil, ctx.Err()
	}
	b := burstSteps[0]
	o.logf("W4 burst: offered %.0f/s achieved %.0f/s errors %d missed %d %s", b.Offered, b.Achieved, b.Errors, b.Missed, b.Latency)

	steadyRun := func(round storage.Round) ([]StepResult, *Histogram) {
		seq.Store(1 << 20) // bet ids of this ramp never meet the burst's
		return Driver{Ramp: steady, Lanes: conns, Target: 50 * time.Millisecond, Do: bet(round),
			OnStep: func(i int, s StepResult) {
				o.logf("W4 step %d: offered %.0f/s achieved %.0f/s errors %d missed %d %s → %s", i, s.Offered, s.Achieved, s.Errors, s.Missed, s.Latency, s.Verdict)
			}}.Run(ctx)
	}
	var steps []StepResult
	var all *Histogram
	if o.Smoke {
		// Smoke runs ramp in round A's remaining betting time, saving a
		// round's wait: the settlement then covers more than the burst.
		steps, all = steadyRun(roundA)
	}
	// Settlement of round A (then, in a real run, round B's ramp).
	settled, err := waitSettled(ctx, st.DB, roundA.ID, time.UnixMilli(roundA.DrawingEndsAt).Add(60*time.Second))
	if err != nil {
		return nil, err
	}
	settleMs := float64(settled.SettledAt - settled.DrawingEndsAt)
	o.logf("W4: round %s: %d bets, drawn %d ms and settled %d ms after its drawing deadline", settled.Issue, settled.BetsCount,
		settled.DrawnAt-settled.DrawingEndsAt, settled.SettledAt-settled.DrawingEndsAt)
	if !o.Smoke {
		roundB, err := nextRound(ctx, st.DB, 300*time.Millisecond)
		if err != nil {
			return nil, err
		}
		sleepUntil(ctx, time.UnixMilli(roundB.StartsAt))
		steps, all = steadyRun(roundB)
	}
	prof.Wait()
	server, box, err := st.Measure(ctx, mark)
	if err != nil {
		return nil, err
	}
	if rep, err := storage.CheckLedger(ctx, st.DB); err != nil || !rep.OK() {
		return nil, fmt.Errorf("ledger check after W4: %v %s", err, rep)
	}
	all.Merge(burstHist)
	r := &Result{Steps: append([]StepResult{b}, steps...), Latency: all.Summary(), Server: server, Box: box,
		Config: map[string]any{"players": players, "connections": conns, "burst": burst.String(), "steady": steady,
			"betting": betting.String(), "drawing": drawing.String(), "rest": rest.String()},
		Figures: map[string]float64{
			"burstBetsPerSec": b.Achieved, "burstP99AckMs": b.Latency.P99, "burstP999AckMs": b.Latency.P999,
			"settle10kMs": settleMs, "sustainedBetsPerSec": Sustained(steps), "burstErrors": float64(b.Errors),
		}}
	for _, s := range r.Steps {
		r.Errors += s.Errors
	}
	r.Notes = append(r.Notes, fmt.Sprintf("round %s: %d bets settled %.0f ms after its drawing deadline (drawn after %d ms)",
		settled.Issue, settled.BetsCount, settleMs, settled.DrawnAt-settled.DrawingEndsAt))
	addCostFigures(r, "Bet")
	return r, nil
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
func warmAPI(ctx context.Context, api *API, accounts []Account, n int) error {
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
