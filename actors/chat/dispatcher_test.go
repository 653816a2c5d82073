package chat

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"kj/internal/testenv"
)

// TestWarmDispatcherRunsOnKeptWorkers runs mailboxes one after the other
// and then a burst of them, as a group post makes its members' flushes:
// all run, on no more goroutines than the workers it keeps.
func TestWarmDispatcherRunsOnKeptWorkers(t *testing.T) {
	d := newWarmDispatcher(10, 2)
	var mu sync.Mutex
	goroutines := map[string]int{}
	var wg sync.WaitGroup
	run := func() {
		buf := make([]byte, 64)
		buf = buf[:runtime.Stack(buf, false)]
		mu.Lock()
		// "goroutine N [running]:" names the goroutine that ran it.
		goroutines[string(buf[:16])]++
		mu.Unlock()
		wg.Done()
	}
	for range 100 {
		wg.Add(1)
		d.Schedule(run)
		wg.Wait()
	}
	wg.Add(1000)
	for range 1000 {
		d.Schedule(run)
	}
	wg.Wait()
	n := 0
	for _, c := range goroutines {
		n += c
	}
	if n != 1100 || len(goroutines) > 2 {
		t.Fatalf("%d of 1,100 runs, on %d goroutines (want all, on at most the 2 kept): %v", n, len(goroutines), goroutines)
	}
}

// TestWarmDispatcherDoesNotWaitForBlockedRuns checks that mailboxes
// blocked in their run (a store read) hold up no other: when every worker
// is blocked, the watchdog starts more, and they leave once the queue is
// empty.
func TestWarmDispatcherDoesNotWaitForBlockedRuns(t *testing.T) {
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
	testenv.Eventually(t, waitFor, func() bool {
		d.mu.Lock()
		defer d.mu.Unlock()
		return d.running == 1
	}, "the extra workers did not leave")
}
