package loadtest

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// W2: 10,000 online users in 5,000 pairs, each user sending 1:1 text
// messages to its pair over the chat socket at a rising total rate. A
// message is acknowledged only once durable (PostgreSQL); its latency is
// from when it was due to its delivery on the peer's socket. Target:
// >= 10,000 durable msg/s while p99 send→deliver <= 50 ms (stretch:
// 20,000, named in the text; the check is the target). Every message
// must arrive exactly once, in order, or the run fails.
func init() {
	register(&Workload{
		ID: "W2", Title: "1:1 chat in pairs, rising send rate",
		Target: Target{Text: ">= 10,000 durable msg/s with p99 send->deliver <= 50 ms (stretch: 20,000)",
			Limits: map[string]float64{"min:sustainedMsgPerSec": 10000}},
		Budget: 8 * time.Minute, SmokeBudget: 2 * time.Minute,
		Run: runW2,
	})
}

func runW2(ctx context.Context, o *Options) (*Result, error) {
	users, warm := 10000, 30*time.Second
	ramp := Ramp{Start: 250, Factor: 1.5, Max: 32000, Hold: 10 * time.Second}
	if o.Smoke {
		users, warm = 20, time.Second
		ramp = Ramp{Start: 20, Step: 20, Max: 40, Hold: time.Second}
	}
	if o.Conns > 0 {
		users = o.Conns &^ 1
	}
	st, accounts, err := stackWithUsers(ctx, o, StackOptions{Pprof: o.Profile != ""}, FixtureOptions{Users: users}, "W2")
	if err != nil {
		return nil, err
	}
	defer st.Close(context.Background())
	node := st.Nodes[0]
	members := make([]Member, users)
	for i := range users {
		peer := i ^ 1
		stream := fmt.Sprintf("p%d.%c", i/2, 'a'+i%2)
		peerStream := fmt.Sprintf("p%d.%c", i/2, 'a'+peer%2)
		members[i] = Member{Account: accounts[i],
			Send:   &Send{Lane: i, RecvID: strconv.FormatInt(accounts[peer].ID, 10), Stream: stream},
			Expect: []string{peerStream}}
	}
	plans := splitPlans(Plan{Workload: "W2", WSBase: wsBase(node), Lanes: users, Ramp: ramp, Dialers: 32, Grace: time.Second, Warm: warm},
		members, workersFor(o, users), 2)
	o.logf("W2: %d sockets over %d generator processes", users, len(plans))
	fleet, err := startReadyFleet(ctx, o, plans, users)
	if err != nil {
		return nil, err
	}
	defer fleet.Close()
	mark := st.Mark()
	steps, deliver, ack, fin, err := chatRamp(ctx, o, fleet, ramp, warm, 50*time.Millisecond, 1, true, "W2", NewProfiler(o, node, "W2"))
	if err != nil {
		return nil, err
	}
	server, box, err := st.Measure(ctx, mark)
	if err != nil {
		return nil, err
	}
	r := &Result{Steps: steps, Latency: deliver.Summary(), Server: server, Box: box, Loss: &fin.Loss,
		Config:  map[string]any{"users": users, "pairs": users / 2, "ramp": ramp, "generators": len(plans)},
		Figures: map[string]float64{"sustainedMsgPerSec": Sustained(steps)}}
	for _, s := range steps {
		r.Errors += s.Errors
	}
	if best := bestHolding(steps); best != nil {
		r.Figures["p99MsAtSustained"], r.Figures["ackP99MsAtSustained"] = best.Latency.P99, best.Ack.P99
	}
	r.Figures["ackP99Ms"] = ack.Summary().P99
	if fin.Alive != users {
		r.Errors += int64(users - fin.Alive)
		r.Notes = append(r.Notes, fmt.Sprintf("%d sockets closed during the run: %s", users-fin.Alive, closedText(fin.Closed)))
	}
	if fin.Unacked > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("%d messages sent were never acknowledged", fin.Unacked))
	}
	r.Notes = append(r.Notes, fmt.Sprintf("loss check: %s", fin.Loss))
	addCostFigures(r, "Msg")
	return r, nil
}

// bestHolding is the holding step with the highest achieved rate.
func bestHolding(steps []StepResult) *StepResult {
	var best *StepResult
	for i := range steps {
		if steps[i].Verdict == Holds.String() && (best == nil || steps[i].Achieved > best.Achieved) {
			best = &steps[i]
		}
	}
	return best
}
