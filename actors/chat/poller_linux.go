//go:build linux

package chat

import (
	"errors"
	"io"
	"os"
	"slices"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"kj/internal/rawio"
)

// poller watches the node's sockets with one epoll set: a few reader
// goroutines take its ready sockets, and the one that takes a socket
// reads what is there without blocking (session.readReady). Each socket
// is registered one-shot, so one reader at a time handles it; it is
// re-armed once its bytes are consumed. An idle socket costs the node a
// descriptor in the set and nothing else.
//
// The readers never block in epoll_wait: the set's own descriptor is in
// Go's network poller (an epoll set is readable while it has events), a
// reader asks the set with a zero timeout and parks like any goroutine
// waiting on a socket when there is nothing. A reader blocked in the
// system call held its thread and processor: the runtime's monitor took
// the processor back from it every few tens of microseconds when other
// goroutines were waiting, and woke another thread to run them, so every
// wake of a reader cost a few thread switches (W2's 2,000 msg/s: ~4
// switches a message, on a virtual machine where a switch is dear). The
// asks and the sockets' reads are raw calls (internal/rawio): they never
// block, and a call the scheduler is told about woke its monitor thread.
// Nor does a reader write: the pong or close frame it owes goes through
// the socket's writer (queuePong, dropWith), so a client that sends pings
// and reads nothing cannot hold a reader, and with it the other sockets.
type poller struct {
	e    *Engine
	epfd int
	set  syscall.RawConn // epfd in the runtime's poller
	file *os.File        // owns epfd once the set is in the runtime's poller
	wake int             // eventfd in the set: written once to end the readers
	wg   sync.WaitGroup

	mu     sync.Mutex
	byFD   []*session // by descriptor: 8 bytes a socket, where a map took ~80
	closed bool       // the set is closed (the engine closed)
}

func newPoller(e *Engine, readers int) *poller {
	fd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
	if err != nil {
		e.log.Warn("epoll unavailable: one read goroutine per socket", "err", err)
		return &poller{e: e, epfd: -1}
	}
	wake, err := unix.Eventfd(0, unix.EFD_CLOEXEC|unix.EFD_NONBLOCK)
	if err == nil {
		err = unix.EpollCtl(fd, unix.EPOLL_CTL_ADD, wake, &unix.EpollEvent{Events: unix.EPOLLIN, Fd: int32(wake)})
	}
	if err != nil {
		unix.Close(fd)
		e.log.Warn("epoll unavailable: one read goroutine per socket", "err", err)
		return &poller{e: e, epfd: -1}
	}
	p := &poller{e: e, epfd: fd, wake: wake}
	// The set is made non-blocking so that os.NewFile puts it in the
	// runtime's poller; a file that is not in it refuses a deadline
	// (a reader of such a set could never park), and such a set is
	// closed with the rest.
	if err := unix.SetNonblock(fd, true); err == nil {
		p.file = os.NewFile(uintptr(fd), "epoll")
		if p.file.SetReadDeadline(time.Time{}) == nil {
			if p.set, err = p.file.SyscallConn(); err != nil {
				p.set = nil
			}
		}
	}
	if p.set == nil {
		if p.file != nil {
			p.file.Close()
		} else {
			unix.Close(fd)
		}
		unix.Close(wake)
		e.log.Warn("epoll set not pollable: one read goroutine per socket")
		return &poller{e: e, epfd: -1}
	}
	p.wg.Add(readers)
	for range readers {
		go p.run()
	}
	return p
}

const pollEvents = unix.EPOLLIN | unix.EPOLLRDHUP | unix.EPOLLONESHOT

// watch starts reading s: through the epoll set when its connection has
// a descriptor, else in a goroutine of its own.
func (p *poller) watch(s *session) {
	if p.epfd < 0 {
		go s.readBlocking()
		return
	}
	raw := rawio.Of(s.out.Conn)
	if raw == nil {
		go s.readBlocking()
		return
	}
	var fd int32 = -1
	_ = raw.Control(func(f uintptr) { fd = int32(f) })
	if fd < 0 {
		go s.readBlocking()
		return
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		go s.readBlocking()
		return
	}
	s.fd, s.sock = fd, s.out.sock
	if s.sock == nil {
		s.sock = rawio.NewSocket(raw)
	}
	if int(fd) >= len(p.byFD) {
		p.byFD = slices.Grow(p.byFD, int(fd)+1-len(p.byFD))
		p.byFD = p.byFD[:cap(p.byFD)]
	}
	p.byFD[fd] = s
	err := unix.EpollCtl(p.epfd, unix.EPOLL_CTL_ADD, int(fd), &unix.EpollEvent{Events: pollEvents, Fd: fd})
	if err != nil {
		p.byFD[fd] = nil
		s.fd, s.sock = -1, nil
	}
	p.mu.Unlock()
	if err != nil {
		go s.readBlocking()
	}
}

