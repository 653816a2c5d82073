package loadtest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"kj/internal/apierr"
)

// F1: faults. Two kj nodes in cluster mode on a PostgreSQL, a Redis and a
// NATS server of the run's own (spare ports, temporary directories: the
// shared servers are never touched), with 1:1 and group chat across the
// nodes, bets in every activation window over HTTP, and sign-ins. Each
// service in turn is killed (SIGKILL to the server and everything it
// forked, as a crash) for a few seconds and started again, while the
// traffic goes on. Every request's outcome is recorded, so each outage
// says how many requests were made while the service was down, how they
// were answered (done, a clear error code, or no answer at all), and how
// long after the restart every kind of request succeeded again without
// restarting kj. At the end every user catches up by seq and nothing
// acknowledged may be missing or stored twice, seqs are gapless, every
// acknowledged bet is settled once, and `kj ledger check` is green after
// every outage.
func init() {
	register(&Workload{
		ID: "F1", Title: "faults: PostgreSQL, Redis and NATS each killed and restarted under chat and bet traffic",
		Target: Target{Text: "0 acknowledged messages or bets lost or duplicated, seqs gapless, ledger check green; " +
			"no request unanswered, no node restarted, no message left for the end-of-run catch-up to find; every kind of request served again after the restart, what failed within 15 s, without restarting kj",
			Limits: map[string]float64{"max:lostMessages": 0, "max:duplicateMessages": 0, "max:seqGaps": 0, "max:lostBets": 0,
				"max:betsMissettled": 0, "max:roundsDrawnTwice": 0, "max:ledgerCheckFailures": 0, "max:unanswered": 0,
				"max:nodesRestarted": 0, "max:recoverySeconds": 15, "max:pushesMissed": 0, "max:errorsAfterRecovery": 0,
				"max:kindsNotServedAfter": 0, "min:outages": 3}},
		Budget: 8 * time.Minute, SmokeBudget: 150 * time.Second,
		Run: runF1,
	})
}

// f1Scale sizes a run.
type f1Scale struct {
	Nodes                int
	Pairs                int
	Groups               int
	GroupSize            int
	Posters              int
	Players              int
	MsgPerSec            float64
	BetsPerSec           float64
	LoginsPerSec         float64
	Before, Down, After  time.Duration
	Betting, Drawing     time.Duration // the windows' phases (rest = drawing)
	Services             []string      // killed in this order
	RecoveryLimitSeconds float64
}

// F1Outage is one service's outage and what it cost.
type F1Outage struct {
	Service   string  `json:"service"`
	AtSeconds float64 `json:"atSeconds"` // since the traffic began
	// DownSeconds: from the kill until the port answered again.
	DownSeconds float64 `json:"downSeconds"`
	// Requests sent while the service was down, by kind, and how they
	// were answered.
	Requests   map[string]int `json:"requests"`
	Done       int            `json:"done"`
	Errors     int            `json:"errors"`     // answered with an error code
	NoEnvelope int            `json:"noEnvelope"` // the socket or connection failed before an answer
	Unanswered int            `json:"unanswered"` // no answer within 10 s
	Codes      map[int64]int  `json:"codes"`      // error code → answers
	// SlowestAnswerMs is the longest any request of the outage waited
	// for its answer.
	SlowestAnswerMs float64 `json:"slowestAnswerMs"`
	SlowestKind     string  `json:"slowestKind"`
	// RecoverySeconds: from the restart until every kind of request that
	// failed during the outage had succeeded again (the first success of
	// the slowest kind); 0 when none failed.
	RecoverySeconds float64            `json:"recoverySeconds"`
	RecoveryByKind  map[string]float64 `json:"recoveryByKind"`
	// ReadySeconds: from the restart until every node's /readyz said
	// ready again.
	ReadySeconds float64 `json:"readySeconds"`
	// ErrorsAfter: requests sent after recovery that failed for the
	// service's sake (busy, internal, no envelope, unanswered).
	ErrorsAfter int `json:"errorsAfter"`
	// NotServedAfter: kinds of request (of those made before the kill)
	// with no success among the requests sent after the restart — a
	// client that did not reconnect by itself.
	NotServedAfter []string `json:"notServedAfter"`
	// PushesMissed: messages sent from the kill until 2 s after recovery
	// that some recipient got neither as a push nor by the resync after a
	// reconnect (only the catch-up at the end of the run found them).
	PushesMissed int `json:"pushesMissed"`
	// SocketsClosed: chat sockets the server closed during the outage
	// and its recovery (each client reconnected and resynced), and
	// SocketsBackSeconds, from the restart until the last was open again.
	SocketsClosed      int     `json:"socketsClosed"`
	SocketsBackSeconds float64 `json:"socketsBackSeconds"`
	// window is that span, for counting them once the run has caught up.
	from, to    time.Time
	LedgerCheck string `json:"ledgerCheck"`
	Examples    []string
}

