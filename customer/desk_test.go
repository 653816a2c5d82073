package customer

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"kj/internal/apierr"
	"kj/internal/jsonid"
	"kj/storage"
)

// signIn gives u a session on platform that is active until the clock
// passes ttl.
func signIn(t *testing.T, s *testService, u storage.User, platform int, ttl time.Duration) {
	t.Helper()
	now := s.Clock.Now()
	sess := storage.AuthSession{ID: storage.NewID(), UserID: u.ID, Platform: platform,
		TokenHash: storage.HashSecret("t" + newVisitorKey()), JWTHash: storage.HashSecret("j" + newVisitorKey()),
		ChatTokenHash: storage.HashSecret("c" + newVisitorKey()), TokenExpiresAt: now.Add(ttl).UnixMilli(),
		JWTExpiresAt: now.Add(ttl).UnixMilli(), State: storage.SessionActive, CreatedAt: now.UnixMilli()}
	err := s.DB.Tx(context.Background(), func(tx storage.Tx) error {
		_, err := storage.CreateSession(context.Background(), tx, sess)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// available signs operator u in to the console and switches taking chats
// on, with the display name name.
func available(t *testing.T, s *testService, u storage.User, name string) {
	t.Helper()
	signIn(t, s, u, storage.ConsolePlatform, time.Hour)
	d, err := s.SetDesk(context.Background(), u.ID, true, name)
	if err != nil || !d.Available || d.DisplayName != name {
		t.Fatalf("desk of %s: %+v %v", u.Account, d, err)
	}
}

// ask starts a new anonymous visitor from its own address and writes one
// message, answering the visitor as stored after it.
func ask(t *testing.T, s *testService, ip string) storage.Visitor {
	t.Helper()
	v, err := s.ResolveVisitor(context.Background(), "", storage.User{}, ip)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.VisitorPost(context.Background(), v, "hello", ip, nil); err != nil {
		t.Fatal(err)
	}
	got, err := storage.VisitorByID(context.Background(), s.DB, v.ID)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func visitorIDs(t *testing.T, s *testService, agentID int64) map[int64]bool {
	t.Helper()
	list, err := s.Visitors(context.Background(), agentID, 100, 0)
	if err != nil {
		t.Fatal(err)
	}
	n, err := s.CountVisitors(context.Background(), agentID)
	if err != nil || n != len(list) {
		t.Fatalf("count %d (%v), list %d", n, err, len(list))
	}
	out := map[int64]bool{}
	for _, v := range list {
		out[v.ID] = true
	}
	return out
}

// Enquiries go only to operators signed in to the console and taking
// chats, spread evenly among them; an operator who is idle (the seed
// account service), not taking chats, signed in only to the app, or whose
// console session expired gets none, and when nobody is available the
// enquiry waits for every agent to see it.
func TestEnquiriesGoToSignedInAgentsTakingChats(t *testing.T) {
	eachService(t, func(t *testing.T, s *testService) {
		ctx := context.Background()
		s.Config.CustomerNewVisitorsPerHour = 100
		idle := newUser(t, s, "service", true)
		a1, a2 := newUser(t, s, "agent1", true), newUser(t, s, "agent2", true)
		appOnly, notTaking, expired := newUser(t, s, "apponly", true), newUser(t, s, "nottaking", true), newUser(t, s, "expired", true)
		available(t, s, a1, "Amy")
		available(t, s, a2, "")
		signIn(t, s, appOnly, 5, time.Hour)
		if _, err := s.SetDesk(ctx, appOnly.ID, true, ""); err != nil {
			t.Fatal(err)
		}
		signIn(t, s, notTaking, storage.ConsolePlatform, time.Hour)
		signIn(t, s, expired, storage.ConsolePlatform, time.Minute)
		if _, err := s.SetDesk(ctx, expired.ID, true, ""); err != nil {
			t.Fatal(err)
		}
		s.Clock.(interface{ Advance(time.Duration) }).Advance(2 * time.Minute)

		got := map[int64]int{}
		for i := range 6 {
			v := ask(t, s, "10.0.1."+string(rune('0'+i)))
			got[v.AgentID]++
		}
		if got[a1.ID] != 3 || got[a2.ID] != 3 || len(got) != 2 {
			t.Fatalf("enquiries per agent %v; want 3 each to %d and %d, none to service %d", got, a1.ID, a2.ID, idle.ID)
		}

		// The visitor sees the display name, or nothing (the app's service
		// name) when the agent set none; never an account name.
		v := ask(t, s, "10.0.2.1")
		vis, err := s.ResolveVisitor(ctx, "", storage.User{}, "10.0.2.2")
		if err != nil {
			t.Fatal(err)
		}
		vis.Visitor, vis.Agent = v, a1
		vis.AgentName, _ = agentName(ctx, s.DB, v.AgentID)
		init, err := s.Init(ctx, vis, "en-US")
		if err != nil {
			t.Fatal(err)
		}
		if want := map[int64]string{a1.ID: "Amy", a2.ID: ""}[v.AgentID]; init.ServiceName != want {
			t.Fatalf("visitor sees %q for agent %d, want %q", init.ServiceName, v.AgentID, want)
		}

		// a1 stops taking chats: the next ones go to a2 only.
		if _, err := s.SetDesk(ctx, a1.ID, false, "Amy"); err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			if v := ask(t, s, "10.0.3."+string(rune('0'+i))); v.AgentID != a2.ID {
				t.Fatalf("enquiry went to %d with only %d taking chats", v.AgentID, a2.ID)
			}
		}
		// Nobody taking chats: the enquiry is nobody's, and every agent sees it.
		if _, err := s.SetDesk(ctx, a2.ID, false, ""); err != nil {
			t.Fatal(err)
		}
		orphan := ask(t, s, "10.0.4.1")
		if orphan.AgentID != 0 || orphan.WaitingSince == 0 {
			t.Fatalf("enquiry with nobody available: %+v", orphan)
		}
		for _, agent := range []storage.User{a1, a2, idle} {
			if !visitorIDs(t, s, agent.ID)[orphan.ID] {
				t.Fatalf("%s does not see the enquiry nobody took", agent.Account)
			}
		}
	})
}

// An enquiry its agent has not answered within KJ_CUSTOMER_UNCLAIMED_AFTER
// is shown to every agent and counted; the first other agent to answer
// takes it, and it is no longer counted.
func TestUnclaimedEnquiriesAreShownToEveryAgentAndCounted(t *testing.T) {
	eachService(t, func(t *testing.T, s *testService) {
		ctx := context.Background()
		s.Config.CustomerUnclaimedAfter = 3 * time.Minute
		clk := s.Clock.(interface{ Advance(time.Duration) })
		a1, a2 := newUser(t, s, "agent1", true), newUser(t, s, "agent2", true)
		available(t, s, a1, "")
		v := ask(t, s, "10.0.0.1")
		if v.AgentID != a1.ID {
			t.Fatalf("the only agent taking chats did not get it: %+v", v)
		}
		available(t, s, a2, "Bea")
		if visitorIDs(t, s, a2.ID)[v.ID] {
			t.Fatal("another agent sees a fresh enquiry")
		}
		if n, _ := s.CountUnclaimed(ctx); n != 0 {
			t.Fatalf("%d unclaimed at once", n)
		}

		clk.Advance(3*time.Minute + time.Second)
		if !visitorIDs(t, s, a2.ID)[v.ID] {
			t.Fatal("an unclaimed enquiry is not shown to every agent")
		}
		if n, _ := s.CountUnclaimed(ctx); n != 1 {
			t.Fatalf("unclaimed = %d, want 1", n)
		}
		list, _ := s.Visitors(ctx, a2.ID, 10, 0)
		if len(list) != 1 || !s.Unclaimed(list[0].Visitor) {
			t.Fatalf("list: %+v", list)
		}

		// a2 answers: the enquiry is a2's, answered, and counted no more.
		// The bus delivers on its own goroutine: what it heard goes
		// through a channel.
		heardc := make(chan event, 16)
		sub, err := s.bus.Subscribe(visitorSubject(v.ID), func(_ string, data []byte) {
			var ev event
			json.Unmarshal(data, &ev)
			select {
			case heardc <- ev:
			default: // later events than the test waits for
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Unsubscribe()
		if _, err := s.AgentReply(ctx, a2, "10.1.1.2", v.ID, "I can help"); err != nil {
			t.Fatal(err)
		}
		got, _ := storage.VisitorByID(ctx, s.DB, v.ID)
		if got.AgentID != a2.ID || got.WaitingSince != 0 {
			t.Fatalf("after the answer: %+v", got)
		}
		if n, _ := s.CountUnclaimed(ctx); n != 0 {
			t.Fatalf("unclaimed = %d after the answer", n)
		}
		if visitorIDs(t, s, a1.ID)[v.ID] {
			t.Fatal("the first agent still sees an enquiry another took")
		}
		select {
		case ev := <-heardc:
			if ev.Type != "assigned" || ev.ServiceName != "Bea" {
				t.Fatalf("the visitor heard %+v first, want assigned to Bea", ev)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the visitor heard nothing within 5 s, want assigned to Bea")
		}

		// A new message starts a new wait with the same agent.
		if _, err := s.VisitorPost(ctx, Visitor{Visitor: got}, "again", "10.0.0.1", nil); err != nil {
			t.Fatal(err)
		}
		if again, _ := storage.VisitorByID(ctx, s.DB, v.ID); again.AgentID != a2.ID || again.WaitingSince == 0 {
			t.Fatalf("second enquiry: %+v", again)
		}
	})
}

// What a visitor asks about is checked and titled from the store, and
// the agents see it with the message.
func TestEnquiryContextIsReadFromTheStore(t *testing.T) {
	eachService(t, func(t *testing.T, s *testService) {
		ctx := context.Background()
		now := s.Clock.Now().UnixMilli()
		video := storage.Video{ID: storage.NewID(), Kind: storage.VideoPassionate, Title: "Night market", CreatedAt: now, UpdatedAt: now}
		if err := storage.CreateVideo(ctx, s.DB, video); err != nil {
			t.Fatal(err)
		}
		v := resolve(t, s, "", storage.User{})
		_, err := s.VisitorPost(ctx, v, "Is this live?", "10.0.0.1", &ContextRequest{Kind: ContextVideo, ID: 0})
		wantCode(t, err, apierr.CodeInvalid)
		m, err := s.VisitorPost(ctx, v, "Is this live?", "10.0.0.1", &ContextRequest{Kind: ContextVideo, ID: jsonid.ID(video.ID)})
		if err != nil || m.Context == nil || m.Context.Title != "Night market" || m.Context.Kind != ContextVideo {
			t.Fatalf("video context: %+v %v", m.Context, err)
		}
		for _, bad := range []ContextRequest{{Kind: "order"}, {Kind: ContextRecharge}, {Kind: ContextRecharge, Amount: 100, Currency: "US D"},
			{Kind: ContextListing, ID: jsonid.ID(storage.NewID())}} {
			_, err := s.VisitorPost(ctx, v, "x", "10.0.0.1", &bad)
			wantCode(t, err, apierr.CodeInvalid)
		}
		if _, err := s.VisitorPost(ctx, v, "Recharge please", "10.0.0.1", &ContextRequest{Kind: ContextRecharge, Amount: 12050, Currency: "USDT"}); err != nil {
			t.Fatal(err)
		}
		page, err := s.Messages(ctx, v.ID, 10, 0)
		if err != nil || len(page) != 2 || page[0].Context == nil || page[0].Context.Amount != 12050 || page[0].Context.Currency != "USDT" ||
			page[1].Context == nil || page[1].Context.Title != "Night market" {
			t.Fatalf("stored: %+v %v", page, err)
		}
	})
}
