package rawio

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// pair is a connected TCP pair on loopback: the client end wrapped.
func pair(t *testing.T) (wrapped, peer net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			accepted <- nil
			return
		}
		accepted <- c
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	peer = <-accepted
	if peer == nil {
		t.Fatal("accept failed")
	}
	wrapped = Wrap(c)
	t.Cleanup(func() { wrapped.Close(); peer.Close() })
	return wrapped, peer
}

func TestWrapGivesRawCallsWhereThereIsADescriptor(t *testing.T) {
	c, _ := pair(t)
	_, isRaw := c.(*Conn)
	if want := runtime.GOOS == "linux"; isRaw != want {
		t.Fatalf("Wrap of a TCP connection on %s: raw %v, want %v", runtime.GOOS, isRaw, want)
	}
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if _, ok := Wrap(a).(*Conn); ok {
		t.Fatal("a pipe has no descriptor, yet Wrap made it raw")
	}
	if Of(a) != nil {
		t.Fatal("Of found a descriptor in a pipe")
	}
}

// A write bigger than the socket's buffers waits for room and arrives
// whole and in order; the reader waits for bytes and sees the end.
func TestWriteWaitsForRoomAndReadWaitsForBytes(t *testing.T) {
	c, peer := pair(t)
	want := make([]byte, 8<<20) // far over loopback's socket buffers
	for i := range want {
		want[i] = byte(i * 7)
	}
	got := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(peer)
		got <- b
	}()
	if n, err := c.Write(want); err != nil || n != len(want) {
		t.Fatalf("write: %d, %v", n, err)
	}
	c.Close()
	if b := <-got; !bytes.Equal(b, want) {
		t.Fatalf("the peer read %d bytes, not the %d written in order", len(b), len(want))
	}

	// Reading: nothing yet, then bytes, then the end.
	c, peer = pair(t)
	read := make(chan []byte, 1)
	go func() {
		b, err := io.ReadAll(c)
		if err != nil {
			t.Errorf("read: %v", err)
		}
		read <- b
	}()
	if _, err := peer.Write([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	peer.Close()
	if b := <-read; string(b) != "hello" {
		t.Fatalf("read %q, want hello then the end", b)
	}
}

// A read that waits past its deadline fails as net.Conn's reads do: a
// timeout, os.ErrDeadlineExceeded.
func TestReadKeepsTheDeadline(t *testing.T) {
	c, _ := pair(t)
	if err := c.SetReadDeadline(time.Now().Add(20 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	_, err := c.Read(make([]byte, 16))
	var ne net.Error
	if !errors.Is(err, os.ErrDeadlineExceeded) || !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("read past its deadline: %v, want a timeout", err)
	}
}

// A write to a peer that reads nothing times out at the write deadline
// instead of waiting for ever.
func TestWriteKeepsTheDeadline(t *testing.T) {
	c, _ := pair(t)
	if err := c.SetWriteDeadline(time.Now().Add(50 * time.Millisecond)); err != nil {
		t.Fatal(err)
	}
	_, err := c.Write(make([]byte, 64<<20))
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a write nobody reads, past its deadline: %v, want a timeout", err)
	}
}

// A write to a closed peer fails rather than reporting bytes written.
func TestWriteToAClosedPeerFails(t *testing.T) {
	c, peer := pair(t)
	peer.Close()
	var err error
	for deadline := time.Now().Add(5 * time.Second); err == nil && time.Now().Before(deadline); {
		_, err = c.Write(make([]byte, 1<<16))
	}
	if err == nil {
		t.Fatal("writes to a closed peer kept succeeding")
	}
}

// A read that may not wait says EAGAIN on an empty socket; reads and
// writes move the bytes both ways and allocate nothing.
func TestSocketReadsWithoutWaitingAndWithoutGarbage(t *testing.T) {
	if !supported {
		t.Skip("raw calls are Linux only; Of returns nil elsewhere")
	}
	c, peer := pair(t)
	s := c.(*Conn).sock
	buf := make([]byte, 64)
	if n, err := s.Read(buf, false); !errors.Is(err, syscall.EAGAIN) || n != 0 {
		t.Fatalf("a read of an empty socket that may not wait: %d, %v; want EAGAIN", n, err)
	}
	msg := []byte("ping")
	if allocs := testing.AllocsPerRun(100, func() {
		if err := s.WriteAll(msg); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Fatalf("a write allocated %v times", allocs)
	}
	echoed := make([]byte, 4*101) // AllocsPerRun runs once more to warm up
	if _, err := io.ReadFull(peer, echoed); err != nil {
		t.Fatal(err)
	}
	if _, err := peer.Write(echoed); err != nil {
		t.Fatal(err)
	}
	// All 404 bytes are in the socket: each 4-byte read takes one ping.
	got := make([]byte, 0, len(echoed))
	if allocs := testing.AllocsPerRun(100, func() {
		n, err := s.Read(buf[:4], true)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, buf[:n]...)
	}); allocs != 0 {
		t.Fatalf("a read allocated %v times", allocs)
	}
	if !bytes.Equal(got, bytes.Repeat(msg, 101)) {
		t.Fatalf("read back %q", got)
	}
}
