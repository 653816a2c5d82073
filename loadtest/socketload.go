package loadtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
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

// chatRampCPU runs a sending workload on a started fleet: it ramps, judges
// each step as the workers report it (target is the delivery p99), stops
// the senders at the first saturated step, waits for messages in flight
// and checks every stream. fanout turns messages sent into deliveries
// expected (1 for pairs, members-1 for groups); perAck says whether the
// achieved rate counts durable acknowledgements (W2) or deliveries (W3).
// It also reads the server's CPU seconds (cpu)
// as each step begins and ends, so each step knows what it cost the
// server (StepResult.ServerCPUSec). The ramp goes on through steps
// saturated by latency alone (at least 80 % of the rate achieved) up to
// the offered rate reach, so servers are compared at one common rate even
// on a box whose other work spoils their latency.
func chatRampCPU(ctx context.Context, o *Options, f *Fleet, ramp Ramp, warm, target time.Duration, fanout float64, byAck bool, name string, prof *Profiler, cpu func() float64, reach float64) ([]StepResult, *Histogram, *Histogram, WorkerFinalSummary, error) {
	var sample func() BoxSample
	if cpu != nil {
		sample = func() BoxSample { return BoxSample{Server: cpu()} }
	}
	return chatRampBox(ctx, o, f, ramp, warm, target, fanout, byAck, name, prof, sample, reach)
}

// chatRampBox is chatRampCPU reading the machine's CPU counters (sample,
// e.g. SampleBox of the server) at every step boundary, so each step
// also says what it cost PostgreSQL and the generator: a cost per message
// over one step at a named rate, not averaged over a run whose warm-up
// idles (StepResult's ServerCPUSec, PostgresCPUSec, GeneratorCPUSec).
func chatRampBox(ctx context.Context, o *Options, f *Fleet, ramp Ramp, warm, target time.Duration, fanout float64, byAck bool, name string, prof *Profiler, sample func() BoxSample, reach float64) ([]StepResult, *Histogram, *Histogram, WorkerFinalSummary, error) {
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
	// The CPU counters at each step boundary (read by one goroutine, used
	// after it ended).
	cpuAt := make([]BoxSample, len(rates)+1)
	cpuOK := make([]bool, len(rates)+1)
	cpuRead := make(chan struct{})
	go func() {
		defer close(cpuRead)
		if sample == nil {
			return
		}
		for i := range cpuAt {
			sleepUntil(pctx, start.Add(time.Duration(i)*ramp.Hold))
			if pctx.Err() != nil {
				return
			}
			cpuAt[i], cpuOK[i] = sample(), true
		}
	}()
	stopAt := len(rates) - 1
	f.Steps(ctx, len(rates), func(i int, s *WorkerStep) bool {
		st := chatStep(s, rates[i], ramp.Hold, fanout, byAck)
		st.Verdict = Judgement(st, target).String()
		o.logf("%s step %d: offered %.0f/s achieved %.0f/s sent %d errors %d missed %d deliver %s ack %s → %s",
			name, i, st.Offered, st.Achieved, st.Sent, st.Errors, st.Missed, st.Latency, st.Ack, st.Verdict)
		if st.Verdict == Saturated.String() && (st.Offered > reach || st.Achieved < 0.8*st.Offered) {
			stopAt = i
			return false
		}
		return true
	})
	// The step that stopped the ramp still needs its closing reading.
	if stopAt < len(rates)-1 {
		sleepUntil(ctx, start.Add(time.Duration(stopAt+1)*ramp.Hold))
	}
	stopProfiling()
	<-cpuRead
	// How long the workers wait for messages still in flight once the
	// senders stopped. A ramp taken past saturation (up to reach) leaves
	// seconds of queue behind it; a message that arrives late is late, not
	// lost, and the check returns as soon as everything is in.
	grace := 10 * time.Second
	if reach > 0 {
		grace = time.Minute
	}
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
		if cpuOK[i] && cpuOK[i+1] {
			st.setCPU(cpuAt[i], cpuAt[i+1])
		}
		out = append(out, st)
		deliver.Merge(s.Deliver)
		ack.Merge(s.Ack)
	}
	return out, deliver, ack, sum, nil
}

// cpuPerDoneAt is the server's CPU microseconds per completed event over
// the step whose offered rate is nearest rate (0 when no step within 25 %
// of it was measured): cost per delivery depends on the rate, so servers
// are compared at one rate both meet.
func cpuPerDoneAt(steps []StepResult, rate float64) float64 {
	best := -1
	for i, s := range steps {
		if s.ServerCPUSec <= 0 || s.Done == 0 || s.Offered < rate*0.75 || s.Offered > rate*1.25 {
			continue
		}
		if best < 0 || abs(s.Offered-rate) < abs(steps[best].Offered-rate) {
			best = i
		}
	}
	if best < 0 {
		return 0
	}
	return steps[best].ServerCPUSec / float64(steps[best].Done) * 1e6
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
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

// startReadyFleet starts the generator processes of plans and checks that
// all want sockets logged in; on failure no process is left running.
func startReadyFleet(ctx context.Context, o *Options, plans []Plan, want int) (*Fleet, error) {
	fleet, readies, err := StartFleet(ctx, plans, o.logf)
	if err != nil {
		return nil, err
	}
	if err := fleetReady(o, readies, want); err != nil {
		fleet.Close()
		return nil, err
	}
	return fleet, nil
}

// stackWithUsers starts a stack as so says (with o's binary, keep flag and
// log), loads fx's users into its store before its servers start and
// returns them in order; on failure nothing is left running.
func stackWithUsers(ctx context.Context, o *Options, so StackOptions, fx FixtureOptions, workload string) (*Stack, []Account, error) {
	so.Bin, so.Keep, so.Log = o.Bin, o.Keep, o.logf
	st, err := NewStack(ctx, so)
	if err != nil {
		return nil, nil, err
	}
	o.logf("%s: fixture of %d users", workload, fx.Users)
	accounts, err := LoadUsers(ctx, st.DB, fx)
	if err == nil {
		err = st.Start(ctx)
	}
	if err != nil {
		st.Close(context.Background())
		return nil, nil, err
	}
	return st, accounts, nil
}

// createGroups creates groups consecutive groups of size members each
// through the chat protocol: each group's first member, over a socket of
// its own to wsBase, creates it with the others as members. Groups are
// named after what and their number; their ids come back in order.
func createGroups(ctx context.Context, wsBase string, members []Account, groups, size int, what string) ([]string, error) {
	ids := make([]string, groups)
	for g := range groups {
		owner := members[g*size]
		c, err := DialChat(ctx, wsBase, "", owner, nil)
		if err != nil {
			return nil, err
		}
		others := make([]string, 0, size-1)
		for _, a := range members[g*size+1 : (g+1)*size] {
			others = append(others, strconv.FormatInt(a.ID, 10))
		}
		params, _ := json.Marshal(map[string]any{"memberUserIDs": others, "adminUserIDs": []string{},
			"ownerUserID": c.UserID, "groupInfo": map[string]any{"groupName": fmt.Sprintf("%s %d", what, g)}})
		data, err := c.Call(ctx, "CreateGroup", string(params))
		c.Close()
		if err != nil {
			return nil, fmt.Errorf("create group %d: %w", g, err)
		}
		var item struct {
			GroupID string `json:"groupID"`
		}
		if err := json.Unmarshal([]byte(data), &item); err != nil || item.GroupID == "" {
			return nil, fmt.Errorf("create group %d: no groupID in %.200s", g, data)
		}
		ids[g] = item.GroupID
	}
	return ids, nil
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
