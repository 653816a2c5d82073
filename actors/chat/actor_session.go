package chat

import (
	"context"
	"crypto/sha256"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/gorilla/websocket"

	"kj/auth"
	"kj/internal/apierr"
	"kj/internal/rawio"
	"kj/storage"
)

// Close codes of our own (4000-4999 are for applications).
const (
	closeTokenExpired = 4001
	closeKicked       = 4003
	closeSlowConsumer = 4008
)

// ServeHTTP is the gateway: /ws?sendID=<userID>&token=<chat token>&platformID=5&operationID=<id>.
// A missing sendID or token refuses the upgrade. A bad token is answered
// on the upgraded socket (a failed Login reply, the matching callback and a
// close reason) so the SDK's login promise settles. A good one gets a
// session actor; the handler returns once the read goroutine runs, so an
// idle socket holds no handler stack.
func (e *Engine) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	sendID, token, opID := q.Get("sendID"), q.Get("token"), q.Get("operationID")
	if sendID == "" || token == "" {
		http.Error(w, "sendID and token are required", http.StatusBadRequest)
		return
	}
	if e.gateway.draining.Load() {
		http.Error(w, "server restarting", http.StatusServiceUnavailable)
		return
	}
	platform := platformWeb
	if p := q.Get("platformID"); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 20 {
			http.Error(w, "bad platformID", http.StatusBadRequest)
			return
		}
		platform = n
	}
	lang := apierr.NegotiateLang(r.Header.Get("Accept-Language"))

	sess, authErr := e.auth.ChatSession(r.Context(), token)
	var user storage.User
	if authErr == nil {
		uid, err := parseUserID(sendID)
		if err != nil || uid != sess.UserID {
			authErr = auth.ErrExpired
		} else if user, err = storage.UserByID(r.Context(), e.db, uid); err != nil {
			authErr = err
		}
	}
	if authErr != nil && !errors.Is(authErr, auth.ErrExpired) && !errors.Is(authErr, auth.ErrReplaced) &&
		!errors.Is(authErr, auth.ErrDeviceLimit) && !errors.Is(authErr, auth.ErrNoToken) {
		e.log.Error("chat upgrade: check token", "err", authErr)
		http.Error(w, "system busy", http.StatusServiceUnavailable)
		return
	}
	bw := &batchingWriter{ResponseWriter: w}
	conn, err := e.gateway.upgrader.Upgrade(bw, r, nil)
	if err != nil {
		return // the upgrader answered
	}
	if authErr != nil {
		e.refuse(conn, opID, lang, endedReason(authErr))
		return
	}
	if !e.reserveSocket(user.ID, platform) { // released by teardown (session_limits.go)
		e.refuseTooMany(conn, lang)
		return
	}
	// From here the session frames everything itself (bw.conn); conn,
	// gorilla's, is left for the collector.
	s := &session{
		e: e, id: storage.NewID(), out: bw.conn, userID: user.ID, self: senderOf(user, platform),
		authID: sess.ID, tokenHash: tokenDigest(token),
		// A copy: r.Host points into the request's buffers, which the
		// socket would otherwise keep alive for its whole life.
		platform: int32(platform), lang: langIndex(lang), host: strings.Clone(r.Host), tokens: float32(e.cfg.RequestBurst), last: monoNow(),
	}
	s.fd = -1
	s.lastRead.Store(time.Now().UnixNano())
	s.pid = e.root.Spawn(sessionProps)
	e.live.sockets.with(s.id, func() *session { return s }, func(*session) {})
	connections.Inc()
	socketsOpened.Inc()
	e.gateway.poller.watch(s)
	e.gateway.wheel.add(s)
}

