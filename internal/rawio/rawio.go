// Package rawio makes the system calls of non-blocking sockets as raw
// calls, which the Go scheduler is not told about.
//
// A call the scheduler is told about (syscall.Syscall, which every
// net.Conn read and write makes) wakes the runtime's monitor thread
// whenever that thread sleeps because every processor was idle; once
// woken, the monitor polls every 20 µs for about a millisecond before it
// sleeps again. A node at a moderate rate goes idle between requests, so
// each request woke the monitor: at W2's 2,000 msg/s its sleeps and wakes
// were half of the chat node's thread switches (perf, sched_switch), on a
// virtual machine where a switch is dear. A call on a non-blocking socket
// returns in microseconds, whatever the socket holds, so it may keep its
// processor as a raw call does; waiting for a socket stays with the
// runtime's poller, through the descriptor's syscall.RawConn.
//
// Unlike golang.org/x/sys/unix, these calls do not tell the race detector
// about the bytes the kernel writes into a read's buffer: it may miss a
// race on such a buffer, never report one that is not there.
package rawio

import (
	"errors"
	"io"
	"net"
	"sync"
	"syscall"
)

// Conn is a net.Conn whose Read and Write are raw calls on its
// descriptor; deadlines, closing and addresses are the connection's own.
// Like a net.Conn, it takes reads and writes from several goroutines at
// once: each side's calls are one at a time, as the descriptor's own
// locks would make them.
type Conn struct {
	net.Conn
	sock   *Socket
	reads  sync.Mutex
	writes sync.Mutex
}

// Wrap gives c raw reads and writes when it has a descriptor on this
// system; otherwise it returns c as it is.
func Wrap(c net.Conn) net.Conn {
	if raw := Of(c); raw != nil {
		return &Conn{Conn: c, sock: NewSocket(raw)}
	}
	return c
}

// Of is c's descriptor access, for NewSocket, or nil where the calls
// here do not apply (not Linux, a TLS connection, a test's pipe).
func Of(c net.Conn) syscall.RawConn {
	if !supported {
		return nil
	}
	sc, ok := c.(syscall.Conn)
	if !ok {
		return nil
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	return raw
}

// Read reads what the socket holds, waiting in the runtime's poller (and
// within the read deadline) while it holds nothing.
func (c *Conn) Read(p []byte) (int, error) {
	c.reads.Lock()
	defer c.reads.Unlock()
	return c.sock.Read(p, true)
}

// Write writes p whole (Socket.WriteAll).
func (c *Conn) Write(p []byte) (int, error) {
	c.writes.Lock()
	defer c.writes.Unlock()
	if err := c.sock.WriteAll(p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Socket is one descriptor's raw reads and writes. syscall.RawConn takes
// a callback for each call; a Socket makes its two once, and a call
// passes its buffer and takes its result through the Socket's fields,
// so a read or a write allocates nothing (a closure made per call was a
// few hundred bytes of garbage a chat message). One read and one write
// may run at once; two reads, or two writes, may not.
type Socket struct {
	raw syscall.RawConn

	readFn   func(fd uintptr) bool
	readBuf  []byte
	readWait bool
	readN    int
	readErr  error

	writeFn   func(fd uintptr) bool
	writeBuf  []byte
	writeWait bool
	writeErr  error
}

// NewSocket makes the calls of raw's descriptor.
func NewSocket(raw syscall.RawConn) *Socket {
	s := &Socket{raw: raw}
	s.readFn = s.read
	s.writeFn = s.write
	return s
}

// Read reads what the socket holds into p. With wait, a socket that
// holds nothing is waited for in the runtime's poller (within the read
// deadline); without, Read returns EAGAIN at once, for a caller that
// learns of readiness elsewhere. The end of the stream is io.EOF.
func (s *Socket) Read(p []byte, wait bool) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	s.readBuf, s.readWait, s.readN, s.readErr = p, wait, 0, nil
	err := s.raw.Read(s.readFn)
	n, rerr := s.readN, s.readErr
	s.readBuf, s.readErr = nil, nil
	switch {
	case err != nil:
		return 0, err
	case rerr != nil:
		return 0, rerr
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

func (s *Socket) read(fd uintptr) bool {
	for {
		s.readN, s.readErr = Read(int(fd), s.readBuf)
		switch {
		case errors.Is(s.readErr, syscall.EINTR):
			continue
		case errors.Is(s.readErr, syscall.EAGAIN) && s.readWait:
			return false // wait until readable
		}
		return true
	}
}

// WriteAll writes p whole: each part the socket takes at once, waiting
// in the runtime's poller for room (within the write deadline) when it
// takes nothing.
func (s *Socket) WriteAll(p []byte) error {
	s.writeBuf, s.writeWait, s.writeErr = p, true, nil
	err := s.raw.Write(s.writeFn)
	werr := s.writeErr
	s.writeBuf, s.writeErr = nil, nil
	if err != nil {
		return err
	}
	return werr
}

// Offer writes what of p the socket takes now, without waiting for room:
// n is all of p unless the socket filled up first.
func (s *Socket) Offer(p []byte) (int, error) {
	s.writeBuf, s.writeWait, s.writeErr = p, false, nil
	err := s.raw.Write(s.writeFn)
	n, werr := len(p)-len(s.writeBuf), s.writeErr
	s.writeBuf, s.writeErr = nil, nil
	if err != nil {
		return n, err
	}
	return n, werr
}

func (s *Socket) write(fd uintptr) bool {
	for len(s.writeBuf) > 0 {
		n, err := Write(int(fd), s.writeBuf)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EAGAIN):
			return !s.writeWait // wait for room, or leave the rest (Offer)
		case err != nil:
			s.writeErr = err
			return true
		}
		s.writeBuf = s.writeBuf[n:]
	}
	return true
}
