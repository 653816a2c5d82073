package httpapi

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"kj/auth"
	"kj/internal/apierr"
	"kj/internal/bus"
	"kj/internal/clock"
	"kj/internal/config"
	"kj/internal/counter"
	"kj/internal/presence"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

// Every test here calls t.Parallel() unless its comment says why not: each
// has its own server, fake clock, in-process bus and store (a PostgreSQL
// schema of its own, a SQLite file of its own; Redis keys under a prefix of
// its own), so they share only what the package reads. The package's time
// is over a hundred tests of a few seconds each, most of it the race
// detector's, which one after another kept one of two cores idle.

// eachServer runs f on SQLite and on PostgreSQL, each time against a
// fresh server and its handler.
func eachServer(t *testing.T, f func(t *testing.T, db storage.DB, s *Server, h http.Handler)) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, _ := testServer(t, db)
		f(t, db, s, s.Handler())
	})
}

// testServer is a Server on db with a fake clock and in-process services.
func testServer(t testing.TB, db storage.DB) (*Server, *clock.Fake) {
	t.Helper()
	c := clock.NewFake(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
	b := bus.NewMemory()
	t.Cleanup(func() { b.Close() })
	return testNode(t, db, b, c), c
}

// testNode is a Server on db and bus b with clock c: several of them on one
// store and bus are the nodes of a cluster.
func testNode(t testing.TB, db storage.DB, b bus.Bus, c *clock.Fake) *Server {
	t.Helper()
	cfg, err := config.Load(nil, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	// The token cache is on, as in a node, so every route's test also
	// checks that sign-out, replacement and the rest reach it.
	cache, err := auth.NewTokenCache(b, c, cfg.TokenCacheSize, cfg.TokenCacheAge)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cache.Close)
	s := New(Deps{
		DB: db, Bus: b, Presence: presence.NewMemory(c), Counters: counter.NewMemory(c), Clock: c, Config: cfg,
		Sessions: &auth.Sessions{DB: db, Bus: b, Clock: c, TokenTTL: cfg.TokenTTL, JWTTTL: cfg.JWTTTL, Cache: cache},
	})
	t.Cleanup(s.smsSends.Wait) // reset codes sent after their answer still use the store
	return s
}

// newUser creates a user with a password hash of "abc123" and signs it in
// on platform 5, returning the user and its tokens.
func newUser(t testing.TB, s *Server, account string) (storage.User, auth.Tokens) {
	t.Helper()
	ctx := context.Background()
	u := storage.User{ID: storage.NewID(), Account: account, PasswordHash: testPasswordHash(t),
		Nickname: account, InviteCode: "pro_" + account, CreatedAt: s.Clock.Now().UnixMilli(), UpdatedAt: s.Clock.Now().UnixMilli()}
	if err := storage.CreateUser(ctx, s.DB, u); err != nil {
		t.Fatal(err)
	}
	var tok auth.Tokens
	err := s.DB.Tx(ctx, func(tx storage.Tx) error {
		var err error
		tok, _, err = s.Sessions.SignIn(ctx, tx, u.ID, 5)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return u, tok
}

var testHash = sync.OnceValue(func() string { h, _ := auth.HashPassword("abc123"); return h })

func testPasswordHash(t testing.TB) string { t.Helper(); return testHash() }

type reply struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
	Status  int             `json:"-"`
}

// call posts body to path with headers (name, value pairs) and decodes the envelope.
func call(t *testing.T, h http.Handler, method, path, body string, headers ...string) reply {
	t.Helper()
	return send(t, h, request(method, path, strings.NewReader(body), headers...))
}

// post calls path as the holder of token, in English, and returns the reply.
func post(t *testing.T, s *Server, token, path, body string, headers ...string) reply {
	t.Helper()
	return call(t, s.Handler(), "POST", "/api"+path, body, append([]string{"token", token, "Accept-Language", "en-US"}, headers...)...)
}

// ok posts and fails the test unless the reply is a success; it decodes
// data into out when given.
func ok(t *testing.T, s *Server, token, path, body string, out any) {
	t.Helper()
	r := post(t, s, token, path, body)
	if r.Code != 0 {
		t.Fatalf("%s %s: %d %s", path, body, r.Code, r.Message)
	}
	if out != nil {
		if err := json.Unmarshal(r.Data, out); err != nil {
			t.Fatalf("%s: data %s: %v", path, r.Data, err)
		}
	}
}

// fails posts and fails the test unless the reply has code.
func fails(t *testing.T, s *Server, token, path, body string, code int, headers ...string) reply {
	t.Helper()
	r := post(t, s, token, path, body, headers...)
	if r.Code != code {
		t.Fatalf("%s %s: got %d %q, want code %d", path, body, r.Code, r.Message, code)
	}
	return r
}

// request builds a request of body to target with headers (name, value
// pairs).
func request(method, target string, body io.Reader, headers ...string) *http.Request {
	req := httptest.NewRequest(method, target, body)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return req
}

// send has h answer req and decodes the envelope.
func send(t testing.TB, h http.Handler, req *http.Request) reply {
	t.Helper()
	return envelopeIn(t, req, serve(h, req))
}

// serve has h answer req.
func serve(h http.Handler, req *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}

// envelopeIn decodes the envelope of the answer w to req, with its HTTP
// status; an answer that is not an envelope fails t.
func envelopeIn(t testing.TB, req *http.Request, w *httptest.ResponseRecorder) reply {
	t.Helper()
	var r reply
	if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil {
		t.Fatalf("%s %s: reply is not an envelope: %q", req.Method, req.URL.Path, w.Body.String())
	}
	r.Status = w.Code
	return r
}

// testRoutes adds routes that exercise the plumbing without any area.
func testRoutes(s *Server) {
	type in struct {
		N    int    `json:"n"`
		Name string `json:"name"`
	}
	s.Post("/test/echo", Open, func(c *Call) (any, error) {
		var v in
		if err := c.Decode(&v); err != nil {
			return nil, err
		}
		if v.Name == "" {
			return nil, apierr.Required("name")
		}
		return v, nil
	})
	s.Post("/test/me", User, func(c *Call) (any, error) { return c.User.Account, nil })
	s.Post("/test/op", Operator, func(c *Call) (any, error) { return "ok", nil })
	s.Post("/test/panic", Open, func(c *Call) (any, error) { panic("boom") })
}

func TestEnvelopeDecodeAndErrors(t *testing.T) {
	t.Parallel()
	s, _ := testServer(t, storagetest.SQLite(t))
	testRoutes(s)
	h := s.Handler()
	if r := call(t, h, "POST", "/api/test/echo", `{"n":3,"name":"x"}`); r.Code != 0 || string(r.Data) != `{"n":3,"name":"x"}` || r.Message != "成功" {
		t.Fatalf("echo: %+v", r)
	}
	if r := call(t, h, "POST", "/api/test/echo", `{"n":"three"}`, "Accept-Language", "en-US"); r.Code != apierr.CodeBadRequest || r.Message != "Field n has the wrong type" {
		t.Fatalf("wrong type: %+v", r)
	}
	if r := call(t, h, "POST", "/api/test/echo", `{"n":`); r.Code != apierr.CodeBadRequest {
		t.Fatalf("malformed: %+v", r)
	}
	if r := call(t, h, "POST", "/api/test/echo", ``, "Accept-Language", "es-ES"); r.Code != apierr.CodeRequired || r.Message != "name es obligatorio" {
		t.Fatalf("empty body: %+v", r)
	}
	big := `{"name":"` + strings.Repeat("a", MaxBody) + `"}`
	if r := call(t, h, "POST", "/api/test/echo", big); r.Code != apierr.CodeTooLarge || r.Status != http.StatusRequestEntityTooLarge {
		t.Fatalf("oversized: %+v", r)
	}
	if r := call(t, h, "POST", "/api/nope", `{}`); r.Code != apierr.CodeBadRequest || r.Status != 404 {
		t.Fatalf("unknown route: %+v", r)
	}
	if r := call(t, h, "GET", "/api/test/echo", ``); r.Code != apierr.CodeUnsupported || r.Status != 405 {
		t.Fatalf("wrong method: %+v", r)
	}
	r := call(t, h, "POST", "/api/test/panic", `{}`, "Accept-Language", "en-US")
	if r.Code != apierr.CodeInternal || r.Status != 500 || strings.Contains(r.Message, "boom") {
		t.Fatalf("panic must become a plain 'system busy': %+v", r)
	}
}

func TestAuthCodes(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, c := testServer(t, db)
		testRoutes(s)
		h := s.Handler()
		ctx := context.Background()
		u := storage.User{ID: storage.NewID(), Account: "frank", PasswordHash: "x", InviteCode: "pro_frank"}
		op := storage.User{ID: storage.NewID(), Account: "oscar", PasswordHash: "x", InviteCode: "pro_oscar", IsOperator: 1}
		storage.CreateUser(ctx, db, u)
		storage.CreateUser(ctx, db, op)
		signIn := func(id int64) auth.Tokens {
			var tok auth.Tokens
			db.Tx(ctx, func(tx storage.Tx) error {
				var err error
				tok, _, err = s.Sessions.SignIn(ctx, tx, id, 5)
				return err
			})
			return tok
		}
		if r := call(t, h, "POST", "/api/test/me", `{}`); r.Code != apierr.CodeTokenExpired {
			t.Fatalf("no token: %+v", r)
		}
		tok := signIn(u.ID)
		if r := call(t, h, "POST", "/api/test/me", `{}`, "token", tok.Token); r.Code != 0 || string(r.Data) != `"frank"` {
			t.Fatalf("token header: %+v", r)
		}
		if r := call(t, h, "POST", "/api/test/me", `{}`, "Authorization", "Bearer "+tok.Token); r.Code != 0 {
			t.Fatalf("bearer: %+v", r)
		}
		if r := call(t, h, "POST", "/api/test/op", `{}`, "token", tok.Token); r.Code != apierr.CodeOperatorOnly || r.Status != 403 {
			t.Fatalf("user on operator route: %+v", r)
		}
		opTok := signIn(op.ID)
		if r := call(t, h, "POST", "/api/test/op", `{}`, "token", opTok.Token); r.Code != 0 {
			t.Fatalf("operator route: %+v", r)
		}
		signIn(u.ID) // a newer sign-in on the same platform
		if r := call(t, h, "POST", "/api/test/me", `{}`, "token", tok.Token, "Accept-Language", "en-US"); r.Code != apierr.CodeLoggedElsewhere || r.Message != "Your account has logged in at another place" {
			t.Fatalf("replaced session: %+v", r)
		}
		c.Advance(3 * time.Hour)
		if r := call(t, h, "POST", "/api/test/op", `{}`, "token", opTok.Token); r.Code != apierr.CodeTokenExpired {
			t.Fatalf("expired token: %+v", r)
		}
	})
}

