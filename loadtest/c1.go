package loadtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"kj/storage"
)

// C1: failover. Three kj processes (cluster mode: PostgreSQL, Redis, NATS)
// behind HAProxy; users reach them only through the load balancer: 1:1
// pairs and groups chatting at a steady rate, players betting over HTTP in
// every activation window, and idle sockets. Mid-run one node (the one
// running the windows) is killed with SIGKILL; later it is started again,
// and then every node is restarted in turn (SIGTERM, drain, start). Each
// event is timed: how long until every socket it closed is open again
// through the load balancer, how long until its windows run on another
// node, and the p99 delivery latency before, during and after it. At the
// end every user catches up by seq and the counts must be exact: no
// acknowledged message lost or stored twice, seqs without gaps, every
// acknowledged bet stored and settled once, no round drawn twice, and
// `kj ledger check` green after every event.
func init() {
	register(&Workload{
		ID: "C1", Title: "failover: a node killed, restarted, then a rolling restart, behind HAProxy",
		Target: Target{Text: "0 acknowledged messages lost or duplicated, seqs gapless; every acknowledged bet settled once; " +
			"ledger check green; sockets back within 10 s; windows taken over within one phase",
			Limits: map[string]float64{"max:lostMessages": 0, "max:duplicateMessages": 0, "max:seqGaps": 0, "max:lostBets": 0,
				"max:betsMissettled": 0, "max:roundsDrawnTwice": 0, "max:ledgerCheckFailures": 0,
				"max:reconnectSeconds": 10, "max:takeoverSeconds": c1Phase.Seconds(), "min:nodes": 2}},
		Budget: 15 * time.Minute, SmokeBudget: 4 * time.Minute,
		Run: runC1,
	})
}

// c1Phase is the shortest phase of the windows (drawing and rest): a
// window must be running again on another node within it.
const c1Phase = 7 * time.Second

// c1Scale sizes a run.
type c1Scale struct {
	Nodes         int
	Pairs         int
	Groups        int
	GroupSize     int
	Posters       int // senders per group
	Idle          int
	Players       int
	MsgPerSec     float64
	BetsPerSec    float64
	Before, After time.Duration // steady traffic before the first event, and after each
}

// C1Event is one disturbance and what it cost.
type C1Event struct {
	Name             string  `json:"name"` // kill, restart, drain-<i>
	Node             int     `json:"node"`
	AtSeconds        float64 `json:"atSeconds"` // since the traffic began
	SocketsClosed    int     `json:"socketsClosed"`
	ReconnectSeconds float64 `json:"reconnectSeconds"` // until the last closed socket was open again
	WindowsMoved     int     `json:"windowsMoved"`
	TakeoverSeconds  float64 `json:"takeoverSeconds"` // until every window it ran held a new lease (on any live node)
	RecoveredSeconds float64 `json:"recoveredSeconds"`
	P99MsBefore      float64 `json:"p99MsBefore"` // delivery latency, 10 s before
	P99MsDuring      float64 `json:"p99MsDuring"` // from the event until recovered (+1 s)
	P99MsAfter       float64 `json:"p99MsAfter"`  // the 10 s after that
	AckP99MsDuring   float64 `json:"ackP99MsDuring"`
	LedgerCheck      string  `json:"ledgerCheck"`
}

