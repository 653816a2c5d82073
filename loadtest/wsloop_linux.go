package loadtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// wsLoopSupported: workers run their sockets in one event loop (below).
const wsLoopSupported = true

// wsLoop is a worker's event loop over all its sockets: HTTPLoop's design
// (loop_linux.go) for websockets. One goroutine and one epoll set; no
// goroutine, channel or Go timer per socket or per message. Each wake
// sends every message due within the next sendAhead (each lane's times
// as sendLane keeps them), then takes every frame that has come in
// meanwhile with a zero-timeout epoll_pwait; while a send is due within
// maxWait it sleeps until then without watching its sockets. A frame's
// time is the kernel's receive time of the bytes that completed it
// (SO_TIMESTAMPNS), so an ack or a delivery read late counts from when it
// arrived. Pings are answered (kj's control frames, the peer's {}) in the
// wake that reads them. With a goroutine per socket (gorilla's reader)
// and one per lane with its own timer, W2 at 2,000 msg/s cost the
// generator ~136-200 µs of CPU per message, 1.65 context switches each.
//
// The bytes a wake queued leave together, in one io_uring submission
// (sendRing, as HTTPLoop's requests), not one write each: on loopback a
// write runs the server's receive path and wakes it, and the woken server
// took the loop's CPU on the way out of the write before the next one.
//
// The loop is one goroutine on a process of one P (GOMAXPROCS 1, set once
// its sockets are up), not locked to its thread, and it yields to the Go
// scheduler itself every yieldEvery. Its raw system calls keep the P, so
// the runtime sees a goroutine running without pause and preempted it
// every 10 ms (a signal, then, the goroutine being locked to its thread,
// handing the P to another thread and back: ~100 futex calls a second and
// the wake-ups of three threads). With one P and no lock a yield is a pass
// through the scheduler, with no other thread woken.
type wsLoop struct {
	w     *worker
	conns []*rawWS // by member index; nil where the socket failed
	ep    int
	buf   []byte
	dirty []*rawWS // sockets with bytes to write

	begin chan time.Time // the ramp's time zero (the "go" command)
	sent  chan struct{}  // closed when the loop has made its last send
	quit  chan struct{}  // closed to end the loop
	done  chan struct{}  // closed when it has ended

	stamped bool
	events  []unix.EpollEvent

	ring      *sendRing // nil: one write per socket
	ringFds   []int
	ringBufs  [][]byte
	ringConns []*rawWS
	ringSeen  []bool
}

// yieldEvery is how often the loop yields to the Go scheduler: under the
// 10 ms after which the runtime would preempt it.
const yieldEvery = 5 * time.Millisecond

// takeFD turns nc into a non-blocking descriptor of the loop's (nc
// itself is closed), receive times on.
func takeFD(nc net.Conn) (int, error) {
	tcp, ok := nc.(*net.TCPConn)
	if !ok {
		nc.Close()
		return -1, errors.New("not a TCP connection")
	}
	f, err := tcp.File()
	nc.Close()
	if err != nil {
		return -1, err
	}
	fd, err := unix.Dup(int(f.Fd()))
	f.Close()
	if err != nil {
		return -1, err
	}
	if err := unix.SetNonblock(fd, true); err != nil {
		unix.Close(fd)
		return -1, err
	}
	_ = unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1)
	_ = unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_TIMESTAMPNS, 1)
	return fd, nil
}

// adopt hands a logged-in socket to the loop (before it starts).
func (l *wsLoop) adopt(i int, nc net.Conn, c *rawWS) error {
	fd, err := takeFD(nc)
	if err != nil {
		return err
	}
	c.fd, c.member = fd, i
	if err := unix.EpollCtl(l.ep, unix.EPOLL_CTL_ADD, fd, &unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLRDHUP, Fd: int32(i)}); err != nil {
		unix.Close(fd)
		return err
	}
	l.conns[i] = c
	return nil
}

func newWSLoop(w *worker) (*wsLoop, error) {
	ep, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return nil, err
	}
	return &wsLoop{w: w, conns: make([]*rawWS, len(w.plan.Members)), ep: ep, buf: make([]byte, 64<<10),
		begin: make(chan time.Time, 1), sent: make(chan struct{}), quit: make(chan struct{}), done: make(chan struct{}),
		events: make([]unix.EpollEvent, 256)}, nil
}

