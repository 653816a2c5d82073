package loadtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const benchOutput = `goos: linux
goarch: amd64
pkg: kj/actors
cpu: AMD EPYC
BenchmarkW7Tell/senders=1-2  	 7942681	       251.9 ns/op	   3969662 msgs/s	      10 B/op	       0 allocs/op
BenchmarkW7Tell/senders=1-2  	 7942681	       251.9 ns/op	   3000000 msgs/s	      10 B/op	       0 allocs/op
BenchmarkW7Tell/senders=1-2  	 7942681	       251.9 ns/op	   5000000 msgs/s	      10 B/op	       0 allocs/op
BenchmarkW7IdleActorSize-2   	       1	2651364699 ns/op	       708.9 bytes/actor	78999144 B/op	 1415287 allocs/op
BenchmarkLedgerWriter/shards=1/inflight=4096-2  400000  1 ns/op  61234 postings/s  12.5 p99-ack-ms
--- FAIL: something
PASS
ok  	kj/actors	14.660s
`

func TestParseBench(t *testing.T) {
	lines := ParseBench(strings.NewReader(benchOutput))
	if len(lines) != 5 {
		t.Fatalf("%d lines", len(lines))
	}
	if lines[0].Name != "BenchmarkW7Tell/senders=1" || lines[0].N != 7942681 || lines[0].Metrics["allocs/op"] != 0 {
		t.Fatalf("%+v", lines[0])
	}
	if v, ok := BenchMedian(lines, "BenchmarkW7Tell/senders=1", "msgs/s"); !ok || v != 3969662 {
		t.Fatalf("median %v %v", v, ok)
	}
	if _, ok := BenchMedian(lines, "BenchmarkW7Tell/senders=1", "bets/s"); ok {
		t.Fatal("a unit nobody reported")
	}
	figs, missing := benchFigures(lines, map[string][2]string{
		"tellPerSec":     {"BenchmarkW7Tell/senders=1", "msgs/s"},
		"idleActorBytes": {"BenchmarkW7IdleActorSize", "bytes/actor"},
		"postingsPerSec": {"BenchmarkLedgerWriter/shards=1/inflight=4096", "postings/s"},
		"absent":         {"BenchmarkNope", "x"},
	})
	if figs["idleActorBytes"] != 708.9 || figs["postingsPerSec"] != 61234 || len(missing) != 1 {
		t.Fatalf("%v %v", figs, missing)
	}
	if args := (BenchRun{Pkg: "./actors/", Pattern: "W7", Count: 3, Benchtime: "1x"}).Args(); strings.Join(args, " ") !=
		"test -run ^$ -bench W7 -benchmem -count 3 -benchtime 1x ./actors/" {
		t.Fatalf("%v", args)
	}
}

func TestTargetCheck(t *testing.T) {
	tg := Target{Limits: map[string]float64{"max:p99Ms": 10, "min:ratePerSec": 4750}}
	if ok, why := tg.Check(map[string]float64{"p99Ms": 9, "ratePerSec": 5000}); !ok || len(why) != 0 {
		t.Fatalf("%v %v", ok, why)
	}
	ok, why := tg.Check(map[string]float64{"p99Ms": 15})
	if ok || len(why) != 2 || !strings.Contains(strings.Join(why, " "), "above the target 10 by 50%") ||
		!strings.Contains(strings.Join(why, " "), "ratePerSec not measured") {
		t.Fatalf("%v", why)
	}
}

func TestCombineTakesMedians(t *testing.T) {
	tg := Target{Limits: map[string]float64{"min:x": 10}}
	runs := []*Result{
		{Figures: map[string]float64{"x": 5}, Target: tg},
		{Figures: map[string]float64{"x": 20}, Target: tg},
		{Figures: map[string]float64{"x": 12}, Target: tg, Workload: "W9"},
	}
	c := Combine(runs)
	if c.Figures["x"] != 12 || !c.Pass || len(c.Runs) != 3 || c.Workload != "W9" {
		t.Fatalf("%+v", c)
	}
	if Median([]float64{4, 1, 3, 2}) != 2.5 || Median(nil) != 0 {
		t.Fatal("median")
	}
}

func TestUpdateReportKeepsTheAnalysis(t *testing.T) {
	dir := t.TempDir()
	r := &Result{Workload: "W6", Title: "reads", Commit: "abc", Target: Target{Text: "p99 <= 10 ms"},
		Figures: map[string]float64{"p99Ms": 4.2}, Pass: true}
	if _, err := r.Write(dir); err != nil {
		t.Fatal(err)
	}
	smoke := &Result{Workload: "W1", Smoke: true, Figures: map[string]float64{}}
	if _, err := smoke.Write(dir); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "RESULTS.md")
	analysis := "\n## Analysis\nwritten by hand\n"
	if err := os.WriteFile(page, []byte("# Results\n\n"+reportBegin+"\nold table\n"+reportEnd+"\n"+analysis), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := UpdateReport(dir, page); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(page)
	s := string(b)
	if !strings.Contains(s, "| W6 | reads | p99 <= 10 ms | p99Ms 4.20 | yes |") || strings.Contains(s, "old table") ||
		!strings.Contains(s, analysis) || strings.Contains(s, "| W1 |") {
		t.Fatalf("%s", s)
	}
}

func TestPlotIsAPNG(t *testing.T) {
	r := &Result{Workload: "W9", Title: "plot", Commit: "abc", Target: Target{Limits: map[string]float64{"max:p99Ms": 10}},
		Steps: []StepResult{{Achieved: 100, Latency: Latency{Count: 10, P50: 1, P99: 5, P999: 8}},
			{Achieved: 200, Latency: Latency{Count: 20, P50: 2, P99: 12, P999: 30}}, {Achieved: 250}}}
	path := filepath.Join(t.TempDir(), "p.png")
	if err := PlotSteps(r, path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 1000 || string(b[1:4]) != "PNG" {
		t.Fatalf("not a PNG: %v %d", err, len(b))
	}
}
