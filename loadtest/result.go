package loadtest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

// StepResult is one step of a ramp.
type StepResult struct {
	Offered  float64 `json:"offeredPerSec"`
	Achieved float64 `json:"achievedPerSec"` // completions per second of wall time in the step
	Sent     int64   `json:"sent"`
	Done     int64   `json:"done"`
	Errors   int64   `json:"errors"`
	Missed   int64   `json:"missed,omitempty"` // scheduled sends the generator could not make in time
	Latency  Latency `json:"latency"`          // the workload's headline latency
	Ack      Latency `json:"ack,omitempty"`    // send → durable acknowledgement (chat)
	// ServerCPUSec is the server's CPU time over the step; PostgresCPUSec
	// and GeneratorCPUSec are PostgreSQL's (W4 and W6: the backends of the
	// server's own connections and PostgreSQL's background processes,
	// StepSampler; W2: every postgres process on the box) and the generator's (this process and its workers), when the
	// workload samples the box per step (HTTP workloads).
	ServerCPUSec    float64 `json:"serverCpuSec,omitempty"`
	PostgresCPUSec  float64 `json:"postgresCpuSec,omitempty"`
	GeneratorCPUSec float64 `json:"generatorCpuSec,omitempty"`
	Verdict         string  `json:"verdict"`
}

// setCPU records what the step cost each part between two box samples.
func (s *StepResult) setCPU(from, to BoxSample) {
	s.ServerCPUSec = to.Server - from.Server
	s.PostgresCPUSec = to.Postgres - from.Postgres
	s.GeneratorCPUSec = to.Generator - from.Generator
}

// rampCostFigures are costFigures summed over sampled steps (Driver.Sample)
// instead of the window between Stack.Mark and Measure: PostgreSQL is then
// counted per process (StepSampler), and the time between steps is left out.
func rampCostFigures(steps []StepResult, unit string) map[string]float64 {
	var done int64
	var server, pg, gen float64
	for _, s := range steps {
		done += s.Done
		server, pg, gen = server+s.ServerCPUSec, pg+s.PostgresCPUSec, gen+s.GeneratorCPUSec
	}
	if done == 0 || server <= 0 {
		return nil
	}
	return map[string]float64{"serverCpuUsPer" + unit: perDone(server, done), "postgresCpuUsPer" + unit: perDone(pg, done),
		"generatorCpuUsPer" + unit: perDone(gen, done)}
}

// stepCostFigures are the server's, PostgreSQL's and the generator's CPU
// microseconds per completed operation over the one step offered rate
// (serverCpuUsPer<unit><at>, ...), as W3 costs deliveries at one rate:
// cost per operation moves with the rate (batching, idle overhead), so
// runs and servers are compared at one named step, not averaged over a
// ramp. None when the ramp stopped before that step or it had no samples.
func stepCostFigures(steps []StepResult, rate float64, unit, at string) map[string]float64 {
	var s *StepResult
	for i := range steps {
		if steps[i].Offered == rate {
			s = &steps[i]
		}
	}
	if s == nil || s.Done == 0 || s.ServerCPUSec <= 0 {
		return nil
	}
	per := func(sec float64) float64 { return sec / float64(s.Done) * 1e6 }
	return map[string]float64{
		"serverCpuUsPer" + unit + at:    per(s.ServerCPUSec),
		"postgresCpuUsPer" + unit + at:  per(s.PostgresCPUSec),
		"generatorCpuUsPer" + unit + at: per(s.GeneratorCPUSec),
	}
}

