package loadtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"runtime"
	"strconv"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// HTTPLoop sends a step's requests the way wrk does: one OS thread and one
// epoll set over its keep-alive connections, with no goroutine, channel or
// Go timer per request. Its system calls are raw (the thread keeps its P,
// so no wake-up hands the P to another thread and back); a wait is at most
// maxWait, so a collection never waits on the loop for longer. A Driver
// with Loop set runs its steps through it. At 2,000 req/s on a 2-core box
// the goroutine-per-lane client (LeanAPI under Driver.Do) spent 76-105 µs
// of CPU per request, most of it parking and waking goroutines and
// threads; wrk paced at the same rate spent 22 µs.
//
// A wake-up is what a request costs it: on the Firecracker VM of the W6
// figures one sleep and wake of a thread costs 20-37 µs of CPU, a system
// call 0.1-0.3 µs. So the loop wakes for the sends and not for the
// answers: while a send is due within maxWait it sleeps until then
// without watching its connections (clock_nanosleep) and, once awake,
// takes every answer that has come in meanwhile with a zero-timeout
// epoll_pwait2. An answer's time is the kernel's receive time of its last
// bytes (SO_TIMESTAMPNS), not the moment the loop read it, so reading it
// late adds nothing to its latency. Only when no send is due soon (a low
// rate, the end of a step, every connection busy) does it wait on the
// connections themselves. And a wake sends every request due within the
// next sendAhead, so the loop wakes to send at most about once a
// millisecond, as wrk's event loop, whose timers have millisecond
// resolution. Against the floor at 2,000 req/s (the box busy with other
// work) this took the loop from 1.7-1.8 voluntary context switches and
// 61-63 µs of CPU per request to 0.5-0.65 and 29-31 µs.
//
// The requests of one wake leave in one system call (sendRing, an
// io_uring): written one by one, the first write woke the server, which
// took the loop's CPU on the way out of the write and ran its request
// before the loop wrote the next. Against the floor at 2,000 req/s on the
// 2-core AMD VM this took the harness process from 36.5 to 31.5-32.5 µs
// of CPU per request (the server's from 107.5 to 96.5: it wakes once a
// batch), with requests still at most 1 ms early.
//
// It stays open loop: the n-th request of a step is due at n/rate, is sent
// by the connection freed last (its lateness counts as latency, as
// Driver's does), and one more than MaxLag late is counted as missed.
type HTTPLoop struct {
	// Addr is the server's host:port.
	Addr string
	// Conns is how many requests may be in flight at once (one per
	// connection, no pipelining): the most connections it opens, each
	// dialled when a request finds none free.
	Conns int
	// Next appends the next request to send to b (its whole bytes, as
	// LeanAPI.Prepare builds them) and returns it.
	Next func(b []byte) []byte
	// Check judges an answer; nil checks it is a 200 with kj's envelope
	// and code 0.
	Check func(status int, body []byte) error

	conns []*loopConn
	// FirstError is the first error of the last step, for its log line.
	FirstError error
	// Waits is how many times the last step slept or waited on its
	// connections (an upper bound on its wake-ups).
	Waits int64
	// Early and Late are the most a request of the last step left before
	// and after its scheduled time (a late one counts from its time).
	Early, Late time.Duration
	// stamped: an answer has come with the kernel's receive time. The
	// kernel turns its stamping on a moment after the first socket asks
	// for it (net_enable_timestamp defers it to a work queue); until an
	// answer shows it is on, the loop wakes for answers and times them as
	// it reads them.
	stamped bool
}

type loopConn struct {
	fd    int
	close bool   // the last answer said Connection: close
	out   []byte // the request being written
	wrote int
	in    []byte // what has been read of its answer
	sched time.Time
	// arrived is the kernel's receive time of the answer's bytes read
	// last (zero when the kernel gave none).
	arrived time.Time
	busy    bool
}

