package chat

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/gorilla/websocket"

	"kj/auth"
	"kj/engine/clock"
	"kj/httpapi"
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
	if e.draining.Load() {
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
	lang := httpapi.NegotiateLang(r.Header.Get("Accept-Language"))

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
	if authErr != nil && !errors.Is(authErr, auth.ErrExpired) && !errors.Is(authErr, auth.ErrReplaced) && !errors.Is(authErr, auth.ErrNoToken) {
		e.log.Error("chat upgrade: check token", "err", authErr)
		http.Error(w, "system busy", http.StatusServiceUnavailable)
		return
	}
	bw := &batchingWriter{ResponseWriter: w}
	conn, err := e.upgrader.Upgrade(bw, r, nil)
	if err != nil {
		return // the upgrader answered
	}
	if authErr != nil {
		e.refuse(conn, opID, lang, errors.Is(authErr, auth.ErrReplaced))
		return
	}
	s := &session{
		e: e, id: storage.NewID(), conn: conn, out: bw.conn, userID: user.ID, self: senderOf(user, platform),
		authID: sess.ID, tokenHash: storage.HashSecret(token), expiresAt: sess.JWTExpiresAt,
		platform: platform, lang: lang, host: r.Host, tokens: e.cfg.RequestBurst, last: time.Now(),
	}
	props := actor.PropsFromProducer(func() actor.Actor { return &sessionActor{s: s} }, actor.WithGuardian(supervision))
	s.pid = e.root.Spawn(props)
	e.sockets.with(s.id, func() *session { return s }, func(*session) {})
	connections.Inc()
	conn.SetReadLimit(e.cfg.MaxFrame)
	_ = conn.SetReadDeadline(time.Now().Add(e.cfg.IdleTimeout))
	conn.SetPongHandler(func(string) error {
		return conn.SetReadDeadline(time.Now().Add(e.cfg.IdleTimeout))
	})
	s.pingTimer = time.AfterFunc(e.cfg.PingPeriod, s.ping)
	go s.readLoop()
}

// refuse answers a socket whose token is bad and closes it.
func (e *Engine) refuse(conn *websocket.Conn, opID, lang string, replaced bool) {
	code, event, closeCode := httpapi.CodeChatTokenExpired, "OnUserTokenExpired", closeTokenExpired
	if replaced {
		code, event, closeCode = httpapi.CodeChatKicked, "OnKickedOffline", closeKicked
	}
	msg := httpapi.Translate(lang, httpapi.ChatError(code).Key, nil)
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
// through a bounded queue drained by a writer goroutine that runs only
// while there is something to write.
type session struct {
	e         *Engine
	id        int64
	conn      *websocket.Conn
	out       *batchConn // conn's writes, batched by the writer
	pid       *actor.PID
	userID    int64
	self      sender
	authID    int64
	tokenHash string
	expiresAt int64
	platform  int
	lang      string
	host      string

	loggedIn   atomic.Bool
	user       *userEntry // set at Login (actor only)
	expiry     clock.Timer
	pingTimer  *time.Timer
	tokens     float64 // request rate bucket (read goroutine only)
	last       time.Time
	torndown   atomic.Bool
	presenceOn atomic.Bool

	mu          sync.Mutex
	queue       [][]byte
	writing     bool
	closing     bool
	closed      bool
	closeCode   int
	closeReason string
}

func (s *session) isLoggedIn() bool { return s.loggedIn.Load() }

// inbound is a frame read from the socket; the session actor decodes it.
type inbound struct {
	frame   []byte
	limited bool // over the socket's request rate
	req     Request
	args    Args
	err     error
}

// asyncReply is the answer to a request another actor handled; it goes to
// the session actor (or to a future, for HTTP callers).
type asyncReply struct {
	name, opID string
	data       any
	err        error
}

// readLoop only reads: decoding and everything else happen in the actor,
// so this goroutine's stack stays at its minimum while it waits (most
// sockets are idle most of the time).
func (s *session) readLoop() {
	defer s.teardown()
	for {
		_, data, err := s.conn.ReadMessage()
		if err != nil {
			return
		}
		_ = s.conn.SetReadDeadline(time.Now().Add(s.e.cfg.IdleTimeout))
		framesIn.Inc()
		s.e.root.Send(s.pid, &inbound{frame: data, limited: !s.allow()})
	}
}

// allow takes a token from the socket's request bucket.
func (s *session) allow() bool {
	now := time.Now()
	s.tokens += now.Sub(s.last).Seconds() * s.e.cfg.RequestRate
	s.last = now
	if s.tokens > s.e.cfg.RequestBurst {
		s.tokens = s.e.cfg.RequestBurst
	}
	if s.tokens < 1 {
		return false
	}
	s.tokens--
	return true
}

// push queues a frame; a socket whose queue is full is disconnected as a
// slow consumer (its client resyncs by seq after reconnecting) instead of
// growing memory.
func (s *session) push(frame []byte) {
	s.mu.Lock()
	if s.closed || s.closing {
		s.mu.Unlock()
		return
	}
	if len(s.queue) >= s.e.cfg.OutboundQueue {
		s.closed = true
		s.queue = nil
		s.mu.Unlock()
		slowConsumers.Inc()
		go s.disconnect(closeSlowConsumer, httpapi.CodeChatSlowConsumer)
		return
	}
	s.queue = append(s.queue, frame)
	if !s.writing {
		s.writing = true
		go s.writeLoop()
	}
	s.mu.Unlock()
}

func (s *session) writeLoop() {
	for {
		s.mu.Lock()
		batch := s.queue
		s.queue = nil
		if len(batch) == 0 {
			s.writing = false
			closing, code, reason := s.closing && !s.closed, s.closeCode, s.closeReason
			if closing {
				s.closed = true
			}
			s.mu.Unlock()
			if closing {
				deadline := time.Now().Add(s.e.cfg.WriteTimeout)
				_ = s.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), deadline)
				// The peer answers the close; stop waiting for it soon.
				_ = s.conn.SetReadDeadline(time.Now().Add(2 * time.Second))
			}
			return
		}
		s.mu.Unlock()
		// Several frames waiting go to the kernel in one write.
		batched := len(batch) > 1
		if batched {
			s.out.Batch()
		}
		for _, f := range batch {
			_ = s.conn.SetWriteDeadline(time.Now().Add(s.e.cfg.WriteTimeout))
			if err := s.conn.WriteMessage(websocket.TextMessage, f); err != nil {
				s.writeFailed()
				return
			}
			framesOut.Inc()
		}
		if batched {
			_ = s.conn.SetWriteDeadline(time.Now().Add(s.e.cfg.WriteTimeout))
			if err := s.out.Flush(); err != nil {
				s.writeFailed()
				return
			}
		}
	}
}

