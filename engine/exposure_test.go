package engine

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"kj/internal/config"
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
	csp := resp.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "connect-src 'self' ws: wss: https://line-b.example.com http://10.0.0.7:8080 https://codes.example.net;") {
		t.Fatalf("the app may not reach its backup lines: %q", csp)
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
