package chat

import (
	"bufio"
	"encoding/binary"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"kj/internal/rawio"
)

// batchConn lets a socket's writer send every frame waiting in its queue
// with one write to the kernel instead of one per frame. A delivery makes
// three frames for each recipient (the message, the conversation change,
// the unread total), and on a busy node the write syscalls were most of
// the gateway's CPU (W3 profile: 47 % in syscalls, 57 % under writeLoop).
//
// Between Batch and Flush, writes (text and control frames) are
// appended to a buffer taken from a pool; Flush writes it at once and gives
// the buffer back, so an idle socket holds no buffer. Outside a batch,
// writes go straight through.
type batchConn struct {
	net.Conn
	mu        sync.Mutex
	batching  bool
	closeSent bool // a close frame went out: no text frame may follow it
	buf       *[]byte
	deadline  int64         // the write deadline last set on Conn, unix ns (0: none)
	wait      time.Time     // with sock: the deadline of a write that waits for room
	sock      *rawio.Socket // Conn's descriptor, written with raw calls; nil: Conn.Write
}

// SetWriteDeadline bounds the writes that follow. A deadline is set before
// every batch and control frame, and each one set on the connection arms a
// runtime timer, which the whole process's timer heaps pay for: with a
// timer per socket, walking them was ~3.5 % of the server at 2,000 msg/s
// in W2 (10,000 sockets). So where the connection is written with raw
// calls, t is only noted: it reaches the connection for a write that
// must wait for room, and is taken off after it (send). Elsewhere t is
// set unless the deadline already set is no more than a tenth of the time
// left before t earlier than it: a write then times out after 90 to 100 %
// of what was asked, and a busy socket re-arms about once per tenth of its
// write timeout. A deadline earlier than the one set, or none, is always
// set.
func (b *batchConn) SetWriteDeadline(t time.Time) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sock != nil {
		b.wait = t
		return nil
	}
	at := int64(0)
	if !t.IsZero() {
		at = t.UnixNano()
		if set := b.deadline; set != 0 && at >= set && at-set <= (at-time.Now().UnixNano())/10 {
			return nil
		}
	}
	b.deadline = at
	return b.Conn.SetWriteDeadline(t)
}

var batchBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// batchFlushAt bounds what one batch buffers before it writes anyway.
const batchFlushAt = 64 << 10

