package chat

import (
	"strings"
	"testing"
	"time"

	"kj/internal/apierr"
	"kj/storage"
	"kj/storage/storagetest"
)

// noticeDetail decodes the detail of a pushed notice.
func noticeDetail[T any](t *testing.T, data string) (Message, T) {
	t.Helper()
	m := decode[Message](t, data)
	if m.NotificationElem == nil {
		t.Fatalf("no notification element in %s", data)
	}
	return m, decode[T](t, m.NotificationElem.Detail)
}

func TestReactionsLiveOnPullAndFolded(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		alice, bob := h.user("alice"), h.user("bob")
		a, b := h.connect(alice), h.connect(bob)
		conv := singleConversationID(alice.id, bob.id)
		m := a.text(bob.id, "", "lunch?")
		b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, m.ClientMsgID) })
		b.ok(nil, "MarkConversationMessageAsRead", conv)
		before := b.total()

		// Bob reacts: both see a 2901 notice with the next seq and the counts.
		var after []MessageReaction
		b.ok(&after, "AddMessageReaction", conv, m.ClientMsgID, "👍")
		if len(after) != 1 || after[0].Count != 1 || after[0].UserIDList[0] != bob.id {
			t.Fatalf("answer %+v", after)
		}
		n, d := noticeDetail[ReactionNotice](t, a.waitPush("OnRecvNewMessage", noticeOf(NoticeReaction)).Data)
		if n.Seq != m.Seq+1 || d.ClientMsgID != m.ClientMsgID || d.Seq != m.Seq || d.Emoji != "👍" || !d.Add || d.UserID != bob.id {
			t.Fatalf("notice %+v detail %+v", n, d)
		}
		// Alice adds the same emoji, then another; a repeat changes nothing.
		// (The clock moves: reactions are listed in the order they came.)
		h.clock.Advance(time.Millisecond)
		a.ok(nil, "AddMessageReaction", conv, m.ClientMsgID, "👍")
		h.clock.Advance(time.Millisecond)
		a.ok(nil, "AddMessageReaction", conv, m.ClientMsgID, "❤️")
		a.ok(&after, "AddMessageReaction", conv, m.ClientMsgID, "❤️")
		if len(after) != 2 || after[0].Count != 2 || after[0].UserIDList[0] != bob.id || after[0].UserIDList[1] != alice.id || after[1].Emoji != "❤️" {
			t.Fatalf("after alice %+v", after)
		}
		// A reaction is not unread and does not become the latest message.
		if got := b.total(); got != before {
			t.Fatalf("reactions counted as unread: %d -> %d", before, got)
		}
		if list := b.conversations(); !strings.Contains(list[0].LatestMsg, m.ClientMsgID) || list[0].UnreadCount != 0 {
			t.Fatalf("conversation after reactions %+v", list[0])
		}

		// The page folds the current state into the message; the notices
		// are in it with their seqs (nothing is skipped: seqs stay gapless).
		page := b.history(conv, 10)
		if len(page.MessageList) != 4 {
			t.Fatalf("page %v", texts(page.MessageList))
		}
		got := page.MessageList[0]
		if len(got.Reactions) != 2 || got.Reactions[0].Count != 2 || got.Reactions[1].Count != 1 {
			t.Fatalf("folded reactions %+v", got.Reactions)
		}
		for i, x := range page.MessageList {
			if x.Seq != m.Seq+int64(i) {
				t.Fatalf("seqs %d at %d", x.Seq, i)
			}
		}

		// Offline: bob leaves, alice takes her thumb back, bob catches up by seq.
		last := page.MessageList[3].Seq
		b.conn.Close()
		a.ok(&after, "DeleteMessageReaction", conv, m.ClientMsgID, "👍")
		if len(after) != 2 || after[0].Count != 1 {
			t.Fatalf("after taking back %+v", after)
		}
		a.ok(nil, "DeleteMessageReaction", conv, m.ClientMsgID, "🎉") // never there: no notice
		b = h.connect(bob)
		var caught AdvancedMessages
		b.ok(&caught, "GetAdvancedHistoryMessageListReverse", obj(map[string]any{"conversationID": conv, "count": 10, "lastMinSeq": last}))
		if len(caught.MessageList) != 1 || caught.MessageList[0].Seq != last+1 || caught.MessageList[0].ContentType != NoticeReaction {
			t.Fatalf("catch-up %+v", caught.MessageList)
		}
		removed := decode[ReactionNotice](t, caught.MessageList[0].NotificationElem.Detail)
		if removed.Add || removed.UserID != alice.id || removed.Reactions[0].Count != 1 {
			t.Fatalf("removal %+v", removed)
		}

		// Bad input changes nothing.
		b.fails(apierr.CodeChatBadArgument, "AddMessageReaction", conv, m.ClientMsgID, "ok")
		b.fails(apierr.CodeChatBadArgument, "AddMessageReaction", conv, m.ClientMsgID, "")
		b.fails(apierr.CodeChatMessageNotFound, "AddMessageReaction", conv, "nosuchid", "👍")
		b.fails(apierr.CodeChatMessageNotFound, "AddMessageReaction", conv, caught.MessageList[0].ClientMsgID, "👍") // a notice
		carol := h.connect(h.user("carol"))
		carol.fails(apierr.CodeChatConvNotFound, "AddMessageReaction", conv, m.ClientMsgID, "👍")
		if page := b.history(conv, 10); len(page.MessageList) != 5 {
			t.Fatalf("a refused reaction wrote: %v", texts(page.MessageList))
		}

		// A block refuses reactions both ways, as it refuses sends.
		b.ok(nil, "AddBlack", alice.id, "")
		a.fails(apierr.CodeChatBlacklisted, "AddMessageReaction", conv, m.ClientMsgID, "😀")
		b.fails(apierr.CodeChatBlacklisted, "AddMessageReaction", conv, m.ClientMsgID, "😀")
	})
}

