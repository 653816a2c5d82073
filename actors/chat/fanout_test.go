package chat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"kj/internal/testenv"
	"kj/storage/storagetest"
)

// pushedView is what a client ends up showing from pushes alone: the last
// conversation item pushed for each conversation and the last unread total.
type pushedView struct {
	unread   map[string]int64
	latest   map[string]string // text of the latest message
	total    int64
	messages int // OnRecvNewMessage frames
	pushes   int // conversation pushes (OnNewConversation, OnConversationChanged)
}

func (c *client) pushedView() pushedView {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := pushedView{unread: map[string]int64{}, latest: map[string]string{}, total: -1}
	for _, r := range c.frames {
		if r.OperationID != "" {
			continue
		}
		switch r.Event {
		case "OnRecvNewMessage":
			v.messages++
		case "OnNewConversation", "OnConversationChanged":
			v.pushes++
			var items []ConversationItem
			if json.Unmarshal([]byte(r.Data), &items) != nil {
				continue
			}
			for _, it := range items {
				v.unread[it.ConversationID] = it.UnreadCount
				var m Message
				if json.Unmarshal([]byte(it.LatestMsg), &m) == nil && m.TextElem != nil {
					v.latest[it.ConversationID] = m.TextElem.Content
				}
			}
		case "OnTotalUnreadMessageCountChanged":
			v.total, _ = strconv.ParseInt(r.Data, 10, 64)
		}
	}
	return v
}

// TestCoalescedPushesEndInTheSameState sends a burst into a group and a
// 1:1 chat of one reader, with the reader's conversation and unread pushes
// coalesced over a window and without, and checks that what the reader's
// client ends up showing from its pushes is the same both ways and is
// what the store says: coalescing drops intermediate states, never the
// final one.
func TestCoalescedPushesEndInTheSameState(t *testing.T) {
	const n = 20
	run := func(t *testing.T, window, interval time.Duration) pushedView {
		h := newHarness(t, storagetest.SQLite(t), func(c *Config) {
			c.Coalesce, c.PushInterval = window, interval
			c.RequestRate, c.RequestBurst = 1000, 1000 // the burst is pipelined from one socket
		})
		owner, poster, reader := h.user("owner"), h.user("poster"), h.user("reader")
		co, cp, cr := h.connect(owner), h.connect(poster), h.connect(reader)
		gid := co.group("busy", 2, nil, []*testUser{poster, reader}, 0)
		// Friends, so the 1:1 messages are allowed.
		cp.ok(nil, "AddFriend", obj(map[string]any{"toUserID": reader.id, "reqMsg": "hi"}))
		cr.ok(nil, "AcceptFriendApplication", obj(map[string]any{"toUserID": poster.id, "handleMsg": "ok"}))
		var ops []string
		for i := range n {
			for _, to := range []struct{ recv, group, text string }{
				{"", gid, fmt.Sprintf("group %d", 2*i)}, {"", gid, fmt.Sprintf("group %d", 2*i+1)}, {reader.id, "", fmt.Sprintf("pair %d", i)},
			} {
				var m Message
				cp.ok(&m, "CreateTextMessage", to.text)
				ops = append(ops, cp.send("SendMessageNotOss", obj(m), to.recv, to.group, obj(OfflinePush{}), false))
			}
		}
		for _, op := range ops {
			if r := cp.waitReply(op); r.ErrCode != 0 {
				t.Fatalf("send: %d %s", r.ErrCode, r.ErrMsg)
			}
		}
		// The store's answer is what the pushes must end at.
		want := map[string]ConversationItem{}
		for _, it := range cr.conversations() {
			want[it.ConversationID] = it
		}
		wantTotal := cr.total()
		if wantTotal != 3*n {
			t.Fatalf("store's unread total %d, want %d", wantTotal, 3*n)
		}
		var v pushedView
		testenv.Eventually(t, waitFor, func() bool {
			v = cr.pushedView()
			if v.total != wantTotal || v.messages < 3*n {
				return false
			}
			for id, it := range want {
				if it.UnreadCount > 0 && v.unread[id] != it.UnreadCount {
					return false
				}
			}
			return true
		}, "reader's pushes never reached the store's state")
		return v
	}
	plain := run(t, -1, 0)
	coalesced := run(t, 50*time.Millisecond, 0)
	paced := run(t, 5*time.Millisecond, 40*time.Millisecond)
	t.Logf("conversation pushes for %d messages: %d without coalescing, %d with a 50 ms window, %d with 40 ms between pushes",
		3*n, plain.pushes, coalesced.pushes, paced.pushes)
	norm := func(v pushedView) string {
		// Conversation ids differ between the runs (new users, new
		// group); what the client shows per kind of conversation must not.
		var group, pair string
		for id, u := range v.unread {
			s := fmt.Sprintf("unread %d latest %q", u, v.latest[id])
			if id[:2] == "sg" {
				group = s
			} else {
				pair = s
			}
		}
		return fmt.Sprintf("group: %s; pair: %s; total %d; messages %d", group, pair, v.total, v.messages)
	}
	if norm(plain) != norm(coalesced) || norm(plain) != norm(paced) {
		t.Fatalf("final state differs:\nwithout coalescing: %s\nwith coalescing:    %s\nwith an interval:   %s",
			norm(plain), norm(coalesced), norm(paced))
	}
	// Messages: the texts plus two notices (the group was created, the
	// two became friends), which count as no unread.
	want := fmt.Sprintf("group: unread %d latest %q; pair: unread %d latest %q; total %d; messages %d",
		2*n, fmt.Sprintf("group %d", 2*n-1), n, fmt.Sprintf("pair %d", n-1), 3*n, 3*n+2)
	if norm(plain) != want {
		t.Fatalf("final state %s, want %s", norm(plain), want)
	}
}

