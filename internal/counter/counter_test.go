package counter

import (
	"context"
	"sync"
	"testing"
	"time"

	"kj/internal/clock"
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

// TestParallelIncrementsReserveDistinctPlaces: limits reserve a place by
// incrementing first and comparing after, which holds only when every
// parallel increment sees a value of its own; a negative increment gives a
// place back.
func TestParallelIncrementsReserveDistinctPlaces(t *testing.T) {
	each(t, func(t *testing.T, c Counters) {
		ctx := context.Background()
		const n = 64
		seen := make(chan int64, n)
		var wg sync.WaitGroup
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				v, err := c.Incr(ctx, "burst", 1, time.Minute)
				if err != nil {
					t.Error(err)
				}
				seen <- v
			}()
		}
		wg.Wait()
		close(seen)
		got := map[int64]bool{}
		for v := range seen {
			if v < 1 || v > n || got[v] {
				t.Fatalf("increment answered %d twice or out of 1..%d", v, n)
			}
			got[v] = true
		}
		if v, err := c.Incr(ctx, "burst", -1, time.Minute); err != nil || v != n-1 {
			t.Fatalf("giving a place back: %d, %v; want %d", v, err, n-1)
		}
	})
}
