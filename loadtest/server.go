package loadtest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"kj/storage"
)

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// DatabaseURL is the PostgreSQL server load runs use: KJ_LOAD_DATABASE_URL,
// else the tests' KJ_TEST_DATABASE_URL, else the local default. Each run
// makes a schema of its own in it and drops it at the end.
func DatabaseURL() string {
	return env("KJ_LOAD_DATABASE_URL", env("KJ_TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"))
}

// RedisURL and NATSURL are the services cluster-mode runs use.
func RedisURL() string {
	return env("KJ_LOAD_REDIS_URL", env("KJ_TEST_REDIS_URL", "redis://127.0.0.1:6379/0"))
}

// NATSURL is the NATS server cluster-mode runs use.
func NATSURL() string {
	return env("KJ_LOAD_NATS_URL", env("KJ_TEST_NATS_URL", "nats://127.0.0.1:4222"))
}

// BuildKJ compiles the kj binary into dir and returns its path.
func BuildKJ(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, "kj")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "kj")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build kj: %v\n%s", err, out)
	}
	return bin, nil
}

// StackOptions say what a workload needs running.
type StackOptions struct {
	Bin     string            // kj binary; built into WorkDir when empty
	WorkDir string            // binary, logs, data; a temporary directory when empty
	Nodes   int               // kj processes (1 unless a cluster run)
	Cluster bool              // Redis presence and the NATS bus (always when Nodes > 1)
	Env     map[string]string // extra KJ_ settings for every node
	PoolMax int               // pgx pool size of each node (pool_max_conns), 0 = kj's default
	Pprof   bool              // serve pprof on a loopback port per node (KJ_PPROF_ADDR)
	Keep    bool              // keep the schema after the run (to look at it)
	Log     func(format string, args ...any)
	// The servers to use instead of DatabaseURL, RedisURL and NATSURL (a
	// fault run brings its own, to kill and restart).
	DatabaseURL, RedisURL, NATSURL string
}

// Stack is one load run's world: a fresh PostgreSQL schema, migrated, and
// the kj nodes serving it on loopback.
type Stack struct {
	Schema string
	DBURL  string      // the schema's URL, as the nodes get it
	DB     *storage.PG // the generator's own connection, for fixtures and checks
	Nodes  []*Node
	Bin    string
	Dir    string

	opts  StackOptions
	admin *pgx.Conn
	tmp   bool
}

// NewStack creates the schema and migrates it; Start runs the nodes.
func NewStack(ctx context.Context, o StackOptions) (*Stack, error) {
	if o.Nodes <= 0 {
		o.Nodes = 1
	}
	if o.Nodes > 1 {
		o.Cluster = true
	}
	if o.Log == nil {
		o.Log = func(string, ...any) {}
	}
	s := &Stack{opts: o, Dir: o.WorkDir}
	if s.Dir == "" {
		d, err := os.MkdirTemp("", "kjload-")
		if err != nil {
			return nil, err
		}
		s.Dir, s.tmp = d, true
	}
	ok := false
	defer func() {
		if !ok {
			s.Close(context.Background())
		}
	}()
	url := o.DatabaseURL
	if url == "" {
		url = DatabaseURL()
	}
	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("PostgreSQL is required and unreachable at %s (set KJ_LOAD_DATABASE_URL or run `make services`): %w", url, err)
	}
	s.admin = admin
	s.Schema = fmt.Sprintf("kjload_%d_%d", time.Now().Unix(), rand.IntN(1e6))
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+s.Schema); err != nil {
		return nil, fmt.Errorf("create schema: %w", err)
	}
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	s.DBURL = url + sep + "search_path=" + s.Schema
	if o.PoolMax == 0 {
		// An experiment's knob: every node's pgx pool size.
		fmt.Sscan(os.Getenv("KJ_LOAD_POOL_MAX"), &o.PoolMax)
	}
	if o.PoolMax > 0 {
		s.DBURL += fmt.Sprintf("&pool_max_conns=%d", o.PoolMax)
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = s.Schema
	cfg.MaxConns = 16
	if s.DB, err = storage.OpenPostgresConfig(ctx, cfg); err != nil {
		return nil, err
	}
	if _, err := storage.Migrate(ctx, s.DB); err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	s.Bin = o.Bin
	if s.Bin == "" {
		o.Log("building kj")
		if s.Bin, err = BuildKJ(ctx, s.Dir); err != nil {
			return nil, err
		}
	}
	ok = true
	return s, nil
}

// Start runs the nodes and waits until each answers /readyz.
func (s *Stack) Start(ctx context.Context) error {
	for i := range s.opts.Nodes {
		n, err := s.startNode(ctx, i)
		if err != nil {
			return err
		}
		s.Nodes = append(s.Nodes, n)
	}
	return nil
}

