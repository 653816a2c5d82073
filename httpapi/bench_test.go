package httpapi

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"kj/actors/window"
	"kj/storage/storagetest"
)

// BenchmarkBetRouteOverhead measures what the HTTP layer costs a bet on
// top of the desk: routing, the token check (from the node's cache, as in
// a running node), decoding the body, the envelope, translation and
// metrics. The bet is refused by the route's own checks (an amount of
// zero), so nothing reaches the desk or the store.
//
//	go test -run '^$' -bench BetRouteOverhead -benchmem ./httpapi/
func BenchmarkBetRouteOverhead(b *testing.B) {
	db := storagetest.SQLite(b)
	s, _ := testServer(b, db)
	s.Rounds = &window.Rounds{DB: db}
	_, tokens := newUser(b, s, "bench_b")
	tok := tokens.Token
	h := s.Handler()
	body := `{"windowId":1,"issue":"20260301000100001","content":"BIG","amount":0,"betId":"bench-1"}`
	run := func() int {
		req := httptest.NewRequest(http.MethodPost, "/api/activation/betRequest", strings.NewReader(body))
		req.Header.Set("token", tok)
		req.Header.Set("Accept-Language", "en-US")
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Code
	}
	if code := run(); code != http.StatusOK {
		b.Fatalf("status %d", code)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		run()
	}
}
