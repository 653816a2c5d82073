package chat

import (
	"context"
	"testing"

	"kj/auth"
	"kj/internal/apierr"
	"kj/storage"
	"kj/storage/storagetest"
)

// TestADeletedSenderReadsAsDeletedAccount: after a player deletes their
// account (/user/account/delete), their sockets close, and everyone who
// chatted with them sees "deleted account" as the sender of every message
// they sent, 1:1 and in a group, and as the name of the 1:1 conversation
// in the list, over any remark given to them as a friend; the messages
// themselves stay. An owner of a group with other members transfers it
// first.
func TestADeletedSenderReadsAsDeletedAccount(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		alice, bob := h.user("alice"), h.user("bob")
		hash, err := auth.HashPassword("abc123")
		if err != nil {
			t.Fatal(err)
		}
		if err := storage.UpdateUserFields(context.Background(), db, alice.ID, 1, map[string]any{"password_hash": hash}); err != nil {
			t.Fatal(err)
		}
		a, b := h.connect(alice), h.connect(bob)
		befriend(a, b)
		b.ok(nil, "SetFriendRemark", obj(map[string]string{"toUserID": alice.id, "remark": "Ali"}))
		a.text(bob.id, "", "hello bob")
		b.text(alice.id, "", "hello alice")
		var g GroupItem
		a.ok(&g, "CreateGroup", obj(map[string]any{"memberUserIDs": []string{bob.id}, "groupInfo": map[string]any{"groupName": "pals"}}))
		a.text("", g.GroupID, "hello pals")

		// An owner of a group with other members hands it over first.
		if r := h.post(t, alice, "/user/account/delete", `{"password":"abc123"}`); r.Code != apierr.CodeDeleteNotReady {
			t.Fatalf("deleting the owner of a group: %d %s", r.Code, r.Message)
		}
		a.ok(nil, "TransferGroupOwner", g.GroupID, bob.id)
		if r := h.post(t, alice, "/user/account/delete", `{"password":"abc123"}`); r.Code != 0 {
			t.Fatalf("delete: %d %s", r.Code, r.Message)
		}
		a.waitClosed() // fails the test unless the deletion closed alice's socket

		check := func(b *client) {
			t.Helper()
			var single string
			for _, c := range b.conversations() {
				if c.UserID == alice.id {
					single = c.ConversationID
					if c.ShowName != storage.DeletedNickname || c.FaceURL != "" {
						t.Errorf("bob's list shows alice's conversation as %q %q", c.ShowName, c.FaceURL)
					}
				}
			}
			if single == "" {
				t.Fatal("bob's list lost the conversation with alice")
			}
			for _, conv := range []string{single, "sg_" + g.GroupID} {
				ms := b.history(conv, 20).MessageList
				seen := 0
				for _, m := range ms {
					switch m.SendID {
					case alice.id:
						seen++
						if m.SenderNickname != storage.DeletedNickname || m.SenderFaceURL != "" {
							t.Errorf("%s: alice's message reads as from %q", conv, m.SenderNickname)
						}
					case bob.id:
						if m.SenderNickname != "bob" {
							t.Errorf("%s: bob's own message reads as from %q", conv, m.SenderNickname)
						}
					}
				}
				if seen == 0 {
					t.Errorf("%s: alice's messages are gone from bob's history: %v", conv, texts(ms))
				}
			}
		}
		check(b)
		// And for a bob who signs in afresh on a restarted node.
		b.conn.Close()
		h.stop()
		h.start()
		bob.tok = h.signIn(bob.ID)
		check(h.connect(bob))
	})
}
