package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"kj/internal/apierr"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

// group creates a group owned by c's user and returns its id.
func (c *client) group(name string, groupType int, admins, members []*testUser, verify int) string {
	c.t.Helper()
	ids := func(us []*testUser) []string {
		out := []string{}
		for _, u := range us {
			out = append(out, u.id)
		}
		return out
	}
	var g GroupItem
	c.ok(&g, "CreateGroup", obj(map[string]any{
		"memberUserIDs": ids(members), "adminUserIDs": ids(admins),
		"groupInfo": map[string]any{"groupName": name, "groupType": groupType, "needVerification": verify},
	}))
	return g.GroupID
}

// sendGroup creates a text and sends it to a group; it returns the reply.
func (c *client) sendGroup(gid, text string) Reply {
	c.t.Helper()
	var m Message
	c.ok(&m, "CreateTextMessage", text)
	return c.sendRaw(&m, "", gid)
}

// noticeOf matches a pushed message of a content type.
func noticeOf(contentType int) func(string) bool {
	return func(d string) bool { return strings.Contains(d, fmt.Sprintf(`"contentType":%d,`, contentType)) }
}

// TestGroupRolesMatrix checks who may do what to whom: only the owner
// dismisses, transfers and sets or cancels admins; owner and admins mute,
// unmute and kick; nobody acts on an equal or higher role.
func TestGroupRolesMatrix(t *testing.T) {
	h := newHarness(t, storagetest.SQLite(t))
	owner, admin, admin2, member, member2 := h.user("owner"), h.user("admin"), h.user("admin2"), h.user("member"), h.user("member2")
	cl := map[string]*client{}
	for _, u := range []*testUser{owner, admin, admin2, member, member2} {
		cl[u.Nickname] = h.connect(u)
	}
	users := map[string]*testUser{"owner": owner, "admin": admin, "admin2": admin2, "member": member, "member2": member2}
	no, ok, self := apierr.CodeChatNoPermission, 0, apierr.CodeChatSelf
	type action struct {
		name string
		call func(c *client, gid, target string) Reply
	}
	kick := action{"kick", func(c *client, gid, target string) Reply {
		return c.call("KickGroupMember", gid, "", obj([]string{target}))
	}}
	mute := action{"mute", func(c *client, gid, target string) Reply {
		return c.call("ChangeGroupMemberMute", gid, target, 60)
	}}
	unmute := action{"unmute", func(c *client, gid, target string) Reply {
		return c.call("ChangeGroupMemberMute", gid, target, 0)
	}}
	setAdmin := action{"set admin", func(c *client, gid, target string) Reply {
		return c.call("SetGroupMemberInfo", obj(map[string]any{"groupID": gid, "userID": target, "roleLevel": 60}))
	}}
	cancelAdmin := action{"cancel admin", func(c *client, gid, target string) Reply {
		return c.call("SetGroupMemberInfo", obj(map[string]any{"groupID": gid, "userID": target, "roleLevel": 20}))
	}}
	transfer := action{"transfer", func(c *client, gid, target string) Reply {
		return c.call("TransferGroupOwner", gid, target)
	}}
	dismiss := action{"dismiss", func(c *client, gid, _ string) Reply { return c.call("DismissGroup", gid) }}
	muteAll := action{"mute group", func(c *client, gid, _ string) Reply { return c.call("ChangeGroupMute", gid, true) }}
	cases := []struct {
		act           action
		actor, target string
		want          int
	}{
		{kick, "owner", "admin", ok}, {kick, "owner", "member", ok}, {kick, "admin", "member", ok},
		{kick, "admin", "admin2", no}, {kick, "admin", "owner", no}, {kick, "member", "member2", no},
		{kick, "member", "owner", no}, {kick, "owner", "owner", self},
		{mute, "owner", "admin", ok}, {mute, "admin", "member", ok}, {mute, "admin", "admin2", no},
		{mute, "admin", "owner", no}, {mute, "member", "member2", no}, {mute, "member", "admin", no},
		{unmute, "admin", "member", ok}, {unmute, "member", "member2", no}, {unmute, "admin", "owner", no},
		{setAdmin, "owner", "member", ok}, {setAdmin, "admin", "member", no}, {setAdmin, "member", "member2", no},
		{cancelAdmin, "owner", "admin", ok}, {cancelAdmin, "admin", "admin2", no},
		{transfer, "owner", "member", ok}, {transfer, "admin", "member", no}, {transfer, "member", "admin", no},
		{dismiss, "owner", "", ok}, {dismiss, "admin", "", no}, {dismiss, "member", "", no},
		{muteAll, "admin", "", ok}, {muteAll, "owner", "", ok}, {muteAll, "member", "", no},
	}
	for i, tc := range cases {
		gid := cl["owner"].group(fmt.Sprintf("roles %d", i), storage.GroupTypeGroup, []*testUser{admin, admin2}, []*testUser{member, member2}, verifyApply)
		target := ""
		if tc.target != "" {
			target = users[tc.target].id
		}
		r := tc.act.call(cl[tc.actor], gid, target)
		if r.ErrCode != tc.want {
			t.Errorf("%s: %s on %s: errCode %d (%s), want %d", tc.act.name, tc.actor, tc.target, r.ErrCode, r.ErrMsg, tc.want)
		}
		if tc.want == ok {
			continue
		}
		// A refused change leaves the group as it was.
		var ms []GroupMemberItem
		cl["owner"].ok(&ms, "GetGroupMemberList", gid, 0, 0, 2000)
		roles := map[string]int{}
		for _, m := range ms {
			roles[m.UserID] = m.RoleLevel
			if m.MuteEndTime != 0 {
				t.Errorf("%s by %s: %s got muted", tc.act.name, tc.actor, m.UserID)
			}
		}
		if len(ms) != 5 || roles[owner.id] != 100 || roles[admin.id] != 60 || roles[member.id] != 20 {
			t.Errorf("%s by %s changed the members: %v", tc.act.name, tc.actor, roles)
		}
	}
}

