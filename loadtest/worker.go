package loadtest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Socket workloads (W1-W3) need more connections than one process may
// open (20,000 files per process here), so the coordinator splits them
// into plans of at most MaxConnsPerWorker sockets and runs each in a
// worker process of its own (`kjload worker`), dialling from a loopback
// source address of its own (127.0.0.2, 127.0.0.3, ...). They talk in
// JSON lines: the plan and commands on the worker's stdin, its reports on
// its stdout.
//
//	coordinator → worker: {"plan": ...}
//	worker → coordinator: {"ready": ...}            every socket logged in
//	coordinator → worker: {"cmd": "go", "start": t} the ramp's time zero
//	worker → coordinator: {"step": ...}             each step, 1 s after it ends
//	coordinator → worker: {"cmd": "stop"}           (after a saturated step)
//	worker → coordinator: {"sent": ...}             what it sent, per stream
//	coordinator → worker: {"cmd": "judge", "sent": all, "grace": d}
//	worker → coordinator: {"final": ...}            steps, histograms, loss

// WorkerProfileEnv names a directory: when set (in kjload's environment,
// which its workers inherit), each worker process saves a CPU profile of
// itself over the ramp (from its time zero to the end of its last step,
// the warm-up left out) as <dir>/worker-<n>-cpu.pprof, for `go tool
// pprof`. -profile profiles the server, not the generator.
const WorkerProfileEnv = "KJLOAD_WORKER_PROFILE"

// WorkerGoroutinesEnv, when set, makes workers run each socket on a
// goroutine of its own (gorilla/websocket) and each sending lane on
// another, with its own timer, instead of in one event loop (the only way
// elsewhere than Linux): the generator as it was before the loop, to
// compare the two.
const WorkerGoroutinesEnv = "KJLOAD_WORKER_GOROUTINES"

// WorkerWritesEnv, when set, makes the workers' event loop write each
// socket's bytes with a write of its own instead of one io_uring
// submission per wake: the server then sees the messages of one wake
// arrive one by one (each write woke it), as before the ring, to compare
// what the batching changes in the server's figures.
const WorkerWritesEnv = "KJLOAD_WORKER_WRITES"

// MaxConnsPerWorker keeps a worker well under the file limit.
const MaxConnsPerWorker = 9000

// Plan is one worker's share of a socket workload.
type Plan struct {
	Workload string   `json:"workload"`
	Worker   int      `json:"worker"`
	WSBase   string   `json:"wsBase"` // ws://127.0.0.1:port
	Source   string   `json:"source"` // loopback source address to dial from
	Members  []Member `json:"members"`
	Lanes    int      `json:"lanes"` // sending lanes over all workers
	Ramp     Ramp     `json:"ramp"`  // in messages sent per second, all workers together
	Dialers  int      `json:"dialers"`
	// Warm is how long before the ramp each sender sends one message
	// (lanes spread evenly over it), so every conversation, group and
	// user actor is live and cached when the measured ramp begins; those
	// messages are checked for loss like all others but measured in no
	// step.
	Warm  time.Duration `json:"warm"`
	Grace time.Duration `json:"grace"` // how long after a step ends its report waits
	// Peer, when set, points the plan at the peer server instead of kj:
	// the same members, streams and ramp over the peer's own protocol.
	Peer *PeerPlan `json:"peer,omitempty"`
}

// PeerPlan is how a worker reaches the peer server.
type PeerPlan struct {
	URL    string `json:"url"`    // websocket endpoint
	Secret string `json:"secret"` // HMAC key of its connection tokens
}

// Member is one socket: its account, what it sends, what it must receive.
type Member struct {
	Account Account  `json:"account"`
	Send    *Send    `json:"send,omitempty"`
	Expect  []string `json:"expect,omitempty"`  // streams this member must receive, every message once, in order
	Channel string   `json:"channel,omitempty"` // peer runs: the channel the member subscribes to
}

// Send is a sending lane: messages to a user (RecvID) or a group.
type Send struct {
	Lane    int    `json:"lane"`
	RecvID  string `json:"recvID,omitempty"`
	GroupID string `json:"groupID,omitempty"`
	Stream  string `json:"stream"`
}

