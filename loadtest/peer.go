package loadtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// The peer is another realtime server run by the same workload, with the
// same generator, in the same run as kj, each server alone on the box
// while it is measured: every figure of kj is then read beside what an
// established server does on the same machine at the same moment.
// Centrifugo is the one we compare with: like kj's gateway it fans
// publications out to websocket subscribers, and it publishes its own
// fan-out figures.

// Peers lists the peers a workload can run against. centrifugo-pg is the
// same binary with its PostgreSQL broker (peerpg.go): every publication is
// committed to PostgreSQL before the publish is answered, the durable
// peer of W2.
var Peers = map[string]PeerSpec{
	"centrifugo": {Name: "centrifugo", Version: "v6.9.1", Module: "github.com/centrifugal/centrifugo/v6"},
	"centrifugo-pg": {Name: "centrifugo-pg", Version: "v6.9.1", Module: "github.com/centrifugal/centrifugo/v6",
		Binary: "centrifugo", Broker: "postgres"},
}

// PeerSpec says which peer and how to build it.
type PeerSpec struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Module  string `json:"module"`           // built with go install Module@Version
	Binary  string `json:"-"`                // the installed binary's name when not Name
	Broker  string `json:"broker,omitempty"` // "postgres": the PostgreSQL broker; empty: in memory
}

// binary is the name go install gives the peer's binary.
func (s PeerSpec) binary() string {
	if s.Binary != "" {
		return s.Binary
	}
	return s.Name
}

// PeerOptions are the settings of one start of the peer that a workload
// varies between runs (see PeerSpec.variants).
type PeerOptions struct {
	// UseNotify: the PostgreSQL broker's outbox workers wake on LISTEN/
	// NOTIFY instead of polling only (broker.postgres.use_notify).
	UseNotify bool `json:"useNotify"`
}

// variants are the settings a workload runs the peer with; it reports
// the better run and lists the others' figures.
func (s PeerSpec) variants() []PeerOptions {
	if s.Broker == "postgres" {
		return []PeerOptions{{UseNotify: true}, {UseNotify: false}}
	}
	return []PeerOptions{{}}
}

// label names a variant in logs and results.
func (s PeerSpec) label(v PeerOptions) string {
	if s.Broker != "postgres" {
		return s.Name
	}
	if v.UseNotify {
		return s.Name + " (use_notify on)"
	}
	return s.Name + " (use_notify off, polling every " + pgPollInterval(v) + ")"
}

// PeerVariant is one setting's figures when a workload ran several.
type PeerVariant struct {
	Setting string             `json:"setting"`
	Options PeerOptions        `json:"options"`
	Figures map[string]float64 `json:"figures"`
}

// PeerResult is a workload's figures for the peer, beside kj's.
type PeerResult struct {
	Name    string             `json:"name"`
	Version string             `json:"version"`
	Config  any                `json:"config,omitempty"`
	Figures map[string]float64 `json:"figures"`
	Steps   []StepResult       `json:"steps,omitempty"`
	Latency Latency            `json:"latency"`
	Loss    *Loss              `json:"loss,omitempty"`
	Server  *ServerStats       `json:"server,omitempty"`
	Box     *BoxStats          `json:"box,omitempty"`
	Notes   []string           `json:"notes,omitempty"`
	// Variants are every setting run, when the workload ran several; the
	// figures above are the better one's.
	Variants []PeerVariant `json:"variants,omitempty"`
}

// PeerBinary builds the peer into <module>/bin/peer (once per version)
// and returns its path.
func PeerBinary(ctx context.Context, spec PeerSpec, logf func(string, ...any)) (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, "bin", "peer")
	bin := filepath.Join(dir, spec.binary())
	stamp := bin + ".version"
	if b, err := os.ReadFile(stamp); err == nil && strings.TrimSpace(string(b)) == spec.Version {
		if _, err := os.Stat(bin); err == nil {
			return bin, nil
		}
	}
	logf("building %s %s with go install into %s", spec.Name, spec.Version, dir)
	cmd := exec.CommandContext(ctx, "go", "install", spec.Module+"@"+spec.Version)
	cmd.Env = append(os.Environ(), "GOBIN="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go install %s@%s: %v\n%s", spec.Module, spec.Version, err, out)
	}
	if err := os.WriteFile(stamp, []byte(spec.Version+"\n"), 0o644); err != nil {
		return "", err
	}
	return bin, nil
}

