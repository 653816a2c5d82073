package loadtest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The failover workload's users (C1). Unlike the workers of W1-W3, whose
// sockets must never close, these behave as the web app does when a node
// goes away: a socket that closes is dialled again through the load
// balancer after ~0.5 s, and after every (re)connect a tracked user pulls
// each of its conversations from the last seq it holds
// (GetAdvancedHistoryMessageListReverse), so nothing sent while it was away
// is missed. A sender whose message was not acknowledged sends it again,
// with the same clientMsgID, on the next socket; the server must store it
// once.

// c1Conv is one conversation a user takes part in: a 1:1 peer or a group.
type c1Conv struct {
	Key     string // "u<peer>" or "g<group>"
	UserID  string
	GroupID string
}

// c1Received is what one user holds of one conversation.
type c1Received struct {
	bySeq  map[int64]string   // seq → clientMsgID
	seqsOf map[string][]int64 // clientMsgID → the seqs it came with
	// floor is the seq before the first one this user may see, learnt
	// from a catch-up that started at 0 (-1 until then).
	floor int64
}

// c1Outage is one closed socket and when it was open again.
type c1Outage struct{ Down, Up time.Time }

type c1AckReply struct {
	code int64
	seq  int64
}

// c1Client is one user's socket through the load balancer.
type c1Client struct {
	acct   Account
	uid    string
	wsBase string
	convs  []c1Conv
	track  bool // idle sockets neither send nor check what they receive
	rec    *c1Recorder

	mu             sync.Mutex
	conn           *ChatConn
	ready          chan struct{} // closed while conn is open
	downAt         time.Time
	outages        []c1Outage
	recv           map[string]*c1Received
	waiters        map[string]chan c1AckReply // SendMessage operationID → its waiter
	catchUpErrors  int
	lastCatchUpErr string
	dials          atomic.Int64
	up             atomic.Bool
}

func newC1Client(a Account, wsBase string, convs []c1Conv, track bool, rec *c1Recorder) *c1Client {
	c := &c1Client{acct: a, uid: strconv.FormatInt(a.ID, 10), wsBase: wsBase, convs: convs, track: track, rec: rec,
		ready: make(chan struct{}), recv: map[string]*c1Received{}, waiters: map[string]chan c1AckReply{}}
	for _, cv := range convs {
		c.recv[cv.Key] = &c1Received{bySeq: map[int64]string{}, seqsOf: map[string][]int64{}, floor: -1}
	}
	return c
}

// run keeps the socket open until ctx ends. connected is told once, after
// the first login (and catch-up).
func (c *c1Client) run(ctx context.Context, connected func(error)) {
	first := true
	for ctx.Err() == nil {
		dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		conn, err := DialChat(dctx, c.wsBase, "", c.acct, c.onFrame)
		cancel()
		c.dials.Add(1)
		if err != nil {
			if first && c.dials.Load() >= 5 {
				connected(err)
				return
			}
			c1Sleep(ctx, 500*time.Millisecond+rand.N(500*time.Millisecond))
			continue
		}
		now := time.Now()
		c.mu.Lock()
		c.conn = conn
		if !first {
			c.outages = append(c.outages, c1Outage{Down: c.downAt, Up: now})
		}
		close(c.ready)
		c.mu.Unlock()
		c.up.Store(true)
		if c.track {
			c.catchUpRetrying(ctx, conn)
		}
		if first {
			connected(nil)
			first = false
		}
		select {
		case <-conn.done:
		case <-ctx.Done():
			conn.Close()
			return
		}
		c.up.Store(false)
		c.rec.noteClose(conn.Err())
		c.mu.Lock()
		c.conn, c.downAt, c.ready = nil, time.Now(), make(chan struct{})
		for op, w := range c.waiters {
			close(w)
			delete(c.waiters, op)
		}
		c.mu.Unlock()
		// As the web app: dial again after half a second (spread so the
		// sockets of a lost node do not all arrive in the same millisecond).
		c1Sleep(ctx, 300*time.Millisecond+rand.N(400*time.Millisecond))
	}
}