func runF1(ctx context.Context, o *Options) (*Result, error) {
	sc := f1Scale{Nodes: 2, Pairs: 40, Groups: 4, GroupSize: 12, Posters: 3, Players: 60,
		MsgPerSec: 200, BetsPerSec: 60, LoginsPerSec: 1.5, Before: 10 * time.Second, Down: 5 * time.Second, After: 10 * time.Second,
		Betting: 8 * time.Second, Drawing: 3 * time.Second, Services: []string{"postgres", "redis", "nats"}, RecoveryLimitSeconds: 15}
	if o.Smoke {
		sc = f1Scale{Nodes: 2, Pairs: 6, Groups: 2, GroupSize: 6, Posters: 2, Players: 10,
			MsgPerSec: 30, BetsPerSec: 8, LoginsPerSec: 1.5, Before: 4 * time.Second, Down: 3 * time.Second, After: 5 * time.Second,
			Betting: 8 * time.Second, Drawing: time.Second, Services: []string{"postgres", "redis", "nats"}, RecoveryLimitSeconds: 15}
	}
	svc, err := StartServices(ctx)
	if err != nil {
		return nil, fmt.Errorf("F1 runs its own PostgreSQL, Redis and NATS: %w", err)
	}
	defer svc.Close()
	o.logf("F1: own services: PostgreSQL :%d, Redis :%d, NATS :%d", svc.Postgres.Port, svc.Redis.Port, svc.NATS.Port)
	services := map[string]*Service{"postgres": svc.Postgres, "redis": svc.Redis, "nats": svc.NATS}

	st, err := NewStack(ctx, StackOptions{Bin: o.Bin, Log: o.logf, Nodes: sc.Nodes,
		DatabaseURL: svc.Postgres.URL(), RedisURL: svc.Redis.URL(), NATSURL: svc.NATS.URL(),
		Env: map[string]string{
			"KJ_WINDOW_COUNT": "3", "KJ_WINDOW_BETTING": sc.Betting.String(), "KJ_WINDOW_DRAWING": sc.Drawing.String(),
			"KJ_WINDOW_REST": sc.Drawing.String(), "KJ_WINDOW_MIN_BET": "100", "KJ_SHUTDOWN_TIMEOUT": "10s",
		}})
	if err != nil {
		return nil, err
	}
	defer st.Close(context.Background())
	chatters := sc.Pairs*2 + sc.Groups*sc.GroupSize
	const loginAccounts = 4 // one dials chat sockets, three sign in
	accounts, err := LoadUsers(ctx, st.DB, FixtureOptions{Users: chatters + sc.Players + loginAccounts})
	if err != nil {
		return nil, err
	}
	players := accounts[chatters : chatters+sc.Players]
	loginUsers := accounts[chatters+sc.Players:]
	if err := Fund(ctx, st.DB, players, 100_000_000); err != nil {
		return nil, err
	}
	if err := st.Start(ctx); err != nil {
		return nil, err
	}
	pids := make([]int, len(st.Nodes))
	for i, n := range st.Nodes {
		pids[i] = n.PID
	}
	wsBases := make([]string, len(st.Nodes))
	for i, n := range st.Nodes {
		wsBases[i] = "ws://" + n.Addr
	}
	groupIDs, err := createGroups(ctx, wsBases[0], accounts[sc.Pairs*2:chatters], sc.Groups, sc.GroupSize, "faults")
	if err != nil {
		return nil, err
	}
	rec := newC1Recorder()
	log := &f1Log{rec: rec}
	rec.onRequest = log.add
	clients, lanes := c1Plan(c1Scale{Pairs: sc.Pairs, Groups: sc.Groups, GroupSize: sc.GroupSize, Posters: sc.Posters, MsgPerSec: sc.MsgPerSec},
		accounts, groupIDs, wsBases[0], rec)
	// Neighbours on different nodes: a 1:1 pair's two users, and a group's
	// members, alternate, so messages cross the bus.
	for k, c := range clients {
		c.wsBase = wsBases[k%len(wsBases)]
	}
	cctx, stopClients := context.WithCancel(ctx)
	defer stopClients()
	var wg sync.WaitGroup
	if err := c1Connect(cctx, clients, &wg); err != nil {
		return nil, err
	}
	o.logf("F1: %d sockets up on %d nodes", len(clients), len(st.Nodes))

	start := time.Now().Add(300 * time.Millisecond)
	stopSend := make(chan struct{})
	var sendWG sync.WaitGroup
	for _, l := range lanes {
		sendWG.Add(1)
		go func() { defer sendWG.Done(); l.run(cctx, start, stopSend) }()
	}
	apis := make([]*API, len(st.Nodes))
	for i, n := range st.Nodes {
		apis[i] = NewAPI(n.URL, 16, "")
	}
	bets := newC1Bets(st.DB, apis[0], players, sc.BetsPerSec)
	bets.apis, bets.rec = apis, rec
	sendWG.Add(1)
	go func() { defer sendWG.Done(); bets.run(cctx, start, stopSend) }()
	sendWG.Add(1)
	go func() {
		defer sendWG.Done()
		f1Connects(cctx, wsBases, loginUsers[0], sc.LoginsPerSec, start, stopSend, rec)
	}()
	sendWG.Add(1)
	go func() { defer sendWG.Done(); f1Logins(cctx, st, loginUsers[1:], sc.LoginsPerSec, start, stopSend, rec) }()

	var outages []F1Outage
	sleepUntil(ctx, start.Add(sc.Before))
	for _, name := range sc.Services {
		out, err := f1Outage(ctx, o, st, services[name], clients, bets, log, start, sc)
		if err != nil {
			return nil, err
		}
		out.LedgerCheck = c1LedgerCheck(ctx, st)
		o.logf("F1: %s", f1Line(out))
		outages = append(outages, out)
		for i, n := range st.Nodes {
			if !n.Alive() {
				return nil, fmt.Errorf("F1: kj node %d died during the %s outage: %v\n%s", i, name, n.Err(), tail(n.LogPath, 30))
			}
		}
	}
	close(stopSend)
	sendWG.Wait()
	o.logf("F1: traffic stopped; every user catches up")
	rec.final.Store(true)
	for _, c := range clients {
		conn, err := c.current(ctx)
		if err == nil {
			err = c.catchUp(ctx, conn)
		}
		if err != nil {
			return nil, fmt.Errorf("final catch-up of %s: %w", c.acct.Account, err)
		}
	}
	// Messages a recipient first got by the final catch-up: a user who
	// stayed online would not have seen them without reloading.
	pushesMissed := rec.pulled.Load()
	for k := range outages {
		outages[k].PushesMissed = rec.pulledBetween(outages[k].from, outages[k].to)
	}
	betCheck, err := bets.check(ctx)
	if err != nil {
		return nil, err
	}
	final := c1LedgerCheck(ctx, st)
	stopClients()
	wg.Wait()
	msgs := c1CheckMessages(clients, lanes, rec)

	closes := rec.closeCount()
	restarted := 0
	for i, n := range st.Nodes {
		if n.PID != pids[i] || !n.Alive() {
			restarted++
		}
	}
	r := &Result{Config: map[string]any{"scale": sc, "outages": outages, "messages": msgs, "bets": betCheck,
		"finalLedgerCheck": final, "socketCloses": rec.closes},
		Figures: map[string]float64{
			"nodes": float64(sc.Nodes), "outages": float64(len(outages)), "nodesRestarted": float64(restarted),
			"lostMessages": float64(msgs.Lost), "duplicateMessages": float64(int64(msgs.Duplicates) + msgs.SeqConflicts),
			"seqGaps": float64(msgs.Gaps), "ackedMessages": float64(msgs.Acked),
			"lostBets": float64(betCheck.Lost), "ackedBets": float64(betCheck.Acked), "betsMissettled": float64(betCheck.Missettled),
			"roundsDrawnTwice": float64(betCheck.DrawnTwice), "pushesMissed": float64(pushesMissed),
			"socketsClosed": float64(closes),
		}}
	failures := 0
	if final != "ok" {
		failures++
	}
	var unanswered, errorsAfter, notServed int
	var recovery float64
	for _, out := range outages {
		if out.LedgerCheck != "ok" {
			failures++
		}
		unanswered += out.Unanswered
		errorsAfter += out.ErrorsAfter
		notServed += len(out.NotServedAfter)
		recovery = max(recovery, out.RecoverySeconds)
		p := out.Service
		total := 0
		for _, n := range out.Requests {
			total += n
		}
		r.Figures[p+"Requests"] = float64(total)
		r.Figures[p+"BetRequests"] = float64(out.Requests["bet"])
		r.Figures[p+"Errors"] = float64(out.Errors + out.NoEnvelope + out.Unanswered)
		r.Figures[p+"RecoverySeconds"] = out.RecoverySeconds
		r.Figures[p+"ReadySeconds"] = out.ReadySeconds
		r.Figures[p+"SlowestAnswerMs"] = out.SlowestAnswerMs
		r.Figures[p+"PushesMissed"] = float64(out.PushesMissed)
		r.Figures[p+"SocketsClosed"] = float64(out.SocketsClosed)
		r.Figures[p+"SocketsBackSeconds"] = out.SocketsBackSeconds
		r.Notes = append(r.Notes, f1Line(out))
	}
	r.Figures["ledgerCheckFailures"] = float64(failures)
	r.Figures["unanswered"] = float64(unanswered)
	r.Figures["errorsAfterRecovery"] = float64(errorsAfter)
	r.Figures["kindsNotServedAfter"] = float64(notServed)
	r.Figures["recoverySeconds"] = recovery
	r.Notes = append(r.Notes, fmt.Sprintf("messages: %+v", msgs), fmt.Sprintf("bets: %+v", betCheck))
	if o.Out != "" {
		if err := os.MkdirAll(o.Out, 0o755); err != nil {
			return nil, err
		}
		bad := msgs.Lost+msgs.Duplicates+msgs.Gaps+betCheck.Lost+betCheck.Missettled+unanswered+failures > 0 || recovery > sc.RecoveryLimitSeconds
		if bad || o.Keep {
			for _, n := range st.Nodes {
				if b, err := os.ReadFile(n.LogPath); err == nil {
					_ = os.WriteFile(filepath.Join(o.Out, fmt.Sprintf("F1-node-%d.log", n.Index)), b, 0o644)
				}
			}
		}
	}
	return r, nil
}