// Close stops the nodes (SIGTERM, then SIGKILL after 20 s) and drops the
// schema unless asked to keep it.
func (s *Stack) Close(ctx context.Context) {
	for _, n := range s.Nodes {
		n.Stop()
	}
	if s.DB != nil {
		s.DB.Close()
	}
	if s.admin != nil {
		if !s.opts.Keep && s.Schema != "" {
			if _, err := s.admin.Exec(ctx, "DROP SCHEMA "+s.Schema+" CASCADE"); err != nil {
				s.opts.Log("drop schema %s: %v", s.Schema, err)
			}
		}
		s.admin.Close(ctx)
	}
	if s.tmp {
		os.RemoveAll(s.Dir)
	}
}

// Node is one kj process.
type Node struct {
	Index       int
	Addr        string // 127.0.0.1:port
	PprofAddr   string // where its profiles are served, when asked for
	MetricsAddr string // where its /metrics are served
	URL         string // http://addr
	PID         int
	LogPath     string

	cmd    *exec.Cmd
	exited chan struct{}
	err    error

	mu          sync.Mutex
	peakFDs     int
	peakSockets int
	stopSample  chan struct{}
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

func (s *Stack) startNode(ctx context.Context, i int) (*Node, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	return s.startNodeAt(ctx, i, addr)
}

// Restart starts node i again on the address it had (a load balancer in
// front knows it by that address) once its process has ended, and waits
// until it is ready.
func (s *Stack) Restart(ctx context.Context, i int) error {
	old := s.Nodes[i]
	if old.Alive() {
		return fmt.Errorf("kj node %d still runs", i)
	}
	n, err := s.startNodeAt(ctx, i, old.Addr)
	if err != nil {
		return err
	}
	s.Nodes[i] = n
	return nil
}

// Kill ends the node with SIGKILL, as a crash would, and waits for it.
func (n *Node) Kill() {
	if n.cmd == nil || !n.Alive() {
		return
	}
	_ = n.cmd.Process.Kill()
	<-n.exited
}

func (s *Stack) startNodeAt(ctx context.Context, i int, addr string) (*Node, error) {
	var err error
	n := &Node{Index: i, Addr: addr, URL: "http://" + addr, exited: make(chan struct{}), stopSample: make(chan struct{})}
	n.LogPath = filepath.Join(s.Dir, fmt.Sprintf("node-%d.log", i))
	// A restarted node appends to the log of its earlier life.
	logf, err := os.OpenFile(n.LogPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	data := filepath.Join(s.Dir, fmt.Sprintf("data-%d", i))
	envs := map[string]string{
		"KJ_ADDR": addr, "KJ_DATABASE_URL": s.DBURL, "KJ_LOG_LEVEL": "warn", "KJ_DATA_DIR": data,
		"KJ_NODE_ID": fmt.Sprintf("load-%d", i), "KJ_AUTO_MIGRATE": "false", "KJ_WINDOW_COUNT": "0",
	}
	// /metrics is served on a loopback address of its own (KJ_METRICS_ADDR).
	if n.MetricsAddr, err = freeAddr(); err != nil {
		return nil, err
	}
	envs["KJ_METRICS_ADDR"] = n.MetricsAddr
	if s.opts.Pprof {
		if n.PprofAddr, err = freeAddr(); err != nil {
			return nil, err
		}
		envs["KJ_PPROF_ADDR"] = n.PprofAddr
	}
	if s.opts.Cluster {
		envs["KJ_REDIS_URL"], envs["KJ_NATS_URL"] = RedisURL(), NATSURL()
		if s.opts.RedisURL != "" {
			envs["KJ_REDIS_URL"] = s.opts.RedisURL
		}
		if s.opts.NATSURL != "" {
			envs["KJ_NATS_URL"] = s.opts.NATSURL
		}
	}
	for k, v := range s.opts.Env {
		envs[k] = v
	}
	cmd := exec.Command(s.Bin, "serve")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	// KJ_LOAD_SERVER_<NAME>=v in the harness's environment is NAME=v in
	// every node's (GOGC, GODEBUG, a KJ_ setting to compare ...); the
	// stack's own settings below win.
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, "KJ_LOAD_SERVER_") && v != "" {
			cmd.Env = append(cmd.Env, strings.TrimPrefix(k, "KJ_LOAD_SERVER_")+"="+v)
		}
	}
	for k, v := range envs {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	if err := startLogged(cmd, logf, &n.err, n.exited); err != nil {
		return nil, err
	}
	n.cmd, n.PID = cmd, cmd.Process.Pid
	go n.sample()
	err = awaitHealthy(ctx, n.URL+"/readyz", n.exited, 60*time.Second)
	switch err {
	case nil:
		return n, nil
	case errExitedAtStart:
		return nil, fmt.Errorf("kj node %d exited at start: %v\n%s", i, n.err, tail(n.LogPath, 30))
	}
	n.Stop()
	if err == errNotHealthy {
		err = fmt.Errorf("kj node %d not ready after 60 s\n%s", i, tail(n.LogPath, 30))
	}
	return nil, err
}

// sample tracks the peak of open descriptors, which /proc only shows as a
// current value. It counts the descriptors every second (one directory
// read) and which of them are sockets (a readlink each) only when they
// reach a new peak: with W2's 10,000 sockets a readlink of each every
// second cost the harness 30-70 µs of CPU a message at 2,000 msg/s, all of
// it counted as the generator's. The count itself is the size stat gives
// the fd directory (openFDs), not a read of it: listing 10,000 entries
// every second still cost the harness 8 µs of CPU a message at 2,000 msg/s.
func (n *Node) sample() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-n.stopSample:
			return
		case <-n.exited:
			return
		case <-t.C:
			fds, err := openFDs(n.PID)
			if err != nil {
				continue
			}
			n.mu.Lock()
			peak := fds > n.peakFDs
			n.peakFDs = max(n.peakFDs, fds)
			n.mu.Unlock()
			if !peak {
				continue
			}
			if p, err := ReadProc(n.PID); err == nil {
				n.mu.Lock()
				n.peakFDs, n.peakSockets = max(n.peakFDs, p.FDs), max(n.peakSockets, p.Sockets)
				n.mu.Unlock()
			}
		}
	}
}

