package loadtest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// A started server's life: its exit is noticed while it is awaited, its
// health is polled until it answers, and terminate ends it.
func TestProcessLifeCycle(t *testing.T) {
	start := func(name string, args ...string) (*exec.Cmd, *error, chan struct{}) {
		t.Helper()
		logf, err := os.Create(filepath.Join(t.TempDir(), "out.log"))
		if err != nil {
			t.Fatal(err)
		}
		cmd, exitErr, exited := exec.Command(name, args...), new(error), make(chan struct{})
		if err := startLogged(cmd, logf, exitErr, exited); err != nil {
			t.Fatal(err)
		}
		return cmd, exitErr, exited
	}
	ctx := context.Background()

	_, exitErr, exited := start("sh", "-c", "exit 3")
	if err := awaitHealthy(ctx, "http://127.0.0.1:1/", exited, 10*time.Second); err != errExitedAtStart || *exitErr == nil {
		t.Fatalf("a server that exits: %v (exit %v)", err, *exitErr)
	}

	cmd, _, exited := start("sleep", "60")
	if err := awaitHealthy(ctx, "http://127.0.0.1:1/", exited, 100*time.Millisecond); err != errNotHealthy {
		t.Fatalf("a server that never answers: %v", err)
	}
	var calls atomic.Int32
	health := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) < 3 {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer health.Close()
	if err := awaitHealthy(ctx, health.URL, exited, 10*time.Second); err != nil || calls.Load() != 3 {
		t.Fatalf("a server healthy at its third answer: %v after %d calls", err, calls.Load())
	}
	began := time.Now()
	terminate(cmd, exited, 10*time.Second)
	if !ended(exited) || time.Since(began) > 5*time.Second {
		t.Fatalf("terminate took %v", time.Since(began))
	}
}
