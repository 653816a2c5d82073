package httpapi

import (
	"net"
	"net/http"
	"testing"

	"github.com/redis/go-redis/v9"

	"kj/internal/apierr"
	"kj/internal/counter"
	"kj/storage/storagetest"
)

// A sign-in while Redis (its attempt counters) cannot be reached is
// answered "system busy" with HTTP 503 — try again — in the caller's
// language, not as an internal error.
func TestUnreachableRedisIsAnsweredBusy(t *testing.T) {
	t.Parallel()
	db := storagetest.Postgres(t)
	s, _ := testServer(t, db)
	newUser(t, s, "busy01")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close()
	rdb := redis.NewClient(&redis.Options{Addr: dead, MaxRetries: -1, DialerRetries: 1})
	t.Cleanup(func() { rdb.Close() })
	s.Counters = counter.NewRedis(rdb, "kj:test:")
	r := login(t, s, "busy01", "abc123", 5)
	if r.Status != http.StatusServiceUnavailable || r.Code != apierr.CodeSystemBusy || r.Message == "" {
		t.Fatalf("sign-in with Redis down: HTTP %d code %d %q, want HTTP 503 code %d", r.Status, r.Code, r.Message, apierr.CodeSystemBusy)
	}
	r = login(t, s, "busy01", "abc123", 5, "Accept-Language", "zh-CN")
	if en := login(t, s, "busy01", "abc123", 5); r.Message == en.Message {
		t.Fatalf("the busy answer is not translated: %q", r.Message)
	}
}
