package customer

// /ws/customer: the real-time side of customer service. A visitor connects
// without logging in (visitor key from the kj_visitor cookie, the
// X-Visitor-Id header or ?visitorId=; a ?token= links a signed-in user); an
// agent connects with ?as=agent&token=<operator token>. Frames are JSON
// text, see docs/API.md; events reach every socket through the bus, so the
// visitor and the agent may sit on different nodes. One goroutine reads
// each socket and one writes it.

import (
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"kj/internal/apierr"
	"kj/internal/bus"
	"kj/internal/jsonid"
	"kj/storage"
)

// Gate is what the socket borrows from the HTTP API, so a socket signs in,
// is addressed and fails exactly as a route does.
type Gate interface {
	// Token reads the access token of r.
	Token(r *http.Request) string
	// SignedIn authenticates r's token (a missing or bad one fails).
	SignedIn(r *http.Request) (storage.User, error)
	// Viewer is r's signed-in user when r carries a token, else zero; a
	// bad token fails.
	Viewer(r *http.Request) (storage.User, error)
	// ClientIP is r's client address (per-address caps, audit rows).
	ClientIP(r *http.Request) string
	// ClientError is err as the client sees it; known is false for an
	// error the client was not meant to see (it is logged).
	ClientError(err error) (e *apierr.Error, known bool)
	// Decode reads a JSON frame, failing as a request body would.
	Decode(data []byte, dst any) error
	// WriteJSON answers a refused upgrade.
	WriteJSON(w http.ResponseWriter, status int, v any)
}

const (
	writeWait  = 10 * time.Second
	pongWait   = 60 * time.Second
	pingPeriod = 25 * time.Second
	queueLen   = 64       // frames waiting for a slow socket before it is closed
	readLimit  = 16 << 10 // bytes per incoming frame
)

var openSockets = promauto.NewGaugeVec(prometheus.GaugeOpts{
	Name: "kj_content_customer_sockets",
	Help: "Open customer-service sockets by role (visitor, agent).",
}, []string{"role"})

// Socket serves /ws/customer; the engine mounts it and closes it when
// the node drains.
type Socket struct {
	s        *Service
	gate     Gate
	upgrader websocket.Upgrader

	mu      sync.Mutex
	conns   map[*socketConn]struct{}
	closing bool
}

// NewSocket makes the /ws/customer handler of s, signing sockets in
// through gate.
func NewSocket(s *Service, gate Gate) *Socket {
	return &Socket{
		s:        s,
		gate:     gate,
		upgrader: websocket.Upgrader{ReadBufferSize: 1024, WriteBufferSize: 1024},
		conns:    map[*socketConn]struct{}{},
	}
}

// socketConn is one open socket.
type socketConn struct {
	h     *Socket
	ws    *websocket.Conn
	lang  string
	token string
	role  string
	agent storage.User // agents
	vis   Visitor      // visitors
	ip    string       // the client's address (per-address caps)
	out   chan []byte
	subs  []bus.Subscription

	once        sync.Once
	done        chan struct{}
	closeCode   int
	closeReason string
}

// refusal is the envelope of a refused upgrade, as every API answer.
type refusal struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data"`
}

