// Package httpapi is the HTTP JSON API of the web app, mounted under
// /api: the {code, message, data} envelope, the token header, translated
// messages (Accept-Language), request limits, metrics, and one file of
// routes per area (accounts.go, wallet.go, ...).
package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"kj/actors/chat"
	"kj/actors/window"
	"kj/auth"
	"kj/customer"
	"kj/internal/apierr"
	"kj/internal/bus"
	"kj/internal/clock"
	"kj/internal/config"
	"kj/internal/counter"
	"kj/internal/presence"
	"kj/protection"
	"kj/storage"
	"kj/wallet"
)

// MaxBody caps every JSON request body (uploads have their own caps).
const MaxBody = 1 << 20

// Deps are what the routes work with; the engine builds them.
type Deps struct {
	DB       storage.DB
	Bus      bus.Bus
	Presence presence.Presence
	Counters counter.Counters
	Clock    clock.Clock
	Config   config.Config
	Sessions *auth.Sessions
	Log      *slog.Logger
	SMS      SMSSender      // delivers SMS codes; nil picks the KJ_SMS_WEBHOOK_URL webhook or the log (sms.go)
	Wallet   *wallet.Wallet // the points wallet's rules and money (wallet.go); nil: New builds one without a ledger writer
	Rounds   *window.Rounds // activation windows: bets, rounds, results (rounds.go)
	Chat     *chat.Engine   // the chat engine, for the group routes
}

// Server serves /api.
type Server struct {
	Deps
	mux      *http.ServeMux
	routes   []Route
	settings *settingsCache // operator settings kept in the node (settings.go)
	reads    *userViews     // what players read of themselves, kept in the node (reads.go)
	media    mediaKeys      // keys signing attachment links (chat_files.go)
	smsSends sync.WaitGroup // reset codes being stored and sent after the answer (sms.go)

	Customer *customer.Service // customer service's rules, behind its routes and /ws/customer (customer.go)

	protect *protection.Service // player protection: limits, exclusions, held recharges (protection.go)
}

// Route describes one registered route, for the OpenAPI check and docs.
type Route struct {
	Method string
	Path   string // as the client calls it, without the /api prefix
	Access Access
}

// Access says who may call a route.
type Access int

const (
	Open     Access = iota // anyone
	User                   // a signed-in user (or operator)
	Operator               // an operator only
	// Identified is a signed-in user known by identity only, for the hot
	// routes (bets, the mine page, the wallet summary): the token is checked
	// against the node's token cache, and c.User carries only the fields
	// that never change (ID, Account, InviteCode, CreatedAt); the handler
	// reads anything else it shows from the store.
	Identified
)

// New builds the API server with every area's routes.
func New(d Deps) *Server {
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if d.Wallet == nil {
		// Enough for the tests of areas that move no money.
		d.Wallet = &wallet.Wallet{DB: d.DB, Counters: d.Counters, Clock: d.Clock, Config: d.Config, Log: d.Log}
	}
	s := &Server{Deps: d, mux: http.NewServeMux(), settings: newSettingsCache(d.Bus)}
	for _, register := range areas {
		register(s)
	}
	return s
}

// areas are the route registrations of each area file, added from init so
// the areas stay independent of each other.
var areas []func(*Server)

func registerArea(f func(*Server)) { areas = append(areas, f) }

// Routes lists the registered routes.
func (s *Server) Routes() []Route { return append([]Route(nil), s.routes...) }

// Call is one request in progress.
type Call struct {
	Ctx     context.Context
	R       *http.Request
	W       http.ResponseWriter
	Lang    string
	User    storage.User        // set for User and Operator routes
	Session storage.AuthSession // set for User and Operator routes
	s       *Server
}

// Handler answers a call with data for the envelope or an error.
type Handler func(c *Call) (any, error)

// Post registers a POST route (the web app's calls are nearly all POST).
func (s *Server) Post(path string, access Access, h Handler) {
	s.handle(http.MethodPost, path, access, h)
}

// Get registers a GET route.
func (s *Server) Get(path string, access Access, h Handler) {
	s.handle(http.MethodGet, path, access, h)
}