func TestGroupMuteExpiresWithTheClockAndAfterRestart(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		owner, member := h.user("owner"), h.user("member")
		o, m := h.connect(owner), h.connect(member)
		gid := o.group("mute", storage.GroupTypeGroup, nil, []*testUser{member}, verifyApply)
		m.waitPush("OnJoinedGroupAdded", nil)

		o.ok(nil, "ChangeGroupMemberMute", gid, member.id, 60)
		info := decode[GroupMemberItem](t, m.waitPush("OnGroupMemberInfoChanged", nil).Data)
		if want := h.clock.Now().Add(60 * time.Second).UnixMilli(); info.MuteEndTime != want {
			t.Fatalf("mute end %d, want %d", info.MuteEndTime, want)
		}
		m.waitPush("OnRecvNewMessage", noticeOf(NoticeMemberMuted))
		if r := m.sendGroup(gid, "let me speak"); r.ErrCode != apierr.CodeChatMuted {
			t.Fatalf("muted member sends: %+v", r)
		}
		h.clock.Advance(59 * time.Second)
		if r := m.sendGroup(gid, "now?"); r.ErrCode != apierr.CodeChatMuted {
			t.Fatalf("a second early: %+v", r)
		}
		h.clock.Advance(time.Second)
		m.waitPush("OnRecvNewMessage", noticeOf(NoticeMemberUnmuted))
		o.waitPush("OnRecvNewMessage", noticeOf(NoticeMemberUnmuted))
		m.waitPush("OnGroupMemberInfoChanged", func(d string) bool { return decode[GroupMemberItem](t, d).MuteEndTime == 0 })
		if r := m.sendGroup(gid, "free again"); r.ErrCode != 0 {
			t.Fatalf("after the mute: %+v", r)
		}

		// A mute whose time runs out while the node is down is announced
		// when it starts again, once.
		o.ok(nil, "ChangeGroupMemberMute", gid, member.id, 30)
		h.stop()
		h.clock.Advance(time.Minute)
		h.start()
		o, m = h.connect(owner), h.connect(member)
		conv := groupConversationID(mustID(t, gid))
		testenv.Eventually(t, waitFor, func() bool {
			res := o.history(conv, 50)
			return strings.Count(fmt.Sprint(texts(res.MessageList)), fmt.Sprint(NoticeMemberUnmuted)) == 2
		}, "unmute after restart not in history")
		mem, err := storage.ChatGroupMemberOf(context.Background(), db, mustID(t, gid), member.ID)
		if err != nil || mem.MutedUntil != 0 {
			t.Fatalf("member after restart: %+v %v", mem, err)
		}
		if r := m.sendGroup(gid, "after restart"); r.ErrCode != 0 {
			t.Fatalf("send after restart: %+v", r)
		}
		// Starting yet another node announces nothing more.
		h.stop()
		h.start()
		o = h.connect(owner)
		if n := strings.Count(fmt.Sprint(texts(o.history(conv, 50).MessageList)), fmt.Sprint(NoticeMemberUnmuted)); n != 2 {
			t.Fatalf("%d unmute notices, want 2", n)
		}
	})
}

