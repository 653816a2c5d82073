package chat

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"kj/internal/rawio"
)

// countingConn records each write that reaches the "kernel"; with a
// Conn under it, the write goes on to that connection.
type countingConn struct {
	net.Conn
	mu        sync.Mutex
	writes    [][]byte
	deadlines []time.Time
	err       error
}

// SetWriteDeadline records the deadlines that reach the connection.
func (c *countingConn) SetWriteDeadline(t time.Time) error {
	c.mu.Lock()
	c.deadlines = append(c.deadlines, t)
	c.mu.Unlock()
	if c.Conn != nil {
		return c.Conn.SetWriteDeadline(t)
	}
	return nil
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return 0, c.err
	}
	c.writes = append(c.writes, append([]byte(nil), p...))
	c.mu.Unlock()
	if c.Conn != nil {
		return c.Conn.Write(p)
	}
	return len(p), nil
}

func TestBatchConnWritesABatchAtOnce(t *testing.T) {
	under := &countingConn{}
	b := &batchConn{Conn: under}
	// Outside a batch every write goes straight through.
	b.Write([]byte("a"))
	b.Write([]byte("b"))
	if len(under.writes) != 2 {
		t.Fatalf("unbatched: %d writes", len(under.writes))
	}
	b.Batch()
	for _, p := range []string{"one", "two", "three"} {
		if n, err := b.Write([]byte(p)); err != nil || n != len(p) {
			t.Fatalf("%d %v", n, err)
		}
	}
	if len(under.writes) != 2 {
		t.Fatal("a batch must not write before Flush")
	}
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	if len(under.writes) != 3 || string(under.writes[2]) != "onetwothree" {
		t.Fatalf("flushed %q", under.writes)
	}
	if b.buf != nil {
		t.Fatal("an idle socket must not hold a buffer")
	}
	if err := b.Flush(); err != nil || len(under.writes) != 3 {
		t.Fatal("an empty flush writes nothing")
	}
}

func TestBatchConnBoundsItsBuffer(t *testing.T) {
	under := &countingConn{}
	b := &batchConn{Conn: under}
	b.Batch()
	big := bytes.Repeat([]byte("x"), batchFlushAt/2+1)
	b.Write(big)
	b.Write(big) // crosses the bound: written now
	if len(under.writes) != 1 || len(under.writes[0]) != len(big)*2 {
		t.Fatalf("%d writes", len(under.writes))
	}
	b.Write([]byte("tail"))
	b.Flush()
	if len(under.writes) != 2 || string(under.writes[1]) != "tail" {
		t.Fatalf("%d writes", len(under.writes))
	}
}

func TestBatchConnReportsAFailedFlush(t *testing.T) {
	under := &countingConn{err: io.ErrClosedPipe}
	b := &batchConn{Conn: under}
	b.Batch()
	if _, err := b.Write([]byte("frame")); err != nil {
		t.Fatalf("buffered write: %v", err)
	}
	if err := b.Flush(); !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("flush: %v", err)
	}
	if b.batching || b.buf != nil {
		t.Fatal("a failed flush still ends the batch")
	}
}

func TestBatchConnConcurrentWriters(t *testing.T) {
	// Pongs (WriteControl from the reader) may write while the writer batches.
	a, z := net.Pipe()
	defer a.Close()
	b := &batchConn{Conn: a}
	got := make(chan []byte)
	go func() {
		all, _ := io.ReadAll(z)
		got <- all
	}()
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				b.Batch()
				b.Write([]byte{byte('a' + i)})
				if err := b.Flush(); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	a.Close()
	if all := <-got; len(all) != 200 {
		t.Fatalf("%d bytes arrived, want 200", len(all))
	}
}