// Close closes the loop's connections.
func (l *HTTPLoop) Close() {
	for _, c := range l.conns {
		if c.fd >= 0 {
			_ = unix.Close(c.fd)
			c.fd = -1
		}
	}
	l.conns, l.stamped = nil, false
}

// Open dials up to Conns connections ahead of the next step, for a step
// whose first moments need many at once (W4's burst: every player has
// the app open before it), so the step does not dial them while it
// sends. Left unused they are closed by a server's header timeout (kj's:
// 10 s), which the loop then takes as closed and dials again when needed.
func (l *HTTPLoop) Open() error {
	for len(l.conns) < max(1, l.Conns) {
		fd, err := l.dial()
		if err != nil {
			return err
		}
		l.conns = append(l.conns, &loopConn{fd: fd, in: make([]byte, 0, 4096)})
	}
	return nil
}

// dial opens a connection as a non-blocking descriptor (takeFD: each read
// carries the kernel's receive time of its bytes, so an answer read late
// still counts from when it arrived).
func (l *HTTPLoop) dial() (int, error) {
	conn, err := net.DialTimeout("tcp", l.Addr, 5*time.Second)
	if err != nil {
		return -1, err
	}
	fd, err := takeFD(conn)
	if err != nil {
		return -1, fmt.Errorf("loop: %s: %w", l.Addr, err)
	}
	return fd, nil
}

