package chat

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"kj/storage/storagetest"
)

// countWrites replaces the connection under u's socket on the node with
// one that records each write.
func countWrites(t *testing.T, h *harness, u *testUser) *countingConn {
	t.Helper()
	var sock *session
	h.e.live.sockets.each(func(_ int64, s *session) {
		if s.userID == u.ID {
			sock = s
		}
	})
	if sock == nil {
		t.Fatalf("%s has no socket on the node", u.Nickname)
	}
	count := &countingConn{}
	sock.out.mu.Lock()
	count.Conn, sock.out.Conn = sock.out.Conn, count
	sock.out.sock = nil // every write through count
	sock.out.mu.Unlock()
	return count
}

// A quiet sender's acknowledgement and the conversation frame its message
// changed leave in one write, not one each.
func TestAckLeavesWithTheSendersConversationFrame(t *testing.T) {
	h := newHarness(t, storagetest.SQLite(t))
	alice, bob := h.user("alice"), h.user("bob")
	ca, cb := h.connect(alice), h.connect(bob)
	ca.text(bob.id, "", "first")
	ca.waitPush("OnNewConversation", nil)
	cb.waitPush("OnRecvNewMessage", nil)
	u, ok := h.e.live.users.get(alice.ID)
	if !ok {
		t.Fatal("alice is not online on the node")
	}
	// Quiet again: the next change is flushed at once, not gathered.
	f := h.e.delivery.flushes
	for deadline := time.Now().Add(waitFor); !f.quiet(u, time.Since(f.start)); {
		if time.Now().After(deadline) {
			t.Fatal("alice never became quiet")
		}
		time.Sleep(time.Millisecond)
	}
	count := countWrites(t, h, alice)
	text := "second, acknowledged with its conversation"
	var m Message
	ca.ok(&m, "CreateTextMessage", text)
	count.mu.Lock()
	before := len(count.writes)
	count.mu.Unlock()
	op := ca.send("SendMessageNotOss", obj(m), bob.id, "", obj(OfflinePush{}), false)
	if r := ca.waitReply(op); r.ErrCode != 0 {
		t.Fatalf("send: %d %s", r.ErrCode, r.ErrMsg)
	}
	ca.waitPush("OnConversationChanged", func(d string) bool { return strings.Contains(d, text) })
	count.mu.Lock()
	writes := count.writes[before:]
	count.mu.Unlock()
	ack := []byte(`"operationID":"` + op + `"`)
	for _, w := range writes {
		if bytes.Contains(w, ack) {
			if !bytes.Contains(w, []byte(`"event":"OnConversationChanged"`)) {
				t.Fatalf("the acknowledgement left without the conversation frame: %d writes, the ack's %.200s", len(writes), w)
			}
			return
		}
	}
	t.Fatalf("no write held the acknowledgement (%d writes)", len(writes))
}

// An acknowledgement never waits for a coalescing window: when the
// sender's user was flushed lately, its next flush is gathered for the
// window's pass, and the acknowledgement goes out on its own at once.
func TestAckIsNotHeldForTheCoalescingWindow(t *testing.T) {
	const window = 10 * time.Second
	h := newHarness(t, storagetest.SQLite(t), func(c *Config) { c.Coalesce = window })
	alice, bob := h.user("alice"), h.user("bob")
	ca, cb := h.connect(alice), h.connect(bob)
	// Bob's message flushes Alice's user at once (she was quiet) ...
	cb.text(alice.id, "", "hello alice")
	ca.waitPush("OnNewConversation", nil)
	// ... so her answer's flush waits for the window's pass.
	start := time.Now()
	ca.text(bob.id, "", "hello bob")
	if d := time.Since(start); d > window/2 {
		t.Fatalf("the acknowledgement took %v with a %v window", d, window)
	}
}