// f1Line is one outage on one line (the notes, and RESULTS.md's table).
func f1Line(out F1Outage) string {
	kinds := make([]string, 0, len(out.Requests))
	for k, n := range out.Requests {
		kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
	}
	sort.Strings(kinds)
	codes := make([]string, 0, len(out.Codes))
	for c, n := range out.Codes {
		codes = append(codes, fmt.Sprintf("%d×%d", c, n))
	}
	sort.Strings(codes)
	return fmt.Sprintf("%s down %.1f s at %.1f s: requests %s; %d done, %d error codes [%s], %d without envelope, %d unanswered; slowest answer %.0f ms (%s); "+
		"what failed served again %.2f s after the restart %v, nodes ready after %.2f s; %d failures after, kinds not served after %v; %d sockets closed (all back %.2f s after the restart); %d pushes missed; ledger %s",
		out.Service, out.DownSeconds, out.AtSeconds, strings.Join(kinds, ", "), out.Done, out.Errors, strings.Join(codes, " "), out.NoEnvelope,
		out.Unanswered, out.SlowestAnswerMs, out.SlowestKind, out.RecoverySeconds, out.RecoveryByKind, out.ReadySeconds, out.ErrorsAfter, out.NotServedAfter, out.SocketsClosed, out.SocketsBackSeconds, out.PushesMissed, out.LedgerCheck)
}

