package loadtest

import (
	"context"
	"fmt"
	"time"
)

func init() {
	register(&Workload{
		ID: "W7", Title: "actor core (Go benchmark)",
		Target: Target{Text: ">= 2M tells/s; idle actor <= 2 KB",
			Limits: map[string]float64{"min:tellPerSec": 2e6, "min:tellPerSec64": 2e6, "max:idleActorBytes": 2048}},
		Budget: 10 * time.Minute, SmokeBudget: 5 * time.Minute,
		Run: benchWorkload(BenchRun{Pkg: "./actors/", Pattern: "W7", Count: 5}, "20000x",
			map[string][2]string{
				"tellPerSec":     {"BenchmarkW7Tell/senders=1", "msgs/s"},
				"tellPerSec2":    {"BenchmarkW7Tell/senders=2", "msgs/s"},
				"tellPerSec64":   {"BenchmarkW7Tell/senders=64", "msgs/s"},
				"requestPerSec":  {"BenchmarkW7RequestReply", "msgs/s"},
				"idleActorBytes": {"BenchmarkW7IdleActorSize", "bytes/actor"},
			}),
	})
	register(&Workload{
		ID: "W4L", Title: "ledger writer alone (Go benchmark, PostgreSQL, fsync on)",
		Target: Target{Text: ">= 50,000 postings/s",
			Limits: map[string]float64{"min:postingsPerSec": 50000}},
		Budget: 30 * time.Minute, SmokeBudget: 5 * time.Minute,
		Run: benchWorkload(BenchRun{Pkg: "./actors/ledger/", Pattern: "LedgerWriter", Benchtime: "400000x", Count: 3, Timeout: 30 * time.Minute}, "2000x",
			map[string][2]string{
				"postingsPerSec":        {"BenchmarkLedgerWriter/shards=1/inflight=4096", "postings/s"},
				"p99AckMs":              {"BenchmarkLedgerWriter/shards=1/inflight=4096", "p99-ack-ms"},
				"transfersPerBatch":     {"BenchmarkLedgerWriter/shards=1/inflight=4096", "transfers/batch"},
				"postingsPerSec2Shards": {"BenchmarkLedgerWriter/shards=2/inflight=4096", "postings/s"},
				"postingsPerSec256":     {"BenchmarkLedgerWriter/shards=1/inflight=256", "postings/s"},
				"p99AckMs256":           {"BenchmarkLedgerWriter/shards=1/inflight=256", "p99-ack-ms"},
			}),
	})
	register(&Workload{
		ID: "W4B", Title: "bet burst at the desk (Go benchmark, PostgreSQL)",
		Target: Target{Text: ">= 10,000 bets/s, p99 ack <= 50 ms (2 s spread); 10k bets settled <= 0.5 s",
			Limits: map[string]float64{"min:burstBetsPerSec": 10000, "max:spreadP99AckMs": 50, "max:settle10kMs": 500}},
		Budget: 20 * time.Minute, SmokeBudget: 5 * time.Minute,
		Run: benchWorkload(BenchRun{Pkg: "./actors/window/", Pattern: "W4", Benchtime: "1x", Count: 3, Timeout: 20 * time.Minute}, "1x",
			map[string][2]string{
				"burstBetsPerSec":    {"BenchmarkW4BetBurstAndSettle", "bets/s"},
				"burstP99AckMs":      {"BenchmarkW4BetBurstAndSettle", "p99-ack-ms"},
				"settle10kMs":        {"BenchmarkW4BetBurstAndSettle", "draw+settle-10k-ms"},
				"spreadP99AckMs":     {"BenchmarkW4BetsOverTwoSeconds", "p99-ack-ms"},
				"spreadBatchMaxMs":   {"BenchmarkW4BetsOverTwoSeconds", "max-batch-ms"},
				"spreadBatchP50Ms":   {"BenchmarkW4BetsOverTwoSeconds", "p50-batch-ms"},
				"spreadBetsPerBatch": {"BenchmarkW4BetsOverTwoSeconds", "bets/batch"},
			}),
	})
	register(&Workload{
		ID: "W5", Title: "1,000 windows with 1 s phases (Go benchmark, PostgreSQL)",
		Target: Target{Text: "phase lateness p99 <= 20 ms, max <= 100 ms (also under W4 load)",
			Limits: map[string]float64{"max:p99LateMs": 20, "max:maxLateMs": 100, "max:underLoadP99LateMs": 20, "max:underLoadMaxLateMs": 100}},
		Budget: 20 * time.Minute, SmokeBudget: 5 * time.Minute,
		Run: benchWorkload(BenchRun{Pkg: "./actors/window/", Pattern: "W5", Benchtime: "1x", Count: 3, Timeout: 20 * time.Minute}, "1x",
			map[string][2]string{
				"p50LateMs":            {"BenchmarkW5ThousandWindows", "p50-late-ms"},
				"p99LateMs":            {"BenchmarkW5ThousandWindows", "p99-late-ms"},
				"maxLateMs":            {"BenchmarkW5ThousandWindows", "max-late-ms"},
				"roundsSettled":        {"BenchmarkW5ThousandWindows", "rounds-settled"},
				"underLoadP99LateMs":   {"BenchmarkW5UnderBetLoad", "p99-late-ms"},
				"underLoadMaxLateMs":   {"BenchmarkW5UnderBetLoad", "max-late-ms"},
				"underLoadBetsPerSec":  {"BenchmarkW5UnderBetLoad", "bets/s"},
				"underLoadBetP99AckMs": {"BenchmarkW5UnderBetLoad", "p99-ack-ms"},
			}),
	})
}

// benchWorkload makes a workload that runs Go benchmarks from the module
// root (smoke runs: once, at smokeTime).
func benchWorkload(b BenchRun, smokeTime string, pick map[string][2]string) func(context.Context, *Options) (*Result, error) {
	return func(ctx context.Context, o *Options) (*Result, error) {
		if o.Smoke {
			b.Count, b.Benchtime = 1, smokeTime
		}
		root, err := ModuleRoot()
		if err != nil {
			return nil, err
		}
		b.Dir = root
		o.logf("go %v", b.Args())
		lines, _, err := RunBench(ctx, b, o.Log)
		if err != nil {
			return nil, err
		}
		figs, missing := benchFigures(lines, pick)
		r := &Result{Figures: figs, Notes: missing,
			Config: map[string]any{"command": "go " + fmt.Sprint(b.Args()), "benchmarks": benchTable(lines)}}
		return r, nil
	}
}