func c1Sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// current waits until the socket is open.
func (c *c1Client) current(ctx context.Context) (*ChatConn, error) {
	for {
		c.mu.Lock()
		conn, ready := c.conn, c.ready
		c.mu.Unlock()
		if conn != nil && conn.Alive() {
			return conn, nil
		}
		select {
		case <-ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// catchUpRetrying catches up on conn, trying again every second while
// the socket stays open (as an app would, without dropping the socket).
func (c *c1Client) catchUpRetrying(ctx context.Context, conn *ChatConn) {
	for conn.Alive() && ctx.Err() == nil {
		err := c.catchUp(ctx, conn)
		if err == nil {
			return
		}
		c.mu.Lock()
		c.catchUpErrors++
		c.lastCatchUpErr = err.Error()
		c.mu.Unlock()
		c1Sleep(ctx, time.Second)
	}
}

// catchUp pulls every conversation from the highest seq held with none
// missing below it.
func (c *c1Client) catchUp(ctx context.Context, conn *ChatConn) error {
	for _, cv := range c.convs {
		from := c.contiguous(cv.Key)
		for {
			params, _ := json.Marshal(map[string]any{"userID": cv.UserID, "groupID": cv.GroupID, "count": 200, "lastMinSeq": from, "startClientMsgID": ""})
			data, err := conn.Call(ctx, "GetAdvancedHistoryMessageListReverse", string(params))
			if err != nil {
				return fmt.Errorf("catch up %s: %w", cv.Key, err)
			}
			var page struct {
				IsEnd       bool            `json:"isEnd"`
				LastMinSeq  int64           `json:"lastMinSeq"`
				MessageList []c1WireMessage `json:"messageList"`
			}
			if err := json.Unmarshal([]byte(data), &page); err != nil {
				return fmt.Errorf("catch up %s: %w", cv.Key, err)
			}
			if from == 0 && len(page.MessageList) > 0 {
				c.mu.Lock()
				c.recv[cv.Key].floor = page.MessageList[0].Seq - 1
				c.mu.Unlock()
			}
			for _, m := range page.MessageList {
				c.received(m, time.Now(), true)
			}
			if page.IsEnd || len(page.MessageList) == 0 || page.LastMinSeq <= from {
				return nil
			}
			from = page.LastMinSeq
		}
	}
	return nil
}

// contiguous is the highest seq of a conversation below which none is
// missing, from its first visible seq (from 0 while that is unknown): a
// catch-up starts there, so a message missed before others that arrived
// is fetched too.
func (c *c1Client) contiguous(key string) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.recv[key]
	s := max(r.floor, 0)
	if r.floor < 0 {
		if _, ok := r.bySeq[1]; !ok {
			return 0
		}
	}
	for {
		if _, ok := r.bySeq[s+1]; !ok {
			return s
		}
		s++
	}
}

// c1WireMessage is the part of a chat message the workload reads.
type c1WireMessage struct {
	ClientMsgID string `json:"clientMsgID"`
	Seq         int64  `json:"seq"`
	SendID      string `json:"sendID"`
	RecvID      string `json:"recvID"`
	GroupID     string `json:"groupID"`
	TextElem    *struct {
		Content string `json:"content"`
	} `json:"textElem"`
}

func (c *c1Client) convKey(m c1WireMessage) string {
	if m.GroupID != "" {
		return "g" + m.GroupID
	}
	if m.SendID == c.uid {
		return "u" + m.RecvID
	}
	return "u" + m.SendID
}

// received records a message (pushed or pulled); the first time this user
// gets it, its latency from when it was due goes to the recorder.
func (c *c1Client) received(m c1WireMessage, at time.Time, pulled bool) {
	if !c.track || m.Seq <= 0 {
		return
	}
	key := c.convKey(m)
	c.mu.Lock()
	r := c.recv[key]
	if r == nil {
		c.mu.Unlock()
		return
	}
	if prev, ok := r.bySeq[m.Seq]; ok {
		c.mu.Unlock()
		if prev != m.ClientMsgID {
			c.rec.conflicts.Add(1) // one seq, two messages
		}
		return
	}
	r.bySeq[m.Seq] = m.ClientMsgID
	first := len(r.seqsOf[m.ClientMsgID]) == 0
	r.seqsOf[m.ClientMsgID] = append(r.seqsOf[m.ClientMsgID], m.Seq)
	c.mu.Unlock()
	final := pulled && c.rec.final.Load()
	if first && final && m.SendID != c.uid {
		c.rec.pulled.Add(1)
	}
	if first && m.SendID != c.uid && m.TextElem != nil {
		if p, ok := ScanPayload([]byte(m.TextElem.Content)); ok {
			if final {
				c.rec.notePulled(time.Unix(0, p.Sched))
			}
			d := at.Sub(time.Unix(0, p.Sched))
			c.rec.deliver(at, d)
			if d > 5*time.Second {
				how := "pushed"
				if pulled {
					how = "pulled on catch-up"
				}
				c.rec.noteLate(fmt.Sprintf("%s got %s (seq %d, %s) %.1f s after it was due, %s", c.acct.Account, m.ClientMsgID, m.Seq, key, d.Seconds(), how))
			}
		}
	}
}

func (c *c1Client) onFrame(b []byte) {
	switch FrameEvent(b) {
	case "OnRecvNewMessage":
		if !c.track {
			return
		}
		var f struct {
			Data json.RawMessage `json:"data"`
		}
		if json.Unmarshal(b, &f) != nil {
			return
		}
		raw := []byte(f.Data)
		var s string
		if json.Unmarshal(raw, &s) == nil {
			raw = []byte(s)
		}
		var m c1WireMessage
		if json.Unmarshal(raw, &m) == nil {
			c.received(m, time.Now(), false)
		}
	case "SendMessage":
		code, op := ScanReply(b)
		seq, _ := ScanSeq(b)
		c.mu.Lock()
		w, ok := c.waiters[op]
		if ok {
			delete(c.waiters, op)
		}
		c.mu.Unlock()
		if ok {
			w <- c1AckReply{code: code, seq: seq}
		}
	}
}

// c1Acked is a message the server acknowledged.
type c1Acked struct {
	Conv        c1Conv
	ClientMsgID string
	Seq         int64
	Sender      *c1Client
}

// c1Lane sends one stream of messages to a conversation at a steady rate.
type c1Lane struct {
	from   *c1Client
	to     c1Conv
	stream string
	period time.Duration
	offset time.Duration

	acked    []c1Acked
	resent   int64 // sends made again on a new socket
	refused  int64 // answered with an error code
	unacked  int64 // given up on without an answer
	lastCode int64
}

// run sends until stop closes; each message waits for its ack (sent again
// on the next socket when the socket closes first).
func (l *c1Lane) run(ctx context.Context, start time.Time, stop <-chan struct{}) {
	for n := uint64(0); ; n++ {
		sched := start.Add(l.offset + time.Duration(n)*l.period)
		if !waitUntil(ctx, stop, sched) {
			return
		}
		p := Payload{Stream: l.stream, N: n, Sched: sched.UnixNano()}
		id := "c1-" + strings.ReplaceAll(l.stream, ".", "_") + "-" + strconv.FormatUint(n, 10)
		l.send(ctx, p, id)
	}
}

func (l *c1Lane) send(ctx context.Context, p Payload, id string) {
	c := l.from
	op := "k" + strconv.FormatInt(p.Sched, 10)
	giveUp := time.Now().Add(60 * time.Second)
	for attempt := 0; time.Now().Before(giveUp) && ctx.Err() == nil; attempt++ {
		wctx, cancel := context.WithDeadline(ctx, giveUp)
		conn, err := c.current(wctx)
		cancel()
		if err != nil {
			break
		}
		if attempt > 0 {
			l.resent++
		}
		w := make(chan c1AckReply, 1)
		c.mu.Lock()
		c.waiters[op] = w
		c.mu.Unlock()
		sent := time.Now()
		if err := conn.SendText(l.to.UserID, l.to.GroupID, p, id); err != nil {
			c.mu.Lock()
			delete(c.waiters, op)
			c.mu.Unlock()
			c.rec.request("chat", sent, 0, "socket write failed: "+err.Error())
			continue
		}
		select {
		case r, ok := <-w:
			if !ok {
				c.rec.request("chat", sent, 0, "socket closed before the answer")
				continue // the socket closed first: send again on the next one
			}
			c.rec.request("chat", sent, r.code, "")
			if r.code != 0 {
				l.refused++
				l.lastCode = r.code
				return
			}
			c.rec.ack(time.Now(), time.Since(time.Unix(0, p.Sched)))
			l.acked = append(l.acked, c1Acked{Conv: l.to, ClientMsgID: id, Seq: r.seq, Sender: c})
			return
		case <-time.After(c1AnswerTimeout):
			c.mu.Lock()
			delete(c.waiters, op)
			c.mu.Unlock()
			c.rec.request("chat", sent, 0, c1NoAnswer)
		case <-ctx.Done():
			return
		}
	}
	l.unacked++
}

// c1AnswerTimeout is how long a request may go unanswered before the
// client gives up on it (and sends it again); c1NoAnswer says so.
const (
	c1AnswerTimeout = 10 * time.Second
	c1NoAnswer      = "no answer within 10 s"
)

// c1Recorder keeps delivery and ack latencies by the second they happened.
type c1Recorder struct {
	// onRequest, when set, hears every request's outcome: its kind (chat,
	// bet, login), when it was sent, the answer's error code (0: done),
	// or why no answer came. The fault workload judges outages by it.
	onRequest func(kind string, sent, answered time.Time, code int64, failure string)

	mu        sync.Mutex
	deliverBy map[int64]*Histogram
	ackBy     map[int64]*Histogram
	conflicts atomic.Int64
	// final is set for the catch-up at the end of a run; pulled counts the
	// messages a recipient first got then: neither their push nor a
	// resync after a reconnect brought them.
	final  atomic.Bool
	pulled atomic.Int64
	// pulledDue are the times those messages were due to be sent.
	pulledDue []time.Time
	late      []string // the first deliveries more than 5 s after they were due
	closes    map[string]int
}

// noteClose counts why sockets closed (the close frame's code and text,
// or the network error), to tell a lost node from sockets cut again.
func (r *c1Recorder) noteClose(err error) {
	why := "closed"
	if err != nil {
		why = err.Error()
		// Addresses and ports differ per socket; the reason does not.
		if i := strings.Index(why, "->"); i >= 0 {
			if j := strings.Index(why[i:], ": "); j >= 0 {
				why = why[:strings.LastIndex(why[:i], " ")+1] + why[i+j+2:]
			}
		}
	}
	r.mu.Lock()
	r.closes[why]++
	r.mu.Unlock()
}

func (r *c1Recorder) request(kind string, sent time.Time, code int64, failure string) {
	if r.onRequest != nil {
		r.onRequest(kind, sent, time.Now(), code, failure)
	}
}

func (r *c1Recorder) notePulled(due time.Time) {
	r.mu.Lock()
	r.pulledDue = append(r.pulledDue, due)
	r.mu.Unlock()
}

// pulledBetween counts the messages first got by catching up that were
// due in [from, to).
func (r *c1Recorder) pulledBetween(from, to time.Time) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, t := range r.pulledDue {
		if !t.Before(from) && t.Before(to) {
			n++
		}
	}
	return n
}

// closeCount is how many sockets have closed so far.
func (r *c1Recorder) closeCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, k := range r.closes {
		n += k
	}
	return n
}