func mustID(t *testing.T, s string) int64 {
	t.Helper()
	id, err := parseUserID(s)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestGroupFullDismissedAndChannels(t *testing.T) {
	h := newHarness(t, storagetest.SQLite(t), func(c *Config) { c.GroupMaxMembers = 3 })
	owner, a, b, x := h.user("owner"), h.user("a"), h.user("b"), h.user("x")
	o, ca, cb, cx := h.connect(owner), h.connect(a), h.connect(b), h.connect(x)

	// Group full: the cap counts the owner.
	var g GroupItem
	r := o.call("CreateGroup", obj(map[string]any{"memberUserIDs": []string{a.id, b.id, x.id}, "groupInfo": map[string]any{"groupName": "big"}}))
	if r.ErrCode != apierr.CodeChatGroupFull {
		t.Fatalf("create over the cap: %+v", r)
	}
	gid := o.group("three", storage.GroupTypeGroup, nil, []*testUser{a, b}, verifyNone)
	o.fails(apierr.CodeChatGroupFull, "InviteUserToGroup", gid, "", obj([]string{x.id}))
	cx.fails(apierr.CodeChatGroupFull, "JoinGroup", gid, "let me in", 3, "")
	if r := o.call("CreateGroup", obj(map[string]any{"groupInfo": map[string]any{"groupName": "  "}})); r.ErrCode != apierr.CodeChatGroupNameRequired {
		t.Fatalf("nameless group: %+v", r)
	}

	// Dismissed: every member hears it, then the group refuses everything.
	o.ok(nil, "DismissGroup", gid)
	for _, c := range []*client{o, ca, cb} {
		item := decode[GroupItem](t, c.waitPush("OnGroupDismissed", nil).Data)
		if item.Status != storage.GroupDismissed {
			t.Fatalf("dismissed item %+v", item)
		}
	}
	if r := ca.sendGroup(gid, "anyone?"); r.ErrCode != apierr.CodeChatGroupDismissed {
		t.Fatalf("send to a dismissed group: %+v", r)
	}
	cx.fails(apierr.CodeChatGroupDismissed, "JoinGroup", gid, "", 3, "")
	o.fails(apierr.CodeChatGroupDismissed, "KickGroupMember", gid, "", obj([]string{a.id}))
	o.fails(apierr.CodeChatGroupDismissed, "ChangeGroupMute", gid, true)
	o.fails(apierr.CodeChatGroupDismissed, "DismissGroup", gid)
	ca.fails(apierr.CodeChatGroupDismissed, "QuitGroup", gid)
	o.fails(apierr.CodeChatGroupDismissed, "GetGroupMemberList", gid, 0, 0, 100)
	var joined []GroupItem
	ca.ok(&joined, "GetJoinedGroupList")
	if len(joined) != 0 {
		t.Fatalf("dismissed group still listed: %+v", joined)
	}
	list := ca.conversations()
	if len(list) != 1 || !list[0].IsNotInGroup {
		t.Fatalf("conversation of a dismissed group: %+v", list)
	}

	// Channel: only owner and admins post; members read.
	cid := o.group("news", storage.GroupTypeChannel, []*testUser{a}, []*testUser{b}, verifyNone)
	if r := cb.sendGroup(cid, "may I?"); r.ErrCode != apierr.CodeChatChannelReadOnly {
		t.Fatalf("member posts to a channel: %+v", r)
	}
	if r := ca.sendGroup(cid, "admin post"); r.ErrCode != 0 {
		t.Fatalf("admin posts: %+v", r)
	}
	if r := o.sendGroup(cid, "owner post"); r.ErrCode != 0 {
		t.Fatalf("owner posts: %+v", r)
	}
	cb.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "owner post") })
	res := cb.history(groupConversationID(mustID(t, cid)), 10)
	if got := texts(res.MessageList); fmt.Sprint(got) != "[1501 admin post owner post]" {
		t.Fatalf("channel history %v", got)
	}

	// Whole-group mute: members silent, admins speak.
	g2 := o.group("quiet", storage.GroupTypeGroup, []*testUser{a}, []*testUser{b}, verifyNone)
	ca.ok(nil, "ChangeGroupMute", g2, true)
	cb.waitPush("OnGroupInfoChanged", func(d string) bool { return decode[GroupItem](t, d).Status == storage.GroupMuted })
	if r := cb.sendGroup(g2, "hello?"); r.ErrCode != apierr.CodeChatGroupMuted {
		t.Fatalf("member in a muted group: %+v", r)
	}
	if r := ca.sendGroup(g2, "admins may"); r.ErrCode != 0 {
		t.Fatalf("admin in a muted group: %+v", r)
	}
	o.ok(nil, "ChangeGroupMute", g2, false)
	if r := cb.sendGroup(g2, "back"); r.ErrCode != 0 {
		t.Fatalf("after unmuting the group: %+v", r)
	}
	_ = g
}

