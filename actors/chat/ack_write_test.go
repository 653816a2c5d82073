package chat

import (
	"bytes"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"kj/internal/bus"
	"kj/internal/testenv"
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

// quietPair connects alice and bob after alice's first message to bob,
// and waits until alice's user is quiet again (her next change is flushed
// at once, not gathered): the two clients and alice's user.
func quietPair(t *testing.T, h *harness) (alice, bob *testUser, ca, cb *client, u *userEntry) {
	t.Helper()
	alice, bob = h.user("alice"), h.user("bob")
	ca, cb = h.connect(alice), h.connect(bob)
	ca.text(bob.id, "", "first")
	ca.waitPush("OnNewConversation", nil)
	cb.waitPush("OnRecvNewMessage", nil)
	u, ok := h.e.live.users.get(alice.ID)
	if !ok {
		t.Fatal("alice is not online on the node")
	}
	f := h.e.delivery.flushes
	testenv.Eventually(t, waitFor, func() bool { return f.quiet(u, time.Since(f.start)) }, "alice never became quiet")
	return alice, bob, ca, cb, u
}

// leftWith fails unless the write of writes that holds what (the first)
// also holds every one of with.
func leftWith(t *testing.T, writes [][]byte, what string, with ...string) {
	t.Helper()
	for _, w := range writes {
		if !bytes.Contains(w, []byte(what)) {
			continue
		}
		for _, o := range with {
			if !bytes.Contains(w, []byte(o)) {
				t.Fatalf("%s left without %s: %d writes, its write %.300s", what, o, len(writes), w)
			}
		}
		return
	}
	t.Fatalf("no write held %s (%d writes)", what, len(writes))
}

// ackOf is what an acknowledgement's frame holds of op.
func ackOf(op string) string { return `"operationID":"` + op + `"` }

const convFrame = `"event":"OnConversationChanged"`

// A quiet sender's acknowledgement and the conversation frame its message
// changed leave in one write, not one each.
func TestAckLeavesWithTheSendersConversationFrame(t *testing.T) {
	h := newHarness(t, storagetest.SQLite(t))
	alice, bob, ca, _, _ := quietPair(t, h)
	count := countWrites(t, h, alice)
	text := "second, acknowledged with its conversation"
	m := newText(t, ca, text)
	count.mu.Lock()
	before := len(count.writes)
	count.mu.Unlock()
	op := ca.send("SendMessageNotOss", obj(m), bob.id, "", obj(OfflinePush{}), false)
	if r := ca.waitReply(op); r.ErrCode != 0 {
		t.Fatalf("send: %d %s", r.ErrCode, r.ErrMsg)
	}
	ca.waitPush("OnConversationChanged", func(d string) bool { return strings.Contains(d, text) })
	count.mu.Lock()
	defer count.mu.Unlock()
	leftWith(t, count.writes[before:], ackOf(op), convFrame)
}

// An acknowledgement never waits for a coalescing window: when the
// sender's user was flushed lately, its next flush is gathered for the
// window's pass; the acknowledgement has it told at once instead, and
// goes out with the sender's conversation frame.
func TestAckIsNotHeldForTheCoalescingWindow(t *testing.T) {
	const window = 10 * time.Second
	h := newHarness(t, storagetest.SQLite(t), func(c *Config) { c.Coalesce = window })
	alice, bob := h.user("alice"), h.user("bob")
	ca, cb := h.connect(alice), h.connect(bob)
	// Bob's message flushes Alice's user at once (she was quiet) ...
	cb.text(alice.id, "", "hello alice")
	ca.waitPush("OnNewConversation", nil)
	// ... so her answer's flush waits for the window's pass; her
	// acknowledgement has it told at once, and leaves with its frame.
	count := countWrites(t, h, alice)
	start := time.Now()
	m := newText(t, ca, "hello bob")
	op := ca.send("SendMessageNotOss", obj(m), bob.id, "", obj(OfflinePush{}), false)
	if r := ca.waitReply(op); r.ErrCode != 0 {
		t.Fatalf("send: %d %s", r.ErrCode, r.ErrMsg)
	}
	if d := time.Since(start); d > window/2 {
		t.Fatalf("the acknowledgement took %v with a %v window", d, window)
	}
	count.mu.Lock()
	defer count.mu.Unlock()
	leftWith(t, count.writes, ackOf(op), convFrame)
}

// gatedConn records a socket's writes like countingConn, each write
// waiting until open is closed.
type gatedConn struct {
	countingConn
	open chan struct{}
}

func (c *gatedConn) Write(p []byte) (int, error) {
	<-c.open
	return c.countingConn.Write(p)
}

// A message frame waits for its flush even when the socket's writer is
// busy: the writer finishing another frame leaves it queued, and the
// message leaves with the conversation frame it changed, in one write. (In
// W2 a pair's two sends often meet: the writer used to write the peer's
// message alone, then the flush its conversation frame.)
func TestBusyWriterLeavesAHeldMessageForItsFlush(t *testing.T) {
	const window = 2 * time.Second
	h := newHarness(t, storagetest.SQLite(t), func(c *Config) { c.Coalesce = window })
	alice, bob := h.user("alice"), h.user("bob")
	ca, cb := h.connect(alice), h.connect(bob)
	// Bob was quiet: this flushes him at once, and his next flush waits
	// for the window's pass.
	ca.text(bob.id, "", "first")
	cb.waitPush("OnRecvNewMessage", nil)
	u, ok := h.e.live.users.get(bob.ID)
	if !ok {
		t.Fatal("bob is not online on the node")
	}
	var sock *session
	for _, s := range u.sockets() {
		sock = s
	}
	gate := &gatedConn{open: make(chan struct{})}
	sock.out.mu.Lock()
	gate.Conn, sock.out.Conn = sock.out.Conn, gate
	sock.out.sock = nil // every write through gate
	sock.out.mu.Unlock()
	// The writer takes a frame and waits in its write ...
	sock.push(businessFrame(bus.Notification{Key: "busy", Data: "{}"}))
	testenv.Eventually(t, waitFor, func() bool {
		sock.mu.Lock()
		defer sock.mu.Unlock()
		return sock.writing && sock.queue.len() == 0
	}, "the writer never took the frame")
	// ... while Alice's next message is queued, held for Bob's flush.
	text := "second, with its conversation"
	var m Message
	ca.ok(&m, "CreateTextMessage", text)
	op := ca.send("SendMessageNotOss", obj(m), bob.id, "", obj(OfflinePush{}), false)
	if r := ca.waitReply(op); r.ErrCode != 0 {
		t.Fatalf("send: %d %s", r.ErrCode, r.ErrMsg)
	}
	testenv.Eventually(t, waitFor, func() bool {
		sock.mu.Lock()
		defer sock.mu.Unlock()
		return sock.queue.len() == 1
	}, "the message never reached bob's socket")
	if f := h.e.delivery.flushes; f.quiet(u, time.Since(f.start)) {
		t.Fatal("bob became quiet: his flush would not wait for the window")
	}
	close(gate.open)
	cb.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, text) })
	gate.mu.Lock()
	defer gate.mu.Unlock()
	leftWith(t, gate.writes, text, convFrame)
}