// refuse answers a socket whose token is bad and closes it; reason is
// why its sign-in ended (auth.Reason...).
func (e *Engine) refuse(conn *websocket.Conn, opID, lang, reason string) {
	event, code, closeCode := kickReasonCode(reason)
	msg := apierr.Translate(lang, apierr.ChatError(code).Key, nil)
	deadline := time.Now().Add(e.cfg.WriteTimeout)
	_ = conn.SetWriteDeadline(deadline)
	_ = conn.WriteMessage(websocket.TextMessage, encodeReply("Login", opID, nil, code, msg))
	_ = conn.WriteMessage(websocket.TextMessage, encodeReply(event, "", nil, code, msg))
	_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(closeCode, closeReason(msg)), deadline)
	conn.Close()
	refusedSockets.Inc()
}

// closeReason fits a close reason in the 123 bytes a close frame allows.
func closeReason(msg string) string {
	if len(msg) <= 123 {
		return msg
	}
	b := []byte(msg[:123])
	for len(b) > 0 && b[len(b)-1]&0xC0 == 0x80 {
		b = b[:len(b)-1]
	}
	if len(b) > 0 && b[len(b)-1] >= 0xC0 {
		b = b[:len(b)-1]
	}
	return string(b)
}

// session is one socket. The read goroutine hands raw frames to the
// session actor, which decodes and answers them; everything written goes
// through a bounded queue drained by one of the engine's writers
// (writerPool) while there is something to write.
type session struct {
	e  *Engine
	id int64
	// The connection: every frame after the handshake is read (wsread.go)
	// and written (batchConn) by the node itself, so the session keeps no
	// gorilla Conn, whose struct and read buffer an idle socket would hold.
	out       *batchConn
	pid       *actor.PID
	userID    int64
	self      sender
	authID    int64
	tokenHash [16]byte // tokenDigest of the token it connected with
	host      string

	// The small fields sit together: an idle node holds a session per
	// socket, and padding between them was bytes of every one.
	platform   int32
	loggedIn   atomic.Bool
	torndown   atomic.Bool
	presenceOn atomic.Bool
	// Read side (wsread.go, poller_*.go): the descriptor when the socket
	// is in the epoll set (-1 otherwise), whether a reader has it now.
	fd      int32
	reading atomic.Bool
	// A ping waiting for the writer (wheel.go).
	pingDue atomic.Bool
	lang    uint8   // index in apierr.Langs of the language it negotiated
	tokens  float32 // request rate bucket (the reader only)

	user     *userEntry         // set at Login (actor only)
	watching map[int64]struct{} // users whose presence it watches (guarded by e.cluster.watchers.mu)
	// When the sign-in behind it expires (unix ms, engine clock; 0 before
	// Login): the wheel's next visit after it signs the socket out.
	expiresAt atomic.Int64
	last      int64  // when the bucket was last filled (monoNow)
	in        inflow // frames on their way to the actor (session_limits.go)

	// The descriptor's access, the bytes of a frame in part.
	sock *rawio.Socket
	rd   wsReader
	// Heartbeat (wheel.go): when the last frame arrived (unix ns), when
	// the next ping is due (the wheel only).
	lastRead atomic.Int64
	nextPing int64

	mu      sync.Mutex
	writing bool
	// due: the queue holds a frame to write now (pushed with a wake, or
	// released); frames pushed held wait for their release otherwise.
	due       bool
	closing   bool
	closed    bool
	queue     frameQueue
	closeNote *closeNote // the close frame to send once the queue is written
	pong      *[]byte    // a pong's payload for the writer (the read side's answer to a ping)
}

// closeNote is the close code and reason of a socket being closed (made
// only then: an open socket keeps a nil pointer, not a code and a string).
// A note that drops sends its frame ahead of what is queued, and the
// connection is dropped right after it (dropWith).
type closeNote struct {
	code   int
	reason string
	drop   bool
}

func (s *session) isLoggedIn() bool { return s.loggedIn.Load() }

// inbound is a frame read from the socket; the session actor decodes it.
type inbound struct {
	s       *session
	frame   []byte
	buf     *[]byte // frame's framePool buffer, given back once decoded; nil when not pooled
	size    int64   // len(frame)
	counted bool    // size is in the session's inflow until the actor takes it
	limited bool    // over the socket's request rate (frame nil when dropped)
	req     Request
	args    Args
	err     error
}