func (s *Server) handle(method, path string, access Access, h Handler) {
	s.routes = append(s.routes, Route{Method: method, Path: path, Access: access})
	// The route's metric series are looked up once here, not per request
	// (the label lookup hashes its values; W4's profile showed it).
	latency := httpLatency.WithLabelValues(path)
	queries := storage.QueryCounterFor(path) // the route's store statements (kj_store_queries_total)
	succeeded := httpRequests.WithLabelValues(path, codeLabel(apierr.CodeOK))
	failed := &routeFailures{route: path}
	s.mux.HandleFunc(method+" /api"+path, func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		c := &Call{Ctx: queries.Context(r.Context()), R: r, W: w, Lang: negotiateLang(headerValue(r.Header, "Accept-Language")), s: s}
		data, err := s.run(c, path, access, h)
		if code := s.reply(c, data, err); code == apierr.CodeOK {
			succeeded.Inc()
		} else {
			failed.counter(code).Inc()
		}
		latency.Observe(time.Since(start).Seconds())
	})
}

// exactLangs answers the Accept-Language headers the web app sends (one
// tag of the catalogue, or none) without parsing them.
var exactLangs = func() map[string]string {
	m := map[string]string{"": apierr.NegotiateLang("")}
	for _, l := range apierr.Langs {
		m[l] = l
	}
	return m
}()

func negotiateLang(header string) string {
	if l, ok := exactLangs[header]; ok {
		return l
	}
	return apierr.NegotiateLang(header)
}

func (s *Server) run(c *Call, path string, access Access, h Handler) (data any, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.Log.Error("handler panic", "path", c.R.URL.Path, "panic", p)
			err = errors.New("panic")
		}
	}()
	switch access {
	case Identified:
		if err := s.identify(c); err != nil {
			return nil, err
		}
	case User, Operator:
		if err := s.authenticate(c); err != nil {
			return nil, err
		}
	}
	if access == Operator && c.User.IsOperator != 1 {
		return nil, apierr.Fail(apierr.CodeOperatorOnly, "operator.only").WithStatus(http.StatusForbidden)
	}
	if access == Operator {
		if err := s.checkOperatorRole(c, path); err != nil {
			return nil, err
		}
	}
	return h(c)
}

// Token reads the access token: the `token` header, else a Bearer token.
func Token(r *http.Request) string {
	if t := headerValue(r.Header, "Token"); t != "" {
		return t
	}
	if v, ok := strings.CutPrefix(headerValue(r.Header, "Authorization"), "Bearer "); ok {
		return strings.TrimSpace(v)
	}
	return ""
}

func (s *Server) authenticate(c *Call) error {
	u, sess, err := s.Sessions.Authenticate(c.Ctx, Token(c.R))
	return s.signedIn(c, u, sess, err)
}

func (s *Server) identify(c *Call) error {
	u, sess, err := s.Sessions.Identify(c.Ctx, Token(c.R))
	return s.signedIn(c, u, sess, err)
}

func (s *Server) signedIn(c *Call, u storage.User, sess storage.AuthSession, err error) error {
	switch {
	case err == nil:
		c.User, c.Session = u, sess
		return nil
	case errors.Is(err, auth.ErrNoToken), errors.Is(err, auth.ErrExpired):
		return apierr.Fail(apierr.CodeTokenExpired, "token.expired")
	case errors.Is(err, auth.ErrReplaced):
		return apierr.Fail(apierr.CodeLoggedElsewhere, "logged.elsewhere")
	case errors.Is(err, auth.ErrDeviceLimit):
		// The same client semantics (sign out), in words of its own.
		return apierr.Fail(apierr.CodeLoggedElsewhere, "logged.out.device.limit")
	}
	return err
}

// envelope is the reply of every API call.
type envelope struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data"`
}

func (s *Server) reply(c *Call, data any, err error) int {
	if err == nil {
		writeOK(c.W, c.R, c.Lang, data)
		return apierr.CodeOK
	}
	e, known := asError(err)
	if !known {
		s.Log.Error("request failed", "path", c.R.URL.Path, "err", err)
	}
	env := envelope{Code: e.Code, Message: apierr.Translate(c.Lang, e.Key, e.Args)}
	status := http.StatusOK
	if e.Status != 0 {
		status = e.Status
	}
	writeJSON(c.W, c.R, status, env)
	return env.Code
}

// WriteJSON writes v as the JSON body with status, with its length, from a
// reused buffer; never compressed (for answers outside /api: health,
// readiness, refusals of sockets and files).
func WriteJSON(w http.ResponseWriter, status int, v any) { writeJSON(w, nil, status, v) }