// A deadline reaches the connection when none is set, when it is earlier
// than the one set, and when it is later by more than a tenth of the time
// left; within that tenth the one set stands (gorilla sets one per frame).
func TestBatchConnSetsFewDeadlines(t *testing.T) {
	under := &countingConn{}
	b := &batchConn{Conn: under}
	now := time.Now()
	steps := []struct {
		at   time.Time
		sets bool
	}{
		{now.Add(10 * time.Second), true},                            // none set yet
		{now.Add(10*time.Second + 500*time.Millisecond), false},      // half a second later: within a tenth of ~10 s
		{now.Add(10*time.Second + 900*time.Millisecond), false},      // still within
		{now.Add(11*time.Second + 200*time.Millisecond), true},       // 1.2 s later: beyond
		{now.Add(5 * time.Second), true},                             // earlier: always
		{time.Time{}, true},                                          // none: always
		{now.Add(300 * time.Millisecond), true},                      // after none: set
		{now.Add(300*time.Millisecond + 20*time.Millisecond), false}, // within a tenth of 300 ms
		{now.Add(300*time.Millisecond + 80*time.Millisecond), true},  // beyond it
	}
	for i, st := range steps {
		before := len(under.deadlines)
		if err := b.SetWriteDeadline(st.at); err != nil {
			t.Fatal(err)
		}
		if set := len(under.deadlines) > before; set != st.sets {
			t.Fatalf("step %d (%v from now): set %v, want %v", i, st.at.Sub(now), set, st.sets)
		}
		if st.sets && !under.deadlines[len(under.deadlines)-1].Equal(st.at) {
			t.Fatalf("step %d: set %v", i, under.deadlines[len(under.deadlines)-1])
		}
	}
}

// Text frames written by WriteText, in a batch and outside one, reach a
// websocket client whole and in order, at every length the header encodes
// differently (7-bit, 16-bit and 64-bit lengths and their edges), with a
// ping written by WriteControl in between.
func TestBatchConnWriteTextFramesReadByAClient(t *testing.T) {
	sizes := []int{0, 1, 125, 126, 127, 65535, 65536, 200000}
	frame := func(n int) []byte { return bytes.Repeat([]byte{byte('a' + n%26)}, n) }
	ws, served := dialBatchConn(t, func(b *batchConn) error {
		b.Batch()
		for _, n := range sizes[:4] {
			if err := b.WriteText(frame(n)); err != nil {
				return err
			}
		}
		if err := b.Flush(); err != nil {
			return err
		}
		if err := b.WriteControl(websocket.PingMessage, []byte("p"), time.Now().Add(time.Second)); err != nil {
			return err
		}
		for _, n := range sizes[4:] { // outside a batch
			if err := b.WriteText(frame(n)); err != nil {
				return err
			}
		}
		return nil
	})
	pinged := false
	ws.SetPingHandler(func(string) error { pinged = true; return nil })
	for _, n := range sizes {
		kind, got, err := ws.ReadMessage()
		if err != nil {
			t.Fatalf("frame of %d bytes: %v", n, err)
		}
		if kind != websocket.TextMessage || !bytes.Equal(got, frame(n)) {
			t.Fatalf("frame of %d bytes arrived as kind %d, %d bytes", n, kind, len(got))
		}
	}
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if !pinged {
		t.Fatal("the ping between the frames was not read")
	}
}

// dialBatchConn serves one websocket whose server side writes through a
// batchConn with write, and returns the client's end and write's result.
func dialBatchConn(t *testing.T, write func(*batchConn) error) (*websocket.Conn, <-chan error) {
	t.Helper()
	served := make(chan error, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		bw := &batchingWriter{ResponseWriter: w}
		if _, err := (&websocket.Upgrader{}).Upgrade(bw, r, nil); err != nil {
			served <- err
			return
		}
		served <- write(bw.conn)
	}))
	t.Cleanup(srv.Close)
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws, served
}

// Once gorilla has written the close frame (a slow consumer dropped while
// its writer is mid-batch), a text frame is refused, as gorilla's own
// WriteMessage refused it, and nothing follows the close on the wire.
func TestBatchConnNoTextFrameAfterClose(t *testing.T) {
	under := &countingConn{}
	b := &batchConn{Conn: under}
	if err := b.WriteText([]byte("before")); err != nil {
		t.Fatal(err)
	}
	b.Batch()
	if _, err := b.Write([]byte{0x80 | websocket.CloseMessage, 0}); err != nil {
		t.Fatal(err)
	}
	if err := b.WriteText([]byte("after")); !errors.Is(err, websocket.ErrCloseSent) {
		t.Fatalf("a text frame after the close: %v", err)
	}
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	if n := len(under.writes); n != 2 || len(under.writes[1]) != 2 {
		t.Fatalf("on the wire: %q", under.writes)
	}
}

