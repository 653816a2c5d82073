package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/gorilla/websocket"

	"kj/auth"
	"kj/internal/bus"
	"kj/internal/clock"
	"kj/internal/presence"
	"kj/internal/testenv"
	"kj/storage"
)

const waitFor = 15 * time.Second

// harness is a chat engine on a real store, an in-process bus and a fake
// clock, served by an httptest server with the gateway at /ws and the API
// at /api.
type harness struct {
	t        *testing.T
	db       storage.DB
	clock    *clock.Fake
	bus      bus.Bus
	e        *Engine
	sessions *auth.Sessions
	system   *actor.ActorSystem
	srv      *httptest.Server
	api      http.Handler
	dataDir  string
	presence presence.Presence // nil: one of its own in memory
}

type harnessOpt func(*Config)

// APIForTest builds the /api handler the harness serves next to the
// gateway. api_test.go (package chat_test) sets it: httpapi imports this
// package, so only an external test package may import httpapi back.
var APIForTest func(db storage.DB, b bus.Bus, clk *clock.Fake, sessions *auth.Sessions, e *Engine, dataDir string) (http.Handler, error)

func newHarness(t *testing.T, db storage.DB, opts ...harnessOpt) *harness {
	t.Helper()
	h := &harness{t: t, db: db, clock: clock.NewFake(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)), bus: bus.NewMemory(), dataDir: t.TempDir()}
	return h.start(opts...)
}

// start builds an engine (again, after stop, to play a node restart) on
// the harness's store, bus and clock.
func (h *harness) start(opts ...harnessOpt) *harness {
	t := h.t
	h.system = actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.DiscardHandler)
	}))
	h.sessions = &auth.Sessions{DB: h.db, Bus: h.bus, Clock: h.clock, TokenTTL: 2 * time.Hour, JWTTTL: 720 * time.Hour}
	cfg := Config{NodeID: "test", ActorIdle: time.Minute}
	for _, o := range opts {
		o(&cfg)
	}
	pres := h.presence
	if pres == nil {
		pres = presence.NewMemory(h.clock)
	}
	h.e = New(Deps{DB: h.db, Bus: h.bus, Clock: h.clock, Sessions: h.sessions, Presence: pres, Actors: h.system}, cfg)
	if err := h.e.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if APIForTest == nil {
		t.Fatal("APIForTest is unset: api_test.go (package chat_test) sets it")
	}
	api, err := APIForTest(h.db, h.bus, h.clock, h.sessions, h.e, h.dataDir)
	if err != nil {
		t.Fatal(err)
	}
	h.api = api
	mux := http.NewServeMux()
	mux.Handle("/ws", h.e)
	mux.Handle("/api/", h.api)
	h.srv = httptest.NewServer(mux)
	t.Cleanup(h.stop)
	return h
}

func (h *harness) stop() {
	if h.srv == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	h.e.Drain(ctx)
	cancel()
	h.srv.Close()
	h.e.Close()
	h.system.Shutdown()
	h.srv = nil
}

type testUser struct {
	storage.User
	tok auth.Tokens
	id  string
}

var userSeq sync.Mutex
var userN int

// user creates an account and signs it in on the web platform.
func (h *harness) user(nick string) *testUser {
	h.t.Helper()
	userSeq.Lock()
	userN++
	n := userN
	userSeq.Unlock()
	ctx := context.Background()
	now := h.clock.Now().UnixMilli()
	u := storage.User{ID: storage.NewID(), Account: fmt.Sprintf("acct%d_%d", n, time.Now().UnixNano()%1e9), PasswordHash: "x",
		Nickname: nick, InviteCode: fmt.Sprintf("pro_%d_%d", n, time.Now().UnixNano()), CreatedAt: now, UpdatedAt: now}
	if err := storage.CreateUser(ctx, h.db, u); err != nil {
		h.t.Fatal(err)
	}
	return &testUser{User: u, tok: h.signIn(u.ID), id: u.IDString()}
}