func (r *c1Recorder) noteLate(s string) {
	r.mu.Lock()
	if len(r.late) < 20 {
		r.late = append(r.late, s)
	}
	r.mu.Unlock()
}

func newC1Recorder() *c1Recorder {
	return &c1Recorder{deliverBy: map[int64]*Histogram{}, ackBy: map[int64]*Histogram{}, closes: map[string]int{}}
}

func (r *c1Recorder) deliver(at time.Time, d time.Duration) { r.record(r.deliverBy, at, d) }
func (r *c1Recorder) ack(at time.Time, d time.Duration)     { r.record(r.ackBy, at, d) }

func (r *c1Recorder) record(m map[int64]*Histogram, at time.Time, d time.Duration) {
	sec := at.Unix()
	r.mu.Lock()
	h := m[sec]
	if h == nil {
		h = NewHistogram()
		m[sec] = h
	}
	h.Record(d)
	r.mu.Unlock()
}

// between merges the seconds in [from, to).
func (r *c1Recorder) between(deliver bool, from, to time.Time) *Histogram {
	m := r.ackBy
	if deliver {
		m = r.deliverBy
	}
	out := NewHistogram()
	r.mu.Lock()
	defer r.mu.Unlock()
	for s := from.Unix(); s < to.Unix() || (s == from.Unix() && s <= to.Unix()); s++ {
		if h := m[s]; h != nil {
			out.Merge(h)
		}
	}
	return out
}

// seconds lists the seconds with deliveries, in order.
func (r *c1Recorder) seconds() []int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]int64, 0, len(r.deliverBy))
	for s := range r.deliverBy {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
