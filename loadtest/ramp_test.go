package loadtest

import (
	"context"
	"sort"
	"testing"
	"time"
)

func TestRampRates(t *testing.T) {
	r := Ramp{Start: 1000, Step: 1000, Max: 5000, Hold: 10 * time.Second}
	got := r.Rates()
	want := []float64{1000, 2000, 3000, 4000, 5000}
	if len(got) != len(want) {
		t.Fatalf("%v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%v", got)
		}
	}
	if r.Duration() != 50*time.Second {
		t.Fatalf("duration %v", r.Duration())
	}
	if n := len((Ramp{Start: 5, Max: 5, Hold: time.Second}).Rates()); n != 1 {
		t.Fatalf("constant rate: %d steps", n)
	}
	// A max between steps ends at the last step below it.
	if r := (Ramp{Start: 10, Step: 20, Max: 45, Hold: time.Second}).Rates(); len(r) != 2 || r[1] != 30 {
		t.Fatalf("%v", r)
	}
	if r := (Ramp{Start: 100, Factor: 2, Max: 1000, Hold: time.Second}).Rates(); len(r) != 4 || r[0] != 100 || r[3] != 800 {
		t.Fatalf("geometric: %v", r)
	}
	if r := (Ramp{Start: 250, Factor: 1.5, Max: 30000, Hold: time.Second}).Rates(); len(r) != 12 || r[1] != 375 {
		t.Fatalf("geometric: %v", r)
	}
	for _, bad := range []Ramp{{Start: 1, Factor: 1, Max: 5, Hold: time.Second}, {Start: 1, Factor: 0.5, Max: 5, Hold: time.Second}, {}, {Start: -1, Max: 5, Hold: time.Second}, {Start: 5, Max: 1, Hold: time.Second},
		{Start: 1, Step: 0, Max: 5, Hold: time.Second}, {Start: 1, Step: 1, Max: 5},
		{Steps: []float64{1000, 500}, Hold: time.Second}, {Steps: []float64{0, 5}, Hold: time.Second}, {Steps: []float64{5}}} {
		if bad.Validate() == nil || bad.Rates() != nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// A ramp of listed steps runs exactly those rates, so a workload's named
// rates (W4's 1,000 and 5,000 bets/s) are steps it is measured at.
func TestRampListedSteps(t *testing.T) {
	r := Ramp{Steps: []float64{500, 1000, 5000}, Hold: 2 * time.Second}
	got := r.Rates()
	if len(got) != 3 || got[0] != 500 || got[1] != 1000 || got[2] != 5000 {
		t.Fatalf("%v", got)
	}
	got[0] = 1
	if r.Steps[0] != 500 {
		t.Fatal("Rates hands out the ramp's own slice")
	}
	if r.Duration() != 6*time.Second {
		t.Fatalf("duration %v", r.Duration())
	}
}

func TestRampStepAt(t *testing.T) {
	r := Ramp{Start: 1, Step: 1, Max: 3, Hold: time.Second}
	for d, want := range map[time.Duration]int{-1: -1, 0: 0, 999 * time.Millisecond: 0, time.Second: 1, 2500 * time.Millisecond: 2, 3 * time.Second: -1} {
		if got := r.StepAt(d); got != want {
			t.Errorf("StepAt(%v) = %d, want %d", d, got, want)
		}
	}
}

func TestLanesSpreadTheRateEvenly(t *testing.T) {
	const lanes, rate = 7, 100.0
	hold := 2 * time.Second
	var all []time.Duration
	for i := range lanes {
		all = append(all, Lane{Rate: rate, Index: i, Lanes: lanes}.Times(hold)...)
	}
	if len(all) != 200 {
		t.Fatalf("%d sends scheduled, want rate × hold = 200", len(all))
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	for i := 1; i < len(all); i++ {
		if gap := all[i] - all[i-1]; gap < 9*time.Millisecond || gap > 11*time.Millisecond {
			t.Fatalf("gap %v at %d: sends must be evenly spaced at 1/rate", gap, i)
		}
	}
	if (Lane{Rate: 10, Index: 3, Lanes: 3}).Times(hold) != nil {
		t.Fatal("an index beyond the lanes sends nothing")
	}
}

func TestJudgement(t *testing.T) {
	target := 10 * time.Millisecond
	step := func(p99 float64, offered, achieved float64, sent, errs int64) StepResult {
		return StepResult{Offered: offered, Achieved: achieved, Sent: sent, Errors: errs, Latency: Latency{P99: p99}}
	}
	cases := []struct {
		s    StepResult
		want Verdict
	}{
		{step(5, 1000, 1000, 10000, 0), Holds},
		{step(10, 1000, 960, 10000, 0), Holds},
		{step(12, 1000, 1000, 10000, 0), Degraded},    // over the target
		{step(5, 1000, 900, 10000, 0), Degraded},      // rate not achieved
		{step(5, 1000, 1000, 10000, 3), Degraded},     // a few errors
		{step(41, 1000, 1000, 10000, 0), Degraded},    // a spoilt tail, rate still achieved
		{step(1500, 1000, 1000, 10000, 0), Saturated}, // queues growing
		{step(5, 1000, 700, 10000, 0), Saturated},     // collapsed rate
		{step(5, 1000, 1000, 10000, 200), Saturated},  // 2 % failed
	}
	for i, c := range cases {
		if got := Judgement(c.s, target); got != c.want {
			t.Errorf("case %d: %v, want %v", i, got, c.want)
		}
	}
	steps := []StepResult{{Achieved: 1000, Verdict: "holds"}, {Achieved: 1990, Verdict: "holds"}, {Achieved: 2900, Verdict: "degraded"}}
	if s := Sustained(steps); s != 1990 {
		t.Fatalf("sustained %v", s)
	}
	if Sustained(nil) != 0 {
		t.Fatal("no steps, no sustained rate")
	}
}

func TestDriverRunsTheSchedule(t *testing.T) {
	var calls int
	var mu = make(chan struct{}, 1)
	d := Driver{Ramp: Ramp{Start: 100, Step: 100, Max: 200, Hold: 200 * time.Millisecond}, Lanes: 4, Target: time.Second,
		Do: func(ctx context.Context, lane int, sched time.Time) (time.Duration, error) {
			mu <- struct{}{}
			calls++
			<-mu
			return time.Since(sched), nil
		}}
	steps, all := d.Run(context.Background())
	if len(steps) != 2 || calls != 60 || all.Count() != 60 {
		t.Fatalf("steps %d calls %d recorded %d; want 2 steps of 20 and 40 calls", len(steps), calls, all.Count())
	}
	if steps[0].Sent != 20 || steps[1].Sent != 40 || steps[0].Errors != 0 {
		t.Fatalf("%+v", steps)
	}
}

// A step's generator CPU is what the generator spent sending it, not what
// the box samples at its ends cost the harness: a sampler that burns CPU
// adds nothing to it, while the step's own work counts.
func TestDriverLeavesTheSamplerOutOfTheGenerator(t *testing.T) {
	const burn, work = 0.2, 0.1
	d := Driver{Ramp: Ramp{Start: 10, Max: 10, Hold: 100 * time.Millisecond}, Lanes: 1, Target: time.Second,
		Sample: func() BoxSample {
			burnUntil(selfCPU() + burn)
			return BoxSample{Generator: selfCPU()}
		},
		Do: func(ctx context.Context, lane int, sched time.Time) (time.Duration, error) {
			burnUntil(selfCPU() + work)
			return time.Since(sched), nil
		}}
	steps, _ := d.Run(context.Background())
	if len(steps) != 1 || steps[0].Done != 1 {
		t.Fatalf("%+v", steps)
	}
	if g := steps[0].GeneratorCPUSec; g < work*0.9 || g > work+burn/2 {
		t.Fatalf("generator CPU of the step %.3f s: want the calls' %.3f s without the samples' %.3f s each", g, work, burn)
	}
}
