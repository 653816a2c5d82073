package loadtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"
)

// W6: profile and wallet reads over HTTP — /api/user/mine and
// /api/user/amount, alternating, each as a different signed-in user, at a
// rising offered rate. Target: p99 ≤ 10 ms at 10,000 requests/s.
func init() {
	register(&Workload{
		ID: "W6", Title: "profile and wallet reads over HTTP",
		Target: Target{Text: "p99 <= 10 ms at 10,000 req/s",
			Limits: map[string]float64{"max:p99Ms": 10, "min:ratePerSec": 9500}},
		Budget: 5 * time.Minute, SmokeBudget: time.Minute,
		Run: runW6,
	})
}

func runW6(ctx context.Context, o *Options) (*Result, error) {
	users, lanes := 2000, 256
	ramp := Ramp{Start: 1000, Step: 1000, Max: 11000, Hold: 10 * time.Second}
	if o.Smoke {
		users, lanes = 20, 4
		ramp = Ramp{Start: 40, Step: 40, Max: 80, Hold: time.Second}
	}
	st, accounts, err := stackWithUsers(ctx, o, StackOptions{Pprof: o.Profile != ""}, FixtureOptions{Users: users, Fund: 100000}, "W6")
	if err != nil {
		return nil, err
	}
	defer st.Close(context.Background())
	node := st.Nodes[0]
	api := NewAPI(node.URL, lanes, "")
	defer api.Close()
	// Warm up: every user once (the pool's connections open, caches fill).
	for i, a := range accounts {
		if err := api.Call(ctx, "/user/amount", a.Token, nil, nil); err != nil {
			return nil, fmt.Errorf("warm-up call %d: %w", i, err)
		}
	}
	paths := []string{"/user/mine", "/user/amount"}
	prof := NewProfiler(o, node, "W6")
	d := Driver{Ramp: ramp, Lanes: lanes, Target: 10 * time.Millisecond,
		Do: func(ctx context.Context, lane int, sched time.Time) (time.Duration, error) {
			a := accounts[rand.IntN(len(accounts))]
			err := api.Call(ctx, paths[rand.IntN(2)], a.Token, nil, nil)
			return time.Since(sched), err
		},
		BeforeStep: func(i int, rate float64) {
			prof.During(ctx, ramp.Hold-time.Second, fmt.Sprintf("%.0f", rate))
		},
		OnStep: func(i int, s StepResult) {
			o.logf("W6 step %d: offered %.0f/s achieved %.0f/s errors %d missed %d %s → %s", i, s.Offered, s.Achieved, s.Errors, s.Missed, s.Latency, s.Verdict)
		},
	}
	mark := st.Mark()
	steps, all := d.Run(ctx)
	prof.Wait()
	server, box, err := st.Measure(ctx, mark)
	if err != nil {
		return nil, err
	}
	r := &Result{Steps: steps, Latency: all.Summary(), Server: server, Box: box,
		Config: map[string]any{"users": users, "lanes": lanes, "ramp": ramp}, Figures: map[string]float64{}}
	for _, s := range steps {
		r.Errors += s.Errors
	}
	// The figure at the target rate: the step offered 10,000/s (in smoke
	// mode, the last step).
	at := atRate(steps, 10000)
	if o.Smoke && len(steps) > 0 {
		at = &steps[len(steps)-1]
	}
	if at != nil {
		r.Figures["p99Ms"], r.Figures["ratePerSec"] = at.Latency.P99, at.Achieved
		r.Figures["p50Ms"], r.Figures["p999Ms"] = at.Latency.P50, at.Latency.P999
	}
	r.Figures["sustainedPerSec"] = Sustained(steps)
	addCostFigures(r, "Req")
	return r, nil
}

// atRate is the step whose offered rate is rate, nil when the ramp
// stopped before it.
func atRate(steps []StepResult, rate float64) *StepResult {
	for i := range steps {
		if steps[i].Offered == rate {
			return &steps[i]
		}
	}
	return nil
}