// writeFailed drops a socket whose write failed.
func (s *session) writeFailed() {
	_ = s.out.Flush() // leave batching; the buffer goes back to its pool
	s.mu.Lock()
	s.closed, s.queue, s.writing = true, nil, false
	s.mu.Unlock()
	s.conn.Close()
}

// closeWith closes the socket after the frames already queued, with a
// close code and a translated reason.
func (s *session) closeWith(code int, reasonCode int) {
	reason := closeReason(s.translate(httpapi.ChatError(reasonCode)))
	s.mu.Lock()
	if s.closed || s.closing {
		s.mu.Unlock()
		return
	}
	s.closing, s.closeCode, s.closeReason = true, code, reason
	if !s.writing {
		s.writing = true
		go s.writeLoop()
	}
	s.mu.Unlock()
}

// closeNormally ends the socket after what is queued (Logout).
func (s *session) closeNormally() {
	s.mu.Lock()
	if s.closed || s.closing {
		s.mu.Unlock()
		return
	}
	s.closing, s.closeCode, s.closeReason = true, websocket.CloseNormalClosure, ""
	if !s.writing {
		s.writing = true
		go s.writeLoop()
	}
	s.mu.Unlock()
}

// disconnect sends a close frame without waiting for the queue (the peer
// is not reading) and drops the connection.
func (s *session) disconnect(code, reasonCode int) {
	reason := closeReason(s.translate(httpapi.ChatError(reasonCode)))
	_ = s.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(time.Second))
	s.conn.Close()
}

// abort drops the connection at once.
func (s *session) abort() { s.conn.Close() }

// kick ends the socket because its sign-in was replaced (OnKickedOffline)
// or ended (OnUserTokenExpired).
func (s *session) kick(reason string) {
	event, replaced := kickReasonCode(reason)
	code, closeCode := httpapi.CodeChatTokenExpired, closeTokenExpired
	if replaced {
		code, closeCode = httpapi.CodeChatKicked, closeKicked
	}
	s.push(encodeReply(event, "", nil, code, s.translate(httpapi.ChatError(code))))
	s.closeWith(closeCode, code)
	kickedSockets.Inc()
}

func (s *session) ping() {
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed || s.torndown.Load() {
		return
	}
	if err := s.conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(s.e.cfg.WriteTimeout)); err != nil {
		s.conn.Close()
		return
	}
	if s.presenceOn.Load() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = s.e.presence.Add(ctx, storage.FormatID(s.userID), strconv.FormatInt(s.id, 10), 3*s.e.cfg.PingPeriod)
		cancel()
	}
	s.pingTimer.Reset(s.e.cfg.PingPeriod)
}