// signIn starts a new sign-in of a user on the web platform and announces
// the ones it replaced, as /accountLogin does.
func (h *harness) signIn(id int64) auth.Tokens {
	h.t.Helper()
	ctx := context.Background()
	var tok auth.Tokens
	var replaced []int64
	err := h.db.Tx(ctx, func(tx storage.Tx) error {
		var err error
		tok, replaced, err = h.sessions.SignIn(ctx, tx, id, 5)
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	h.sessions.Announce(ctx, id, auth.ReasonReplaced, replaced...)
	return tok
}

// client is a test socket speaking the SDK's protocol.
type client struct {
	t      *testing.T
	h      *harness
	u      *testUser
	conn   *websocket.Conn
	mu     sync.Mutex
	frames []Reply
	closed error
	cond   *sync.Cond
	seq    int
}

func (h *harness) wsURL(u *testUser, token string) string {
	q := url.Values{"sendID": {u.id}, "token": {token}, "platformID": {"5"}, "operationID": {"op-login"}}
	return "ws" + strings.TrimPrefix(h.srv.URL, "http") + "/ws?" + q.Encode()
}

// dial opens a socket without logging in; setup runs before reading
// starts (to set ping handlers).
func (h *harness) dial(u *testUser, token string, setup ...func(*websocket.Conn)) *client {
	h.t.Helper()
	hdr := http.Header{"Accept-Language": {"en-US"}}
	conn, _, err := websocket.DefaultDialer.Dial(h.wsURL(u, token), hdr)
	if err != nil {
		h.t.Fatalf("dial: %v", err)
	}
	c := &client{t: h.t, h: h, u: u, conn: conn}
	c.cond = sync.NewCond(&c.mu)
	for _, f := range setup {
		f(conn)
	}
	go c.read()
	h.t.Cleanup(func() { conn.Close() })
	return c
}

// connect dials and logs in like the SDK.
func (h *harness) connect(u *testUser, setup ...func(*websocket.Conn)) *client {
	h.t.Helper()
	c := h.dial(u, u.tok.ChatToken, setup...)
	if r := c.call("Login", u.id, u.tok.ChatToken); r.ErrCode != 0 {
		h.t.Fatalf("login: %+v", r)
	}
	c.waitPush("OnConnectSuccess", nil)
	return c
}

func (c *client) read() {
	for {
		_, b, err := c.conn.ReadMessage()
		c.mu.Lock()
		if err != nil {
			c.closed = err
			c.cond.Broadcast()
			c.mu.Unlock()
			return
		}
		var r Reply
		if err := json.Unmarshal(b, &r); err != nil {
			c.closed = fmt.Errorf("bad frame %q: %v", b, err)
			c.cond.Broadcast()
			c.mu.Unlock()
			return
		}
		c.frames = append(c.frames, r)
		c.cond.Broadcast()
		c.mu.Unlock()
	}
}

// obj encodes an object argument the way the SDK does: a JSON string.
func obj(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// send writes a request without waiting; it returns the operationID.
func (c *client) send(name string, args ...any) string {
	c.t.Helper()
	if args == nil {
		args = []any{}
	}
	data, _ := json.Marshal(args)
	c.mu.Lock()
	c.seq++
	op := fmt.Sprintf("op-%d", c.seq)
	c.mu.Unlock()
	b, _ := json.Marshal(Request{ReqFuncName: name, OperationID: op, UserID: c.u.id, Data: string(data)})
	if err := c.conn.WriteMessage(websocket.TextMessage, b); err != nil {
		c.t.Fatalf("write %s: %v", name, err)
	}
	return op
}

// call sends a request and waits for its reply.
func (c *client) call(name string, args ...any) Reply {
	c.t.Helper()
	op := c.send(name, args...)
	return c.waitReply(op)
}

func (c *client) waitReply(op string) Reply {
	c.t.Helper()
	r, ok := c.wait(func(r Reply) bool { return r.OperationID == op }, true)
	if !ok {
		c.t.Fatalf("no reply to %s (closed: %v)", op, c.closed)
	}
	return r
}

// ok calls and fails the test on an error reply, decoding data into out.
func (c *client) ok(out any, name string, args ...any) {
	c.t.Helper()
	r := c.call(name, args...)
	if r.ErrCode != 0 {
		c.t.Fatalf("%s: errCode %d %q", name, r.ErrCode, r.ErrMsg)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(r.Data), out); err != nil {
			c.t.Fatalf("%s: data %q: %v", name, r.Data, err)
		}
	}
}

// fails calls and checks the error code.
func (c *client) fails(code int, name string, args ...any) Reply {
	c.t.Helper()
	r := c.call(name, args...)
	if r.ErrCode != code {
		c.t.Fatalf("%s: errCode %d %q, want %d", name, r.ErrCode, r.ErrMsg, code)
	}
	if r.ErrMsg == "" {
		c.t.Fatalf("%s: error without a message", name)
	}
	return r
}

// wait finds (and, when consume is set, removes) the first frame matching
// match, waiting for it.
func (c *client) wait(match func(Reply) bool, consume bool) (Reply, bool) {
	deadline := time.Now().Add(waitFor)
	timer := time.AfterFunc(waitFor, func() {
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		for i, r := range c.frames {
			if match(r) {
				if consume {
					c.frames = append(c.frames[:i:i], c.frames[i+1:]...)
				}
				return r, true
			}
		}
		if c.closed != nil || time.Now().After(deadline) {
			return Reply{}, false
		}
		c.cond.Wait()
	}
}

// waitPush waits for (and consumes) a push of event whose data matches.
func (c *client) waitPush(event string, match func(data string) bool) Reply {
	c.t.Helper()
	r, ok := c.wait(func(r Reply) bool {
		return r.Event == event && r.OperationID == "" && (match == nil || match(r.Data))
	}, true)
	if !ok {
		c.t.Fatalf("%s: no %s push (closed: %v, frames: %s)", c.u.Nickname, event, c.closed, c.describe())
	}
	return r
}

// hasPush reports whether a matching push arrived (without waiting).
func (c *client) hasPush(event string, match func(data string) bool) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.frames {
		if r.Event == event && r.OperationID == "" && (match == nil || match(r.Data)) {
			return true
		}
	}
	return false
}

func (c *client) describe() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	for _, r := range c.frames {
		fmt.Fprintf(&b, "[%s %d %.80s] ", r.Event, r.ErrCode, r.Data)
	}
	return b.String()
}

// waitClosed waits until the server closed the socket and returns the
// close error.
func (c *client) waitClosed() error {
	c.t.Helper()
	testenv.Eventually(c.t, waitFor, func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.closed != nil
	}, "%s: socket not closed", c.u.Nickname)
	return c.closed
}

