package chat

import (
	"testing"
	"time"
)

// Sockets that connect in the same instant (a reconnect storm) must not be
// pinged in the same instant for ever after: their first pings spread over
// the ping period, a few per slot, so no tick carries a burst of them.
func TestWheelSpreadsFirstPingsOverThePeriod(t *testing.T) {
	e := &Engine{cfg: Config{PingPeriod: 25 * time.Second, IdleTimeout: 60 * time.Second}}
	w := makeWheel(e)
	if w.tick != 250*time.Millisecond {
		t.Fatalf("tick %v, want 250ms for a 25 s ping period", w.tick)
	}
	const sockets = 10000
	before := time.Now().UnixNano()
	for range sockets {
		w.add(&session{})
	}
	after := time.Now().UnixNano()
	period := int64(e.cfg.PingPeriod)
	// Tenths of the period: each should hold about a tenth of the pings.
	var tenths [10]int
	busiest := 0
	for i := range w.slots {
		busiest = max(busiest, len(w.slots[i]))
		for _, s := range w.slots[i] {
			if s.nextPing <= before || s.nextPing > after+period {
				t.Fatalf("first ping %v after the first add, outside the period", time.Duration(s.nextPing-before))
			}
			tenths[min(9, (s.nextPing-before)*10/period)]++
		}
	}
	// 100 slots in the period: 100 sockets each on average. The first
	// slot after the wheel's position also takes every ping due before it
	// (schedule never files into a slot already passed), so it holds about
	// two ticks' share, more when the adds are slow (-race).
	if busiest > 400 {
		t.Fatalf("a slot holds %d of %d first pings: they are not spread", busiest, sockets)
	}
	for i, n := range tenths {
		if n < sockets/10/2 || n > sockets/10*2 {
			t.Fatalf("tenth %d of the period holds %d of %d first pings: %v", i, n, sockets, tenths)
		}
	}
}

// The tick is an eighth of the shorter of the two periods, within 5 to
// 250 ms.
func TestWheelTick(t *testing.T) {
	for _, c := range []struct {
		ping, idle, want time.Duration
	}{
		{25 * time.Second, 60 * time.Second, 250 * time.Millisecond},
		{800 * time.Millisecond, 5 * time.Second, 100 * time.Millisecond},
		{10 * time.Millisecond, time.Second, 5 * time.Millisecond},
		{25 * time.Second, 240 * time.Millisecond, 30 * time.Millisecond},
	} {
		w := makeWheel(&Engine{cfg: Config{PingPeriod: c.ping, IdleTimeout: c.idle}})
		if w.tick != c.want {
			t.Errorf("ping %v idle %v: tick %v, want %v", c.ping, c.idle, w.tick, c.want)
		}
	}
}