// asyncReply is the answer to a request another actor handled, for a
// caller that is not a socket (a future); a socket's is queued on it at
// once (replyTo.send).
type asyncReply struct {
	name, opID string
	data       any
	err        error
}

// outFrame is a frame waiting to be written: shared bytes (a post's frame,
// written to every member), or a buffer of framePool this socket alone
// writes, given back once written.
type outFrame struct {
	b    []byte
	pool *[]byte // b's buffer when it goes back to framePool; nil otherwise
}

// framePool holds the buffers of frames made for one socket (a member's
// conversation and unread total, an acknowledgement) and of the frames
// read from one (until decoded), so a busy socket reuses them instead of
// leaving garbage per frame.
var framePool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// maxPooledFrame bounds the buffers framePool keeps.
const maxPooledFrame = 16 << 10

func getFrame() *[]byte { return framePool.Get().(*[]byte) }

func putFrame(p *[]byte) {
	if cap(*p) <= maxPooledFrame {
		*p = (*p)[:0]
		framePool.Put(p)
	}
}

// push queues a frame; a socket whose queue is full is disconnected as a
// slow consumer (its client resyncs by seq after reconnecting) instead of
// growing memory.
func (s *session) push(frame []byte) { s.pushFrame(outFrame{b: frame}) }

// pushOwned queues a framePool buffer only this socket writes; it goes
// back to the pool once written (or is left to the collector when the
// socket ends first).
func (s *session) pushOwned(p *[]byte) { s.pushFrame(outFrame{b: *p, pool: p}) }

func (s *session) pushFrame(frame outFrame) { s.enqueue(frame, true) }

// pushHeld queues a frame without waking a writer: the user actor's next
// flush, due within the coalescing window, queues the member's
// conversation and unread frames behind it and then releases the socket,
// so the message and what it changed leave in one write instead of two.
// A writer busy with the socket leaves it queued too (writeLoop takes the
// queue only when a frame in it is due): in W2 a pair's two sends often
// meet, and a writer finishing the sender's acknowledgement used to write
// the peer's message alone, then the flush its conversation frame, three
// writes for two.
func (s *session) pushHeld(frame []byte) { s.enqueue(outFrame{b: frame}, false) }

// pushOwnedHeld is pushOwned without waking a writer (pushHeld).
func (s *session) pushOwnedHeld(p *[]byte) { s.enqueue(outFrame{b: *p, pool: p}, false) }

// release hands the socket to a writer if frames wait and none has it.
func (s *session) release() {
	s.mu.Lock()
	if s.closed || s.queue.len() == 0 {
		s.mu.Unlock()
		return
	}
	s.due = true
	s.unlockAndWake()
}

// unlockAndWake releases s.mu, held by the caller, and hands the socket
// to a writer unless one has it already (a running writer sees what was
// just queued or noted before it stops).
func (s *session) unlockAndWake() {
	if s.writing {
		s.mu.Unlock()
		return
	}
	s.writing = true
	s.mu.Unlock()
	s.e.gateway.socketWriters.add(s)
}

func (s *session) enqueue(frame outFrame, wake bool) {
	s.mu.Lock()
	if s.closed || s.closing {
		s.mu.Unlock()
		return
	}
	if s.queue.len() >= s.e.cfg.OutboundQueue {
		s.closed = true
		s.queue.drop()
		s.mu.Unlock()
		slowConsumers.Inc()
		go s.disconnect(closeSlowConsumer, apierr.CodeChatSlowConsumer)
		return
	}
	s.queue.push(frame)
	if !wake {
		s.mu.Unlock()
		return
	}
	s.due = true
	s.unlockAndWake()
}

