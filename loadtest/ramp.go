package loadtest

import (
	"fmt"
	"math"
	"time"
)

// Ramp is an offered-rate schedule: Start events/s, then Start+Step, ...
// up to Max (or, with Factor > 1, Start, Start×Factor, Start×Factor², ...,
// which spans a wide range in few steps), each rate held for Hold; or, with
// Steps, exactly the rates listed (so a workload's named rates, the ones
// its figures are costed at, are steps). The generator is open loop: it sends
// on the schedule whether or not earlier sends were answered, and every
// payload carries its scheduled time, so a stalled server shows up as
// latency instead of a slower offered rate (no coordinated omission).
type Ramp struct {
	Start  float64 `json:"start"`
	Step   float64 `json:"step"`
	Max    float64 `json:"max"`
	Factor float64 `json:"factor,omitempty"`
	// Steps, when set, are the rates in order; Start, Step, Max and Factor
	// are then unused.
	Steps []float64     `json:"steps,omitempty"`
	Hold  time.Duration `json:"hold"`
}

// Validate rejects schedules that would not end or not start.
func (r Ramp) Validate() error {
	if len(r.Steps) > 0 {
		for i, x := range r.Steps {
			if x <= 0 || math.IsInf(x, 0) || math.IsNaN(x) || (i > 0 && x <= r.Steps[i-1]) {
				return fmt.Errorf("ramp: steps %v must be positive and rising", r.Steps)
			}
		}
		if r.Hold <= 0 {
			return fmt.Errorf("ramp: hold %v must be positive", r.Hold)
		}
		return nil
	}
	switch {
	case r.Start <= 0 || math.IsInf(r.Start, 0) || math.IsNaN(r.Start):
		return fmt.Errorf("ramp: start rate %v must be positive", r.Start)
	case r.Max < r.Start:
		return fmt.Errorf("ramp: max rate %v below start %v", r.Max, r.Start)
	case r.Factor != 0 && (r.Factor <= 1 || math.IsInf(r.Factor, 0) || math.IsNaN(r.Factor)):
		return fmt.Errorf("ramp: factor %v must be above 1", r.Factor)
	case r.Factor == 0 && (r.Step < 0 || (r.Step == 0 && r.Max != r.Start)):
		return fmt.Errorf("ramp: step %v cannot reach max %v from %v", r.Step, r.Max, r.Start)
	case r.Hold <= 0:
		return fmt.Errorf("ramp: hold %v must be positive", r.Hold)
	}
	return nil
}

// Rates lists the offered rate of each step.
func (r Ramp) Rates() []float64 {
	if r.Validate() != nil {
		return nil
	}
	if len(r.Steps) > 0 {
		return append([]float64(nil), r.Steps...)
	}
	var out []float64
	for i := 0; ; i++ {
		x := r.Start + float64(i)*r.Step
		if r.Factor > 1 {
			x = math.Round(r.Start * math.Pow(r.Factor, float64(i)))
		}
		if x > r.Max*(1+1e-9) {
			break
		}
		out = append(out, x)
		if r.Step == 0 && r.Factor == 0 {
			break
		}
	}
	return out
}

// Duration is the whole schedule's length.
func (r Ramp) Duration() time.Duration { return time.Duration(len(r.Rates())) * r.Hold }

// StepAt says which step the moment t (since the schedule's start) falls
// in, or -1 outside the schedule.
func (r Ramp) StepAt(t time.Duration) int {
	if t < 0 || r.Hold <= 0 {
		return -1
	}
	i := int(t / r.Hold)
	if i >= len(r.Rates()) {
		return -1
	}
	return i
}

// Lane is one sender's share of a step: with lanes senders sharing rate
// events/s, lane j sends at offsets (j + k·lanes)/rate for k = 0, 1, ...
// within the step, so the union is evenly spaced at 1/rate.
type Lane struct {
	Rate  float64
	Index int
	Lanes int
}

// Times returns this lane's scheduled offsets within a step of length d.
func (l Lane) Times(d time.Duration) []time.Duration {
	if l.Rate <= 0 || l.Lanes <= 0 || l.Index < 0 || l.Index >= l.Lanes {
		return nil
	}
	var out []time.Duration
	for k := 0; ; k++ {
		t := time.Duration((float64(l.Index) + float64(k)*float64(l.Lanes)) / l.Rate * float64(time.Second))
		if t >= d {
			return out
		}
		out = append(out, t)
	}
}

// Verdict of a step, deciding whether the ramp goes on.
type Verdict int

// Step verdicts.
const (
	Holds     Verdict = iota // within the latency target, rate achieved, no errors
	Degraded                 // over the target but not collapsed: keep climbing
	Saturated                // collapsed: stop the ramp
)

func (v Verdict) String() string {
	return [...]string{"holds", "degraded", "saturated"}[v]
}

// Judgement turns a step's figures into a verdict against a p99 target.
// A step holds when p99 ≤ target, at least 95 % of the offered rate was
// achieved and nothing failed. It is saturated (the ramp stops) when the
// server stopped keeping up: less than 80 % of the rate achieved, more
// than 1 % of the events failed, or p99 beyond both twenty times the
// target and one second (queues growing). Anything between is degraded
// and the ramp goes on, so the plot shows latency up to the target rate
// even on a box whose other work spoils the tail.
func Judgement(s StepResult, target time.Duration) Verdict {
	p99 := time.Duration(s.Latency.P99 * float64(time.Millisecond))
	achieved := 1.0
	if s.Offered > 0 {
		achieved = s.Achieved / s.Offered
	}
	failed := 0.0
	if s.Sent > 0 {
		failed = float64(s.Errors) / float64(s.Sent)
	}
	switch {
	case p99 > max(20*target, time.Second) || achieved < 0.8 || failed > 0.01:
		return Saturated
	case p99 > target || achieved < 0.95 || s.Errors > 0:
		return Degraded
	}
	return Holds
}

// Sustained is the highest achieved rate among the steps that held, 0 when
// none did.
func Sustained(steps []StepResult) float64 {
	best := 0.0
	for _, s := range steps {
		if s.Verdict == Holds.String() && s.Achieved > best {
			best = s.Achieved
		}
	}
	return best
}
