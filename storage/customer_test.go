package storage_test

import (
	"context"
	"errors"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

func TestCustomerVisitorsAgentsAndMessages(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		const now = 500
		if _, err := storage.LeastLoadedAgent(ctx, db, now, 0); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("no operators: %v", err)
		}
		a1, a2, idle := newUser("agent1"), newUser("agent2"), newUser("idle")
		a1.IsOperator, a2.IsOperator, idle.IsOperator = 1, 1, 1
		addUsers(t, db, a1, a2, idle, newUser("plain"))
		// a1 and a2 are signed in to the console (until 1000) and taking
		// chats; idle is neither.
		for i, a := range []storage.User{a1, a2} {
			err := db.Tx(ctx, func(tx storage.Tx) error {
				_, err := storage.CreateSession(ctx, tx, storage.AuthSession{ID: storage.NewID(), UserID: a.ID, Platform: storage.ConsolePlatform,
					TokenHash: "tok" + a.Account, JWTHash: "jwt" + a.Account, ChatTokenHash: "chat" + a.Account, TokenExpiresAt: 1000, JWTExpiresAt: 1000})
				return err
			})
			if err != nil {
				t.Fatal(i, err)
			}
			if err := storage.SetAgentDesk(ctx, db, storage.AgentDesk{UserID: a.ID, Taking: true, DisplayName: "A", UpdatedAt: 1}); err != nil {
				t.Fatal(err)
			}
		}
		if ok, err := storage.AgentAvailable(ctx, db, a1.ID, now); !ok || err != nil {
			t.Fatalf("a1 available: %v %v", ok, err)
		}
		if ok, _ := storage.AgentAvailable(ctx, db, a1.ID, 1000); ok {
			t.Fatal("an expired console session counts as signed in")
		}
		if ok, _ := storage.AgentAvailable(ctx, db, idle.ID, now); ok {
			t.Fatal("an operator who takes no chats is available")
		}

		// Least-loaded assignment alternates between the two agents.
		var got []int64
		for i := range 4 {
			ag, err := storage.LeastLoadedAgent(ctx, db, now, 0)
			if err != nil {
				t.Fatal(err)
			}
			v := storage.Visitor{ID: storage.NewID(), AgentID: ag.ID, CreatedAt: int64(100 + i)}
			if err := storage.CreateVisitor(ctx, db, v); err != nil {
				t.Fatal(err)
			}
			got = append(got, ag.ID)
		}
		if got[0] == got[1] || got[0] != got[2] || got[1] != got[3] {
			t.Fatalf("assignment is not least-loaded: %v", got)
		}
		// Only recent visitors count as load.
		if ag, _ := storage.LeastLoadedAgent(ctx, db, now, 1000); ag.ID != min(a1.ID, a2.ID) {
			t.Fatalf("idle visitors should not count: %d", ag.ID)
		}

		anon := storage.Visitor{ID: storage.NewID(), AgentID: a1.ID, CreatedAt: 1}
		storage.CreateVisitor(ctx, db, anon)
		storage.AddVisitorKey(ctx, db, "h1", anon.ID, 1)
		if v, err := storage.VisitorByKey(ctx, db, "h1"); err != nil || v.ID != anon.ID {
			t.Fatalf("by key: %+v %v", v, err)
		}
		if err := storage.AddVisitorKey(ctx, db, "h1", anon.ID, 1); !errors.Is(err, storage.ErrConflict) {
			t.Fatalf("duplicate key: %v", err)
		}
		for i, from := range []int{storage.FromVisitor, storage.FromVisitor, storage.FromAgent} {
			m := storage.CustomerMessage{ID: storage.NewID(), VisitorID: anon.ID, FromAgent: from, AgentID: a1.ID * int64(from),
				Content: "m", Status: storage.CustomerSent, CreatedAt: int64(10 + i)}
			if err := storage.AddCustomerMessage(ctx, db, m); err != nil {
				t.Fatal(err)
			}
		}
		if n, _ := storage.UnreadCustomerMessages(ctx, db, anon.ID, storage.FromVisitor); n != 2 {
			t.Fatalf("unread by agent = %d", n)
		}
		list, _ := storage.AgentVisitors(ctx, db, a1.ID, 0, 10, 0)
		if len(list) == 0 || list[0].ID != anon.ID || list[0].Unread != 2 || list[0].LastMessageAt != 12 {
			t.Fatalf("agent list = %+v", list)
		}
		upto, err := storage.MarkCustomerRead(ctx, db, anon.ID, storage.FromVisitor)
		if err != nil || upto == 0 {
			t.Fatalf("mark read: %d %v", upto, err)
		}
		if n, _ := storage.UnreadCustomerMessages(ctx, db, anon.ID, storage.FromVisitor); n != 0 {
			t.Fatalf("unread after mark = %d", n)
		}
		if n, _ := storage.UnreadCustomerMessages(ctx, db, anon.ID, storage.FromAgent); n != 1 {
			t.Fatalf("agent message must stay unread by the visitor: %d", n)
		}

		// A signed-in user with a visitor of their own absorbs the anonymous one.
		u := storedUser(t, db, "linked")
		own := storage.Visitor{ID: storage.NewID(), UserID: u.ID, CreatedAt: 2}
		storage.CreateVisitor(ctx, db, own)
		if err := storage.CreateVisitor(ctx, db, storage.Visitor{ID: storage.NewID(), UserID: u.ID}); !errors.Is(err, storage.ErrConflict) {
			t.Fatalf("second visitor for one user: %v", err)
		}
		err = db.Tx(ctx, func(tx storage.Tx) error { return storage.MergeVisitor(ctx, tx, anon, own) })
		if err != nil {
			t.Fatal(err)
		}
		if v, _ := storage.VisitorByKey(ctx, db, "h1"); v.ID != own.ID || v.LastMessageAt != 12 {
			t.Fatalf("key after merge points to %+v", v)
		}
		if n, _ := storage.CountCustomerMessages(ctx, db, own.ID); n != 3 {
			t.Fatalf("messages after merge = %d", n)
		}
		if _, err := storage.VisitorByID(ctx, db, anon.ID); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("merged visitor still there: %v", err)
		}
		if v, err := storage.VisitorByUser(ctx, db, u.ID); err != nil || v.ID != own.ID {
			t.Fatalf("by user: %+v %v", v, err)
		}
		msgs, _ := storage.CustomerMessages(ctx, db, own.ID, 2, 0)
		if len(msgs) != 2 || msgs[0].FromAgent != storage.FromAgent {
			t.Fatalf("newest first: %+v", msgs)
		}
		if n, _ := storage.CountAgentVisitors(ctx, db, 0, 0); n != 5 {
			t.Fatalf("all visitors = %d", n)
		}
	})
}
