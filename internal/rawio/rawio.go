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
	"syscall"
)

// Conn is a net.Conn whose Read and Write are raw calls on its
// descriptor; deadlines, closing and addresses are the connection's own.
type Conn struct {
	net.Conn
	raw syscall.RawConn
}

// Wrap gives c raw reads and writes when it has a descriptor on this
// system; otherwise it returns c as it is.
func Wrap(c net.Conn) net.Conn {
	if raw := Of(c); raw != nil {
		return &Conn{Conn: c, raw: raw}
	}
	return c
}

// Of is c's descriptor access, for WriteAll, or nil where the calls here
// do not apply (not Linux, a TLS connection, a test's pipe).
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
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var rerr error
	err := c.raw.Read(func(fd uintptr) bool {
		for {
			n, rerr = Read(int(fd), p)
			switch {
			case errors.Is(rerr, syscall.EINTR):
				continue
			case errors.Is(rerr, syscall.EAGAIN):
				return false // wait until readable
			}
			return true
		}
	})
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

// Write writes p whole (WriteAll).
func (c *Conn) Write(p []byte) (int, error) {
	if err := WriteAll(c.raw, p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// WriteAll writes p through raw: each part the socket takes at once,
// waiting in the runtime's poller for room (within the write deadline)
// when it takes nothing.
func WriteAll(raw syscall.RawConn, p []byte) error {
	var werr error
	err := raw.Write(func(fd uintptr) bool {
		for len(p) > 0 {
			n, err := Write(int(fd), p)
			switch {
			case errors.Is(err, syscall.EINTR):
				continue
			case errors.Is(err, syscall.EAGAIN):
				return false // wait for room
			case err != nil:
				werr = err
				return true
			}
			p = p[n:]
		}
		return true
	})
	if err != nil {
		return err
	}
	return werr
}
