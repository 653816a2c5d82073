package loadtest

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// W3: 10 groups × 1,000 online members; 20 members of each group post at
// a rising total rate and every post is delivered to the group's 999 other
// members. Figure: deliveries/s while p99 post→delivery <= 100 ms. Every
// member must receive every post of its group exactly once, in order.
func init() {
	register(&Workload{
		ID: "W3", Title: "group fanout, 10 groups x 1,000 members",
		Target: Target{Text: ">= 300,000 deliveries/s with p99 delivery <= 100 ms",
			Limits: map[string]float64{"min:sustainedDeliveriesPerSec": 300000}},
		Budget: 8 * time.Minute, SmokeBudget: 2 * time.Minute,
		Run: runW3,
	})
}

func runW3(ctx context.Context, o *Options) (*Result, error) {
	groups, size, posters, warm := 10, 1000, 20, 20*time.Second
	// In posts per second over all groups; deliveries = posts × (size-1).
	ramp := Ramp{Start: 4, Factor: 1.5, Max: 640, Hold: 10 * time.Second}
	if o.Smoke {
		groups, size, posters, warm = 2, 5, 2, time.Second
		ramp = Ramp{Start: 4, Step: 4, Max: 8, Hold: time.Second}
	}
	users := groups * size
	st, err := NewStack(ctx, StackOptions{Bin: o.Bin, Keep: o.Keep, Log: o.logf, Pprof: o.Profile != ""})
	if err != nil {
		return nil, err
	}
	defer st.Close(context.Background())
	o.logf("W3: fixture of %d users", users)
	accounts, err := LoadUsers(ctx, st.DB, FixtureOptions{Users: users})
	if err != nil {
		return nil, err
	}
	if err := st.Start(ctx); err != nil {
		return nil, err
	}
	node := st.Nodes[0]
	// Each group is created by its first member through the chat
	// protocol (CreateGroup with the other 999 as members).
	groupIDs := make([]string, groups)
	for g := range groups {
		owner := accounts[g*size]
		c, err := DialChat(ctx, wsBase(node), "", owner, nil)
		if err != nil {
			return nil, err
		}
		ids := make([]string, 0, size-1)
		for _, a := range accounts[g*size+1 : (g+1)*size] {
			ids = append(ids, strconv.FormatInt(a.ID, 10))
		}
		params, _ := json.Marshal(map[string]any{"memberUserIDs": ids, "adminUserIDs": []string{},
			"ownerUserID": c.UserID, "groupInfo": map[string]any{"groupName": fmt.Sprintf("load %d", g)}})
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
		groupIDs[g] = item.GroupID
	}
	o.logf("W3: %d groups of %d created", groups, size)
	members := make([]Member, users)
	lane := 0
	for g := range groups {
		var streams []string
		for j := range posters {
			streams = append(streams, fmt.Sprintf("g%d.s%d", g, j))
		}
		for k := range size {
			i := g*size + k
			m := Member{Account: accounts[i]}
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
	plans := splitPlans(Plan{Workload: "W3", WSBase: wsBase(node), Lanes: lane, Ramp: ramp, Dialers: 32, Grace: time.Second, Warm: warm},
		members, workersFor(o, users), 1)
	o.logf("W3: %d sockets over %d generator processes, %d posting lanes", users, len(plans), lane)
	fleet, readies, err := StartFleet(ctx, plans, o.logf)
	if err != nil {
		return nil, err
	}
	defer fleet.Close()
	if err := fleetReady(o, readies, users); err != nil {
		return nil, err
	}
	mark := st.Mark()
	fanout := float64(size - 1)
	steps, deliver, ack, fin, err := chatRamp(ctx, o, fleet, ramp, warm, 100*time.Millisecond, fanout, false, "W3", NewProfiler(o, node, "W3"))
	if err != nil {
		return nil, err
	}
	server, box, err := st.Measure(ctx, mark)
	if err != nil {
		return nil, err
	}
	r := &Result{Steps: steps, Latency: deliver.Summary(), Server: server, Box: box, Loss: &fin.Loss,
		Config:  map[string]any{"groups": groups, "members": size, "posters": posters, "ramp (posts/s)": ramp, "generators": len(plans)},
		Figures: map[string]float64{"sustainedDeliveriesPerSec": Sustained(steps), "postAckP99Ms": ack.Summary().P99}}
	for _, s := range steps {
		r.Errors += s.Errors
	}
	if best := bestHolding(steps); best != nil {
		r.Figures["p99MsAtSustained"] = best.Latency.P99
	}
	if fin.Alive != users {
		r.Errors += int64(users - fin.Alive)
		r.Notes = append(r.Notes, fmt.Sprintf("%d sockets closed during the run: %s", users-fin.Alive, closedText(fin.Closed)))
	}
	r.Notes = append(r.Notes, fmt.Sprintf("loss check: %s", fin.Loss))
	addCostFigures(r, "Delivery")
	return r, nil
}
