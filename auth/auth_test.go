package auth_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"kj/auth"
	"kj/internal/bus"
	"kj/internal/clock"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

func TestPasswordHash(t *testing.T) {
	h, err := auth.HashPassword("abc123")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$") || strings.Contains(h, "abc123") {
		t.Fatalf("unexpected encoding %q", h)
	}
	h2, _ := auth.HashPassword("abc123")
	if h == h2 {
		t.Fatal("two hashes of one password must differ by salt")
	}
	if !auth.CheckPassword(h, "abc123") || auth.CheckPassword(h, "abc124") || auth.CheckPassword("garbage", "abc123") {
		t.Fatal("CheckPassword gave a wrong answer")
	}
}

func setup(t *testing.T, db storage.DB) (*auth.Sessions, *clock.Fake, *bus.Memory, storage.User) {
	c := clock.NewFake(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC))
	b := bus.NewMemory()
	t.Cleanup(func() { b.Close() })
	s := &auth.Sessions{DB: db, Bus: b, Clock: c, TokenTTL: time.Hour, JWTTTL: 24 * time.Hour}
	u := storage.User{ID: storage.NewID(), Account: "erin", PasswordHash: "x", InviteCode: "pro_erin"}
	if err := storage.CreateUser(context.Background(), db, u); err != nil {
		t.Fatal(err)
	}
	return s, c, b, u
}

func signIn(t *testing.T, s *auth.Sessions, db storage.DB, uid int64, platform int) (auth.Tokens, []int64) {
	t.Helper()
	var tok auth.Tokens
	var replaced []int64
	err := db.Tx(context.Background(), func(tx storage.Tx) error {
		var err error
		tok, replaced, err = s.SignIn(context.Background(), tx, uid, platform)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return tok, replaced
}

func TestSessionLifecycle(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		s, c, b, u := setup(t, db)
		var mu sync.Mutex
		var ended []auth.SessionEnded
		b.Subscribe(auth.SessionEndedSubject, func(_ string, data []byte) {
			var e auth.SessionEnded
			json.Unmarshal(data, &e)
			mu.Lock()
			ended = append(ended, e)
			mu.Unlock()
		})

		if _, _, err := s.Authenticate(ctx, ""); !errors.Is(err, auth.ErrNoToken) {
			t.Fatalf("empty token: %v", err)
		}
		if _, _, err := s.Authenticate(ctx, "made-up"); !errors.Is(err, auth.ErrExpired) {
			t.Fatalf("unknown token: %v", err)
		}
		first, _ := signIn(t, s, db, u.ID, 5)
		got, sess, err := s.Authenticate(ctx, first.Token)
		if err != nil || got.ID != u.ID {
			t.Fatalf("authenticate: %v %v", got, err)
		}
		if cs, err := s.ChatSession(ctx, first.ChatToken); err != nil || cs.ID != sess.ID {
			t.Fatalf("chat session: %v", err)
		}

		// The access token expires; the jwt renews it; the chat token lives on.
		c.Advance(time.Hour)
		if _, _, err := s.Authenticate(ctx, first.Token); !errors.Is(err, auth.ErrExpired) {
			t.Fatalf("expired token: %v", err)
		}
		fresh, _, err := s.Renew(ctx, first.JWT)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Authenticate(ctx, fresh); err != nil {
			t.Fatalf("renewed token refused: %v", err)
		}
		if _, err := s.ChatSession(ctx, first.ChatToken); err != nil {
			t.Fatalf("chat token should outlive the access token: %v", err)
		}

		// A second sign-in on the same platform replaces the first.
		second, replaced := signIn(t, s, db, u.ID, 5)
		s.Announce(ctx, u.ID, auth.ReasonReplaced, replaced...)
		if _, _, err := s.Authenticate(ctx, fresh); !errors.Is(err, auth.ErrReplaced) {
			t.Fatalf("replaced session: %v", err)
		}
		if _, err := s.ChatSession(ctx, first.ChatToken); !errors.Is(err, auth.ErrReplaced) {
			t.Fatalf("replaced chat token: %v", err)
		}
		if _, _, err := s.Renew(ctx, first.JWT); !errors.Is(err, auth.ErrJWTInvalid) {
			t.Fatalf("replaced jwt: %v", err)
		}
		testenv.Eventually(t, 2*time.Second, func() bool {
			mu.Lock()
			defer mu.Unlock()
			return len(ended) == 1 && ended[0].SessionID == sess.ID && ended[0].Reason == auth.ReasonReplaced
		}, "no SessionEnded for the replaced session")

		// Sign-out revokes all three secrets.
		_, sess2, _ := s.Authenticate(ctx, second.Token)
		if err := s.SignOut(ctx, sess2); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Authenticate(ctx, second.Token); !errors.Is(err, auth.ErrExpired) {
			t.Fatalf("signed-out token: %v", err)
		}
		if _, _, err := s.Renew(ctx, second.JWT); !errors.Is(err, auth.ErrJWTInvalid) {
			t.Fatalf("signed-out jwt: %v", err)
		}
		if _, err := s.ChatSession(ctx, second.ChatToken); !errors.Is(err, auth.ErrExpired) {
			t.Fatalf("signed-out chat token: %v", err)
		}

		// A jwt past its lifetime is refused.
		third, _ := signIn(t, s, db, u.ID, 1)
		c.Advance(25 * time.Hour)
		if _, _, err := s.Renew(ctx, third.JWT); !errors.Is(err, auth.ErrJWTInvalid) {
			t.Fatalf("expired jwt: %v", err)
		}
	})
}

// The token cache confirms the tokens in use before they age out (many in
// one statement), so a player who comes back every half minute is not a
// store lookup each time; and a session ended in the store while its news
// was lost on the bus leaves the cache at the next refresh, before maxAge.
func TestTokenCacheRefreshKeepsTokensInUseAndDropsEndedOnes(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		s, c, _, u := setup(t, db)
		const maxAge = 30 * time.Second
		cache, err := auth.NewTokenCache(nil, c, 100, maxAge) // no bus: every change news is lost
		if err != nil {
			t.Fatal(err)
		}
		s.Cache = cache
		tok, _ := signIn(t, s, db, u.ID, 5)
		_, sess, err := s.Identify(ctx, tok.Token) // cached now (t = 0)
		if err != nil {
			t.Fatal(err)
		}
		c.Advance(20 * time.Second)
		if _, _, err := s.Identify(ctx, tok.Token); err != nil { // in use at 20 s
			t.Fatal(err)
		}
		if err := s.RefreshCache(ctx); err != nil { // confirmed at 20 s
			t.Fatal(err)
		}
		// Ended in the store, the news lost: the cache trusts the token until
		// it asks the store again.
		if err := storage.EndSession(ctx, db, sess.ID, storage.SessionSignedOut); err != nil {
			t.Fatal(err)
		}
		c.Advance(15 * time.Second) // 35 s after the fill: only the refresh keeps it
		if _, _, err := s.Identify(ctx, tok.Token); err != nil {
			t.Fatalf("a token confirmed 15 s ago was not answered from the cache: %v", err)
		}
		if err := s.RefreshCache(ctx); err != nil { // 15 s after the last confirmation: due
			t.Fatal(err)
		}
		if cache.Len() != 0 {
			t.Fatal("the refresh kept a session the store says ended")
		}
		if _, _, err := s.Identify(ctx, tok.Token); !errors.Is(err, auth.ErrExpired) {
			t.Fatalf("a signed-out token after the refresh: %v", err)
		}
	})
}