// TestOpenAPIListsEveryRoute keeps httpapi/openapi.yaml honest.
func TestOpenAPIListsEveryRoute(t *testing.T) {
	t.Parallel()
	s, _ := testServer(t, storagetest.SQLite(t))
	b, err := openAPIDoc()
	if err != nil {
		t.Fatalf("openapi documents do not merge: %v", err)
	}
	var doc struct {
		Paths map[string]map[string]any `yaml:"paths"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("openapi.yaml is not valid YAML: %v", err)
	}
	for _, r := range s.Routes() {
		ops, ok := doc.Paths[r.Path]
		if !ok {
			t.Errorf("route %s %s is missing from openapi.yaml", r.Method, r.Path)
			continue
		}
		if _, ok := ops[strings.ToLower(r.Method)]; !ok {
			t.Errorf("openapi.yaml has %s but not its %s operation", r.Path, r.Method)
		}
	}
}

// busRecorder collects the messages of type T published on a subject.
type busRecorder[T any] struct {
	mu  sync.Mutex
	got []T
}

func recordBus[T any](t *testing.T, b bus.Bus, subject string) *busRecorder[T] {
	t.Helper()
	r := &busRecorder[T]{}
	sub, err := b.Subscribe(subject, func(_ string, data []byte) {
		var m T
		json.Unmarshal(data, &m)
		r.mu.Lock()
		r.got = append(r.got, m)
		r.mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sub.Unsubscribe() })
	return r
}

// wait waits until n messages have arrived and returns all that have.
func (r *busRecorder[T]) wait(t *testing.T, n int) []T {
	t.Helper()
	testenv.Eventually(t, 5*time.Second, func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		return len(r.got) >= n
	}, "want %d messages", n)
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]T(nil), r.got...)
}
