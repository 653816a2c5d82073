package httpapi

// /ws/customer: the real-time side of customer service. A visitor connects
// without logging in (visitor key from the kj_visitor cookie, the
// X-Visitor-Id header or ?visitorId=; a ?token= links a signed-in user); an
// agent connects with ?as=agent&token=<operator token>. Frames are JSON
// text, see docs/API.md; events reach every socket through the bus, so the
// visitor and the agent may sit on different nodes.

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
	"kj/storage"
)

const (
	customerWriteWait  = 10 * time.Second
	customerPongWait   = 60 * time.Second
	customerPingPeriod = 25 * time.Second
	customerQueue      = 64       // frames waiting for a slow socket before it is closed
	customerReadLimit  = 16 << 10 // bytes per incoming frame
)

var customerSockets = promauto.NewGaugeVec(prometheus.GaugeOpts{
	Name: "kj_content_customer_sockets",
	Help: "Open customer-service sockets by role (visitor, agent).",
}, []string{"role"})

// CustomerSocket serves /ws/customer; the engine mounts it and closes it
// when the node drains.
type CustomerSocket struct {
	s        *Server
	upgrader websocket.Upgrader

	mu      sync.Mutex
	conns   map[*customerConn]struct{}
	closing bool
}

// NewCustomerSocket makes the /ws/customer handler of s.
func NewCustomerSocket(s *Server) *CustomerSocket {
	return &CustomerSocket{
		s:        s,
		upgrader: websocket.Upgrader{ReadBufferSize: 1024, WriteBufferSize: 1024},
		conns:    map[*customerConn]struct{}{},
	}
}

// customerConn is one open socket.
type customerConn struct {
	h     *CustomerSocket
	ws    *websocket.Conn
	lang  string
	token string
	role  string
	agent storage.User    // agents
	vis   customerVisitor // visitors
	ip    string          // the client's address (per-address caps)
	out   chan []byte
	subs  []bus.Subscription

	once        sync.Once
	done        chan struct{}
	closeCode   int
	closeReason string
}

func (h *CustomerSocket) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	lang := apierr.NegotiateLang(cmp.Or(q.Get("lang"), r.Header.Get("Accept-Language")))
	if t := q.Get("token"); t != "" && Token(r) == "" {
		r.Header.Set("token", t)
	}
	c := &Call{Ctx: r.Context(), R: r, W: w, Lang: lang, s: h.s}
	refuse := func(err error) {
		e, known := asError(err)
		if !known {
			h.s.Log.Error("customer socket refused", "err", err)
		}
		status := e.Status
		if status == 0 {
			status = http.StatusBadRequest
			if e.Code == apierr.CodeTokenExpired || e.Code == apierr.CodeLoginInvalid || e.Code == apierr.CodeLoggedElsewhere {
				status = http.StatusUnauthorized
			}
		}
		WriteJSON(w, status, envelope{Code: e.Code, Message: apierr.Translate(lang, e.Key, e.Args)})
	}
	h.mu.Lock()
	closing := h.closing
	h.mu.Unlock()
	if closing {
		refuse(apierr.Fail(apierr.CodeSystemBusy, "system.busy").WithStatus(http.StatusServiceUnavailable))
		return
	}

	conn := &customerConn{h: h, lang: lang, token: Token(r), out: make(chan []byte, customerQueue), done: make(chan struct{}), ip: h.s.clientIP(r)}
	header := http.Header{}
	var first any
	if q.Get("as") == "agent" {
		if err := h.s.authenticate(c); err != nil {
			refuse(err)
			return
		}
		if c.User.IsOperator != 1 {
			refuse(apierr.Fail(apierr.CodeOperatorOnly, "operator.only").WithStatus(http.StatusForbidden))
			return
		}
		conn.role, conn.agent = "agent", c.User
		first = map[string]any{"type": "init", "serviceId": contentID(c.User.ID), "serviceName": serviceName(c.User)}
	} else {
		if _, err := contentViewer(c); err != nil {
			refuse(err)
			return
		}
		v, err := h.s.resolveVisitor(r.Context(), visitorKeyFrom(r), c.User, h.s.clientIP(r))
		if err != nil {
			refuse(err)
			return
		}
		init, err := h.s.customerInitOf(r.Context(), v, lang)
		if err != nil {
			refuse(err)
			return
		}
		rec := &headerRecorder{h: header}
		setVisitorCookie(rec, r, v.Key)
		conn.role, conn.vis = "visitor", v
		first = struct {
			Type string `json:"type"`
			customerInitView
		}{"init", init}
	}

	ws, err := h.upgrader.Upgrade(w, r, header)
	if err != nil {
		return // the upgrader has answered
	}
	conn.ws = ws
	if !h.add(conn) {
		ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "server shutting down"), time.Now().Add(customerWriteWait))
		ws.Close()
		return
	}
	defer h.remove(conn)
	subjects := []string{customerVisitorSubject(conn.vis.ID)}
	if conn.role == "agent" {
		subjects = []string{customerDeskSubject}
	}
	for _, subject := range subjects {
		sub, err := h.s.Bus.Subscribe(subject, func(_ string, data []byte) { conn.send(data) })
		if err != nil {
			h.s.Log.Error("customer socket subscribe failed", "subject", subject, "err", err)
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
	customerSockets.WithLabelValues(conn.role).Inc()
	defer customerSockets.WithLabelValues(conn.role).Dec()

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

func (h *CustomerSocket) add(c *customerConn) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closing {
		return false
	}
	h.conns[c] = struct{}{}
	return true
}

func (h *CustomerSocket) remove(c *customerConn) {
	h.mu.Lock()
	delete(h.conns, c)
	h.mu.Unlock()
	c.close(websocket.CloseNormalClosure, "")
}

// Close tells every socket the server is going away; clients reconnect
// to another node.
func (h *CustomerSocket) Close(context.Context) {
	h.mu.Lock()
	h.closing = true
	conns := make([]*customerConn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	for _, c := range conns {
		c.close(websocket.CloseGoingAway, "server shutting down")
	}
}

// Open counts the open sockets.
func (h *CustomerSocket) Open() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.conns)
}