// frameQueue is a socket's outbound frames: a list from frameLists while
// frames wait, none while the socket is idle. A writer takes the whole
// list (pushes meanwhile start another) and gives it back once written,
// so sockets share a few lists instead of each keeping one between bursts.
type frameQueue struct{ p *[]outFrame }

// frameLists holds the lists of sockets that have none waiting.
var frameLists = sync.Pool{New: func() any { return new([]outFrame) }}

// maxListedFrames bounds the lists frameLists keeps.
const maxListedFrames = 64

func (q *frameQueue) len() int {
	if q.p == nil {
		return 0
	}
	return len(*q.p)
}

func (q *frameQueue) push(f outFrame) {
	if q.p == nil {
		q.p = frameLists.Get().(*[]outFrame)
	}
	*q.p = append(*q.p, f)
}

// take removes the list of waiting frames (nil when none wait).
func (q *frameQueue) take() *[]outFrame {
	p := q.p
	q.p = nil
	return p
}

// drop forgets what waits (the socket is closed).
func (q *frameQueue) drop() { q.p = nil }

// recycleFrames gives a written list back to frameLists.
func recycleFrames(p *[]outFrame) {
	if cap(*p) > maxListedFrames {
		return
	}
	clear(*p)
	*p = (*p)[:0]
	frameLists.Put(p)
}

// writeLoop writes what is queued until the queue is empty (a writer of
// the pool runs it).
func (s *session) writeLoop() {
	for {
		s.mu.Lock()
		if note := s.closeNote; note != nil && note.drop {
			s.closed, s.writing = true, false
			s.queue.drop()
			s.mu.Unlock()
			_ = s.out.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(note.code, note.reason), time.Now().Add(time.Second))
			s.teardown()
			return
		}
		ping := s.pingDue.Swap(false)
		pong := s.pong
		s.pong = nil
		// Held frames alone wait for their release; a socket closing
		// after its queue writes them all.
		var list *[]outFrame
		if s.due || s.closing {
			list, s.due = s.queue.take(), false
		}
		var batch []outFrame
		if list != nil {
			batch = *list
		}
		if len(batch) == 0 && !ping && pong == nil {
			s.writing = false
			closing, note := s.closing && !s.closed, s.closeNote
			if closing {
				s.closed = true
			}
			s.mu.Unlock()
			if closing {
				deadline := time.Now().Add(s.e.cfg.WriteTimeout)
				_ = s.out.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(note.code, note.reason), deadline)
				// The peer answers the close; stop waiting for it soon.
				time.AfterFunc(2*time.Second, s.teardown)
			}
			return
		}
		s.mu.Unlock()
		if ping && !s.ping() {
			return
		}
		if pong != nil {
			if err := s.out.WriteControl(websocket.PongMessage, *pong, time.Now().Add(s.e.cfg.WriteTimeout)); err != nil {
				s.writeFailed()
				return
			}
		}
		if len(batch) == 0 {
			if list != nil {
				recycleFrames(list)
			}
			continue
		}
		// Every frame waiting goes to the kernel in one write (a few past
		// batchFlushAt), a single one too: its header and payload together.
		s.out.Batch()
		// One deadline for the batch: its frames reach the kernel in one
		// write (or a few, past batchFlushAt).
		_ = s.out.SetWriteDeadline(time.Now().Add(s.e.cfg.WriteTimeout))
		for _, f := range batch {
			// The frame is copied (or written) on return.
			if err := s.out.WriteText(f.b); err != nil {
				s.writeFailed()
				return
			}
			if f.pool != nil {
				putFrame(f.pool)
			}
		}
		framesOut.Add(float64(len(batch)))
		if err := s.out.Flush(); err != nil {
			s.writeFailed()
			return
		}
		recycleFrames(list)
	}
}

// writeFailed drops a socket whose write failed.
func (s *session) writeFailed() {
	_ = s.out.Flush() // leave batching; the buffer goes back to its pool
	s.mu.Lock()
	s.closed, s.writing = true, false
	s.queue.drop()
	s.mu.Unlock()
	s.teardown()
}

