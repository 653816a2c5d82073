//go:build linux

package chat

import (
	"bytes"
	"log/slog"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestPollerReadersWaitInTheRuntimesPoller checks where an idle poller's
// readers wait: one parked in Go's network poller ("IO wait") and the
// others for the set's read lock ("semacquire"), holding no thread; none
// blocked in epoll_wait ("syscall"), where the runtime's monitor kept
// taking their processors back. stop ends them.
func TestPollerReadersWaitInTheRuntimesPoller(t *testing.T) {
	p := newPoller(&Engine{log: slog.New(slog.DiscardHandler)}, 2)
	if p.epfd < 0 {
		t.Fatal("epoll unavailable on this machine")
	}
	me := goroutineID()
	deadline := time.Now().Add(waitFor)
	idle := func(s []string) bool {
		slices.Sort(s)
		return slices.Equal(s, []string{"IO wait", "semacquire"})
	}
	if s := awaitReaders(me, deadline, idle); !idle(s) {
		t.Fatalf("the readers' states: %q, want one in \"IO wait\" and one in \"semacquire\"", s)
	}
	p.stop()
	// stop returns once every reader is done; each then has only its
	// return left to run.
	if s := awaitReaders(me, deadline, func(s []string) bool { return len(s) == 0 }); len(s) != 0 {
		t.Fatalf("after stop, readers left: %q", s)
	}
}

// awaitReaders reads the states of the readers creator started until ok
// holds for them or the deadline passes, and returns the last read.
func awaitReaders(creator string, deadline time.Time, ok func([]string) bool) []string {
	for {
		s := readerStates(creator)
		if ok(slices.Clone(s)) || time.Now().After(deadline) {
			return s
		}
		time.Sleep(time.Millisecond)
	}
}

// goroutineID is the calling goroutine's number, from its stack header.
func goroutineID() string {
	b := make([]byte, 64)
	b = b[:runtime.Stack(b, false)]
	return string(bytes.Fields(b)[1])
}

// readerStates lists the states ("IO wait", "syscall", ...) of the
// poller readers the goroutine numbered creator started.
func readerStates(creator string) []string {
	b := make([]byte, 1<<20)
	for {
		n := runtime.Stack(b, true)
		if n < len(b) {
			b = b[:n]
			break
		}
		b = make([]byte, 2*len(b))
	}
	var states []string
	for _, g := range strings.Split(string(b), "\n\n") {
		if !strings.Contains(g, "chat.(*poller).run") || !strings.Contains(g, "created by kj/actors/chat.newPoller in goroutine "+creator+"\n") {
			continue
		}
		head := g[:strings.IndexByte(g, '\n')] // goroutine 12 [IO wait]:
		state := head[strings.IndexByte(head, '[')+1 : strings.IndexByte(head, ']')]
		if i := strings.IndexByte(state, ','); i >= 0 {
			state = state[:i] // "IO wait, 2 minutes"
		}
		states = append(states, state)
	}
	return states
}
