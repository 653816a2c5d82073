package chat

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"kj/storage"
	"kj/storage/storagetest"
)

// befriend makes the users of a and b friends.
func befriend(a, b *client) {
	a.t.Helper()
	a.ok(nil, "AddFriend", obj(map[string]string{"toUserID": b.u.id, "reqMsg": "hi"}))
	b.ok(nil, "AcceptFriendApplication", obj(map[string]string{"toUserID": a.u.id, "handleMsg": "ok"}))
	a.waitPush("OnFriendAdded", nil)
	b.waitPush("OnFriendAdded", nil)
}

// statusOf matches a status push about user (and, when want is not nil,
// with that status).
func statusOf(u *testUser, want func(UserStatus) bool) func(string) bool {
	return func(d string) bool {
		var st UserStatus
		return json.Unmarshal([]byte(d), &st) == nil && st.UserID == u.id && (want == nil || want(st))
	}
}

func isOnline(st UserStatus) bool { return st.Status == statusOnline }

func hasLastSeen(st UserStatus) bool { return st.Status == statusOffline && st.LastSeen != 0 }

// tellsNothing is the status of a hidden user, or of one the watcher may
// not watch.
func tellsNothing(st UserStatus) bool { return st.Status == statusOffline && st.LastSeen == 0 }

// presenceSettled waits until every presence push queued for c before
// now has arrived: marker (a friend of c's user whom c watches) toggles
// hiding, and the node handles presence announcements one at a time, in
// order, so c hears of it after anything queued for it earlier.
func presenceSettled(c, marker *client) {
	c.t.Helper()
	marker.ok(nil, "SetPresenceHidden", true)
	c.waitPush("OnUserStatusChanged", statusOf(marker.u, tellsNothing))
	marker.ok(nil, "SetPresenceHidden", false)
	c.waitPush("OnUserStatusChanged", statusOf(marker.u, isOnline))
}

func (c *client) statuses(call string, users ...*testUser) []UserStatus {
	c.t.Helper()
	ids := make([]string, len(users))
	for i, u := range users {
		ids[i] = u.id
	}
	var sts []UserStatus
	c.ok(&sts, call, obj(ids))
	return sts
}

// TestPresenceStrangerSeesNothing: opening a conversation with a user is
// not a relation, nor is being in the same channel; a stranger reads the
// user as offline with no last seen, watches nothing and is pushed
// nothing, however the user comes and goes.
func TestPresenceStrangerSeesNothing(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		alice, bob, carol, mark := h.user("alice"), h.user("bob"), h.user("carol"), h.user("mark")
		a, b, c, m := h.connect(alice), h.connect(bob), h.connect(carol), h.connect(mark)
		befriend(a, b)
		befriend(c, m)
		// Carol opens a chat with Alice (Alice sees nothing of it) and is
		// a plain member of Alice's channel.
		c.ok(nil, "GetOneConversation", sessionSingle, alice.id)
		gid := a.group("news", storage.GroupTypeChannel, nil, []*testUser{carol}, 2)
		c.waitPush("OnJoinedGroupAdded", nil)
		_ = gid

		for _, call := range []string{"GetUserStatus", "SubscribeUsersStatus"} {
			if sts := c.statuses(call, alice); len(sts) != 1 || sts[0].UserID != alice.id || !tellsNothing(sts[0]) {
				t.Fatalf("%s: the stranger reads %+v", call, sts)
			}
		}
		// Nor the other way: Alice may not watch Carol either.
		if sts := a.statuses("GetUserStatus", carol); !tellsNothing(sts[0]) {
			t.Fatalf("alice reads carol %+v", sts)
		}
		c.ok(nil, "SubscribeUsersStatus", obj([]string{mark.id}))
		b.ok(nil, "SubscribeUsersStatus", obj([]string{alice.id}))
		if sts := c.statuses("GetSubscribeUsersStatus"); len(sts) != 1 || sts[0].UserID != mark.id {
			t.Fatalf("carol watches %+v (alice must not be watched)", sts)
		}

		// Alice leaves: her friend hears her last seen, the stranger
		// hears nothing.
		h.clock.Advance(time.Minute)
		a.conn.Close()
		b.waitPush("OnUserStatusChanged", statusOf(alice, hasLastSeen))
		presenceSettled(c, m)
		if c.hasPush("OnUserStatusChanged", statusOf(alice, nil)) {
			t.Fatalf("the stranger was told alice's status: %s", c.describe())
		}
		if sts := c.statuses("GetUserStatus", alice); !tellsNothing(sts[0]) {
			t.Fatalf("the stranger reads alice's last seen %+v", sts)
		}
	})
}

