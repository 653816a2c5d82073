// Package httpapi is the HTTP JSON API of spec section 7, mounted under
// /api: the {code, message, data} envelope, the token header, translated
// messages (Accept-Language), request limits, metrics, and one file of
// routes per area (accounts.go, wallet.go, ...).
package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"kj/actors/ledger"
	"kj/actors/window"
	"kj/auth"
	"kj/engine/bus"
	"kj/engine/clock"
	"kj/engine/config"
	"kj/engine/counter"
	"kj/engine/presence"
	"kj/storage"
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
	Ledger   *ledger.Writer // moves money; nil in tests of areas that do not
	Rounds   *window.Rounds // activation windows: bets, rounds, results (rounds.go)
	Chat     Chat           // the chat engine, for the group routes
}

// Server serves /api.
type Server struct {
	Deps
	mux    *http.ServeMux
	routes []Route
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
)

// New builds the API server with every area's routes.
func New(d Deps) *Server {
	if d.Log == nil {
		d.Log = slog.Default()
	}
	s := &Server{Deps: d, mux: http.NewServeMux()}
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

// Post registers a POST route (the spec's calls are nearly all POST).
func (s *Server) Post(path string, access Access, h Handler) {
	s.handle(http.MethodPost, path, access, h)
}

// Get registers a GET route.
func (s *Server) Get(path string, access Access, h Handler) {
	s.handle(http.MethodGet, path, access, h)
}

func (s *Server) handle(method, path string, access Access, h Handler) {
	s.routes = append(s.routes, Route{Method: method, Path: path, Access: access})
	s.mux.HandleFunc(method+" /api"+path, func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		c := &Call{Ctx: r.Context(), R: r, W: w, Lang: NegotiateLang(r.Header.Get("Accept-Language")), s: s}
		data, err := s.run(c, access, h)
		code := s.reply(c, data, err)
		httpRequests.WithLabelValues(path, codeLabel(code)).Inc()
		httpLatency.WithLabelValues(path).Observe(time.Since(start).Seconds())
	})
}

func (s *Server) run(c *Call, access Access, h Handler) (data any, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.Log.Error("handler panic", "path", c.R.URL.Path, "panic", p)
			err = errors.New("panic")
		}
	}()
	if access != Open {
		if err := s.authenticate(c); err != nil {
			return nil, err
		}
		if access == Operator && c.User.IsOperator != 1 {
			return nil, Fail(CodeOperatorOnly, "operator.only").WithStatus(http.StatusForbidden)
		}
	}
	return h(c)
}

// Token reads the access token: the `token` header, else a Bearer token.
func Token(r *http.Request) string {
	if t := r.Header.Get("token"); t != "" {
		return t
	}
	if v, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return strings.TrimSpace(v)
	}
	return ""
}

func (s *Server) authenticate(c *Call) error {
	u, sess, err := s.Sessions.Authenticate(c.Ctx, Token(c.R))
	switch {
	case err == nil:
		c.User, c.Session = u, sess
		return nil
	case errors.Is(err, auth.ErrNoToken), errors.Is(err, auth.ErrExpired):
		return Fail(CodeTokenExpired, "token.expired")
	case errors.Is(err, auth.ErrReplaced):
		return Fail(CodeLoggedElsewhere, "logged.elsewhere")
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
	env := envelope{Code: CodeOK, Message: Translate(c.Lang, "ok", nil), Data: data}
	status := http.StatusOK
	if err != nil {
		e, known := asError(err)
		if !known {
			s.Log.Error("request failed", "path", c.R.URL.Path, "err", err)
		}
		env = envelope{Code: e.Code, Message: Translate(c.Lang, e.Key, e.Args)}
		if e.Status != 0 {
			status = e.Status
		}
	}
	WriteJSON(c.W, status, env)
	return env.Code
}

// WriteJSON writes v as the JSON body with status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// Decode reads the JSON body into dst (a pointer to a struct). An empty body
// is an empty object. Wrong types, malformed JSON and bodies over MaxBody are
// refused with a translated error naming the field when known.
func (c *Call) Decode(dst any) error {
	body := http.MaxBytesReader(c.W, c.R.Body, MaxBody)
	b, err := io.ReadAll(body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return Fail(CodeTooLarge, "too.large").WithStatus(http.StatusRequestEntityTooLarge)
		}
		return Fail(CodeBadRequest, "bad.request")
	}
	if len(strings.TrimSpace(string(b))) == 0 {
		b = []byte("{}")
	}
	return DecodeJSON(b, dst)
}

// DecodeJSON is Decode on bytes already read.
func DecodeJSON(b []byte, dst any) error {
	if err := json.Unmarshal(b, dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return Fail(CodeBadRequest, "bad.field.type", "field", te.Field)
		}
		return Fail(CodeBadRequest, "bad.request")
	}
	return nil
}

// Handler returns the http.Handler of /api, answering unknown routes and
// wrong methods with the envelope too.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := s.mux.Handler(r)
		if pattern == "" {
			lang := NegotiateLang(r.Header.Get("Accept-Language"))
			code, key, status := CodeBadRequest, "route.unknown", http.StatusNotFound
			if s.knownPath(r.URL.Path) {
				code, key, status = CodeUnsupported, "method.unsupported", http.StatusMethodNotAllowed
			}
			WriteJSON(w, status, envelope{Code: code, Message: Translate(lang, key, nil)})
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

// codeLabel keeps the metric's label set small: session codes as they
// are, business codes by hundred (1100s = accounts, ...).
func codeLabel(code int) string {
	if code < 1000 {
		return strconv.Itoa(code)
	}
	return strconv.Itoa(code/100*100) + "s"
}