// loopSend is one scheduled send: its offset from time zero and socket.
type loopSend struct {
	at     time.Duration
	member int32
}

// schedule is every send of phase i (-1: the warm-up, one per lane) in
// time order.
func (l *wsLoop) schedule(i int, rates []float64, hold time.Duration) []loopSend {
	p := &l.w.plan
	var out []loopSend
	for mi, m := range p.Members {
		if m.Send == nil || l.conns[mi] == nil {
			continue
		}
		if i < 0 {
			warm := p.Warm
			out = append(out, loopSend{at: -warm + time.Duration(float64(warm)*float64(m.Send.Lane)/float64(max(1, p.Lanes))), member: int32(mi)})
			continue
		}
		stepStart := time.Duration(i) * hold
		for _, off := range (Lane{Rate: rates[i], Index: m.Send.Lane, Lanes: p.Lanes}).Times(hold) {
			out = append(out, loopSend{at: stepStart + off, member: int32(mi)})
		}
	}
	slices.SortStableFunc(out, func(a, b loopSend) int { return int(a.at - b.at) })
	return out
}

// run is the loop; it ends when quit closes or ctx ends.
func (l *wsLoop) run(ctx context.Context) {
	defer close(l.done)
	if os.Getenv(WorkerWritesEnv) != "" {
		l.w.logf("sends one write each (%s)", WorkerWritesEnv)
	} else if r, err := newSendRing(256); err == nil {
		l.ring = r
		defer func() { r.Close(); l.ring = nil }()
	} else {
		l.w.logf("sends one write each: %v", err)
	}
	lastYield := time.Now()
	rates := l.w.plan.Ramp.Rates()
	hold := l.w.plan.Ramp.Hold
	var start time.Time
	phase := len(rates) // nothing to send until the ramp's time zero
	var sched []loopSend
	next := 0
	var scratch []byte
	sending := false
	endSending := func() {
		if sending {
			sending = false
			close(l.sent)
		}
	}
	defer endSending()
	for {
		select {
		case <-l.quit:
			return
		case <-ctx.Done():
			return
		case t := <-l.begin:
			start, sending, next = t, true, 0
			phase = 0
			if l.w.plan.Warm > 0 {
				phase = -1
			}
			sched = l.schedule(phase, rates, hold)
		default:
		}
		if sending && ended(l.w.stop) {
			endSending()
		}
		// Send what is due.
		now := time.Now()
		for sending {
			if next == len(sched) {
				phase++
				if phase >= len(rates) {
					endSending()
					break
				}
				sched, next = l.schedule(phase, rates, hold), 0
				continue
			}
			e := sched[next]
			due := start.Add(e.at)
			if due.Sub(now) > sendAhead {
				break
			}
			next++
			l.send(phase, e, due, now, hold, &scratch)
		}
		l.flush()
		// Take what has come in.
		l.poll(0)
		l.flush()
		// Wait for the next send, or for frames when none is due soon.
		wait := 100 * time.Millisecond
		if sending && next < len(sched) {
			// Until it is due: that wake sends it with all the others
			// due within sendAhead of it.
			wait = min(wait, time.Until(start.Add(sched[next].at)))
		} else if sending {
			wait = 0
		}
		if now := time.Now(); now.Sub(lastYield) >= yieldEvery {
			runtime.Gosched()
			lastYield = now
		}
		if wait <= 0 {
			continue
		}
		if l.stamped && wait <= maxWait {
			sleep(wait)
		} else {
			l.poll(wait)
		}
	}
}

