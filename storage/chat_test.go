package storage_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

// appendTexts appends texts from sender to a conversation the way the chat
// actors do: lock, assign seqs, insert, bump the counter, raise the
// sender's read position.
func appendTexts(t *testing.T, db storage.DB, conv storage.ChatConversation, sender int64, texts ...string) []storage.ChatMessage {
	t.Helper()
	ctx := context.Background()
	var out []storage.ChatMessage
	err := db.Tx(ctx, func(tx storage.Tx) error {
		maxSeq, err := storage.LockChatConversation(ctx, tx, conv)
		if err != nil {
			return err
		}
		out = out[:0]
		for i, text := range texts {
			maxSeq++
			out = append(out, storage.ChatMessage{ConversationID: conv.ID, Seq: maxSeq,
				ServerMsgID: fmt.Sprint(storage.NewID()), ClientMsgID: fmt.Sprintf("c-%d-%s", storage.NewID(), text),
				SendID: sender, SessionType: conv.SessionType, GroupID: conv.GroupID, MsgFrom: 100, ContentType: 101,
				Content: `{"content":"` + text + `"}`, CreateTime: int64(i), SendTime: 1000 + maxSeq})
		}
		if err := storage.InsertChatMessages(ctx, tx, out); err != nil {
			return err
		}
		if err := storage.SetChatConversationSeq(ctx, tx, conv.ID, maxSeq, 1000+maxSeq); err != nil {
			return err
		}
		return storage.RaiseChatReadSeq(ctx, tx, sender, conv.ID, maxSeq)
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// storedGroup stores a group named name, created and owned by user 1, with
// members (their GroupID is filled in).
func storedGroup(t *testing.T, db storage.DB, name string, members ...storage.ChatGroupMember) storage.ChatGroup {
	t.Helper()
	ctx := context.Background()
	g := storage.ChatGroup{ID: storage.NewID(), Name: name, OwnerID: 1, CreatorID: 1, GroupType: storage.GroupTypeGroup,
		MemberCount: len(members), CreatedAt: 1, UpdatedAt: 1}
	if err := storage.CreateChatGroup(ctx, db, g); err != nil {
		t.Fatal(err)
	}
	for i := range members {
		members[i].GroupID = g.ID
	}
	if err := storage.AddChatGroupMembers(ctx, db, members...); err != nil {
		t.Fatal(err)
	}
	return g
}

func TestChatSeqAssignedInStoreAndPaged(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		conv := storage.ChatConversation{ID: "si_1_2", SessionType: storage.SessionSingle, CreatedAt: 1}
		if err := storage.EnsureChatUserConversations(ctx, db,
			storage.ChatUserConvRow{UserID: 1, ConversationID: conv.ID, PeerID: 2, CreatedAt: 1},
			storage.ChatUserConvRow{UserID: 2, ConversationID: conv.ID, PeerID: 1, CreatedAt: 1}); err != nil {
			t.Fatal(err)
		}
		first := appendTexts(t, db, conv, 1, "a", "b", "c")
		second := appendTexts(t, db, conv, 2, "d")
		third := appendTexts(t, db, conv, 1, "e", "f")
		if first[0].Seq != 1 || first[2].Seq != 3 || second[0].Seq != 4 || third[1].Seq != 6 {
			t.Fatalf("seqs %d..%d, %d, %d..%d", first[0].Seq, first[2].Seq, second[0].Seq, third[0].Seq, third[1].Seq)
		}
		// A duplicate clientMsgID is refused by the unique index.
		err := db.Tx(ctx, func(tx storage.Tx) error {
			dup := first[0]
			dup.Seq = 7
			return storage.InsertChatMessages(ctx, tx, []storage.ChatMessage{dup})
		})
		if !errors.Is(err, storage.ErrConflict) {
			t.Fatalf("duplicate clientMsgID: %v", err)
		}
		found, err := storage.ChatMessagesByClientIDs(ctx, db, conv.ID, []string{first[1].ClientMsgID, "nope", third[0].ClientMsgID})
		if err != nil || len(found) != 2 {
			t.Fatalf("by client ids: %v %v", found, err)
		}

		// Paging back from the end, two at a time, ascending within a page.
		page, more, err := storage.ChatMessagesPage(ctx, db, storage.ChatPage{UserID: 2, ConversationID: conv.ID, Limit: 2, Newest: true})
		if err != nil || !more || len(page) != 2 || page[0].Seq != 5 || page[1].Seq != 6 {
			t.Fatalf("newest page: %v more=%v err=%v", seqs(page), more, err)
		}
		page, more, _ = storage.ChatMessagesPage(ctx, db, storage.ChatPage{UserID: 2, ConversationID: conv.ID, Before: 5, Limit: 4, Newest: true})
		if more || len(page) != 4 || page[0].Seq != 1 {
			t.Fatalf("older page: %v more=%v", seqs(page), more)
		}
		// Catching up after seq 3 (a reconnect): 4, 5, 6 in order.
		page, more, _ = storage.ChatMessagesPage(ctx, db, storage.ChatPage{UserID: 2, ConversationID: conv.ID, After: 3, Limit: 10})
		if more || fmt.Sprint(seqs(page)) != "[4 5 6]" {
			t.Fatalf("after 3: %v more=%v", seqs(page), more)
		}
		// A message deleted by user 2 disappears for 2 only.
		if err := storage.DeleteChatMessageForUser(ctx, db, 2, conv.ID, 5); err != nil {
			t.Fatal(err)
		}
		page, _, _ = storage.ChatMessagesPage(ctx, db, storage.ChatPage{UserID: 2, ConversationID: conv.ID, After: 3, Limit: 10})
		if fmt.Sprint(seqs(page)) != "[4 6]" {
			t.Fatalf("after delete: %v", seqs(page))
		}
		page, _, _ = storage.ChatMessagesPage(ctx, db, storage.ChatPage{UserID: 1, ConversationID: conv.ID, After: 3, Limit: 10})
		if len(page) != 3 {
			t.Fatalf("user 1 still sees 3: %v", seqs(page))
		}
		latest, err := storage.LatestVisibleChatMessage(ctx, db, 2, conv.ID, 0, 5)
		if err != nil || latest.Seq != 4 {
			t.Fatalf("latest visible up to 5 for user 2: %d %v", latest.Seq, err)
		}
		found2, err := storage.SearchChatMessages(ctx, db, 1, conv.ID, 0, 6, []int{101}, []string{"f"}, 10)
		if err != nil || len(found2) != 1 || found2[0].Seq != 6 {
			t.Fatalf("search: %v %v", seqs(found2), err)
		}
		if err := storage.ReplaceChatMessageContent(ctx, db, conv.ID, 6, 2101, `{"revoked":1}`); err != nil {
			t.Fatal(err)
		}
		m, _ := storage.ChatMessageBySeq(ctx, db, conv.ID, 6)
		if m.ContentType != 2101 {
			t.Fatalf("revoked content type %d", m.ContentType)
		}
	})
}

func TestChatUnreadReadAndVisibility(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		conv := storage.ChatConversation{ID: "si_1_2", SessionType: storage.SessionSingle, CreatedAt: 1}
		storage.EnsureChatUserConversations(ctx, db,
			storage.ChatUserConvRow{UserID: 1, ConversationID: conv.ID, PeerID: 2, CreatedAt: 1},
			storage.ChatUserConvRow{UserID: 2, ConversationID: conv.ID, PeerID: 1, CreatedAt: 1})
		appendTexts(t, db, conv, 1, "a", "b", "c")
		get := func(user int64) storage.ChatUserConversation {
			t.Helper()
			c, err := storage.ChatUserConversationByID(ctx, db, user, conv.ID)
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
		if u := get(2).Unread; u != 3 {
			t.Fatalf("receiver unread %d, want 3", u)
		}
		if u := get(1).Unread; u != 0 {
			t.Fatalf("sender unread %d, want 0", u)
		}
		if err := storage.MarkChatConversationRead(ctx, db, 2, conv.ID); err != nil {
			t.Fatal(err)
		}
		if c := get(2); c.Unread != 0 || c.ReadSeq != 3 {
			t.Fatalf("after mark read: %+v", c)
		}
		appendTexts(t, db, conv, 1, "d")
		if u := get(2).Unread; u != 1 {
			t.Fatalf("unread after one more: %d", u)
		}
		// Delete conversation: hidden and empty until a newer message.
		if err := storage.ClearChatConversation(ctx, db, 2, conv.ID, true); err != nil {
			t.Fatal(err)
		}
		if c := get(2); c.Visible() || c.Unread != 0 || c.MinSeq != 4 {
			t.Fatalf("deleted conversation: %+v", c)
		}
		appendTexts(t, db, conv, 1, "e")
		if c := get(2); !c.Visible() || c.Unread != 1 {
			t.Fatalf("new message shows it again: %+v", c)
		}
		page, _, _ := storage.ChatMessagesPage(ctx, db, storage.ChatPage{UserID: 2, ConversationID: conv.ID, After: get(2).MinSeq, Limit: 10})
		if fmt.Sprint(seqs(page)) != "[5]" {
			t.Fatalf("history after delete: %v", seqs(page))
		}
		if err := storage.SetChatConversationPinned(ctx, db, 2, conv.ID, true); err != nil {
			t.Fatal(err)
		}
		if err := storage.SetChatConversationDraft(ctx, db, 2, conv.ID, "hello", 77); err != nil {
			t.Fatal(err)
		}
		if c := get(2); !c.IsPinned || c.DraftText != "hello" || c.DraftTime != 77 {
			t.Fatalf("pin/draft: %+v", c)
		}
		if err := storage.SetChatConversationPinned(ctx, db, 3, conv.ID, true); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("pin someone else's conversation: %v", err)
		}
		if err := storage.HideChatConversation(ctx, db, 2, conv.ID); err != nil {
			t.Fatal(err)
		}
		if c := get(2); c.Visible() || c.IsPinned {
			t.Fatalf("hidden: %+v", c)
		}
		list, err := storage.ChatUserConversations(ctx, db, 1)
		if err != nil || len(list) != 1 || list[0].PeerID != 2 {
			t.Fatalf("list: %+v %v", list, err)
		}
	})
}