func (c *customerConn) close(code int, reason string) {
	c.once.Do(func() {
		c.closeCode, c.closeReason = code, reason
		close(c.done)
	})
}

// send queues a frame; a socket that cannot keep up is closed rather than
// allowed to grow memory (the client reloads the history over HTTP).
func (c *customerConn) send(b []byte) {
	select {
	case <-c.done:
	case c.out <- b:
	default:
		c.close(websocket.ClosePolicyViolation, "too slow")
	}
}

func (c *customerConn) sendJSON(v any) {
	if b, err := json.Marshal(v); err == nil {
		c.send(b)
	}
}

func (c *customerConn) writeLoop() {
	ping := time.NewTicker(customerPingPeriod)
	defer ping.Stop()
	defer c.ws.Close()
	for {
		select {
		case b := <-c.out:
			c.ws.SetWriteDeadline(time.Now().Add(customerWriteWait))
			if err := c.ws.WriteMessage(websocket.TextMessage, b); err != nil {
				c.close(websocket.CloseAbnormalClosure, "")
				return
			}
		case <-ping.C:
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(customerWriteWait)); err != nil {
				c.close(websocket.CloseAbnormalClosure, "")
				return
			}
		case <-c.done:
			// Flush what is already queued (an ack, the last message), then say goodbye.
			for flushed := false; !flushed; {
				select {
				case b := <-c.out:
					c.ws.SetWriteDeadline(time.Now().Add(customerWriteWait))
					if c.ws.WriteMessage(websocket.TextMessage, b) != nil {
						flushed = true
					}
				default:
					flushed = true
				}
			}
			if c.closeCode != websocket.CloseAbnormalClosure {
				c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(c.closeCode, c.closeReason), time.Now().Add(customerWriteWait))
			}
			return
		}
	}
}

// customerFrame is what a client sends: {"type":"send","content":...,
// "clientMsgId":..., "visitorNo": (agents)}, {"type":"read"} or
// {"type":"ping"}.
type customerFrame struct {
	Type        string    `json:"type"`
	ClientMsgID string    `json:"clientMsgId"`
	Content     string    `json:"content"`
	VisitorNo   contentID `json:"visitorNo"`
}

func (c *customerConn) readLoop(ctx context.Context) {
	c.ws.SetReadLimit(customerReadLimit)
	alive := func() { c.ws.SetReadDeadline(time.Now().Add(customerPongWait)) }
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

func (c *customerConn) handle(ctx context.Context, data []byte) {
	var f customerFrame
	if err := DecodeJSON(data, &f); err != nil {
		c.fail("", err)
		return
	}
	s := c.h.s
	switch f.Type {
	case "ping":
		c.sendJSON(map[string]string{"type": "pong"})
	case "send":
		var m customerMessageView
		var err error
		if c.role == "agent" {
			if err := c.stillOperator(ctx); err != nil {
				c.fail(f.ClientMsgID, err)
				c.close(websocket.ClosePolicyViolation, "session ended")
				return
			}
			m, err = s.agentReply(ctx, c.agent, c.ip, int64(f.VisitorNo), f.Content)
		} else {
			m, err = s.visitorPost(ctx, c.vis, f.Content, c.ip)
		}
		if err != nil {
			c.fail(f.ClientMsgID, err)
			return
		}
		c.sendJSON(map[string]any{"type": "ack", "clientMsgId": f.ClientMsgID, "message": m})
	case "read":
		var err error
		if c.role == "agent" {
			var v storage.Visitor
			if f.VisitorNo == 0 {
				err = apierr.Required("visitorNo")
			} else if v, err = storage.VisitorByID(ctx, s.DB, int64(f.VisitorNo)); err == nil {
				err = s.customerMarkRead(ctx, v, true, nil)
			}
		} else {
			err = s.customerMarkRead(ctx, c.vis.Visitor, false, nil)
		}
		if err != nil {
			c.fail(f.ClientMsgID, contentStoreErr(err))
		}
	default:
		c.fail(f.ClientMsgID, apierr.Invalid("type"))
	}
}

// stillOperator re-checks an agent's token before each reply, so a signed
// out or demoted operator's socket stops answering.
func (c *customerConn) stillOperator(ctx context.Context) error {
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
func (c *customerConn) fail(clientMsgID string, err error) {
	e, known := asError(err)
	if !known {
		c.h.s.Log.Error("customer socket frame failed", "role", c.role, "err", err)
	}
	c.sendJSON(map[string]any{"type": "error", "clientMsgId": clientMsgID, "code": e.Code, "message": apierr.Translate(c.lang, e.Key, e.Args)})
}