// Conversation of a stream is what precedes its last dot: a stream
// "p17.a" is in conversation "p17", "g3.s12" in "g3". Seqs must rise
// within a conversation as each receiver sees it.
func Conversation(stream string) string { return conversationOf(stream) }

// conversationOf is Conversation for a stream held as a string or as
// bytes (a generator reads the latter in place).
func conversationOf[S string | []byte](stream S) S {
	for i := len(stream) - 1; i > 0; i-- {
		if stream[i] == '.' {
			return stream[:i]
		}
	}
	return stream
}

// WorkerStep is one worker's tally of one step.
type WorkerStep struct {
	Step      int        `json:"step"`
	Sent      int64      `json:"sent"`
	SendErr   int64      `json:"sendErrors"`
	Missed    int64      `json:"missed"`
	Acked     int64      `json:"acked"`     // by when the ack arrived
	AckErr    int64      `json:"ackErrors"` // replies with errCode ≠ 0
	Delivered int64      `json:"delivered"` // by when the delivery arrived
	Ack       *Histogram `json:"ackHist"`   // by when the message was due
	Deliver   *Histogram `json:"deliverHist"`
}

func newWorkerStep(i int) *WorkerStep {
	return &WorkerStep{Step: i, Ack: NewHistogram(), Deliver: NewHistogram()}
}

func (s *WorkerStep) add(o *WorkerStep) {
	s.Sent += o.Sent
	s.SendErr += o.SendErr
	s.Missed += o.Missed
	s.Acked += o.Acked
	s.AckErr += o.AckErr
	s.Delivered += o.Delivered
	s.Ack.Merge(o.Ack)
	s.Deliver.Merge(o.Deliver)
}

// WorkerReady says a worker's sockets are up.
type WorkerReady struct {
	Conns     int     `json:"conns"`
	Failed    int     `json:"failed"`
	Seconds   float64 `json:"seconds"`
	FirstErr  string  `json:"firstError,omitempty"`
	Generator string  `json:"source"`
}

// WorkerFinal is a worker's last report.
type WorkerFinal struct {
	Steps    []*WorkerStep `json:"steps"`
	Loss     Loss          `json:"loss"`
	Alive    int           `json:"alive"` // sockets still open at the end
	Closed   []string      `json:"closed,omitempty"`
	Pushes   int64         `json:"pushes"` // frames received that were not load messages or acks
	Unacked  int64         `json:"unacked"`
	LateAcks int64         `json:"lateAcks"` // acks of messages due outside the ramp
}

type workerMsg struct {
	Plan  *Plan             `json:"plan,omitempty"`
	Cmd   string            `json:"cmd,omitempty"`
	Start int64             `json:"start,omitempty"`
	Sent  map[string]uint64 `json:"sent,omitempty"`
	Grace time.Duration     `json:"grace,omitempty"`

	Ready *WorkerReady `json:"ready,omitempty"`
	Step  *WorkerStep  `json:"step,omitempty"`
	Final *WorkerFinal `json:"final,omitempty"`
	Error string       `json:"error,omitempty"`
}

// loadConn is a generator socket: kj's chat protocol (ChatConn) or the
// peer's (PeerConn).
type loadConn interface {
	SendText(recvID, groupID string, p Payload, clientMsgID string) error
	Alive() bool
	Err() error
	Close()
}

// worker is the state of one worker process.
type worker struct {
	plan    Plan
	conns   []loadConn
	tracker *Tracker
	start   time.Time
	stop    chan struct{}

	mu     sync.Mutex
	steps  []*WorkerStep
	sent   map[string]uint64
	pushes atomic.Int64
	late   atomic.Int64
	acks   atomic.Int64
	logf   func(string, ...any)
	errLog atomic.Int32 // error replies logged so far

	loop *wsLoop // the event loop over the sockets (nil: goroutines, conns)
	// rates is how many steps the ramp has (stepAt reads it for every
	// frame; Ramp.Rates makes the list anew each call).
	rates int
}

