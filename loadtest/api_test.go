package loadtest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// leanServer is an httptest server counting the connections it accepted.
func leanServer(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &conns
}

func newLean(t *testing.T, url string, conns int) *LeanAPI {
	t.Helper()
	a, err := NewLeanAPI(url, conns)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a
}

// The lean client sends what kj reads (POST /api<path>, the token, a JSON
// body, no Accept-Encoding, so no gzip) and decodes the envelope's data,
// over one kept-alive connection.
func TestLeanAPICallsOverOneConnection(t *testing.T) {
	var seen atomic.Value
	srv, conns := leanServer(t, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		seen.Store(fmt.Sprintf("%s %s token=%s ae=%q ct=%s lang=%s body=%s", r.Method, r.URL.Path, r.Header.Get("token"),
			r.Header.Get("Accept-Encoding"), r.Header.Get("Content-Type"), r.Header.Get("Accept-Language"), body))
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		fmt.Fprintf(w, `{"code":0,"message":"success","data":{"amount":%d}}`+"\n", len(body))
	})
	a := newLean(t, srv.URL, 4)
	ctx := context.Background()
	for i := range 20 {
		var out struct{ Amount int }
		if err := a.Call(ctx, "/user/amount", "tok1", map[string]any{"n": i}, &out); err != nil {
			t.Fatal(err)
		}
		if want := len(fmt.Sprintf(`{"n":%d}`, i)); out.Amount != want {
			t.Fatalf("data %+v, want amount %d", out, want)
		}
	}
	if got, want := seen.Load().(string), `POST /api/user/amount token=tok1 ae="" ct=application/json lang=en-US body={"n":19}`; got != want {
		t.Fatalf("server saw %s\nwant %s", got, want)
	}
	req := a.Prepare("/user/mine", "tok2", nil)
	for range 5 {
		if err := a.Do(ctx, req, nil); err != nil {
			t.Fatal(err)
		}
	}
	if got := seen.Load().(string); !strings.HasPrefix(got, "POST /api/user/mine token=tok2") || !strings.HasSuffix(got, "body=") {
		t.Fatalf("prepared request seen as %s", got)
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("%d connections for sequential calls, want 1 kept alive", n)
	}
}

// Statuses and envelope codes come back as kj's API errors; an answer that
// is no envelope is an error naming its status.
func TestLeanAPIStatusesAndCodes(t *testing.T) {
	srv, _ := leanServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/refused":
			fmt.Fprint(w, `{"code":1200,"message":"insufficient","data":null}`)
		case "/api/busy":
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprint(w, `{"code":1009,"message":"busy","data":null}`)
		case "/api/empty":
			w.WriteHeader(http.StatusNoContent)
		default:
			http.Error(w, "no such page", http.StatusNotFound)
		}
	})
	a := newLean(t, srv.URL, 2)
	ctx := context.Background()
	var ae *APIError
	if err := a.Call(ctx, "/refused", "t", nil, nil); !errors.As(err, &ae) || ae.Status != 200 || ae.Code != 1200 || ae.Message != "insufficient" {
		t.Fatalf("refused: %v", err)
	}
	if err := a.Call(ctx, "/busy", "t", nil, nil); !errors.As(err, &ae) || ae.Status != 503 || ae.Code != 1009 {
		t.Fatalf("busy: %v", err)
	}
	if err := a.Call(ctx, "/nowhere", "t", nil, nil); err == nil || !strings.Contains(err.Error(), "HTTP 404, not an envelope") {
		t.Fatalf("404: %v", err)
	}
	status, body, err := a.Body(ctx, a.Prepare("/empty", "", nil))
	if err != nil || status != 204 || len(body) != 0 {
		t.Fatalf("204: %d %q %v", status, body, err)
	}
	// The connection is still good after all of them.
	if err := a.Call(ctx, "/refused", "t", nil, nil); !errors.As(err, &ae) {
		t.Fatalf("after: %v", err)
	}
}

// kj's answers carry Content-Length; a server that streams its answer
// sends it chunked, which the client reads too.
func TestLeanAPIChunkedAnswer(t *testing.T) {
	big := strings.Repeat("x", 10000)
	srv, conns := leanServer(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"code":0,"message":"success","data":{"s":"`)
		w.(http.Flusher).Flush() // no Content-Length now: chunked
		fmt.Fprint(w, big+`"}}`)
	})
	a := newLean(t, srv.URL, 1)
	for range 3 {
		var out struct{ S string }
		status, body, err := a.Body(context.Background(), a.Prepare("/x", "", nil))
		if err != nil || status != 200 {
			t.Fatal(status, err)
		}
		if err := decodeEnvelope(status, body, &out); err != nil || out.S != big {
			t.Fatalf("chunked body: %d bytes, %v", len(out.S), err)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("%d connections, want 1", n)
	}
}

// A server that closes the connection (Connection: close, or a kept-alive
// connection it dropped while idle) costs a new connection, not an error.
func TestLeanAPIReconnects(t *testing.T) {
	var closeNext atomic.Bool
	srv, conns := leanServer(t, func(w http.ResponseWriter, r *http.Request) {
		if closeNext.Swap(false) {
			w.Header().Set("Connection", "close")
		}
		fmt.Fprint(w, `{"code":0,"message":"success","data":null}`)
	})
	a := newLean(t, srv.URL, 1)
	ctx := context.Background()
	call := func(what string) {
		t.Helper()
		if err := a.Call(ctx, "/user/mine", "t", nil, nil); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	call("first")
	closeNext.Store(true)
	call("answered with Connection: close")
	call("after Connection: close")
	if n := conns.Load(); n != 2 {
		t.Fatalf("%d connections after a Connection: close, want 2", n)
	}
	srv.CloseClientConnections()
	call("after the server dropped the idle connection")
	if n := conns.Load(); n != 3 {
		t.Fatalf("%d connections, want 3", n)
	}
}

// A call blocked on a server that does not answer returns when its context
// ends, and the connection is not used again.
func TestLeanAPIContextEndsACall(t *testing.T) {
	release := make(chan struct{})
	srv, _ := leanServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/slow" {
			<-release
		}
		fmt.Fprint(w, `{"code":0,"message":"success","data":null}`)
	})
	defer close(release)
	a := newLean(t, srv.URL, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := a.Call(ctx, "/slow", "t", nil, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("slow call: %v", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("the call returned %v after its context ended", took)
	}
	if err := a.Call(context.Background(), "/fast", "t", nil, nil); err != nil {
		t.Fatalf("next call: %v", err)
	}
}

// The generator's own cost of a call: no allocation per call (the
// connection, the request and the answer's buffers are reused). The
// server here is a bare loop answering bodiless requests with fixed bytes,
// so the count is the client's alone.
func TestLeanAPIAllocations(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	body := `{"code":0,"message":"success","data":{"userId":"1","amount":1}}`
	answer := fmt.Appendf(nil, "HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		r := bufio.NewReader(c)
		for {
			for { // a request without a body ends at its blank line
				line, err := r.ReadSlice('\n')
				if err != nil {
					return
				}
				if len(line) <= 2 {
					break
				}
			}
			if _, err := c.Write(answer); err != nil {
				return
			}
		}
	}()
	a := newLean(t, "http://"+ln.Addr().String(), 1)
	req := a.Prepare("/user/amount", "t", nil)
	ctx := context.Background()
	if err := a.Do(ctx, req, nil); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(200, func() {
		if err := a.Do(ctx, req, nil); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 1 {
		t.Fatalf("%.1f allocations per call", allocs)
	}
}
