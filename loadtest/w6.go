package loadtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"
)

// W6: profile and wallet reads over HTTP — /api/user/mine and
// /api/user/amount, alternating at random, each as a random signed-in
// user, at a rising offered rate (1,000 to 11,000 req/s by 1,000). Target:
// p99 <= 10 ms at 10,000 requests/s. A read's cost (the server's,
// PostgreSQL's and the generator's CPU per request) is taken over the
// 2,000 req/s step. With -peer floor the same ramp, with the same users
// and generator, runs against the floor (floor.go) once kj has stopped.
func init() {
	register(&Workload{
		ID: "W6", Title: "profile and wallet reads over HTTP",
		Target: Target{Text: "p99 <= 10 ms at 10,000 req/s",
			Limits: map[string]float64{"max:p99Ms": 10, "min:ratePerSec": 9500}},
		Budget: 5 * time.Minute, SmokeBudget: time.Minute,
		Run: runW6,
	})
}

// The W6 steps named by its figures: the target rate and the rate a read
// is costed at.
const (
	w6TargetRate = 10000
	w6CostRate   = 2000
)

var w6Paths = []string{"/user/mine", "/user/amount"}

func w6Shape(o *Options) (users, lanes int, ramp Ramp) {
	users, lanes = 2000, 256
	ramp = Ramp{Start: 1000, Step: 1000, Max: 11000, Hold: 10 * time.Second}
	if o.Smoke {
		users, lanes = 20, 4
		ramp = Ramp{Start: 40, Step: 40, Max: 80, Hold: time.Second}
	}
	if len(o.Steps) > 0 {
		ramp.Steps = o.Steps // -steps: a short run of some steps (the generator's cost at 2,000 req/s)
	}
	return
}

func runW6(ctx context.Context, o *Options) (*Result, error) {
	if err := checkHTTPPeer(o, "W6"); err != nil {
		return nil, err
	}
	r, accounts, err := runW6KJ(ctx, o)
	if err != nil || o.Peer == "" {
		return r, err
	}
	// kj's server is stopped by now: the floor has the box to itself too.
	if r.Peer, err = runW6Floor(ctx, o, accounts); err != nil {
		return nil, fmt.Errorf("peer %s: %w", o.Peer, err)
	}
	return r, nil
}

func runW6KJ(ctx context.Context, o *Options) (*Result, []Account, error) {
	users, lanes, ramp := w6Shape(o)
	st, accounts, err := stackWithUsers(ctx, o, StackOptions{Pprof: o.Profile != ""}, FixtureOptions{Users: users, Fund: 100000}, "W6")
	if err != nil {
		return nil, nil, err
	}
	defer st.Close(context.Background())
	node := st.Nodes[0]
	api, err := NewLeanAPI(node.URL, lanes)
	if err != nil {
		return nil, nil, err
	}
	defer api.Close()
	sizes, err := w6Warm(ctx, api, accounts)
	if err != nil {
		return nil, nil, err
	}
	prof := NewProfiler(o, node, "W6")
	mark := st.Mark()
	steps, all := w6Ramp(ctx, o, "W6", api, accounts, lanes, ramp, NewStepSampler(st.pids()...).Sample,
		func(i int, rate float64) { prof.During(ctx, ramp.Hold-time.Second, fmt.Sprintf("%.0f", rate)) })
	prof.Wait()
	server, box, err := st.Measure(ctx, mark)
	if err != nil {
		return nil, nil, err
	}
	r := &Result{Steps: steps, Latency: all.Summary(), Server: server, Box: box,
		Config:  map[string]any{"users": users, "lanes": lanes, "ramp": ramp, "generator": leanGenerator, "answerBytes": sizes},
		Figures: w6Figures(o, steps)}
	for _, s := range steps {
		r.Errors += s.Errors
	}
	for k, v := range rampCostFigures(r.Steps, "Req") {
		r.Figures[k] = v
	}
	r.Notes = append(r.Notes, w6StepNotes(o, steps)...)
	return r, accounts, nil
}

// runW6Floor runs W6's ramp against the floor, with kj's users and tokens.
func runW6Floor(ctx context.Context, o *Options, accounts []Account) (*PeerResult, error) {
	users, lanes, ramp := w6Shape(o)
	srv, err := StartFloor(ctx, o, accounts, 100000)
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	api, err := NewLeanAPI(srv.URL(), lanes)
	if err != nil {
		return nil, err
	}
	defer api.Close()
	sizes, err := w6Warm(ctx, api, accounts)
	if err != nil {
		return nil, err
	}
	mark := srv.mark()
	steps, all := w6Ramp(ctx, o, "W6 floor", api, accounts, lanes, ramp, NewStepSampler(srv.PID).Sample, nil)
	server, box, err := srv.measure(mark)
	if err != nil {
		return nil, err
	}
	pr := &PeerResult{Name: srv.Spec.Name, Version: srv.Spec.Version, Steps: steps, Latency: all.Summary(), Server: server, Box: box,
		Figures: w6Figures(o, steps),
		Config: map[string]any{"users": users, "lanes": lanes, "ramp": ramp, "generator": leanGenerator, "answerBytes": sizes,
			"server": "loadtest/cmd/floor: net/http and encoding/json, no middleware, users and balances in a map"}}
	for k, v := range rampCostFigures(steps, "Req") {
		pr.Figures[k] = v
	}
	pr.Notes = append(pr.Notes, w6StepNotes(o, steps)...)
	o.logf("W6 floor: %s", figuresText(&Result{Figures: pr.Figures}))
	return pr, nil
}

