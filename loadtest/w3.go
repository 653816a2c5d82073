package loadtest

import (
	"context"
	"fmt"
	"time"
)

// W3: 10 groups × 1,000 online members; 20 members of each group post at
// a rising total rate and every post is delivered to the group's 999 other
// members. Figure: deliveries/s while p99 post→delivery <= 100 ms. Every
// member must receive every post of its group exactly once, in order.
func init() {
	register(&Workload{
		ID: "W3", Title: "group fanout, 10 groups x 1,000 members",
		// The stretch (300,000/s) is named in the text; the check is the target.
		Target: Target{Text: ">= 150,000 deliveries/s with p99 delivery <= 100 ms (stretch: 300,000)",
			Limits: map[string]float64{"min:sustainedDeliveriesPerSec": 150000}, LatencyMs: 100},
		Budget: 8 * time.Minute, SmokeBudget: 2 * time.Minute,
		Run: runW3,
	})
}

// commonRate is the delivery rate at which kj and the peer are both
// costed (serverCpuUsPerDeliveryAt20k): cost per delivery falls as a
// server's writes batch up, so it is compared at one rate.
const commonRate = 20000

// w3Shape is the workload's shape: groups of size members, posters of
// each posting, the ramp in posts per second over all groups, the warm-up.
func w3Shape(o *Options) (groups, size, posters int, ramp Ramp, warm time.Duration) {
	groups, size, posters, warm = 10, 1000, 20, 20*time.Second
	// In posts per second over all groups; deliveries = posts × (size-1).
	ramp = Ramp{Start: 4, Factor: 1.5, Max: 640, Hold: 10 * time.Second}
	if o.Smoke {
		groups, size, posters, warm = 2, 5, 2, time.Second
		ramp = Ramp{Start: 4, Step: 4, Max: 8, Hold: time.Second}
	}
	return
}

// w3Members gives each group's first posters a sending lane into the
// group (groupIDs[g]: kj's group id, or the peer's channel) and every
// member the other posters' streams to expect.
func w3Members(accounts []Account, groupIDs []string, size, posters int, peer bool) ([]Member, int) {
	members := make([]Member, len(accounts))
	lane := 0
	for g := range groupIDs {
		var streams []string
		for j := range posters {
			streams = append(streams, fmt.Sprintf("g%d.s%d", g, j))
		}
		for k := range size {
			i := g*size + k
			m := Member{Account: accounts[i]}
			if peer {
				m.Channel = groupIDs[g]
			}
			for j, s := range streams {
				if j == k {
					m.Send = &Send{Lane: lane, GroupID: groupIDs[g], Stream: s}
					lane++
					continue
				}
				m.Expect = append(m.Expect, s)
			}
			members[i] = m
		}
	}
	return members, lane
}

func runW3(ctx context.Context, o *Options) (*Result, error) {
	r, err := runW3KJ(ctx, o)
	if err != nil || o.Peer == "" {
		return r, err
	}
	// kj's server is stopped by now: the peer has the box to itself too.
	if r.Peer, err = runW3Peer(ctx, o); err != nil {
		return nil, fmt.Errorf("peer %s: %w", o.Peer, err)
	}
	return r, nil
}

func runW3KJ(ctx context.Context, o *Options) (*Result, error) {
	groups, size, posters, ramp, warm := w3Shape(o)
	users := groups * size
	st, accounts, err := stackWithUsers(ctx, o, StackOptions{Pprof: o.Profile != ""}, FixtureOptions{Users: users}, "W3")
	if err != nil {
		return nil, err
	}
	defer st.Close(context.Background())
	node := st.Nodes[0]
	// Each group is created by its first member through the chat
	// protocol (CreateGroup with the other 999 as members).
	groupIDs, err := createGroups(ctx, wsBase(node), accounts, groups, size, "load")
	if err != nil {
		return nil, err
	}
	o.logf("W3: %d groups of %d created", groups, size)
	members, lanes := w3Members(accounts, groupIDs, size, posters, false)
	plans := splitPlans(Plan{Workload: "W3", WSBase: wsBase(node), Lanes: lanes, Ramp: ramp, Dialers: 32, Grace: time.Second, Warm: warm},
		members, workersFor(o, users), 1)
	o.logf("W3: %d sockets over %d generator processes, %d posting lanes", users, len(plans), lanes)
	fleet, err := startReadyFleet(ctx, o, plans, users)
	if err != nil {
		return nil, err
	}
	defer fleet.Close()
	mark := st.Mark()
	fanout := float64(size - 1)
	steps, deliver, ack, fin, err := chatRampCPU(ctx, o, fleet, ramp, warm, 100*time.Millisecond, fanout, false, "W3",
		NewProfiler(o, node, "W3"), func() float64 { return procCPU(node.PID) }, commonRate*1.05)
	if err != nil {
		return nil, err
	}
	server, box, err := st.Measure(ctx, mark)
	if err != nil {
		return nil, err
	}
	r := &Result{Steps: steps, Latency: deliver.Summary(), Server: server, Box: box, Loss: &fin.Loss,
		Config:  map[string]any{"groups": groups, "members": size, "posters": posters, "ramp (posts/s)": ramp, "generators": len(plans)},
		Figures: w3Figures(steps, ack)}
	for _, s := range steps {
		r.Errors += s.Errors
	}
	if fin.Alive != users {
		r.Errors += int64(users - fin.Alive)
		r.Notes = append(r.Notes, fmt.Sprintf("%d sockets closed during the run: %s", users-fin.Alive, closedText(fin.Closed)))
	}
	r.Notes = append(r.Notes, fmt.Sprintf("loss check: %s", fin.Loss))
	addCostFigures(r, "Delivery")
	return r, nil
}