// closeWith closes the socket after the frames already queued, with a
// close code and a translated reason.
func (s *session) closeWith(code int, reasonCode int) {
	s.closeAfterQueue(&closeNote{code: code, reason: closeReason(s.translate(apierr.ChatError(reasonCode)))})
}

// closeAfterQueue has the writer send note's close frame once the frames
// already queued are written.
func (s *session) closeAfterQueue(note *closeNote) {
	s.mu.Lock()
	if s.closed || s.closing {
		s.mu.Unlock()
		return
	}
	s.closing, s.closeNote = true, note
	s.unlockAndWake()
}

// dropWith closes the socket from its read side, which never writes to
// it: a reader waiting for room on a socket whose client does not read
// would leave every socket it reads waiting too. The close frame goes out
// through the socket's writer, ahead of what is queued (which is dropped),
// and the writer drops the connection after it.
func (s *session) dropWith(code int, reason string) {
	s.mu.Lock()
	if s.closed || (s.closeNote != nil && s.closeNote.drop) {
		s.mu.Unlock()
		return
	}
	s.closing, s.closeNote = true, &closeNote{code: code, reason: reason, drop: true}
	s.queue.drop()
	s.unlockAndWake()
}

// queuePong has the socket's writer answer a ping with payload (the read
// side's; see dropWith). Only the latest ping is answered when several
// come before the writer runs, as RFC 6455 allows.
func (s *session) queuePong(payload []byte) {
	p := append(make([]byte, 0, len(payload)), payload...)
	s.mu.Lock()
	if s.closed || s.closing {
		s.mu.Unlock()
		return
	}
	s.pong = &p
	s.unlockAndWake()
}

// closeNormally ends the socket after what is queued (Logout).
func (s *session) closeNormally() {
	s.closeAfterQueue(&closeNote{code: websocket.CloseNormalClosure})
}

// disconnect sends a close frame without waiting for the queue (the peer
// is not reading) and drops the connection.
func (s *session) disconnect(code, reasonCode int) {
	reason := closeReason(s.translate(apierr.ChatError(reasonCode)))
	_ = s.out.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(time.Second))
	s.teardown()
}

// abort drops the connection at once.
func (s *session) abort() { s.teardown() }

// kick ends the socket because its sign-in was replaced or signed out by
// the device limit (OnKickedOffline) or ended (OnUserTokenExpired).
func (s *session) kick(reason string) {
	event, code, closeCode := kickReasonCode(reason)
	s.push(encodeReply(event, "", nil, code, s.translate(apierr.ChatError(code))))
	s.closeWith(closeCode, code)
	kickedSockets.Inc()
}

// queuePing asks the socket's writer for a ping (the wheel calls it).
func (s *session) queuePing() {
	s.pingDue.Store(true)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.unlockAndWake()
}

// ping writes a ping and refreshes the socket's presence (its writer
// calls it); false when the socket failed.
func (s *session) ping() bool {
	if err := s.out.WriteControl(websocket.PingMessage, nil, time.Now().Add(s.e.cfg.WriteTimeout)); err != nil {
		s.writeFailed()
		return false
	}
	if s.presenceOn.Load() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = s.e.cluster.presence.Add(ctx, storage.FormatID(s.userID), strconv.FormatInt(s.id, 10), 3*s.e.cfg.PingPeriod)
		cancel()
	}
	return true
}

// teardown runs once when the socket ends (read side closed or failed,
// a write failed, idle timeout, disconnect): the connection closes, the
// socket leaves its user, presence and the node, and its actor stops.
func (s *session) teardown() {
	if s.torndown.Swap(true) {
		return
	}
	s.e.gateway.poller.forget(s)
	s.mu.Lock()
	s.closed = true
	s.queue.drop()
	s.mu.Unlock()
	s.out.Close()
	s.e.root.Send(s.pid, &closed{s: s})
	s.e.live.sockets.removeIf(s.id, func(x *session) bool { return x == s })
	s.e.releaseSocket(s.userID, int(s.platform))
	connections.Dec()
}

