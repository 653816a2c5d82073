//go:build linux

package loadtest

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The epoll sender sends each step's requests on schedule, one at a time
// per connection, reads every answer whole, and counts what the server
// refused as errors; a connection the server closes is replaced.
func TestHTTPLoopSendsOnScheduleAndReadsEveryAnswer(t *testing.T) {
	var served, closed atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := served.Add(1)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Header.Get("token") == "refused":
			_, _ = w.Write([]byte(`{"code":1000,"message":"no","data":null}`))
		case n%50 == 0:
			// Close the connection after this answer: the loop must dial again.
			closed.Add(1)
			w.Header().Set("Connection", "close")
			_, _ = w.Write([]byte(`{"code":0,"message":"","data":{"a":"` + strings.Repeat("x", 6000) + `"}}`))
		default:
			_, _ = w.Write([]byte(`{"code":0,"message":"","data":{}}`))
		}
	}))
	t.Cleanup(srv.Close)
	api := newLean(t, srv.URL, 4)
	var sent atomic.Int64
	token := "ok"
	loop := api.Loop(4, func(b []byte) []byte {
		sent.Add(1)
		return api.AppendPost(b, "/user/amount", token, nil)
	})
	t.Cleanup(loop.Close)
	d := Driver{Ramp: Ramp{Steps: []float64{200, 400}, Hold: time.Second}, Lanes: 4, Target: 50 * time.Millisecond, Loop: loop}
	steps, h := d.Run(context.Background())
	if len(steps) != 2 {
		t.Fatalf("%d steps, want 2: %+v (first error %v)", len(steps), steps, loop.FirstError)
	}
	for i, want := range []int64{200, 400} {
		s := steps[i]
		if s.Sent != want || s.Done != want || s.Errors != 0 || s.Missed != 0 {
			t.Errorf("step %d: sent %d done %d errors %d missed %d, want %d done and no errors (first error %v)", i, s.Sent, s.Done, s.Errors, s.Missed, want, loop.FirstError)
		}
		// The step lasts until its last answer: on a loaded box under -race
		// that can be 100-300 ms after the hold (the loop of 46e2945 fell
		// below 0.9 in 1 run of 6 there too).
		if s.Achieved < float64(want)*0.75 || s.Achieved > float64(want)*1.1 {
			t.Errorf("step %d achieved %.0f/s, want about %d", i, s.Achieved, want)
		}
	}
	if closed.Load() == 0 || served.Load() != 600 || h.Summary().Count != 600 {
		t.Fatalf("served %d (closed %d), histogram %d; want 600 served, some on new connections", served.Load(), closed.Load(), h.Summary().Count)
	}

	token = "refused"
	steps, _ = Driver{Ramp: Ramp{Steps: []float64{100}, Hold: 200 * time.Millisecond}, Lanes: 4, Target: 50 * time.Millisecond, Loop: loop}.Run(context.Background())
	if steps[0].Errors != steps[0].Sent || steps[0].Sent == 0 || loop.FirstError == nil {
		t.Fatalf("refusals: sent %d errors %d first error %v; want every one an error", steps[0].Sent, steps[0].Errors, loop.FirstError)
	}
}

// A server slower than the schedule: requests wait for a free connection
// (their lateness is latency), and the ones later than MaxLag are missed,
// not sent.
func TestHTTPLoopCountsLatenessAndMisses(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(20 * time.Millisecond)
		_, _ = w.Write([]byte(`{"code":0,"message":"","data":{}}`))
	}))
	t.Cleanup(srv.Close)
	api := newLean(t, srv.URL, 1)
	loop := api.Loop(1, func(b []byte) []byte { return api.AppendPost(b, "/user/amount", "t", nil) })
	t.Cleanup(loop.Close)
	// One connection answering every 20 ms can do ~50/s of the 200 offered.
	steps, _ := Driver{Ramp: Ramp{Steps: []float64{200}, Hold: time.Second}, Lanes: 1, Target: 50 * time.Millisecond,
		MaxLag: 100 * time.Millisecond, Loop: loop}.Run(context.Background())
	s := steps[0]
	if s.Missed == 0 || s.Done > 60 || s.Done < 20 || s.Errors != 0 {
		t.Fatalf("done %d missed %d errors %d; want ~50 done and the rest missed", s.Done, s.Missed, s.Errors)
	}
	if s.Latency.P99 < 50 {
		t.Fatalf("p99 %.1f ms; the wait for the connection must count as latency", s.Latency.P99)
	}
}

