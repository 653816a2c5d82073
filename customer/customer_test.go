package customer

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"kj/internal/apierr"
	"kj/internal/bus"
	"kj/internal/clock"
	"kj/internal/config"
	"kj/internal/counter"
	"kj/storage"
	"kj/storage/storagetest"
)

// auditRow is one row the service asked its Audit to write.
type auditRow struct {
	By        Actor
	Action    string
	VisitorID int64
	Before    any
	After     any
}

// testService is a Service on db with an in-process bus and counters, a
// fake clock, attachments under /files/chat/ and an Audit that keeps its
// rows (and fails with auditErr when set).
type testService struct {
	*Service
	bus      *bus.Memory
	mu       sync.Mutex
	rows     []auditRow
	auditErr error
}

func eachService(t *testing.T, f func(t *testing.T, s *testService)) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		clk := clock.NewFake(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
		ts := &testService{bus: bus.NewMemory()}
		ts.Service = &Service{DB: db, Bus: ts.bus, Counters: counter.NewMemory(clk), Clock: clk,
			Config: &config.Config{CustomerNewVisitorsPerHour: 3, CustomerSendsPerMinute: 100}, Log: slog.New(slog.DiscardHandler),
			Audit: func(_ context.Context, _ storage.Tx, by Actor, action string, visitorID int64, before, after any, _ int64) error {
				ts.mu.Lock()
				defer ts.mu.Unlock()
				if ts.auditErr != nil {
					return ts.auditErr
				}
				ts.rows = append(ts.rows, auditRow{by, action, visitorID, before, after})
				return nil
			},
			AttachmentPath: func(ref string) (string, bool) {
				rel, ok := strings.CutPrefix(ref, "/files/")
				return rel, ok && strings.HasPrefix(rel, "chat/")
			},
			AppSettings: func(context.Context) (storage.AppSettings, error) {
				return storage.AppSettings{ServiceWelcome: "Hello", ServiceWelcomeTexts: map[string]string{"zh-CN": "你好"}}, nil
			},
		}
		f(t, ts)
	})
}

func newUser(t *testing.T, s *testService, account string, operator bool) storage.User {
	t.Helper()
	now := s.Clock.Now().UnixMilli()
	u := storage.User{ID: storage.NewID(), Account: account, PasswordHash: "-", InviteCode: "pro_" + account,
		CreatedAt: now, UpdatedAt: now}
	if operator {
		u.IsOperator = 1
	}
	if err := storage.CreateUser(context.Background(), s.DB, u); err != nil {
		t.Fatal(err)
	}
	return u
}

func resolve(t *testing.T, s *testService, key string, u storage.User) Visitor {
	t.Helper()
	v, err := s.ResolveVisitor(context.Background(), key, u, "10.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func wantCode(t *testing.T, err error, code int) {
	t.Helper()
	var e *apierr.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("error %v, want code %d", err, code)
	}
}

// A visitor key follows the signed-in user: an anonymous chat becomes the
// user's when they sign in on that browser, their other devices see it
// under a key of their own, the key shows nothing to anyone else, and an
// anonymous chat from another browser merges into theirs.
func TestVisitorKeyFollowsTheSignedInUser(t *testing.T) {
	eachService(t, func(t *testing.T, s *testService) {
		ctx := context.Background()
		amy, bob := newUser(t, s, "amy", false), newUser(t, s, "bob", false)

		anon := resolve(t, s, "", storage.User{})
		if !anon.Issued || !strings.HasPrefix(anon.Key, "v_") || anon.UserID != 0 {
			t.Fatalf("new visitor: %+v", anon)
		}
		if again := resolve(t, s, anon.Key, storage.User{}); again.ID != anon.ID || again.Issued {
			t.Fatalf("same key: %+v", again)
		}
		if _, err := s.VisitorPost(ctx, anon, "before sign-in", "10.0.0.1", nil); err != nil {
			t.Fatal(err)
		}
		linked := resolve(t, s, anon.Key, amy)
		if linked.ID != anon.ID || linked.UserID != amy.ID {
			t.Fatalf("link: %+v", linked)
		}
		other := resolve(t, s, "", amy)
		if other.ID != anon.ID || other.Key == anon.Key || !other.Issued {
			t.Fatalf("second device: %+v", other)
		}
		// The key is amy's now: signed out, or as bob, it is a stranger's key.
		if v := resolve(t, s, anon.Key, storage.User{}); v.ID == anon.ID {
			t.Fatal("signed-out caller got amy's chat")
		}
		if v := resolve(t, s, anon.Key, bob); v.ID == anon.ID || v.UserID != bob.ID {
			t.Fatalf("bob got amy's chat: %+v", v)
		}
		// Another browser's anonymous chat merges into amy's when she signs in there.
		second := resolve(t, s, "", storage.User{})
		if _, err := s.VisitorPost(ctx, second, "from the other browser", "10.0.0.1", nil); err != nil {
			t.Fatal(err)
		}
		merged := resolve(t, s, second.Key, amy)
		if merged.ID != anon.ID {
			t.Fatalf("merge: %+v", merged)
		}
		if n, err := s.CountMessages(ctx, anon.ID); err != nil || n != 2 {
			t.Fatalf("merged chat holds %d messages (%v), want 2", n, err)
		}
		if _, err := storage.VisitorByID(ctx, s.DB, second.ID); err == nil {
			t.Fatal("merged visitor still exists")
		}
	})
}

