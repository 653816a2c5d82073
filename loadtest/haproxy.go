package loadtest

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// LoadBalancer is an HAProxy process in front of a stack's nodes, set up
// from the template scripts/cluster.sh fills in for the local cluster,
// deploy/haproxy/loopback.cfg (and as
// docs/OPERATIONS.md explains): websockets on a long tunnel timeout,
// leastconn, no stickiness, /readyz health checks every 2 s (down after
// three failures, each given 5 s), and a connection a node refuses retried
// on another.
type LoadBalancer struct {
	Addr      string // 127.0.0.1:port
	URL       string // http://addr
	StatsAddr string // HAProxy's status page, for the servers' states
	LogPath   string

	cmd    *exec.Cmd
	exited chan struct{}
}

// loopbackConfig fills in deploy/haproxy/loopback.cfg, the template
// scripts/cluster.sh fills in too, for nodes behind addr with the status
// page on stats.
func loopbackConfig(addr, stats string, nodes []*Node) (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	template, err := os.ReadFile(filepath.Join(root, "deploy", "haproxy", "loopback.cfg"))
	if err != nil {
		return "", err
	}
	servers := make([]string, 0, len(nodes))
	for _, n := range nodes {
		servers = append(servers, fmt.Sprintf("    server node-%d %s", n.Index, n.Addr))
	}
	// Each proxied socket holds two descriptors. Only errors are logged: a
	// line per request would cost the run disk and CPU.
	return strings.NewReplacer("@MAXCONN@", strconv.Itoa(int(noFileLimit())/2-100), "@LOG_OPTION@", "dontlog-normal",
		"@BIND@", addr, "@SERVERS@", strings.Join(servers, "\n"), "@STATS_BIND@", stats).Replace(string(template)), nil
}

// StartLoadBalancer writes the configuration for nodes into dir, starts
// haproxy and waits until it answers /readyz through a node. HAProxy is
// Debian's haproxy package; without it the run fails saying so.
func StartLoadBalancer(ctx context.Context, dir string, nodes []*Node) (*LoadBalancer, error) {
	bin, err := exec.LookPath("haproxy")
	if err != nil {
		return nil, fmt.Errorf("haproxy is required for cluster workloads and is not installed (Debian package haproxy; `make cluster` installs it when run as root)")
	}
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	stats, err := freeAddr()
	if err != nil {
		return nil, err
	}
	cfg, err := loopbackConfig(addr, stats, nodes)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "haproxy.cfg")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		return nil, err
	}
	lb := &LoadBalancer{Addr: addr, URL: "http://" + addr, StatsAddr: stats, LogPath: filepath.Join(dir, "haproxy.log"), exited: make(chan struct{})}
	logf, err := os.Create(lb.LogPath)
	if err != nil {
		return nil, err
	}
	lb.cmd = exec.Command(bin, "-db", "-f", path)
	if err := startLogged(lb.cmd, logf, nil, lb.exited); err != nil {
		return nil, fmt.Errorf("start haproxy: %w", err)
	}
	err = awaitHealthy(ctx, lb.URL+"/readyz", lb.exited, 30*time.Second)
	switch err {
	case nil:
		return lb, nil
	case errExitedAtStart:
		return nil, fmt.Errorf("haproxy exited at start:\n%s", tail(lb.LogPath, 20))
	}
	lb.Stop()
	if err == errNotHealthy {
		err = fmt.Errorf("haproxy did not answer on %s within 30 s:\n%s", addr, tail(lb.LogPath, 20))
	}
	return nil, err
}

// ServerUp reports whether HAProxy sends traffic to node n: its server
// line in the status page's CSV says UP.
func (lb *LoadBalancer) ServerUp(ctx context.Context, n *Node) (bool, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", "http://"+lb.StatsAddr+"/;csv", nil)
	if err != nil {
		return false, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	rows, err := csv.NewReader(resp.Body).ReadAll()
	if err != nil {
		return false, err
	}
	// Columns: pxname, svname, ..., status (the 18th).
	name := fmt.Sprintf("node-%d", n.Index)
	for _, row := range rows {
		if len(row) > 17 && row[0] == "kj_nodes" && row[1] == name {
			return row[17] == "UP", nil
		}
	}
	return false, fmt.Errorf("haproxy lists no server %s", name)
}

// WaitUp waits until HAProxy sends traffic to n (its health check needs
// two passes in a row).
func (lb *LoadBalancer) WaitUp(ctx context.Context, n *Node) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		up, err := lb.ServerUp(ctx, n)
		if up {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("haproxy has not marked node %d up within 30 s (%v)", n.Index, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// MarkedDown counts the times HAProxy took a node out of the balance (its
// log says "is DOWN"): once per node stopped is expected, more means
// health checks failed on a live node.
func (lb *LoadBalancer) MarkedDown() int {
	b, err := os.ReadFile(lb.LogPath)
	if err != nil {
		return 0
	}
	return strings.Count(string(b), " is DOWN")
}

// WSBase is the load balancer's websocket base URL.
func (lb *LoadBalancer) WSBase() string { return "ws://" + lb.Addr }

// Stop ends haproxy.
func (lb *LoadBalancer) Stop() {
	if lb == nil || lb.cmd == nil {
		return
	}
	select {
	case <-lb.exited:
		return
	default:
	}
	terminate(lb.cmd, lb.exited, 5*time.Second)
}