func runC1(ctx context.Context, o *Options) (*Result, error) {
	sc := c1Scale{Nodes: 3, Pairs: 300, Groups: 6, GroupSize: 30, Posters: 6, Idle: 3000, Players: 200,
		MsgPerSec: 300, BetsPerSec: 100, Before: 20 * time.Second, After: 15 * time.Second}
	if o.Smoke {
		sc = c1Scale{Nodes: 3, Pairs: 10, Groups: 2, GroupSize: 6, Posters: 2, Idle: 100, Players: 12,
			MsgPerSec: 30, BetsPerSec: 6, Before: 8 * time.Second, After: 5 * time.Second}
	}
	if o.Conns > 0 {
		sc.Idle = o.Conns
	}
	st, err := NewStack(ctx, StackOptions{Bin: o.Bin, Keep: o.Keep, Log: o.logf, Nodes: sc.Nodes, Env: map[string]string{
		"KJ_WINDOW_COUNT": "3", "KJ_WINDOW_BETTING": "10s", "KJ_WINDOW_DRAWING": c1Phase.String(), "KJ_WINDOW_REST": c1Phase.String(),
		"KJ_WINDOW_MIN_BET": "100", "KJ_SHUTDOWN_TIMEOUT": "15s",
	}})
	if err != nil {
		return nil, err
	}
	defer st.Close(context.Background())
	chatters := sc.Pairs*2 + sc.Groups*sc.GroupSize
	users := chatters + sc.Idle + sc.Players
	o.logf("C1: fixture of %d users (%d chatting, %d idle, %d players)", users, chatters, sc.Idle, sc.Players)
	accounts, err := LoadUsers(ctx, st.DB, FixtureOptions{Users: users})
	if err != nil {
		return nil, err
	}
	players := accounts[chatters+sc.Idle:]
	if err := Fund(ctx, st.DB, players, 100_000_000); err != nil {
		return nil, err
	}
	if err := st.Start(ctx); err != nil {
		return nil, err
	}
	lb, err := StartLoadBalancer(ctx, st.Dir, st.Nodes)
	if err != nil {
		return nil, err
	}
	defer lb.Stop()
	o.logf("C1: %d nodes behind haproxy at %s", len(st.Nodes), lb.URL)

	groupIDs, err := createGroups(ctx, lb.WSBase(), accounts[sc.Pairs*2:chatters], sc.Groups, sc.GroupSize, "failover")
	if err != nil {
		return nil, err
	}
	rec := newC1Recorder()
	clients, lanes := c1Plan(sc, accounts, groupIDs, lb.WSBase(), rec)
	cctx, stopClients := context.WithCancel(ctx)
	defer stopClients()
	var wg sync.WaitGroup
	t0 := time.Now()
	if err := c1Connect(cctx, clients, &wg); err != nil {
		return nil, err
	}
	o.logf("C1: %d sockets up through the load balancer in %.1f s", len(clients), time.Since(t0).Seconds())

	start := time.Now().Add(500 * time.Millisecond)
	stopSend := make(chan struct{})
	var sendWG sync.WaitGroup
	for _, l := range lanes {
		sendWG.Add(1)
		go func() { defer sendWG.Done(); l.run(cctx, start, stopSend) }()
	}
	bets := newC1Bets(st.DB, NewAPI(lb.URL, 64, ""), players, sc.BetsPerSec)
	sendWG.Add(1)
	go func() { defer sendWG.Done(); bets.run(cctx, start, stopSend) }()

	ledgerCheck := func() string { return c1LedgerCheck(ctx, st) }
	var events []C1Event
	// event times one event and records it with the ledger check after it.
	event := func(name string, node int, cause func() error) error {
		ev, err := c1Event(ctx, o, st, clients, rec, start, name, node, sc.After, cause)
		if err != nil {
			return err
		}
		ev.LedgerCheck = ledgerCheck()
		events = append(events, ev)
		return nil
	}
	// restart starts node i again and waits until HAProxy sends it traffic.
	restart := func(i int) error {
		if err := st.Restart(ctx, i); err != nil {
			return err
		}
		return lb.WaitUp(ctx, st.Nodes[i])
	}
	sleepUntil(ctx, start.Add(sc.Before))

	// 1. SIGKILL the node running the most windows.
	victim, err := c1WindowNode(ctx, st)
	if err != nil {
		return nil, err
	}
	err = event("kill", victim, func() error {
		st.Nodes[victim].Kill()
		return nil
	})
	if err != nil {
		return nil, err
	}

	// 2. Start it again.
	if err := event("restart", victim, func() error { return restart(victim) }); err != nil {
		return nil, err
	}

	// 3. Rolling restart: each node drains (SIGTERM), exits, starts again.
	for i := range st.Nodes {
		err = event(fmt.Sprintf("drain-%d", i), i, func() error {
			t := time.Now()
			st.Nodes[i].Stop()
			o.logf("C1: node %d drained and exited in %.2f s", i, time.Since(t).Seconds())
			return restart(i)
		})
		if err != nil {
			return nil, err
		}
	}

	close(stopSend)
	sendWG.Wait()
	o.logf("C1: traffic stopped; every user catches up")
	for _, c := range clients {
		if !c.track {
			continue
		}
		conn, err := c.current(ctx)
		if err == nil {
			err = c.catchUp(ctx, conn)
		}
		if err != nil {
			return nil, fmt.Errorf("final catch-up of %s: %w", c.acct.Account, err)
		}
	}
	o.logf("C1: waiting for the rounds with bets to be settled")
	betCheck, err := bets.check(ctx)
	if err != nil {
		return nil, err
	}
	final := ledgerCheck()
	stopClients()
	wg.Wait()

	msgs := c1CheckMessages(clients, lanes, rec)
	r := &Result{Latency: rec.between(true, start, time.Now()).Summary(), Config: map[string]any{
		"scale": sc, "windows": 3, "betting": "10s", "drawing": c1Phase.String(), "rest": c1Phase.String(),
		"events": events, "messages": msgs, "bets": betCheck, "finalLedgerCheck": final, "socketCloses": rec.closes,
	}, Figures: map[string]float64{
		"nodes": float64(sc.Nodes), "sockets": float64(len(clients)),
		"lostMessages": float64(msgs.Lost), "duplicateMessages": float64(int64(msgs.Duplicates) + msgs.SeqConflicts),
		"seqGaps": float64(msgs.Gaps), "ackedMessages": float64(msgs.Acked),
		"lostBets": float64(betCheck.Lost), "ackedBets": float64(betCheck.Acked), "betsMissettled": float64(betCheck.Missettled),
		"roundsDrawnTwice": float64(betCheck.DrawnTwice), "lbMarkedDown": float64(lb.MarkedDown()),
	}}
	failures := 0
	for _, e := range append(events, C1Event{LedgerCheck: final}) {
		if e.LedgerCheck != "ok" {
			failures++
		}
	}
	r.Figures["ledgerCheckFailures"] = float64(failures)
	var reconnect, takeover float64
	for _, e := range events {
		reconnect, takeover = max(reconnect, e.ReconnectSeconds), max(takeover, e.TakeoverSeconds)
		key := e.Name
		if key != "kill" && key != "restart" {
			key = "rolling"
		}
		r.Figures[key+"P99MsBefore"] = max(r.Figures[key+"P99MsBefore"], e.P99MsBefore)
		r.Figures[key+"P99MsDuring"] = max(r.Figures[key+"P99MsDuring"], e.P99MsDuring)
		r.Figures[key+"P99MsAfter"] = max(r.Figures[key+"P99MsAfter"], e.P99MsAfter)
	}
	r.Figures["reconnectSeconds"], r.Figures["takeoverSeconds"] = reconnect, takeover
	r.Figures["killReconnectSeconds"], r.Figures["killTakeoverSeconds"] = events[0].ReconnectSeconds, events[0].TakeoverSeconds
	r.Notes = append(r.Notes, fmt.Sprintf("messages: %+v", msgs), fmt.Sprintf("bets: %+v", betCheck))
	r.Notes = append(r.Notes, rec.late...)
	for _, e := range events {
		r.Notes = append(r.Notes, fmt.Sprintf("%s node %d at %.1f s: %d sockets back in %.2f s, %d windows moved in %.2f s, p99 %.1f / %.1f / %.1f ms, ledger %s",
			e.Name, e.Node, e.AtSeconds, e.SocketsClosed, e.ReconnectSeconds, e.WindowsMoved, e.TakeoverSeconds, e.P99MsBefore, e.P99MsDuring, e.P99MsAfter, e.LedgerCheck))
	}
	if o.Out != "" {
		if err := os.MkdirAll(o.Out, 0o755); err != nil {
			return nil, err
		}
		if msgs.Lost+msgs.Duplicates+msgs.Gaps+betCheck.Lost+betCheck.Missettled > 0 || reconnect > 10 {
			// Keep the nodes' logs (warnings and errors) beside the result.
			if b, err := os.ReadFile(lb.LogPath); err == nil {
				_ = os.WriteFile(filepath.Join(o.Out, "C1-haproxy.log"), b, 0o644)
			}
			for _, n := range st.Nodes {
				if b, err := os.ReadFile(n.LogPath); err == nil {
					_ = os.WriteFile(filepath.Join(o.Out, fmt.Sprintf("C1-node-%d.log", n.Index)), b, 0o644)
				}
			}
		}
		if err := c1Plot(r, rec, start, events, filepath.Join(o.Out, "C1.png")); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// c1Plan makes the clients (pairs, group members, idle sockets) and the
// sending lanes, spreading the message rate evenly over the lanes.
func c1Plan(sc c1Scale, accounts []Account, groupIDs []string, ws string, rec *c1Recorder) ([]*c1Client, []*c1Lane) {
	var clients []*c1Client
	type laneSpec struct {
		from   *c1Client
		to     c1Conv
		stream string
	}
	var specs []laneSpec
	for p := range sc.Pairs {
		a, b := accounts[2*p], accounts[2*p+1]
		ua, ub := strconv.FormatInt(a.ID, 10), strconv.FormatInt(b.ID, 10)
		ca := newC1Client(a, ws, []c1Conv{{Key: "u" + ub, UserID: ub}}, true, rec)
		cb := newC1Client(b, ws, []c1Conv{{Key: "u" + ua, UserID: ua}}, true, rec)
		clients = append(clients, ca, cb)
		specs = append(specs, laneSpec{ca, ca.convs[0], fmt.Sprintf("p%d.a", p)}, laneSpec{cb, cb.convs[0], fmt.Sprintf("p%d.b", p)})
	}
	base := sc.Pairs * 2
	for g := range sc.Groups {
		conv := c1Conv{Key: "g" + groupIDs[g], GroupID: groupIDs[g]}
		for k := range sc.GroupSize {
			c := newC1Client(accounts[base+g*sc.GroupSize+k], ws, []c1Conv{conv}, true, rec)
			clients = append(clients, c)
			if k < sc.Posters {
				specs = append(specs, laneSpec{c, conv, fmt.Sprintf("g%d.s%d", g, k)})
			}
		}
	}
	base += sc.Groups * sc.GroupSize
	for i := range sc.Idle {
		clients = append(clients, newC1Client(accounts[base+i], ws, nil, false, rec))
	}
	period := time.Duration(float64(len(specs)) / sc.MsgPerSec * float64(time.Second))
	lanes := make([]*c1Lane, len(specs))
	for i, s := range specs {
		lanes[i] = &c1Lane{from: s.from, to: s.to, stream: s.stream, period: period,
			offset: time.Duration(float64(period) * float64(i) / float64(len(specs)))}
	}
	return clients, lanes
}

// c1Connect starts every client, 64 dialling at a time, and waits until
// each has logged in once.
func c1Connect(ctx context.Context, clients []*c1Client, wg *sync.WaitGroup) error {
	sem := make(chan struct{}, 64)
	errc := make(chan error, len(clients))
	for _, c := range clients {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			once := sync.Once{}
			c.run(ctx, func(err error) { once.Do(func() { <-sem; errc <- err }) })
		}()
	}
	for range clients {
		if err := <-errc; err != nil {
			return fmt.Errorf("a socket could not connect through the load balancer: %w", err)
		}
	}
	return nil
}

// c1WindowNode is the node holding the most window leases.
func c1WindowNode(ctx context.Context, st *Stack) (int, error) {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		leases, err := storage.RoundLeases(ctx, st.DB)
		if err != nil {
			return 0, err
		}
		count := map[string]int{}
		now := time.Now().UnixMilli()
		for _, l := range leases {
			if l.ExpiresAt > now {
				count[l.Holder]++
			}
		}
		best, bestN := -1, 0
		for i := range st.Nodes {
			if n := count[fmt.Sprintf("load-%d", i)]; n > bestN {
				best, bestN = i, n
			}
		}
		if best >= 0 {
			return best, nil
		}
		c1Sleep(ctx, 200*time.Millisecond)
	}
	return 0, errors.New("no node holds a window lease")
}