// Worker runs one worker process: it reads its plan from in, reports on
// out, and logs to log.
func Worker(ctx context.Context, in io.Reader, out, log io.Writer) error {
	RaiseNoFile()
	dec := json.NewDecoder(bufio.NewReaderSize(in, 1<<20))
	enc := json.NewEncoder(out)
	var outMu sync.Mutex
	send := func(m workerMsg) {
		outMu.Lock()
		defer outMu.Unlock()
		_ = enc.Encode(m)
	}
	var first workerMsg
	if err := dec.Decode(&first); err != nil || first.Plan == nil {
		return fmt.Errorf("worker: no plan: %v", err)
	}
	w := &worker{plan: *first.Plan, tracker: NewTracker(), stop: make(chan struct{}), sent: map[string]uint64{}}
	w.rates = len(w.plan.Ramp.Rates())
	logf := func(format string, args ...any) {
		fmt.Fprintf(log, "%s worker %d: %s\n", time.Now().Format("15:04:05.000"), w.plan.Worker, fmt.Sprintf(format, args...))
	}
	w.logf = logf
	var ready WorkerReady
	if wsLoopSupported && os.Getenv(WorkerGoroutinesEnv) == "" {
		var err error
		if ready, err = w.connectLoop(ctx, logf); err != nil {
			return fmt.Errorf("worker: %w", err)
		}
		defer w.loop.close()
	} else {
		ready = w.connect(ctx, logf)
		defer w.closeAll()
	}
	send(workerMsg{Ready: &ready})
	cmds := make(chan workerMsg, 4)
	go func() {
		defer close(cmds)
		for {
			var m workerMsg
			if err := dec.Decode(&m); err != nil {
				return
			}
			cmds <- m
		}
	}()
	var sendDone chan struct{}
	for {
		var m workerMsg
		var ok bool
		select {
		case <-ctx.Done():
			return ctx.Err()
		case m, ok = <-cmds:
			if !ok {
				return nil // the coordinator went away
			}
		}
		switch m.Cmd {
		case "go":
			w.mu.Lock()
			w.start = time.Unix(0, m.Start)
			w.mu.Unlock()
			sendDone = make(chan struct{})
			go func() {
				defer close(sendDone)
				w.run(ctx, func(s *WorkerStep) { send(workerMsg{Step: s}) })
			}()
		case "stop":
			select {
			case <-w.stop:
			default:
				close(w.stop)
			}
			if sendDone != nil {
				<-sendDone
			}
			w.mu.Lock()
			sent := make(map[string]uint64, len(w.sent))
			for k, v := range w.sent {
				sent[k] = v
			}
			w.mu.Unlock()
			if w.loop != nil && sendDone != nil {
				// The loop's sending has ended (run waited for it).
				w.loop.sentCounts(sent)
			}
			send(workerMsg{Cmd: "sent", Sent: sent})
		case "judge":
			f := w.judge(ctx, m.Sent, m.Grace)
			send(workerMsg{Final: &f})
			return nil
		}
	}
}

// connect dials and logs in every member, Dialers at a time, each socket
// with a goroutine of its own.
func (w *worker) connect(ctx context.Context, logf func(string, ...any)) WorkerReady {
	t0 := time.Now()
	w.conns = make([]loadConn, len(w.plan.Members))
	r := w.dialAll(ctx, func(cctx context.Context, i int, m Member) error {
		uid := strconv.FormatInt(m.Account.ID, 10)
		if p := w.plan.Peer; p != nil {
			own := ""
			if m.Send != nil {
				own = m.Send.Stream
			}
			token := PeerToken(p.Secret, uid, time.Now().Add(24*time.Hour))
			pc, err := DialPeer(cctx, p.URL, w.plan.Source, uid, token, m.Channel,
				func(b []byte) { w.onPeerPushAt(uid, own, b, time.Now()) },
				func(sched, code int64, b []byte) { w.onAckAt(sched, code, b, time.Now()) })
			if err != nil {
				return err
			}
			w.conns[i] = pc
			return nil
		}
		cc, err := DialChat(cctx, w.plan.WSBase, w.plan.Source, m.Account, func(b []byte) { w.onFrameAt(uid, b, time.Now()) })
		if err != nil {
			return err
		}
		w.conns[i] = cc
		return nil
	})
	r.Seconds = time.Since(t0).Seconds()
	logf("%d sockets logged in from %s in %.1f s (%d failed)", r.Conns, w.plan.Source, r.Seconds, r.Failed)
	return r
}

