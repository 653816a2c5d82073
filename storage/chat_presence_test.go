package storage_test

import (
	"context"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

func TestChatReadersAndMessageRefs(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		g := storedGroup(t, db, "Readers",
			storage.ChatGroupMember{UserID: 1, RoleLevel: storage.RoleOwner, JoinTime: 1},
			storage.ChatGroupMember{UserID: 2, RoleLevel: storage.RoleMember, JoinTime: 1},
			storage.ChatGroupMember{UserID: 3, RoleLevel: storage.RoleMember, JoinTime: 1})
		conv := storage.ChatConversation{ID: "sg_" + storage.FormatID(g.ID), SessionType: storage.SessionGroup, GroupID: g.ID, CreatedAt: 1}
		// User 3 has no conversation row yet: it reads as position 0.
		if err := storage.EnsureChatUserConversations(ctx, db,
			storage.ChatUserConvRow{UserID: 1, ConversationID: conv.ID, GroupID: g.ID, CreatedAt: 1},
			storage.ChatUserConvRow{UserID: 2, ConversationID: conv.ID, GroupID: g.ID, CreatedAt: 1}); err != nil {
			t.Fatal(err)
		}
		sent := appendTexts(t, db, conv, 1, "a", "b", "c")
		if err := storage.MarkChatConversationRead(ctx, db, 2, conv.ID); err != nil {
			t.Fatal(err)
		}
		readers, err := storage.ChatGroupReaders(ctx, db, g.ID, conv.ID)
		if err != nil || len(readers) != 3 {
			t.Fatalf("readers %v %v", readers, err)
		}
		got := map[int64]int64{}
		for _, r := range readers {
			got[r.UserID] = r.ReadSeq
		}
		if got[1] != 3 || got[2] != 3 || got[3] != 0 {
			t.Fatalf("read positions %v", got)
		}
		if s, err := storage.ChatReadSeqOf(ctx, db, 2, conv.ID); err != nil || s != 3 {
			t.Fatalf("read seq of 2: %d %v", s, err)
		}
		if s, err := storage.ChatReadSeqOf(ctx, db, 3, conv.ID); err != nil || s != 0 {
			t.Fatalf("read seq without a row: %d %v", s, err)
		}
		refs, err := storage.ChatUserMessageRefs(ctx, db, conv.ID, 1, 3, 10)
		if err != nil || len(refs) != 2 || refs[0].ClientMsgID != sent[1].ClientMsgID || refs[1].Seq != 3 || refs[1].SendID != 1 {
			t.Fatalf("refs (1,3]: %+v %v", refs, err)
		}
		// The limit keeps the newest.
		if refs, _ := storage.ChatUserMessageRefs(ctx, db, conv.ID, 0, 3, 1); len(refs) != 1 || refs[0].Seq != 3 {
			t.Fatalf("newest ref: %+v", refs)
		}
	})
}