// c1Event runs one disturbance on node i and measures it: the sockets it
// closed and when they were open again, the windows it ran and when they
// ran elsewhere, latency around it; then traffic goes on for after.
func c1Event(ctx context.Context, o *Options, st *Stack, clients []*c1Client, rec *c1Recorder, start time.Time,
	name string, i int, after time.Duration, do func() error) (C1Event, error) {
	holder := fmt.Sprintf("load-%d", i)
	leases, err := storage.RoundLeases(ctx, st.DB)
	if err != nil {
		return C1Event{}, err
	}
	var held []int64
	epochs := map[int64]int64{}
	for _, l := range leases {
		if l.Holder == holder && l.ExpiresAt > time.Now().UnixMilli() {
			held = append(held, l.WindowID)
			epochs[l.WindowID] = l.Epoch
		}
	}
	outagesBefore := make([]int, len(clients))
	for k, c := range clients {
		c.mu.Lock()
		outagesBefore[k] = len(c.outages)
		c.mu.Unlock()
	}
	at := time.Now()
	o.logf("C1: %s node %d (%d windows)", name, i, len(held))
	ev := C1Event{Name: name, Node: i, AtSeconds: at.Sub(start).Seconds(), WindowsMoved: len(held)}

	// Takeover is watched while the event runs (a restart takes a while):
	// each window the node ran holds a new lease (its epoch grew), on
	// another node or on the node started again, whichever took it first.
	var takeover atomic.Int64
	tctx, stopWatch := context.WithCancel(ctx)
	watchDone := make(chan struct{})
	go func() {
		defer close(watchDone)
		if len(held) == 0 {
			return
		}
		for tctx.Err() == nil {
			ls, err := storage.RoundLeases(tctx, st.DB)
			if err == nil {
				now := time.Now().UnixMilli()
				moved := 0
				for _, l := range ls {
					for _, w := range held {
						if l.WindowID == w && l.Epoch > epochs[w] && l.ExpiresAt > now {
							moved++
						}
					}
				}
				if moved == len(held) {
					takeover.Store(int64(time.Since(at)))
					return
				}
			}
			c1Sleep(tctx, 50*time.Millisecond)
		}
	}()
	if err := do(); err != nil {
		stopWatch()
		return ev, err
	}
	// Recovered: every socket open, the windows running elsewhere.
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		taken := false
		select {
		case <-watchDone:
			taken = true
		default:
		}
		down := 0
		for _, c := range clients {
			if !c.up.Load() {
				down++
			}
		}
		if taken && down == 0 {
			break
		}
		c1Sleep(ctx, 50*time.Millisecond)
	}
	stopWatch()
	<-watchDone
	recovered := time.Now()
	ev.RecoveredSeconds = recovered.Sub(at).Seconds()
	if len(held) > 0 {
		if t := takeover.Load(); t > 0 {
			ev.TakeoverSeconds = time.Duration(t).Seconds()
		} else {
			ev.TakeoverSeconds = 999 // never taken over
			ls, _ := storage.RoundLeases(ctx, st.DB)
			o.logf("C1: %s node %d: windows %v not taken over; leases now %+v", name, i, held, ls)
			for _, n := range st.Nodes {
				o.logf("C1: log of node %d:\n%s", n.Index, tail(n.LogPath, 15))
			}
		}
	}
	for k, c := range clients {
		c.mu.Lock()
		for _, out := range c.outages[outagesBefore[k]:] {
			ev.SocketsClosed++
			ev.ReconnectSeconds = max(ev.ReconnectSeconds, out.Up.Sub(at).Seconds())
		}
		if !c.up.Load() {
			ev.SocketsClosed++
			ev.ReconnectSeconds = 999 // still down
		}
		c.mu.Unlock()
	}
	sleepUntil(ctx, recovered.Add(after))
	during := recovered.Add(time.Second)
	ev.P99MsBefore = rec.between(true, at.Add(-10*time.Second), at).Summary().P99
	ev.P99MsDuring = rec.between(true, at, during).Summary().P99
	ev.P99MsAfter = rec.between(true, during, during.Add(10*time.Second)).Summary().P99
	ev.AckP99MsDuring = rec.between(false, at, during).Summary().P99
	o.logf("C1: %s node %d: %d sockets back in %.2f s, %d windows moved in %.2f s; p99 %.1f / %.1f / %.1f ms",
		name, i, ev.SocketsClosed, ev.ReconnectSeconds, ev.WindowsMoved, ev.TakeoverSeconds, ev.P99MsBefore, ev.P99MsDuring, ev.P99MsAfter)
	return ev, ctx.Err()
}

