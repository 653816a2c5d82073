package chat

import (
	"encoding/binary"
	"errors"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// The read side of a socket. No goroutine waits on an idle socket: the
// node's readers (poller_linux.go) are told by the kernel when a socket
// has bytes, read what is there without blocking into the session's read
// buffer, and hand every complete frame on. A frame that arrived in part
// stays in the buffer until the rest comes (or the idle timeout closes
// the socket); an idle socket holds no buffer at all.
//
// gorilla/websocket does the handshake; the node frames what it writes
// (batchConn). gorilla cannot read frames from bytes it did not fetch
// itself without blocking for the rest, so the few rules of client frames
// (RFC 6455 §5) are read here:
// masked, no extensions, control frames short and whole, fragments
// continued in order, messages no longer than Config.MaxFrame.

// readBuffers hold the bytes of sockets in the middle of a read.
var readBuffers = sync.Pool{New: func() any { b := make([]byte, 0, readBufferSize); return &b }}

const readBufferSize = 4096

// errProtocol is a frame breaking RFC 6455; the socket closes with 1002.
var errProtocol = errors.New("chat: websocket protocol error")

// errTooBig is a message over Config.MaxFrame; the socket closes with 1009.
var errTooBig = errors.New("chat: message too big")

// errClosed ends the read side of a socket whose close is on its way
// already (dropWith): the client's close frame was answered, or the
// socket's limits closed it.
var errClosed = errors.New("chat: closed by the client")

// wsReader is a socket's read state; only the reader handling the socket
// touches it.
type wsReader struct {
	buf  *[]byte    // bytes received and not yet consumed; nil while none
	frag *fragments // a message whose last fragment is due; nil while none
}

// fragments are the parts of a fragmented message read so far (clients
// rarely fragment, so a socket holds none).
type fragments struct {
	msg []byte
	op  int // the message's opcode
}

// space returns the buffer with room for at least want more bytes.
func (r *wsReader) space(want int) []byte {
	if r.buf == nil {
		r.buf = readBuffers.Get().(*[]byte)
	}
	b := *r.buf
	if cap(b)-len(b) < want {
		nb := make([]byte, len(b), len(b)+want)
		copy(nb, b)
		*r.buf = nb
		b = nb
	}
	return b
}

// release gives an empty buffer back to the pool.
func (r *wsReader) release() {
	if r.buf != nil && len(*r.buf) == 0 {
		if cap(*r.buf) == readBufferSize {
			readBuffers.Put(r.buf)
		}
		r.buf = nil
	}
}

// frames consumes every complete frame in the buffer: data messages go to
// the session actor, control frames are answered. It returns how many
// more bytes the frame in part needs at least (0 when none is in part),
// or the error that ends the socket.
func (s *session) frames() (int, error) {
	r := &s.rd
	if r.buf == nil {
		return 0, nil
	}
	b := *r.buf
	off := 0
	defer func() {
		// Keep only the unconsumed tail, at the front of the buffer.
		n := copy(b, b[off:])
		*r.buf = b[:n]
		r.release()
	}()
	for {
		p := b[off:]
		if len(p) < 2 {
			return 2 - len(p), nil
		}
		fin, op := p[0]&0x80 != 0, int(p[0]&0x0f)
		if p[0]&0x70 != 0 || p[1]&0x80 == 0 { // extension bits, or an unmasked client frame
			return 0, errProtocol
		}
		head, size := 2, int64(p[1]&0x7f)
		switch size {
		case 126:
			head = 4
		case 127:
			head = 10
		}
		if len(p) < head+4 {
			return head + 4 - len(p), nil
		}
		switch size {
		case 126:
			size = int64(binary.BigEndian.Uint16(p[2:]))
		case 127:
			u := binary.BigEndian.Uint64(p[2:])
			if u>>63 != 0 {
				return 0, errProtocol
			}
			size = int64(u)
		}
		control := op >= websocket.CloseMessage
		switch {
		case control && (!fin || size > 125), op > websocket.PongMessage, op > websocket.BinaryMessage && !control:
			return 0, errProtocol
		case op == 0 && r.frag == nil, op != 0 && !control && r.frag != nil:
			return 0, errProtocol // a continuation of nothing, or a new message inside one
		}
		if !control {
			var sofar int64
			if r.frag != nil {
				sofar = int64(len(r.frag.msg))
			}
			if err := s.admitSize(sofar + size); err != nil {
				return 0, err
			}
		}
		total := head + 4 + int(size)
		if len(p) < total {
			return total - len(p), nil
		}
		mask := p[head : head+4]
		payload := p[head+4 : total]
		for i := range payload {
			payload[i] ^= mask[i&3]
		}
		off += total
		s.lastRead.Store(time.Now().UnixNano())
		switch {
		case op == websocket.PingMessage:
			s.queuePong(payload)
		case op == websocket.PongMessage:
		case op == websocket.CloseMessage:
			// Answer with the client's code, as gorilla's reader does
			// (no code: an empty close frame).
			code := websocket.CloseNoStatusReceived
			if len(payload) >= 2 {
				code = int(binary.BigEndian.Uint16(payload))
			}
			s.dropWith(code, "")
			return 0, errClosed
		case fin && r.frag == nil:
			// A framePool buffer: the session actor gives it back once it
			// decoded the request (whose strings are copies).
			buf := getFrame()
			*buf = append((*buf)[:0], payload...)
			if err := s.received(*buf, buf); err != nil {
				return 0, err
			}
		default:
			if r.frag == nil {
				r.frag = &fragments{op: op}
			}
			r.frag.msg = append(r.frag.msg, payload...)
			if fin {
				msg := r.frag.msg
				r.frag = nil
				if err := s.received(msg, nil); err != nil {
					return 0, err
				}
			}
		}
	}
}

// received hands a complete data message to the session actor, within the
// socket's limits (admit, session_limits.go); errClosed when the limits
// closed the socket.
func (s *session) received(msg []byte, buf *[]byte) error {
	framesIn.Inc()
	if !s.admit(msg, buf) {
		return errClosed
	}
	return nil
}

// readFailed ends a socket whose read side failed: a protocol error or
// an oversized message is told to the client first (1002, 1009), by the
// socket's writer (dropWith); the reader reads it no more.
func (s *session) readFailed(err error) {
	switch {
	case errors.Is(err, errTooBig):
		s.dropWith(websocket.CloseMessageTooBig, "")
	case errors.Is(err, errProtocol):
		s.dropWith(websocket.CloseProtocolError, "")
	case errors.Is(err, errClosed):
		// Its close is on its way.
	default:
		s.teardown()
	}
}

// readBlocking is the read side where readiness is not available (not
// Linux, or a connection without a descriptor): a goroutine per socket
// reading into the same buffer and frame reader.
func (s *session) readBlocking() {
	need := 0
	for {
		b := s.rd.space(max(need, 512))
		n, err := s.out.Conn.Read(b[len(b):cap(b)])
		if n > 0 {
			*s.rd.buf = b[:len(b)+n]
			var ferr error
			if need, ferr = s.frames(); ferr != nil {
				s.readFailed(ferr)
				return
			}
		}
		if err != nil {
			s.teardown()
			return
		}
	}
}
