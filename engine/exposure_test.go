package engine

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"kj/internal/config"
	"kj/internal/testenv"
	"kj/storage"
)

func TestMetricsAreServedOnTheirOwnAddressOnly(t *testing.T) {
	n := serveNode(t, map[string]string{"KJ_METRICS_ADDR": "127.0.0.1:0"})
	if _, body := get(t, n.Base+"/metrics"); strings.Contains(body, "go_goroutines") {
		t.Fatal("/metrics answered on the public address")
	}
	var addr string
	deadline := time.Now().Add(5 * time.Second)
	for addr == "" && time.Now().Before(deadline) {
		addr = n.MetricsAddr()
		time.Sleep(5 * time.Millisecond)
	}
	if addr == "" {
		t.Fatal("the metrics listener never started")
	}
	code, body := get(t, "http://"+addr+"/metrics")
	if code != 200 || !strings.Contains(body, "kj_build_info") {
		t.Fatalf("metrics address %s: %d", addr, code)
	}
	// The default is loopback.
	cfg, err := config.Load(nil, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	host, _, _ := net.SplitHostPort(cfg.MetricsAddr)
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		t.Fatalf("default KJ_METRICS_ADDR %q is not loopback", cfg.MetricsAddr)
	}
}

// slowBody sends a request's headers and a first part of its body, then
// nothing more, and returns how long the server took to answer or close.
func slowBody(t *testing.T, base, path string) time.Duration {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	_, err = io.WriteString(conn, "POST "+path+" HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"account\":")
	if err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, _ = bufio.NewReader(conn).ReadString(0) // until the server answers and closes, or the deadline
	return time.Since(start)
}

func TestSlowBodiesAreCutOff(t *testing.T) {
	base := startNode(t, map[string]string{"KJ_METRICS_ADDR": "127.0.0.1:0", "KJ_HTTP_READ_TIMEOUT": "300ms", "KJ_HTTP_UPLOAD_TIMEOUT": "2s"})
	if d := slowBody(t, base, "/api/accountLogin"); d > 2*time.Second {
		t.Fatalf("a slow API body held the connection %v (read timeout 300ms)", d)
	}
	// Uploads get their own, larger limit.
	if d := slowBody(t, base, "/api/chat/upload"); d < 1500*time.Millisecond || d > 5*time.Second {
		t.Fatalf("a slow upload was cut off after %v (upload timeout 2s)", d)
	}
}

func TestSecurityHeadersOnEveryAnswer(t *testing.T) {
	base := startNode(t, map[string]string{"KJ_METRICS_ADDR": "127.0.0.1:0"})
	for _, path := range []string{"/", "/pages/tabBar/mine", "/api/unknown", "/healthz", "/files/nothing.svg"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		h := resp.Header
		csp := h.Get("Content-Security-Policy")
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("X-Frame-Options") != "SAMEORIGIN" ||
			h.Get("Referrer-Policy") != "same-origin" || !strings.Contains(csp, "frame-ancestors 'self'") {
			t.Fatalf("%s: headers %v", path, h)
		}
		if strings.HasPrefix(path, "/files/") != strings.Contains(csp, "sandbox") {
			t.Fatalf("%s: policy %q (uploads are sandboxed, the app is not)", path, csp)
		}
		if !strings.HasPrefix(path, "/files/") && (!strings.Contains(csp, "script-src 'self';") || strings.Contains(csp, "unsafe-eval")) {
			t.Fatalf("%s: scripts must come from the app's own files only: %q", path, csp)
		}
	}
}

