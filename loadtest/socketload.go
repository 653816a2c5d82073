package loadtest

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// splitPlans cuts members into per-worker plans of at most per sockets
// each (never splitting a group of `keep` adjacent members, e.g. the two
// ends of a pair), each dialling from its own loopback source address.
func splitPlans(base Plan, members []Member, workers, keep int) []Plan {
	workers = max(1, workers)
	per := (len(members) + workers - 1) / workers
	if keep > 1 && per%keep != 0 {
		per += keep - per%keep
	}
	var plans []Plan
	for from := 0; from < len(members); from += per {
		p := base
		p.Worker = len(plans)
		p.Source = SourceAddr(p.Worker)
		p.Members = members[from:min(from+per, len(members))]
		plans = append(plans, p)
	}
	return plans
}

// workersFor is how many generator processes n sockets need.
func workersFor(o *Options, n int) int {
	if o.Procs > 0 {
		return o.Procs
	}
	return max(1, (n+MaxConnsPerWorker-1)/MaxConnsPerWorker)
}

// wsBase is the gateway's websocket base URL of a node.
func wsBase(n *Node) string { return "ws://" + n.Addr }

// chatRamp runs a sending workload on a started fleet: it ramps, judges
// each step as the workers report it (target is the delivery p99), stops
// the senders at the first saturated step, waits for messages in flight
// and checks every stream. fanout turns messages sent into deliveries
// expected (1 for pairs, members-1 for groups); perAck says whether the
// achieved rate counts durable acknowledgements (W2) or deliveries (W3).
func chatRamp(ctx context.Context, o *Options, f *Fleet, ramp Ramp, warm, target time.Duration, fanout float64, byAck bool, name string, prof *Profiler) ([]StepResult, *Histogram, *Histogram, WorkerFinalSummary, error) {
	start := time.Now().Add(500*time.Millisecond + warm)
	if warm > 0 {
		o.logf("%s: warm-up, one message per sender over %v", name, warm)
	}
	if err := f.Go(start); err != nil {
		return nil, nil, nil, WorkerFinalSummary{}, err
	}
	rates := ramp.Rates()
	// Profile each step while it runs, until the ramp stops.
	pctx, stopProfiling := context.WithCancel(ctx)
	defer stopProfiling()
	if prof != nil {
		go func() {
			for i, r := range rates {
				sleepUntil(pctx, start.Add(time.Duration(i)*ramp.Hold))
				if pctx.Err() != nil {
					return
				}
				prof.During(ctx, ramp.Hold-time.Second, fmt.Sprintf("%.0f", r*fanout))
			}
		}()
	}
	stopAt := len(rates) - 1
	f.Steps(ctx, len(rates), func(i int, s *WorkerStep) bool {
		st := chatStep(s, rates[i], ramp.Hold, fanout, byAck)
		st.Verdict = Judgement(st, target).String()
		o.logf("%s step %d: offered %.0f/s achieved %.0f/s sent %d errors %d missed %d deliver %s ack %s → %s",
			name, i, st.Offered, st.Achieved, st.Sent, st.Errors, st.Missed, st.Latency, st.Ack, st.Verdict)
		if st.Verdict == Saturated.String() {
			stopAt = i
			return false
		}
		return true
	})
	stopProfiling()
	grace := 10 * time.Second
	if o.Smoke {
		grace = 5 * time.Second
	}
	finals, _, err := f.Finish(ctx, grace)
	prof.Wait()
	if err != nil {
		return nil, nil, nil, WorkerFinalSummary{}, err
	}
	steps, loss, alive, closed, pushes, unacked := MergeFinals(finals)
	sum := WorkerFinalSummary{Loss: loss, Alive: alive, Closed: closed, Pushes: pushes, Unacked: unacked}
	var out []StepResult
	deliver, ack := NewHistogram(), NewHistogram()
	for i, s := range steps {
		if i > stopAt || i >= len(rates) {
			break
		}
		st := chatStep(s, rates[i], ramp.Hold, fanout, byAck)
		st.Verdict = Judgement(st, target).String()
		out = append(out, st)
		deliver.Merge(s.Deliver)
		ack.Merge(s.Ack)
	}
	return out, deliver, ack, sum, nil
}

// WorkerFinalSummary is the fleet's end-of-run tally.
type WorkerFinalSummary struct {
	Loss    Loss
	Alive   int
	Closed  []string
	Pushes  int64
	Unacked int64
}

func chatStep(s *WorkerStep, rate float64, hold time.Duration, fanout float64, byAck bool) StepResult {
	st := StepResult{Offered: rate * fanout, Sent: s.Sent, Done: s.Delivered, Errors: s.SendErr + s.AckErr,
		Missed: s.Missed, Latency: s.Deliver.Summary(), Ack: s.Ack.Summary()}
	if byAck {
		st.Achieved = float64(s.Acked) / hold.Seconds()
	} else {
		st.Achieved = float64(s.Delivered) / hold.Seconds()
	}
	return st
}

// forceGC asks the node's runtime for a collection (pprof's heap profile
// with gc=1), so heap figures count live memory only.
func forceGC(ctx context.Context, n *Node) error {
	if n.PprofAddr == "" {
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, "GET", "http://"+n.PprofAddr+"/debug/pprof/heap?gc=1", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

// fleetReady checks the workers' sockets all came up.
func fleetReady(o *Options, readies []WorkerReady, want int) error {
	up, failed := 0, 0
	var first string
	for _, r := range readies {
		up += r.Conns
		failed += r.Failed
		if first == "" {
			first = r.FirstErr
		}
	}
	o.logf("%d of %d sockets logged in", up, want)
	if failed > 0 {
		return fmt.Errorf("%d of %d sockets failed to log in; first: %s", failed, want, first)
	}
	return nil
}

func closedText(closed []string) string {
	if len(closed) == 0 {
		return ""
	}
	return strings.Join(closed, "; ")
}
