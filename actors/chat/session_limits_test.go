package chat

import (
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"kj/storage/storagetest"
)

// closeText is the close reason of a socket's close error.
func closeText(err error) string {
	if ce, ok := err.(*websocket.CloseError); ok {
		return ce.Text
	}
	return ""
}

// flood writes n frames of size bytes as fast as the socket takes them;
// it stops at the first failed write (the server closed the socket).
func flood(c *client, n, size int) {
	frame := []byte(`{"reqFuncName":"GetLoginStatus","operationID":"f","data":"` + strings.Repeat("x", size) + `"}`)
	for i := 0; i < n; i++ {
		if err := c.conn.WriteMessage(websocket.TextMessage, frame); err != nil {
			return
		}
	}
}

func TestFramesOverTheRateAreDroppedUndecodedAndAFloodIsClosed(t *testing.T) {
	h := newHarness(t, storagetest.SQLite(t), func(c *Config) { c.RequestRate, c.RequestBurst = 1, 5 })
	alice := h.user("alice")
	var big atomic.Int64 // frames of the flood's size that reached the session actor
	hook := func(kind string, msg any) {
		if in, ok := msg.(*inbound); ok && kind == "session" && in.size > 50<<10 {
			big.Add(1)
		}
	}
	testHook.Store(&hook)
	t.Cleanup(func() { testHook.Store(nil) })
	a := h.dial(alice, alice.tok.ChatToken)
	flood(a, 40, 100<<10)
	err := a.waitClosed()
	if closeCode(err) != closeTooFast || closeText(err) != "Too many requests on this connection, please slow down" {
		t.Fatalf("a client flooding over the rate: %v; want close %d with its reason", err, closeTooFast)
	}
	// The burst (5) and what the rate refilled meanwhile reach the actor;
	// the rest are dropped on the read side.
	if n := big.Load(); n > 7 {
		t.Fatalf("%d of 40 flood frames reached the session actor, want at most 7", n)
	}
}

func TestASessionsQueueIsBounded(t *testing.T) {
	h := newHarness(t, storagetest.SQLite(t), func(c *Config) { c.InboundBytes = 512 << 10 })
	alice := h.user("alice")
	// The session actor stalls on the first frame, as behind a slow store.
	release := make(chan struct{})
	var once sync.Once
	hook := func(kind string, msg any) {
		if _, ok := msg.(*inbound); ok && kind == "session" {
			<-release
		}
	}
	testHook.Store(&hook)
	t.Cleanup(func() {
		once.Do(func() { close(release) })
		testHook.Store(nil)
	})
	a := h.dial(alice, alice.tok.ChatToken)
	flood(a, 30, 100<<10) // 3 MB within the request burst
	err := a.waitClosed()
	once.Do(func() { close(release) })
	if closeCode(err) != closeTooFast {
		t.Fatalf("a client filling a stalled session's queue: %v; want close %d", err, closeTooFast)
	}
}

func TestSocketsPerUserArePerPlatformAndCapped(t *testing.T) {
	h := newHarness(t, storagetest.SQLite(t), func(c *Config) { c.MaxSocketsPerUser = 2 })
	alice := h.user("alice")
	// Each socket answers a request before the next is dialled, so the
	// order in which they took their places is known.
	a1 := h.dial(alice, alice.tok.ChatToken)
	a1.call("GetLoginStatus")
	h.dial(alice, alice.tok.ChatToken).call("GetLoginStatus")
	over := h.dial(alice, alice.tok.ChatToken)
	err := over.waitClosed()
	if closeCode(err) != closeTooManySockets || closeText(err) != "Too many connections of this account on this device type" {
		t.Fatalf("third socket on one platform: %v; want close %d with its reason", err, closeTooManySockets)
	}
	if a1.isClosed() {
		t.Fatal("an open socket was closed by a new one over the cap")
	}
	// Another platform has places of its own.
	url := strings.Replace(h.wsURL(alice, alice.tok.ChatToken), "platformID=5", "platformID=2", 1)
	conn, _, err := websocket.DefaultDialer.Dial(url, http.Header{"Accept-Language": {"en-US"}})
	if err != nil {
		t.Fatal(err)
	}
	other := &client{t: t, h: h, u: alice, conn: conn}
	other.cond = sync.NewCond(&other.mu)
	go other.read()
	t.Cleanup(func() { conn.Close() })
	if r := other.call("GetLoginStatus"); r.ErrCode == 0 && other.isClosed() {
		t.Fatal("a socket on another platform was refused")
	}
	if other.isClosed() {
		t.Fatalf("a socket on another platform was closed: %v", other.closed)
	}
	// A socket that ends gives its place back.
	a1.conn.Close()
	testEventuallyDial(t, h, alice)
}

// testEventuallyDial dials until a socket of u on platform 5 answers a
// request instead of being closed over the cap.
func testEventuallyDial(t *testing.T, h *harness, u *testUser) {
	t.Helper()
	req := []byte(`{"reqFuncName":"GetLoginStatus","operationID":"again","data":"[]"}`)
	for i := 0; i < 100; i++ {
		conn, _, err := websocket.DefaultDialer.Dial(h.wsURL(u, u.tok.ChatToken), nil)
		if err != nil {
			t.Fatal(err)
		}
		_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		_ = conn.WriteMessage(websocket.TextMessage, req)
		_, _, err = conn.ReadMessage()
		conn.Close()
		if err == nil {
			return
		}
		if closeCode(err) != closeTooManySockets {
			t.Fatalf("dialling again: %v", err)
		}
		time.Sleep(20 * time.Millisecond) // the closed socket's end reaches the node
	}
	t.Fatal("the place of a closed socket was never given back")
}