// f1Req is one request's outcome.
type f1Req struct {
	Kind           string
	Sent, Answered time.Time
	Code           int64
	Failure        string // why no envelope came, when none did
}

// serviceFailure says whether the request failed for want of a service
// (rather than a business refusal such as a round that just closed).
func (q f1Req) serviceFailure() bool {
	if q.Code == 0 {
		return q.Failure != ""
	}
	switch q.Code {
	case apierr.CodeSystemBusy, apierr.CodeChatBusy, apierr.CodeInternal:
		return true
	}
	return false
}

type f1Log struct {
	rec  *c1Recorder
	mu   sync.Mutex
	reqs []f1Req
}

func (l *f1Log) add(kind string, sent, answered time.Time, code int64, failure string) {
	if code != 0 {
		failure = "" // an envelope came (the HTTP status is in the code's meaning)
	}
	l.mu.Lock()
	l.reqs = append(l.reqs, f1Req{Kind: kind, Sent: sent, Answered: answered, Code: code, Failure: failure})
	l.mu.Unlock()
}

func (l *f1Log) snapshot() []f1Req {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]f1Req(nil), l.reqs...)
}

// f1Outage kills the service, waits sc.Down, starts it again, waits until
// every kind of request has succeeded again and every node is ready, and
// then lets traffic run for sc.After.
func f1Outage(ctx context.Context, o *Options, st *Stack, sv *Service, clients []*c1Client, bets *c1Bets, log *f1Log, start time.Time, sc f1Scale) (F1Outage, error) {
	out := F1Outage{Service: sv.Name, Requests: map[string]int{}, Codes: map[int64]int{}, RecoveryByKind: map[string]float64{}}
	// Kill while a round takes bets for the whole outage, so bets are
	// among the requests it meets (a round cannot move on while the store
	// is down, so one closed at the kill would stay closed).
	for wait := time.Now().Add(sc.Betting + 3*sc.Drawing); !bets.openFor(sc.Down+time.Second) && time.Now().Before(wait); {
		c1Sleep(ctx, 50*time.Millisecond)
	}
	closedBefore := log.rec.closeCount()
	o.logf("F1: killing %s", sv.Name)
	killAt := time.Now()
	out.AtSeconds = killAt.Sub(start).Seconds()
	sv.Kill()
	sleepUntil(ctx, killAt.Add(sc.Down))
	if err := sv.Start(ctx); err != nil {
		return out, fmt.Errorf("F1: %s did not start again: %w", sv.Name, err)
	}
	upAt := time.Now()
	out.DownSeconds = upAt.Sub(killAt).Seconds()
	o.logf("F1: %s up again after %.1f s", sv.Name, out.DownSeconds)

	// The kinds of request the outage made fail (for the service's sake:
	// not a business refusal); a kind that never failed was served all
	// along, whatever its own rhythm (bets wait for an open round).
	kinds := map[string]bool{}
	for _, q := range log.snapshot() {
		if !q.Sent.Before(killAt) && q.Sent.Before(upAt) && q.serviceFailure() {
			kinds[q.Kind] = true
		}
	}
	deadline := upAt.Add(60 * time.Second)
	var readyAt time.Time
	for {
		if readyAt.IsZero() && f1AllReady(ctx, st) {
			readyAt = time.Now()
		}
		firsts := map[string]time.Time{}
		for _, q := range log.snapshot() {
			if !q.Sent.Before(upAt) && q.Code == 0 && q.Failure == "" {
				if t, ok := firsts[q.Kind]; !ok || q.Answered.Before(t) {
					firsts[q.Kind] = q.Answered
				}
			}
		}
		all := true
		for k := range kinds {
			if _, ok := firsts[k]; !ok {
				all = false
			}
		}
		// Sockets a node closed to have their clients resync (when its
		// bus came back, which /readyz shows) must be open again too.
		allUp := true
		for _, c := range clients {
			allUp = allUp && c.up.Load()
		}
		if all && !readyAt.IsZero() && time.Since(readyAt) >= 500*time.Millisecond && allUp {
			for k := range kinds {
				s := firsts[k].Sub(upAt).Seconds()
				out.RecoveryByKind[k] = s
				out.RecoverySeconds = max(out.RecoverySeconds, s)
			}
			break
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			out.RecoverySeconds = 999
			for k := range kinds {
				if t, ok := firsts[k]; ok {
					out.RecoveryByKind[k] = t.Sub(upAt).Seconds()
				} else {
					out.RecoveryByKind[k] = 999
				}
			}
			o.logf("F1: after the %s outage, not every kind of request succeeded again within 60 s (%v); ready: %v", sv.Name, out.RecoveryByKind, !readyAt.IsZero())
			for _, n := range st.Nodes {
				o.logf("F1: log of node %d:\n%s", n.Index, tail(n.LogPath, 20))
			}
			break
		}
		c1Sleep(ctx, 50*time.Millisecond)
	}
	if !readyAt.IsZero() {
		out.ReadySeconds = readyAt.Sub(upAt).Seconds()
	} else {
		out.ReadySeconds = 999
	}
	for _, c := range clients {
		c.mu.Lock()
		for _, d := range c.outages {
			if !d.Down.Before(killAt) {
				out.SocketsBackSeconds = max(out.SocketsBackSeconds, d.Up.Sub(upAt).Seconds())
			}
		}
		c.mu.Unlock()
	}
	// From here on the service and everything kj rebuilt after it are
	// back: a request that fails later failed for no good reason.
	recovered := upAt.Add(time.Duration(max(out.RecoverySeconds, out.ReadySeconds, out.SocketsBackSeconds) * float64(time.Second)))
	out.from, out.to = killAt, recovered.Add(2*time.Second)
	c1Sleep(ctx, 2*time.Second)
	out.SocketsClosed = log.rec.closeCount() - closedBefore
	sleepUntil(ctx, recovered.Add(sc.After))
	// Requests sent up to now have been answered or given up on (10 s),
	// except those of the last moments, which the next outage, or the end
	// of the run, accounts for.
	example := func(format string, args ...any) {
		if len(out.Examples) < 6 {
			out.Examples = append(out.Examples, fmt.Sprintf(format, args...))
		}
	}
	before, servedAfter := map[string]bool{}, map[string]bool{}
	for _, q := range log.snapshot() {
		if q.Sent.Before(killAt) {
			before[q.Kind] = true
		} else if !q.Sent.Before(upAt) && q.Code == 0 && q.Failure == "" {
			servedAfter[q.Kind] = true
		}
	}
	for k := range before {
		if !servedAfter[k] {
			out.NotServedAfter = append(out.NotServedAfter, k)
		}
	}
	sort.Strings(out.NotServedAfter)
	for _, q := range log.snapshot() {
		switch {
		case !q.Sent.Before(killAt) && q.Sent.Before(upAt):
			out.Requests[q.Kind]++
			wait := q.Answered.Sub(q.Sent)
			if ms := float64(wait.Microseconds()) / 1000; ms > out.SlowestAnswerMs {
				out.SlowestAnswerMs, out.SlowestKind = ms, q.Kind
			}
			switch {
			case q.Failure == c1NoAnswer || wait >= c1AnswerTimeout:
				out.Unanswered++
				example("%s sent at +%.2f s: no answer after %.1f s", q.Kind, q.Sent.Sub(killAt).Seconds(), wait.Seconds())
			case q.Code != 0:
				out.Errors++
				out.Codes[q.Code]++
			case q.Failure != "":
				out.NoEnvelope++
				example("%s sent at +%.2f s: %s", q.Kind, q.Sent.Sub(killAt).Seconds(), q.Failure)
			default:
				out.Done++
			}
		case q.Sent.After(recovered) && q.serviceFailure():
			out.ErrorsAfter++
			example("%s sent %.2f s after recovery failed: code %d %s", q.Kind, q.Sent.Sub(recovered).Seconds(), q.Code, q.Failure)
		}
	}
	return out, ctx.Err()
}