func TestReactionLimitAndChannel(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		owner, member := h.user("owner"), h.user("member")
		o, m := h.connect(owner), h.connect(member)
		gid := o.group("news", storage.GroupTypeChannel, nil, []*testUser{member}, verifyApply)
		gconv := groupConversationID(mustID(t, gid))
		post := decode[Message](t, o.sendGroup(gid, "news!").Data)
		// A channel's member may not post but may react.
		m.fails(apierr.CodeChatChannelReadOnly, "EditMessage", gconv, post.ClientMsgID, "x")
		for _, e := range []string{"😀", "😃", "😄", "😁", "😆", "😅", "🤣", "😂", "🙂", "🙃", "😉", "😊", "😇", "🥰", "😍", "🤩", "😘", "😗", "😚", "😙"} {
			m.ok(nil, "AddMessageReaction", gconv, post.ClientMsgID, e)
		}
		m.fails(apierr.CodeChatReactionLimit, "AddMessageReaction", gconv, post.ClientMsgID, "🤔")
		o.ok(nil, "AddMessageReaction", gconv, post.ClientMsgID, "😀") // an emoji already there
	})
}

func TestEditsLiveOnPullAndRules(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db, func(c *Config) { c.EditWindow = 10 * time.Minute })
		alice, bob, carol := h.user("alice"), h.user("bob"), h.user("carol")
		a, b, c := h.connect(alice), h.connect(bob), h.connect(carol)
		conv := singleConversationID(alice.id, bob.id)
		m := a.text(bob.id, "", "see you at 5")

		var edited Message
		a.ok(&edited, "EditMessage", conv, m.ClientMsgID, "see you at 6")
		if edited.TextElem.Content != "see you at 6" || edited.EditTime == 0 || edited.Seq != m.Seq {
			t.Fatalf("answer %+v", edited)
		}
		n, d := noticeDetail[EditNotice](t, b.waitPush("OnRecvNewMessage", noticeOf(NoticeEdit)).Data)
		if n.Seq != m.Seq+1 || d.ClientMsgID != m.ClientMsgID || d.TextElem.Content != "see you at 6" || d.EditTime != edited.EditTime || d.EditorID != alice.id {
			t.Fatalf("notice %+v detail %+v", n, d)
		}
		// The history and the conversation list show the new text.
		page := b.history(conv, 10)
		if got := page.MessageList[0]; got.TextElem.Content != "see you at 6" || got.EditTime != edited.EditTime {
			t.Fatalf("history %+v", got)
		}
		if list := b.conversations(); !strings.Contains(list[0].LatestMsg, "see you at 6") || list[0].UnreadCount != 1 {
			t.Fatalf("conversation %+v", list[0])
		}

		// Refused: someone else's message, a bad text, not text, too late.
		b.fails(apierr.CodeChatEditDenied, "EditMessage", conv, m.ClientMsgID, "mine now")
		a.fails(apierr.CodeChatBadMessage, "EditMessage", conv, m.ClientMsgID, "   ")
		a.fails(apierr.CodeChatBadMessage, "EditMessage", conv, m.ClientMsgID, strings.Repeat("x", maxTextRunes+1))
		c.fails(apierr.CodeChatConvNotFound, "EditMessage", conv, m.ClientMsgID, "hi")
		var face Message
		a.ok(&face, "CreateFaceMessage", 1, "")
		face = decode[Message](t, a.sendRaw(&face, bob.id, "").Data)
		a.fails(apierr.CodeChatEditDenied, "EditMessage", conv, face.ClientMsgID, "text")
		h.clock.Advance(11 * time.Minute)
		a.fails(apierr.CodeChatEditTooLate, "EditMessage", conv, m.ClientMsgID, "see you at 7")
		if got := b.history(conv, 10).MessageList[0]; got.TextElem.Content != "see you at 6" {
			t.Fatalf("a refused edit changed the text: %+v", got)
		}

		// Group rules: a muted member and one who left may not edit.
		gid := a.group("team", storage.GroupTypeGroup, nil, []*testUser{bob, carol}, verifyApply)
		gconv := groupConversationID(mustID(t, gid))
		said := decode[Message](t, c.sendGroup(gid, "carol says").Data)
		a.ok(nil, "ChangeGroupMemberMute", gid, carol.id, 60)
		c.fails(apierr.CodeChatMuted, "EditMessage", gconv, said.ClientMsgID, "carol said")
		c.fails(apierr.CodeChatMuted, "AddMessageReaction", gconv, said.ClientMsgID, "👍")
		a.ok(nil, "ChangeGroupMemberMute", gid, carol.id, 0)
		c.ok(nil, "EditMessage", gconv, said.ClientMsgID, "carol said")
		a.ok(nil, "KickGroupMember", gid, "", obj([]string{carol.id}))
		c.fails(apierr.CodeChatNotMember, "EditMessage", gconv, said.ClientMsgID, "still me")
		c.fails(apierr.CodeChatNotMember, "AddMessageReaction", gconv, said.ClientMsgID, "👍")
		b.ok(nil, "AddMessageReaction", gconv, said.ClientMsgID, "👍")
		var found SearchResult
		b.ok(&found, "FindMessageList", obj([]map[string]any{{"conversationID": gconv, "clientMsgIDList": []string{said.ClientMsgID}}}))
		got := found.FindResultItems[0].MessageList[0]
		if got.TextElem.Content != "carol said" || got.EditTime == 0 || len(got.Reactions) != 1 {
			t.Fatalf("found %+v", got)
		}
	})
}

func TestValidEmoji(t *testing.T) {
	for s, want := range map[string]bool{
		"👍": true, "❤️": true, "👨‍👩‍👧": true, "1️⃣": true, "🇲🇾": true,
		"": false, "ok": false, "a👍": false, "👍 ": false, "\u0007": false, strings.Repeat("👍", 9): false,
	} {
		if got := validEmoji(s); got != want {
			t.Errorf("validEmoji(%q) = %v, want %v", s, got, want)
		}
	}
}