func TestChatGroupMembersViewsAndMutes(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		g := storedGroup(t, db, "Team 100%",
			storage.ChatGroupMember{UserID: 1, RoleLevel: storage.RoleOwner, JoinTime: 1},
			storage.ChatGroupMember{UserID: 2, RoleLevel: storage.RoleMember, JoinTime: 2})
		if err := storage.AddChatGroupMembers(ctx, db, storage.ChatGroupMember{GroupID: g.ID, UserID: 2, JoinTime: 3}); !errors.Is(err, storage.ErrConflict) {
			t.Fatalf("member twice: %v", err)
		}
		conv := storage.ChatConversation{ID: fmt.Sprintf("sg_%d", g.ID), SessionType: storage.SessionGroup, GroupID: g.ID, CreatedAt: 1}
		for _, u := range []int64{1, 2} {
			if err := storage.EnterChatGroupConversation(ctx, db, u, conv.ID, g.ID, 0, 1); err != nil {
				t.Fatal(err)
			}
		}
		appendTexts(t, db, conv, 1, "x", "y")
		// Member 3 joins after two messages and sees only what follows.
		storage.AddChatGroupMembers(ctx, db, storage.ChatGroupMember{GroupID: g.ID, UserID: 3, RoleLevel: storage.RoleMember, JoinTime: 4})
		if err := storage.EnterChatGroupConversation(ctx, db, 3, conv.ID, g.ID, 2, 4); err != nil {
			t.Fatal(err)
		}
		appendTexts(t, db, conv, 2, "z")
		c3, _ := storage.ChatUserConversationByID(ctx, db, 3, conv.ID)
		if c3.Unread != 1 || c3.MinSeq != 2 {
			t.Fatalf("late joiner: %+v", c3)
		}
		// Member 2 leaves at seq 3 and stops seeing later messages.
		if err := storage.EndChatGroupConversation(ctx, db, []int64{2}, conv.ID, 3); err != nil {
			t.Fatal(err)
		}
		appendTexts(t, db, conv, 1, "after")
		c2, _ := storage.ChatUserConversationByID(ctx, db, 2, conv.ID)
		if c2.VisibleMax() != 3 || c2.Unread != 0 {
			t.Fatalf("ex-member: visible max %d unread %d", c2.VisibleMax(), c2.Unread)
		}
		if err := storage.MarkChatConversationRead(ctx, db, 2, conv.ID); err != nil {
			t.Fatal(err)
		}
		if c2, _ = storage.ChatUserConversationByID(ctx, db, 2, conv.ID); c2.ReadSeq != 3 {
			t.Fatalf("ex-member reads up to its end: %d", c2.ReadSeq)
		}

		// Mutes: set, list, expire once.
		m2, _ := storage.ChatGroupMemberOf(ctx, db, g.ID, 2)
		m2.MutedUntil = 5000
		if err := storage.UpdateChatGroupMember(ctx, db, m2); err != nil {
			t.Fatal(err)
		}
		mutes, _ := storage.ChatMutes(ctx, db)
		if len(mutes) != 1 || mutes[0].UserID != 2 {
			t.Fatalf("mutes %+v", mutes)
		}
		if ok, _ := storage.ClearExpiredChatMute(ctx, db, g.ID, 2, 5000, 4999); ok {
			t.Fatal("cleared a mute before its deadline")
		}
		if ok, _ := storage.ClearExpiredChatMute(ctx, db, g.ID, 2, 5000, 5000); !ok {
			t.Fatal("due mute not cleared")
		}
		if ok, _ := storage.ClearExpiredChatMute(ctx, db, g.ID, 2, 5000, 6000); ok {
			t.Fatal("mute cleared twice")
		}

		found, err := storage.SearchChatGroupsByName(ctx, db, "100%", 10)
		if err != nil || len(found) != 1 {
			t.Fatalf("search by name with a wildcard character: %v %v", found, err)
		}
		if found, _ = storage.SearchChatGroupsByName(ctx, db, "1000", 10); len(found) != 0 {
			t.Fatalf("%% must be literal: %v", found)
		}
		mine, _ := storage.UserChatGroups(ctx, db, 3, 0)
		if len(mine) != 1 || mine[0].ID != g.ID {
			t.Fatalf("user groups %+v", mine)
		}
		if n, err := storage.RemoveChatGroupMembers(ctx, db, g.ID, []int64{2, 99}); err != nil || n != 1 {
			t.Fatalf("remove: %d %v", n, err)
		}
		ids, _ := storage.ChatGroupMemberIDs(ctx, db, g.ID)
		if len(ids) != 2 {
			t.Fatalf("ids %v", ids)
		}
		members, _ := storage.ChatGroupMembers(ctx, db, g.ID)
		if members[0].RoleLevel != storage.RoleOwner {
			t.Fatalf("owner first: %+v", members)
		}

		// Applications.
		if err := storage.PutChatGroupRequest(ctx, db, storage.ChatGroupRequest{GroupID: g.ID, UserID: 7, ReqMsg: "hi", CreatedAt: 9}); err != nil {
			t.Fatal(err)
		}
		adm, _ := storage.ChatGroupRequestsForAdmin(ctx, db, 1)
		if len(adm) != 1 || adm[0].UserID != 7 {
			t.Fatalf("owner sees applications: %+v", adm)
		}
		if adm, _ = storage.ChatGroupRequestsForAdmin(ctx, db, 3); len(adm) != 0 {
			t.Fatalf("member sees applications: %+v", adm)
		}
		if err := storage.HandleChatGroupRequest(ctx, db, g.ID, 7, 1, "ok", 1, 10); err != nil {
			t.Fatal(err)
		}
		if err := storage.HandleChatGroupRequest(ctx, db, g.ID, 7, -1, "no", 1, 11); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("handled twice: %v", err)
		}
	})
}

