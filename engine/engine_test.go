package engine

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"kj/engine/config"
	"kj/internal/testenv"
	"kj/storage/storagetest"
)

func startNode(t *testing.T, env map[string]string) string {
	t.Helper()
	if env["KJ_DATA_DIR"] == "" {
		env["KJ_DATA_DIR"] = t.TempDir()
	}
	cfg, err := config.Load(nil, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n, err := Open(ctx, cfg, NewLogger(io.Discard, "error"))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- n.ServeListener(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("shutdown: %v", err)
			}
		case <-time.After(20 * time.Second):
			t.Error("node did not drain")
		}
	})
	return "http://" + ln.Addr().String()
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestEmbeddedNodeServesEverything(t *testing.T) {
	base := startNode(t, map[string]string{})
	if code, _ := get(t, base+"/healthz"); code != 200 {
		t.Fatalf("healthz %d", code)
	}
	if code, body := get(t, base+"/readyz"); code != 200 || !strings.Contains(body, `"store":"ok"`) {
		t.Fatalf("readyz %d %s", code, body)
	}
	_, root := get(t, base+"/")
	code, deep := get(t, base+"/pages/tabBar/mine")
	if code != 200 || deep != root || !strings.Contains(root, "<html") {
		t.Fatalf("history fallback: %d, same page as / = %v", code, deep == root)
	}
	_, metrics := get(t, base+"/metrics")
	if !strings.Contains(metrics, "go_goroutines") || !strings.Contains(metrics, "kj_build_info") {
		t.Fatal("metrics lack go_goroutines or kj_ metrics")
	}
	code, body := get(t, base+"/api/unknown")
	if code != 404 || !strings.Contains(body, `"code":1000`) {
		t.Fatalf("unknown api route: %d %s", code, body)
	}
	if code, _ := get(t, base+"/files/"); code != 404 {
		t.Fatalf("file listing must be refused, got %d", code)
	}
	if code, body := get(t, base+"/openapi.yaml"); code != 200 || !strings.Contains(body, "openapi: 3") {
		t.Fatalf("openapi.yaml: %d", code)
	}
}

func TestClusterNodeOnRealServices(t *testing.T) {
	_, dbURL := storagetest.PostgresURL(t)
	testenv.Redis(t) // fails the test, naming Redis, when it is down
	base := startNode(t, map[string]string{
		"KJ_DATABASE_URL": dbURL,
		"KJ_REDIS_URL":    testenv.RedisURL(),
		"KJ_NATS_URL":     testenv.NATSURL(),
	})
	code, body := get(t, base+"/readyz")
	if code != 200 {
		t.Fatalf("readyz %d %s", code, body)
	}
	for _, part := range []string{`"store":"ok"`, `"bus":"ok"`, `"presence":"ok"`, `"counters":"ok"`} {
		if !strings.Contains(body, part) {
			t.Fatalf("readyz %s lacks %s", body, part)
		}
	}
}

func TestOpenFailsOnUnreachableService(t *testing.T) {
	cfg, _ := config.Load(nil, func(k string) string {
		return map[string]string{"KJ_DATA_DIR": t.TempDir(), "KJ_NATS_URL": "nats://127.0.0.1:1"}[k]
	})
	if _, err := Open(context.Background(), cfg, NewLogger(io.Discard, "error")); err == nil || !strings.Contains(err.Error(), "NATS") {
		t.Fatalf("want an error naming NATS, got %v", err)
	}
}