// f1AllReady asks every node's /readyz.
func f1AllReady(ctx context.Context, st *Stack) bool {
	for _, n := range st.Nodes {
		rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		req, _ := http.NewRequestWithContext(rctx, "GET", n.URL+"/readyz", nil)
		resp, err := http.DefaultClient.Do(req)
		cancel()
		if err != nil {
			return false
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return false
		}
	}
	return true
}

// f1Logins signs in over HTTP at a steady rate, each account from a
// source address of its own (sign-ins are limited per address), on the
// nodes in turn: a sign-in reads the store and counts the attempt in the
// counters (Redis).
func f1Logins(ctx context.Context, st *Stack, users []Account, rate float64, start time.Time, stop <-chan struct{}, rec *c1Recorder) {
	period := time.Duration(float64(time.Second) / rate)
	apis := map[[2]int]*API{}
	for n := 0; ; n++ {
		if !waitUntil(ctx, stop, start.Add(time.Duration(n)*period)) {
			return
		}
		u, node := n%len(users), n%len(st.Nodes)
		api := apis[[2]int{u, node}]
		if api == nil {
			api = NewAPI(st.Nodes[node].URL, 2, SourceAddr(10+u))
			apis[[2]int{u, node}] = api
		}
		sent := time.Now()
		err := api.Call(ctx, "/accountLogin", "", map[string]any{"account": users[u].Account, "password": FixturePassword, "platform": 5}, nil)
		if ctx.Err() != nil {
			return
		}
		var apiErr *APIError
		switch {
		case err == nil:
			rec.request("login", sent, 0, "")
		case errors.As(err, &apiErr):
			rec.request("login", sent, int64(apiErr.Code), "")
		default:
			rec.request("login", sent, 0, err.Error())
		}
	}
}

