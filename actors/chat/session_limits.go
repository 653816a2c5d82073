package chat

// What one client may put on the gateway, checked on the read goroutine
// before a frame is decoded or queued: the request rate (frames over it are
// dropped there and answered without their body), the frames and bytes
// waiting for the session actor, and the open sockets of one user per
// platform. A client that will not slow down is closed with a reason it
// can show.

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"kj/internal/apierr"
)

// Close codes of the limits (4000-4999 are for applications).
const (
	closeTooFast        = 4029 // kept sending over the rate, or the session's queue is full
	closeTooManySockets = 4030 // the user has KJ_CHAT_MAX_SOCKETS_PER_USER open on this platform
)

// inflow counts what the read goroutine handed to the session actor and the
// actor has not yet taken, and the frames refused in a row for the rate.
type inflow struct {
	frames  atomic.Int64
	bytes   atomic.Int64
	refused int // read goroutine only
}

// admit decides what happens to a frame just read, before anything decodes
// it; false means the socket is being closed and reading stops.
//   - Over the request rate: the actor answers "too many requests"; a frame
//     bigger than limitedEcho is dropped here, undecoded (decoding it is
//     what a flood must not cost). More than twice the burst refused in a
//     row closes the socket.
//   - More than InboundQueue frames or InboundBytes bytes waiting for the
//     actor closes the socket: its memory stays bounded however fast the
//     client writes.
func (s *session) admit(frame []byte, buf *[]byte) bool {
	if !s.allow() {
		rateLimited.Inc()
		s.in.refused++
		if float64(s.in.refused) > 2*s.e.cfg.RequestBurst {
			s.tooFast()
			return false
		}
		if len(frame) > limitedEcho {
			if buf != nil {
				putFrame(buf)
			}
			in := newInbound()
			*in = inbound{s: s, limited: true}
			s.e.root.Send(s.pid, in)
			return true
		}
		in := newInbound()
		*in = inbound{s: s, frame: frame, buf: buf, size: int64(len(frame)), limited: true}
		return s.toActor(in)
	}
	s.in.refused = 0
	in := newInbound()
	*in = inbound{s: s, frame: frame, buf: buf, size: int64(len(frame))}
	return s.toActor(in)
}

// inbounds holds the frames' envelopes: the session actor gives each back
// once its request is answered or handed on (a request keeps copies of
// what it needs), ~190 bytes of garbage a request otherwise.
var inbounds = sync.Pool{New: func() any { return new(inbound) }}

func newInbound() *inbound { return inbounds.Get().(*inbound) }

// free gives in back; nothing may hold it after.
func (in *inbound) free() {
	*in = inbound{}
	inbounds.Put(in)
}

// limitedEcho is the largest frame over the rate whose request is still
// decoded, so the answer names its call and operationID and the SDK's
// promise settles; bigger ones are answered without them.
const limitedEcho = 1 << 10

// toActor hands a frame to the session actor within the inflow's bounds.
func (s *session) toActor(in *inbound) bool {
	if s.in.frames.Add(1) > int64(s.e.cfg.InboundQueue) || s.in.bytes.Add(in.size) > s.e.cfg.InboundBytes {
		s.tooFast()
		return false
	}
	in.counted = true
	s.e.root.Send(s.pid, in)
	return true
}

// taken is called by the session actor once it decoded a frame and let go
// of its bytes.
func (s *session) taken(in *inbound) {
	if in.counted {
		s.in.frames.Add(-1)
		s.in.bytes.Add(-in.size)
	}
}

// tooFast closes a socket that will not slow down, with a translated reason.
func (s *session) tooFast() {
	floodClosed.Inc()
	s.e.log.Warn("chat socket closed: client too fast", "user", s.userID, "platform", s.platform)
	s.dropWith(closeTooFast, closeReason(s.translate(apierr.ChatError(apierr.CodeChatTooFast))))
}

// socketCaps counts the open sockets of each user per platform on this node.
type socketCaps struct {
	mu   sync.Mutex
	open map[socketOwner]int
}

type socketOwner struct {
	user     int64
	platform int
}

// reserveSocket takes a place for a new socket of user on platform; false
// when the user already has MaxSocketsPerUser there. A socket over the cap
// is refused rather than an old one closed: evicting would let two devices
// of one user close each other in turn.
func (e *Engine) reserveSocket(user int64, platform int) bool {
	c := &e.gateway.caps
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.open == nil {
		c.open = map[socketOwner]int{}
	}
	k := socketOwner{user, platform}
	if c.open[k] >= e.cfg.MaxSocketsPerUser {
		return false
	}
	c.open[k]++
	return true
}

// releaseSocket gives back the place of a socket that ended.
func (e *Engine) releaseSocket(user int64, platform int) {
	c := &e.gateway.caps
	c.mu.Lock()
	defer c.mu.Unlock()
	k := socketOwner{user, platform}
	if c.open[k] <= 1 {
		delete(c.open, k)
		return
	}
	c.open[k]--
}

// refuseTooMany answers an upgraded socket over the per-user cap with a
// close reason and closes it.
func (e *Engine) refuseTooMany(conn *websocket.Conn, lang string) {
	msg := apierr.Translate(lang, apierr.ChatError(apierr.CodeChatTooManySockets).Key, nil)
	_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(closeTooManySockets, closeReason(msg)),
		time.Now().Add(e.cfg.WriteTimeout))
	conn.Close()
	socketsOverCap.Inc()
}

var (
	rateLimited    = counter("kj_chat_rate_limited_frames_total", "Frames over a socket's request rate, dropped before decoding.")
	floodClosed    = counter("kj_chat_too_fast_disconnects_total", "Sockets closed because their client kept sending over the rate or filled the session's queue.")
	socketsOverCap = counter("kj_chat_sockets_over_cap_total", "Sockets refused because the user had KJ_CHAT_MAX_SOCKETS_PER_USER open on the platform.")
)