func (h *Socket) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	lang := apierr.NegotiateLang(cmp.Or(q.Get("lang"), r.Header.Get("Accept-Language")))
	if t := q.Get("token"); t != "" && h.gate.Token(r) == "" {
		r.Header.Set("token", t)
	}
	refuse := func(err error) {
		e, known := h.gate.ClientError(err)
		if !known {
			h.s.log().Error("customer socket refused", "err", err)
		}
		status := e.Status
		if status == 0 {
			status = http.StatusBadRequest
			if e.Code == apierr.CodeTokenExpired || e.Code == apierr.CodeLoginInvalid || e.Code == apierr.CodeLoggedElsewhere {
				status = http.StatusUnauthorized
			}
		}
		h.gate.WriteJSON(w, status, refusal{Code: e.Code, Message: apierr.Translate(lang, e.Key, e.Args)})
	}
	h.mu.Lock()
	closing := h.closing
	h.mu.Unlock()
	if closing {
		refuse(apierr.Fail(apierr.CodeSystemBusy, "system.busy").WithStatus(http.StatusServiceUnavailable))
		return
	}

	ip := h.gate.ClientIP(r)
	conn := &socketConn{h: h, lang: lang, token: h.gate.Token(r), out: make(chan []byte, queueLen), done: make(chan struct{}), ip: ip}
	header := http.Header{}
	var first any
	if q.Get("as") == "agent" {
		u, err := h.gate.SignedIn(r)
		if err != nil {
			refuse(err)
			return
		}
		if u.IsOperator != 1 {
			refuse(apierr.Fail(apierr.CodeOperatorOnly, "operator.only").WithStatus(http.StatusForbidden))
			return
		}
		conn.role, conn.agent = "agent", u
		name, err := agentName(r.Context(), h.s.DB, u.ID)
		if err != nil {
			refuse(err)
			return
		}
		first = map[string]any{"type": "init", "serviceId": jsonid.ID(u.ID), "serviceName": name}
	} else {
		u, err := h.gate.Viewer(r)
		if err != nil {
			refuse(err)
			return
		}
		v, err := h.s.ResolveVisitor(r.Context(), VisitorKey(r), u, ip)
		if err != nil {
			refuse(err)
			return
		}
		init, err := h.s.Init(r.Context(), v, lang)
		if err != nil {
			refuse(err)
			return
		}
		rec := &headerRecorder{h: header}
		SetVisitorCookie(rec, r, v.Key)
		conn.role, conn.vis = "visitor", v
		first = struct {
			Type string `json:"type"`
			InitView
		}{"init", init}
	}

	ws, err := h.upgrader.Upgrade(w, r, header)
	if err != nil {
		return // the upgrader has answered
	}
	conn.ws = ws
	if !h.add(conn) {
		ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "server shutting down"), time.Now().Add(writeWait))
		ws.Close()
		return
	}
	defer h.remove(conn)
	subjects := []string{visitorSubject(conn.vis.ID)}
	if conn.role == "agent" {
		subjects = []string{deskSubject}
	}
	for _, subject := range subjects {
		sub, err := h.s.Bus.Subscribe(subject, func(_ string, data []byte) { conn.send(data) })
		if err != nil {
			h.s.log().Error("customer socket subscribe failed", "subject", subject, "err", err)
			conn.close(websocket.CloseInternalServerErr, "subscribe failed")
			break
		}
		conn.subs = append(conn.subs, sub)
	}
	defer func() {
		for _, sub := range conn.subs {
			sub.Unsubscribe()
		}
	}()
	openSockets.WithLabelValues(conn.role).Inc()
	defer openSockets.WithLabelValues(conn.role).Dec()

	go conn.writeLoop()
	conn.sendJSON(first)
	conn.readLoop(r.Context())
}

// headerRecorder lets http.SetCookie write into the upgrade's headers.
type headerRecorder struct {
	http.ResponseWriter
	h http.Header
}

func (r *headerRecorder) Header() http.Header { return r.h }

func (h *Socket) add(c *socketConn) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closing {
		return false
	}
	h.conns[c] = struct{}{}
	return true
}

func (h *Socket) remove(c *socketConn) {
	h.mu.Lock()
	delete(h.conns, c)
	h.mu.Unlock()
	c.close(websocket.CloseNormalClosure, "")
}

// Close tells every socket the server is going away; clients reconnect
// to another node.
func (h *Socket) Close(context.Context) {
	h.mu.Lock()
	h.closing = true
	conns := make([]*socketConn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	for _, c := range conns {
		c.close(websocket.CloseGoingAway, "server shutting down")
	}
}

// Open counts the open sockets.
func (h *Socket) Open() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.conns)
}

func (c *socketConn) close(code int, reason string) {
	c.once.Do(func() {
		c.closeCode, c.closeReason = code, reason
		close(c.done)
	})
}

// send queues a frame; a socket that cannot keep up is closed rather than
// allowed to grow memory (the client reloads the history over HTTP).
func (c *socketConn) send(b []byte) {
	select {
	case <-c.done:
	case c.out <- b:
	default:
		c.close(websocket.ClosePolicyViolation, "too slow")
	}
}

func (c *socketConn) sendJSON(v any) {
	if b, err := json.Marshal(v); err == nil {
		c.send(b)
	}
}

