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
// may be inline (React's style attributes); pictures and videos may come
// from any http(s) host (operators' content links them) or be generated
// in the page (data:, blob:); the webview modal frames http(s) pages; only
// this origin may frame the app (the desktop frame page does). Requests go
// to this origin, sockets anywhere, and to the hosts of the disaster-
// recovery lines (KJ_API_LINES, KJ_LINE_LIST_URLS) the app may switch to.
func appPolicy(connect []string) string {
	return "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data: blob: http: https:; media-src 'self' data: blob: http: https:; font-src 'self' data:; " +
		"connect-src " + strings.Join(append([]string{"'self'", "ws:", "wss:"}, connect...), " ") + "; frame-src 'self' http: https:; worker-src 'self' blob:; " +
		"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'"
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

// filesPolicy is the policy of uploaded files: a file opened on its own
// (an SVG, a page someone uploaded) runs nothing and reaches nothing.
const filesPolicy = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'self'"

// securityHeaders sets the browser protections on every answer: the
// policy, no content-type sniffing, framing by this origin only, and no
// referrer beyond this origin.
func securityHeaders(h http.Handler, policy string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		if strings.HasPrefix(r.URL.Path, "/files/") {
			hd.Set("Content-Security-Policy", filesPolicy)
		} else {
			hd.Set("Content-Security-Policy", policy)
		}
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "SAMEORIGIN")
		hd.Set("Referrer-Policy", "same-origin")
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