// An address starts only KJ_CUSTOMER_NEW_VISITORS_PER_HOUR anonymous
// visitors; a visitor who has not written has no agent.
func TestNewVisitorsAreCapped(t *testing.T) {
	eachService(t, func(t *testing.T, s *testService) {
		a1 := newUser(t, s, "agent1", true)
		available(t, s, a1, "")
		first := resolve(t, s, "", storage.User{})
		if first.AgentID != 0 {
			t.Fatalf("a visitor who has not written was given agent %d", first.AgentID)
		}
		resolve(t, s, "", storage.User{})
		resolve(t, s, "", storage.User{}) // the third of 3 this hour
		_, err := s.ResolveVisitor(context.Background(), "", storage.User{}, "10.0.0.1")
		wantCode(t, err, apierr.CodeRateLimited)
		if v := resolve(t, s, first.Key, storage.User{}); v.ID != first.ID {
			t.Fatal("a known key was refused by the new-visitor cap")
		}
	})
}

// A visitor sends SendPerMinute messages a minute; an anonymous one also
// shares its address's cap, so new keys buy no new allowance. A message
// that is too long or empty is refused and stores nothing.
func TestVisitorSendsAreCapped(t *testing.T) {
	eachService(t, func(t *testing.T, s *testService) {
		ctx := context.Background()
		v := resolve(t, s, "", storage.User{})
		for _, bad := range []string{"   ", strings.Repeat("x", MaxLength+1)} {
			if _, err := s.VisitorPost(ctx, v, bad, "10.0.0.1", nil); err == nil {
				t.Fatalf("%d characters accepted", len(bad))
			}
		}
		for i := range SendPerMinute {
			if _, err := s.VisitorPost(ctx, v, "hi "+strconv.Itoa(i), "10.0.0.1", nil); err != nil {
				t.Fatal(i, err)
			}
		}
		_, err := s.VisitorPost(ctx, v, "one too many", "10.0.0.1", nil)
		wantCode(t, err, apierr.CodeRateLimited)
		if n, _ := s.CountMessages(ctx, v.ID); n != SendPerMinute {
			t.Fatalf("%d messages stored, want %d", n, SendPerMinute)
		}

		// The address spent SendPerMinute+1 (the refused one counts too);
		// leave it 2.
		s.Config.CustomerSendsPerMinute = SendPerMinute + 1 + 2
		w := resolve(t, s, "", storage.User{})
		for range 2 {
			if _, err := s.VisitorPost(ctx, w, "new key", "10.0.0.1", nil); err != nil {
				t.Fatal(err)
			}
		}
		_, err = s.VisitorPost(ctx, w, "address spent", "10.0.0.1", nil)
		wantCode(t, err, apierr.CodeRateLimited)
	})
}

// An agent's reply takes a visitor nobody answers and writes its audit row
// in the reply's transaction: when the row cannot be written, neither the
// reply nor the claim is kept.
func TestAgentReplyIsAuditedInItsTransaction(t *testing.T) {
	eachService(t, func(t *testing.T, s *testService) {
		ctx := context.Background()
		v := resolve(t, s, "", storage.User{}) // no agent exists yet
		agent := newUser(t, s, "agent", true)

		s.auditErr = errors.New("audit log unavailable")
		if _, err := s.AgentReply(ctx, agent, "10.1.1.1", v.ID, "hello"); err == nil {
			t.Fatal("reply kept without its audit row")
		}
		if n, _ := s.CountMessages(ctx, v.ID); n != 0 {
			t.Fatalf("%d messages after a failed audit", n)
		}
		if got, _ := storage.VisitorByID(ctx, s.DB, v.ID); got.AgentID != 0 {
			t.Fatal("the visitor was claimed without an audit row")
		}

		s.auditErr = nil
		m, err := s.AgentReply(ctx, agent, "10.1.1.1", v.ID, "hello")
		if err != nil || m.From != "agent" || int64(m.ServiceID) != agent.ID {
			t.Fatalf("reply: %+v %v", m, err)
		}
		if len(s.rows) != 1 || s.rows[0].Action != "customer.reply" || s.rows[0].By != (Actor{agent.ID, "10.1.1.1"}) ||
			s.rows[0].VisitorID != v.ID || s.rows[0].Before != (VisitorAgent{0}) ||
			s.rows[0].After != (agentReplied{VisitorAgent{agent.ID}, int64(m.ID)}) {
			t.Fatalf("audit rows: %+v", s.rows)
		}
		_, err = s.AgentReply(ctx, agent, "10.1.1.1", storage.NewID(), "to nobody")
		wantCode(t, err, apierr.NotFound().Code)
	})
}

