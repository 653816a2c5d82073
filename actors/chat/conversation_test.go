package chat

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"kj/internal/apierr"
	"kj/storage"
	"kj/storage/storagetest"
)

func TestOneToOneChatUnreadAndMarkRead(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		alice, bob := h.user("alice"), h.user("bob")
		a, b := h.connect(alice), h.connect(bob)
		convID := singleConversationID(alice.id, bob.id)

		m := a.text(bob.id, "", "hello bob")
		if m.Seq != 1 || m.Status != statusSent || m.ServerMsgID == "" || m.SendTime == 0 || m.SessionType != sessionSingle {
			t.Fatalf("stored message %+v", m)
		}
		got := decode[Message](t, b.waitPush("OnRecvNewMessage", nil).Data)
		if got.ClientMsgID != m.ClientMsgID || got.TextElem.Content != "hello bob" || got.SendID != alice.id || got.SenderNickname != "alice" {
			t.Fatalf("bob received %+v", got)
		}
		nc := decode[[]ConversationItem](t, b.waitPush("OnNewConversation", nil).Data)
		if len(nc) != 1 || nc[0].ConversationID != convID || nc[0].UnreadCount != 1 || nc[0].ShowName != "alice" || nc[0].UserID != alice.id {
			t.Fatalf("bob's new conversation %+v", nc)
		}
		if n := decode[int64](t, b.waitPush("OnTotalUnreadMessageCountChanged", nil).Data); n != 1 {
			t.Fatalf("bob's total %d", n)
		}
		// The sending socket gets the reply, not a push of its own message.
		if a.hasPush("OnRecvNewMessage", nil) {
			t.Fatal("sender's socket got its own message pushed")
		}

		a.text(bob.id, "", "second")
		b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "second") })
		b.waitPush("OnConversationChanged", func(d string) bool { return decode[[]ConversationItem](t, d)[0].UnreadCount == 2 })
		if n := b.total(); n != 2 {
			t.Fatalf("total %d, want 2", n)
		}
		list := b.conversations()
		if len(list) != 1 || list[0].UnreadCount != 2 || !strings.Contains(list[0].LatestMsg, "second") || list[0].MaxSeq != 2 {
			t.Fatalf("bob's list %+v", list)
		}
		if list := a.conversations(); len(list) != 1 || list[0].UnreadCount != 0 || list[0].ShowName != "bob" {
			t.Fatalf("alice's list %+v", list)
		}

		b.ok(nil, "MarkConversationMessageAsRead", convID)
		b.waitPush("OnConversationChanged", func(d string) bool { return decode[[]ConversationItem](t, d)[0].UnreadCount == 0 })
		if n := decode[int64](t, b.waitPush("OnTotalUnreadMessageCountChanged", func(d string) bool { return d == "0" }).Data); n != 0 {
			t.Fatalf("total after read %d", n)
		}
		if n := b.total(); n != 0 {
			t.Fatalf("total %d after mark read", n)
		}
		// Replying marks read for the replier, and history is in seq order.
		b.text(alice.id, "", "hi alice")
		a.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "hi alice") })
		res := b.history(convID, 10)
		if got := texts(res.MessageList); fmt.Sprint(got) != "[hello bob second hi alice]" || !res.IsEnd {
			t.Fatalf("history %v end=%v", got, res.IsEnd)
		}
		// Someone else's conversation is refused.
		carol := h.user("carol")
		c := h.connect(carol)
		c.fails(apierr.CodeChatConvNotFound, "MarkConversationMessageAsRead", convID)
		c.fails(apierr.CodeChatConvNotFound, "GetAdvancedHistoryMessageList", obj(map[string]any{"conversationID": convID, "count": 10}))
	})
}

// Do not disturb: a muted conversation keeps its unread count in the list
// but leaves the unread total (the tab badge) alone; the option reaches the
// user's other sockets, and unmuting counts it again.
func TestDoNotDisturbKeepsUnreadOutOfTotal(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		alice, bob, carol := h.user("alice"), h.user("bob"), h.user("carol")
		a, c := h.connect(alice), h.connect(carol)
		b, b2 := h.connect(bob), h.connect(bob)
		muted := singleConversationID(alice.id, bob.id)

		a.text(bob.id, "", "first")
		b.waitPush("OnTotalUnreadMessageCountChanged", func(d string) bool { return d == "1" })
		b.ok(nil, "SetConversationRecvMessageOpt", muted, 2)
		b2.waitPush("OnConversationChanged", func(d string) bool {
			l := decode[[]ConversationItem](t, d)
			return l[0].ConversationID == muted && l[0].RecvMsgOpt == 2
		})
		b.waitPush("OnTotalUnreadMessageCountChanged", func(d string) bool { return d == "0" })

		a.text(bob.id, "", "second")
		b.waitPush("OnConversationChanged", func(d string) bool { return decode[[]ConversationItem](t, d)[0].UnreadCount == 2 })
		if n := b.total(); n != 0 {
			t.Fatalf("total %d with only a muted conversation unread", n)
		}
		c.text(bob.id, "", "from carol")
		b.waitPush("OnTotalUnreadMessageCountChanged", func(d string) bool { return d == "1" })
		list := b2.conversations()
		byID := map[string]ConversationItem{}
		for _, it := range list {
			byID[it.ConversationID] = it
		}
		if m := byID[muted]; m.UnreadCount != 2 || m.RecvMsgOpt != 2 {
			t.Fatalf("muted conversation %+v", m)
		}
		if n := b2.total(); n != 1 {
			t.Fatalf("total %d, want carol's 1", n)
		}

		b.ok(nil, "SetConversationRecvMessageOpt", muted, 0)
		b2.waitPush("OnTotalUnreadMessageCountChanged", func(d string) bool { return d == "3" })
		b.fails(apierr.CodeChatBadArgument, "SetConversationRecvMessageOpt", muted, 3)
		c.fails(apierr.CodeChatConvNotFound, "SetConversationRecvMessageOpt", muted, 2)
		if n := b.total(); n != 3 {
			t.Fatalf("total %d after a refused change", n)
		}
	})
}

// Pinning on one socket moves the conversation first on the user's other
// sockets; the peer's list is untouched.
func TestPinReachesOtherSockets(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		alice, bob, carol := h.user("alice"), h.user("bob"), h.user("carol")
		a, c := h.connect(alice), h.connect(carol)
		b, b2 := h.connect(bob), h.connect(bob)
		old := singleConversationID(alice.id, bob.id)
		a.text(bob.id, "", "older")
		b.waitPush("OnRecvNewMessage", nil)
		h.clock.Advance(time.Minute)
		c.text(bob.id, "", "newer")
		b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "newer") })
		if l := b2.conversations(); l[0].ConversationID == old {
			t.Fatalf("older conversation first before pinning: %+v", l)
		}
		b.ok(nil, "PinConversation", old, true)
		b2.waitPush("OnConversationChanged", func(d string) bool {
			l := decode[[]ConversationItem](t, d)
			return l[0].ConversationID == old && l[0].IsPinned
		})
		if l := b2.conversations(); l[0].ConversationID != old || !l[0].IsPinned || l[1].IsPinned {
			t.Fatalf("pinned conversation not first: %+v", l)
		}
		if l := a.conversations(); l[0].IsPinned {
			t.Fatalf("alice sees bob's pin: %+v", l)
		}
		c.fails(apierr.CodeChatConvNotFound, "PinConversation", old, true)
	})
}