// send makes one scheduled send of phase i (sendLane's accounting): a
// send more than a step late is missed, one made ahead of its time
// counts from when it was made.
func (l *wsLoop) send(i int, e loopSend, due, now time.Time, hold time.Duration, scratch *[]byte) {
	w := l.w
	c := l.conns[e.member]
	if i >= 0 && now.Sub(due) > hold {
		w.mu.Lock()
		w.step(i).Missed++
		w.mu.Unlock()
		return
	}
	if c.errSent {
		return // its lane stopped at its first failed send
	}
	if !c.Alive() {
		c.errSent = true
		if i >= 0 {
			w.mu.Lock()
			w.step(i).SendErr++
			w.mu.Unlock()
		}
		return
	}
	p := Payload{Stream: w.plan.Members[e.member].Send.Stream, N: c.n, Sched: min(due.UnixNano(), now.UnixNano())}
	*scratch = c.appendSend(*scratch, p)
	l.queue(c)
	if i >= 0 {
		w.mu.Lock()
		w.step(i).Sent++
		w.mu.Unlock()
	}
}

// sentCounts is how many messages each lane of the loop has sent (its
// sockets' counts, not a map kept per send): read once sending has ended
// (sent or done closed).
func (l *wsLoop) sentCounts(into map[string]uint64) {
	for i, c := range l.conns {
		if c != nil && c.n > 0 {
			into[l.w.plan.Members[i].Send.Stream] = c.n
		}
	}
}

func (l *wsLoop) queue(c *rawWS) {
	if !c.queued && len(c.out) > 0 {
		c.queued = true
		l.dirty = append(l.dirty, c)
	}
}

// flush writes what the sockets have queued; what a full socket buffer
// leaves waits for the next wake.
func (l *wsLoop) flush() {
	l.flushRing()
	keep := l.dirty[:0]
	for _, c := range l.dirty {
		c.queued = false
		if !c.Alive() {
			c.out = c.out[:0]
			continue
		}
		for len(c.out) > 0 {
			n, err := rawWrite(c.fd, c.out)
			if err == unix.EINTR {
				continue
			}
			if err == unix.EAGAIN {
				break
			}
			if err != nil {
				l.fail(c, fmt.Errorf("write: %w", err))
				break
			}
			c.out = c.out[:copy(c.out, c.out[n:])]
		}
		if len(c.out) > 0 && c.Alive() {
			c.queued = true
			keep = append(keep, c)
		}
	}
	l.dirty = keep
}

// flushRing sends what the live sockets have queued in one io_uring
// submission (256 at a time); what a send leaves (a full socket buffer,
// a short send) flush writes as before, and a failed send fails its
// socket there. A ring that fails as a whole is dropped: later wakes
// write one by one.
func (l *wsLoop) flushRing() {
	if l.ring == nil || len(l.dirty) == 0 {
		return
	}
	fds, bufs, live, seen := l.ringFds[:0], l.ringBufs[:0], l.ringConns[:0], l.ringSeen[:0]
	for _, c := range l.dirty {
		if c.Alive() && len(c.out) > 0 {
			fds, bufs, live, seen = append(fds, c.fd), append(bufs, c.out), append(live, c), append(seen, false)
		}
	}
	l.ringFds, l.ringBufs, l.ringConns, l.ringSeen = fds, bufs, live, seen
	if len(fds) == 0 {
		return
	}
	err := l.ring.send(fds, bufs, func(k, n int, err error) {
		seen[k] = true
		if err == nil {
			c := live[k]
			c.out = c.out[:copy(c.out, c.out[n:])]
		}
	})
	if err != nil {
		// A send whose completion was not seen may have left or not:
		// writing its bytes again could repeat them, so its socket closes.
		for k, c := range live {
			if !seen[k] {
				l.fail(c, fmt.Errorf("send: %w", err))
			}
		}
		l.w.logf("%v; sending one write each from now", err)
		l.ring.Close()
		l.ring = nil
	}
	clear(bufs)
	clear(live)
}

// poll waits up to d for frames and takes them.
func (l *wsLoop) poll(d time.Duration) {
	n, err := epollWait(l.ep, l.events, d)
	if err != nil {
		return // EINTR: the loop comes round again
	}
	for _, ev := range l.events[:n] {
		if c := l.conns[ev.Fd]; c != nil && c.Alive() {
			l.read(c)
		}
	}
}

