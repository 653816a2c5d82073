package clock

import (
	"testing"
	"time"
)

func TestFakeRunsDueTimersInOrder(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := NewFake(start)
	var got []string
	c.AfterFunc(3*time.Second, func() { got = append(got, "c") })
	c.AfterFunc(1*time.Second, func() {
		got = append(got, "a")
		// scheduled from inside a callback, still inside the window
		c.AfterFunc(time.Second, func() { got = append(got, "b@"+c.Now().Sub(start).String()) })
	})
	stopped := c.AfterFunc(2*time.Second, func() { got = append(got, "never") })
	if !stopped.Stop() || stopped.Stop() {
		t.Fatal("Stop should report true once")
	}
	c.Advance(2500 * time.Millisecond)
	if len(got) != 2 || got[0] != "a" || got[1] != "b@2s" {
		t.Fatalf("after 2.5s got %v", got)
	}
	if c.Pending() != 1 {
		t.Fatalf("pending = %d, want 1", c.Pending())
	}
	c.Advance(time.Second)
	if len(got) != 3 || got[2] != "c" {
		t.Fatalf("got %v", got)
	}
	if !c.Now().Equal(start.Add(3500 * time.Millisecond)) {
		t.Fatalf("now = %v", c.Now())
	}
}

func TestRealAfterFunc(t *testing.T) {
	done := make(chan struct{})
	Real{}.AfterFunc(time.Millisecond, func() { close(done) })
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("real timer never fired")
	}
}