// f1Connects opens a chat socket and logs in at a steady rate, on the
// nodes in turn, and closes it: a socket's login checks the chat token in
// the store and marks the user online in presence (Redis).
func f1Connects(ctx context.Context, wsBases []string, a Account, rate float64, start time.Time, stop <-chan struct{}, rec *c1Recorder) {
	period := time.Duration(float64(time.Second) / rate)
	for n := 0; ; n++ {
		if !waitUntil(ctx, stop, start.Add(time.Duration(n)*period)) {
			return
		}
		sent := time.Now()
		dctx, cancel := context.WithTimeout(ctx, c1AnswerTimeout)
		conn, err := DialChat(dctx, wsBases[n%len(wsBases)], "", a, nil)
		cancel()
		if ctx.Err() != nil {
			if conn != nil {
				conn.Close()
			}
			return
		}
		var code int64
		switch {
		case err == nil:
			conn.Close()
			rec.request("connect", sent, 0, "")
		case strings.Contains(err.Error(), "deadline exceeded"):
			rec.request("connect", sent, 0, c1NoAnswer)
		default:
			if i := strings.Index(err.Error(), "errCode "); i >= 0 {
				fmt.Sscanf(err.Error()[i:], "errCode %d", &code)
			}
			rec.request("connect", sent, code, err.Error())
		}
	}
}
