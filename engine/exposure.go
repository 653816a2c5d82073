package engine

// What the public listener exposes and for how long it waits: /metrics on
// an address of its own (KJ_METRICS_ADDR, loopback by default), and read
// deadlines per request so a slow body cannot hold a connection open
// (KJ_HTTP_READ_TIMEOUT; uploads get KJ_HTTP_UPLOAD_TIMEOUT).

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// startMetrics serves /metrics on KJ_METRICS_ADDR until ctx ends. An
// address that cannot be bound is logged, not fatal: the node still
// serves its users (an alert on the missing scrape tells the operator).
func (n *Node) startMetrics(ctx context.Context) {
	if n.Config.MetricsAddr == "" {
		return
	}
	ln, err := net.Listen("tcp", n.Config.MetricsAddr)
	if err != nil {
		n.Log.Error("metrics listener: set KJ_METRICS_ADDR to a free address (empty serves /metrics on KJ_ADDR)",
			"addr", n.Config.MetricsAddr, "err", err)
		return
	}
	n.mu.Lock()
	n.metricsAddr = ln.Addr().String()
	n.mu.Unlock()
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	n.Log.Info("metrics serving", "addr", ln.Addr().String())
}

// MetricsAddr is where this node serves /metrics: its own listener's
// address, or "" while it serves them on the public address (or not yet).
func (n *Node) MetricsAddr() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.metricsAddr
}

// readDeadlines bounds how long one request may take to arrive, headers
// and body: KJ_HTTP_READ_TIMEOUT, or KJ_HTTP_UPLOAD_TIMEOUT for uploads.
// Sockets (websocket upgrades) set their own deadlines once upgraded.
func (n *Node) readDeadlines(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
			limit := n.Config.HTTPReadTimeout
			if isUpload(r.URL.Path) {
				limit = n.Config.HTTPUploadTimeout
			}
			// The connection's start of this request is when the headers
			// arrived; the body gets what is left of the limit.
			_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(limit))
		}
		h.ServeHTTP(w, r)
	})
}

// isUpload: the routes that take files (/api/chat/upload,
// /api/user/uploadAvatar, /api/admin/upload, /api/uploadContacts).
func isUpload(path string) bool {
	return strings.HasPrefix(path, "/api/") && strings.Contains(strings.ToLower(path), "upload")
}

// appPolicy is the Content-Security-Policy of the app and the API. Scripts
// come only from the app's own files (no inline script, no eval); styles
// may be inline (React's style attributes); the webview modal frames
// http(s) pages; only this origin may frame the app (the desktop frame
// page does). Pictures and videos come from this origin, from the backup
// lines (the app loads files from the API's host when that is a line) and
// from the content hosts the operator allowed (httpapi/content_hosts.go;
// the console refuses content links to other hosts), or are made in the
// page (data:, blob:). Requests and sockets go to this origin and to the
// lines (KJ_API_LINES, KJ_LINE_LIST_URLS) the app may switch to; no other
// http, ws or wss host.
type appPolicy struct {
	lines   string // origins of the lines, space-separated, each with a leading space
	sockets string // ws(s) origins of KJ_API_LINES, likewise
	content func() []string
}

func newAppPolicy(apiLines, lineLists []string, content func() []string) *appPolicy {
	p := &appPolicy{content: content}
	for _, o := range origins(apiLines, lineLists) {
		p.lines += " " + o
	}
	for _, o := range origins(apiLines) {
		if ws, ok := strings.CutPrefix(o, "http"); ok {
			p.sockets += " ws" + ws
		}
	}
	return p
}

// header is the policy of an answer to a request for host (the Host
// header): its sockets are allowed by name as well as by 'self', which
// browsers before CSP level 3 do not extend to ws: and wss:.
func (p *appPolicy) header(host string) string {
	media := "'self' data: blob:" + p.lines
	if p.content != nil {
		for _, h := range p.content() {
			media += " " + h
		}
	}
	connect := "'self'"
	if validHost(host) {
		host = strings.ToLower(host)
		connect += " ws://" + host + " wss://" + host
	}
	connect += p.lines + p.sockets
	return "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
		"img-src " + media + "; media-src " + media + "; font-src 'self' data:; " +
		"connect-src " + connect + "; frame-src 'self' http: https:; worker-src 'self' blob:; " +
		"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'"
}

// validHost reports whether h is a plain host[:port] (names, IPv4, or an
// IPv6 literal in brackets), so a Host header cannot add anything else to
// the policy.
func validHost(h string) bool {
	if h == "" || len(h) > 255 {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == ':' || c == '[' || c == ']') {
			return false
		}
	}
	return true
}

