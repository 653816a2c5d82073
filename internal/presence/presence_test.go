package presence

import (
	"context"
	"sort"
	"testing"
	"time"

	"kj/internal/clock"
	"kj/internal/testenv"
)

func each(t *testing.T, f func(t *testing.T, p Presence, c *clock.Fake)) {
	t.Run("memory", func(t *testing.T) {
		c := clock.NewFake(time.Now())
		f(t, NewMemory(c), c)
	})
	t.Run("redis", func(t *testing.T) {
		rdb, prefix := testenv.Redis(t)
		c := clock.NewFake(time.Now())
		f(t, NewRedis(rdb, prefix, c), c)
	})
}

func TestAddRemoveConnections(t *testing.T) {
	each(t, func(t *testing.T, p Presence, _ *clock.Fake) {
		ctx := context.Background()
		if on, err := p.Online(ctx, "u1"); err != nil || on {
			t.Fatalf("fresh user online=%v err=%v", on, err)
		}
		p.Add(ctx, "u1", "phone", time.Minute)
		p.Add(ctx, "u1", "web", time.Minute)
		p.Add(ctx, "u2", "web", time.Minute)
		conns, err := p.Connections(ctx, "u1")
		if err != nil {
			t.Fatal(err)
		}
		sort.Strings(conns)
		if len(conns) != 2 || conns[0] != "phone" || conns[1] != "web" {
			t.Fatalf("conns = %v", conns)
		}
		p.Remove(ctx, "u1", "phone")
		p.Remove(ctx, "u1", "web")
		if on, _ := p.Online(ctx, "u1"); on {
			t.Fatal("u1 should be offline after removing both connections")
		}
		if on, _ := p.Online(ctx, "u2"); !on {
			t.Fatal("u2 should still be online")
		}
	})
}

func TestEntriesExpireUnlessRefreshed(t *testing.T) {
	each(t, func(t *testing.T, p Presence, c *clock.Fake) {
		ctx := context.Background()
		p.Add(ctx, "u", "a", 30*time.Second)
		p.Add(ctx, "u", "b", 30*time.Second)
		c.Advance(20 * time.Second)
		p.Add(ctx, "u", "b", 30*time.Second) // refresh b only
		c.Advance(15 * time.Second)
		conns, _ := p.Connections(ctx, "u")
		if len(conns) != 1 || conns[0] != "b" {
			t.Fatalf("after expiry of a, conns = %v", conns)
		}
		c.Advance(time.Minute)
		if on, _ := p.Online(ctx, "u"); on {
			t.Fatal("everything expired, user should be offline")
		}
		if err := p.Ping(ctx); err != nil {
			t.Fatal(err)
		}
	})
}