// Result is what one workload run writes to results/<workload>.json.
type Result struct {
	Workload  string    `json:"workload"`
	Title     string    `json:"title"`
	Commit    string    `json:"commit"`
	Machine   Machine   `json:"machine"`
	StartedAt time.Time `json:"startedAt"`
	Seconds   float64   `json:"seconds"`
	Smoke     bool      `json:"smoke,omitempty"`
	Config    any       `json:"config,omitempty"`

	Target  Target             `json:"target"`
	Figures map[string]float64 `json:"figures"` // the headline figures, named with their units
	Pass    bool               `json:"pass"`    // every target of the workload met

	Steps   []StepResult `json:"steps,omitempty"`
	Latency Latency      `json:"latency"` // over the whole run
	Errors  int64        `json:"errors"`
	Loss    *Loss        `json:"loss,omitempty"`
	Server  *ServerStats `json:"server,omitempty"`
	Box     *BoxStats    `json:"box,omitempty"`  // CPU use of the whole machine during the measured window
	Runs    []RunFigures `json:"runs,omitempty"` // every run when several were made; Figures are their medians
	// Peer is the same workload against the peer server, in the same run.
	Peer *PeerResult `json:"peer,omitempty"`
	// Floor is the same workload against the plainest server doing the
	// same job (W2: the chat floor), in the same run.
	Floor *PeerResult `json:"floor,omitempty"`
	Notes []string    `json:"notes,omitempty"`
}

// RunFigures are one run's headline figures.
type RunFigures struct {
	Figures map[string]float64 `json:"figures"`
	Pass    bool               `json:"pass"`
	Peer    map[string]float64 `json:"peer,omitempty"`  // the peer's figures in the same run
	Floor   map[string]float64 `json:"floor,omitempty"` // the floor's figures in the same run
}

// medianFigures is, for every figure name, the median over the runs.
func medianFigures(runs []*Result, pick func(*Result) map[string]float64) map[string]float64 {
	names := map[string]bool{}
	for _, r := range runs {
		for k := range pick(r) {
			names[k] = true
		}
	}
	out := map[string]float64{}
	for k := range names {
		var xs []float64
		for _, r := range runs {
			if v, ok := pick(r)[k]; ok {
				xs = append(xs, v)
			}
		}
		out[k] = Median(xs)
	}
	return out
}

// Target is what docs/PERFORMANCE.md asks of a workload, in words and numbers.
type Target struct {
	Text   string             `json:"text"`
	Limits map[string]float64 `json:"limits"` // figure name → bound (see Check)
	// LatencyMs is the p99 a step must keep to hold, drawn on the plot.
	LatencyMs float64 `json:"latencyMs,omitempty"`
}

// Check compares figures with limits: a limit named "max:<figure>" is an
// upper bound, "min:<figure>" a lower bound. A missing figure fails.
func (t Target) Check(figures map[string]float64) (bool, []string) {
	ok := true
	var why []string
	keys := make([]string, 0, len(t.Limits))
	for k := range t.Limits {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		bound := t.Limits[k]
		kind, name, _ := strings.Cut(k, ":")
		v, have := figures[name]
		switch {
		case !have:
			ok = false
			why = append(why, fmt.Sprintf("%s not measured", name))
		case kind == "max" && v > bound:
			ok = false
			why = append(why, fmt.Sprintf("%s = %.4g, above the target %.4g by %.0f%%", name, v, bound, (v/bound-1)*100))
		case kind == "min" && v < bound:
			ok = false
			why = append(why, fmt.Sprintf("%s = %.4g, below the target %.4g by %.0f%%", name, v, bound, (1-v/bound)*100))
		}
	}
	return ok, why
}

// Write stores r as <dir>/<workload>.json and, when it has steps, the
// latency-against-rate plot <dir>/<workload>.png.
func (r *Result) Write(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, r.Workload+".json")
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return "", err
	}
	if len(r.Steps) > 0 {
		if err := PlotSteps(r, filepath.Join(dir, r.Workload+".png")); err != nil {
			return path, err
		}
	}
	return path, nil
}

// ReadResult loads a result file.
func ReadResult(path string) (*Result, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Result
	return &r, json.Unmarshal(b, &r)
}

// Machine describes where a figure was taken.
type Machine struct {
	CPU      string  `json:"cpu"`
	Cores    int     `json:"cores"`
	MemoryGB float64 `json:"memoryGiB"`
	Kernel   string  `json:"kernel"`
	Go       string  `json:"go"`
	Load1    float64 `json:"load1AtStart"` // other work on the box when the run started
	NoFile   uint64  `json:"nofileLimit"`
}