// step sends rate requests a second for hold.
func (l *HTTPLoop) step(ctx context.Context, rate float64, hold, maxLag time.Duration) (StepResult, *Histogram) {
	h := NewHistogram()
	res := StepResult{Offered: rate}
	l.FirstError, l.Waits, l.Early, l.Late = nil, 0, 0, 0
	fail := func(err error) (StepResult, *Histogram) {
		res.Errors++
		l.FirstError = err
		return res, h
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ep, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return fail(err)
	}
	defer unix.Close(ep)
	watch := func(i int) error {
		return unix.EpollCtl(ep, unix.EPOLL_CTL_ADD, l.conns[i].fd, &unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLRDHUP, Fd: int32(i)})
	}
	// The free connections, the one freed last on top (its socket is
	// warm). A connection is dialled when none is free and fewer than
	// Conns are open, and a request goes on it at once: a connection
	// dialled ahead and left unused is closed by a server's header timeout
	// (kj's ReadHeaderTimeout, 10 s from the accept). With W6's 256
	// connections dialled up front, most were never used at 1,000 req/s;
	// kj closed them all together at the end of the first step, the loop
	// dialled them all again at once, and sent a few requests on closed
	// ones before it saw them close.
	free := make([]int, 0, max(1, l.Conns))
	for i, c := range l.conns {
		if c.fd >= 0 {
			if err := watch(i); err != nil {
				return fail(err)
			}
		}
		free = append(free, i)
	}
	check := l.Check
	if check == nil {
		check = func(status int, body []byte) error { return decodeEnvelope(status, body, nil) }
	}

	start := time.Now().Add(20 * time.Millisecond)
	total := int64(hold.Seconds() * rate)
	dueAt := func(n int64) time.Duration { return time.Duration(float64(n) / rate * float64(time.Second)) }
	var next, inflight int64
	var lastDone time.Duration
	events := make([]unix.EpollEvent, 128)

	finish := func(i int, err error) {
		c := l.conns[i]
		c.busy = false
		inflight--
		now := c.arrived
		if now.IsZero() {
			now = time.Now()
		} else {
			l.stamped = true
		}
		c.arrived = time.Time{}
		if err != nil {
			res.Errors++
			if l.FirstError == nil {
				l.FirstError = err
			}
		} else {
			h.Record(now.Sub(c.sched))
			res.Done++
			lastDone = now.Sub(start)
		}
		c.in = c.in[:0]
		free = append(free, i)
	}
	// drop closes a connection that failed or was closed; it is dialled
	// again when next used.
	drop := func(i int) {
		c := l.conns[i]
		if c.fd >= 0 {
			_ = unix.EpollCtl(ep, unix.EPOLL_CTL_DEL, c.fd, nil)
			_ = unix.Close(c.fd)
			c.fd = -1
		}
	}
	// take returns a free connection, dialled: the one freed last, or a
	// new one when none is free; -1 when none may be opened. A failed dial
	// is an error of the request.
	take := func() (int, error) {
		var i int
		if n := len(free); n > 0 {
			i, free = free[n-1], free[:n-1]
		} else {
			i = len(l.conns)
			l.conns = append(l.conns, &loopConn{fd: -1, in: make([]byte, 0, 4096)})
		}
		c := l.conns[i]
		if c.fd < 0 {
			fd, err := l.dial()
			if err != nil {
				return i, err
			}
			c.fd = fd
			if err := watch(i); err != nil {
				drop(i)
				return i, err
			}
		}
		return i, nil
	}
	canSend := func() bool { return len(free) > 0 || len(l.conns) < max(1, l.Conns) }
	send := func(i int) error {
		c := l.conns[i]
		for c.wrote < len(c.out) {
			n, err := rawWrite(c.fd, c.out[c.wrote:])
			if err != nil {
				return err // a request is far below a socket's buffer: EAGAIN is a fault too
			}
			c.wrote += n
		}
		return nil
	}

	// The requests of one wake are sent together, in one system call when
	// the ring is there (sendRing), else one write each.
	ring, err := newSendRing(uint32(min(256, max(1, l.Conns))))
	if err == nil {
		defer ring.Close()
	} else {
		ring = nil
	}
	var batch, batchFds []int
	var batchBufs [][]byte
	flush := func() {
		if len(batch) == 0 {
			return
		}
		if ring != nil {
			batchFds, batchBufs = batchFds[:0], batchBufs[:0]
			for _, i := range batch {
				batchFds, batchBufs = append(batchFds, l.conns[i].fd), append(batchBufs, l.conns[i].out)
			}
			for _, i := range batch {
				l.conns[i].wrote = -1 // until its completion is seen
			}
			ringErr := ring.send(batchFds, batchBufs, func(k, n int, err error) {
				l.conns[batch[k]].wrote = 0 // a failed send is written again below, and fails there
				if err == nil {
					l.conns[batch[k]].wrote = n
				}
			})
			if ringErr != nil {
				// The ring failed as a whole: later wakes write one by one.
				ring.Close()
				ring = nil
			}
			for _, i := range batch {
				if l.conns[i].wrote < 0 {
					// It may have left or not: its connection is not used again.
					finish(i, fmt.Errorf("send: %w", ringErr))
					drop(i)
				}
			}
		}
		for _, i := range batch {
			if l.conns[i].fd < 0 {
				continue // dropped above
			}
			if err := send(i); err != nil {
				finish(i, err)
				drop(i)
			}
		}
		batch = batch[:0]
	}

	for next < total || inflight > 0 {
		if ctx.Err() != nil {
			break
		}
		now := time.Since(start)
		for next < total && dueAt(next) <= now+sendAhead && canSend() {
			off := dueAt(next)
			next++
			if now-off > maxLag {
				res.Missed++
				continue
			}
			i, err := take()
			c := l.conns[i]
			if err != nil {
				res.Sent++
				inflight++
				c.sched = start.Add(off)
				finish(i, fmt.Errorf("cannot connect: %w", err))
				continue
			}
			// A request sent ahead counts from when it was sent, a late one
			// from when it was due.
			c.out, c.wrote, c.busy, c.sched = l.Next(c.out[:0]), 0, true, start.Add(min(off, now))
			l.Early, l.Late = max(l.Early, off-now), max(l.Late, now-off)
			res.Sent++
			inflight++
			batch = append(batch, i)
		}
		flush()
		// Requests due while every connection is busy wait for one; skip
		// those already too late (they would only be counted as missed).
		for next < total && !canSend() && now-dueAt(next) > maxLag {
			next++
			res.Missed++
		}
		wait := maxWait
		if next < total && canSend() {
			switch until := max(0, dueAt(next)-time.Since(start)); {
			case !l.stamped:
				wait = min(wait, until)
			case until <= maxWait:
				// A send is due soon: sleep until then without waking for
				// answers, and take the answers that came meanwhile.
				if until > 0 {
					sleep(until)
					l.Waits++
				}
				wait = 0
			}
		}
		if wait > 0 {
			l.Waits++
		}
		n, err := epollWait(ep, events, wait)
		if err != nil {
			if errors.Is(err, unix.EINTR) {
				continue
			}
			return fail(err)
		}
		for _, ev := range events[:n] {
			i := int(ev.Fd)
			c := l.conns[i]
			if !c.busy {
				// An idle connection the server closed, or spoke on.
				drop(i)
				continue
			}
			done, status, body, err := c.read()
			switch {
			case err != nil:
				finish(i, err)
				drop(i)
			case done:
				finish(i, check(status, body))
				if c.close {
					drop(i) // the server closes it after this answer
				}
			}
		}
	}
	took := max(hold, lastDone)
	res.Achieved = float64(res.Done) / took.Seconds()
	res.Latency = h.Summary()
	return res, h
}