// TestPostReachesAMemberInOneWrite checks what a group post costs each
// member's socket: the message, the conversation it changed and the unread
// total leave in one write to the kernel, not one (or, for a frame larger
// than gorilla's write buffer, two or more) per frame.
func TestPostReachesAMemberInOneWrite(t *testing.T) {
	h := newHarness(t, storagetest.SQLite(t), func(c *Config) { c.Coalesce = 20 * time.Millisecond })
	owner, poster, reader := h.user("owner"), h.user("poster"), h.user("reader")
	co, cp, cr := h.connect(owner), h.connect(poster), h.connect(reader)
	gid := co.group("one write", 2, nil, []*testUser{poster, reader}, 0)
	// The reader's conversations are loaded (and the group's notices
	// pushed) before the socket is watched.
	cr.conversations()
	cr.waitPush("OnNewConversation", nil)
	var sock *session
	h.e.live.sockets.each(func(_ int64, s *session) {
		if s.userID == reader.ID {
			sock = s
		}
	})
	if sock == nil {
		t.Fatal("the reader's socket is not on the node")
	}
	count := &countingConn{}
	sock.out.mu.Lock()
	count.Conn, sock.out.Conn = sock.out.Conn, count
	sock.out.sock = nil // every write through count
	sock.out.mu.Unlock()
	count.mu.Lock()
	before := len(count.writes)
	count.mu.Unlock()

	// Long enough that the conversation frame is past gorilla's 512-byte
	// write buffer (the message is spliced into it).
	text := strings.Repeat("one write for all three frames ", 40)
	var m Message
	cp.ok(&m, "CreateTextMessage", text)
	if r := cp.waitReply(cp.send("SendMessageNotOss", obj(m), "", gid, obj(OfflinePush{}), false)); r.ErrCode != 0 {
		t.Fatalf("post: %d %s", r.ErrCode, r.ErrMsg)
	}
	cr.waitPush("OnTotalUnreadMessageCountChanged", func(d string) bool { return d == "1" })
	count.mu.Lock()
	all := count.writes[before:]
	count.mu.Unlock()
	// The writes that carry the post's frames: its message and the
	// conversation (both hold its text) and the total it made 1. A push
	// left from the group's setup (its total of 0) may still be written
	// after the counting starts; it is not the post's.
	postTotal := []byte(`"event":"OnTotalUnreadMessageCountChanged","errCode":0,"errMsg":"","data":"1"`)
	var writes [][]byte
	var events []string
	for _, w := range all {
		if !bytes.Contains(w, []byte(text[:40])) && !bytes.Contains(w, postTotal) {
			continue
		}
		writes = append(writes, w)
		for _, ev := range []string{"OnRecvNewMessage", "OnConversationChanged", "OnTotalUnreadMessageCountChanged"} {
			if bytes.Contains(w, []byte(ev)) {
				events = append(events, ev)
			}
		}
	}
	if len(writes) != 1 || len(events) != 3 {
		t.Fatalf("the post reached the member's socket in %d writes carrying %v; want one write with all three frames", len(writes), events)
	}
}