// A handover goes only to an operator; a refused one changes nothing and
// writes no audit row.
func TestHandoverGoesToOperatorsOnly(t *testing.T) {
	eachService(t, func(t *testing.T, s *testService) {
		ctx := context.Background()
		a1 := newUser(t, s, "agent1", true)
		v := resolve(t, s, "", storage.User{})
		player, a2 := newUser(t, s, "player", false), newUser(t, s, "agent2", true)
		by := Actor{a1.ID, "10.1.1.1"}
		if err := storage.SetVisitorAgent(ctx, s.DB, v.ID, a1.ID); err != nil {
			t.Fatal(err)
		}

		_, err := s.Handover(ctx, by, v.ID, player.ID)
		wantCode(t, err, apierr.CodeInvalid)
		if got, _ := storage.VisitorByID(ctx, s.DB, v.ID); got.AgentID != a1.ID || len(s.rows) != 0 {
			t.Fatalf("a refused handover changed agent %d, rows %+v", got.AgentID, s.rows)
		}
		to, err := s.Handover(ctx, by, v.ID, a2.ID)
		if err != nil || to.ID != a2.ID {
			t.Fatalf("handover: %+v %v", to, err)
		}
		if got, _ := storage.VisitorByID(ctx, s.DB, v.ID); got.AgentID != a2.ID {
			t.Fatalf("visitor's agent %d after handover", got.AgentID)
		}
		if len(s.rows) != 1 || s.rows[0].Before != (VisitorAgent{a1.ID}) || s.rows[0].After != (VisitorAgent{a2.ID}) {
			t.Fatalf("audit rows: %+v", s.rows)
		}
	})
}

// Reading marks the other side's messages, updates the page shown and
// tells the visitor's socket subject and the desk.
func TestMarkReadTellsBothSides(t *testing.T) {
	eachService(t, func(t *testing.T, s *testService) {
		ctx := context.Background()
		v := resolve(t, s, "", storage.User{})
		var mu sync.Mutex
		heard := map[string][]event{}
		for _, subject := range []string{visitorSubject(v.ID), deskSubject} {
			sub, err := s.bus.Subscribe(subject, func(_ string, data []byte) {
				var ev event
				json.Unmarshal(data, &ev)
				mu.Lock()
				heard[subject] = append(heard[subject], ev)
				mu.Unlock()
			})
			if err != nil {
				t.Fatal(err)
			}
			defer sub.Unsubscribe()
		}
		if _, err := s.VisitorPost(ctx, v, "question", "10.0.0.1", nil); err != nil {
			t.Fatal(err)
		}
		page, err := s.Messages(ctx, v.ID, 20, 0)
		if err != nil || len(page) != 1 || page[0].Status != storage.CustomerSent {
			t.Fatalf("page: %+v %v", page, err)
		}
		if err := s.MarkRead(ctx, v.ID, true, page); err != nil {
			t.Fatal(err)
		}
		if page[0].Status != storage.CustomerRead {
			t.Fatalf("the page shown still says %d", page[0].Status)
		}
		if n, _ := storage.UnreadCustomerMessages(ctx, s.DB, v.ID, storage.FromVisitor); n != 0 {
			t.Fatalf("%d still unread", n)
		}
		wantRead := func() bool {
			mu.Lock()
			defer mu.Unlock()
			for _, subject := range []string{visitorSubject(v.ID), deskSubject} {
				evs := heard[subject]
				if len(evs) < 2 || evs[1].Type != "read" || evs[1].By != "agent" || evs[1].Upto != page[0].ID {
					return false
				}
			}
			return true
		}
		for deadline := time.Now().Add(5 * time.Second); !wantRead(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("events heard: %+v", heard)
			}
		}
	})
}

// The welcome is the operator's text in the visitor's language, else the
// default one.
func TestInitWelcomesInTheVisitorsLanguage(t *testing.T) {
	eachService(t, func(t *testing.T, s *testService) {
		v := resolve(t, s, "", storage.User{})
		for lang, want := range map[string]string{"zh-CN": "你好", "en-US": "Hello"} {
			init, err := s.Init(context.Background(), v, lang)
			if err != nil || init.Welcome != want || init.VisitorID != v.Key || int64(init.VisitorNo) != v.ID {
				t.Fatalf("%s: %+v %v", lang, init, err)
			}
		}
	})
}
