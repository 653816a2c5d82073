package chat

import (
	"slices"
	"strings"
	"testing"
	"time"

	"kj/internal/apierr"
	"kj/internal/clock"
	"kj/internal/presence"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

func TestReadReceiptsOneToOne(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		alice, bob, carol := h.user("alice"), h.user("bob"), h.user("carol")
		a, b, c := h.connect(alice), h.connect(bob), h.connect(carol)
		conv := singleConversationID(alice.id, bob.id)

		m1 := a.text(bob.id, "", "one")
		m2 := a.text(bob.id, "", "two")
		b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "two") })
		if got := a.history(conv, 10).MessageList; got[0].IsRead || got[1].IsRead {
			t.Fatalf("unread messages show read: %+v", got)
		}

		b.ok(nil, "MarkConversationMessageAsRead", conv)
		rs := decode[[]ReceiptInfo](t, a.waitPush("OnRecvC2CReadReceipt", nil).Data)
		if len(rs) != 1 || rs[0].UserID != bob.id || rs[0].SessionType != sessionSingle || rs[0].ContentType != contentHasRead ||
			!slices.Equal(rs[0].MsgIDList, []string{m1.ClientMsgID, m2.ClientMsgID}) || rs[0].ReadTime == 0 {
			t.Fatalf("receipt %+v", rs)
		}
		if got := a.history(conv, 10).MessageList; !got[0].IsRead || !got[1].IsRead {
			t.Fatalf("read messages show unread: %+v", got)
		}
		// Bob's reply is unread for Alice until she reads it; her reading
		// tells Bob, naming only his message.
		r := b.text(alice.id, "", "three")
		a.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "three") })
		if got := a.history(conv, 10).MessageList; got[2].IsRead {
			t.Fatalf("alice's view of bob's unread reply: %+v", got[2])
		}
		a.ok(nil, "MarkConversationMessageAsRead", conv)
		rs = decode[[]ReceiptInfo](t, b.waitPush("OnRecvC2CReadReceipt", nil).Data)
		if len(rs) != 1 || rs[0].UserID != alice.id || !slices.Equal(rs[0].MsgIDList, []string{r.ClientMsgID}) {
			t.Fatalf("receipt to bob %+v", rs)
		}
		// Reading again covers nothing new: no second receipt. Bob's next
		// message is the marker that everything before it arrived.
		b.ok(nil, "MarkConversationMessageAsRead", conv)
		b.text(alice.id, "", "marker")
		a.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "marker") })
		if a.hasPush("OnRecvC2CReadReceipt", func(d string) bool { return !strings.Contains(d, m1.ClientMsgID) }) {
			t.Fatal("a read that covered nothing of alice's sent a receipt")
		}
		if c.hasPush("OnRecvC2CReadReceipt", nil) {
			t.Fatal("a stranger heard a receipt")
		}
		c.fails(apierr.CodeChatConvNotFound, "MarkConversationMessageAsRead", conv)
	})
}

func TestReadReceiptsInGroups(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db, func(c *Config) { c.ReceiptGroupMax = 3 })
		alice, bob, carol, dave := h.user("alice"), h.user("bob"), h.user("carol"), h.user("dave")
		a, b, c := h.connect(alice), h.connect(bob), h.connect(carol)
		gid := a.group("trio", 2, nil, []*testUser{bob, carol}, 2)
		conv := groupConversationID(mustID(t, gid))
		m := decode[Message](t, a.sendGroup(gid, "hello all").Data)
		b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "hello all") })

		b.ok(nil, "MarkConversationMessageAsRead", conv)
		rec := decode[GroupMessageReceipt](t, a.waitPush("OnRecvGroupReadReceipt", nil).Data)
		if rec.ConversationID != conv || len(rec.ReadInfo) != 1 {
			t.Fatalf("group receipt %+v", rec)
		}
		ri := rec.ReadInfo[0]
		if ri.ClientMsgID != m.ClientMsgID || ri.HasReadCount != 1 || ri.UnreadCount != 1 ||
			!slices.Equal(ri.HasReadUserIDList, []string{bob.id}) || len(ri.ReadMembers) != 1 || ri.ReadMembers[0].UserID != bob.id {
			t.Fatalf("read info %+v", ri)
		}
		hist := a.history(conv, 50).MessageList
		mine := hist[len(hist)-1]
		if mine.AttachedInfoElem == nil || mine.AttachedInfoElem.GroupHasReadInfo == nil {
			t.Fatalf("no read info on the sender's message: %+v", mine)
		}
		if hi := *mine.AttachedInfoElem.GroupHasReadInfo; hi.HasReadCount != 1 || hi.GroupMemberCount != 2 || hi.UnreadCount != 1 || !slices.Equal(hi.HasReadUserIDList, []string{bob.id}) {
			t.Fatalf("history read info %+v", hi)
		}
		// Other members see no read state of someone else's message.
		if hb := b.history(conv, 50).MessageList; hb[len(hb)-1].AttachedInfoElem != nil {
			t.Fatalf("bob sees alice's read state: %+v", hb[len(hb)-1].AttachedInfoElem)
		}
		if b.hasPush("OnRecvGroupReadReceipt", nil) || c.hasPush("OnRecvGroupReadReceipt", nil) {
			t.Fatal("a receipt went to someone who did not send")
		}

		// Past ReceiptGroupMax members the group has no read receipts.
		a.ok(nil, "InviteUserToGroup", gid, "", obj([]string{dave.id}))
		c.waitPush("OnGroupMemberAdded", nil)
		m = decode[Message](t, a.sendGroup(gid, "now four").Data)
		c.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "now four") })
		c.ok(nil, "MarkConversationMessageAsRead", conv)
		a.sendGroup(gid, "marker")
		if a.hasPush("OnRecvGroupReadReceipt", func(d string) bool { return strings.Contains(d, m.ClientMsgID) }) {
			t.Fatal("a receipt in a group over the limit")
		}
		hist = a.history(conv, 50).MessageList
		for _, x := range hist {
			if x.AttachedInfoElem != nil {
				t.Fatalf("read info in a group over the limit: %+v", x)
			}
		}
	})
}