// dialAll runs dial for every member, Dialers at a time, each up to three
// times (60 s each), and tallies the sockets up.
func (w *worker) dialAll(ctx context.Context, dial func(ctx context.Context, i int, m Member) error) WorkerReady {
	dialers := max(1, w.plan.Dialers)
	sem := make(chan struct{}, dialers)
	var wg sync.WaitGroup
	var failed atomic.Int64
	var firstErr atomic.Value
	for i, m := range w.plan.Members {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			var err error
			for attempt := 0; attempt < 3; attempt++ {
				cctx, cancel := context.WithTimeout(ctx, 60*time.Second)
				err = dial(cctx, i, m)
				cancel()
				if err == nil {
					return
				}
				time.Sleep(200 * time.Millisecond)
			}
			failed.Add(1)
			firstErr.CompareAndSwap(nil, err.Error())
		}()
	}
	wg.Wait()
	r := WorkerReady{Conns: len(w.plan.Members) - int(failed.Load()), Failed: int(failed.Load()), Generator: w.plan.Source}
	if e, ok := firstErr.Load().(string); ok {
		r.FirstErr = e
	}
	return r
}

// step returns the accumulator of step i, growing the list.
func (w *worker) step(i int) *WorkerStep {
	for len(w.steps) <= i {
		w.steps = append(w.steps, newWorkerStep(len(w.steps)))
	}
	return w.steps[i]
}

// stepNow is the step the present moment falls in (the last one after
// the ramp, -1 before it).
func (w *worker) stepAt(t time.Time) int {
	if w.start.IsZero() {
		return -1
	}
	d := t.Sub(w.start)
	if d < 0 {
		return -1
	}
	i := int(d / w.plan.Ramp.Hold)
	return min(i, w.rates-1)
}

// delivered records the arrival of load message n of stream, scheduled
// at sched, at user recv at now (with seq, checked in the stream's
// conversation when withSeq). The tracker's names, "<recv>/<stream>" and
// "<recv>/<conversation>", are built in a buffer on the stack: no string
// per delivery.
func (w *worker) delivered(recv string, stream []byte, n uint64, sched int64, seq int64, withSeq bool, now time.Time) {
	var buf [128]byte
	name := append(append(append(buf[:0], recv...), '/'), stream...)
	var conv []byte
	if withSeq {
		conv = name[:len(name)-len(stream)+len(conversationOf(stream))]
	}
	w.tracker.receive(name, n, conv, seq)
	w.mu.Lock()
	if i := w.stepAt(time.Unix(0, sched)); i >= 0 {
		w.step(i).Deliver.Record(now.Sub(time.Unix(0, sched)))
	} else {
		w.late.Add(1)
	}
	if i := w.stepAt(now); i >= 0 {
		w.step(i).Delivered++
	}
	w.mu.Unlock()
}

// onFrameAt handles every frame of every socket (recv is the socket's
// user), which arrived at now: deliveries, acks, other pushes.
func (w *worker) onFrameAt(recv string, b []byte, now time.Time) {
	// The event first: the conversation push that follows each message
	// carries the same payload in its latest message, and scanning it for
	// that was wasted work per delivery.
	if IsEvent(b, "OnRecvNewMessage") {
		if stream, n, sched, ok := scanPayload(b); ok {
			seq, _ := ScanSeq(b)
			w.delivered(recv, stream, n, sched, seq, true, now)
			return
		}
	}
	if IsEvent(b, "SendMessage") {
		code, op := scanReply(b)
		if len(op) > 1 && op[0] == 'k' {
			if sched, k := scanUint(op[1:]); k == len(op)-1 {
				w.onAckAt(int64(sched), code, b, now)
				return
			}
		}
	}
	w.pushes.Add(1)
}