func TestGroupJoinApplicationInviteQuitKick(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		owner, a, b, x, y := h.user("owner"), h.user("a"), h.user("b"), h.user("x"), h.user("y")
		o, ca, cb, cx, cy := h.connect(owner), h.connect(a), h.connect(b), h.connect(x), h.connect(y)
		gid := o.group("club", storage.GroupTypeGroup, []*testUser{a}, []*testUser{b}, verifyApply)
		conv := groupConversationID(mustID(t, gid))

		// Joining needs approval: an application, not a membership.
		cx.ok(nil, "JoinGroup", gid, "please", 3, "")
		app := decode[GroupApplicationItem](t, o.waitPush("OnGroupApplicationAdded", nil).Data)
		if app.UserID != x.id || app.ReqMsg != "please" || app.HandleResult != 0 {
			t.Fatalf("application %+v", app)
		}
		ca.waitPush("OnGroupApplicationAdded", nil)
		if r := cx.sendGroup(gid, "am I in?"); r.ErrCode != apierr.CodeChatNotMember {
			t.Fatalf("applicant sends: %+v", r)
		}
		var apps []GroupApplicationItem
		ca.ok(&apps, "GetGroupApplicationListAsRecipient")
		if len(apps) != 1 {
			t.Fatalf("admin's applications %+v", apps)
		}
		cb.ok(&apps, "GetGroupApplicationListAsRecipient")
		if len(apps) != 0 {
			t.Fatalf("a member sees applications: %+v", apps)
		}
		cb.fails(apierr.CodeChatNoPermission, "AcceptGroupApplication", gid, x.id, "ok")
		ca.ok(nil, "AcceptGroupApplication", gid, x.id, "welcome")
		ca.fails(apierr.CodeChatNoApplication, "AcceptGroupApplication", gid, x.id, "again")
		cx.waitPush("OnJoinedGroupAdded", nil)
		cx.waitPush("OnRecvNewMessage", noticeOf(NoticeMemberEnter))
		cx.waitPush("OnNewConversation", nil)
		cb.waitPush("OnGroupMemberAdded", func(d string) bool { return decode[GroupMemberItem](t, d).UserID == x.id })
		if r := cx.sendGroup(gid, "hi all"); r.ErrCode != 0 {
			t.Fatalf("new member sends: %+v", r)
		}
		// The newcomer sees nothing from before joining.
		if got := texts(cx.history(conv, 50).MessageList); fmt.Sprint(got) != "[1510 hi all]" {
			t.Fatalf("newcomer's history %v", got)
		}

		// An admin's invitation goes straight in.
		ca.ok(nil, "InviteUserToGroup", gid, "join us", obj([]string{y.id}))
		cy.waitPush("OnJoinedGroupAdded", nil)
		o.fails(apierr.CodeChatAlreadyMember, "InviteUserToGroup", gid, "", obj([]string{y.id}))

		// Quit: the owner cannot; a member leaves and sees nothing after.
		o.fails(apierr.CodeChatOwnerCannotQuit, "QuitGroup", gid)
		cb.ok(nil, "QuitGroup", gid)
		cb.waitPush("OnJoinedGroupDeleted", nil)
		o.waitPush("OnGroupMemberDeleted", func(d string) bool { return decode[GroupMemberItem](t, d).UserID == b.id })
		cb.waitPush("OnRecvNewMessage", noticeOf(NoticeMemberQuit))
		if r := o.sendGroup(gid, "after b left"); r.ErrCode != 0 {
			t.Fatalf("%+v", r)
		}
		cy.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "after b left") })
		if got := fmt.Sprint(texts(cb.history(conv, 50).MessageList)); strings.Contains(got, "after b left") {
			t.Fatalf("ex-member sees later messages: %v", got)
		}
		if cb.hasPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "after b left") }) {
			t.Fatal("ex-member got a later message pushed")
		}
		if r := cb.sendGroup(gid, "still here?"); r.ErrCode != apierr.CodeChatNotMember {
			t.Fatalf("ex-member sends: %+v", r)
		}
		list := cb.conversations()
		if len(list) != 1 || !list[0].IsNotInGroup {
			t.Fatalf("ex-member's conversation %+v", list)
		}
		// Kick: the kicked member hears it and is out.
		ca.ok(nil, "KickGroupMember", gid, "spam", obj([]string{x.id}))
		cx.waitPush("OnJoinedGroupDeleted", nil)
		cx.waitPush("OnRecvNewMessage", noticeOf(NoticeMemberKicked))
		if r := cx.sendGroup(gid, "hey"); r.ErrCode != apierr.CodeChatNotMember {
			t.Fatalf("kicked member sends: %+v", r)
		}
		var members []GroupMemberItem
		o.ok(&members, "GetGroupMemberList", gid, 0, 0, 2000)
		if len(members) != 3 {
			t.Fatalf("members %+v", members)
		}
		cx.fails(apierr.CodeChatNotMember, "GetGroupMemberList", gid, 0, 0, 2000)
		var gs []GroupItem
		o.ok(&gs, "GetSpecifiedGroupsInfo", obj([]string{gid}))
		if len(gs) != 1 || gs[0].MemberCount != 3 {
			t.Fatalf("group info %+v", gs)
		}
		// A group letting anyone in takes a join directly.
		open := o.group("open", storage.GroupTypeGroup, nil, nil, verifyNone)
		cx.ok(nil, "JoinGroup", open, "", 3, "")
		cx.waitPush("OnJoinedGroupAdded", func(d string) bool { return decode[GroupItem](t, d).GroupID == open })
	})
}

