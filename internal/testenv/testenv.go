// Package testenv finds the real services integration tests run against
// (PostgreSQL, Redis, NATS) and fails the test, naming what is missing, when
// one is unreachable. Tests never skip for a missing service; the quick tier
// (`go test -short`, `make test-quick`) leaves out, on purpose and whether or
// not the services are up, the tests that need them (see Needs).
package testenv

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

func get(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// Needs marks a test as needing the named outside services (PostgreSQL,
// Redis, NATS). The full tier (`make test`) runs it and fails it when a
// service is unreachable; the quick tier (`go test -short`, the embedded
// store and in-process services only) leaves it out, so the decision
// depends on the tier asked for, never on what happens to be running.
func Needs(t testing.TB, services string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("quick tier: needs %s; `make test` runs it", services)
	}
}

// DatabaseURL is the PostgreSQL server for tests (KJ_TEST_DATABASE_URL).
func DatabaseURL() string {
	return get("KJ_TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test?sslmode=disable")
}

// RedisURL is the Redis server for tests (KJ_TEST_REDIS_URL).
func RedisURL() string { return get("KJ_TEST_REDIS_URL", "redis://127.0.0.1:6379/0") }

// NATSURL is the NATS server for tests (KJ_TEST_NATS_URL).
func NATSURL() string { return get("KJ_TEST_NATS_URL", "nats://127.0.0.1:4222") }

// Redis connects to the test Redis and returns a client plus a key prefix
// unique to this test, deleting the test's keys at the end.
func Redis(t testing.TB) (*redis.Client, string) {
	t.Helper()
	Needs(t, "Redis")
	opt, err := redis.ParseURL(RedisURL())
	if err != nil {
		t.Fatalf("KJ_TEST_REDIS_URL=%q: %v", RedisURL(), err)
	}
	rdb := redis.NewClient(opt)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := rdb.Ping(ctx).Err(); err != nil {
		rdb.Close()
		t.Fatalf("Redis is required and unreachable at %s (set KJ_TEST_REDIS_URL or run `make services`): %v", RedisURL(), err)
	}
	prefix := fmt.Sprintf("kjtest:%d:", rand.Int64())
	t.Cleanup(func() {
		ctx := context.Background()
		iter := rdb.Scan(ctx, 0, prefix+"*", 1000).Iterator()
		for iter.Next(ctx) {
			rdb.Del(ctx, iter.Val())
		}
		rdb.Close()
	})
	return rdb, prefix
}

// Eventually polls cond every few milliseconds until it holds or timeout
// passes, then fails with msg. Tests use it instead of sleeping.
func Eventually(t testing.TB, timeout time.Duration, cond func() bool, msg string, args ...any) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v: "+msg, append([]any{timeout}, args...)...)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