// writeJSON is WriteJSON for an answer to r under /api: compressed when
// large and r accepts it (writeBody).
func writeJSON(w http.ResponseWriter, r *http.Request, status int, v any) {
	buf := replyBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= maxPooledReply {
			replyBuffers.Put(buf)
		}
	}()
	enc := json.NewEncoder(buf)
	if err := enc.Encode(v); err != nil {
		buf.Reset()
		status = http.StatusInternalServerError
		buf.WriteString(`{"code":` + strconv.Itoa(apierr.CodeInternal) + `,"message":"","data":null}` + "\n")
	}
	writeBody(w, r, status, buf.Bytes())
}

// writeBody sends a JSON body with its headers. An answer to an /api
// request r (nil for others) says it varies with Accept-Encoding, and from
// CompressMinSize bytes up goes compressed to a client that accepts it
// (compress.go).
func writeBody(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Cache-Control"] = noStore
	if r != nil {
		if _, set := h["Vary"]; set {
			h.Add("Vary", "Accept-Encoding")
		} else {
			h["Vary"] = varyEncoding
		}
		if len(body) >= CompressMinSize {
			if c := acceptedCoding(r); c != codingNone {
				zbuf := replyBuffers.Get().(*bytes.Buffer)
				zbuf.Reset()
				defer func() {
					if zbuf.Cap() <= maxPooledReply {
						replyBuffers.Put(zbuf)
					}
				}()
				if err := compress(c, zbuf, body); err == nil {
					body = zbuf.Bytes()
					h["Content-Encoding"] = gzipEncoding
					if c == codingZstd {
						h["Content-Encoding"] = zstdEncoding
					}
				}
			}
		}
	}
	h["Content-Length"] = contentLength(len(body))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// okPrefixes are the opening of a successful envelope in each language,
// `{"code":0,"message":"<ok>","data":`, encoded once: every answer of every
// route starts with one, and encoding the envelope through encoding/json
// (its Data an interface) was a fifth of a small read's cost in the
// profile (BenchmarkHTTPPathRead in bench_test.go).
var okPrefixes = func() map[string][]byte {
	m := map[string][]byte{}
	for _, l := range append([]string{""}, apierr.Langs...) {
		msg, _ := json.Marshal(apierr.Translate(l, "ok", nil))
		m[l] = []byte(`{"code":` + strconv.Itoa(apierr.CodeOK) + `,"message":` + string(msg) + `,"data":`)
	}
	return m
}()

// writeOK writes the envelope of a successful call: the same bytes
// WriteJSON(w, 200, envelope{Code: 0, Message: ok, Data: data}) writes,
// with the envelope's opening taken ready-made.
func writeOK(w http.ResponseWriter, r *http.Request, lang string, data any) {
	prefix, ok := okPrefixes[lang]
	if !ok {
		writeJSON(w, r, http.StatusOK, envelope{Code: apierr.CodeOK, Message: apierr.Translate(lang, "ok", nil), Data: data})
		return
	}
	buf := replyBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= maxPooledReply {
			replyBuffers.Put(buf)
		}
	}()
	buf.Write(prefix)
	if b, ok := appendData(buf.AvailableBuffer(), data); ok {
		buf.Write(b) // the hottest answers, written by hand (reply_json.go)
	} else {
		if err := json.NewEncoder(buf).Encode(data); err != nil {
			buf.Reset()
			writeJSON(w, r, http.StatusOK, envelope{Code: apierr.CodeOK, Message: apierr.Translate(lang, "ok", nil), Data: data})
			return
		}
		// Encode ended the data with a newline; the envelope closes before it.
		buf.Truncate(buf.Len() - 1)
	}
	buf.WriteString("}\n")
	writeBody(w, r, http.StatusOK, buf.Bytes())
}

// contentLengths are the Content-Length headers of the answers shorter
// than their count, made once: nearly every answer is, and making the
// header was an allocation per answer.
var contentLengths = func() [][]string {
	vals := make([]string, 2048)
	hs := make([][]string, len(vals))
	for i := range vals {
		vals[i] = strconv.Itoa(i)
		hs[i] = vals[i : i+1 : i+1] // full: an Add to the header copies
	}
	return hs
}()

func contentLength(n int) []string {
	if n < len(contentLengths) {
		return contentLengths[n]
	}
	return []string{strconv.Itoa(n)}
}

var (
	replyBuffers    = sync.Pool{New: func() any { return new(bytes.Buffer) }}
	jsonContentType = []string{"application/json; charset=utf-8"}
	noStore         = []string{"no-store"}
)

// maxPooledReply: a buffer grown by a large reply (a long list) is let go
// rather than kept for every small one.
const maxPooledReply = 64 << 10