// read takes what the socket holds and reports whether the answer is
// whole: its status and body once it is.
func (c *loopConn) read() (done bool, status int, body []byte, err error) {
	// One read takes a small answer whole; read again only while reads
	// fill the buffer (a read that would find nothing is a system call
	// per answer for nothing).
	for {
		if cap(c.in)-len(c.in) < 2048 {
			c.in = append(c.in, make([]byte, 4096)...)[:len(c.in)]
		}
		room := cap(c.in) - len(c.in)
		n, at, err := recvStamped(c.fd, c.in[len(c.in):cap(c.in)])
		if err == unix.EAGAIN {
			break
		}
		if err != nil {
			return false, 0, nil, err
		}
		if n == 0 {
			return false, 0, nil, errors.New("the server closed the connection mid-answer")
		}
		c.in = c.in[:len(c.in)+n]
		if !at.IsZero() {
			c.arrived = at
		}
		if n < room {
			break
		}
	}
	head, rest, ok := bytes.Cut(c.in, []byte("\r\n\r\n"))
	if !ok {
		return false, 0, nil, nil
	}
	line, headers, _ := bytes.Cut(head, []byte("\r\n"))
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
		return false, 0, nil, fmt.Errorf("not an HTTP answer: %.40q", line)
	}
	status, err = strconv.Atoi(string(line[9:12]))
	if err != nil {
		return false, 0, nil, fmt.Errorf("bad status line %.40q", line)
	}
	length, chunked := -1, false
	c.close = false
	for len(headers) > 0 {
		var h []byte
		h, headers, _ = bytes.Cut(headers, []byte("\r\n"))
		name, value, _ := bytes.Cut(h, []byte(":"))
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(bytes.TrimSpace(value))); err != nil {
				return false, 0, nil, fmt.Errorf("bad Content-Length %q", value)
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(bytes.TrimSpace(value), []byte("chunked"))
		case bytes.EqualFold(name, []byte("Connection")):
			c.close = bytes.EqualFold(bytes.TrimSpace(value), []byte("close"))
		}
	}
	if chunked {
		body, done, err := dechunk(rest)
		return done, status, body, err
	}
	if length < 0 {
		return false, 0, nil, errors.New("an answer with neither Content-Length nor chunks")
	}
	if len(rest) < length {
		return false, 0, nil, nil
	}
	if len(rest) > length {
		return false, 0, nil, errors.New("bytes after the answer on a connection with one request in flight")
	}
	return true, status, rest, nil
}

// sendAhead is how far ahead of its time a request may be sent, so that
// one wake sends every request of the next millisecond.
const sendAhead = time.Millisecond

