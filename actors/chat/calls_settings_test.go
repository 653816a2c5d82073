package chat

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"kj/internal/apierr"
	"kj/storage"
	"kj/storage/storagetest"
)

// privateOf is conv's (isPrivateChat, burnDuration) in c's list.
func (c *client) privateOf(conv string) (bool, int64) {
	c.t.Helper()
	for _, it := range c.conversations() {
		if it.ConversationID == conv {
			return it.IsPrivateChat, it.BurnDuration
		}
	}
	c.t.Fatalf("%s not in the list", conv)
	return false, 0
}

// waitPrivatePush waits for a conversation push showing conv's private
// chat as on.
func (c *client) waitPrivatePush(conv string, on bool, secs int64) {
	c.t.Helper()
	c.waitPush("OnConversationChanged", func(d string) bool {
		it := conversationIn(c.t, d, conv)
		return it != nil && it.IsPrivateChat == on && it.BurnDuration == secs
	})
}

// Private chat (burn after reading): a message sent while it is on goes,
// from the store and both users' history, burnDuration after the peer read
// it — by the sweep, on the engine's clock — including a message the
// reader "read" by sending; one sent before or after does not; the
// setting reaches both users' devices; groups and strangers are refused.
func TestPrivateChatBurnsAfterReading(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		alice, bob, carol := h.user("alice"), h.user("bob"), h.user("carol")
		a, a2, b, c := h.connect(alice), h.connect(alice), h.connect(bob), h.connect(carol)
		conv := singleConversationID(alice.id, bob.id)
		ctx := context.Background()

		a.text(bob.id, "", "before")
		b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "before") })
		if on, secs := b.privateOf(conv); on || secs != 30 {
			t.Fatalf("a new chat: private %v, %d s; want off, 30 s", on, secs)
		}

		a.ok(nil, "SetConversationPrivateChat", conv, true)
		for _, x := range []*client{a2, b} {
			x.waitPrivatePush(conv, true, 30)
		}
		b.ok(nil, "SetConversationBurnDuration", conv, 10)
		a2.waitPrivatePush(conv, true, 10)
		if on, secs := a.privateOf(conv); !on || secs != 10 {
			t.Fatalf("alice sees private %v, %d s", on, secs)
		}

		s1 := a.text(bob.id, "", "secret one")
		// An edit and a reaction of a message that burns go with it: the
		// edit notice holds the new text.
		a.ok(nil, "EditMessage", conv, s1.ClientMsgID, "secret one, edited")
		b.ok(nil, "AddMessageReaction", conv, s1.ClientMsgID, "👍")
		reply := b.text(alice.id, "", "secret reply")
		s2 := a.text(bob.id, "", "secret two") // alice's send reads bob's reply
		b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "secret two") })

		// Bob reads: alice's two burn 10 s later, not before.
		b.ok(nil, "MarkConversationMessageAsRead", conv)
		h.clock.Advance(9 * time.Second)
		if n := h.e.sweepBurns(); n != 0 {
			t.Fatalf("swept %d before the time", n)
		}
		h.clock.Advance(2 * time.Second)
		if n := h.e.sweepBurns(); n != 2 {
			t.Fatalf("swept %d, want alice's 2", n)
		}
		for _, x := range []*client{a, a2, b} {
			got := decode[MessagesBurned](t, x.waitPush("OnMessagesBurned", func(string) bool { return true }).Data)
			if got.ConversationID != conv || !slices.Equal(got.ClientMsgIDList, []string{s1.ClientMsgID, s2.ClientMsgID}) ||
				!slices.Equal(got.SeqList, []int64{s1.Seq, s2.Seq}) {
				t.Fatalf("%s heard %+v", x.u.Nickname, got)
			}
		}
		for _, x := range []*client{a, b} {
			if got := texts(x.history(conv, 20).MessageList); !slices.Equal(got, []string{"before", "secret reply"}) {
				t.Fatalf("%s's history after the burn: %q", x.u.Nickname, got)
			}
		}
		for _, id := range []string{s1.ClientMsgID, s2.ClientMsgID} {
			if _, err := storage.ChatMessageByClientID(ctx, db, conv, id); !errors.Is(err, storage.ErrNotFound) {
				t.Fatalf("burned message %s still in the store: %v", id, err)
			}
		}
		for what, q := range map[string]string{
			"edited text":   `SELECT COUNT(*) FROM chat_messages WHERE conversation_id = $1 AND content LIKE '%secret one, edited%'`,
			"reactions":     `SELECT COUNT(*) FROM chat_message_reactions WHERE conversation_id = $1`,
			"edits":         `SELECT COUNT(*) FROM chat_message_edits WHERE conversation_id = $1`,
			"their notices": `SELECT COUNT(*) FROM chat_messages WHERE conversation_id = $1 AND content_type IN (2901, 2902)`,
		} {
			var n int
			if err := db.QueryRow(ctx, q, conv).Scan(&n); err != nil || n != 0 {
				t.Fatalf("%s of a burned message left in the store: %d (%v)", what, n, err)
			}
		}
		// The list's latest message is no longer the burned one.
		a2.waitPush("OnConversationChanged", func(d string) bool {
			it := conversationIn(t, d, conv)
			return it != nil && strings.Contains(it.LatestMsg, "secret reply")
		})

		// Alice's send marked bob's reply read; her read turns it into a burn.
		a.ok(nil, "MarkConversationMessageAsRead", conv)
		h.clock.Advance(11 * time.Second)
		if n := h.e.sweepBurns(); n != 1 {
			t.Fatalf("swept %d, want bob's reply", n)
		}
		if _, err := storage.ChatMessageByClientID(ctx, db, conv, reply.ClientMsgID); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("bob's reply still in the store: %v", err)
		}

		// Off again: what is sent now stays after reading.
		b.ok(nil, "SetConversationPrivateChat", conv, false)
		a2.waitPrivatePush(conv, false, 10)
		a.text(bob.id, "", "after")
		b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "after") })
		b.ok(nil, "MarkConversationMessageAsRead", conv)
		h.clock.Advance(time.Hour)
		if n := h.e.sweepBurns(); n != 0 {
			t.Fatalf("swept %d after private chat ended", n)
		}
		if got := texts(b.history(conv, 20).MessageList); !slices.Equal(got, []string{"before", "after"}) {
			t.Fatalf("bob's history: %q", got)
		}

		// Refused, changing nothing.
		gid := a.group("private", storage.GroupTypeGroup, nil, []*testUser{bob}, verifyApply)
		gconv := groupConversationID(mustID(t, gid))
		a.fails(apierr.CodeChatPrivateSingleOnly, "SetConversationPrivateChat", gconv, true)
		a.fails(apierr.CodeChatPrivateSingleOnly, "SetConversationBurnDuration", gconv, 5)
		c.fails(apierr.CodeChatConvNotFound, "SetConversationPrivateChat", conv, true)
		a.fails(apierr.CodeChatBadArgument, "SetConversationBurnDuration", conv, 0)
		a.fails(apierr.CodeChatBadArgument, "SetConversationBurnDuration", conv, maxBurnSeconds+1)
		a.fails(apierr.CodeChatBadArgument, "SetConversationPrivateChat", conv, "yes")
		if on, secs := a.privateOf(conv); on || secs != 10 {
			t.Fatalf("after refusals: private %v, %d s", on, secs)
		}
	})
}