// Decode reads the JSON body into dst (a pointer to a struct). An empty body
// is an empty object. Wrong types, malformed JSON and bodies over MaxBody are
// refused with a translated error naming the field when known.
func (c *Call) Decode(dst any) error {
	body := http.MaxBytesReader(c.W, c.R.Body, MaxBody)
	b, err := io.ReadAll(body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return apierr.Fail(apierr.CodeTooLarge, "too.large").WithStatus(http.StatusRequestEntityTooLarge)
		}
		return apierr.Fail(apierr.CodeBadRequest, "bad.request")
	}
	if len(bytes.TrimSpace(b)) == 0 {
		b = []byte("{}")
	}
	return DecodeJSON(b, dst)
}

// DecodeJSON is Decode on bytes already read.
func DecodeJSON(b []byte, dst any) error {
	if err := json.Unmarshal(b, dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return apierr.Fail(apierr.CodeBadRequest, "bad.field.type", "field", te.Field)
		}
		return apierr.Fail(apierr.CodeBadRequest, "bad.request")
	}
	return nil
}

// Handler returns the http.Handler of /api, answering unknown routes and
// wrong methods with the envelope too. JSON answers of CompressMinSize bytes
// or more are compressed for clients that accept it (a page of a list
// shrinks to a fifth), by writeBody, which has the whole answer in hand;
// smaller ones would gain less than the work costs. Every /api answer is
// written by the reply path (writeOK, writeJSON), so none escapes it; /api
// carries no socket or stream: the chat and customer sockets live under /ws.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := s.mux.Handler(r)
		if pattern == "" {
			lang := apierr.NegotiateLang(headerValue(r.Header, "Accept-Language"))
			code, key, status := apierr.CodeBadRequest, "route.unknown", http.StatusNotFound
			if s.knownPath(r.URL.Path) {
				code, key, status = apierr.CodeUnsupported, "method.unsupported", http.StatusMethodNotAllowed
			}
			writeJSON(w, r, status, envelope{Code: code, Message: apierr.Translate(lang, key, nil)})
			return
		}
		h.ServeHTTP(w, r)
	})
}

func (s *Server) knownPath(p string) bool {
	for _, rt := range s.routes {
		if "/api"+rt.Path == p {
			return true
		}
	}
	return false
}

var (
	httpRequests = promauto.NewCounterVec(prometheus.CounterOpts{
		Name: "kj_http_requests_total",
		Help: "API requests by route and envelope code.",
	}, []string{"route", "code"})
	httpLatency = promauto.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "kj_http_request_duration_seconds",
		Help:    "API request latency by route.",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
	}, []string{"route"})
)

// routeFailures are a route's kj_http_requests_total series of failed
// answers, looked up once per code: refusals (a bet refused by its checks)
// are as hot as successes in a round's rush, and the label lookup hashed
// and formatted the code on every one (BenchmarkHTTPPathBet's profile).
type routeFailures struct {
	route  string
	mu     sync.RWMutex
	byCode map[int]prometheus.Counter
}

func (f *routeFailures) counter(code int) prometheus.Counter {
	f.mu.RLock()
	c, ok := f.byCode[code]
	f.mu.RUnlock()
	if ok {
		return c
	}
	c = httpRequests.WithLabelValues(f.route, codeLabel(code))
	f.mu.Lock()
	if f.byCode == nil {
		f.byCode = map[int]prometheus.Counter{}
	}
	f.byCode[code] = c
	f.mu.Unlock()
	return c
}

// codeLabel keeps the metric's label set small: session codes as they
// are, business codes by hundred (1100s = accounts, ...).
func codeLabel(code int) string {
	if code < 1000 {
		return strconv.Itoa(code)
	}
	return strconv.Itoa(code/100*100) + "s"
}

// asError converts any error returned by a handler into the client's view;
// unexpected errors become "system busy" without details. A store or Redis
// that cannot be reached is said so (code 1009, HTTP 503: try again), not
// passed off as an internal error.
func asError(err error) (*apierr.Error, bool) {
	var e *apierr.Error
	if errors.As(err, &e) {
		return e, true
	}
	if storage.Unavailable(err) {
		return &apierr.Error{Code: apierr.CodeSystemBusy, Key: "system.busy", Status: http.StatusServiceUnavailable}, false
	}
	return &apierr.Error{Code: apierr.CodeInternal, Key: "system.busy", Status: http.StatusInternalServerError}, false
}
