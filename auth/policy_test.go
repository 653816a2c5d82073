package auth_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"kj/auth"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

func signInDevice(t *testing.T, s *auth.Sessions, db storage.DB, uid int64, platform int, device string) (auth.Tokens, auth.Ended) {
	t.Helper()
	var tok auth.Tokens
	var ended auth.Ended
	err := db.Tx(context.Background(), func(tx storage.Tx) error {
		var err error
		tok, ended, err = s.SignInDevice(context.Background(), tx, uid, platform, device)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return tok, ended
}

// sessionOf resolves a token to its session id (any state).
func sessionOf(t *testing.T, db storage.DB, token string) int64 {
	t.Helper()
	sess, err := storage.SessionByToken(context.Background(), db, token)
	if err != nil {
		t.Fatal(err)
	}
	return sess.ID
}

func TestDevicesPolicyKeepsSeveralSessionsAndSignsOutTheOldestBeyondTheLimit(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		s, c, b, u := setup(t, db)
		s.Policy, s.MaxDevices = auth.PolicyDevices, 2
		var mu sync.Mutex
		var events []auth.SessionEnded
		b.Subscribe(auth.SessionEndedSubject, func(_ string, data []byte) {
			var e auth.SessionEnded
			_ = json.Unmarshal(data, &e)
			mu.Lock()
			events = append(events, e)
			mu.Unlock()
		})

		first, ended := signInDevice(t, s, db, u.ID, 5, "Chrome · Linux")
		if len(ended.Replaced)+len(ended.OverLimit) != 0 {
			t.Fatalf("a first sign-in ended %+v", ended)
		}
		c.Advance(time.Second)
		// The same platform again: both stay signed in.
		second, ended := signInDevice(t, s, db, u.ID, 5, "Firefox · Windows")
		if len(ended.Replaced)+len(ended.OverLimit) != 0 {
			t.Fatalf("a second device within the limit ended %+v", ended)
		}
		for _, tok := range []auth.Tokens{first, second} {
			if _, _, err := s.Authenticate(ctx, tok.Token); err != nil {
				t.Fatalf("a device within the limit was signed out: %v", err)
			}
		}
		devices, err := storage.LiveSessionsOfUser(ctx, db, u.ID, c.Now().UnixMilli())
		if err != nil || len(devices) != 2 || devices[0].Device != "Firefox · Windows" || devices[1].Device != "Chrome · Linux" {
			t.Fatalf("device list newest first: %+v %v", devices, err)
		}

		// A third sign-in is one too many: the oldest goes, with its own reason.
		c.Advance(time.Second)
		third, ended := signInDevice(t, s, db, u.ID, 1, "")
		oldest := sessionOf(t, db, first.Token)
		if len(ended.Replaced) != 0 || len(ended.OverLimit) != 1 || ended.OverLimit[0] != oldest {
			t.Fatalf("over the limit ended %+v, want the oldest %d", ended, oldest)
		}
		s.AnnounceEnded(ctx, u.ID, ended)
		if _, _, err := s.Authenticate(ctx, first.Token); !errors.Is(err, auth.ErrDeviceLimit) {
			t.Fatalf("the oldest device's token: %v, want ErrDeviceLimit", err)
		}
		if _, err := s.ChatSession(ctx, first.ChatToken); !errors.Is(err, auth.ErrDeviceLimit) {
			t.Fatalf("the oldest device's chat token: %v, want ErrDeviceLimit", err)
		}
		if _, sess, err := s.Renew(ctx, first.JWT); !errors.Is(err, auth.ErrJWTInvalid) || sess.State != storage.SessionDeviceLimit {
			t.Fatalf("the oldest device's jwt: %v (state %d)", err, sess.State)
		}
		for _, tok := range []auth.Tokens{second, third} {
			if _, _, err := s.Authenticate(ctx, tok.Token); err != nil {
				t.Fatalf("a newer device was signed out: %v", err)
			}
		}
		testenv.Eventually(t, 2*time.Second, func() bool {
			mu.Lock()
			defer mu.Unlock()
			return len(events) == 1 && events[0].SessionID == oldest && events[0].Reason == auth.ReasonDeviceLimit
		}, "no deviceLimit SessionEnded for the oldest device")

		// A session whose jwt expired does not take a place.
		c.Advance(25 * time.Hour)
		fourth, ended := signInDevice(t, s, db, u.ID, 5, "")
		if len(ended.OverLimit) != 0 {
			t.Fatalf("expired sessions counted against the limit: %+v", ended)
		}
		if _, _, err := s.Authenticate(ctx, fourth.Token); err != nil {
			t.Fatal(err)
		}
	})
}

func TestDevicesPolicyLeavesTheConsoleOneSession(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		s, c, _, u := setup(t, db)
		s.Policy, s.MaxDevices = auth.PolicyDevices, 1
		app, _ := signInDevice(t, s, db, u.ID, 5, "")
		c.Advance(time.Second)
		desk, ended := signInDevice(t, s, db, u.ID, storage.ConsolePlatform, "")
		if len(ended.Replaced)+len(ended.OverLimit) != 0 {
			t.Fatalf("the console took an app device's place: %+v", ended)
		}
		c.Advance(time.Second)
		_, ended = signInDevice(t, s, db, u.ID, storage.ConsolePlatform, "")
		if len(ended.Replaced) != 1 || ended.Replaced[0] != sessionOf(t, db, desk.Token) || len(ended.OverLimit) != 0 {
			t.Fatalf("a second console sign-in must replace the first: %+v", ended)
		}
		if _, _, err := s.Authenticate(ctx, app.Token); err != nil {
			t.Fatalf("console sign-ins signed the app out: %v", err)
		}
	})
}

func TestPlatformPolicyIsTheDefault(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		s, _, _, u := setup(t, db)
		first, _ := signInDevice(t, s, db, u.ID, 5, "Chrome · Linux")
		_, ended := signInDevice(t, s, db, u.ID, 5, "")
		if len(ended.Replaced) != 1 || ended.Replaced[0] != sessionOf(t, db, first.Token) || len(ended.OverLimit) != 0 {
			t.Fatalf("the platform policy must replace the same platform's session: %+v", ended)
		}
		if _, _, err := s.Authenticate(ctx, first.Token); !errors.Is(err, auth.ErrReplaced) {
			t.Fatalf("replaced session: %v", err)
		}
	})
}