// c1LedgerCheck runs `kj ledger check` on the stack's store: "ok" or
// what it said.
func c1LedgerCheck(ctx context.Context, st *Stack) string {
	cmd := exec.CommandContext(ctx, st.Bin, "ledger", "check")
	cmd.Env = []string{"KJ_DATABASE_URL=" + st.DBURL, "KJ_AUTO_MIGRATE=false", "KJ_DATA_DIR=" + filepath.Join(st.Dir, "ledger-check")}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Sprintf("failed: %v: %s", err, tailText(string(out), 400))
	}
	return "ok"
}

func tailText(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// C1Messages is the end-of-run count of the chat traffic.
type C1Messages struct {
	Acked        int   `json:"acked"`
	Deliveries   int   `json:"deliveries"` // acknowledged messages × their recipients
	Lost         int   `json:"lost"`       // a recipient never got an acknowledged message
	Duplicates   int   `json:"duplicates"` // a message stored under two seqs, or under another seq than its ack said
	SeqConflicts int64 `json:"seqConflicts"`
	Gaps         int   `json:"gaps"` // seqs missing between a conversation's lowest and highest
	Resent       int64 `json:"resent"`
	CatchUpFails int   `json:"catchUpFailures"` // catch-ups that failed and were tried again
	Refused      int64 `json:"refused"`
	Unacked      int64 `json:"unacked"`
	Examples     []string
}

func c1CheckMessages(clients []*c1Client, lanes []*c1Lane, rec *c1Recorder) C1Messages {
	var m C1Messages
	m.SeqConflicts = rec.conflicts.Load()
	members := map[string][]*c1Client{} // group conversation → members
	byUser := map[string]*c1Client{}
	for _, c := range clients {
		byUser[c.uid] = c
		for _, cv := range c.convs {
			if cv.GroupID != "" {
				members[cv.Key] = append(members[cv.Key], c)
			}
		}
	}
	example := func(format string, args ...any) {
		if len(m.Examples) < 10 {
			m.Examples = append(m.Examples, fmt.Sprintf(format, args...))
		}
	}
	for _, l := range lanes {
		m.Resent += l.resent
		m.Refused += l.refused
		m.Unacked += l.unacked
		for _, a := range l.acked {
			m.Acked++
			var recipients []*c1Client
			var key func(*c1Client) string
			if a.Conv.GroupID != "" {
				for _, c := range members[a.Conv.Key] {
					if c != a.Sender {
						recipients = append(recipients, c)
					}
				}
				key = func(*c1Client) string { return a.Conv.Key }
			} else {
				recipients = []*c1Client{byUser[a.Conv.UserID]}
				key = func(*c1Client) string { return "u" + a.Sender.uid }
			}
			for _, r := range recipients {
				m.Deliveries++
				r.mu.Lock()
				seqs := r.recv[key(r)].seqsOf[a.ClientMsgID]
				r.mu.Unlock()
				switch {
				case len(seqs) == 0:
					m.Lost++
					r.mu.Lock()
					example("lost: %s (seq %d) never reached %s (its socket closed %d times; %d catch-ups failed, the last: %s; it holds %d messages of the conversation)",
						a.ClientMsgID, a.Seq, r.acct.Account, len(r.outages), r.catchUpErrors, r.lastCatchUpErr, len(r.recv[key(r)].bySeq))
					r.mu.Unlock()
				case len(seqs) > 1:
					m.Duplicates++
					example("duplicate: %s stored at seqs %v", a.ClientMsgID, seqs)
				case a.Seq > 0 && seqs[0] != a.Seq:
					m.Duplicates++
					example("duplicate: %s acknowledged as seq %d, delivered as %d", a.ClientMsgID, a.Seq, seqs[0])
				}
			}
		}
	}
	for _, c := range clients {
		m.CatchUpFails += c.catchUpErrors
		for key, r := range c.recv {
			if len(r.bySeq) == 0 {
				continue
			}
			seqs := make([]int64, 0, len(r.bySeq))
			for s := range r.bySeq {
				seqs = append(seqs, s)
			}
			sort.Slice(seqs, func(i, j int) bool { return seqs[i] < seqs[j] })
			// From the first seq the user may see (when a catch-up from 0
			// told it), else from the lowest held.
			lo := seqs[0]
			if r.floor >= 0 {
				lo = min(lo, r.floor+1)
			}
			if missing := int(seqs[len(seqs)-1]-lo+1) - len(seqs); missing > 0 {
				m.Gaps += missing
				example("gap: %s holds %d seqs of %s between %d and %d", c.acct.Account, len(seqs), key, lo, seqs[len(seqs)-1])
			}
		}
	}
	return m
}