// An acknowledgement waits for a flush of its sender that was told before
// it and has not started yet: that flush queues the sender's conversation
// frame and releases the socket after it. (In W2 a pair's two sends meet:
// the peer's message tells the sender's flush just before the
// acknowledgement is queued, and the acknowledgement used to go out alone,
// then the conversation frame: three writes for two.)
func TestAckWaitsForAFlushToldBeforeIt(t *testing.T) {
	h := newHarness(t, storagetest.SQLite(t))
	alice, bob, ca, cb, u := quietPair(t, h)
	sock := u.sockets()[0]
	count := countWrites(t, h, alice)
	// Made first: their replies would write what is queued.
	text := "alice's, acknowledged with her conversation"
	fromBob, marker, fromAlice := newText(t, cb, "from bob"), newText(t, cb, "marker"), newText(t, ca, text)

	// Alice's next flush is told and stalls before it starts; the
	// conversation actor's next send from Bob marks when it has finished
	// with everything before.
	flushStarts, open := make(chan struct{}), make(chan struct{})
	var stall, mark atomic.Bool
	marked := make(chan struct{})
	hook := func(kind string, msg any) {
		if e, ok := msg.(*userEntry); ok && kind == "user" && e == u && stall.CompareAndSwap(true, false) {
			close(flushStarts)
			<-open
		}
		if _, ok := msg.(*sendRequest); ok && kind == "conversation" && mark.CompareAndSwap(true, false) {
			close(marked)
		}
	}
	testHook.Store(&hook)
	var once sync.Once
	release := func() { once.Do(func() { close(open) }) }
	t.Cleanup(func() { release(); testHook.Store(nil) })
	stall.Store(true)
	cb.send("SendMessageNotOss", obj(fromBob), alice.id, "", obj(OfflinePush{}), false)
	<-flushStarts
	// Alice sends while her flush waits: the acknowledgement is queued
	// held behind Bob's message.
	op := ca.send("SendMessageNotOss", obj(fromAlice), bob.id, "", obj(OfflinePush{}), false)
	ack := []byte(ackOf(op))
	written := func() bool {
		count.mu.Lock()
		defer count.mu.Unlock()
		return slices.ContainsFunc(count.writes, func(w []byte) bool { return bytes.Contains(w, ack) })
	}
	testenv.Eventually(t, waitFor, func() bool {
		sock.mu.Lock()
		defer sock.mu.Unlock()
		return sock.queue.len() == 2 || written()
	}, "alice's acknowledgement was neither queued nor written")
	mark.Store(true)
	cb.send("SendMessageNotOss", obj(marker), alice.id, "", obj(OfflinePush{}), false)
	<-marked
	sock.mu.Lock()
	writing, queued := sock.writing, sock.queue.len()
	sock.mu.Unlock()
	if writing || queued != 2 || written() {
		t.Fatalf("the acknowledgement was released before alice's flush (writing %v, %d frames queued)", writing, queued)
	}
	release()
	if r := ca.waitReply(op); r.ErrCode != 0 {
		t.Fatalf("send: %d %s", r.ErrCode, r.ErrMsg)
	}
	count.mu.Lock()
	defer count.mu.Unlock()
	leftWith(t, count.writes, ackOf(op), convFrame, "from bob")
}

// newText makes a text message with the client's CreateTextMessage.
func newText(t *testing.T, c *client, text string) Message {
	t.Helper()
	var m Message
	c.ok(&m, "CreateTextMessage", text)
	return m
}
