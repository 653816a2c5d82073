package testenv

import (
	"bytes"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// BuildKJ compiles the kj binary into a temporary directory, for tests that
// run it as a separate process (to kill it with SIGKILL, for one).
func BuildKJ(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "kj")
	if out, err := exec.Command("go", "build", "-o", bin, "kj").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// Process is one `kj serve` started by StartServe.
type Process struct {
	Cmd     *exec.Cmd
	Addr    string // host:port it listens on
	Logs    *SyncBuffer
	Exited  chan struct{} // closed when the process has ended
	ExitErr error         // set before Exited closes
}

// URL is the base address of the process's HTTP server.
func (p *Process) URL() string { return "http://" + p.Addr }

// SyncBuffer collects a process's output for failure messages; it is safe
// for the process's writes and the test's reads at once.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// StartServe runs `bin serve` on a free local port with only PATH, HOME,
// warn-level logs and env in its environment, waits until /healthz answers
// 200 and kills it when the test ends.
func StartServe(t testing.TB, bin string, env map[string]string) *Process {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(bin, "serve")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "KJ_ADDR=" + addr, "KJ_LOG_LEVEL=warn"}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	p := &Process{Cmd: cmd, Addr: addr, Logs: new(SyncBuffer), Exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.Logs, p.Logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.ExitErr = cmd.Wait(); close(p.Exited) }()
	t.Cleanup(p.Kill)
	Eventually(t, 30*time.Second, func() bool {
		resp, err := http.Get(p.URL() + "/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}, "kj did not come up: %s", p.Logs)
	return p
}

// Kill ends the process with SIGKILL (no drain, no deferred work) and
// waits until it is gone.
func (p *Process) Kill() {
	select {
	case <-p.Exited:
	default:
		_ = p.Cmd.Process.Signal(syscall.SIGKILL)
		<-p.Exited
	}
}
