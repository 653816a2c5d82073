package bus

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"testing"
	"time"

	"kj/internal/testenv"
)

func natsURL() string {
	if u := os.Getenv("KJ_TEST_NATS_URL"); u != "" {
		return u
	}
	return "nats://127.0.0.1:4222"
}

// each runs the same cases against the in-process bus and real NATS.
func each(t *testing.T, f func(t *testing.T, b Bus)) {
	t.Run("memory", func(t *testing.T) {
		b := NewMemory()
		defer b.Close()
		f(t, b)
	})
	t.Run("nats", func(t *testing.T) {
		testenv.Needs(t, "NATS")
		b, err := NewNATS(natsURL(), "kj-test")
		if err != nil {
			t.Fatalf("NATS is required for this test and is unreachable at %s (set KJ_TEST_NATS_URL or run `make services`): %v", natsURL(), err)
		}
		defer b.Close()
		f(t, b)
	})
}

// collector gathers received messages; wait polls until n have arrived.
type collector struct {
	mu  sync.Mutex
	got []string
}

func (c *collector) handle(subject string, data []byte) {
	c.mu.Lock()
	c.got = append(c.got, subject+"="+string(data))
	c.mu.Unlock()
}

func (c *collector) wait(t *testing.T, n int) []string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		c.mu.Lock()
		got := append([]string(nil), c.got...)
		c.mu.Unlock()
		if len(got) >= n || time.Now().After(deadline) {
			if len(got) != n {
				t.Fatalf("want %d messages, got %d: %v", n, len(got), got)
			}
			return got
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func prefix() string { return fmt.Sprintf("t%d", rand.Int64()) }

func TestPublishSubscribeInOrder(t *testing.T) {
	each(t, func(t *testing.T, b Bus) {
		p := prefix()
		var c collector
		sub, err := b.Subscribe(p+".a", c.handle)
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Unsubscribe()
		var other collector
		sub2, _ := b.Subscribe(p+".b", other.handle)
		defer sub2.Unsubscribe()
		flush(t, b)
		for i := range 100 {
			if err := b.Publish(context.Background(), p+".a", []byte(fmt.Sprint(i))); err != nil {
				t.Fatal(err)
			}
		}
		got := c.wait(t, 100)
		for i, g := range got {
			if g != fmt.Sprintf("%s.a=%d", p, i) {
				t.Fatalf("message %d out of order: %s", i, g)
			}
		}
		other.wait(t, 0)
	})
}

func TestWildcards(t *testing.T) {
	each(t, func(t *testing.T, b Bus) {
		p := prefix()
		var star, tail collector
		s1, _ := b.Subscribe(p+".user.*", star.handle)
		s2, _ := b.Subscribe(p+".>", tail.handle)
		defer s1.Unsubscribe()
		defer s2.Unsubscribe()
		flush(t, b)
		ctx := context.Background()
		b.Publish(ctx, p+".user.42", []byte("x"))
		b.Publish(ctx, p+".user.42.extra", []byte("y"))
		b.Publish(ctx, p+".all", []byte("z"))
		if got := star.wait(t, 1); got[0] != p+".user.42=x" {
			t.Fatalf("star got %v", got)
		}
		tail.wait(t, 3)
	})
}

func TestUnsubscribeStopsDelivery(t *testing.T) {
	each(t, func(t *testing.T, b Bus) {
		p := prefix()
		var c, marker collector
		sub, _ := b.Subscribe(p+".x", c.handle)
		ms, _ := b.Subscribe(p+".x", marker.handle)
		defer ms.Unsubscribe()
		flush(t, b)
		b.Publish(context.Background(), p+".x", []byte("1"))
		c.wait(t, 1)
		sub.Unsubscribe()
		flush(t, b)
		b.Publish(context.Background(), p+".x", []byte("2"))
		marker.wait(t, 2) // the second message went out ...
		c.wait(t, 1)      // ... and did not reach the closed subscription
	})
}

func TestPushToUserEnvelope(t *testing.T) {
	each(t, func(t *testing.T, b Bus) {
		uid := prefix()
		var c collector
		sub, _ := b.Subscribe(UserSubject(uid), c.handle)
		defer sub.Unsubscribe()
		flush(t, b)
		if err := PushToUser(context.Background(), b, uid, "balance", map[string]int64{"balance": 1250}); err != nil {
			t.Fatal(err)
		}
		got := c.wait(t, 1)[0]
		raw := got[len(UserSubject(uid))+1:]
		var n Notification
		if err := json.Unmarshal([]byte(raw), &n); err != nil {
			t.Fatal(err)
		}
		if n.Key != "balance" || n.Data != `{"balance":1250}` {
			t.Fatalf("got %+v", n)
		}
		if u, ok := UserFromSubject(UserSubject(uid)); !ok || u != uid {
			t.Fatal("UserFromSubject does not invert UserSubject")
		}
	})
}

func TestPingAndClose(t *testing.T) {
	each(t, func(t *testing.T, b Bus) {
		if err := b.Ping(context.Background()); err != nil {
			t.Fatal(err)
		}
		b.Close()
		if err := b.Publish(context.Background(), "x", nil); err == nil {
			t.Fatal("publish after close should fail")
		}
	})
}

func TestMatch(t *testing.T) {
	cases := []struct {
		p, s string
		ok   bool
	}{
		{"a.b", "a.b", true}, {"a.*", "a.b", true}, {"a.*", "a.b.c", false},
		{"a.>", "a.b.c", true}, {"a.>", "a", false}, {"a.b", "a.c", false}, {"*", "a", true},
	}
	for _, c := range cases {
		if Match(c.p, c.s) != c.ok {
			t.Errorf("Match(%q,%q) != %v", c.p, c.s, c.ok)
		}
	}
}

// flush makes sure a NATS subscription is registered at the server before
// the test publishes.
func flush(t *testing.T, b Bus) {
	t.Helper()
	if n, ok := b.(*NATS); ok {
		if err := n.Flush(); err != nil {
			t.Fatal(err)
		}
	}
}
