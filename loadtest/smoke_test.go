package loadtest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"kj/internal/testenv"
)

// TestMain lets this test binary serve as a generator worker process:
// the socket workloads start os.Executable() with WorkerEnv set.
func TestMain(m *testing.M) {
	if os.Getenv(WorkerEnv) == "1" {
		if err := Worker(context.Background(), os.Stdin, os.Stdout, os.Stderr); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// buildKJ builds the kj binary the end-to-end workloads start.
func buildKJ(ctx context.Context, t *testing.T) string {
	t.Helper()
	bin, err := BuildKJ(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// runSmoke runs one workload in smoke mode against bin, writing its result
// files into out. A run that fails ends the test with the run's log; the
// log is returned for the test's own failure messages.
func runSmoke(ctx context.Context, t *testing.T, bin, workload, out string, more ...func(*Options)) (*Result, *bytes.Buffer) {
	t.Helper()
	testenv.Needs(t, "PostgreSQL, Redis and NATS (C1 also haproxy)")
	var log bytes.Buffer
	o := &Options{Workload: workload, Smoke: true, Bin: bin, Out: out, Log: &log}
	for _, f := range more {
		f(o)
	}
	r, err := Run(ctx, o)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	return r, &log
}

// wantZero reports every named figure that is missing or not 0: the
// failover and fault runs' counts of what was lost or done twice.
func wantZero(t *testing.T, figures map[string]float64, names ...string) {
	t.Helper()
	for _, name := range names {
		if v, ok := figures[name]; !ok || v != 0 {
			t.Errorf("%s = %v, want 0", name, v)
		}
	}
}

// TestSmoke runs every load workload that drives a server end to end in
// smoke mode (a few seconds, tiny scale) against the real binary on a
// fresh PostgreSQL schema, so the harness cannot rot. It asserts that the
// pipeline works — servers start and stop, requests and messages flow,
// every chat message arrives exactly once in order, results are written —
// and nothing about speed. (The Go-benchmark workloads are covered by
// TestParseBench; `make bench` runs them.)
func TestSmoke(t *testing.T) {
	testenv.Needs(t, "PostgreSQL")
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	t.Cleanup(cancel) // after the parallel subtests, unlike a defer
	bin := buildKJ(ctx, t)
	out := t.TempDir()
	// In parallel: each has its own schema, server and ports, and nothing
	// here depends on timing.
	for _, id := range []string{"W6", "W4", "W1", "W2", "W3"} {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			var more []func(*Options)
			if id == "W2" {
				// W2 also runs its chat floor, so that server and the
				// harness's side of it are checked end to end too.
				more = append(more, func(o *Options) { o.Floor = true })
			}
			r, log := runSmoke(ctx, t, bin, id, out, more...)
			if !r.Smoke || r.Commit == "" || r.Machine.Cores == 0 || r.Server == nil || r.Box == nil {
				t.Fatalf("result incomplete: %+v", r)
			}
			if id == "W1" {
				// Idle sockets: no ramp; every socket stayed up.
				if r.Figures["connections"] != 20 {
					t.Fatalf("W1 sockets alive: %v\n%s", r.Figures, log.String())
				}
			} else if len(r.Steps) == 0 || r.Latency.Count == 0 {
				t.Fatalf("no steps measured: %+v\n%s", r, log.String())
			}
			if (id == "W2" || id == "W3") && (r.Loss == nil || r.Loss.Sent == 0 || r.Loss.Received != r.Loss.Sent) {
				t.Fatalf("every chat message must be sent and received once: %+v", r.Loss)
			}
			if r.Errors != 0 {
				t.Fatalf("%d errors\n%s", r.Errors, log.String())
			}
			if id == "W2" {
				f := r.Floor
				if f == nil || f.Loss == nil || f.Loss.Sent == 0 || f.Loss.Received != f.Loss.Sent || !f.Loss.OK() || len(f.Steps) == 0 {
					t.Fatalf("the chat floor's run: %+v\n%s", f, log.String())
				}
				if c, _ := f.Config.(map[string]any); c == nil || c["durability"] == nil {
					t.Fatalf("the chat floor's commits were not checked: %+v", f.Config)
				}
			}
			if r.Loss != nil && !r.Loss.OK() {
				t.Fatalf("loss: %s", r.Loss)
			}
			files := []string{id + ".json", id + ".png"}
			if id == "W1" {
				files = files[:1] // no ramp, no plot
			}
			for _, f := range files {
				if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
					t.Fatalf("%s not written: %v", f, err)
				}
			}
			back, err := ReadResult(filepath.Join(out, id+".json"))
			if err != nil || back.Workload != id || len(back.Steps) != len(r.Steps) {
				t.Fatalf("result file: %v %+v", err, back)
			}
		})
	}
}
