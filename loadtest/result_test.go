package loadtest

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

// A workload's cost per operation is taken over its named step alone, not
// averaged over the ramp; the whole ramp's figure sums its sampled steps.
func TestCostOverANamedStep(t *testing.T) {
	steps := []StepResult{
		{Offered: 1000, Done: 10000, ServerCPUSec: 3, PostgresCPUSec: 2, GeneratorCPUSec: 0.5, Verdict: "holds"},
		{Offered: 2000, Done: 20000, ServerCPUSec: 4, PostgresCPUSec: 3, GeneratorCPUSec: 0.6, Verdict: "holds"},
		{Offered: 3000, Done: 20000, ServerCPUSec: 6, PostgresCPUSec: 5, GeneratorCPUSec: 1, Verdict: "saturated"},
	}
	f := stepCostFigures(steps, 2000, "Req", "At2k")
	if !near(f["serverCpuUsPerReqAt2k"], 200) || !near(f["postgresCpuUsPerReqAt2k"], 150) || !near(f["generatorCpuUsPerReqAt2k"], 30) || len(f) != 3 {
		t.Fatalf("at 2k: %v", f)
	}
	if f := stepCostFigures(steps, 10000, "Req", "At10k"); f != nil {
		t.Fatalf("a step the ramp never reached has no cost: %v", f)
	}
	if f := stepCostFigures([]StepResult{{Offered: 2000, Done: 100}}, 2000, "Req", "At2k"); f != nil {
		t.Fatalf("a step without samples has no cost: %v", f)
	}
	all := rampCostFigures(steps, "Req")
	if !near(all["serverCpuUsPerReq"], 260) || !near(all["postgresCpuUsPerReq"], 200) || !near(all["generatorCpuUsPerReq"], 42) {
		t.Fatalf("whole ramp: %v", all)
	}
}

// W6's figures name the 10,000 req/s step's p99 and whether it held, and
// say it did not when the ramp stopped before it.
func TestW6Figures(t *testing.T) {
	o := &Options{}
	steps := []StepResult{{Offered: 2000, Done: 20000, ServerCPUSec: 4, Verdict: "holds", Achieved: 2000},
		{Offered: 10000, Done: 99000, Achieved: 9900, ServerCPUSec: 20, Latency: Latency{P99: 12.5}, Verdict: "degraded"}}
	f := w6Figures(o, steps)
	if f["holdsAt10k"] != 0 || f["p99MsAt10k"] != 12.5 || f["p99Ms"] != 12.5 || f["ratePerSec"] != 9900 || !near(f["serverCpuUsPerReqAt2k"], 200) || f["sustainedPerSec"] != 2000 {
		t.Fatalf("%v", f)
	}
	steps[1].Verdict = "holds"
	if f := w6Figures(o, steps); f["holdsAt10k"] != 1 {
		t.Fatalf("held: %v", f)
	}
	f = w6Figures(o, steps[:1])
	if _, ok := f["p99MsAt10k"]; ok || f["holdsAt10k"] != 0 || len(w6StepNotes(o, steps[:1])) != 1 {
		t.Fatalf("stopped before 10k: %v", f)
	}
}