// read takes what socket c holds.
func (l *wsLoop) read(c *rawWS) {
	for {
		n, at, err := recvStamped(c.fd, l.buf)
		if err == unix.EINTR {
			continue
		}
		if err == unix.EAGAIN {
			return
		}
		if err != nil {
			l.fail(c, fmt.Errorf("read: %w", err))
			return
		}
		if n == 0 {
			l.fail(c, io.EOF)
			return
		}
		if at.IsZero() {
			at = time.Now()
		} else {
			l.stamped = true
		}
		data := l.buf[:n]
		if len(c.in) > 0 {
			c.in = append(c.in, data...)
			data = c.in
		}
		k, err := c.frames(data, func(m []byte) { l.message(c, m, at) })
		if err != nil {
			l.fail(c, err)
			return
		}
		c.in = append(c.in[:0], data[k:]...)
		l.queue(c) // pongs
		if n < len(l.buf) {
			return
		}
	}
}

// message handles one whole message of socket c that arrived at at.
func (l *wsLoop) message(c *rawWS, m []byte, at time.Time) {
	if !c.peer {
		l.w.onFrameAt(c.uid, m, at)
		return
	}
	for len(m) > 0 {
		line := m
		if i := bytes.IndexByte(m, '\n'); i >= 0 {
			line, m = m[:i], m[i+1:]
		} else {
			m = nil
		}
		switch t := bytes.TrimSpace(line); {
		case len(t) <= 2: // {} is the peer's ping
			if string(t) == "{}" {
				c.out = appendWSFrame(c.out, wsText, c.mask, t)
			}
		case bytes.HasPrefix(line, []byte(`{"id":`)):
			if sched, code, ok := c.peerReply(line); ok {
				l.w.onAckAt(sched, code, line, at)
			}
		default:
			l.w.onPeerPushAt(c.uid, c.own, line, at)
		}
	}
}

// fail closes socket c for err.
func (l *wsLoop) fail(c *rawWS, err error) {
	if !c.Alive() {
		return
	}
	c.err = err
	c.dead.Store(true)
	_ = unix.EpollCtl(l.ep, unix.EPOLL_CTL_DEL, c.fd, nil)
	_ = unix.Close(c.fd)
}

// close ends the loop and closes every socket politely.
func (l *wsLoop) close() {
	select {
	case <-l.quit:
	default:
		close(l.quit)
	}
	<-l.done
	bye := []byte{0x80 | wsClose, 0x80 | 2, 0, 0, 0, 0, 0x03, 0xe8} // 1000, zero mask
	for _, c := range l.conns {
		if c != nil && c.Alive() {
			_, _ = unix.Write(c.fd, bye)
			l.fail(c, errors.New("closed by the worker"))
		}
	}
	unix.Close(l.ep)
}

// connectLoop dials and logs in every member, Dialers at a time, and
// starts the loop over them.
func (w *worker) connectLoop(ctx context.Context, logf func(string, ...any)) (WorkerReady, error) {
	t0 := time.Now()
	l, err := newWSLoop(w)
	if err != nil {
		return WorkerReady{}, err
	}
	w.loop = l
	r := w.dialAll(ctx, func(ctx context.Context, i int, m Member) error {
		var nc net.Conn
		var c *rawWS
		var err error
		uid := strconv.FormatInt(m.Account.ID, 10)
		if p := w.plan.Peer; p != nil {
			token := PeerToken(p.Secret, uid, time.Now().Add(24*time.Hour))
			nc, c, err = loginPeer(ctx, p.URL, w.plan.Source, uid, token, m.Channel)
		} else {
			nc, c, err = loginChat(ctx, w.plan.WSBase, w.plan.Source, m.Account)
		}
		if err != nil {
			return err
		}
		if s := m.Send; s != nil {
			c.own, c.recvID, c.groupID = s.Stream, s.RecvID, s.GroupID
			c.idPrefix = "kjl-" + strings.ReplaceAll(s.Stream, ".", "_") + "-"
		}
		return l.adopt(i, nc, c) // each at its own index; the loop starts after all

	})
	r.Seconds = time.Since(t0).Seconds()
	// One P from here on (the loop's comment says why); the dialling
	// above had them all.
	runtime.GOMAXPROCS(1)
	go l.run(ctx)
	logf("%d sockets logged in from %s in %.1f s (%d failed), one event loop", r.Conns, w.plan.Source, r.Seconds, r.Failed)
	return r, nil
}
