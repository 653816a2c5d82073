package chat

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"kj/internal/testenv"
	"kj/storage/storagetest"
)

// clientFrame is one masked client frame (RFC 6455 §5.2).
func clientFrame(fin bool, op int, payload []byte) []byte {
	b0 := byte(op)
	if fin {
		b0 |= 0x80
	}
	out := []byte{b0}
	switch n := len(payload); {
	case n < 126:
		out = append(out, 0x80|byte(n))
	case n <= 0xffff:
		out = append(out, 0x80|126, byte(n>>8), byte(n))
	default:
		out = append(out, 0x80|127)
		out = binary.BigEndian.AppendUint64(out, uint64(n))
	}
	mask := []byte{0x1f, 0x9a, 0x33, 0xc4}
	out = append(out, mask...)
	for i, c := range payload {
		out = append(out, c^mask[i&3])
	}
	return out
}

func totalRequest(t *testing.T, c *client, op string, args ...string) []byte {
	data, _ := json.Marshal(append([]string{}, args...))
	b, err := json.Marshal(Request{ReqFuncName: "GetTotalUnreadMsgCount", OperationID: op, UserID: c.u.id, Data: string(data)})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReadSideTakesFramesInPiecesFragmentsAndBatches writes raw frames to
// the gateway the ways a network delivers them: one frame in pieces
// (separate writes, so separate reads on the server), a message in
// fragments with a ping between them, two frames in one write. Every
// request is answered once; an unmasked frame closes the socket with 1002.
func TestReadSideTakesFramesInPiecesFragmentsAndBatches(t *testing.T) {
	h := newHarness(t, storagetest.SQLite(t))
	c := h.connect(h.user("alice"))
	raw := c.conn.UnderlyingConn()
	write := func(b []byte) {
		t.Helper()
		if _, err := raw.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	// One frame in three pieces; the pauses make the server read each
	// piece on its own.
	f := clientFrame(true, websocket.TextMessage, totalRequest(t, c, "pieces"))
	write(f[:1])
	time.Sleep(20 * time.Millisecond)
	write(f[1:9])
	time.Sleep(20 * time.Millisecond)
	write(f[9:])
	if r := c.waitReply("pieces"); r.ErrCode != 0 || r.Data != "0" {
		t.Fatalf("reply to a frame in pieces: %+v", r)
	}
	// A message in three fragments, a ping between the first two.
	msg := totalRequest(t, c, "fragments")
	write(clientFrame(false, websocket.TextMessage, msg[:5]))
	write(clientFrame(true, websocket.PingMessage, []byte("hb")))
	time.Sleep(20 * time.Millisecond)
	write(clientFrame(false, 0, msg[5:20]))
	write(clientFrame(true, 0, msg[20:]))
	if r := c.waitReply("fragments"); r.ErrCode != 0 || r.Data != "0" {
		t.Fatalf("reply to a fragmented message: %+v", r)
	}
	// Two frames in one write, the second a long one (16-bit length).
	long := totalRequest(t, c, "second", strings.Repeat("x", 300))
	write(append(clientFrame(true, websocket.TextMessage, totalRequest(t, c, "first")), clientFrame(true, websocket.TextMessage, long)...))
	for _, op := range []string{"first", "second"} {
		if r := c.waitReply(op); r.ErrCode != 0 {
			t.Fatalf("reply %s of two frames in one write: %+v", op, r)
		}
	}
	// A frame longer than the read buffer, in one write: the reads that
	// fill the buffer go on reading, the short one that ends it waits for
	// the socket to be ready again, and the next frame is read.
	big := totalRequest(t, c, "big", strings.Repeat("y", 3*readBufferSize))
	write(clientFrame(true, websocket.TextMessage, big))
	if r := c.waitReply("big"); r.ErrCode != 0 {
		t.Fatalf("reply to a frame longer than the read buffer: %+v", r)
	}
	write(clientFrame(true, websocket.TextMessage, totalRequest(t, c, "after")))
	if r := c.waitReply("after"); r.ErrCode != 0 {
		t.Fatalf("reply to a frame after a short read: %+v", r)
	}
	// An unmasked frame breaks the protocol.
	bad := clientFrame(true, websocket.TextMessage, totalRequest(t, c, "bad"))
	bad[1] &^= 0x80
	write(append(bad[:2:2], bad[6:]...))
	if err := c.waitClosed(); closeCode(err) != websocket.CloseProtocolError {
		t.Fatalf("unmasked frame: %v", err)
	}
}

// TestReadSideReadsABurstLongerThanOneTurn writes more frames in one write
// than a reader takes in one turn (16 reads of its buffer). The bytes left
// after the turn are reported again once the socket is re-armed, and every
// request is answered without another byte arriving.
func TestReadSideReadsABurstLongerThanOneTurn(t *testing.T) {
	h := newHarness(t, storagetest.SQLite(t), func(c *Config) {
		c.RequestRate, c.RequestBurst, c.InboundQueue = 1000, 1000, 1000
	})
	c := h.connect(h.user("alice"))
	const frames = 200
	var burst []byte
	for i := range frames {
		burst = append(burst, clientFrame(true, websocket.TextMessage, totalRequest(t, c, fmt.Sprintf("burst-%d", i), strings.Repeat("x", 400)))...)
	}
	if len(burst) < 16*readBufferSize*3/2 {
		t.Fatalf("the burst is %d bytes, not past one turn's reads", len(burst))
	}
	if _, err := c.conn.UnderlyingConn().Write(burst); err != nil {
		t.Fatal(err)
	}
	for i := range frames {
		if r := c.waitReply(fmt.Sprintf("burst-%d", i)); r.ErrCode != 0 {
			t.Fatalf("reply %d of the burst: %+v", i, r)
		}
	}
}

// TestPingsFromAClientThatDoesNotReadHoldNoReader floods the node with
// pings from more clients than it has readers, none of which reads: their
// pongs fill the sockets. The read side never writes (a pong, like a
// close, goes through the socket's writer), so no reader waits on those
// sockets and another client's requests are still read and answered,
// well before the write timeout that would free a waiting reader.
func TestPingsFromAClientThatDoesNotReadHoldNoReader(t *testing.T) {
	h := newHarness(t, storagetest.SQLite(t), func(c *Config) { c.WriteTimeout = time.Minute })
	c := h.connect(h.user("alice"))
	floods := max(2, runtime.GOMAXPROCS(0)) + 1 // more than the node's readers
	ping := clientFrame(true, websocket.PingMessage, bytes.Repeat([]byte{'p'}, 125))
	burst := bytes.Repeat(ping, 512)
	const enough = 32 << 20 // past what loopback buffers hold of the pongs (~10 MB)
	var settled atomic.Int64
	var wg sync.WaitGroup
	for i := range floods {
		u := h.user(fmt.Sprintf("flood%d", i))
		conn, _, err := websocket.DefaultDialer.Dial(h.wsURL(u, u.tok.ChatToken), nil)
		if err != nil {
			t.Fatal(err)
		}
		raw := conn.UnderlyingConn()
		// Open, unread, until the test ends: a closed one would free a
		// writer waiting on it.
		t.Cleanup(func() { raw.Close() })
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer settled.Add(1)
			// Until enough is written, or nothing is taken for 2 s: the
			// node stopped reading it (a reader waits on its pongs), or
			// TCP holds it (both directions full, the window probes backing
			// off); the node's reader is free then.
			for sent := 0; sent < enough; {
				_ = raw.SetWriteDeadline(time.Now().Add(2 * time.Second))
				n, err := raw.Write(burst)
				sent += n
				var ne net.Error
				switch {
				case err == nil:
				case errors.As(err, &ne) && ne.Timeout():
					if n == 0 {
						return
					}
				default:
					t.Errorf("flood write: %v", err)
					return
				}
			}
		}()
	}
	t.Cleanup(wg.Wait)
	testenv.Eventually(t, 60*time.Second, func() bool { return settled.Load() == int64(floods) },
		"the ping floods neither got through nor stopped")
	reply := make(chan Reply, 1)
	go func() { reply <- c.call("GetTotalUnreadMsgCount") }()
	select {
	case r := <-reply:
		if r.ErrCode != 0 {
			t.Fatalf("a request beside the floods: %+v", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a request beside the ping floods was not answered: the readers wait on the floods' sockets")
	}
}
