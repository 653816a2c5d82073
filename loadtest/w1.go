package loadtest

import (
	"context"
	"fmt"
	"time"
)

// W1: N chat sessions logged in and idle (heartbeats only) for 60 s on one
// server process. Figures: the server's memory per connection — RSS and
// the Go heap+stacks after a forced collection, each as (with sockets −
// before sockets) / N, session and user actors included — and its CPU
// while the sockets idle. Target: N = 18,000 (one process holds at most
// ~19,000 sockets under this box's 20,000-file limit), <= 8 KiB each,
// <= 10 % of a core.
func init() {
	register(&Workload{
		ID: "W1", Title: "idle chat sessions, heartbeats only",
		Target: Target{Text: "18,000 connections per process, <= 8 KiB each, <= 10 % of a core idle",
			Limits: map[string]float64{"min:connections": 18000, "max:rssBytesPerConn": 8192, "max:idleCpuPercent": 10}},
		Budget: 8 * time.Minute, SmokeBudget: 2 * time.Minute,
		Run: runW1,
	})
}

// w1Shape is how many sockets idle for how long.
func w1Shape(o *Options) (conns int, idle time.Duration) {
	conns, idle = 18000, 60*time.Second
	if o.Smoke {
		conns, idle = 20, 2*time.Second
	}
	if o.Conns > 0 {
		conns = o.Conns
	}
	return conns, idle
}

func runW1(ctx context.Context, o *Options) (*Result, error) {
	r, err := runW1KJ(ctx, o)
	if err != nil || o.Peer == "" {
		return r, err
	}
	if r.Peer, err = runW1Peer(ctx, o); err != nil {
		return nil, fmt.Errorf("peer %s: %w", o.Peer, err)
	}
	return r, nil
}

func runW1KJ(ctx context.Context, o *Options) (*Result, error) {
	conns, idle := w1Shape(o)
	// pprof is always on here: its heap endpoint forces the collections
	// that make the heap figures count live memory only.
	st, accounts, err := stackWithUsers(ctx, o, StackOptions{Pprof: true}, FixtureOptions{Users: conns}, "W1")
	if err != nil {
		return nil, err
	}
	defer st.Close(context.Background())
	node := st.Nodes[0]
	// A few sockets first, so one-time costs (the first actor system
	// allocations, pools, code paths) are not counted per connection.
	warm := min(20, conns)
	wf, _, err := StartFleet(ctx, []Plan{{Workload: "W1", WSBase: wsBase(node), Source: SourceAddr(0), Dialers: 4,
		Members: membersOf(accounts[:warm])}}, o.logf)
	if err != nil {
		return nil, err
	}
	wf.Close()
	if err := forceGC(ctx, node); err != nil {
		return nil, err
	}
	base, baseHeap, baseStacks := node.Sample(), heapAndStacks(ctx, node), stacks(ctx, node)
	o.logf("W1: before: RSS %.1f MiB, heap+stacks %.1f MiB", mib(base.RSS), mib(baseHeap))

	plans := splitPlans(Plan{Workload: "W1", WSBase: wsBase(node), Dialers: 32}, membersOf(accounts), workersFor(o, conns), 1)
	o.logf("W1: %d sockets over %d generator processes", conns, len(plans))
	fleet, connectPerSec, err := startIdleFleet(ctx, o, plans, conns, idle)
	if err != nil {
		return nil, err
	}
	defer fleet.Close()
	mark := st.Mark()
	o.logf("W1: %d sockets idle for %v", conns, idle)
	prof := NewProfiler(o, node, "W1")
	prof.During(ctx, idle/2, "idle")
	sleepUntil(ctx, time.Now().Add(idle))
	prof.Wait()
	server, box, err := st.Measure(ctx, mark)
	if err != nil {
		return nil, err
	}
	rssAfter := node.Sample().RSS
	if err := forceGC(ctx, node); err != nil {
		return nil, err
	}
	heapAfter, stacksAfter := heapAndStacks(ctx, node), stacks(ctx, node)
	// The resident set once the collector has run and had a moment to
	// return free pages: what the sockets hold, without the garbage
	// headroom a busy heap carries.
	sleepUntil(ctx, time.Now().Add(min(5*time.Second, idle)))
	rssGC := node.Sample().RSS
	fin, _, err := fleet.Finish(ctx, time.Second)
	if err != nil {
		return nil, err
	}
	_, _, alive, closed, pushes, _ := MergeFinals(fin)
	o.logf("W1: after: RSS %.1f MiB, heap+stacks %.1f MiB, %d sockets alive, server fds peak %d", mib(rssAfter), mib(heapAfter), alive, server.PeakFDs)

	r := &Result{Server: server, Box: box,
		Config: map[string]any{"connections": conns, "idle": idle.String(), "generators": len(plans), "warmSockets": warm},
		Figures: map[string]float64{
			"connections":            float64(alive),
			"rssBytesPerConn":        float64(int64(rssAfter)-int64(base.RSS)) / float64(conns),
			"rssAfterGCBytesPerConn": float64(int64(rssGC)-int64(base.RSS)) / float64(conns),
			"heapBytesPerConn":       (heapAfter - baseHeap) / float64(conns),
			"stackBytesPerConn":      (stacksAfter - baseStacks) / float64(conns),
			"idleCpuPercent":         server.CPUPercent,
			"connectPerSec":          connectPerSec,
			"serverFdsPeak":          float64(server.PeakFDs),
			"serverSocketsPeak":      float64(server.PeakSockets),
			"rssMiB":                 mib(rssAfter),
			"pushesWhileIdleAll":     float64(pushes),
		}}
	if alive != conns {
		r.Errors = int64(conns - alive)
		r.Notes = append(r.Notes, fmt.Sprintf("%d sockets closed while idle: %s", conns-alive, closedText(closed)))
	}
	return r, nil
}