// ThisMachine reads the machine's description from /proc.
func ThisMachine() Machine {
	m := Machine{Cores: runtime.NumCPU(), Go: runtime.Version()}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb float64
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "MemTotal:") {
				fmt.Sscanf(strings.TrimPrefix(line, "MemTotal:"), "%f", &kb)
			}
		}
		m.MemoryGB = float64(int(kb/1024/1024*10+0.5)) / 10
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Sscanf(string(b), "%f", &m.Load1)
	}
	m.NoFile = noFileLimit()
	return m
}

// Commit names the code measured: the short hash, "+dirty" when the work
// tree has uncommitted changes to Go files.
func Commit() string {
	out, err := exec.Command("git", "rev-parse", "--short=10", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "status", "--porcelain", "--", "*.go", "go.mod", "go.sum").Output(); err == nil && len(strings.TrimSpace(string(st))) > 0 {
		c += "+dirty"
	}
	return c
}

// Median of xs (0 for none).
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Combine folds several runs of one workload into one result: figures are
// the medians of the runs', the last run's details are kept, and it passes
// when the median figures meet the target.
func Combine(runs []*Result) *Result {
	if len(runs) == 0 {
		return nil
	}
	last := *runs[len(runs)-1]
	if len(runs) == 1 {
		return &last
	}
	for _, r := range runs {
		rf := RunFigures{Figures: r.Figures, Pass: r.Pass}
		if r.Peer != nil {
			rf.Peer = r.Peer.Figures
		}
		if r.Floor != nil {
			rf.Floor = r.Floor.Figures
		}
		last.Runs = append(last.Runs, rf)
	}
	last.Figures = medianFigures(runs, func(r *Result) map[string]float64 { return r.Figures })
	last.Peer = medianPeer(runs, func(r *Result) *PeerResult { return r.Peer })
	last.Floor = medianPeer(runs, func(r *Result) *PeerResult { return r.Floor })
	last.Pass, _ = last.Target.Check(last.Figures)
	last.Notes = append(last.Notes, fmt.Sprintf("figures are the median of %d runs; steps, latency and server figures are the last run's", len(runs)))
	return &last
}

// medianPeer is the last run's peer result (of pick) with the median of
// every run's figures, or nil when the last run has none.
func medianPeer(runs []*Result, pick func(*Result) *PeerResult) *PeerResult {
	last := pick(runs[len(runs)-1])
	if last == nil {
		return nil
	}
	p := *last
	p.Figures = medianFigures(runs, func(r *Result) map[string]float64 {
		if pr := pick(r); pr != nil {
			return pr.Figures
		}
		return nil
	})
	return &p
}

// addCostFigures adds what one operation cost in CPU time — the server's,
// PostgreSQL's and the generator's microseconds per completed call over
// the measured window. Unlike latency these barely move with other load on
// the box, so they show whether a change made the server cheaper.
func addCostFigures(r *Result, unit string) {
	for k, v := range costFigures(r.Steps, r.Server, r.Box, unit) {
		r.Figures[k] = v
	}
}

// costFigures are addCostFigures' figures of any server's steps.
func costFigures(steps []StepResult, server *ServerStats, box *BoxStats, unit string) map[string]float64 {
	var done int64
	for _, s := range steps {
		done += s.Done
	}
	if done == 0 || server == nil || box == nil || server.WindowSec <= 0 {
		return nil
	}
	us := func(cores float64) float64 { return cores * server.WindowSec / float64(done) * 1e6 }
	return map[string]float64{
		"serverCpuUsPer" + unit:    server.CPUSeconds / float64(done) * 1e6,
		"postgresCpuUsPer" + unit:  us(box.PostgresCores),
		"generatorCpuUsPer" + unit: us(box.GeneratorCores),
	}
}
