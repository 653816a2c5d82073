package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"kj/internal/config"
	"kj/internal/testenv"
	"kj/storage/storagetest"
)

// testNode is a node serving on a local port for one test.
type testNode struct {
	*Node
	Addr, Base string // host:port, and http://host:port
	cancel     context.CancelFunc
	done       chan error
	stopOnce   sync.Once
	stopErr    error
}

// serveNode opens a node configured by env (on a fresh data directory
// unless env names one) and serves it on a local port; at the test's end
// it is stopped, and a shutdown that fails or does not drain fails the test.
func serveNode(t *testing.T, env map[string]string) *testNode {
	t.Helper()
	if env["KJ_DATA_DIR"] == "" {
		env["KJ_DATA_DIR"] = t.TempDir()
	}
	if env["KJ_METRICS_ADDR"] == "" {
		// Tests run many nodes at once; they read /metrics where they
		// read everything else (exposure_test.go checks the default).
		env["KJ_METRICS_ADDR"] = config.MetricsOnPublic
	}
	cfg, err := config.Load(nil, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n, err := Open(ctx, cfg, NewLogger(io.Discard, "error"))
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	tn := &testNode{Node: n, Addr: ln.Addr().String(), Base: "http://" + ln.Addr().String(), cancel: cancel, done: make(chan error, 1)}
	go func() { tn.done <- n.ServeListener(ctx, ln) }()
	t.Cleanup(func() {
		if err := tn.stop(); err != nil {
			t.Error(err)
		}
	})
	return tn
}

// stop cancels the node's context and waits up to 20 s for it to drain;
// calls after the first return the first one's outcome.
func (n *testNode) stop() error {
	n.stopOnce.Do(func() {
		n.cancel()
		select {
		case err := <-n.done:
			if err != nil {
				n.stopErr = fmt.Errorf("shutdown: %w", err)
			}
		case <-time.After(20 * time.Second):
			n.stopErr = errors.New("node did not drain")
		}
	})
	return n.stopErr
}

func startNode(t *testing.T, env map[string]string) string {
	t.Helper()
	return serveNode(t, env).Base
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
