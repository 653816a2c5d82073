package loadtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"runtime"
	"strconv"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// HTTPLoop sends a step's requests the way wrk does: one OS thread and one
// epoll set over its keep-alive connections, waiting in epoll_pwait2 (a
// nanosecond timeout) until the next scheduled send or an answer, with no
// goroutine, channel or Go timer per request. Its system calls are raw
// (the thread keeps its P, so no wake-up hands the P to another thread and
// back); a wait is at most maxWait, so a collection never waits on the
// loop for longer. A Driver with Loop set runs its steps through it. At 2,000 req/s
// on a 2-core box the goroutine-per-lane client (LeanAPI under Driver.Do)
// spent 76-105 µs of CPU per request, most of it parking and waking
// goroutines and threads; wrk paced at the same rate spent 22 µs.
//
// It stays open loop: the n-th request of a step is due at n/rate, is sent
// by the first free connection (its lateness counts as latency, as
// Driver's does), and one more than MaxLag late is counted as missed.
type HTTPLoop struct {
	// Addr is the server's host:port.
	Addr string
	// Conns is how many requests may be in flight at once (one per
	// connection, no pipelining).
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
}

type loopConn struct {
	fd    int
	close bool   // the last answer said Connection: close
	out   []byte // the request being written
	wrote int
	in    []byte // what has been read of its answer
	sched time.Time
	busy  bool
}

// Close closes the loop's connections.
func (l *HTTPLoop) Close() {
	for _, c := range l.conns {
		if c.fd >= 0 {
			_ = unix.Close(c.fd)
			c.fd = -1
		}
	}
	l.conns = nil
}

// dial opens a connection as a non-blocking descriptor.
func (l *HTTPLoop) dial() (int, error) {
	conn, err := net.DialTimeout("tcp", l.Addr, 5*time.Second)
	if err != nil {
		return -1, err
	}
	tcp, ok := conn.(*net.TCPConn)
	if !ok {
		conn.Close()
		return -1, fmt.Errorf("loop: %s is not TCP", l.Addr)
	}
	f, err := tcp.File() // a blocking duplicate; the conn itself is closed below
	conn.Close()
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
	return fd, nil
}

// step sends rate requests a second for hold.
func (l *HTTPLoop) step(ctx context.Context, rate float64, hold, maxLag time.Duration) (StepResult, *Histogram) {
	h := NewHistogram()
	res := StepResult{Offered: rate}
	l.FirstError = nil
	fail := func(err error) (StepResult, *Histogram) {
		res.Errors++
		l.FirstError = err
		return res, h
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for len(l.conns) < max(1, l.Conns) {
		fd, err := l.dial()
		if err != nil {
			return fail(err)
		}
		l.conns = append(l.conns, &loopConn{fd: fd, in: make([]byte, 0, 4096)})
	}
	ep, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		return fail(err)
	}
	defer unix.Close(ep)
	watch := func(i int) error {
		return unix.EpollCtl(ep, unix.EPOLL_CTL_ADD, l.conns[i].fd, &unix.EpollEvent{Events: unix.EPOLLIN | unix.EPOLLRDHUP, Fd: int32(i)})
	}
	free := make([]int, 0, len(l.conns))
	for i := range l.conns {
		if err := watch(i); err != nil {
			return fail(err)
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
		now := time.Now()
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
	// reopen replaces a connection that failed or was closed.
	reopen := func(i int) {
		c := l.conns[i]
		_ = unix.EpollCtl(ep, unix.EPOLL_CTL_DEL, c.fd, nil)
		_ = unix.Close(c.fd)
		fd, err := l.dial()
		if err != nil {
			c.fd = -1
			return
		}
		c.fd = fd
		_ = watch(i)
	}
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

	for next < total || inflight > 0 {
		if ctx.Err() != nil {
			break
		}
		now := time.Since(start)
		for next < total && dueAt(next) <= now && len(free) > 0 {
			off := dueAt(next)
			next++
			if now-off > maxLag {
				res.Missed++
				continue
			}
			i := free[len(free)-1]
			free = free[:len(free)-1]
			c := l.conns[i]
			if c.fd < 0 {
				reopen(i)
				if c.fd < 0 {
					res.Sent++
					inflight++
					c.sched = start.Add(off)
					finish(i, errors.New("cannot connect"))
					continue
				}
			}
			c.out, c.wrote, c.busy, c.sched = l.Next(c.out[:0]), 0, true, start.Add(off)
			res.Sent++
			inflight++
			if err := send(i); err != nil {
				finish(i, err)
				reopen(i)
			}
		}
		// Requests due while every connection is busy wait for one; skip
		// those already too late (they would only be counted as missed).
		for next < total && len(free) == 0 && now-dueAt(next) > maxLag {
			next++
			res.Missed++
		}
		wait := maxWait
		if next < total && len(free) > 0 {
			wait = min(wait, max(0, dueAt(next)-time.Since(start)))
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
				reopen(i)
				continue
			}
			done, status, body, err := c.read()
			switch {
			case err != nil:
				finish(i, err)
				reopen(i)
			case done:
				finish(i, check(status, body))
				if c.close {
					reopen(i) // the server closes it after this answer
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
		n, err := rawRead(c.fd, c.in[len(c.in):cap(c.in)])
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

// maxWait bounds one wait in epoll_pwait2, during which the thread holds
// its P without the runtime knowing it is blocked.
const maxWait = time.Millisecond

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

func rawRead(fd int, b []byte) (int, error) {
	n, _, errno := unix.RawSyscall(unix.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
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