// TestPresenceToRelatedUsers: a friend, a member of a group both are in
// and a one-to-one peer who exchanged a message (either way) see the
// user's presence and last seen; the peer only once a message is stored.
// When the user hides it, none of them does.
func TestPresenceToRelatedUsers(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		alice, friend, mate, peer := h.user("alice"), h.user("friend"), h.user("mate"), h.user("peer")
		a, f, g, p := h.connect(alice), h.connect(friend), h.connect(mate), h.connect(peer)
		befriend(a, f)
		a.group("club", storage.GroupTypeGroup, nil, []*testUser{mate}, 2)
		g.waitPush("OnJoinedGroupAdded", nil)

		// The peer's opened chat is not enough; a message from the peer
		// (to Alice, who never wrote) is.
		p.ok(nil, "GetOneConversation", sessionSingle, alice.id)
		if sts := p.statuses("GetUserStatus", alice); !tellsNothing(sts[0]) {
			t.Fatalf("peer before any message %+v", sts)
		}
		p.text(alice.id, "", "hello alice")
		a.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "hello alice") })

		watchers := []*client{f, g, p}
		for _, w := range watchers {
			if sts := w.statuses("SubscribeUsersStatus", alice); !isOnline(sts[0]) {
				t.Fatalf("%s reads %+v", w.u.Nickname, sts)
			}
		}
		// Alice sees them back: the relation goes both ways.
		if sts := a.statuses("GetUserStatus", friend, mate, peer); !isOnline(sts[0]) || !isOnline(sts[1]) || !isOnline(sts[2]) {
			t.Fatalf("alice reads %+v", sts)
		}

		h.clock.Advance(time.Minute)
		a.conn.Close()
		for _, w := range watchers {
			st := decode[UserStatus](t, w.waitPush("OnUserStatusChanged", statusOf(alice, nil)).Data)
			if st.LastSeen != h.clock.Now().UnixMilli() {
				t.Fatalf("%s told %+v", w.u.Nickname, st)
			}
		}
		a = h.connect(alice)
		for _, w := range watchers {
			w.waitPush("OnUserStatusChanged", statusOf(alice, isOnline))
		}

		// Hidden: nobody, related or not, sees her.
		a.ok(nil, "SetPresenceHidden", true)
		for _, w := range watchers {
			w.waitPush("OnUserStatusChanged", statusOf(alice, tellsNothing))
			if sts := w.statuses("GetUserStatus", alice); !tellsNothing(sts[0]) {
				t.Fatalf("%s reads the hidden user %+v", w.u.Nickname, sts)
			}
		}
	})
}

// TestPresenceBlockEndsWatching: a block (either way) ends a running
// subscription at once: the watcher is told a status that tells nothing,
// no longer watches and cannot watch again. An unfriending ends it the
// same way; leaving the group that related two users ends it at the
// user's next coming or going, before anything about it is pushed.
func TestPresenceBlockEndsWatching(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		alice, bob, dan, gus, mark := h.user("alice"), h.user("bob"), h.user("dan"), h.user("gus"), h.user("mark")
		a, b, d, g, m := h.connect(alice), h.connect(bob), h.connect(dan), h.connect(gus), h.connect(mark)
		befriend(a, b)
		befriend(a, d)
		befriend(a, m)
		gid := a.group("club", storage.GroupTypeGroup, nil, []*testUser{gus}, 2)
		g.waitPush("OnJoinedGroupAdded", nil)
		for _, w := range []*client{b, d, g} {
			befriend(w, m)
			w.ok(nil, "SubscribeUsersStatus", obj([]string{alice.id, mark.id}))
		}
		m.ok(nil, "SubscribeUsersStatus", obj([]string{alice.id}))

		// Alice blocks Bob; Dan unfriends Alice. Neither waits for Alice
		// to come or go: each is told at once, and no longer watches her.
		a.ok(nil, "AddBlack", bob.id, "")
		d.ok(nil, "DeleteFriend", alice.id)
		for _, w := range []*client{b, d} {
			w.waitPush("OnUserStatusChanged", statusOf(alice, tellsNothing))
			if sts := w.statuses("GetSubscribeUsersStatus"); len(sts) != 1 || sts[0].UserID != mark.id {
				t.Fatalf("%s still watches %+v", w.u.Nickname, sts)
			}
		}
		// Bob, whom Alice blocked, cannot watch her again, nor she him.
		if sts := b.statuses("SubscribeUsersStatus", alice); !tellsNothing(sts[0]) {
			t.Fatalf("blocked bob reads %+v", sts)
		}
		if sts := a.statuses("GetUserStatus", bob); !tellsNothing(sts[0]) {
			t.Fatalf("alice reads the user she blocked %+v", sts)
		}
		g.ok(nil, "QuitGroup", gid)

		// Alice leaves: Mark, still her friend, hears her last seen; the
		// others hear nothing of it (Gus only that she tells nothing).
		h.clock.Advance(time.Minute)
		a.conn.Close()
		m.waitPush("OnUserStatusChanged", statusOf(alice, hasLastSeen))
		h.connect(alice)
		m.waitPush("OnUserStatusChanged", statusOf(alice, isOnline))
		for _, w := range []*client{b, d, g} {
			presenceSettled(w, m)
			if w.hasPush("OnUserStatusChanged", statusOf(alice, func(st UserStatus) bool { return !tellsNothing(st) })) {
				t.Fatalf("%s was told alice's status after the relation ended: %s", w.u.Nickname, w.describe())
			}
		}
		if sts := g.statuses("GetSubscribeUsersStatus"); len(sts) != 1 || sts[0].UserID != mark.id {
			t.Fatalf("gus still watches %+v", sts)
		}
	})
}