// The loop wakes to send, not for each answer: at 2,000 req/s it sends
// the requests of a millisecond per wake and takes the answers that came
// meanwhile, so it waits well under once a request (it waited about
// twice a request when it woke for every send and every answer, and each
// wake costs 20-37 µs of CPU on the VM of the W6 figures; 0.3 now).
// TestRecvStampedIsTheArrivalTime checks the answers read late keep
// their arrival time.
func TestHTTPLoopWakesPerSendsNotPerAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"code":0,"message":"","data":{}}`))
	}))
	t.Cleanup(srv.Close)
	api := newLean(t, srv.URL, 64)
	loop := api.Loop(64, func(b []byte) []byte { return api.AppendPost(b, "/user/amount", "t", nil) })
	t.Cleanup(loop.Close)
	steps, _ := Driver{Ramp: Ramp{Steps: []float64{2000}, Hold: time.Second}, Lanes: 64, Target: 50 * time.Millisecond, Loop: loop}.Run(context.Background())
	s := steps[0]
	if s.Done != 2000 || s.Errors != 0 {
		t.Fatalf("done %d errors %d, want 2000 and none (first error %v)", s.Done, s.Errors, loop.FirstError)
	}
	if perReq := float64(loop.Waits) / float64(s.Sent); perReq > 0.75 {
		t.Errorf("%d waits for %d requests (%.2f a request), want at most 0.75", loop.Waits, s.Sent, perReq)
	}
}

// An answer read late counts from when its bytes arrived: recvStamped
// returns the kernel's receive time, not the time of the read (once the
// kernel stamps at all: it turns stamping on a moment after the first
// socket asks for it).
func TestRecvStampedIsTheArrivalTime(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			accepted <- c
		}
	}()
	l := &HTTPLoop{Addr: ln.Addr().String()}
	fd, err := l.dial()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	peer := <-accepted
	t.Cleanup(func() { peer.Close() })
	buf := make([]byte, 64)
	// read waits for bytes and returns them with their stamp.
	read := func() (string, time.Time) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); ; {
			n, at, err := recvStamped(fd, buf)
			switch {
			case err == nil:
				return string(buf[:n]), at
			case err != unix.EAGAIN || time.Now().After(deadline):
				t.Fatalf("read: %v", err)
			}
			time.Sleep(time.Millisecond)
		}
	}
	for deadline := time.Now().Add(5 * time.Second); ; {
		if _, err := peer.Write([]byte("ping")); err != nil {
			t.Fatal(err)
		}
		if _, at := read(); !at.IsZero() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no receive stamp after 5 s")
		}
	}
	before := time.Now()
	if _, err := peer.Write([]byte("answer")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // the answer waits unread
	got, at := read()
	readAt := time.Now()
	if got != "answer" {
		t.Fatalf("read %q", got)
	}
	if at.Before(before.Add(-time.Millisecond)) || readAt.Sub(at) < 40*time.Millisecond {
		t.Fatalf("stamped %v after the write, read %v after it: want the arrival, well before the read", at.Sub(before), readAt.Sub(before))
	}
}

// A server that closes a connection on which no request came within its
// header timeout (kj's ReadHeaderTimeout, 10 s from the accept) closes
// none of the loop's: a connection is dialled when a request needs it and
// the request goes on it at once, so none is left unused (the loop
// dialled every connection up front, most stayed unused at a low rate,
// and kj closed them under a few of W6's first-step requests).
func TestHTTPLoopLeavesNoConnectionUnused(t *testing.T) {
	var closed atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"code":0,"message":"","data":{}}`))
	}))
	srv.Config.ReadHeaderTimeout = 300 * time.Millisecond
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateClosed {
			closed.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	api := newLean(t, srv.URL, 32)
	loop := api.Loop(32, func(b []byte) []byte { return api.AppendPost(b, "/user/amount", "t", nil) })
	t.Cleanup(loop.Close)
	steps, _ := Driver{Ramp: Ramp{Steps: []float64{300, 400}, Hold: time.Second}, Lanes: 32, Target: 50 * time.Millisecond, Loop: loop}.Run(context.Background())
	if len(steps) != 2 {
		t.Fatalf("%d steps, want 2", len(steps))
	}
	for i, s := range steps {
		if want := int64(s.Offered); s.Done != want || s.Errors != 0 {
			t.Errorf("step %d: done %d errors %d, want %d and none (first error %v)", i, s.Done, s.Errors, want, loop.FirstError)
		}
	}
	if n := closed.Load(); n != 0 {
		t.Errorf("the server closed %d connections", n)
	}
}

// The ring sends each buffer to its own socket in one call and reports
// each send apart: a peer that has gone fails its send only.
func TestSendRingSendsEachBufferToItsSocket(t *testing.T) {
	r, err := newSendRing(4)
	if err != nil {
		t.Skipf("no io_uring here (the loop writes request by request): %v", err)
	}
	t.Cleanup(r.Close)
	var fds, peers []int
	for range 6 { // more than the ring holds: two submissions
		p, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { unix.Close(p[0]); unix.Close(p[1]) })
		fds, peers = append(fds, p[0]), append(peers, p[1])
	}
	unix.Close(peers[4])
	bufs := [][]byte{[]byte("a"), []byte("bb"), []byte("ccc"), []byte("dddd"), []byte("gone"), []byte("ffffff")}
	wrote, failed := make([]int, len(fds)), make([]error, len(fds))
	if err := r.send(fds, bufs, func(k, n int, err error) { wrote[k], failed[k] = n, err }); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	for k := range fds {
		if k == 4 {
			if failed[k] == nil {
				t.Errorf("send %d to a closed peer: wrote %d, no error", k, wrote[k])
			}
			continue
		}
		if failed[k] != nil || wrote[k] != len(bufs[k]) {
			t.Fatalf("send %d: wrote %d (%v), want %d", k, wrote[k], failed[k], len(bufs[k]))
		}
		n, err := unix.Read(peers[k], buf)
		if err != nil || string(buf[:n]) != string(bufs[k]) {
			t.Fatalf("peer %d read %q (%v), want %q", k, buf[:n], err, bufs[k])
		}
	}
}