func TestPresenceSubscriptions(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		alice, bob, dave := h.user("alice"), h.user("bob"), h.user("dave")
		a, b := h.connect(alice), h.connect(bob)
		h.connect(dave)
		// Alice and Bob have a chat; Dave is a stranger to Alice.
		a.text(bob.id, "", "hi")

		var sts []UserStatus
		a.ok(&sts, "SubscribeUsersStatus", `["`+bob.id+`","`+dave.id+`"]`)
		if len(sts) != 2 || sts[0].UserID != bob.id || sts[0].Status != statusOnline || sts[1].UserID != dave.id || sts[1].Status != statusOffline {
			t.Fatalf("statuses %+v", sts)
		}
		a.ok(&sts, "GetSubscribeUsersStatus")
		if len(sts) != 1 || sts[0].UserID != bob.id {
			t.Fatalf("watching %+v (the stranger must not be watched)", sts)
		}

		h.clock.Advance(time.Minute)
		b.conn.Close()
		st := decode[UserStatus](t, a.waitPush("OnUserStatusChanged", func(d string) bool { return strings.Contains(d, `"status":0`) }).Data)
		if st.UserID != bob.id || st.LastSeen != h.clock.Now().UnixMilli() {
			t.Fatalf("offline status %+v, want last seen %d", st, h.clock.Now().UnixMilli())
		}
		a.ok(&sts, "GetSubscribeUsersStatus")
		if sts[0].Status != statusOffline || sts[0].LastSeen != st.LastSeen {
			t.Fatalf("after bob left %+v", sts)
		}

		b = h.connect(bob)
		a.waitPush("OnUserStatusChanged", func(d string) bool { return strings.Contains(d, `"status":1`) })
		// Hiding: others see neither online nor last seen.
		b.ok(nil, "SetPresenceHidden", true)
		st = decode[UserStatus](t, a.waitPush("OnUserStatusChanged", func(d string) bool { return strings.Contains(d, `"status":0`) }).Data)
		if st.LastSeen != 0 {
			t.Fatalf("hidden user shows last seen %+v", st)
		}
		var hidden bool
		b.ok(&hidden, "GetPresenceHidden")
		if !hidden {
			t.Fatal("setting not kept")
		}
		a.ok(&sts, "SubscribeUsersStatus", `["`+bob.id+`"]`)
		if sts[0].Status != statusOffline || sts[0].LastSeen != 0 {
			t.Fatalf("hidden user %+v", sts)
		}
		b.ok(nil, "SetPresenceHidden", false)
		a.waitPush("OnUserStatusChanged", func(d string) bool { return strings.Contains(d, `"status":1`) })

		// Unsubscribed: no more pushes.
		a.ok(nil, "UnsubscribeUsersStatus", `["`+bob.id+`"]`)
		a.ok(&sts, "GetSubscribeUsersStatus")
		if len(sts) != 0 {
			t.Fatalf("still watching %+v", sts)
		}
		b.fails(apierr.CodeChatBadArgument, "SetPresenceHidden", "yes")
		a.fails(apierr.CodeChatBadArgument, "SubscribeUsersStatus", `["not a number"]`)
	})
}

func TestPresenceAcrossNodes(t *testing.T) {
	db := storagetest.Postgres(t)
	clk := clock.NewFake(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
	rdb, prefix := testenv.Redis(t)
	shared := presence.NewRedis(rdb, prefix+"presence:", clk)
	n1, n2 := clusterNode(t, db, clk, "p1", shared), clusterNode(t, db, clk, "p2", shared)
	alice, bob := n1.user("alice"), n1.user("bob")
	a, b := n1.connect(alice), n2.connect(bob)
	a.ok(nil, "AddFriend", obj(map[string]string{"toUserID": bob.id, "reqMsg": "hi"}))
	b.ok(nil, "AcceptFriendApplication", obj(map[string]string{"toUserID": alice.id, "handleMsg": "ok"}))
	a.waitPush("OnFriendAdded", nil)

	var sts []UserStatus
	a.ok(&sts, "SubscribeUsersStatus", `["`+bob.id+`"]`)
	if sts[0].Status != statusOnline {
		t.Fatalf("bob on the other node %+v", sts)
	}
	b.conn.Close()
	st := decode[UserStatus](t, a.waitPush("OnUserStatusChanged", nil).Data)
	if st.Status != statusOffline || st.LastSeen == 0 {
		t.Fatalf("status over the bus %+v", st)
	}
	n2.connect(bob)
	a.waitPush("OnUserStatusChanged", func(d string) bool { return strings.Contains(d, `"status":1`) })
}
