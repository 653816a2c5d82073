package httpapi

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"kj/actors/window"
	"kj/storage/storagetest"
)

// The HTTP path's cost, beside a bare server answering the same JSON
// (issue 38 #5; the figures are in loadtest/RESULTS.md, W6):
//
//	go test -run '^$' -bench 'HTTPPath' -benchmem -count=10 -cpuprofile cpu.out ./httpapi/
//
// Both sides are driven at the handler (ServeHTTP), so the net/http server
// and client, which cost both the same, are left out and the ratio is the
// one of what kj adds: routing, the token check from the node's cache,
// decoding the body, the envelope, translation, metrics, compression's
// check. Each side reports its CPU time per request (cpu-ns/op), and the
// ratio sub-benchmark runs both in turns and reports x-bare: on a shared
// box ns/op (wall time) swings by half, CPU time and the ratio by ~10 %.
// The read route answers an /user/amount-like reply from memory (the
// benchmark's own route, so the wallet's store reads are not measured);
// the bet route is the real one, refused by its own checks (an amount of
// zero) before the desk, so nothing reaches the store.

// benchAmount is the read the benchmarks answer: /user/amount's shape.
var benchAmount = amountReply{UserID: "7301234567890123", Amount: 1234567, FrozenAmount: 500,
	HasFundPassword: true, BankCardCount: 1, IsRecharge: true, ExchangeMin: 10000, ExchangeMax: 5000000}

const benchBetBody = `{"windowId":1,"issue":"20260301000100001","content":"BIG","amount":0,"betId":"bench-1"}`

// kjBench is a node's /api handler with a signed-in user's token.
func kjBench(b *testing.B) (http.Handler, string) {
	db := storagetest.SQLite(b)
	s, _ := testServer(b, db)
	s.Rounds = &window.Rounds{DB: db}
	s.Post("/bench/amount", Identified, func(*Call) (any, error) { return benchAmount, nil })
	_, tokens := newUser(b, s, "bench_b")
	return s.Handler(), tokens.Token
}

// bareBench is the floor: standard library net/http and encoding/json, no
// middleware, the token looked up in a map, the same envelope.
func bareBench(token string) http.Handler {
	users := map[string]int64{token: 7301234567890123}
	var mu sync.RWMutex
	signedIn := func(r *http.Request) bool {
		mu.RLock()
		defer mu.RUnlock()
		_, ok := users[r.Header.Get("token")]
		return ok
	}
	type env struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    any    `json:"data"`
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/bench/amount", func(w http.ResponseWriter, r *http.Request) {
		if !signedIn(r) {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_ = json.NewEncoder(w).Encode(env{Message: "Success", Data: benchAmount})
	})
	mux.HandleFunc("POST /api/activation/betRequest", func(w http.ResponseWriter, r *http.Request) {
		if !signedIn(r) {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		var req betReq
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		_ = json.NewEncoder(w).Encode(env{Code: 1408, Message: "The amount must be a whole number of cents above zero"})
	})
	return mux
}

// benchWriter is the cheapest ResponseWriter: the benchmarks measure the
// handlers, not httptest's recorder (its buffers cost as much as the bare
// handler).
type benchWriter struct {
	h    http.Header
	code int
	n    int
}

func (w *benchWriter) Header() http.Header { return w.h }
func (w *benchWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}
func (w *benchWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	w.n += len(b)
	return len(b), nil
}

// benchRequest is one request sent again and again through h.
type benchRequest struct {
	req  *http.Request
	body *strings.Reader
	text string
	w    benchWriter
}

func newBenchRequest(path, body, token string) *benchRequest {
	br := &benchRequest{body: strings.NewReader(body), text: body, w: benchWriter{h: http.Header{}}}
	br.req = httptest.NewRequest(http.MethodPost, path, br.body)
	br.req.Header.Set("token", token)
	br.req.Header.Set("Accept-Language", "en-US")
	br.req.Header.Set("Content-Type", "application/json")
	br.req.Header.Set("Accept-Encoding", "gzip")
	return br
}

// run sends the request once and checks the answer's status.
func (br *benchRequest) run(b *testing.B, h http.Handler) {
	br.body.Reset(br.text)
	br.req.Body = io.NopCloser(br.body)
	clear(br.w.h)
	br.w.code, br.w.n = 0, 0
	h.ServeHTTP(&br.w, br.req)
	if br.w.code != http.StatusOK || br.w.n == 0 {
		b.Fatalf("%s: status %d, %d bytes", br.req.URL.Path, br.w.code, br.w.n)
	}
}

// cpuTime is the process's CPU time so far (user and system, every
// thread, the collector's included): on a shared box a benchmark's wall
// time counts the time it waited for a core, its CPU time much less so.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchChunk is how many requests one side sends before the other's turn
// in the ratio benchmark.
const benchChunk = 500

func benchPath(b *testing.B, path, body string) {
	kj, token := kjBench(b)
	bare := bareBench(token)
	for _, side := range []struct {
		name string
		h    http.Handler
	}{{"kj", kj}, {"bare", bare}} {
		b.Run(side.name, func(b *testing.B) {
			br := newBenchRequest(path, body, token)
			br.run(b, side.h)
			b.ReportAllocs()
			b.ResetTimer()
			cpu := cpuTime()
			for range b.N {
				br.run(b, side.h)
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
	// Both sides in turns of benchChunk requests, each turn's CPU time
	// counted to its side, so that what the box's other load does falls on
	// both alike: x-bare is kj's CPU time per request over bare's.
	b.Run("ratio", func(b *testing.B) {
		kjReq, bareReq := newBenchRequest(path, body, token), newBenchRequest(path, body, token)
		kjReq.run(b, kj)
		bareReq.run(b, bare)
		var kjCPU, bareCPU time.Duration
		b.ResetTimer()
		for done := 0; done < b.N; done += benchChunk {
			n := min(benchChunk, b.N-done)
			t0 := cpuTime()
			for range n {
				kjReq.run(b, kj)
			}
			t1 := cpuTime()
			for range n {
				bareReq.run(b, bare)
			}
			kjCPU += t1 - t0
			bareCPU += cpuTime() - t1
		}
		b.ReportMetric(float64(kjCPU)/float64(b.N), "kj-cpu-ns/op")
		b.ReportMetric(float64(bareCPU)/float64(b.N), "bare-cpu-ns/op")
		b.ReportMetric(float64(kjCPU)/float64(bareCPU), "x-bare")
	})
}

// BenchmarkHTTPPathRead: an /user/amount-like read answered from memory.
func BenchmarkHTTPPathRead(b *testing.B) { benchPath(b, "/api/bench/amount", "{}") }

// BenchmarkHTTPPathBet: the bet route's HTTP part (refused before the desk).
func BenchmarkHTTPPathBet(b *testing.B) { benchPath(b, "/api/activation/betRequest", benchBetBody) }

// BenchmarkBetRouteOverhead is the bet route alone, as measured before the
// side-by-side benchmarks (kept so older figures compare).
//
//	go test -run '^$' -bench BetRouteOverhead -benchmem ./httpapi/
func BenchmarkBetRouteOverhead(b *testing.B) {
	h, tok := kjBench(b)
	br := newBenchRequest("/api/activation/betRequest", benchBetBody, tok)
	br.run(b, h)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		br.run(b, h)
	}
}