func (c *socketConn) writeLoop() {
	ping := time.NewTicker(pingPeriod)
	defer ping.Stop()
	defer c.ws.Close()
	for {
		select {
		case b := <-c.out:
			c.ws.SetWriteDeadline(time.Now().Add(writeWait))
			if err := c.ws.WriteMessage(websocket.TextMessage, b); err != nil {
				c.close(websocket.CloseAbnormalClosure, "")
				return
			}
		case <-ping.C:
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeWait)); err != nil {
				c.close(websocket.CloseAbnormalClosure, "")
				return
			}
		case <-c.done:
			// Flush what is already queued (an ack, the last message), then say goodbye.
			for flushed := false; !flushed; {
				select {
				case b := <-c.out:
					c.ws.SetWriteDeadline(time.Now().Add(writeWait))
					if c.ws.WriteMessage(websocket.TextMessage, b) != nil {
						flushed = true
					}
				default:
					flushed = true
				}
			}
			if c.closeCode != websocket.CloseAbnormalClosure {
				c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(c.closeCode, c.closeReason), time.Now().Add(writeWait))
			}
			return
		}
	}
}

// frame is what a client sends: {"type":"send","content":...,
// "clientMsgId":..., "visitorNo": (agents), "context": (visitors)}, {"type":"read"} or
// {"type":"ping"}.
type frame struct {
	Type        string    `json:"type"`
	ClientMsgID string    `json:"clientMsgId"`
	Content     string    `json:"content"`
	VisitorNo   jsonid.ID `json:"visitorNo"`
	// Context is what a visitor's message asks about (visitors).
	Context *ContextRequest `json:"context"`
}

func (c *socketConn) readLoop(ctx context.Context) {
	c.ws.SetReadLimit(readLimit)
	alive := func() { c.ws.SetReadDeadline(time.Now().Add(pongWait)) }
	alive()
	c.ws.SetPongHandler(func(string) error { alive(); return nil })
	for {
		_, data, err := c.ws.ReadMessage()
		if err != nil {
			return
		}
		alive()
		select {
		case <-c.done:
			return
		default:
		}
		c.handle(ctx, data)
	}
}

func (c *socketConn) handle(ctx context.Context, data []byte) {
	var f frame
	if err := c.h.gate.Decode(data, &f); err != nil {
		c.fail("", err)
		return
	}
	s := c.h.s
	switch f.Type {
	case "ping":
		c.sendJSON(map[string]string{"type": "pong"})
	case "send":
		var m MessageView
		var err error
		if c.role == "agent" {
			if err := c.stillOperator(ctx); err != nil {
				c.fail(f.ClientMsgID, err)
				c.close(websocket.ClosePolicyViolation, "session ended")
				return
			}
			m, err = s.AgentReply(ctx, c.agent, c.ip, int64(f.VisitorNo), f.Content)
		} else {
			m, err = s.VisitorPost(ctx, c.vis, f.Content, c.ip, f.Context)
		}
		if err != nil {
			c.fail(f.ClientMsgID, err)
			return
		}
		c.sendJSON(map[string]any{"type": "ack", "clientMsgId": f.ClientMsgID, "message": m})
	case "read":
		var err error
		if c.role == "agent" {
			err = s.AgentMarkRead(ctx, int64(f.VisitorNo))
		} else {
			err = storeErr(s.MarkRead(ctx, c.vis.ID, false, nil))
		}
		if err != nil {
			c.fail(f.ClientMsgID, err)
		}
	default:
		c.fail(f.ClientMsgID, apierr.Invalid("type"))
	}
}

// stillOperator re-checks an agent's token before each reply, so a signed
// out or demoted operator's socket stops answering.
func (c *socketConn) stillOperator(ctx context.Context) error {
	u, _, err := c.h.s.Sessions.Authenticate(ctx, c.token)
	if err == nil && u.IsOperator == 1 {
		c.agent = u
		return nil
	}
	if err == nil {
		return apierr.Fail(apierr.CodeOperatorOnly, "operator.only")
	}
	return apierr.Fail(apierr.CodeTokenExpired, "token.expired")
}

// fail answers a frame with a translated error.
func (c *socketConn) fail(clientMsgID string, err error) {
	e, known := c.h.gate.ClientError(err)
	if !known {
		c.h.s.log().Error("customer socket frame failed", "role", c.role, "err", err)
	}
	c.sendJSON(map[string]any{"type": "error", "clientMsgId": clientMsgID, "code": e.Code, "message": apierr.Translate(c.lang, e.Key, e.Args)})
}