// PeerServer is a running peer.
type PeerServer struct {
	Spec    PeerSpec
	Addr    string // 127.0.0.1:port
	PID     int
	Secret  string // HMAC key of connection tokens
	LogPath string

	cmd    *exec.Cmd
	exited chan struct{}
	err    error
	dir    string
	// db is the PostgreSQL database of the broker (empty: none), dropped
	// by Stop.
	db *peerDB
	// rowQuery counts the rows of a channel ($1) whose data holds the
	// payload text $2 (checkPeerCommits); empty: Centrifugo's stream table.
	rowQuery string
}

// WSURL is its websocket endpoint.
func (p *PeerServer) WSURL() string { return "ws://" + p.Addr + "/connection/websocket" }

// StartPeer runs the peer on a free loopback port with a configuration of
// its own: connection tokens signed with a fresh HMAC key, and a "group"
// channel namespace whose subscribers may publish (what a chat group is).
// History, presence and join/leave events stay off, as kj's fan-out keeps
// nothing per delivery either — except with the PostgreSQL broker, whose
// every publication is a committed row: there the group and pair
// namespaces keep history with recovery forced, as a durable chat would.
func StartPeer(ctx context.Context, spec PeerSpec, bin string) (*PeerServer, error) {
	return StartPeerWith(ctx, spec, bin, PeerOptions{})
}

// StartPeerWith is StartPeer with the settings v; a PostgreSQL broker gets
// a database of its own, created here and dropped by Stop.
func StartPeerWith(ctx context.Context, spec PeerSpec, bin string, v PeerOptions) (*PeerServer, error) {
	p, err := newPeerServer(spec)
	if err != nil {
		return nil, err
	}
	host, port, _ := strings.Cut(p.Addr, ":")
	var portN int
	fmt.Sscan(port, &portN)
	cfg := map[string]any{
		"http_server": map[string]any{"address": host, "port": portN},
		"log":         map[string]any{"level": "error"},
		"health":      map[string]any{"enabled": true},
		"client": map[string]any{
			"token":           map[string]any{"hmac_secret_key": p.Secret},
			"allowed_origins": []string{"*"},
		},
		"channel": map[string]any{"namespaces": []map[string]any{
			{"name": "group", "allow_subscribe_for_client": true, "allow_publish_for_subscriber": true},
			// A pair's channel (W2): both users subscribe and publish.
			{"name": "pair", "allow_subscribe_for_client": true, "allow_publish_for_subscriber": true},
			// A user's own channel: what an idle signed-in chat user holds.
			{"name": "personal", "allow_subscribe_for_client": true},
		}},
		"prometheus": map[string]any{"enabled": true},
		"http_api":   map[string]any{"key": p.Secret[:32]},
	}
	if spec.Broker == "postgres" {
		if p.db, err = createPeerDB(ctx); err != nil {
			p.Stop()
			return nil, err
		}
		pgPeerConfig(cfg, p.db.dsn, v)
	}
	b, _ := json.MarshalIndent(cfg, "", "  ")
	path := filepath.Join(p.dir, "config.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		p.Stop()
		return nil, err
	}
	if spec.Broker != "" {
		// The broker's keys are new and may change between versions: a
		// key this version does not know fails the run instead of being
		// ignored.
		if out, err := exec.CommandContext(ctx, bin, "checkconfig", "--strict", "--config", path).CombinedOutput(); err != nil {
			p.Stop()
			return nil, fmt.Errorf("%s checkconfig --strict: %v: %s", spec.Name, err, out)
		}
	}
	if err := p.launch(ctx, bin, "--config", path); err != nil {
		return nil, err
	}
	return p, nil
}