// w3Figures are the headline figures of a W3 ramp (kj's or the peer's).
func w3Figures(steps []StepResult, ack *Histogram) map[string]float64 {
	f := map[string]float64{"sustainedDeliveriesPerSec": Sustained(steps), "postAckP99Ms": ack.Summary().P99}
	if best := bestHolding(steps); best != nil {
		f["p99MsAtSustained"] = best.Latency.P99
	}
	if v := cpuPerDoneAt(steps, commonRate); v > 0 {
		f["serverCpuUsPerDeliveryAt20k"] = v
	}
	return f
}

// runW3Peer runs W3's shape against the peer: the same groups (one
// channel each, every member subscribed), the same posters, lanes, ramp,
// warm-up and generator processes; posts are client publications.
func runW3Peer(ctx context.Context, o *Options) (*PeerResult, error) {
	spec, ok := Peers[o.Peer]
	if !ok {
		return nil, fmt.Errorf("unknown peer %q", o.Peer)
	}
	groups, size, posters, ramp, warm := w3Shape(o)
	users := groups * size
	bin, err := PeerBinary(ctx, spec, o.logf)
	if err != nil {
		return nil, err
	}
	srv, err := StartPeer(ctx, spec, bin)
	if err != nil {
		return nil, err
	}
	defer srv.Stop()
	accounts := peerAccounts(users)
	channels := make([]string, groups)
	for g := range channels {
		channels[g] = fmt.Sprintf("group:%d", g)
	}
	members, lanes := w3Members(accounts, channels, size, posters, true)
	plans := splitPlans(Plan{Workload: "W3", Lanes: lanes, Ramp: ramp, Dialers: 32, Grace: time.Second, Warm: warm,
		Peer: &PeerPlan{URL: srv.WSURL(), Secret: srv.Secret}}, members, workersFor(o, users), 1)
	o.logf("W3 %s: %d sockets over %d generator processes, %d posting lanes", spec.Name, users, len(plans), lanes)
	fleet, err := startReadyFleet(ctx, o, plans, users)
	if err != nil {
		return nil, err
	}
	defer fleet.Close()
	mark := srv.mark()
	steps, deliver, ack, fin, err := chatRampCPU(ctx, o, fleet, ramp, warm, 100*time.Millisecond, float64(size-1), false,
		"W3 "+spec.Name, nil, srv.cpu, commonRate*1.05)
	if err != nil {
		return nil, err
	}
	server, box, err := srv.measure(mark)
	if err != nil {
		return nil, err
	}
	pr := &PeerResult{Name: spec.Name, Version: spec.Version, Steps: steps, Latency: deliver.Summary(), Server: server, Box: box,
		Loss: &fin.Loss, Figures: w3Figures(steps, ack),
		Config: map[string]any{"channels": groups, "subscribers": size, "posters": posters, "ramp (posts/s)": ramp, "generators": len(plans),
			"publish": "client publish into a channel its subscribers share (namespace with allow_publish_for_subscriber)"}}
	if fin.Alive != users {
		pr.Notes = append(pr.Notes, fmt.Sprintf("%d sockets closed during the run: %s", users-fin.Alive, closedText(fin.Closed)))
	}
	pr.Notes = append(pr.Notes, fmt.Sprintf("loss check: %s", fin.Loss))
	for k, v := range costFigures(steps, server, box, "Delivery") {
		pr.Figures[k] = v
	}
	if !fin.Loss.OK() {
		// The peer promises at most once without history: a subscriber it
		// drops as too slow misses what was published meanwhile. Its
		// figures still count only what arrived; the note says what did not.
		pr.Notes = append(pr.Notes, "the peer does not deliver exactly once without history and recovery: messages missing above were not delivered")
	}
	o.logf("W3 %s: %s", spec.Name, figuresText(&Result{Figures: pr.Figures}))
	return pr, nil
}

// peerAccounts are n users for the peer, which keeps no accounts: only
// their ids (its tokens are signed by the harness).
func peerAccounts(n int) []Account {
	out := make([]Account, n)
	for i := range out {
		out[i] = Account{ID: int64(i + 1), Account: fmt.Sprintf("peer%d", i+1)}
	}
	return out
}