// leanGenerator says which client the HTTP workloads send with.
const leanGenerator = "HTTPLoop (loop_linux.go): one thread over epoll, as wrk; HTTP/1.1 keep-alive, one request in flight per connection, requests built up front (LeanAPI for set-up); one wake sends the requests due within the next millisecond, in one io_uring submission, answers are timed by the kernel's receive stamp (SO_TIMESTAMPNS)"

// w6Warm has every user read each path once (the connections open, the
// server's caches fill: /user/mine's view and /user/amount's balance are
// kept apart, so warming one left the other to be loaded during the first
// steps) and returns the size of one answer of each path.
func w6Warm(ctx context.Context, api *LeanAPI, accounts []Account) (map[string]int, error) {
	for i, a := range accounts {
		for _, path := range w6Paths {
			if err := api.Call(ctx, path, a.Token, nil, nil); err != nil {
				return nil, fmt.Errorf("warm-up call %d (%s): %w", i, path, err)
			}
		}
	}
	return answerSizes(ctx, api, accounts[0].Token, w6Paths...)
}

// w6Ramp runs W6's open-loop ramp through api: requests prebuilt for every
// user and path, the box sampled at each step's ends.
func w6Ramp(ctx context.Context, o *Options, name string, api *LeanAPI, accounts []Account, lanes int, ramp Ramp,
	sample func() BoxSample, before func(int, float64)) ([]StepResult, *Histogram) {
	reqs := make([][2]Request, len(accounts))
	for i, a := range accounts {
		reqs[i] = [2]Request{api.Prepare(w6Paths[0], a.Token, nil), api.Prepare(w6Paths[1], a.Token, nil)}
	}
	loop := api.Loop(lanes, func(b []byte) []byte { return append(b, reqs[rand.IntN(len(reqs))][rand.IntN(2)]...) })
	defer loop.Close()
	d := Driver{Name: name, Ramp: ramp, Lanes: lanes, Target: 10 * time.Millisecond, Sample: sample, BeforeStep: before, Loop: loop,
		OnStep: func(i int, s StepResult) {
			o.logf("%s step %d: offered %.0f/s achieved %.0f/s errors %d missed %d %s, cpu µs/req server %.1f postgres %.1f generator %.1f → %s%s",
				name, i, s.Offered, s.Achieved, s.Errors, s.Missed, s.Latency, perDone(s.ServerCPUSec, s.Done), perDone(s.PostgresCPUSec, s.Done),
				perDone(s.GeneratorCPUSec, s.Done), s.Verdict, firstError(loop))
			o.logf("%s step %d: sender waits %.2f a request, sent up to %v early and %v late", name, i, float64(loop.Waits)/float64(max(1, s.Sent)), loop.Early, loop.Late)
		},
	}
	return d.Run(ctx)
}

// perDone is CPU seconds per completed call, in microseconds.
func perDone(sec float64, done int64) float64 {
	if done == 0 {
		return 0
	}
	return sec / float64(done) * 1e6
}

// w6Figures are W6's headline figures of a ramp (kj's or the floor's):
// the 10,000 req/s step's latency and whether it held, the highest rate
// held, and a read's cost over the 2,000 req/s step. A smoke ramp has
// neither step: its figures are taken at its last step (w6StepNotes says so).
func w6Figures(o *Options, steps []StepResult) map[string]float64 {
	f := map[string]float64{"sustainedPerSec": Sustained(steps)}
	target, cost := float64(w6TargetRate), float64(w6CostRate)
	if o.Smoke && len(steps) > 0 {
		target, cost = steps[len(steps)-1].Offered, steps[len(steps)-1].Offered
	}
	f["holdsAt10k"] = 0
	if at := atRate(steps, target); at != nil {
		f["p99Ms"], f["ratePerSec"] = at.Latency.P99, at.Achieved
		f["p50Ms"], f["p999Ms"] = at.Latency.P50, at.Latency.P999
		f["p99MsAt10k"] = at.Latency.P99
		if at.Verdict == Holds.String() {
			f["holdsAt10k"] = 1
		}
	}
	for k, v := range stepCostFigures(steps, cost, "Req", "At2k") {
		f[k] = v
	}
	return f
}

// w6StepNotes say where the named figures were taken when not at their
// named steps.
func w6StepNotes(o *Options, steps []StepResult) []string {
	switch {
	case o.Smoke && len(steps) > 0:
		return []string{fmt.Sprintf("smoke: the figures named At10k and At2k are taken at the smoke's last step (%.0f req/s)", steps[len(steps)-1].Offered)}
	case atRate(steps, w6TargetRate) == nil:
		return []string{fmt.Sprintf("the ramp stopped (saturated) before the %d req/s step: holdsAt10k = 0, no p99MsAt10k", w6TargetRate)}
	}
	return nil
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

// firstError is the loop's first error of the step, for its log line.
func firstError(l *HTTPLoop) string {
	if l.FirstError == nil {
		return ""
	}
	return " (first error: " + l.FirstError.Error() + ")"
}