func TestBackupLinesAreAllowedAndAnswerTheApp(t *testing.T) {
	base := startNode(t, map[string]string{
		"KJ_METRICS_ADDR":   "127.0.0.1:0",
		"KJ_API_LINES":      "https://line-b.example.com/api/,http://10.0.0.7:8080/api",
		"KJ_LINE_LIST_URLS": "https://codes.example.net/lines.txt",
		"KJ_CORS_ORIGINS":   "https://app.example.com",
	})
	resp, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	csp := policyOf(resp.Header)
	host := strings.TrimPrefix(base, "http://")
	if got, want := strings.Join(csp["connect-src"], " "), "'self' ws://"+host+" wss://"+host+" https://line-b.example.com http://10.0.0.7:8080 https://codes.example.net wss://line-b.example.com ws://10.0.0.7:8080"; got != want {
		t.Fatalf("the app may not reach its backup lines, or reaches more: connect-src %q, want %q", got, want)
	}
	if got, want := strings.Join(csp["img-src"], " "), "'self' data: blob: https://line-b.example.com http://10.0.0.7:8080 https://codes.example.net"; got != want {
		t.Fatalf("img-src %q, want %q", got, want)
	}

	preflight := func(origin string) *http.Response {
		req, _ := http.NewRequest(http.MethodOptions, base+"/api/user/mine", nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "content-type,token")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if r := preflight("https://app.example.com"); r.StatusCode != http.StatusNoContent ||
		r.Header.Get("Access-Control-Allow-Origin") != "https://app.example.com" || !strings.Contains(r.Header.Get("Access-Control-Allow-Headers"), "token") {
		t.Fatalf("preflight from the app: %d %v", r.StatusCode, r.Header)
	}
	if r := preflight("https://evil.example.org"); r.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("another origin was allowed: %v", r.Header)
	}

	req, _ := http.NewRequest(http.MethodGet, base+"/api/lines?combineId=kj", nil)
	req.Header.Set("Origin", "https://app.example.com")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(body) != "https://line-b.example.com/api\nhttp://10.0.0.7:8080/api\n" ||
		resp.Header.Get("Access-Control-Allow-Origin") != "https://app.example.com" {
		t.Fatalf("line list: %d %q %v", resp.StatusCode, body, resp.Header)
	}
	resp, err = http.Get(base + "/api/lines?combineId=other")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("an unknown combine id got %d", resp.StatusCode)
	}
}

// policyOf parses the Content-Security-Policy of an answer: directive ->
// its sources.
func policyOf(h http.Header) map[string][]string {
	out := map[string][]string{}
	for _, d := range strings.Split(h.Get("Content-Security-Policy"), ";") {
		f := strings.Fields(d)
		if len(f) > 0 {
			out[f[0]] = f[1:]
		}
	}
	return out
}

// TestPolicyLimitsWhereTheAppLoadsAndConnects: the app's policy lets
// pictures and videos come only from this origin (and data:, blob:), the
// backup lines and the content hosts an admin allowed, and requests and
// sockets go only to this origin and the lines: no http:, https:, ws: or
// wss: wildcard, no other host (issue 32). A host the admin adds in the
// console shows in every node's policy at once (about a second), for
// pictures and videos only.
func TestPolicyLimitsWhereTheAppLoadsAndConnects(t *testing.T) {
	n := serveNode(t, map[string]string{})
	policy := func() map[string][]string {
		t.Helper()
		resp, err := http.Get(n.Base + "/pages/tabBar/mine")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return policyOf(resp.Header)
	}
	csp := policy()
	for _, d := range []string{"img-src", "media-src"} {
		if got := strings.Join(csp[d], " "); got != "'self' data: blob:" {
			t.Fatalf("%s %q: want only this origin, data: and blob:", d, got)
		}
	}
	if got, want := strings.Join(csp["connect-src"], " "), "'self' ws://"+n.Addr+" wss://"+n.Addr; got != want {
		t.Fatalf("connect-src %q, want %q", got, want)
	}
	for d, sources := range csp {
		for _, src := range sources {
			if d != "frame-src" && (src == "http:" || src == "https:" || src == "ws:" || src == "wss:" || strings.Contains(src, "*")) {
				t.Fatalf("%s allows %s", d, src)
			}
		}
	}

	// An admin allows a content host in the console.
	if _, err := CreateOperator(context.Background(), n.DB, n.Clock.Now(), "csp_admin", "abc123", storage.OperatorAdmin); err != nil {
		t.Fatal(err)
	}
	code, data := post(t, n.Base+"/api/accountLogin", "", `{"account":"csp_admin","password":"abc123","platform":1}`)
	var tok struct {
		Token string `json:"token"`
	}
	if code != 0 || json.Unmarshal(data, &tok) != nil {
		t.Fatalf("admin sign-in: %d %s", code, data)
	}
	if code, data := post(t, n.Base+"/api/admin/contentHosts/save", tok.Token, `{"hosts":["https://cdn.example.com"]}`); code != 0 {
		t.Fatalf("saving content hosts: %d %s", code, data)
	}
	testenv.Eventually(t, 5*time.Second, func() bool {
		csp = policy()
		return slices.Contains(csp["img-src"], "https://cdn.example.com")
	}, "the saved content host never reached the policy")
	for _, d := range []string{"img-src", "media-src"} {
		if got := strings.Join(csp[d], " "); got != "'self' data: blob: https://cdn.example.com" {
			t.Fatalf("%s %q after allowing https://cdn.example.com", d, got)
		}
	}
	if slices.Contains(csp["connect-src"], "https://cdn.example.com") {
		t.Fatalf("connect-src %v: content hosts are for pictures and videos", csp["connect-src"])
	}
	// Uploaded files keep their own, stricter policy.
	resp, err := http.Get(n.Base + "/files/avatars/none.png")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := resp.Header.Get("Content-Security-Policy"); got != filesPolicy {
		t.Fatalf("/files/ policy %q", got)
	}
}