// startIdleFleet starts the generator processes of W1's sockets and
// returns once all conns are up, with how many connected per second, and
// the sign-in work has settled, so the idle window can be measured.
func startIdleFleet(ctx context.Context, o *Options, plans []Plan, conns int, idle time.Duration) (*Fleet, float64, error) {
	t0 := time.Now()
	fleet, err := startReadyFleet(ctx, o, plans, conns)
	if err != nil {
		return nil, 0, err
	}
	connectPerSec := float64(conns) / time.Since(t0).Seconds()
	sleepUntil(ctx, time.Now().Add(min(5*time.Second, idle)))
	return fleet, connectPerSec, nil
}

func membersOf(accounts []Account) []Member {
	out := make([]Member, len(accounts))
	for i, a := range accounts {
		out[i] = Member{Account: a}
	}
	return out
}

// heapAndStacks is the Go memory in use: heap spans plus goroutine stacks.
func heapAndStacks(ctx context.Context, n *Node) float64 {
	m, err := Metrics(ctx, n.MetricsURL())
	if err != nil {
		return 0
	}
	return m["go_memstats_heap_inuse_bytes"] + m["go_memstats_stack_inuse_bytes"]
}

// stacks is the memory of goroutine stacks (part of heapAndStacks).
func stacks(ctx context.Context, n *Node) float64 {
	m, err := Metrics(ctx, n.MetricsURL())
	if err != nil {
		return 0
	}
	return m["go_memstats_stack_inuse_bytes"]
}

func mib(b any) float64 {
	switch v := b.(type) {
	case uint64:
		return float64(v) / (1 << 20)
	case float64:
		return v / (1 << 20)
	}
	return 0
}

// runW1Peer holds W1's idle sockets on the peer: each connected with its
// token and subscribed to its user's own channel (what a signed-in chat
// user holds), idle for the same time, measured the same way (the
// peer's resident set and Go memory before and after, its CPU while idle).
func runW1Peer(ctx context.Context, o *Options) (*PeerResult, error) {
	spec, ok := Peers[o.Peer]
	if !ok {
		return nil, fmt.Errorf("unknown peer %q", o.Peer)
	}
	conns, idle := w1Shape(o)
	bin, err := PeerBinary(ctx, spec, o.logf)
	if err != nil {
		return nil, err
	}
	srv, err := StartPeer(ctx, spec, bin)
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	accounts := peerAccounts(conns)
	members := membersOf(accounts)
	for i := range members {
		members[i].Channel = fmt.Sprintf("personal:%d", members[i].Account.ID)
	}
	peer := &PeerPlan{URL: srv.WSURL(), Secret: srv.Secret}
	warm := min(20, conns)
	wf, _, err := StartFleet(ctx, []Plan{{Workload: "W1", Source: SourceAddr(0), Dialers: 4, Members: members[:warm], Peer: peer}}, o.logf)
	if err != nil {
		return nil, err
	}
	wf.Close()
	// The peer has no forced collection to ask for: give its collector a
	// moment after the warm sockets left, as kj's run does after its GC.
	sleepUntil(ctx, time.Now().Add(2*time.Second))
	base := srv.mark()
	baseM := srv.metrics(ctx)
	plans := splitPlans(Plan{Workload: "W1", Dialers: 32, Peer: peer}, members, workersFor(o, conns), 1)
	o.logf("W1 %s: %d sockets over %d generator processes", spec.Name, conns, len(plans))
	fleet, connectPerSec, err := startIdleFleet(ctx, o, plans, conns, idle)
	if err != nil {
		return nil, err
	}
	defer fleet.Close()
	mark := srv.mark()
	o.logf("W1 %s: %d sockets idle for %v", spec.Name, conns, idle)
	sleepUntil(ctx, time.Now().Add(idle))
	server, box, err := srv.measure(mark)
	if err != nil {
		return nil, err
	}
	after, _ := ReadProc(srv.PID)
	afterM := srv.metrics(ctx)
	fin, _, err := fleet.Finish(ctx, time.Second)
	if err != nil {
		return nil, err
	}
	_, _, alive, closed, _, _ := MergeFinals(fin)
	per := func(a, b float64) float64 { return (b - a) / float64(conns) }
	pr := &PeerResult{Name: spec.Name, Version: spec.Version, Server: server, Box: box,
		Config: map[string]any{"connections": conns, "idle": idle.String(), "generators": len(plans), "warmSockets": warm,
			"socket": "connected with an HS256 token, subscribed to its own channel (personal:<id>)"},
		Figures: map[string]float64{
			"connections":     float64(alive),
			"rssBytesPerConn": per(float64(base.proc.RSS), float64(after.RSS)),
			"idleCpuPercent":  server.CPUPercent,
			"connectPerSec":   connectPerSec,
			"rssMiB":          mib(after.RSS),
		}}
	if len(baseM) > 0 && len(afterM) > 0 {
		pr.Figures["heapBytesPerConn"] = per(baseM["go_memstats_heap_inuse_bytes"], afterM["go_memstats_heap_inuse_bytes"])
		pr.Figures["stackBytesPerConn"] = per(baseM["go_memstats_stack_inuse_bytes"], afterM["go_memstats_stack_inuse_bytes"])
	}
	if alive != conns {
		pr.Notes = append(pr.Notes, fmt.Sprintf("%d sockets closed while idle: %s", conns-alive, closedText(closed)))
	}
	o.logf("W1 %s: %s", spec.Name, figuresText(&Result{Figures: pr.Figures}))
	return pr, nil
}
