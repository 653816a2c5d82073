package storage_test

import (
	"context"
	"fmt"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

// appendMessage appends one message of any type and content from sender.
func appendMessage(t *testing.T, db storage.DB, conv storage.ChatConversation, sender int64, contentType int, content string) storage.ChatMessage {
	t.Helper()
	ctx := context.Background()
	var m storage.ChatMessage
	err := db.Tx(ctx, func(tx storage.Tx) error {
		maxSeq, err := storage.LockChatConversation(ctx, tx, conv)
		if err != nil {
			return err
		}
		m = storage.ChatMessage{ConversationID: conv.ID, Seq: maxSeq + 1, ServerMsgID: fmt.Sprint(storage.NewID()),
			ClientMsgID: fmt.Sprint("c-", storage.NewID()), SendID: sender, SessionType: conv.SessionType, GroupID: conv.GroupID,
			MsgFrom: 100, ContentType: contentType, Content: content, SendTime: 1000 + maxSeq + 1}
		if err := storage.InsertChatMessages(ctx, tx, []storage.ChatMessage{m}); err != nil {
			return err
		}
		if err := storage.SetChatConversationSeq(ctx, tx, conv.ID, m.Seq, m.SendTime); err != nil {
			return err
		}
		return storage.RaiseChatReadSeq(ctx, tx, sender, conv.ID, m.Seq)
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestChatAtTypeUntilRead(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		conv := storage.ChatConversation{ID: "sg_9", SessionType: storage.SessionGroup, GroupID: 9, CreatedAt: 1}
		for _, u := range []int64{1, 2, 3} {
			if err := storage.EnsureChatUserConversations(ctx, db, storage.ChatUserConvRow{UserID: u, ConversationID: conv.ID, GroupID: 9, CreatedAt: 1}); err != nil {
				t.Fatal(err)
			}
		}
		atType := func(user int64) int {
			t.Helper()
			c, err := storage.ChatUserConversationByID(ctx, db, user, conv.ID)
			if err != nil {
				t.Fatal(err)
			}
			list, err := storage.ChatUserConversations(ctx, db, user)
			if err != nil || len(list) != 1 || list[0].AtType != c.AtType {
				t.Fatalf("list %+v disagrees with the row %+v (%v)", list, c, err)
			}
			return c.AtType
		}
		// User 21 has a nickname that is another member's id: it must not
		// count as mentioning that member.
		appendMessage(t, db, conv, 1, 106, `{"text":"@2 look","atUserList":["2"],"atUsersInfo":[{"atUserID":"2","groupNickname":"3"}]}`)
		if a, b, c := atType(1), atType(2), atType(3); a != 0 || b != storage.ChatAtMe || c != 0 {
			t.Fatalf("after @2: sender %d, 2 %d, 3 %d", a, b, c)
		}
		appendMessage(t, db, conv, 1, 106, `{"text":"@all","atUserList":["AtAllTag"]}`)
		if b, c := atType(2), atType(3); b != storage.ChatAtAllAtMe || c != storage.ChatAtAll {
			t.Fatalf("after @all: 2 %d, 3 %d", b, c)
		}
		if err := storage.MarkChatConversationRead(ctx, db, 2, conv.ID); err != nil {
			t.Fatal(err)
		}
		if b, c := atType(2), atType(3); b != 0 || c != storage.ChatAtAll {
			t.Fatalf("after 2 read: 2 %d, 3 %d", b, c)
		}
		// A plain text naming the id in quotes is no mention.
		appendMessage(t, db, conv, 1, 101, `{"content":"\"2\""}`)
		if b := atType(2); b != 0 {
			t.Fatalf("plain text counted as mention: %d", b)
		}
		// Sending marks the conversation read, and so clears the mark.
		appendMessage(t, db, conv, 3, 101, `{"content":"ok"}`)
		if c := atType(3); c != 0 {
			t.Fatalf("after 3 sent: %d", c)
		}
	})
}

func TestSearchUserChatMessagesOwnConversationsOnly(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		mine := storage.ChatConversation{ID: "si_1_2", SessionType: storage.SessionSingle, CreatedAt: 1}
		group := storage.ChatConversation{ID: "sg_7", SessionType: storage.SessionGroup, GroupID: 7, CreatedAt: 1}
		theirs := storage.ChatConversation{ID: "si_2_3", SessionType: storage.SessionSingle, CreatedAt: 1}
		if err := storage.EnsureChatUserConversations(ctx, db,
			storage.ChatUserConvRow{UserID: 1, ConversationID: mine.ID, PeerID: 2, CreatedAt: 1},
			storage.ChatUserConvRow{UserID: 2, ConversationID: mine.ID, PeerID: 1, CreatedAt: 1},
			storage.ChatUserConvRow{UserID: 1, ConversationID: group.ID, GroupID: 7, CreatedAt: 1},
			storage.ChatUserConvRow{UserID: 2, ConversationID: theirs.ID, PeerID: 3, CreatedAt: 1},
			storage.ChatUserConvRow{UserID: 3, ConversationID: theirs.ID, PeerID: 2, CreatedAt: 1}); err != nil {
			t.Fatal(err)
		}
		old := appendMessage(t, db, mine, 2, 101, `{"content":"Lunch at noon?"}`)
		appendMessage(t, db, mine, 1, 101, `{"content":"nothing here"}`)
		deleted := appendMessage(t, db, mine, 2, 101, `{"content":"lunch deleted"}`)
		inGroup := appendMessage(t, db, group, 2, 106, `{"text":"@1 LUNCH \"time\" \u003cnow\u003e","atUserList":["1"]}`)
		appendMessage(t, db, theirs, 3, 101, `{"content":"lunch secret"}`)
		appendMessage(t, db, mine, 2, 102, `{"sourcePicture":{"url":"lunch.png"}}`)
		if err := storage.DeleteChatMessageForUser(ctx, db, 1, mine.ID, deleted.Seq); err != nil {
			t.Fatal(err)
		}
		search := func(kw string, offset, limit int) []string {
			t.Helper()
			list, err := storage.SearchUserChatMessages(ctx, db, storage.ChatSearch{UserID: 1, Keyword: kw,
				ContentTypes: []int{101, 106}, Offset: offset, Limit: limit})
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, m := range list {
				out = append(out, fmt.Sprintf("%s/%d", m.ConversationID, m.Seq))
			}
			return out
		}
		want := fmt.Sprint([]string{fmt.Sprintf("sg_7/%d", inGroup.Seq), fmt.Sprintf("si_1_2/%d", old.Seq)})
		if got := fmt.Sprint(search("lunch", 0, 10)); got != want {
			t.Fatalf("search lunch: %s, want %s", got, want)
		}
		if got := fmt.Sprint(search("LUNCH", 1, 1)); got != fmt.Sprint([]string{fmt.Sprintf("si_1_2/%d", old.Seq)}) {
			t.Fatalf("second page: %s", got)
		}
		// Quotes and angle brackets are matched as typed, though the stored JSON
		// escapes them (json.Marshal writes < as \u003c).
		if got := search(`"time" <now>`, 0, 10); len(got) != 1 {
			t.Fatalf("escaped keyword: %v", got)
		}
		if got := search("100%", 0, 10); len(got) != 0 {
			t.Fatalf("wildcard matched: %v", got)
		}
		// Clearing the history hides what came before from the search.
		if err := storage.ClearChatConversation(ctx, db, 1, mine.ID, false); err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(search("lunch", 0, 10)); got != fmt.Sprint([]string{fmt.Sprintf("sg_7/%d", inGroup.Seq)}) {
			t.Fatalf("after clear: %s", got)
		}
	})
}
