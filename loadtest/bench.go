package loadtest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Workloads measured by Go benchmarks (W4L, W4B, W5, W7) are run with
// `go test -bench` in a child process; kjload parses the benchmark lines and
// turns the medians of -count runs into figures. `make bench` runs the
// same benchmarks and compares them with benchstat.

// BenchLine is one result line of `go test -bench`.
type BenchLine struct {
	Name    string             // without the -GOMAXPROCS suffix
	N       int64              // iterations
	Metrics map[string]float64 // unit → value (ns/op, B/op, msgs/s ...)
}

// ParseBench reads benchmark result lines, ignoring everything else.
func ParseBench(r io.Reader) []BenchLine {
	var out []BenchLine
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		n, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			continue
		}
		name := f[0]
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		l := BenchLine{Name: name, N: n, Metrics: map[string]float64{}}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				break
			}
			l.Metrics[f[i+1]] = v
		}
		out = append(out, l)
	}
	return out
}

// BenchMedian is the median of one metric over every line of a benchmark
// (the -count repetitions); ok is false when no line has it.
func BenchMedian(lines []BenchLine, name, unit string) (float64, bool) {
	var xs []float64
	for _, l := range lines {
		if l.Name == name {
			if v, ok := l.Metrics[unit]; ok {
				xs = append(xs, v)
			}
		}
	}
	return Median(xs), len(xs) > 0
}

// BenchRun describes one `go test -bench` invocation.
type BenchRun struct {
	Dir       string // where to run go test (the module root)
	Pkg       string
	Pattern   string
	Benchtime string
	Count     int
	Timeout   time.Duration
}

// Args are the go command's arguments.
func (b BenchRun) Args() []string {
	args := []string{"test", "-run", "^$", "-bench", b.Pattern, "-benchmem", "-count", strconv.Itoa(max(1, b.Count))}
	if b.Benchtime != "" {
		args = append(args, "-benchtime", b.Benchtime)
	}
	if b.Timeout > 0 {
		args = append(args, "-timeout", b.Timeout.String())
	}
	return append(args, b.Pkg)
}

// RunBench runs the benchmarks, echoing their output to log, and parses
// the result lines. The benchmark's own failures (b.Fatal, a ledger check
// that fails) fail the run.
func RunBench(ctx context.Context, b BenchRun, log io.Writer) ([]BenchLine, string, error) {
	cmd := exec.CommandContext(ctx, "go", b.Args()...)
	cmd.Dir = b.Dir
	var buf bytes.Buffer
	w := io.Writer(&buf)
	if log != nil {
		w = io.MultiWriter(&buf, log)
	}
	cmd.Stdout, cmd.Stderr = w, w
	err := cmd.Run()
	out := buf.String()
	if err != nil {
		return nil, out, fmt.Errorf("go %s: %w", strings.Join(b.Args(), " "), err)
	}
	lines := ParseBench(strings.NewReader(out))
	if len(lines) == 0 {
		return nil, out, fmt.Errorf("go %s: no benchmark results", strings.Join(b.Args(), " "))
	}
	return lines, out, nil
}

// benchFigures turns the medians of chosen metrics into figures: pick maps
// figure name → (benchmark name, unit).
func benchFigures(lines []BenchLine, pick map[string][2]string) (map[string]float64, []string) {
	figs := map[string]float64{}
	var missing []string
	names := make([]string, 0, len(pick))
	for k := range pick {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		p := pick[k]
		if v, ok := BenchMedian(lines, p[0], p[1]); ok {
			figs[k] = v
		} else {
			missing = append(missing, fmt.Sprintf("%s (%s %s) not reported", k, p[0], p[1]))
		}
	}
	return figs, missing
}

// benchTable keeps every benchmark's medians in the result, for the record.
func benchTable(lines []BenchLine) map[string]map[string]float64 {
	out := map[string]map[string]float64{}
	for _, l := range lines {
		if out[l.Name] != nil {
			continue
		}
		m := map[string]float64{}
		for unit := range l.Metrics {
			m[unit], _ = BenchMedian(lines, l.Name, unit)
		}
		out[l.Name] = m
	}
	return out
}

// ModuleRoot is the directory holding kj's go.mod, searched upwards from
// the working directory.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(b, []byte("module kj\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("run kjload inside the kj module (no kj go.mod above %s)", dir)
		}
		dir = parent
	}
}
