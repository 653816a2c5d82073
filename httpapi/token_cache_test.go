package httpapi

import (
	"context"
	"fmt"
	"testing"
	"time"

	"kj/auth"
	"kj/internal/apierr"
	"kj/internal/bus"
	"kj/internal/clock"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

// eachCluster runs f against two nodes a and b on one PostgreSQL store,
// each with its own token cache, joined by the in-process bus (one bus both
// share) and by NATS (a connection each).
func eachCluster(t *testing.T, f func(t *testing.T, a, b *Server)) {
	t.Run("memory", func(t *testing.T) {
		db := storagetest.Postgres(t)
		c := clock.NewFake(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
		m := bus.NewMemory()
		t.Cleanup(func() { m.Close() })
		f(t, testNode(t, db, m, c), testNode(t, db, m, c))
	})
	t.Run("nats", func(t *testing.T) {
		db := storagetest.Postgres(t)
		c := clock.NewFake(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
		var nodes [2]*Server
		for i := range nodes {
			nb, err := bus.NewNATS(testenv.NATSURL(), fmt.Sprintf("kj-test-node-%d", i))
			if err != nil {
				t.Fatalf("NATS is required for this test (set KJ_TEST_NATS_URL or run `make services`): %v", err)
			}
			t.Cleanup(func() { nb.Close() })
			nodes[i] = testNode(t, db, nb, c)
			// The cache's subscriptions are on the server before anyone publishes.
			if err := nb.Ping(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		f(t, nodes[0], nodes[1])
	})
}

// cachedOn has node n validate tok once, so that it answers the next
// checks from its cache, and returns the token's session.
func cachedOn(t *testing.T, n *Server, tok string) storage.AuthSession {
	t.Helper()
	if r := call(t, n.Handler(), "POST", "/api/user/amount", "{}", "token", tok); r.Code != 0 {
		t.Fatalf("a valid token refused: %+v", r)
	}
	before := n.Sessions.Cache.Len()
	if before == 0 {
		t.Fatal("the token was not cached")
	}
	sess, _, err := storage.SessionUserByToken(context.Background(), n.DB, tok)
	if err != nil {
		t.Fatal(err)
	}
	return sess
}

// refusedOnceDelivered waits until the bus has delivered the end of
// session id to node n, then requires n to refuse tok at once with code.
func refusedOnceDelivered(t *testing.T, n *Server, id int64, tok string, code int) {
	t.Helper()
	testenv.Eventually(t, 5*time.Second, func() bool { return n.Sessions.Cache.Evicted(id) },
		"the other node never heard that session %d ended", id)
	if r := call(t, n.Handler(), "POST", "/api/user/amount", "{}", "token", tok); r.Code != code {
		t.Fatalf("after the event was delivered the cached token gives %+v, want code %d", r, code)
	}
	if r := call(t, n.Handler(), "POST", "/api/activation/lotteryList", "{}", "token", tok); r.Code != code {
		t.Fatalf("a bet route took the revoked token: %+v", r)
	}
}

func TestTokenCacheSignOutReachesEveryNode(t *testing.T) {
	t.Parallel()
	eachCluster(t, func(t *testing.T, a, b *Server) {
		newUser(t, a, "sol_o")
		tok := mustLogin(t, a, "sol_o", "abc123")
		sess := cachedOn(t, b, tok.Token)
		cachedOn(t, a, tok.Token)
		if r := call(t, a.Handler(), "POST", "/api/logout", "{}", "token", tok.Token); r.Code != 0 {
			t.Fatalf("logout: %+v", r)
		}
		// The node that signed out drops it before answering.
		if r := call(t, a.Handler(), "POST", "/api/user/amount", "{}", "token", tok.Token); r.Code != apierr.CodeTokenExpired {
			t.Fatalf("the signing-out node still takes the token: %+v", r)
		}
		refusedOnceDelivered(t, b, sess.ID, tok.Token, apierr.CodeTokenExpired)
	})
}

func TestTokenCacheReplacementReachesEveryNode(t *testing.T) {
	t.Parallel()
	eachCluster(t, func(t *testing.T, a, b *Server) {
		newUser(t, a, "rex_r")
		first := mustLogin(t, a, "rex_r", "abc123")
		sess := cachedOn(t, b, first.Token)
		// Signing in again on the same platform, on node a, replaces it.
		mustLogin(t, a, "rex_r", "abc123")
		refusedOnceDelivered(t, b, sess.ID, first.Token, apierr.CodeLoggedElsewhere)
	})
}

func TestTokenCacheAccountSwitchReachesEveryNode(t *testing.T) {
	t.Parallel()
	eachCluster(t, func(t *testing.T, a, b *Server) {
		newUser(t, a, "amy_s")
		newUser(t, a, "ben_s")
		amy := mustLogin(t, a, "amy_s", "abc123")
		sess := cachedOn(t, b, amy.Token)
		body := jsonBody(t, map[string]any{"account": "ben_s", "password": "abc123", "platform": 5})
		if r := call(t, a.Handler(), "POST", "/api/accountLoginAtm", body, "token", amy.Token); r.Code != 0 {
			t.Fatalf("switch: %+v", r)
		}
		refusedOnceDelivered(t, b, sess.ID, amy.Token, apierr.CodeTokenExpired)
	})
}

func TestTokenCachePasswordChangeReachesEveryNode(t *testing.T) {
	t.Parallel()
	eachCluster(t, func(t *testing.T, a, b *Server) {
		newUser(t, a, "pam_p")
		phone := mustLogin(t, a, "pam_p", "abc123") // platform 5
		r := login(t, a, "pam_p", "abc123", 1)
		if r.Code != 0 {
			t.Fatalf("second sign-in: %+v", r)
		}
		desk := data[auth.Tokens](t, r)
		sess := cachedOn(t, b, desk.Token)
		cachedOn(t, b, phone.Token)
		body := jsonBody(t, map[string]any{"oldPassword": "abc123", "password": "xyz789", "confirmPassword": "xyz789"})
		if r := call(t, a.Handler(), "POST", "/api/user/changePwd", body, "token", phone.Token); r.Code != 0 {
			t.Fatalf("change password: %+v", r)
		}
		refusedOnceDelivered(t, b, sess.ID, desk.Token, apierr.CodeTokenExpired)
		// The session that changed it stays signed in.
		if r := call(t, b.Handler(), "POST", "/api/user/amount", "{}", "token", phone.Token); r.Code != 0 {
			t.Fatalf("the changing session was dropped: %+v", r)
		}
	})
}

func TestTokenCacheRenewalReachesEveryNode(t *testing.T) {
	t.Parallel()
	eachCluster(t, func(t *testing.T, a, b *Server) {
		newUser(t, a, "ned_n")
		tok := mustLogin(t, a, "ned_n", "abc123")
		sess := cachedOn(t, b, tok.Token)
		r := call(t, a.Handler(), "POST", "/api/jwt/login", jsonBody(t, map[string]any{"token": tok.JWT, "packageId": 100002001, "platform": 5}))
		if r.Code != 0 {
			t.Fatalf("renewal: %+v", r)
		}
		refusedOnceDelivered(t, b, sess.ID, tok.Token, apierr.CodeTokenExpired)
		if r := call(t, b.Handler(), "POST", "/api/user/amount", "{}", "token", data[jwtLoginReply](t, r).Token); r.Code != 0 {
			t.Fatalf("the renewed token: %+v", r)
		}
	})
}

// freezeUser has an agent freeze the player through the operator
// console's route on node s.
func freezeUser(t *testing.T, s *Server, userID int64) {
	t.Helper()
	_, agent := newAgent(t, s, fmt.Sprintf("agent_%d", userID%100000))
	r := call(t, s.Handler(), "POST", "/api/admin/user/freeze",
		fmt.Sprintf(`{"userId":"%d","frozen":1,"reason":"chargeback"}`, userID), "token", agent.Token)
	if r.Code != 0 {
		t.Fatalf("freeze: %+v", r)
	}
}

// A frozen user's token, cached on another node, is refused as soon as
// the freeze has crossed the bus once: the event is the only thing between
// the freeze and the refusal, and no request in between gets through
// after it lands.
func TestTokenCacheFrozenUserRefusedWithinOneBusTrip(t *testing.T) {
	t.Parallel()
	eachCluster(t, func(t *testing.T, a, b *Server) {
		u, _ := newUser(t, a, "fay_f")
		tok := mustLogin(t, a, "fay_f", "abc123")
		sess := cachedOn(t, b, tok.Token)
		freezeUser(t, a, u.ID)
		frozeAt := time.Now()
		if r := call(t, a.Handler(), "POST", "/api/user/amount", "{}", "token", tok.Token); r.Code != apierr.CodeTokenExpired {
			t.Fatalf("the freezing node still takes the token: %+v", r)
		}
		for !b.Sessions.Cache.Evicted(sess.ID) {
			if time.Since(frozeAt) > 5*time.Second {
				t.Fatal("the freeze never reached the other node")
			}
			// Until the event lands the cached token may still pass; the
			// moment it has, it may not.
			call(t, b.Handler(), "POST", "/api/user/amount", "{}", "token", tok.Token)
		}
		if r := call(t, b.Handler(), "POST", "/api/user/amount", "{}", "token", tok.Token); r.Code != apierr.CodeTokenExpired {
			t.Fatalf("the frozen user's token after the event: %+v", r)
		}
		t.Logf("refused %v after the freeze returned", time.Since(frozeAt))
	})
}

// Without any event, a session ended behind the cache's back stops being
// trusted after the cache's maximum age.
func TestTokenCacheMaximumAgeIsTheBackstop(t *testing.T) {
	t.Parallel()
	db := storagetest.Postgres(t)
	c := clock.NewFake(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
	s := testNode(t, db, nil, c)
	newUser(t, s, "max_m")
	tok := mustLogin(t, s, "max_m", "abc123")
	sess := cachedOn(t, s, tok.Token)
	if err := storage.EndSession(context.Background(), db, sess.ID, storage.SessionSignedOut); err != nil {
		t.Fatal(err)
	}
	if r := call(t, s.Handler(), "POST", "/api/user/amount", "{}", "token", tok.Token); r.Code != 0 {
		t.Fatalf("within the maximum age the cache answers: %+v", r)
	}
	c.Advance(s.Config.TokenCacheAge)
	if r := call(t, s.Handler(), "POST", "/api/user/amount", "{}", "token", tok.Token); r.Code != apierr.CodeTokenExpired {
		t.Fatalf("past the maximum age the store answers: %+v", r)
	}
}

// An operator's saved setting (here the daily video limit) is what every
// node serves once the bus has delivered the save; until then, and without
// any save, the nodes answer from their copies.
func TestOperatorSettingsFollowSavesOnEveryNode(t *testing.T) {
	t.Parallel()
	eachCluster(t, func(t *testing.T, a, b *Server) {
		newUser(t, a, "vic_v")
		vic := mustLogin(t, a, "vic_v", "abc123")
		_, boss := newOperator(t, a, "boss_v")
		limitOn := func(n *Server) int {
			r := call(t, n.Handler(), "POST", "/api/user/checkVideoCount", "{}", "token", vic.Token)
			if r.Code != 0 {
				t.Fatalf("checkVideoCount: %+v", r)
			}
			return data[videoCountView](t, r).Limit
		}
		if limitOn(b) != b.Config.VideoDailyLimit || limitOn(a) != a.Config.VideoDailyLimit {
			t.Fatal("the default limit")
		}
		if r := call(t, a.Handler(), "POST", "/api/admin/video/limit", `{"limit":7}`, "token", boss.Token); r.Code != 0 {
			t.Fatalf("save: %+v", r)
		}
		if limitOn(a) != 7 {
			t.Fatal("the saving node serves its old copy")
		}
		testenv.Eventually(t, 5*time.Second, func() bool { return limitOn(b) == 7 }, "the other node never saw the save")
	})
}