// onAckAt records the acknowledgement, arrived at now, of a message
// scheduled at sched (code ≠ 0: refused).
func (w *worker) onAckAt(sched, code int64, b []byte, now time.Time) {
	w.acks.Add(1)
	w.mu.Lock()
	defer w.mu.Unlock()
	if i := w.stepAt(time.Unix(0, sched)); i >= 0 {
		if code == 0 {
			w.step(i).Ack.Record(now.Sub(time.Unix(0, sched)))
		} else {
			w.step(i).AckErr++
			if w.errLog.Add(1) <= 3 {
				w.logf("send refused: %.300s", b)
			}
		}
	} else {
		w.late.Add(1)
	}
	if i := w.stepAt(now); i >= 0 && code == 0 {
		w.step(i).Acked++
	}
}

// onPeerPush handles a push from the peer to user recv. The peer also
// delivers a publication to the socket that published it (kj does not);
// those are not deliveries and are left out.
func (w *worker) onPeerPushAt(recv, own string, b []byte, now time.Time) {
	stream, n, sched, ok := scanPayload(b)
	if !ok {
		w.pushes.Add(1)
		return
	}
	if string(stream) == own {
		return
	}
	w.delivered(recv, stream, n, sched, 0, false, now)
}

// run sends on the plan's lanes until the ramp ends or stop closes,
// reporting each step Grace after it ends.
func (w *worker) run(ctx context.Context, report func(*WorkerStep)) {
	rates := w.plan.Ramp.Rates()
	hold := w.plan.Ramp.Hold
	w.mu.Lock()
	w.step(len(rates) - 1)
	w.mu.Unlock()
	var wg sync.WaitGroup
	if dir := os.Getenv(WorkerProfileEnv); dir != "" {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.profileRamp(ctx, dir, w.start.Add(time.Duration(len(rates))*hold))
		}()
	}
	if w.loop != nil {
		w.loop.begin <- w.start
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case <-w.loop.sent:
			case <-w.loop.done:
			}
		}()
	}
	for mi, m := range w.plan.Members {
		if w.loop != nil || m.Send == nil || w.conns[mi] == nil {
			continue
		}
		c, s := w.conns[mi], *m.Send
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.sendLane(ctx, c, s, rates, hold)
		}()
	}
	// Step reports.
	reported := make(chan struct{})
	go func() {
		defer close(reported)
		for i := range rates {
			t := w.start.Add(time.Duration(i+1)*hold + w.plan.Grace)
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Until(t)):
			}
			w.mu.Lock()
			s := w.step(i)
			snap := &WorkerStep{Step: i, Sent: s.Sent, SendErr: s.SendErr, Missed: s.Missed, Acked: s.Acked, AckErr: s.AckErr,
				Delivered: s.Delivered, Ack: NewHistogram(), Deliver: NewHistogram()}
			snap.Ack.Merge(s.Ack)
			snap.Deliver.Merge(s.Deliver)
			w.mu.Unlock()
			report(snap)
			select {
			case <-w.stop:
				return
			default:
			}
		}
	}()
	wg.Wait()
	<-reported
}

// profileRamp saves the worker's CPU profile from its time zero to end
// (or until it is stopped) in dir (WorkerProfileEnv).
func (w *worker) profileRamp(ctx context.Context, dir string, end time.Time) {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	if !w.sleep(ctx, timer, time.Until(w.start)) {
		return
	}
	path := filepath.Join(dir, fmt.Sprintf("worker-%d-cpu.pprof", w.plan.Worker))
	err := os.MkdirAll(dir, 0o755)
	var f *os.File
	if err == nil {
		f, err = os.Create(path)
	}
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		w.logf("profile: %v", err)
		return
	}
	w.sleep(ctx, timer, time.Until(end))
	pprof.StopCPUProfile()
	if err := f.Close(); err != nil {
		w.logf("profile: %v", err)
		return
	}
	w.logf("CPU profile of the ramp saved as %s", path)
}

// sleep waits d on timer; false when ctx ends or the worker is stopped
// first.
func (w *worker) sleep(ctx context.Context, timer *time.Timer, d time.Duration) bool {
	timer.Reset(d)
	select {
	case <-ctx.Done():
		return false
	case <-w.stop:
		return false
	case <-timer.C:
		return true
	}
}