// maxWait bounds one wait (in clock_nanosleep or epoll_pwait2), during
// which the thread holds its P without the runtime knowing it is blocked.
// It is two sendAheads: a wake sends the requests of the next millisecond,
// so the next one due is up to two milliseconds away, and the loop sleeps
// until it rather than waking for answers meanwhile.
const maxWait = 2 * sendAhead

// epollWait waits up to d for events, in a raw system call.
func epollWait(ep int, events []unix.EpollEvent, d time.Duration) (int, error) {
	ts := unix.NsecToTimespec(int64(d))
	n, _, errno := unix.RawSyscall6(unix.SYS_EPOLL_PWAIT2, uintptr(ep), uintptr(unsafe.Pointer(&events[0])), uintptr(len(events)),
		uintptr(unsafe.Pointer(&ts)), 0, 0)
	if errno == unix.ENOSYS {
		// A kernel before 5.11: millisecond timeouts, rounded up.
		return unix.EpollWait(ep, events, int((d+time.Millisecond-1)/time.Millisecond))
	}
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}

func rawWrite(fd int, b []byte) (int, error) {
	n, _, errno := unix.RawSyscall(unix.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}

// sleep waits d in a raw clock_nanosleep (an interrupted sleep returns
// early; the loop looks at the clock again).
func sleep(d time.Duration) {
	ts := unix.NsecToTimespec(int64(d))
	unix.RawSyscall6(unix.SYS_CLOCK_NANOSLEEP, unix.CLOCK_MONOTONIC, 0, uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
}

// stampSpace holds one SCM_TIMESTAMPNS control message.
const stampSpace = unix.SizeofCmsghdr + int(unsafe.Sizeof(unix.Timespec{}))

// recvStamped reads into b in a raw recvmsg and returns the kernel's
// receive time of the bytes read (SO_TIMESTAMPNS; zero when absent).
func recvStamped(fd int, b []byte) (int, time.Time, error) {
	var oob [stampSpace / 8]uint64 // aligned for the header
	iov := unix.Iovec{Base: &b[0]}
	iov.SetLen(len(b))
	msg := unix.Msghdr{Iov: &iov, Iovlen: 1, Control: (*byte)(unsafe.Pointer(&oob[0]))}
	msg.SetControllen(stampSpace)
	n, _, errno := unix.RawSyscall(unix.SYS_RECVMSG, uintptr(fd), uintptr(unsafe.Pointer(&msg)), 0)
	if errno != 0 {
		return 0, time.Time{}, errno
	}
	var at time.Time
	if msg.Controllen >= uint64(stampSpace) {
		h := (*unix.Cmsghdr)(unsafe.Pointer(&oob[0]))
		if h.Level == unix.SOL_SOCKET && h.Type == unix.SCM_TIMESTAMPNS {
			ts := (*unix.Timespec)(unsafe.Pointer(&oob[unix.SizeofCmsghdr/8]))
			at = time.Unix(ts.Sec, ts.Nsec)
		}
	}
	return int(n), at, nil
}

// dechunk reads a chunked body: whole once the last chunk and the final
// CRLF are in (trailers are not expected and refused).
func dechunk(b []byte) (body []byte, done bool, err error) {
	for {
		line, rest, ok := bytes.Cut(b, []byte("\r\n"))
		if !ok {
			return nil, false, nil
		}
		sizeText, _, _ := bytes.Cut(line, []byte(";"))
		size, err := strconv.ParseInt(string(bytes.TrimSpace(sizeText)), 16, 32)
		if err != nil || size < 0 {
			return nil, false, fmt.Errorf("bad chunk size %.20q", line)
		}
		if size == 0 {
			if len(rest) < 2 {
				return nil, false, nil
			}
			if !bytes.HasPrefix(rest, []byte("\r\n")) {
				return nil, false, errors.New("trailers after a chunked answer")
			}
			if len(rest) > 2 {
				return nil, false, errors.New("bytes after the answer on a connection with one request in flight")
			}
			return body, true, nil
		}
		if int64(len(rest)) < size+2 {
			return nil, false, nil
		}
		body = append(body, rest[:size]...)
		b = rest[size+2:]
	}
}

// sendRing sends a wake's requests in one system call: an io_uring whose
// submission of n sends runs them one after another in the kernel before
// it returns. Written one by one, each request's write woke the server
// (on this kernel, which preempts only on the way back to user space, the
// server took the loop's CPU at the end of the write, ran the request,
// and slept again before the loop wrote the next one), so a request cost
// the loop a write, a wake-up of the server and most of a context switch:
// a write was 16-18 µs of the loop's CPU against the floor at 2,000 req/s.
type sendRing struct {
	fd                      int
	sqHead, sqTail, cqHead  *uint32
	cqTail                  *uint32
	sqMask, cqMask          uint32
	sqArray                 []uint32
	sqes                    []ringSQE
	cqes                    []ringCQE
	ringMem, sqeMem, cqeMem []byte
	entries                 uint32
}

// ringSQE is struct io_uring_sqe as a send fills it.
type ringSQE struct {
	opcode   uint8
	flags    uint8
	ioprio   uint16
	fd       int32
	off      uint64
	addr     uint64
	len      uint32
	msgFlags uint32
	userData uint64
	_        [3]uint64
}

// ringCQE is struct io_uring_cqe.
type ringCQE struct {
	userData uint64
	res      int32
	flags    uint32
}

// ringParams is struct io_uring_params.
type ringParams struct {
	sqEntries, cqEntries, flags, sqThreadCPU, sqThreadIdle, features, wqFd uint32
	resv                                                                   [3]uint32
	sqOff                                                                  [10]uint32 // head, tail, ring_mask, ring_entries, flags, dropped, array, resv1, user_addr (u64)
	cqOff                                                                  [10]uint32 // head, tail, ring_mask, ring_entries, overflow, cqes, flags, resv1, user_addr (u64)
}

const (
	ioringOpSend         = 26
	ioringSetupClamp     = 1 << 4
	ioringSetupSubmitAll = 1 << 7
	ioringFeatSingleMmap = 1 << 0
	ioringOffSQEs        = 0x10000000
	ioringOffCQRing      = 0x8000000
	ioringEnterGetEvents = 1 << 0
)

// newSendRing sets up a ring of entries sends; an error when the kernel
// has no io_uring (or refuses it), and the loop writes request by request.
func newSendRing(entries uint32) (*sendRing, error) {
	var p ringParams
	p.flags = ioringSetupClamp | ioringSetupSubmitAll
	fd, _, errno := unix.Syscall(unix.SYS_IO_URING_SETUP, uintptr(entries), uintptr(unsafe.Pointer(&p)), 0)
	if errno != 0 {
		return nil, fmt.Errorf("io_uring_setup: %w", errno)
	}
	r := &sendRing{fd: int(fd), entries: p.sqEntries}
	fail := func(err error) (*sendRing, error) {
		r.Close()
		return nil, err
	}
	sqSize := int(p.sqOff[6]) + int(p.sqEntries)*4
	cqSize := int(p.cqOff[5]) + int(p.cqEntries)*int(unsafe.Sizeof(ringCQE{}))
	single := p.features&ioringFeatSingleMmap != 0
	if single {
		sqSize = max(sqSize, cqSize)
	}
	var err error
	if r.ringMem, err = unix.Mmap(r.fd, 0, sqSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE); err != nil {
		return fail(fmt.Errorf("io_uring mmap: %w", err))
	}
	cqMem := r.ringMem
	if !single {
		if r.cqeMem, err = unix.Mmap(r.fd, ioringOffCQRing, cqSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE); err != nil {
			return fail(fmt.Errorf("io_uring mmap: %w", err))
		}
		cqMem = r.cqeMem
	}
	sqeSize := int(p.sqEntries) * int(unsafe.Sizeof(ringSQE{}))
	if r.sqeMem, err = unix.Mmap(r.fd, ioringOffSQEs, sqeSize, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED|unix.MAP_POPULATE); err != nil {
		return fail(fmt.Errorf("io_uring mmap: %w", err))
	}
	at := func(mem []byte, off uint32) *uint32 { return (*uint32)(unsafe.Pointer(&mem[off])) }
	r.sqHead, r.sqTail, r.sqMask = at(r.ringMem, p.sqOff[0]), at(r.ringMem, p.sqOff[1]), *at(r.ringMem, p.sqOff[2])
	r.sqArray = unsafe.Slice(at(r.ringMem, p.sqOff[6]), p.sqEntries)
	r.cqHead, r.cqTail, r.cqMask = at(cqMem, p.cqOff[0]), at(cqMem, p.cqOff[1]), *at(cqMem, p.cqOff[2])
	r.cqes = unsafe.Slice((*ringCQE)(unsafe.Pointer(&cqMem[p.cqOff[5]])), p.cqEntries)
	r.sqes = unsafe.Slice((*ringSQE)(unsafe.Pointer(&r.sqeMem[0])), p.sqEntries)
	return r, nil
}

// Close releases the ring.
func (r *sendRing) Close() {
	for _, m := range [][]byte{r.sqeMem, r.cqeMem, r.ringMem} {
		if m != nil {
			_ = unix.Munmap(m)
		}
	}
	r.sqeMem, r.cqeMem, r.ringMem = nil, nil, nil
	if r.fd >= 0 {
		_ = unix.Close(r.fd)
		r.fd = -1
	}
}

// send writes each b[k] to fds[k] in as few system calls as the ring
// holds, and calls done(k, n, err) for each with the bytes written (a
// send that would block is an error: the loop's requests are far below a
// socket's buffer).
func (r *sendRing) send(fds []int, b [][]byte, done func(k, n int, err error)) error {
	for from := 0; from < len(fds); {
		n := min(len(fds)-from, int(r.entries))
		tail := atomic.LoadUint32(r.sqTail)
		for k := range n {
			i := tail & r.sqMask
			buf := b[from+k]
			r.sqes[i] = ringSQE{opcode: ioringOpSend, fd: int32(fds[from+k]), addr: uint64(uintptr(unsafe.Pointer(&buf[0]))),
				len: uint32(len(buf)), msgFlags: unix.MSG_DONTWAIT | unix.MSG_NOSIGNAL, userData: uint64(from + k)}
			r.sqArray[i] = i
			tail++
		}
		atomic.StoreUint32(r.sqTail, tail)
		// The sends run in the call (their sockets take them at once); a
		// completion still missing after it (none expected) is waited for.
		got, _, errno := unix.RawSyscall6(unix.SYS_IO_URING_ENTER, uintptr(r.fd), uintptr(n), 0, 0, 0, 0)
		if errno != 0 {
			return fmt.Errorf("io_uring_enter: %w", errno)
		}
		if int(got) != n {
			return fmt.Errorf("io_uring_enter submitted %d of %d", got, n)
		}
		for seen := 0; seen < n; {
			head, ctail := atomic.LoadUint32(r.cqHead), atomic.LoadUint32(r.cqTail)
			if head == ctail {
				if _, _, errno := unix.RawSyscall6(unix.SYS_IO_URING_ENTER, uintptr(r.fd), 0, 1, ioringEnterGetEvents, 0, 0); errno != 0 && errno != unix.EINTR {
					return fmt.Errorf("io_uring_enter: %w", errno)
				}
				continue
			}
			for ; head != ctail; head++ {
				c := r.cqes[head&r.cqMask]
				k := int(c.userData)
				if c.res < 0 {
					done(k, 0, unix.Errno(-c.res))
				} else {
					done(k, int(c.res), nil)
				}
				seen++
			}
			atomic.StoreUint32(r.cqHead, head)
		}
		runtime.KeepAlive(b)
		from += n
	}
	return nil
}