func TestUserPresenceSettingsAndWatchers(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		var ids []int64
		for _, name := range []string{"pres_a", "pres_b", "pres_c", "pres_d"} {
			u := storedUser(t, db, name)
			ids = append(ids, u.ID)
		}
		a, b, c, d := ids[0], ids[1], ids[2], ids[3]
		p, err := storage.UserPresences(ctx, db, []int64{a, b})
		if err != nil || p[a] != (storage.UserPresence{}) || len(p) != 2 {
			t.Fatalf("fresh presence %v %v", p, err)
		}
		if err := storage.SetUserLastSeen(ctx, db, a, 500); err != nil {
			t.Fatal(err)
		}
		// An older close (from a slower node) does not move it back.
		if err := storage.SetUserLastSeen(ctx, db, a, 400); err != nil {
			t.Fatal(err)
		}
		if err := storage.SetUserPresenceHidden(ctx, db, b, true); err != nil {
			t.Fatal(err)
		}
		if err := storage.SetUserPresenceHidden(ctx, db, storage.NewID(), true); err != storage.ErrNotFound {
			t.Fatalf("unknown user: %v", err)
		}
		p, _ = storage.UserPresences(ctx, db, []int64{a, b})
		if p[a].LastSeen != 500 || p[a].Hidden || !p[b].Hidden {
			t.Fatalf("presence %v", p)
		}

		// a and b are friends; a opened a chat with c but nothing was said
		// yet; d shares a group with a; e shares only a channel with a.
		e := storedUser(t, db, "pres_e").ID
		if err := storage.AddChatFriends(ctx, db, storage.ChatFriend{OwnerID: a, FriendID: b, CreatedAt: 1}, storage.ChatFriend{OwnerID: b, FriendID: a, CreatedAt: 1}); err != nil {
			t.Fatal(err)
		}
		convC := storage.ChatConversation{ID: "si_" + min(storage.FormatID(a), storage.FormatID(c)) + "_" + max(storage.FormatID(a), storage.FormatID(c)),
			SessionType: storage.SessionSingle, CreatedAt: 1}
		if err := storage.EnsureChatUserConversations(ctx, db, storage.ChatUserConvRow{UserID: a, ConversationID: convC.ID, PeerID: c, CreatedAt: 1}); err != nil {
			t.Fatal(err)
		}
		storedGroup(t, db, "shared", storage.ChatGroupMember{UserID: a, RoleLevel: storage.RoleMember, JoinTime: 1},
			storage.ChatGroupMember{UserID: d, RoleLevel: storage.RoleMember, JoinTime: 1})
		channel := storage.ChatGroup{ID: storage.NewID(), Name: "audience", OwnerID: e, CreatorID: e, GroupType: storage.GroupTypeChannel, MemberCount: 2, CreatedAt: 1, UpdatedAt: 1}
		if err := storage.CreateChatGroup(ctx, db, channel); err != nil {
			t.Fatal(err)
		}
		if err := storage.AddChatGroupMembers(ctx, db, storage.ChatGroupMember{GroupID: channel.ID, UserID: a, RoleLevel: storage.RoleMember, JoinTime: 1},
			storage.ChatGroupMember{GroupID: channel.ID, UserID: e, RoleLevel: storage.RoleOwner, JoinTime: 1}); err != nil {
			t.Fatal(err)
		}
		allowed, err := storage.ChatPresenceAllowed(ctx, db, a, []int64{a, b, c, d, e})
		if err != nil || !allowed[b] || allowed[c] || !allowed[d] || allowed[e] || allowed[a] || len(allowed) != 2 {
			t.Fatalf("allowed %v %v", allowed, err)
		}
		// A user message in the chat (from either side) relates a and c,
		// both ways.
		appendTexts(t, db, convC, c, "hello")
		if allowed, err := storage.ChatPresenceAllowed(ctx, db, a, []int64{c}); err != nil || !allowed[c] {
			t.Fatalf("after a message %v %v", allowed, err)
		}
		if allowed, err := storage.ChatPresenceAllowed(ctx, db, c, []int64{a}); err != nil || !allowed[a] {
			t.Fatalf("the other way %v %v", allowed, err)
		}
		// c blocks a, and a blocks b: a block either way ends the relation.
		if _, err := storage.AddChatBlock(ctx, db, storage.ChatBlock{OwnerID: c, BlockedID: a, CreatedAt: 2}); err != nil {
			t.Fatal(err)
		}
		if _, err := storage.AddChatBlock(ctx, db, storage.ChatBlock{OwnerID: a, BlockedID: b, CreatedAt: 2}); err != nil {
			t.Fatal(err)
		}
		if allowed, _ := storage.ChatPresenceAllowed(ctx, db, a, []int64{b, c, d}); allowed[c] || allowed[b] || !allowed[d] {
			t.Fatalf("after the blocks %v", allowed)
		}
		if allowed, _ := storage.ChatPresenceAllowed(ctx, db, b, []int64{a}); allowed[a] {
			t.Fatalf("the blocked side %v", allowed)
		}
	})
}