// closed tells the session actor its socket is gone.
type closed struct{ s *session }

func (s *session) translate(err *apierr.Error) string {
	return apierr.Translate(apierr.Langs[s.lang], err.Key, err.Args)
}

// reply answers a request: data on success, a translated error otherwise.
func (s *session) reply(name, opID string, data any, err error) {
	if err != nil {
		s.replyErr(name, opID, err)
		return
	}
	// The frame is this socket's alone: a framePool buffer, given back
	// once written (an acknowledgement was ~1 KB of garbage per send).
	p := getFrame()
	*p = appendReplyData((*p)[:0], name, opID, data, 0, "")
	s.pushOwned(p)
}

// replyHeld queues a successful answer without waking a writer (see
// pushHeld): the flush of the socket's user, or the caller, releases it.
func (s *session) replyHeld(name, opID string, data any) {
	p := getFrame()
	*p = appendReplyData((*p)[:0], name, opID, data, 0, "")
	s.pushOwnedHeld(p)
}

func (s *session) replyErr(name, opID string, err error) {
	var he *apierr.Error
	if !errors.As(err, &he) {
		s.e.log.Error("chat request failed", "call", name, "user", s.userID, "err", err)
		he = apierr.ChatError(apierr.CodeChatBusy)
	}
	requestErrors.WithLabelValues(codeBucket(he.Code)).Inc()
	s.push(encodeReply(name, opID, nil, he.Code, s.translate(he)))
}

// sessionActor handles a socket's requests in order. Its state lives in
// the session, and every message it gets names the session, so all
// session actors share one Props (a Props and its producer per socket
// were ~0.3 KB of an idle socket) and a restart after a panic carries on
// with the same socket.
type sessionActor struct {
	current *inbound // the request being handled, answered if it crashes
}

// sessionProps spawns every session actor.
var sessionProps = actor.PropsFromProducer(func() actor.Actor { return &sessionActor{} },
	actor.WithGuardian(supervision), actor.WithMailbox(newSmallMailbox), actor.WithDispatcher(chatDispatcher))

func (a *sessionActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *inbound:
		s := m.s
		if !m.limited || m.frame != nil {
			m.req, m.args, m.err = DecodeRequest(m.frame)
		}
		// The request holds copies of what it needs (DecodeRequest):
		// the frame's buffer is free.
		if m.buf != nil {
			putFrame(m.buf)
			m.buf = nil
		}
		m.frame = nil
		s.taken(m)
		a.current = m
		if h := testHook.Load(); h != nil {
			(*h)("session", m)
		}
		s.handle(m)
		m.args.release() // the handler is done with them
		a.current = nil
		m.free()
	case *actor.Restarting:
		if c := a.current; c != nil { // crashed while handling it: answer it
			c.s.replyErr(c.req.ReqFuncName, c.req.OperationID, errBusy())
		}
	case *closed:
		m.s.leave()
		ctx.Stop(ctx.Self())
	}
}

// leave detaches a closed socket from its user and presence.
func (s *session) leave() {
	if s.user != nil {
		s.e.detach(s)
		s.user = nil
	}
	s.e.cluster.watchers.remove(s, nil)
	if s.presenceOn.Swap(false) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = s.e.cluster.presence.Remove(ctx, storage.FormatID(s.userID), strconv.FormatInt(s.id, 10))
		cancel()
		s.e.announcePresence(s.userID, true)
	}
}