// TestPolicyNamesOnlyAPlainRequestHost: the request's host goes into the
// policy's sockets only when it is a plain host[:port], so a Host header
// cannot add sources or directives.
func TestPolicyNamesOnlyAPlainRequestHost(t *testing.T) {
	p := newAppPolicy(nil, nil, nil)
	for host, want := range map[string]string{
		"kj.example.com":        "connect-src 'self' ws://kj.example.com wss://kj.example.com;",
		"KJ.example.com:8443":   "connect-src 'self' ws://kj.example.com:8443 wss://kj.example.com:8443;",
		"[::1]:8080":            "connect-src 'self' ws://[::1]:8080 wss://[::1]:8080;",
		"":                      "connect-src 'self';",
		"a.example; script-src": "connect-src 'self';",
		"a.example *":           "connect-src 'self';",
		"a.example/x":           "connect-src 'self';",
	} {
		if got := p.header(host); !strings.Contains(got, want) {
			t.Errorf("host %q: policy %q, want %q", host, got, want)
		}
	}
}

// TestHSTSOnlyOverTLS: Strict-Transport-Security is sent on answers that
// went over TLS — on the connection, or, only with KJ_TRUST_PROXY, at the
// proxy as its (last) X-Forwarded-Proto says — and never on plain http,
// where a client's own X-Forwarded-Proto is not believed (issue 32).
func TestHSTSOnlyOverTLS(t *testing.T) {
	hsts := func(client *http.Client, url string, proto ...string) string {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, url+"/healthz", nil)
		for _, p := range proto {
			req.Header.Add("X-Forwarded-Proto", p)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.Header.Get("Strict-Transport-Security")
	}
	direct := serveNode(t, map[string]string{})
	for _, proto := range [][]string{nil, {"https"}, {"http, https"}} {
		if got := hsts(http.DefaultClient, direct.Base, proto...); got != "" {
			t.Fatalf("plain http without a trusted proxy, X-Forwarded-Proto %v: HSTS %q", proto, got)
		}
	}
	behind := serveNode(t, map[string]string{"KJ_TRUST_PROXY": "true"})
	for _, tc := range []struct {
		proto []string
		want  bool
	}{
		{nil, false}, {[]string{"http"}, false}, {[]string{"https"}, true}, {[]string{"HTTPS"}, true},
		{[]string{"https, http"}, false}, {[]string{"http, https"}, true}, {[]string{"https", "http"}, false},
	} {
		if got := hsts(http.DefaultClient, behind.Base, tc.proto...); (got != "") != tc.want || (tc.want && !strings.HasPrefix(got, "max-age=")) {
			t.Fatalf("behind a trusted proxy, X-Forwarded-Proto %q: HSTS %q, want it %v", tc.proto, got, tc.want)
		}
	}
	// TLS on the connection itself.
	tls := httptest.NewTLSServer(direct.Handler())
	defer tls.Close()
	if got := hsts(tls.Client(), tls.URL); got != "max-age=31536000" {
		t.Fatalf("over TLS: HSTS %q", got)
	}
}
