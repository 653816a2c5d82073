package chat

import (
	"context"
	"strings"
	"testing"

	"kj/internal/apierr"
	"kj/storage"
	"kj/storage/storagetest"
)

func TestFriendsApplicationsRemarkDeleteAndBlacklist(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		alice, bob, carol := h.user("alice"), h.user("bob"), h.user("carol")
		a, b, c := h.connect(alice), h.connect(bob), h.connect(carol)

		// A verification message is required; yourself and strangers fail.
		a.fails(apierr.CodeChatVerifyRequired, "AddFriend", obj(map[string]string{"toUserID": bob.id, "reqMsg": "  "}))
		a.fails(apierr.CodeChatSelf, "AddFriend", obj(map[string]string{"toUserID": alice.id, "reqMsg": "me"}))
		a.fails(apierr.CodeChatUserNotFound, "AddFriend", obj(map[string]string{"toUserID": "12345", "reqMsg": "hi"}))
		a.ok(nil, "AddFriend", obj(map[string]string{"toUserID": bob.id, "reqMsg": "I am Alice"}))
		app := decode[FriendApplicationItem](t, b.waitPush("OnFriendApplicationAdded", nil).Data)
		if app.FromUserID != alice.id || app.ReqMsg != "I am Alice" || app.HandleResult != storage.FriendPending || app.FromNickname != "alice" {
			t.Fatalf("application %+v", app)
		}
		var sent []FriendApplicationItem
		a.ok(&sent, "GetFriendApplicationListAsApplicant")
		if len(sent) != 1 || sent[0].ToUserID != bob.id {
			t.Fatalf("applicant's list %+v", sent)
		}
		// Refused, asked again, accepted ("Added").
		b.ok(nil, "RefuseFriendApplication", obj(map[string]string{"toUserID": alice.id, "handleMsg": "who?"}))
		if r := decode[FriendApplicationItem](t, a.waitPush("OnFriendApplicationRejected", nil).Data); r.HandleResult != storage.FriendRefused || r.HandleMsg != "who?" {
			t.Fatalf("refusal %+v", r)
		}
		b.fails(apierr.CodeChatNoApplication, "AcceptFriendApplication", obj(map[string]string{"toUserID": alice.id}))
		a.ok(nil, "AddFriend", obj(map[string]string{"toUserID": bob.id, "reqMsg": "from school"}))
		b.ok(nil, "AcceptFriendApplication", obj(map[string]string{"toUserID": alice.id, "handleMsg": "ok"}))
		a.waitPush("OnFriendApplicationAccepted", nil)
		added := decode[FriendUserItem](t, a.waitPush("OnFriendAdded", nil).Data)
		if added.UserID != bob.id || added.OwnerUserID != alice.id {
			t.Fatalf("friend added %+v", added)
		}
		// The friend-added notice opens the conversation for both.
		a.waitPush("OnRecvNewMessage", noticeOf(NoticeFriendAdded))
		b.waitPush("OnNewConversation", nil)
		var apps []FriendApplicationItem
		b.ok(&apps, "GetFriendApplicationListAsRecipient")
		if len(apps) != 1 || apps[0].HandleResult != storage.FriendAccepted {
			t.Fatalf("recipient's list %+v", apps)
		}
		a.fails(apierr.CodeChatAlreadyFriends, "AddFriend", obj(map[string]string{"toUserID": bob.id, "reqMsg": "again"}))
		var friends []FullUserItem
		a.ok(&friends, "GetFriendList")
		if len(friends) != 1 || friends[0].FriendInfo.UserID != bob.id || friends[0].PublicInfo.Nickname != "bob" {
			t.Fatalf("friends %+v", friends)
		}
		var check []FriendshipInfo
		a.ok(&check, "CheckFriend", obj([]string{bob.id, carol.id}))
		if len(check) != 2 || check[0].Result != 1 || check[1].Result != 0 {
			t.Fatalf("check %+v", check)
		}

		// Remark: only for friends; it names the conversation.
		a.ok(nil, "SetFriendRemark", obj(map[string]string{"toUserID": bob.id, "remark": "Bobby"}))
		a.waitPush("OnFriendInfoChanged", func(d string) bool { return strings.Contains(d, "Bobby") })
		a.fails(apierr.CodeChatNotFriends, "SetFriendRemark", obj(map[string]string{"toUserID": carol.id, "remark": "x"}))
		if list := a.conversations(); len(list) != 1 || list[0].ShowName != "Bobby" {
			t.Fatalf("conversation named by remark: %+v", list)
		}
		var found []SearchedFriend
		a.ok(&found, "SearchFriends", obj(map[string]any{"keywordList": []string{"bobb"}, "isSearchRemark": true}))
		if len(found) != 1 || found[0].Relationship != 1 {
			t.Fatalf("search friends %+v", found)
		}
		// By the account a friend signs in with (any case), when searching by id; a
		// stranger's account finds nobody.
		a.ok(&found, "SearchFriends", obj(map[string]any{"keywordList": []string{strings.ToUpper(bob.Account)}, "isSearchUserID": true}))
		if len(found) != 1 || found[0].UserID != bob.id {
			t.Fatalf("search friends by account %+v", found)
		}
		a.ok(&found, "SearchFriends", obj(map[string]any{"keywordList": []string{bob.Account}, "isSearchNickname": true}))
		if len(found) != 0 {
			t.Fatalf("account matched without searching by id: %+v", found)
		}
		a.ok(&found, "SearchFriends", obj(map[string]any{"keywordList": []string{carol.Account}, "isSearchUserID": true}))
		if len(found) != 0 {
			t.Fatalf("a stranger found by account: %+v", found)
		}

		// Blacklist: the blocked peer's sends fail; nothing is stored.
		a.text(bob.id, "", "before the block")
		b.ok(nil, "AddBlack", alice.id, "")
		b.waitPush("OnBlackAdded", nil)
		var m Message
		a.ok(&m, "CreateTextMessage", "can you hear me?")
		if r := a.sendRaw(&m, bob.id, ""); r.ErrCode != apierr.CodeChatBlacklisted || r.ErrMsg != "The peer added you to the blacklist" {
			t.Fatalf("blocked send: %+v", r)
		}
		if _, err := storage.ChatMessageByClientID(context.Background(), db, singleConversationID(alice.id, bob.id), m.ClientMsgID); err != storage.ErrNotFound {
			t.Fatalf("a refused message was stored: %v", err)
		}
		a.fails(apierr.CodeChatBlacklisted, "TypingStatusUpdate", bob.id, "typing")
		var black []BlackUserItem
		c.ok(&black, "GetBlackList")
		if len(black) != 0 {
			t.Fatalf("carol's blacklist %+v", black)
		}
		b.ok(&black, "GetBlackList")
		if len(black) != 1 || black[0].UserID != alice.id {
			t.Fatalf("blacklist %+v", black)
		}
		// The blocker can still write to the blocked user.
		b.text(alice.id, "", "I can still write")
		b.ok(nil, "RemoveBlack", alice.id)
		b.waitPush("OnBlackDeleted", nil)
		if r := a.sendRaw(&m, bob.id, ""); r.ErrCode != 0 {
			t.Fatalf("after unblocking: %+v", r)
		}

		// Delete: both sides lose the friendship.
		a.ok(nil, "DeleteFriend", bob.id)
		b.waitPush("OnFriendDeleted", nil)
		b.ok(&friends, "GetFriendList")
		if len(friends) != 0 {
			t.Fatalf("friends after delete %+v", friends)
		}
		a.fails(apierr.CodeChatNotFriends, "DeleteFriend", bob.id)
	})
}