// origins are the distinct scheme://host of urls, in order.
func origins(urls ...[]string) []string {
	var out []string
	for _, list := range urls {
		for _, raw := range list {
			u, err := url.Parse(raw)
			if err != nil || u.Host == "" {
				continue
			}
			if o := u.Scheme + "://" + u.Host; !slices.Contains(out, o) {
				out = append(out, o)
			}
		}
	}
	return out
}

// contentHostsAge is how long a node's policy uses the content hosts it
// read; the setting itself is cached and dropped on every save
// (httpapi/settings.go), so a save shows within about a second.
const contentHostsAge = time.Second

// contentHosts keeps the allowed content hosts for the policy: one reader
// refreshes them at a time while the others use the last good list, so a
// slow or failing store never holds up an answer's headers; until the
// store first answers, the list is empty (the strictest policy).
type contentHosts struct {
	read  func(context.Context) ([]string, error)
	clock func() time.Time
	log   func(err error)

	mu         sync.Mutex
	hosts      []string
	next       time.Time
	refreshing bool
}

func (c *contentHosts) get() []string {
	now := c.clock()
	c.mu.Lock()
	if c.refreshing || now.Before(c.next) {
		h := c.hosts
		c.mu.Unlock()
		return h
	}
	c.refreshing = true
	c.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	hosts, err := c.read(ctx)
	cancel()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.refreshing = false
	c.next = now.Add(contentHostsAge)
	if err != nil {
		c.log(err)
	} else {
		c.hosts = hosts
	}
	return c.hosts
}

// filesPolicy is the policy of uploaded files: a file opened on its own
// (an SVG, a page someone uploaded) runs nothing and reaches nothing.
const filesPolicy = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'self'"

// hstsHeader keeps browsers on https for a year once they reached the app
// over it. Subdomains are left out: they may be other services of the
// operator's that kj cannot speak for.
const hstsHeader = "max-age=31536000"

// overTLS reports whether the request reached us over TLS: on this
// connection, or — only with KJ_TRUST_PROXY — at our proxy, as the last
// X-Forwarded-Proto value says (the one our own proxy set; earlier values
// are whatever the client claimed).
func overTLS(r *http.Request, trustProxy bool) bool {
	if r.TLS != nil {
		return true
	}
	if !trustProxy {
		return false
	}
	protos := r.Header.Values("X-Forwarded-Proto")
	if len(protos) == 0 {
		return false
	}
	last := protos[len(protos)-1]
	if i := strings.LastIndexByte(last, ','); i >= 0 {
		last = last[i+1:]
	}
	return strings.EqualFold(strings.TrimSpace(last), "https")
}

// securityHeaders sets the browser protections on every answer: the
// policy, no content-type sniffing, framing by this origin only, no
// referrer beyond this origin, and HSTS on answers that went over TLS
// (never on plain http, where it would be ignored or, behind a proxy not
// trusted to say so, a lie).
func securityHeaders(h http.Handler, policy *appPolicy, trustProxy bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		if strings.HasPrefix(r.URL.Path, "/files/") {
			hd.Set("Content-Security-Policy", filesPolicy)
		} else {
			hd.Set("Content-Security-Policy", policy.header(r.Host))
		}
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "SAMEORIGIN")
		hd.Set("Referrer-Policy", "same-origin")
		if overTLS(r, trustProxy) {
			hd.Set("Strict-Transport-Security", hstsHeader)
		}
		h.ServeHTTP(w, r)
	})
}

// corsHeaders lets the app served from one of allowed (KJ_CORS_ORIGINS)
// call /api on this host: the host of a backup line answers an app whose
// own host stopped answering. Other origins get no CORS headers, so
// browsers keep refusing them.
func corsHeaders(h http.Handler, allowed []string) http.Handler {
	if len(allowed) == 0 {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" || !strings.HasPrefix(r.URL.Path, "/api/") || !slices.Contains(allowed, origin) {
			h.ServeHTTP(w, r)
			return
		}
		hd := w.Header()
		hd.Set("Access-Control-Allow-Origin", origin)
		hd.Add("Vary", "Origin")
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			hd.Set("Access-Control-Allow-Methods", "GET, POST")
			hd.Set("Access-Control-Allow-Headers", "Content-Type, Accept-Language, token, Authorization, Idempotency-Key")
			hd.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.ServeHTTP(w, r)
	})
}
