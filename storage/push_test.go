package storage_test

import (
	"context"
	"errors"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

func TestPushSubscriptionsOnePerDevice(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		save := func(s storage.PushSubscription) {
			t.Helper()
			s.ID, s.P256dh, s.Auth, s.CreatedAt = storage.NewID(), "key", "secret", 1
			if err := db.Tx(ctx, func(tx storage.Tx) error { return storage.SavePushSubscription(ctx, tx, s) }); err != nil {
				t.Fatal(err)
			}
		}
		// The VAPID pair: the first candidate is kept, later ones ignored.
		pub, priv, err := storage.PushVAPID(ctx, db, "pub1", "priv1", 1)
		if err != nil || pub != "pub1" || priv != "priv1" {
			t.Fatalf("first VAPID pair %q %q %v", pub, priv, err)
		}
		if pub, priv, _ = storage.PushVAPID(ctx, db, "pub2", "priv2", 2); pub != "pub1" || priv != "priv1" {
			t.Fatalf("VAPID pair replaced: %q %q", pub, priv)
		}

		save(storage.PushSubscription{UserID: 1, SessionID: 10, Endpoint: "https://push.test/a", Preview: true, Lang: "en-US"})
		// The same device subscribes again (a new endpoint): one row.
		save(storage.PushSubscription{UserID: 1, SessionID: 10, Endpoint: "https://push.test/b", Preview: false, Lang: "vi-VN"})
		s, err := storage.PushSubscriptionOfSession(ctx, db, 10)
		if err != nil || s.Endpoint != "https://push.test/b" || s.Preview || s.Lang != "vi-VN" || s.UserID != 1 {
			t.Fatalf("device 10: %+v %v", s, err)
		}
		// The browser signs in again (a new session) with its endpoint: the
		// old session's row goes.
		save(storage.PushSubscription{UserID: 1, SessionID: 11, Endpoint: "https://push.test/b", Preview: true})
		if _, err := storage.PushSubscriptionOfSession(ctx, db, 10); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("the endpoint's earlier device kept its row: %v", err)
		}
		save(storage.PushSubscription{UserID: 2, SessionID: 20, Endpoint: "https://push.test/c", Preview: true})

		// Another user cannot remove a device's subscription.
		if err := storage.DeletePushSubscriptionOfSession(ctx, db, 2, 11); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("user 2 removed user 1's subscription: %v", err)
		}
		if _, err := storage.PushSubscriptionOfSession(ctx, db, 11); err != nil {
			t.Fatal(err)
		}

		// Targets: the device's sign-in state and the conversation's option.
		if _, err := db.Exec(ctx, `INSERT INTO auth_sessions (id, user_id, platform, token_hash, jwt_hash, chat_token_hash,
			token_expires_at, jwt_expires_at, state, created_at) VALUES
			(11, 1, 5, 't11', 'j11', 'c11', 100, 5000, 0, 1), (20, 2, 5, 't20', 'j20', 'c20', 100, 5000, 1, 1)`); err != nil {
			t.Fatal(err)
		}
		if err := storage.EnsureChatUserConversations(ctx, db, storage.ChatUserConvRow{UserID: 1, ConversationID: "si_1_2", PeerID: 2, CreatedAt: 1}); err != nil {
			t.Fatal(err)
		}
		if err := storage.SetChatConversationRecvOpt(ctx, db, 1, "si_1_2", 1); err != nil {
			t.Fatal(err)
		}
		targets, err := storage.PushTargets(ctx, db, "si_1_2", 1000, []int64{1, 2, 3})
		if err != nil || len(targets) != 2 {
			t.Fatalf("targets %+v %v", targets, err)
		}
		for _, tg := range targets {
			switch tg.UserID {
			case 1:
				if !tg.SessionActive || tg.RecvOpt != 1 || tg.Endpoint != "https://push.test/b" {
					t.Fatalf("user 1's target %+v", tg)
				}
			case 2:
				if tg.SessionActive || tg.RecvOpt != 0 {
					t.Fatalf("user 2 signed out: %+v", tg)
				}
			}
		}
		// A sign-in past its expiry is a signed-out device.
		if targets, _ := storage.PushTargets(ctx, db, "si_1_2", 6000, []int64{1}); len(targets) != 1 || targets[0].SessionActive {
			t.Fatalf("expired sign-in: %+v", targets)
		}

		// A user's own device is removed by the session; any by id.
		if err := storage.DeletePushSubscriptionOfSession(ctx, db, 1, 11); err != nil {
			t.Fatal(err)
		}
		if targets, err := storage.PushTargets(ctx, db, "si_1_2", 1000, []int64{1, 2}); err != nil || len(targets) != 1 || targets[0].UserID != 2 {
			t.Fatalf("after user 1's removal: %+v %v", targets, err)
		}
		var user2 int64
		for _, tg := range targets {
			if tg.UserID == 2 {
				user2 = tg.ID
			}
		}
		if err := storage.DeletePushSubscriptions(ctx, db, user2, 12345); err != nil {
			t.Fatal(err)
		}
		if targets, err := storage.PushTargets(ctx, db, "si_1_2", 1000, []int64{1, 2}); err != nil || len(targets) != 0 {
			t.Fatalf("after removals by id: %+v %v", targets, err)
		}
	})
}