// handle runs one request. A panic in a handler is answered with "system
// busy" and logged; the socket stays usable.
func (s *session) handle(in *inbound) {
	if errors.Is(in.err, errFrame) {
		s.push(encodeReply("", "", nil, apierr.CodeChatBadFrame, s.translate(apierr.ChatError(apierr.CodeChatBadFrame))))
		return
	}
	name, opID := in.req.ReqFuncName, in.req.OperationID
	if in.limited {
		s.replyErr(name, opID, apierr.ChatError(apierr.CodeChatRateLimited))
		return
	}
	if in.err != nil {
		s.replyErr(name, opID, in.err)
		return
	}
	if name != "Login" && !s.loggedIn.Load() {
		s.replyErr(name, opID, apierr.ChatError(apierr.CodeChatLoginFirst))
		return
	}
	h, ok := calls[name]
	if !ok {
		s.replyErr(name, opID, apierr.ChatError(apierr.CodeChatUnknownCall, "name", name))
		return
	}
	requests.WithLabelValues(name).Inc()
	c := &call{s: s, name: name, opID: opID, args: in.args}
	defer c.release()
	data, err := c.run(h)
	if errors.Is(err, errLater) {
		return
	}
	s.reply(name, opID, data, err)
}

// call is one request in progress.
type call struct {
	s      *session
	cx     context.Context // made by ctx at first use
	cancel context.CancelFunc
	name   string
	opID   string
	args   Args
}

// ctx is the call's context, with its 15 s timeout, made the first time
// the call reaches the store or another service: a send whose checks need
// neither arms no timer (a context with a timeout per request was a timer
// and ~300 bytes of every message, BenchmarkSendPath).
func (c *call) ctx() context.Context {
	if c.cx == nil {
		c.cx, c.cancel = context.WithTimeout(context.Background(), 15*time.Second)
	}
	return c.cx
}

// release ends the call's context, if it was made.
func (c *call) release() {
	if c.cancel != nil {
		c.cancel()
	}
}

// handlerFunc answers a call with reply data, or returns errLater after
// arranging for another actor to answer.
type handlerFunc func(c *call) (any, error)

var errLater = errors.New("chat: answered later")

func (c *call) run(h handlerFunc) (data any, err error) {
	defer func() {
		if p := recover(); p != nil {
			c.s.e.log.Error("chat handler panic", "call", c.name, "panic", p)
			data, err = nil, errBusy()
		}
	}()
	return h(c)
}

// replyTo is where another actor sends this call's answer.
func (c *call) replyTo() replyTo {
	return replyTo{pid: c.s.pid, s: c.s, name: c.name, opID: c.opID}
}

// replyTo addresses an asynchronous answer.
type replyTo struct {
	pid        *actor.PID
	s          *session // the socket, when pid is its session actor
	name, opID string
}

// send answers: a socket's answer is queued on the socket from the
// caller's goroutine (session.reply takes the socket's lock, and reads
// nothing else its actor owns), not sent to its session actor to be
// queued there — that hop was an actor message, a mailbox schedule and a
// wake-up of every acknowledged send. Answers to one socket from one actor
// keep their order; answers from different actors had none. Other callers
// (a future) get an *asyncReply.
func (r replyTo) send(e *Engine, data any, err error) {
	if r.s != nil {
		r.s.reply(r.name, r.opID, data, err)
		return
	}
	if r.pid == nil {
		return
	}
	e.root.Send(r.pid, &asyncReply{name: r.name, opID: r.opID, data: data, err: err})
}

// me is the calling user.
func (c *call) me() int64 { return c.s.userID }

func (c *call) meStr() string { return c.s.self.idStr }

func (c *call) now() int64 { return c.s.e.now() }

// tokenDigest is what a socket keeps of the token it connected with, to
// check that its Login names the same one: half a SHA-256, inline in the
// session rather than a 64-character hex string beside it.
func tokenDigest(token string) [16]byte {
	h := sha256.Sum256([]byte(token))
	return [16]byte(h[:16])
}

// langIndex is lang's index in apierr.Langs (a negotiated language is one
// of them; anything else is taken as the default language).
func langIndex(lang string) uint8 {
	i := slices.Index(apierr.Langs, lang)
	if i < 0 {
		i = slices.Index(apierr.Langs, apierr.DefaultLang)
	}
	return uint8(i)
}
