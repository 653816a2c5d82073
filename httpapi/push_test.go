package httpapi

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"testing"

	"kj/internal/apierr"
	"kj/storage"
)

func TestPushSubscriptionRoutes(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		ctx := context.Background()
		amy, amyTok := newUser(t, s, "amy")
		_, bobTok := newUser(t, s, "bob")
		announced := recordBus[int64](t, s.Bus, "kj.webpush.subscribed")

		key := call(t, h, "GET", "/api/push/key", "")
		var k pushKeyView
		if key.Code != 0 || decodeInto(t, key, &k) != nil || len(k.PublicKey) != 87 {
			t.Fatalf("key %+v", key)
		}
		stored, _, err := storage.PushVAPID(ctx, db, "other", "other", 1)
		if err != nil || stored != k.PublicKey {
			t.Fatalf("the key answered is not the stored one: %q %q %v", k.PublicKey, stored, err)
		}

		dev, err := ecdh.P256().GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		p256dh := base64.RawURLEncoding.EncodeToString(dev.PublicKey().Bytes())
		auth := base64.RawURLEncoding.EncodeToString(make([]byte, 16))
		body := func(endpoint, p256dh, auth, extra string) string {
			return `{"endpoint":"` + endpoint + `","keys":{"p256dh":"` + p256dh + `","auth":"` + auth + `"}` + extra + `}`
		}
		notOnCurve := base64.RawURLEncoding.EncodeToString(append([]byte{4}, make([]byte, 64)...))
		for _, bad := range []string{
			body("http://push.example.com/x", p256dh, auth, ""), // plain http off the machine
			body("ftp://push.example.com/x", p256dh, auth, ""),
			body("https://user:pw@push.example.com/x", p256dh, auth, ""),
			body("https://push.example.com/"+strings.Repeat("a", 1100), p256dh, auth, ""),
			body("https://push.example.com/x", notOnCurve, auth, ""),
			body("https://push.example.com/x", p256dh[:40], auth, ""),
			body("https://push.example.com/x", p256dh, auth[:10], ""),
		} {
			r := fails(t, s, amyTok.Token, "/push/subscribe", bad, apierr.CodeInvalid)
			if r.Message != apierr.Translate("en-US", "push.subscription.invalid", nil) {
				t.Fatalf("%s: message %q", bad, r.Message)
			}
		}
		fails(t, s, amyTok.Token, "/push/subscribe", `{"keys":{}}`, apierr.CodeRequired)
		if _, err := storage.PushSubscriptionOfSession(ctx, db, sessionOf(t, s, amyTok.Token)); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("a refused subscription was stored: %v", err)
		}

		var st pushSubscriptionView
		ok(t, s, amyTok.Token, "/push/subscribe", body("https://push.example.com/amy", p256dh, auth, ""), &st)
		if !st.Subscribed || !st.Preview {
			t.Fatalf("subscribed: %+v", st)
		}
		if got := announced.wait(t, 1); got[0] != amy.ID {
			t.Fatalf("announced %v, want %d", got, amy.ID)
		}
		// The same endpoint again: the preview choice changes, one row stays.
		ok(t, s, amyTok.Token, "/push/subscribe", body("https://push.example.com/amy", p256dh, auth, `,"preview":false`), &st)
		ok(t, s, bobTok.Token, "/push/subscribe", body("http://127.0.0.1:9/bob", p256dh, auth, ""), nil) // loopback: the tests' push service
		r := call(t, h, "GET", "/api/push/subscription", "", "token", amyTok.Token)
		if r.Code != 0 || decodeInto(t, r, &st) != nil || !st.Subscribed || st.Preview || st.Endpoint != "https://push.example.com/amy" {
			t.Fatalf("amy's device: %+v %s", st, r.Data)
		}
		sub, err := storage.PushSubscriptionOfSession(ctx, db, sessionOf(t, s, amyTok.Token))
		if err != nil || sub.UserID != amy.ID || sub.Lang != "en-US" || sub.Preview {
			t.Fatalf("stored: %+v %v", sub, err)
		}

		// The preview alone changes by its own route; bob's stays.
		ok(t, s, amyTok.Token, "/push/preview", `{"preview":true}`, &st)
		if !st.Subscribed || !st.Preview {
			t.Fatalf("preview on: %+v", st)
		}
		fails(t, s, amyTok.Token, "/push/preview", `{}`, apierr.CodeRequired)
		if sub, _ := storage.PushSubscriptionOfSession(ctx, db, sessionOf(t, s, bobTok.Token)); !sub.Preview {
			t.Fatalf("bob's preview changed with amy's: %+v", sub)
		}

		// Unsubscribing ends the caller's device only.
		ok(t, s, amyTok.Token, "/push/unsubscribe", ``, nil)
		ok(t, s, amyTok.Token, "/push/unsubscribe", ``, nil) // none left: still fine
		if r := call(t, h, "GET", "/api/push/subscription", "", "token", amyTok.Token); decodeInto(t, r, &st) != nil || st.Subscribed {
			t.Fatalf("after unsubscribe: %+v", st)
		}
		if r := call(t, h, "GET", "/api/push/subscription", "", "token", bobTok.Token); decodeInto(t, r, &st) != nil || !st.Subscribed {
			t.Fatalf("bob's subscription went with amy's: %+v", st)
		}
		r = fails(t, s, amyTok.Token, "/push/preview", `{"preview":false}`, apierr.CodeNotFound)
		if r.Message != apierr.Translate("en-US", "push.subscription.none", nil) {
			t.Fatalf("preview without a subscription: %q", r.Message)
		}
		if r := call(t, h, "POST", "/api/push/subscribe", body("https://push.example.com/x", p256dh, auth, "")); r.Code != apierr.CodeTokenExpired {
			t.Fatalf("subscribe without a sign-in: %+v", r)
		}
	})
}

func decodeInto(t *testing.T, r reply, out any) error {
	t.Helper()
	return DecodeJSON(r.Data, out)
}

// sessionOf is the sign-in session of token.
func sessionOf(t *testing.T, s *Server, token string) int64 {
	t.Helper()
	sess, err := storage.SessionByToken(context.Background(), s.DB, token)
	if err != nil {
		t.Fatal(err)
	}
	return sess.ID
}
