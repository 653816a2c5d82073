package loadtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"kj/internal/testenv"
)

// The load runs' HAProxy configuration, filled in from the template that
// scripts/cluster.sh shares, is one haproxy accepts, with every node as a
// server and nothing left unfilled.
func TestLoopbackConfigIsAccepted(t *testing.T) {
	testenv.Needs(t, "haproxy")
	bin, err := exec.LookPath("haproxy")
	if err != nil {
		t.Fatal("haproxy is required for the cluster workloads (Debian package haproxy)")
	}
	nodes := []*Node{{Index: 1, Addr: "127.0.0.1:18181"}, {Index: 2, Addr: "127.0.0.1:18182"}}
	cfg, err := loopbackConfig("127.0.0.1:18180", "127.0.0.1:18184", nodes)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"bind 127.0.0.1:18180", "server node-1 127.0.0.1:18181", "server node-2 127.0.0.1:18182",
		"bind 127.0.0.1:18184", "option dontlog-normal"} {
		if !strings.Contains(cfg, want) {
			t.Errorf("configuration lacks %q:\n%s", want, cfg)
		}
	}
	if left := regexp.MustCompile(`@[A-Z_]+@`).FindString(cfg); left != "" {
		t.Errorf("%s is left unfilled:\n%s", left, cfg)
	}
	path := filepath.Join(t.TempDir(), "haproxy.cfg")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "-c", "-q", "-f", path).CombinedOutput(); err != nil {
		t.Fatalf("haproxy rejects the configuration: %v\n%s\n%s", err, out, cfg)
	}
}