// TestFlusherHoldsABusyUserForItsInterval drives the flusher's passes at
// chosen times: a user's first change is flushed at the first pass, a
// change within the interval after a flush waits for the interval's end
// (on the wheel, through passes that find nothing new), and a change after
// the interval, or a pass long after, is flushed at once.
func TestFlusherHoldsABusyUserForItsInterval(t *testing.T) {
	const ms = time.Millisecond
	var got []string
	at := ms
	f := makeFlusher(2*ms, 30*ms, func(u *userEntry) { got = append(got, fmt.Sprintf("%d@%d", u.id, at/ms)) })
	pass := func(now time.Duration, due ...*userEntry) {
		at = now
		f.flushDue(due, now)
	}
	a, b := &userEntry{id: 1}, &userEntry{id: 2}
	pass(10*ms, a)         // first change: flushed now
	pass(15*ms, a, b)      // a flushed 5 ms ago: held until 40; b is new
	pass(38 * ms)          // nothing due yet
	pass(40 * ms)          // a's interval has passed
	pass(75*ms, a)         // 35 ms after a's flush: at once
	pass(80*ms, a)         // held until 105 ...
	pass(10 * time.Second) // ... and a pass long after still flushes it
	want := "[1@10 2@15 1@40 1@75 1@10000]"
	if fmt.Sprint(got) != want {
		t.Fatalf("flushes %v, want %s", got, want)
	}
	if f.nHeld != 0 {
		t.Fatalf("%d users still held", f.nHeld)
	}
}

// TestFlusherTellsAQuietUserAtOnce: a user's change goes to its actor at
// once when the user was not flushed within the last window (a lone 1:1
// message does not wait out the window); a change within the window after
// that flush waits for the flusher's pass, as a burst's should.
func TestFlusherTellsAQuietUserAtOnce(t *testing.T) {
	var told []int64
	f := makeFlusher(5*time.Millisecond, 0, func(u *userEntry) { told = append(told, u.id) })
	u := &userEntry{id: 7}
	f.add(u)
	if fmt.Sprint(told) != "[7]" || len(f.due) != 0 {
		t.Fatalf("a quiet user's change: told %v, due %d; want told at once", told, len(f.due))
	}
	f.add(u) // the next change, within the window
	if len(told) != 1 || len(f.due) != 1 {
		t.Fatalf("a change within the window: told %v, due %d; want it gathered for the pass", told, len(f.due))
	}
	f.due = f.due[:0]
	f.start = f.start.Add(-10 * time.Millisecond) // a window and more later
	f.add(u)
	if fmt.Sprint(told) != "[7 7]" || len(f.due) != 0 {
		t.Fatalf("a change a window after the last flush: told %v, due %d; want told at once", told, len(f.due))
	}
}