// newPeerServer is spec's server before it starts: a free loopback port,
// a directory of its own for its files (removed by Stop), its log there,
// and a fresh HMAC key for its connection tokens.
func newPeerServer(spec PeerSpec) (*PeerServer, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "kjload-"+spec.Name+"-")
	if err != nil {
		return nil, err
	}
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	return &PeerServer{Spec: spec, Addr: addr, Secret: hex.EncodeToString(key), exited: make(chan struct{}), dir: dir,
		LogPath: filepath.Join(dir, spec.Name+".log")}, nil
}

// launch runs bin with args as p (whose Addr, dir and LogPath are set),
// its output in p.LogPath, and waits up to 30 s for its /health. When it
// fails to start, p is stopped (its files and database gone) and the
// error carries the log's tail.
func (p *PeerServer) launch(ctx context.Context, bin string, args ...string) error {
	logf, err := os.Create(p.LogPath)
	if err != nil {
		p.Stop()
		return err
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	if err := startLogged(cmd, logf, &p.err, p.exited); err != nil {
		p.Stop()
		return err
	}
	p.cmd, p.PID = cmd, cmd.Process.Pid
	switch err = awaitHealthy(ctx, "http://"+p.Addr+"/health", p.exited, 30*time.Second); err {
	case nil:
		return nil
	case errExitedAtStart:
		err = fmt.Errorf("%s exited at start: %v\n%s", p.Spec.Name, p.err, tail(p.LogPath, 30))
	case errNotHealthy:
		err = fmt.Errorf("%s not ready after 30 s\n%s", p.Spec.Name, tail(p.LogPath, 30))
	}
	p.Stop() // after the log's tail was read: Stop removes it
	return err
}

// buildHarnessServer builds the harness's own server ./loadtest/cmd/<name>
// into <module>/bin/peer/<name> and returns its path.
func buildHarnessServer(ctx context.Context, name string) (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(root, "bin", "peer", name)
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./loadtest/cmd/"+name)
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./loadtest/cmd/%s: %v\n%s", name, err, out)
	}
	return bin, nil
}

// Alive says whether the peer still runs.
func (p *PeerServer) Alive() bool { return !ended(p.exited) }

// Stop ends the peer (SIGTERM, SIGKILL after 20 s) and removes its files
// and its database.
func (p *PeerServer) Stop() {
	if p.cmd != nil && p.Alive() {
		terminate(p.cmd, p.exited, 20*time.Second)
	}
	os.RemoveAll(p.dir)
	if p.db != nil {
		p.db.drop()
		p.db = nil
	}
}

// peerMark and peerMeasure are Stack.Mark and Stack.Measure for the peer.
func (p *PeerServer) mark() Mark {
	proc, _ := ReadProc(p.PID)
	return Mark{proc: proc, box: SampleBox(p.PID)}
}

func (p *PeerServer) measure(m Mark) (*ServerStats, *BoxStats, error) {
	if !p.Alive() {
		return nil, nil, fmt.Errorf("%s exited during the run: %v\n%s", p.Spec.Name, p.err, tail(p.LogPath, 30))
	}
	box := SampleBox(p.PID)
	to, _ := ReadProc(p.PID)
	st := Window(p.PID, m.proc, to, 0, 0)
	b := BoxWindow(m.box, box, to.At.Sub(m.proc.At).Seconds())
	return &st, &b, nil
}

// metrics reads the peer's Go runtime gauges (its Prometheus endpoint).
func (p *PeerServer) metrics(ctx context.Context) map[string]float64 {
	m, _ := Metrics(ctx, "http://"+p.Addr+"/metrics")
	return m
}

// cpu is the peer's CPU seconds so far.
func (p *PeerServer) cpu() float64 { return procCPU(p.PID) }
