package loadtest

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"
)

// Options are the command line of a run.
type Options struct {
	Workload string
	Smoke    bool          // a few seconds at tiny scale: checks the harness, measures nothing
	Runs     int           // runs to take the median of
	Out      string        // results directory
	Bin      string        // prebuilt kj binary; built when empty
	Timeout  time.Duration // hard bound on one run
	Keep     bool          // keep the PostgreSQL schema
	Profile  string        // directory for pprof captures of the server (empty: none)
	Procs    int           // generator processes for socket workloads (0: as needed)
	Conns    int           // W1: connections (0: the workload's default)
	Peer     string        // W1, W3: also run the workload against this peer (see Peers)
	Floor    bool          // W2: also run it against the chat floor (floorchat.go)
	Steps    []float64     // W2, W4 (its steady ramp), W6: the ramp's steps instead of the workload's (a short run of the low steps)
	Log      io.Writer

	logMu sync.Mutex // the log is written from several goroutines
}

func (o *Options) logf(format string, args ...any) {
	if o.Log != nil {
		line := fmt.Sprintf(time.Now().Format("15:04:05.000")+" "+format+"\n", args...)
		o.logMu.Lock()
		io.WriteString(o.Log, line)
		o.logMu.Unlock()
	}
}

// Workload is one of docs/PERFORMANCE.md's standard workloads.
type Workload struct {
	ID     string
	Title  string
	Target Target
	// Run makes one run. It must end by itself; ctx carries the run's
	// hard deadline.
	Run func(ctx context.Context, o *Options) (*Result, error)
	// Budget bounds one run (the default Options.Timeout).
	Budget, SmokeBudget time.Duration
}

var workloads = map[string]*Workload{}

func register(w *Workload) { workloads[w.ID] = w }

// Workloads lists the workload ids.
func Workloads() []string {
	out := make([]string, 0, len(workloads))
	for k := range workloads {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Lookup finds a workload by id (case-insensitive).
func Lookup(id string) (*Workload, bool) {
	w, ok := workloads[strings.ToUpper(id)]
	return w, ok
}

// Run runs a workload Options.Runs times, combines the runs (medians) and
// writes the result. A run that fails (loss, a crashed server) fails the
// whole command.
func Run(ctx context.Context, o *Options) (*Result, error) {
	w, ok := Lookup(o.Workload)
	if !ok {
		return nil, fmt.Errorf("unknown workload %q (have %s)", o.Workload, strings.Join(Workloads(), ", "))
	}
	RaiseNoFile()
	runs := max(1, o.Runs)
	if o.Smoke {
		runs = 1
	}
	budget := o.Timeout
	if budget == 0 {
		budget = w.Budget
		if o.Smoke {
			budget = w.SmokeBudget
		}
	}
	one := budget // kj's run alone
	if o.Peer != "" {
		if _, ok := Peers[o.Peer]; !ok {
			return nil, fmt.Errorf("unknown peer %q (have centrifugo)", o.Peer)
		}
		budget *= 2 // the peer runs the same workload after kj
	}
	if o.Floor {
		if w.ID != "W2" {
			return nil, fmt.Errorf("-floor is W2's (W4 and W6 take -peer floor)")
		}
		budget += one / 2 // the floor's one setting, after kj and the peer
	}
	var results []*Result
	for i := range runs {
		o.logf("%s run %d/%d (bounded at %v)", w.ID, i+1, runs, budget)
		rctx, cancel := context.WithTimeout(ctx, budget)
		started := time.Now()
		machine := ThisMachine()
		r, err := w.Run(rctx, o)
		cancel()
		if err != nil {
			return nil, fmt.Errorf("%s run %d: %w", w.ID, i+1, err)
		}
		r.Workload, r.Title, r.Target, r.Smoke = w.ID, w.Title, w.Target, o.Smoke
		r.Commit, r.Machine, r.StartedAt, r.Seconds = Commit(), machine, started.UTC(), time.Since(started).Seconds()
		var why []string
		r.Pass, why = w.Target.Check(r.Figures)
		r.Notes = append(r.Notes, why...)
		if r.Loss != nil && !r.Loss.OK() {
			r.Pass = false
		}
		o.logf("%s run %d: %s", w.ID, i+1, FiguresLine(r))
		results = append(results, r)
		if r.Loss != nil && !r.Loss.OK() {
			final := Combine(results)
			if o.Out != "" {
				final.Write(o.Out)
			}
			return final, fmt.Errorf("%s: messages lost or misordered: %s", w.ID, r.Loss)
		}
	}
	final := Combine(results)
	if o.Out != "" {
		path, err := final.Write(o.Out)
		if err != nil {
			return final, err
		}
		o.logf("wrote %s", path)
	}
	return final, nil
}

// FiguresLine is a result's figures on one line.
func FiguresLine(r *Result) string {
	keys := make([]string, 0, len(r.Figures))
	for k := range r.Figures {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%.4g ", k, r.Figures[k])
	}
	if r.Pass {
		b.WriteString("PASS")
	} else {
		b.WriteString("MISS")
	}
	return b.String()
}
