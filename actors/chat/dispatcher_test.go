package chat

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestWarmDispatcherReusesParkedGoroutines runs mailboxes one after the
// other, as a quiet node does: after the first, each runs on a goroutine
// that ran one before (the stack it grew is kept), and no more than the
// parked bound are left waiting.
func TestWarmDispatcherReusesParkedGoroutines(t *testing.T) {
	d := newWarmDispatcher(10, 2)
	stacks := map[string]int{}
	for range 200 {
		done := make(chan string)
		d.Schedule(func() {
			buf := make([]byte, 64)
			buf = buf[:runtime.Stack(buf, false)]
			// "goroutine N [running]:" names the goroutine that ran it.
			done <- string(buf[:16])
		})
		select {
		case id := <-done:
			stacks[id]++
		case <-time.After(waitFor):
			t.Fatal("a scheduled mailbox never ran")
		}
		// Let the goroutine park before the next schedule.
		for d.parked.Load() == 0 {
			runtime.Gosched()
		}
	}
	if len(stacks) > 2 {
		t.Fatalf("200 runs in a row used %d goroutines, want them reused (1 or 2): %v", len(stacks), stacks)
	}
}

// TestWarmDispatcherDoesNotWaitForABlockedRun checks that a mailbox
// blocked in its run (a store read) holds up no other: with every parked
// goroutine busy, a schedule starts a new one.
func TestWarmDispatcherDoesNotWaitForABlockedRun(t *testing.T) {
	d := newWarmDispatcher(10, 1)
	release := make(chan struct{})
	var blocked sync.WaitGroup
	for range 3 {
		blocked.Add(1)
		d.Schedule(func() { blocked.Done(); <-release })
	}
	blocked.Wait()
	ran := make(chan struct{})
	d.Schedule(func() { close(ran) })
	select {
	case <-ran:
	case <-time.After(waitFor):
		t.Fatal("a schedule waited for blocked runs")
	}
	close(release)
	// At most the bound stays parked once everything has run.
	deadline := time.Now().Add(waitFor)
	for d.parked.Load() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines parked, want the bound, 1", d.parked.Load())
		}
		runtime.Gosched()
	}
}
