// Command kjload runs the standard workloads of docs/PERFORMANCE.md against a
// kj it starts itself, and writes loadtest/results/<workload>.json plus a
// PNG of latency against rate.
//
//	go run ./loadtest/cmd/kjload -workload W6            # one workload
//	go run ./loadtest/cmd/kjload -workload W2 -runs 3    # median of three runs
//	go run ./loadtest/cmd/kjload -workload W2 -steps 250,500 -profile /tmp/p  # low steps only, profiles and a trace of each
//	go run ./loadtest/cmd/kjload -workload W1 -smoke     # seconds, tiny scale
//	KJLOAD_GENERATOR_PROFILE=/tmp/g go run ./loadtest/cmd/kjload -workload W4 -steps 1000 -peer floor  # the generator's CPU profile of each step
//	go run ./loadtest/cmd/kjload -workload C1            # failover: 3 nodes behind HAProxy, one killed
//	go run ./loadtest/cmd/kjload fixture -users 1000 -out accounts.json
//	go run ./loadtest/cmd/kjload k6 -k6 bin/k6 loadtest/k6/login.js
//	go run ./loadtest/cmd/kjload report                  # RESULTS.md table from results/
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"kj/loadtest"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "kjload:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		switch args[0] {
		case "fixture":
			return fixture(ctx, args[1:])
		case "k6":
			return k6(ctx, args[1:])
		case "report":
			return report(args[1:])
		case "worker":
			return loadtest.Worker(ctx, os.Stdin, os.Stdout, os.Stderr)
		default:
			return fmt.Errorf("unknown command %q (fixture, k6, report, or -workload W1..W7)", args[0])
		}
	}
	fs := flag.NewFlagSet("kjload", flag.ContinueOnError)
	o := loadtest.Options{Log: os.Stderr}
	fs.StringVar(&o.Workload, "workload", "", "workload to run: "+strings.Join(loadtest.Workloads(), ", "))
	fs.BoolVar(&o.Smoke, "smoke", false, "a few seconds at tiny scale: checks the harness end to end, measures nothing")
	fs.IntVar(&o.Runs, "runs", 1, "runs to make; figures are their medians")
	fs.StringVar(&o.Out, "out", "", "results directory (default loadtest/results of this module; smoke runs: none unless given)")
	fs.StringVar(&o.Bin, "kj", "", "prebuilt kj binary (default: go build)")
	fs.DurationVar(&o.Timeout, "timeout", 0, "hard bound on one run (default: the workload's)")
	fs.BoolVar(&o.Keep, "keep", false, "keep the PostgreSQL schema after the run")
	fs.StringVar(&o.Profile, "profile", "", "directory to save pprof CPU, heap, block and mutex profiles of the server at the target rate (W2 with -steps: an execution trace of each step instead)")
	fs.IntVar(&o.Procs, "procs", 0, "generator processes for socket workloads (default: one per 9,000 connections)")
	fs.IntVar(&o.Conns, "conns", 0, "W1: connections (default 18,000)")
	fs.StringVar(&o.Peer, "peer", "", "also run the workload against a peer server in the same run: W1, W3 centrifugo (v6.9.1, built with go install into bin/peer); W2 centrifugo-pg (the same on its PostgreSQL broker, durable); W4, W6 floor (loadtest/cmd/floor, a bare net/http server)")
	fs.BoolVar(&o.Floor, "floor", false, "W2: also run it against the chat floor (loadtest/cmd/floorchat, the plainest durable relay on the same PostgreSQL) in the same run, after kj and any peer")
	steps := fs.String("steps", "", "W2, W4, W6: the ramp's steps in msg/s (W2), bets/s (W4's steady ramp, the burst still runs) or req/s (W6), comma-separated and rising (e.g. 250,500 for a short run of the low steps; default the workload's)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	for _, f := range strings.FieldsFunc(*steps, func(r rune) bool { return r == ',' }) {
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return fmt.Errorf("-steps: %w", err)
		}
		o.Steps = append(o.Steps, x)
	}
	if o.Workload == "" {
		fs.Usage()
		return fmt.Errorf("-workload is required")
	}
	if o.Out == "" && !o.Smoke {
		root, err := moduleRoot()
		if err != nil {
			return err
		}
		o.Out = filepath.Join(root, "loadtest", "results")
	}
	start := time.Now()
	r, err := loadtest.Run(ctx, &o)
	if err != nil {
		return err
	}
	fmt.Printf("%s %s: %s (%.0f s)\n", r.Workload, r.Title, loadtest.FiguresLine(r), time.Since(start).Seconds())
	return nil
}

func moduleRoot() (string, error) { return loadtest.ModuleRoot() }
