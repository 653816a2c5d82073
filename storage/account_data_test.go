package storage_test

import (
	"context"
	"errors"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

// TestDeleteAccountErasesThePersonAndKeepsTheMoney: deleting an account
// erases its names, phone, cards and secrets, renames its messages in the
// conversations of others to the deleted account (and nobody else's), ends
// its sessions, and keeps its ledger rows and orders under the same id
// until the retention sweep cuts the cards on its settled orders.
func TestDeleteAccountErasesThePersonAndKeepsTheMoney(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		ann, bob := storedUser(t, db, "del_ann"), storedUser(t, db, "del_bob")
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(storage.SetUserPhone(ctx, db, ann.ID, "60123456789", true, 2))
		must(storage.UpdateUserFields(ctx, db, ann.ID, 2, map[string]any{"avatar": "/files/avatars/2026/11/1-aaaaaaaaaaaaaaaa.png", "fund_password_hash": "f"}))
		must(storage.CreateBankCard(ctx, db, storage.BankCard{ID: storage.NewID(), UserID: ann.ID, BankID: 1, BankName: "B", HolderName: "Ann Lee", CardNumber: "6222020200112233", CreatedAt: 2}))
		must(storage.CreateBankCard(ctx, db, storage.BankCard{ID: storage.NewID(), UserID: bob.ID, BankID: 1, BankName: "B", HolderName: "Bob", CardNumber: "6222020200445566", CreatedAt: 2}))
		conv := "si_del"
		must(storage.EnsureChatUserConversations(ctx, db,
			storage.ChatUserConvRow{UserID: ann.ID, ConversationID: conv, PeerID: bob.ID, CreatedAt: 1},
			storage.ChatUserConvRow{UserID: bob.ID, ConversationID: conv, PeerID: ann.ID, CreatedAt: 1}))
		must(db.Tx(ctx, func(tx storage.Tx) error {
			if _, err := storage.LockChatConversation(ctx, tx, storage.ChatConversation{ID: conv, SessionType: 1, CreatedAt: 1}); err != nil {
				return err
			}
			return storage.InsertChatMessages(ctx, tx, []storage.ChatMessage{
				{ConversationID: conv, Seq: 1, ServerMsgID: "s1", ClientMsgID: "c1", SendID: ann.ID, RecvID: bob.ID, SessionType: 1, MsgFrom: 100,
					ContentType: 101, Content: `{"content":"from ann"}`, SenderNickname: "Ann", SenderFaceURL: "/files/avatars/a.png", CreateTime: 3, SendTime: 3},
				{ConversationID: conv, Seq: 2, ServerMsgID: "s2", ClientMsgID: "c2", SendID: bob.ID, RecvID: ann.ID, SessionType: 1, MsgFrom: 100,
					ContentType: 101, Content: `{"content":"from bob"}`, SenderNickname: "Bob", CreateTime: 4, SendTime: 4},
			})
		}))
		sent, err := storage.MessagesSentBy(ctx, db, ann.ID)
		must(err)
		if len(sent) != 1 || sent[0].ClientMsgID != "c1" || sent[0].Content != `{"content":"from ann"}` {
			t.Fatalf("ann sent %+v, want her one message only", sent)
		}
		// A settled exchange with its card copied, and a session.
		must(storage.CreateExchangeOrder(ctx, db, storage.ExchangeOrder{ID: storage.NewID(), OrderNo: "E1", UserID: ann.ID, Amount: 1000,
			BankCardID: 1, BankName: "B", HolderName: "Ann Lee", CardNumber: "6222020200112233", Status: storage.OrderCompleted, RequestKey: "k1", CreatedAt: 2}))
		must(storage.CreateExchangeOrder(ctx, db, storage.ExchangeOrder{ID: storage.NewID(), OrderNo: "E2", UserID: ann.ID, Amount: 1000,
			BankCardID: 1, BankName: "B", HolderName: "Ann Lee", CardNumber: "6222020200112233", Status: storage.OrderUnderReview, RequestKey: "k2", CreatedAt: 3}))
		var sessions []int64
		must(db.Tx(ctx, func(tx storage.Tx) error {
			s := storage.AuthSession{ID: storage.NewID(), UserID: ann.ID, Platform: 5, TokenHash: "t", JWTHash: "j", ChatTokenHash: "c", TokenExpiresAt: 1e15, JWTExpiresAt: 1e15, CreatedAt: 1}
			sessions = append(sessions, s.ID)
			_, err := storage.CreateSession(ctx, tx, s)
			return err
		}))

		var ended []int64
		must(db.Tx(ctx, func(tx storage.Tx) error {
			if _, err := storage.LockUserForDeletion(ctx, tx, ann.ID); err != nil {
				return err
			}
			var err error
			ended, err = storage.DeleteAccount(ctx, tx, ann.ID, 10)
			return err
		}))
		if len(ended) != 1 || ended[0] != sessions[0] {
			t.Errorf("sessions ended %v, want %v", ended, sessions)
		}
		u, err := storage.UserByID(ctx, db, ann.ID)
		must(err)
		if u.Account == "del_ann" || u.PasswordHash != "" || u.FundPasswordHash != "" || u.Phone != "" || u.Avatar != "" ||
			u.Nickname != storage.DeletedNickname || u.InviteCode == "pro_del_ann" {
			t.Errorf("tombstone keeps the person: %+v", u)
		}
		if _, err := storage.UserByAccount(ctx, db, "del_ann"); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("the old account name still finds the user: %v", err)
		}
		if gone, err := storage.UserDeleted(ctx, db, ann.ID); err != nil || !gone {
			t.Errorf("UserDeleted = %v, %v", gone, err)
		}
		if n, _ := storage.CountBankCards(ctx, db, ann.ID); n != 0 {
			t.Errorf("%d cards left", n)
		}
		if n, _ := storage.CountBankCards(ctx, db, bob.ID); n != 1 {
			t.Errorf("bob's card went too: %d left", n)
		}
		m1, _ := storage.ChatMessageBySeq(ctx, db, conv, 1)
		m2, _ := storage.ChatMessageBySeq(ctx, db, conv, 2)
		if m1.SenderNickname != storage.DeletedNickname || m1.SenderFaceURL != "" || m1.Content != `{"content":"from ann"}` {
			t.Errorf("ann's message in bob's chat: %+v", m1)
		}
		if m2.SenderNickname != "Bob" {
			t.Errorf("bob's own message renamed: %+v", m2)
		}
		// Deleting twice finds nobody.
		err = db.Tx(ctx, func(tx storage.Tx) error {
			_, err := storage.LockUserForDeletion(ctx, tx, ann.ID)
			return err
		})
		if !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("second deletion: %v", err)
		}

		// Retention: not yet due, then due.
		if ids, _ := storage.DeletedAccountsToPurge(ctx, db, 9, 10); len(ids) != 0 {
			t.Errorf("purge before retention ends: %v", ids)
		}
		ids, err := storage.DeletedAccountsToPurge(ctx, db, 10, 10)
		must(err)
		if len(ids) != 1 || ids[0] != ann.ID {
			t.Fatalf("to purge %v, want ann", ids)
		}
		must(db.Tx(ctx, func(tx storage.Tx) error { return storage.PurgeDeletedAccount(ctx, tx, ann.ID, 20) }))
		orders, err := storage.AllExchangeOrdersOf(ctx, db, ann.ID)
		must(err)
		if len(orders) != 2 || orders[0].CardNumber != "2233" || orders[0].HolderName != "" || orders[0].Amount != 1000 {
			t.Errorf("settled order after purge: %+v", orders)
		}
		if orders[1].CardNumber != "6222020200112233" {
			t.Errorf("an exchange under review lost the card it is paid to: %+v", orders[1])
		}
		if ids, _ := storage.DeletedAccountsToPurge(ctx, db, 100, 10); len(ids) != 0 {
			t.Errorf("purged twice: %v", ids)
		}
	})
}