func (w *worker) sendLane(ctx context.Context, c loadConn, s Send, rates []float64, hold time.Duration) {
	var n uint64
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	if warm := w.plan.Warm; warm > 0 {
		sched := w.start.Add(-warm + time.Duration(float64(warm)*float64(s.Lane)/float64(max(1, w.plan.Lanes))))
		if !w.sleep(ctx, timer, time.Until(sched)) {
			return
		}
		p := Payload{Stream: s.Stream, N: n, Sched: sched.UnixNano()}
		if err := c.SendText(s.RecvID, s.GroupID, p, fmt.Sprintf("kjl-%s-%d", strings.ReplaceAll(s.Stream, ".", "_"), n)); err != nil {
			return
		}
		n++
		w.mu.Lock()
		w.sent[s.Stream] = n
		w.mu.Unlock()
	}
	for i, rate := range rates {
		stepStart := w.start.Add(time.Duration(i) * hold)
		for _, off := range (Lane{Rate: rate, Index: s.Lane, Lanes: w.plan.Lanes}).Times(hold) {
			sched := stepStart.Add(off)
			if wait := time.Until(sched); wait > 0 {
				if !w.sleep(ctx, timer, wait) {
					return
				}
			} else {
				select {
				case <-w.stop:
					return
				default:
				}
				if -wait > hold {
					w.mu.Lock()
					w.step(i).Missed++
					w.mu.Unlock()
					continue
				}
			}
			p := Payload{Stream: s.Stream, N: n, Sched: sched.UnixNano()}
			err := c.SendText(s.RecvID, s.GroupID, p, fmt.Sprintf("kjl-%s-%d", strings.ReplaceAll(s.Stream, ".", "_"), n))
			w.mu.Lock()
			if err != nil {
				w.step(i).SendErr++
			} else {
				w.step(i).Sent++
				n++
				w.sent[s.Stream] = n
			}
			w.mu.Unlock()
			if err != nil {
				return // the socket is gone
			}
		}
	}
}

// judge waits until every member has received everything sent on its
// streams (or grace passes), then reports.
func (w *worker) judge(ctx context.Context, sent map[string]uint64, grace time.Duration) WorkerFinal {
	expect := map[string]uint64{}
	for _, m := range w.plan.Members {
		uid := strconv.FormatInt(m.Account.ID, 10)
		for _, s := range m.Expect {
			if n := sent[s]; n > 0 {
				expect[uid+"/"+s] = n
			}
		}
	}
	deadline := time.Now().Add(grace)
	var got map[string]StreamState
	var seqErr uint64
	for {
		got, seqErr = w.tracker.States()
		done := true
		for k, n := range expect {
			if got[k].Received < n {
				done = false
				break
			}
		}
		if done || time.Now().After(deadline) || ctx.Err() != nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	f := WorkerFinal{Loss: Judge(expect, got, seqErr), Pushes: w.pushes.Load(), LateAcks: w.late.Load()}
	var sentTotal int64
	w.mu.Lock()
	f.Steps = w.steps
	for _, s := range w.steps {
		sentTotal += s.Sent
	}
	w.mu.Unlock()
	f.Unacked = max(0, sentTotal-w.acks.Load())
	for i := range w.plan.Members {
		var c interface {
			Alive() bool
			Err() error
		}
		switch {
		case w.loop != nil && w.loop.conns[i] != nil:
			c = w.loop.conns[i]
		case w.loop == nil && w.conns[i] != nil:
			c = w.conns[i]
		}
		if c != nil && c.Alive() {
			f.Alive++
		} else if len(f.Closed) < 5 {
			reason := "never connected"
			if c != nil {
				reason = c.Err().Error()
			}
			f.Closed = append(f.Closed, fmt.Sprintf("%s: %s", w.plan.Members[i].Account.Account, reason))
		}
	}
	return f
}

func (w *worker) closeAll() {
	var wg sync.WaitGroup
	sem := make(chan struct{}, 64)
	for _, c := range w.conns {
		if c == nil {
			continue
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			c.Close()
		}()
	}
	wg.Wait()
}
