package chat

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"kj/internal/apierr"
	"kj/storage"
	"kj/storage/storagetest"
)

// atText creates an @message naming ids and sends it to a group.
func (c *client) atText(gid, text string, ids ...string) Reply {
	c.t.Helper()
	var m Message
	c.ok(&m, "CreateTextAtMessage", text, obj(ids), obj([]AtUserInfo{}), "")
	return c.sendRaw(&m, "", gid)
}

// waitAtPush waits for a conversation push (new or changed) showing conv
// with groupAtType at.
func (c *client) waitAtPush(conv string, at int) {
	c.t.Helper()
	_, ok := c.wait(func(r Reply) bool {
		if r.OperationID != "" || (r.Event != "OnConversationChanged" && r.Event != "OnNewConversation") {
			return false
		}
		var items []ConversationItem
		if json.Unmarshal([]byte(r.Data), &items) != nil {
			return false
		}
		for _, it := range items {
			if it.ConversationID == conv && it.GroupAtType == at {
				return true
			}
		}
		return false
	}, true)
	if !ok {
		c.t.Fatalf("%s: no push of %s with groupAtType %d (frames: %s)", c.u.Nickname, conv, at, c.describe())
	}
}

// atTypeOf is the groupAtType of conv in c's conversation list.
func (c *client) atTypeOf(conv string) int {
	c.t.Helper()
	for _, it := range c.conversations() {
		if it.ConversationID == conv {
			return it.GroupAtType
		}
	}
	c.t.Fatalf("%s not in the list", conv)
	return -1
}

func TestMentionsInGroups(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		owner, admin, bob, carol, stranger := h.user("owner"), h.user("admin"), h.user("bob"), h.user("carol"), h.user("stranger")
		o, a, b, c := h.connect(owner), h.connect(admin), h.connect(bob), h.connect(carol)
		gid := o.group("mentions", storage.GroupTypeGroup, []*testUser{admin}, []*testUser{bob, carol}, verifyApply)
		conv := groupConversationID(mustID(t, gid))

		// Refused, and nothing stored: a stranger named, and @all from an
		// ordinary member.
		if r := c.atText(gid, "@stranger hi", stranger.id); r.ErrCode != apierr.CodeChatMentionNotMember || r.ErrMsg == "" {
			t.Fatalf("mention of a non-member: %d %q", r.ErrCode, r.ErrMsg)
		}
		if r := c.atText(gid, "@all hi", atAllTag); r.ErrCode != apierr.CodeChatMentionAllDenied || r.ErrMsg == "" {
			t.Fatalf("@all from a member: %d %q", r.ErrCode, r.ErrMsg)
		}
		for _, m := range o.history(conv, 50).MessageList {
			if m.ContentType == TypeAtText {
				t.Fatalf("a refused @message was stored: %+v", m)
			}
		}

		if r := c.atText(gid, "@bob lunch?", bob.id); r.ErrCode != 0 {
			t.Fatalf("mention of a member: %d %q", r.ErrCode, r.ErrMsg)
		}
		got := b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "lunch?") })
		if !strings.Contains(got.Data, `"atUserList":["`+bob.id+`"]`) {
			t.Fatalf("bob's message has no atUserList: %s", got.Data)
		}
		b.waitAtPush(conv, storage.ChatAtMe)
		if at := b.atTypeOf(conv); at != storage.ChatAtMe {
			t.Fatalf("bob's groupAtType %d, want AtMe", at)
		}
		if at := a.atTypeOf(conv); at != 0 {
			t.Fatalf("admin's groupAtType %d, want none", at)
		}

		if r := a.atText(gid, "@all meeting", atAllTag); r.ErrCode != 0 {
			t.Fatalf("@all from an admin: %d %q", r.ErrCode, r.ErrMsg)
		}
		b.waitAtPush(conv, storage.ChatAtAllAtMe)
		if at := b.atTypeOf(conv); at != storage.ChatAtAllAtMe {
			t.Fatalf("bob's groupAtType %d, want AtAllAtMe", at)
		}
		if at := c.atTypeOf(conv); at != storage.ChatAtAll {
			t.Fatalf("carol's groupAtType %d, want AtAll", at)
		}
		if at := o.atTypeOf(conv); at != storage.ChatAtAll {
			t.Fatalf("owner's groupAtType %d, want AtAll", at)
		}

		// Reading clears it; so does sending (which reads).
		b.ok(nil, "MarkConversationMessageAsRead", conv)
		if at := b.atTypeOf(conv); at != 0 {
			t.Fatalf("bob's groupAtType after reading %d", at)
		}
		c.sendGroup(gid, "on my way")
		if at := c.atTypeOf(conv); at != 0 {
			t.Fatalf("carol's groupAtType after sending %d", at)
		}
		if at := o.atTypeOf(conv); at != storage.ChatAtAll {
			t.Fatalf("owner's groupAtType changed by others reading: %d", at)
		}
	})
}