// forget takes s out of the set before its descriptor closes (a closed
// descriptor's number may be reused by the next socket at once).
func (p *poller) forget(s *session) {
	if p.epfd < 0 {
		return
	}
	p.mu.Lock()
	if !p.closed && s.fd >= 0 && p.byFD[s.fd] == s {
		p.byFD[s.fd] = nil
		_ = unix.EpollCtl(p.epfd, unix.EPOLL_CTL_DEL, int(s.fd), nil)
	}
	p.mu.Unlock()
}

// stop ends the readers (the eventfd stays readable, so every reader
// wakes) and closes the set.
func (p *poller) stop() {
	if p.epfd < 0 {
		return
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	p.mu.Unlock()
	var one [8]byte
	one[0] = 1
	_, _ = unix.Write(p.wake, one[:])
	p.wg.Wait()
	unix.Close(p.wake)
	p.file.Close() // and with it epfd
}

func (p *poller) run() {
	defer p.wg.Done()
	a := &epollAsk{events: make([]unix.EpollEvent, 64)}
	a.fn = a.ask // made once: a closure per ask would be garbage per wake
	events := a.events
	for {
		// The set is asked, not waited on: with nothing ready the
		// reader parks in the runtime's poller until the set is
		// readable. Only the asking holds the file's read lock, so the
		// other readers take events while this one reads its sockets.
		a.n, a.err = 0, nil
		err := p.set.Read(a.fn)
		n := a.n
		if err == nil {
			err = a.err
		}
		if err != nil {
			if errors.Is(err, unix.EINTR) {
				continue
			}
			p.e.log.Error("epoll_wait", "err", err)
			return
		}
		for _, ev := range events[:n] {
			if int(ev.Fd) == p.wake {
				return
			}
			var s *session
			p.mu.Lock()
			if int(ev.Fd) < len(p.byFD) {
				s = p.byFD[ev.Fd]
			}
			p.mu.Unlock()
			if s == nil || !s.reading.CompareAndSwap(false, true) {
				// Gone, or another reader has it (and re-arms it when done).
				continue
			}
			alive := s.readReady()
			s.reading.Store(false)
			if alive {
				_ = unix.EpollCtl(p.epfd, unix.EPOLL_CTL_MOD, int(ev.Fd), &unix.EpollEvent{Events: pollEvents, Fd: ev.Fd})
			}
		}
	}
}

// epollAsk is one poller reader's zero-timeout ask of the epoll set.
type epollAsk struct {
	events []unix.EpollEvent
	n      int
	err    error
	fn     func(fd uintptr) bool
}

func (a *epollAsk) ask(fd uintptr) bool {
	a.n, a.err = rawio.EpollAsk(int(fd), a.events)
	return a.n > 0 || a.err != nil // EINTR too: the loop asks again
}

// readReady reads what the socket has, without blocking, and consumes the
// complete frames. It returns false once the socket is gone.
func (s *session) readReady() bool {
	need := 0
	// A bound on one turn, so one busy socket does not keep its reader
	// from the others; level-triggered re-arming brings it back.
	for turn := 0; turn < 16; turn++ {
		b := s.rd.space(max(need, 512))
		free := b[len(b):cap(b)]
		// Never waits: readiness comes from the epoll set.
		n, err := s.sock.Read(free, false)
		if n > 0 {
			*s.rd.buf = b[:len(b)+n]
			var ferr error
			if need, ferr = s.frames(); ferr != nil {
				s.readFailed(ferr)
				return false
			}
			if n < len(free) {
				// A short read took all the socket had. Reading on
				// would be a second system call per frame, only to hear
				// EAGAIN: bytes that arrive later make the socket ready
				// again once it is re-armed (a level-triggered
				// descriptor re-armed with data waiting is reported).
				s.rd.release()
				return !s.torndown.Load()
			}
			continue
		}
		s.rd.release()
		switch {
		case errors.Is(err, unix.EAGAIN):
			return !s.torndown.Load()
		case errors.Is(err, io.EOF): // the client closed its side
			s.teardown()
			return false
		case errors.Is(err, unix.EINTR):
			continue
		default:
			s.teardown()
			return false
		}
	}
	return !s.torndown.Load()
}