// Two nodes' sweeps (or a sweep racing itself) burn a message once: the
// burn row goes with the messages, and the second finds nothing to tell.
func TestBurnRunsOnce(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		alice, bob := h.user("alice"), h.user("bob")
		a, b := h.connect(alice), h.connect(bob)
		conv := singleConversationID(alice.id, bob.id)
		a.text(bob.id, "", "hello")
		a.ok(nil, "SetConversationPrivateChat", conv, true)
		a.ok(nil, "SetConversationBurnDuration", conv, 1)
		a.text(bob.id, "", "gone soon")
		b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "gone soon") })
		b.ok(nil, "MarkConversationMessageAsRead", conv)
		b.ok(nil, "MarkConversationMessageAsRead", conv) // nothing new: no second burn
		h.clock.Advance(2 * time.Second)
		ctx := context.Background()
		due, err := storage.DueChatBurns(ctx, db, h.clock.Now().UnixMilli(), 10)
		if err != nil || len(due) != 1 {
			t.Fatalf("due burns %+v, %v; want one", due, err)
		}
		if n := h.e.burn(ctx, due[0]) + h.e.burn(ctx, due[0]); n != 1 {
			t.Fatalf("the same burn carried out twice deleted %d", n)
		}
		if got := texts(b.history(conv, 10).MessageList); !slices.Equal(got, []string{"hello"}) {
			t.Fatalf("history %q", got)
		}
	})
}

// Do not disturb for everything is the user's: every device hears it and
// reads it back; a bad option changes nothing.
func TestGlobalRecvOpt(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		alice := h.user("alice")
		a1, a2 := h.connect(alice), h.connect(alice)
		a1.ok(nil, "SetGlobalRecvMessageOpt", 2)
		a2.waitPush("OnSelfInfoUpdated", func(d string) bool {
			return decode[SelfUserInfo](t, d).GlobalRecvMsgOpt == 2
		})
		a1.fails(apierr.CodeChatBadArgument, "SetGlobalRecvMessageOpt", 3)
		var self SelfUserInfo
		a2.ok(&self, "GetSelfUserInfo")
		if self.GlobalRecvMsgOpt != 2 || self.Nickname != "alice" {
			t.Fatalf("self info %+v", self)
		}
		// Another change of the user's info keeps it.
		a1.ok(nil, "SetSelfInfo", obj(map[string]any{"nickname": "alicia"}))
		a2.waitPush("OnSelfInfoUpdated", func(d string) bool {
			s := decode[SelfUserInfo](t, d)
			return s.Nickname == "alicia" && s.GlobalRecvMsgOpt == 2
		})
	})
}

// ResetConversationGroupAtType clears the @mark without reading: the
// unread count stays, the mark comes back with the next @message.
func TestResetGroupAtType(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		owner, bob := h.user("owner"), h.user("bob")
		o, b := h.connect(owner), h.connect(bob)
		gid := o.group("reset", storage.GroupTypeGroup, nil, []*testUser{bob}, verifyApply)
		conv := groupConversationID(mustID(t, gid))
		if r := o.atText(gid, "@bob look", bob.id); r.ErrCode != 0 {
			t.Fatalf("mention: %d %q", r.ErrCode, r.ErrMsg)
		}
		b.waitAtPush(conv, storage.ChatAtMe)
		b.ok(nil, "ResetConversationGroupAtType", conv)
		b.waitAtPush(conv, 0)
		for _, it := range b.conversations() {
			if it.ConversationID == conv && (it.GroupAtType != 0 || it.UnreadCount == 0) {
				t.Fatalf("after the reset: groupAtType %d, unread %d", it.GroupAtType, it.UnreadCount)
			}
		}
		if r := o.atText(gid, "@bob again", bob.id); r.ErrCode != 0 {
			t.Fatalf("mention: %d %q", r.ErrCode, r.ErrMsg)
		}
		b.waitAtPush(conv, storage.ChatAtMe)
		if at := b.atTypeOf(conv); at != storage.ChatAtMe {
			t.Fatalf("a new @message after the reset: groupAtType %d", at)
		}
	})
}