// TestMentionsOnlineOnly: an @message sent with isOnlineOnly (relayed,
// never stored) obeys the rules of a stored one: an ordinary member's
// @all and a non-member named are refused and reach nobody; an admin's
// @all and a member named are relayed.
func TestMentionsOnlineOnly(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		owner, admin, bob, carol, stranger := h.user("owner"), h.user("admin"), h.user("bob"), h.user("carol"), h.user("stranger")
		o, a, b, c := h.connect(owner), h.connect(admin), h.connect(bob), h.connect(carol)
		h.connect(stranger)
		gid := o.group("relayed", storage.GroupTypeGroup, []*testUser{admin}, []*testUser{bob, carol}, verifyApply)
		b.waitPush("OnJoinedGroupAdded", nil)
		relay := func(cl *client, text string, ids ...string) Reply {
			t.Helper()
			var m Message
			cl.ok(&m, "CreateTextAtMessage", text, obj(ids), obj([]AtUserInfo{}), "")
			return cl.call("SendMessageNotOss", obj(m), "", gid, obj(OfflinePush{}), true)
		}
		if r := relay(c, "@stranger psst", stranger.id); r.ErrCode != apierr.CodeChatMentionNotMember || r.ErrMsg == "" {
			t.Fatalf("relayed mention of a non-member: %d %q", r.ErrCode, r.ErrMsg)
		}
		if r := relay(c, "@all psst", atAllTag); r.ErrCode != apierr.CodeChatMentionAllDenied || r.ErrMsg == "" {
			t.Fatalf("relayed @all from a member: %d %q", r.ErrCode, r.ErrMsg)
		}
		if r := relay(c, "@bob ok", bob.id); r.ErrCode != 0 {
			t.Fatalf("relayed mention of a member: %d %q", r.ErrCode, r.ErrMsg)
		}
		if r := relay(a, "@all now", atAllTag); r.ErrCode != 0 {
			t.Fatalf("relayed @all from an admin: %d %q", r.ErrCode, r.ErrMsg)
		}
		got := b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "@bob ok") })
		if !strings.Contains(got.Data, `"atUserList":["`+bob.id+`"]`) {
			t.Fatalf("relayed mention has no atUserList: %s", got.Data)
		}
		b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "@all now") })
		// The refused ones were sent first and reached nobody.
		if b.hasPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "psst") }) {
			t.Fatalf("a refused relayed @message was delivered: %s", b.describe())
		}
	})
}

func TestSearchAcrossConversations(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		alice, bob, carol := h.user("alice"), h.user("bob"), h.user("carol")
		a, b, c := h.connect(alice), h.connect(bob), h.connect(carol)
		// A second between sends, so newest first is a definite order.
		tick := func() { h.clock.Advance(time.Second) }
		b.text(alice.id, "", "Pizza tonight?")
		tick()
		a.text(bob.id, "", "no thanks")
		gid := a.group("food", storage.GroupTypeGroup, nil, []*testUser{bob, carol}, verifyApply)
		tick()
		c.sendGroup(gid, "pizza in the group")
		tick()
		// Between bob and carol only: alice must never find it.
		c.text(bob.id, "", "secret pizza")

		search := func(cl *client, kw string, page, count int) SearchResult {
			t.Helper()
			var res SearchResult
			cl.ok(&res, "SearchLocalMessages", obj(map[string]any{"conversationID": "", "keywordList": []string{kw},
				"pageIndex": page, "count": count}))
			return res
		}
		found := func(res SearchResult) string {
			var out []string
			for _, it := range res.SearchResultItems {
				out = append(out, fmt.Sprintf("%s:%s", it.ShowName, strings.Join(texts(it.MessageList), "|")))
			}
			return strings.Join(out, "; ")
		}
		res := search(a, "PIZZA", 1, 10)
		if got := found(res); got != "food:pizza in the group; bob:Pizza tonight?" || res.TotalCount != 2 {
			t.Fatalf("alice's search: %q (total %d)", got, res.TotalCount)
		}
		first := search(a, "pizza", 1, 1)
		if got := found(first); got != "food:pizza in the group" || first.TotalCount != 2 {
			t.Fatalf("page 1: %q (total %d: one more follows)", got, first.TotalCount)
		}
		second := search(a, "pizza", 2, 1)
		if got := found(second); got != "bob:Pizza tonight?" || second.TotalCount != 2 {
			t.Fatalf("page 2: %q (total %d)", got, second.TotalCount)
		}
		if got := found(search(b, "pizza", 1, 10)); got != "carol:secret pizza; food:pizza in the group; alice:Pizza tonight?" {
			t.Fatalf("bob's search: %q", got)
		}
		// A field name of the stored JSON is not text anyone typed.
		if got := found(search(a, "content", 1, 10)); got != "" {
			t.Fatalf("matched the JSON: %q", got)
		}
		a.fails(apierr.CodeChatBadArgument, "SearchLocalMessages", obj(map[string]any{"conversationID": "", "keywordList": []string{" "}}))
	})
}