func (b *batchConn) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	// What reaches Write is the upgrade's HTTP response, then, on a socket
	// refused after its handshake (refuse), gorilla's frames, each whole:
	// note the close (a final frame of opcode 8), as gorilla would. A
	// session's frames come through WriteText and WriteControl.
	if len(p) > 0 && p[0] == 0x80|websocket.CloseMessage {
		b.closeSent = true
	}
	if err := b.writeLocked(p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// writeLocked writes p at once outside a batch, or adds it to the batch's
// buffer (written early past batchFlushAt). The caller holds b.mu.
func (b *batchConn) writeLocked(p []byte) error {
	if !b.batching {
		return b.send(p)
	}
	if b.buf == nil {
		b.buf = batchBuffers.Get().(*[]byte)
	}
	*b.buf = append(*b.buf, p...)
	if len(*b.buf) >= batchFlushAt {
		return b.flushLocked()
	}
	return nil
}

// WriteText writes a text frame carrying payload: buffered with the rest
// of a batch, or at once outside one. A server's frames are not masked
// (RFC 6455 section 5.1), so a frame is its header and the payload as it
// is, which the writer builds here instead of through gorilla's
// WriteMessage: per frame that took gorilla's write lock, set the
// connection's deadline and copied the payload through its own buffer, 13 %
// of the gateway's CPU at 20,000 deliveries/s (W3 profile), for three frames
// a delivery. Control frames (WriteControl) go whole under the same lock,
// so frames never interleave. The caller sets the write deadline
// (SetWriteDeadline) before the batch.
func (b *batchConn) WriteText(payload []byte) error {
	var head [10]byte
	h := textFrameHeader(head[:], len(payload))
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closeSent {
		// A frame after the close is a protocol error (RFC 6455 section
		// 5.5.1); gorilla's WriteMessage refused it the same way.
		return websocket.ErrCloseSent
	}
	if b.buf == nil {
		b.buf = batchBuffers.Get().(*[]byte)
	}
	*b.buf = append(append(*b.buf, h...), payload...)
	if !b.batching || len(*b.buf) >= batchFlushAt {
		return b.flushLocked()
	}
	return nil
}

// errControlTooLong is a control frame payload over the 125 bytes RFC 6455
// section 5.5 allows.
var errControlTooLong = errors.New("chat: control frame payload over 125 bytes")

// emptyPing is the ping the heartbeat sends: a server's frames are not
// masked, so it is always these two bytes, written without building it.
var emptyPing = []byte{0x80 | websocket.PingMessage, 0}

// WriteControl writes a control frame (a ping, a pong, a close) carrying
// payload, buffered with the rest of a batch or at once outside one, after
// setting the write deadline. It is what gorilla's WriteControl did, which
// a session no longer keeps a gorilla Conn for: once the handshake is done
// the node reads (wsread.go) and writes every frame itself, and the Conn,
// with its read buffer, was ~600 of the bytes an idle socket held (W1 heap
// profile). A ping costs no allocation (gorilla's made a frame buffer and a
// timer per call). After a close frame, nothing more is written.
func (b *batchConn) WriteControl(op int, payload []byte, deadline time.Time) error {
	if len(payload) > 125 {
		return errControlTooLong
	}
	frame := emptyPing
	if op != websocket.PingMessage || len(payload) > 0 {
		frame = append(make([]byte, 0, 2+len(payload)), byte(0x80|op), byte(len(payload)))
		frame = append(frame, payload...)
	}
	_ = b.SetWriteDeadline(deadline)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closeSent {
		return websocket.ErrCloseSent
	}
	if op == websocket.CloseMessage {
		b.closeSent = true
	}
	return b.writeLocked(frame)
}

// textFrameHeader puts the header of an unmasked, final text frame of n
// bytes in head and returns it: the payload length in 7 bits, or 126 and 16
// bits, or 127 and 64 bits (RFC 6455 section 5.2).
func textFrameHeader(head []byte, n int) []byte {
	const finText = 0x80 | 0x1
	head[0] = finText
	switch {
	case n < 126:
		head[1] = byte(n)
		return head[:2]
	case n <= 0xFFFF:
		head[1] = 126
		binary.BigEndian.PutUint16(head[2:], uint16(n))
		return head[:4]
	default:
		head[1] = 127
		binary.BigEndian.PutUint64(head[2:], uint64(n))
		return head[:10]
	}
}

// Batch starts buffering writes.
func (b *batchConn) Batch() {
	b.mu.Lock()
	b.batching = true
	b.mu.Unlock()
}

// Flush ends the batch, writing what it buffered in one call.
func (b *batchConn) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.batching = false
	return b.flushLocked()
}

func (b *batchConn) flushLocked() error {
	if b.buf == nil {
		return nil
	}
	err := b.send(*b.buf)
	*b.buf = (*b.buf)[:0]
	if cap(*b.buf) <= batchFlushAt*2 {
		batchBuffers.Put(b.buf)
	}
	b.buf = nil
	return err
}

// send writes p whole: with raw calls where the connection has a
// descriptor, else through its Write. A raw write the socket takes at once
// needs no deadline; when the socket is full, the rest waits for room
// within the deadline noted (SetWriteDeadline), set on the connection for
// that wait alone. b.mu is held.
func (b *batchConn) send(p []byte) error {
	if b.sock == nil {
		_, err := b.Conn.Write(p)
		return err
	}
	n, err := b.sock.Offer(p)
	if err != nil || n == len(p) {
		return err
	}
	if err := b.Conn.SetWriteDeadline(b.wait); err != nil {
		return err
	}
	err = b.sock.WriteAll(p[n:])
	// Off again: a deadline left to pass would fail the next write at
	// once, however much room the socket had.
	if cerr := b.Conn.SetWriteDeadline(time.Time{}); err == nil {
		err = cerr
	}
	return err
}

// batchingWriter hands the websocket upgrader a batchConn around the
// hijacked connection.
type batchingWriter struct {
	http.ResponseWriter
	conn *batchConn
}

func (w *batchingWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h, ok := w.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, errors.New("chat: response cannot be hijacked")
	}
	c, rw, err := h.Hijack()
	if err != nil {
		return nil, nil, err
	}
	w.conn = &batchConn{Conn: c}
	if raw := rawio.Of(c); raw != nil {
		// The upgrader clears the deadlines the server left on c
		// (batchConn passes SetDeadline through) before its first write;
		// from then on send sets one only to wait.
		w.conn.sock = rawio.NewSocket(raw)
	}
	return w.conn, rw, nil
}