func TestChatFriendsRequestsBlacklist(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		if err := storage.PutChatFriendRequest(ctx, db, storage.ChatFriendRequest{FromID: 1, ToID: 2, ReqMsg: "hi", CreatedAt: 1}); err != nil {
			t.Fatal(err)
		}
		if err := storage.HandleChatFriendRequest(ctx, db, 1, 2, storage.FriendRefused, "no", 2); err != nil {
			t.Fatal(err)
		}
		// Asking again after a refusal starts a new pending application.
		storage.PutChatFriendRequest(ctx, db, storage.ChatFriendRequest{FromID: 1, ToID: 2, ReqMsg: "please", CreatedAt: 3})
		r, err := storage.ChatFriendRequestOf(ctx, db, 1, 2)
		if err != nil || r.HandleResult != storage.FriendPending || r.ReqMsg != "please" {
			t.Fatalf("re-request: %+v %v", r, err)
		}
		to, _ := storage.ChatFriendRequestsTo(ctx, db, 2)
		from, _ := storage.ChatFriendRequestsFrom(ctx, db, 1)
		if len(to) != 1 || len(from) != 1 {
			t.Fatalf("lists %v %v", to, from)
		}
		if err := storage.AddChatFriends(ctx, db, storage.ChatFriend{OwnerID: 1, FriendID: 2, CreatedAt: 4}, storage.ChatFriend{OwnerID: 2, FriendID: 1, CreatedAt: 4}); err != nil {
			t.Fatal(err)
		}
		if err := storage.SetChatFriendRemark(ctx, db, 1, 2, "Bob"); err != nil {
			t.Fatal(err)
		}
		if err := storage.SetChatFriendRemark(ctx, db, 1, 3, "x"); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("remark for a stranger: %v", err)
		}
		f, _ := storage.ChatFriendOf(ctx, db, 1, 2)
		if f.Remark != "Bob" {
			t.Fatalf("remark %q", f.Remark)
		}
		if ok, _ := storage.DeleteChatFriendship(ctx, db, 2, 1); !ok {
			t.Fatal("delete friendship")
		}
		if list, _ := storage.ChatFriends(ctx, db, 1); len(list) != 0 {
			t.Fatalf("both sides gone: %v", list)
		}
		if added, _ := storage.AddChatBlock(ctx, db, storage.ChatBlock{OwnerID: 2, BlockedID: 1, CreatedAt: 5}); !added {
			t.Fatal("block")
		}
		if added, _ := storage.AddChatBlock(ctx, db, storage.ChatBlock{OwnerID: 2, BlockedID: 1, CreatedAt: 6}); added {
			t.Fatal("blocked twice")
		}
		if b, _ := storage.ChatBlocked(ctx, db, 2, 1); !b {
			t.Fatal("not blocked")
		}
		if b, _ := storage.ChatBlocked(ctx, db, 1, 2); b {
			t.Fatal("blocking is one-way")
		}
		if err := storage.RemoveChatBlock(ctx, db, 2, 1); err != nil {
			t.Fatal(err)
		}
		if err := storage.RemoveChatBlock(ctx, db, 2, 1); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("remove twice: %v", err)
		}
		if err := storage.CreateChatFile(ctx, db, storage.ChatFile{ID: 1, OwnerID: 1, Path: "chat/1/1.png", ContentType: "image/png", Size: 10, CreatedAt: 1}); err != nil {
			t.Fatal(err)
		}
		if _, err := storage.ChatFileByPath(ctx, db, "chat/1/2.png"); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("unknown file: %v", err)
		}
		u := newUser("nick_search")
		u.Nickname = "Zed_1"
		addUsers(t, db, u)
		users, err := storage.SearchUsersByNickname(ctx, db, "ed_", 10)
		if err != nil || len(users) != 1 {
			t.Fatalf("nickname search: %v %v", users, err)
		}
	})
}

func seqs(ms []storage.ChatMessage) []int64 {
	out := make([]int64, len(ms))
	for i, m := range ms {
		out[i] = m.Seq
	}
	return out
}