// TestGroupInfoOutsiderAndMember: an outsider reads only a group's public
// face (name, avatar, member count, type, whether joining needs approval),
// by id, by a search by name and in their own application to join; a
// member reads the announcement, introduction, owner and the rest.
func TestGroupInfoOutsiderAndMember(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		owner, member, outsider := h.user("owner"), h.user("member"), h.user("outsider")
		o, m, x := h.connect(owner), h.connect(member), h.connect(outsider)
		var g GroupItem
		o.ok(&g, "CreateGroup", obj(map[string]any{
			"memberUserIDs": []string{member.id},
			"groupInfo": map[string]any{"groupName": "Secret Garden", "groupType": storage.GroupTypeGroup, "needVerification": verifyApply,
				"notification": "door code 4711", "introduction": "members only", "ex": "private-ex"},
		}))
		m.waitPush("OnJoinedGroupAdded", nil)
		o.ok(nil, "ChangeGroupMute", g.GroupID, true)
		m.waitPush("OnGroupInfoChanged", nil)

		public := func(who string, it GroupItem) {
			t.Helper()
			want := GroupItem{GroupID: g.GroupID, GroupName: "Secret Garden", MemberCount: 2, GroupType: storage.GroupTypeGroup,
				NeedVerification: verifyApply, Status: storage.GroupNormal}
			if it != want {
				t.Fatalf("%s: the outsider reads %+v, want only %+v", who, it, want)
			}
		}
		full := func(who string, it GroupItem) {
			t.Helper()
			if it.Notification != "door code 4711" || it.Introduction != "members only" || it.OwnerUserID != owner.id ||
				it.Ex != "private-ex" || it.Status != storage.GroupMuted || it.MemberCount != 2 {
				t.Fatalf("%s: the member reads %+v", who, it)
			}
		}
		var gs []GroupItem
		x.ok(&gs, "GetSpecifiedGroupsInfo", obj([]string{g.GroupID}))
		if len(gs) != 1 {
			t.Fatalf("outsider's groups %+v", gs)
		}
		public("GetSpecifiedGroupsInfo", gs[0])
		m.ok(&gs, "GetSpecifiedGroupsInfo", obj([]string{g.GroupID}))
		full("GetSpecifiedGroupsInfo", gs[0])

		search := func(u *testUser) GroupItem {
			t.Helper()
			r := h.post(t, u, "/openIm/getGroupByName", `{"groupName":"secret"}`)
			var found []GroupItem
			if r.Code != 0 || json.Unmarshal(r.Data, &found) != nil || len(found) != 1 {
				t.Fatalf("search by %s: %+v", u.Nickname, r)
			}
			return found[0]
		}
		public("/openIm/getGroupByName", search(outsider))
		full("/openIm/getGroupByName", search(member))

		// Applying to join shows the applicant the same public face.
		x.ok(nil, "JoinGroup", g.GroupID, "let me in", 3, "")
		pushed := decode[GroupApplicationItem](t, x.waitPush("OnGroupApplicationAdded", nil).Data)
		var mine []GroupApplicationItem
		x.ok(&mine, "GetGroupApplicationListAsApplicant")
		if len(mine) != 1 {
			t.Fatalf("applications %+v", mine)
		}
		for _, a := range []GroupApplicationItem{pushed, mine[0]} {
			if a.GroupName != "Secret Garden" || a.GroupID != g.GroupID || a.MemberCount != 2 || a.Notification != "" ||
				a.Introduction != "" || a.OwnerUserID != "" || a.CreatorUserID != "" || a.Status != storage.GroupNormal {
				t.Fatalf("the applicant reads %+v", a)
			}
		}

		// A dismissed group: its members still read it whole, the outsider
		// learns only that it is gone.
		o.ok(nil, "DismissGroup", g.GroupID)
		m.waitPush("OnGroupDismissed", nil)
		m.ok(&gs, "GetSpecifiedGroupsInfo", obj([]string{g.GroupID}))
		if gs[0].Notification != "door code 4711" || gs[0].Status != storage.GroupDismissed {
			t.Fatalf("member of the dismissed group reads %+v", gs[0])
		}
		x.ok(&gs, "GetSpecifiedGroupsInfo", obj([]string{g.GroupID}))
		if gs[0].Notification != "" || gs[0].Status != storage.GroupDismissed {
			t.Fatalf("outsider reads the dismissed group as %+v", gs[0])
		}
	})
}