func (c *client) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed != nil
}

// text creates and sends a text message to a user or group; it returns the
// stored message of the reply.
func (c *client) text(recv, group, text string) *Message {
	c.t.Helper()
	var m Message
	c.ok(&m, "CreateTextMessage", text)
	var stored Message
	c.ok(&stored, "SendMessageNotOss", obj(m), recv, group, obj(OfflinePush{}), false)
	return &stored
}

// sendRaw sends a message object as is.
func (c *client) sendRaw(m *Message, recv, group string) Reply {
	c.t.Helper()
	return c.call("SendMessageNotOss", obj(m), recv, group, obj(OfflinePush{}), false)
}

func decode[T any](t *testing.T, s string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("decode %q: %v", s, err)
	}
	return v
}

// conversations returns the caller's conversation list.
func (c *client) conversations() []ConversationItem {
	c.t.Helper()
	var list []ConversationItem
	c.ok(&list, "GetAllConversationList")
	return list
}

func (c *client) total() int64 {
	c.t.Helper()
	var n int64
	c.ok(&n, "GetTotalUnreadMsgCount")
	return n
}

// history pages a conversation from its end.
func (c *client) history(convID string, count int) AdvancedMessages {
	c.t.Helper()
	var res AdvancedMessages
	c.ok(&res, "GetAdvancedHistoryMessageList", obj(map[string]any{"conversationID": convID, "count": count, "startClientMsgID": "", "lastMinSeq": 0}))
	return res
}

func texts(ms []*Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		switch {
		case m.TextElem != nil:
			out[i] = m.TextElem.Content
		case m.NotificationElem != nil:
			out[i] = fmt.Sprint(m.ContentType)
		default:
			out[i] = fmt.Sprint(m.ContentType)
		}
	}
	return out
}