// teardown runs once when the read loop ends: the socket leaves its user,
// presence and the node, and its actor stops.
func (s *session) teardown() {
	if s.torndown.Swap(true) {
		return
	}
	s.pingTimer.Stop()
	s.mu.Lock()
	s.closed = true
	s.queue = nil
	s.mu.Unlock()
	s.conn.Close()
	s.e.root.Send(s.pid, &closed{})
	s.e.sockets.removeIf(s.id, func(x *session) bool { return x == s })
	connections.Dec()
}

// closed tells the session actor its socket is gone.
type closed struct{}

func (s *session) translate(err *httpapi.Error) string {
	return httpapi.Translate(s.lang, err.Key, err.Args)
}

// reply answers a request: data on success, a translated error otherwise.
func (s *session) reply(name, opID string, data any, err error) {
	if err != nil {
		s.replyErr(name, opID, err)
		return
	}
	s.push(encodeReply(name, opID, data, 0, ""))
}

func (s *session) replyErr(name, opID string, err error) {
	var he *httpapi.Error
	if !errors.As(err, &he) {
		s.e.log.Error("chat request failed", "call", name, "user", s.userID, "err", err)
		he = httpapi.ChatError(httpapi.CodeChatBusy)
	}
	requestErrors.WithLabelValues(codeBucket(he.Code)).Inc()
	s.push(encodeReply(name, opID, nil, he.Code, s.translate(he)))
}

// sessionActor handles a socket's requests in order. Its state lives in
// the session, so a restart after a panic carries on with the same socket.
type sessionActor struct {
	s       *session
	current *inbound // the request being handled, answered if it crashes
}

func (a *sessionActor) Receive(ctx actor.Context) {
	s := a.s
	switch m := ctx.Message().(type) {
	case *inbound:
		m.req, m.args, m.err = DecodeRequest(m.frame)
		m.frame = nil
		a.current = m
		if h := testHook.Load(); h != nil {
			(*h)("session", m)
		}
		s.handle(m)
		a.current = nil
	case *actor.Restarting:
		if a.current != nil { // crashed while handling it: answer it
			s.replyErr(a.current.req.ReqFuncName, a.current.req.OperationID, errBusy())
		}
	case *asyncReply:
		s.reply(m.name, m.opID, m.data, m.err)
	case *closed:
		s.leave()
		ctx.Stop(ctx.Self())
	}
}

// leave detaches a closed socket from its user and presence.
func (s *session) leave() {
	if s.expiry != nil {
		s.expiry.Stop()
	}
	if s.user != nil {
		s.e.detach(s)
		s.user = nil
	}
	if s.presenceOn.Swap(false) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = s.e.presence.Remove(ctx, storage.FormatID(s.userID), strconv.FormatInt(s.id, 10))
		cancel()
	}
}

// handle runs one request. A panic in a handler is answered with "system
// busy" and logged; the socket stays usable.
func (s *session) handle(in *inbound) {
	if errors.Is(in.err, errFrame) {
		s.push(encodeReply("", "", nil, httpapi.CodeChatBadFrame, s.translate(httpapi.ChatError(httpapi.CodeChatBadFrame))))
		return
	}
	name, opID := in.req.ReqFuncName, in.req.OperationID
	if in.limited {
		s.replyErr(name, opID, httpapi.ChatError(httpapi.CodeChatRateLimited))
		return
	}
	if in.err != nil {
		s.replyErr(name, opID, in.err)
		return
	}
	if name != "Login" && !s.loggedIn.Load() {
		s.replyErr(name, opID, httpapi.ChatError(httpapi.CodeChatLoginFirst))
		return
	}
	h, ok := calls[name]
	if !ok {
		s.replyErr(name, opID, httpapi.ChatError(httpapi.CodeChatUnknownCall, "name", name))
		return
	}
	requests.WithLabelValues(name).Inc()
	cctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	c := &call{s: s, ctx: cctx, name: name, opID: opID, args: in.args}
	data, err := c.run(h)
	if errors.Is(err, errLater) {
		return
	}
	s.reply(name, opID, data, err)
}

// call is one request in progress.
type call struct {
	s    *session
	ctx  context.Context
	name string
	opID string
	args Args
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
	return replyTo{pid: c.s.pid, name: c.name, opID: c.opID}
}

// replyTo addresses an asynchronous answer.
type replyTo struct {
	pid        *actor.PID
	name, opID string
}

func (r replyTo) send(e *Engine, data any, err error) {
	if r.pid == nil {
		return
	}
	e.root.Send(r.pid, &asyncReply{name: r.name, opID: r.opID, data: data, err: err})
}

// me is the calling user.
func (c *call) me() int64 { return c.s.userID }

func (c *call) meStr() string { return c.s.self.idStr }

func (c *call) now() int64 { return c.s.e.now() }
