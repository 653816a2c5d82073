package counter

import (
	"context"
	"testing"
	"time"

	"kj/engine/clock"
	"kj/internal/testenv"
)

func each(t *testing.T, f func(t *testing.T, c Counters)) {
	t.Run("memory", func(t *testing.T) { f(t, NewMemory(clock.NewFake(time.Now()))) })
	t.Run("redis", func(t *testing.T) {
		rdb, prefix := testenv.Redis(t)
		f(t, NewRedis(rdb, prefix))
	})
}

func TestIncrGetDelete(t *testing.T) {
	each(t, func(t *testing.T, c Counters) {
		ctx := context.Background()
		for i := int64(1); i <= 3; i++ {
			n, err := c.Incr(ctx, "fail:alice", 1, time.Minute)
			if err != nil || n != i {
				t.Fatalf("incr %d: n=%d err=%v", i, n, err)
			}
		}
		n, ttl, err := c.Get(ctx, "fail:alice")
		if err != nil || n != 3 || ttl <= 0 || ttl > time.Minute {
			t.Fatalf("get: n=%d ttl=%v err=%v", n, ttl, err)
		}
		if n, _, _ := c.Get(ctx, "fail:bob"); n != 0 {
			t.Fatalf("missing key = %d", n)
		}
		c.Delete(ctx, "fail:alice")
		if n, _, _ := c.Get(ctx, "fail:alice"); n != 0 {
			t.Fatalf("deleted key = %d", n)
		}
	})
}

func TestFixedWindowExpiry(t *testing.T) {
	fc := clock.NewFake(time.Now())
	c := NewMemory(fc)
	ctx := context.Background()
	c.Incr(ctx, "k", 1, 10*time.Minute)
	fc.Advance(9 * time.Minute)
	c.Incr(ctx, "k", 1, 10*time.Minute) // does not extend the window
	if n, left, _ := c.Get(ctx, "k"); n != 2 || left != time.Minute {
		t.Fatalf("n=%d left=%v", n, left)
	}
	fc.Advance(time.Minute)
	if n, _, _ := c.Get(ctx, "k"); n != 0 {
		t.Fatalf("expired counter = %d", n)
	}
	if n, _ := c.Incr(ctx, "k", 5, time.Minute); n != 5 {
		t.Fatalf("new window starts from zero, got %d", n)
	}
}

func TestRedisWindowDoesNotExtend(t *testing.T) {
	rdb, prefix := testenv.Redis(t)
	c := NewRedis(rdb, prefix)
	ctx := context.Background()
	c.Incr(ctx, "k", 1, 200*time.Millisecond)
	c.Incr(ctx, "k", 1, time.Hour)
	if _, ttl, _ := c.Get(ctx, "k"); ttl > 200*time.Millisecond {
		t.Fatalf("second increment extended the window to %v", ttl)
	}
	testenv.Eventually(t, 3*time.Second, func() bool { n, _, _ := c.Get(ctx, "k"); return n == 0 }, "counter never expired")
}
