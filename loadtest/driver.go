package loadtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Driver runs an open-loop ramp in this process: each step's rate is
// spread over Lanes goroutines (see Lane), each calling Do at its scheduled
// times. A lane whose call is still running when the next time comes calls
// late, and the lateness counts as latency (Do gets the scheduled time); a
// call more than one step behind is skipped and counted as missed.
type Driver struct {
	Ramp   Ramp
	Lanes  int
	Target time.Duration // p99 target the steps are judged against
	// Do makes one call scheduled at sched; it returns the latency to
	// record (normally time.Since(sched)) or an error.
	Do func(ctx context.Context, lane int, sched time.Time) (time.Duration, error)
	// MaxLag is how far behind schedule a call may start before it is
	// skipped as missed; one step's hold when zero.
	MaxLag time.Duration
	// Loop, when set, sends the steps instead of Do (HTTPLoop: one thread
	// over epoll, as wrk does).
	Loop *HTTPLoop
	// BeforeStep, when set, runs as each step starts.
	BeforeStep func(i int, rate float64)
	// OnStep, when set, sees each step's result as it ends.
	OnStep func(i int, s StepResult)
	// Sample, when set, reads the box (SampleBox of the server's pids) as
	// each step starts and ends, so each step knows what it cost the
	// server, PostgreSQL and the generator (StepResult.ServerCPUSec, ...).
	Sample func() BoxSample
	// Name names the CPU profiles of GeneratorProfileEnv (W4, W6 floor).
	Name string
}

// GeneratorProfileEnv names a directory: when set, a Driver saves a CPU
// profile of this process over each step (the window GeneratorCPUSec
// covers) as <dir>/<name>-step<i>-<rate>-cpu.pprof, for `go tool pprof`:
// what the generator's CPU a request is made of. -profile profiles the
// server, not the generator.
const GeneratorProfileEnv = "KJLOAD_GENERATOR_PROFILE"

// profileStep starts the CPU profile of step i when GeneratorProfileEnv
// asks for it and returns what stops it.
func (d Driver) profileStep(i int, rate float64) func() {
	dir := os.Getenv(GeneratorProfileEnv)
	if dir == "" {
		return func() {}
	}
	name := strings.Join(strings.Fields(strings.ToLower(d.Name)), "-")
	if name == "" {
		name = "driver"
	}
	path := filepath.Join(dir, fmt.Sprintf("%s-step%d-%.0f-cpu.pprof", name, i, rate))
	err := os.MkdirAll(dir, 0o755)
	var f *os.File
	if err == nil {
		f, err = os.Create(path)
	}
	if err == nil {
		if err = pprof.StartCPUProfile(f); err != nil {
			f.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "generator profile %s: %v\n", path, err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// Run executes the ramp until it ends, a step saturates, or ctx ends. It
// returns the steps run and the histogram of every call.
func (d Driver) Run(ctx context.Context) ([]StepResult, *Histogram) {
	all := NewHistogram()
	var steps []StepResult
	for i, rate := range d.Ramp.Rates() {
		if ctx.Err() != nil {
			break
		}
		if d.BeforeStep != nil {
			d.BeforeStep(i, rate)
		}
		// The generator's CPU is read after the sample before the step and
		// before the one after it: the sampler's reading of /proc is the
		// harness measuring, not the generator sending (the profile covers
		// the same window).
		var before BoxSample
		if d.Sample != nil {
			before = d.Sample()
		}
		stop := d.profileStep(i, rate)
		before.Generator = GeneratorCPU()
		s, h := d.step(ctx, rate)
		gen := GeneratorCPU()
		stop()
		if d.Sample != nil {
			after := d.Sample()
			after.Generator = gen
			s.setCPU(before, after)
		}
		s.Verdict = Judgement(s, d.Target).String()
		all.Merge(h)
		steps = append(steps, s)
		if d.OnStep != nil {
			d.OnStep(i, s)
		}
		if s.Verdict == Saturated.String() {
			break
		}
	}
	return steps, all
}

func (d Driver) step(ctx context.Context, rate float64) (StepResult, *Histogram) {
	hold := d.Ramp.Hold
	maxLag := d.MaxLag
	if maxLag <= 0 {
		maxLag = hold
	}
	if d.Loop != nil {
		return d.Loop.step(ctx, rate, hold, maxLag)
	}
	start := time.Now().Add(20 * time.Millisecond)
	var sent, done, errs, missed atomic.Int64
	var lastDone atomic.Int64
	hists := make([]*Histogram, d.Lanes)
	var wg sync.WaitGroup
	for lane := range d.Lanes {
		hists[lane] = NewHistogram()
		times := Lane{Rate: rate, Index: lane, Lanes: d.Lanes}.Times(hold)
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := hists[lane]
			// One timer per lane, reset for each call: the generator's own
			// CPU per call is a figure, and a timer per call is part of it.
			timer := time.NewTimer(time.Hour)
			defer timer.Stop()
			for _, off := range times {
				sched := start.Add(off)
				if wait := time.Until(sched); wait > 0 {
					timer.Reset(wait)
					select {
					case <-ctx.Done():
						return
					case <-timer.C:
					}
				} else if -wait > maxLag {
					missed.Add(1)
					continue
				}
				sent.Add(1)
				lat, err := d.Do(ctx, lane, sched)
				if err != nil {
					errs.Add(1)
					continue
				}
				h.Record(lat)
				done.Add(1)
				lastDone.Store(int64(time.Since(start)))
			}
		}()
	}
	wg.Wait()
	h := NewHistogram()
	for _, x := range hists {
		h.Merge(x)
	}
	took := max(hold, time.Duration(lastDone.Load()))
	return StepResult{Offered: rate, Achieved: float64(done.Load()) / took.Seconds(), Sent: sent.Load(),
		Done: done.Load(), Errors: errs.Load(), Missed: missed.Load(), Latency: h.Summary()}, h
}