// Sample reads the node's process now.
func (n *Node) Sample() ProcSample {
	p, _ := ReadProc(n.PID)
	n.mu.Lock()
	n.peakFDs, n.peakSockets = max(n.peakFDs, p.FDs), max(n.peakSockets, p.Sockets)
	n.mu.Unlock()
	return p
}

// Stats are the node's figures between two samples, with its Go runtime
// gauges from /metrics.
func (n *Node) Stats(ctx context.Context, from, to ProcSample) *ServerStats {
	n.mu.Lock()
	st := Window(n.PID, from, to, n.peakFDs, n.peakSockets)
	n.mu.Unlock()
	if m, err := Metrics(ctx, n.MetricsURL()); err == nil {
		st.HeapInuse, st.StackInuse, st.GoSys = m["go_memstats_heap_inuse_bytes"], m["go_memstats_stack_inuse_bytes"], m["go_memstats_sys_bytes"]
		st.Goroutines, st.GCCycles = m["go_goroutines"], m["go_gc_duration_seconds_count"]
	}
	return &st
}

// MetricsURL is the node's /metrics.
func (n *Node) MetricsURL() string { return "http://" + n.MetricsAddr + "/metrics" }

// Alive says whether the process still runs.
func (n *Node) Alive() bool { return !ended(n.exited) }

// Stop sends SIGTERM (the node drains) and kills it after 20 s.
func (n *Node) Stop() {
	if n.cmd == nil || !n.Alive() {
		return
	}
	select {
	case <-n.stopSample:
	default:
		close(n.stopSample)
	}
	terminate(n.cmd, n.exited, 20*time.Second)
}

// Err is how the process ended (nil while it runs or after a clean exit).
func (n *Node) Err() error {
	if n.Alive() {
		return nil
	}
	var ee *exec.ExitError
	if errors.As(n.err, &ee) && ee.ExitCode() == 0 {
		return nil
	}
	return n.err
}

// tail returns the last lines of a log file, for error messages.
func tail(path string, lines int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	ls := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(ls) > lines {
		ls = ls[len(ls)-lines:]
	}
	return strings.Join(ls, "\n")
}

// Mark is the start of a measured window: the first node's process and
// the machine's CPU counters.
type Mark struct {
	proc ProcSample
	box  BoxSample
}

func (s *Stack) pids() []int {
	out := make([]int, 0, len(s.Nodes))
	for _, n := range s.Nodes {
		out = append(out, n.PID)
	}
	return out
}

// Mark starts a measured window.
func (s *Stack) Mark() Mark {
	return Mark{proc: s.Nodes[0].Sample(), box: SampleBox(s.pids()...)}
}

// Measure ends the window begun at m: the first node's figures and how the
// machine's CPU was spent. It fails when a node died meanwhile.
func (s *Stack) Measure(ctx context.Context, m Mark) (*ServerStats, *BoxStats, error) {
	for _, n := range s.Nodes {
		if !n.Alive() {
			return nil, nil, fmt.Errorf("kj node %d exited during the run: %v\n%s", n.Index, n.Err(), tail(n.LogPath, 30))
		}
	}
	box := SampleBox(s.pids()...)
	to := s.Nodes[0].Sample()
	st := s.Nodes[0].Stats(ctx, m.proc, to)
	b := BoxWindow(m.box, box, to.At.Sub(m.proc.At).Seconds())
	return st, &b, nil
}