// Control frames reach a websocket client as gorilla's own would: a ping
// and a pong read by its handlers with their payloads, buffered in a batch
// and written at once outside one, then a close with its code and reason.
func TestBatchConnControlFramesReadByAClient(t *testing.T) {
	ws, served := dialBatchConn(t, func(b *batchConn) error {
		deadline := time.Now().Add(time.Second)
		b.Batch()
		return errors.Join(
			b.WriteControl(websocket.PingMessage, nil, deadline),
			b.WriteText([]byte("one")),
			b.Flush(),
			b.WriteControl(websocket.PongMessage, []byte("pong"), deadline),
			b.WriteControl(websocket.PingMessage, bytes.Repeat([]byte{'x'}, 125), deadline),
			b.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(4001, "bye"), deadline),
		)
	})
	var pings, pongs []string
	ws.SetPingHandler(func(p string) error { pings = append(pings, p); return nil })
	ws.SetPongHandler(func(p string) error { pongs = append(pongs, p); return nil })
	if _, got, err := ws.ReadMessage(); err != nil || string(got) != "one" {
		t.Fatalf("text frame: %q, %v", got, err)
	}
	_, _, err := ws.ReadMessage()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != 4001 || ce.Text != "bye" {
		t.Fatalf("close: %v", err)
	}
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if len(pings) != 2 || pings[0] != "" || pings[1] != strings.Repeat("x", 125) || len(pongs) != 1 || pongs[0] != "pong" {
		t.Fatalf("pings %q, pongs %q", pings, pongs)
	}
}

// A control payload over 125 bytes is refused and writes nothing; after a
// close frame, no frame of any kind is written.
func TestBatchConnWriteControlRefuses(t *testing.T) {
	under := &countingConn{}
	b := &batchConn{Conn: under}
	deadline := time.Now().Add(time.Second)
	if err := b.WriteControl(websocket.PingMessage, make([]byte, 126), deadline); !errors.Is(err, errControlTooLong) {
		t.Fatalf("a 126-byte ping: %v", err)
	}
	if len(under.writes) != 0 {
		t.Fatalf("on the wire: %q", under.writes)
	}
	if err := b.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(1000, ""), deadline); err != nil {
		t.Fatal(err)
	}
	if err := b.WriteControl(websocket.PingMessage, nil, deadline); !errors.Is(err, websocket.ErrCloseSent) {
		t.Fatalf("a ping after the close: %v", err)
	}
	if err := b.WriteText([]byte("after")); !errors.Is(err, websocket.ErrCloseSent) {
		t.Fatalf("a text frame after the close: %v", err)
	}
	if len(under.writes) != 1 || !bytes.Equal(under.writes[0], []byte{0x88, 2, 0x03, 0xe8}) {
		t.Fatalf("on the wire: %q", under.writes)
	}
}

// The heartbeat's ping allocates nothing: at 18,000 idle sockets (W1) it
// runs ~700 times a second, and its garbage was what grew an idle node's
// heap between collections.
func TestBatchConnPingAllocatesNothing(t *testing.T) {
	b := &batchConn{Conn: discardConn{}}
	deadline := time.Now().Add(time.Minute)
	if n := testing.AllocsPerRun(100, func() {
		if err := b.WriteControl(websocket.PingMessage, nil, deadline); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Fatalf("%v allocations per ping", n)
	}
}

// discardConn takes every write and deadline, keeping nothing.
type discardConn struct{ net.Conn }

func (discardConn) Write(p []byte) (int, error)      { return len(p), nil }
func (discardConn) SetWriteDeadline(time.Time) error { return nil }

// Where the connection is written with raw calls, a write deadline reaches
// it only for a write that waits for room, and is taken off after: a
// write the socket takes at once arms no runtime timer, and a write to a
// client that stopped reading still ends at the deadline.
func TestBatchConnSetsADeadlineOnlyToWait(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	server, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	under := &countingConn{Conn: server}
	b := &batchConn{Conn: under, sock: rawio.NewSocket(rawio.Of(server))}

	if err := b.SetWriteDeadline(time.Now().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := b.WriteText([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 7)
	if _, err := io.ReadFull(client, got); err != nil || string(got[2:]) != "hello" {
		t.Fatalf("read %q, %v", got, err)
	}
	if len(under.deadlines) != 0 {
		t.Fatalf("a write taken at once set deadlines %v", under.deadlines)
	}

	// The client reads nothing more: 64 MiB cannot fit in the sockets'
	// buffers, so the write waits and ends at its deadline.
	deadline := time.Now().Add(200 * time.Millisecond)
	if err := b.SetWriteDeadline(deadline); err != nil {
		t.Fatal(err)
	}
	if err := b.WriteText(make([]byte, 64<<20)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a write to a client that does not read ended with %v, want the deadline", err)
	}
	if len(under.deadlines) != 2 || !under.deadlines[0].Equal(deadline) || !under.deadlines[1].IsZero() {
		t.Fatalf("deadlines set %v, want %v then none", under.deadlines, deadline)
	}
}
