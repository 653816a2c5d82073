package loadtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// The chat floor is W2's second yardstick beside the durable peer: the
// plainest durable relay (loadtest/cmd/floorchat: gorilla/websocket, one
// group-committing goroutine writing a batch as one INSERT through pgx,
// one goroutine sending what was committed). It speaks the peer's
// protocol, so the generator drives it exactly as it drives Centrifugo,
// and it runs in the same run after kj and the peer, on the same
// PostgreSQL. kj's cost per message is read against it: what a socket
// read, a batched row and two socket writes cost on this box at the same
// moment (-floor, W2 only).
var chatFloorSpec = PeerSpec{Name: "floorchat", Version: "harness", Module: "kj/loadtest/cmd/floorchat", Broker: "postgres"}

// chatFloorRowQuery counts the floor's rows of one channel holding one
// payload text (checkPeerCommits).
const chatFloorRowQuery = "SELECT count(*) FROM floor_messages WHERE channel = $1 AND data::jsonb->>'t' = $2"

// StartChatFloor builds cmd/floorchat into <module>/bin/peer/floorchat
// and runs it on a free loopback port, on a database of its own (dropped
// by Stop), with a fresh connection-token key.
func StartChatFloor(ctx context.Context, o *Options) (*PeerServer, error) {
	root, err := ModuleRoot()
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(root, "bin", "peer", chatFloorSpec.Name)
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./loadtest/cmd/floorchat")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build ./loadtest/cmd/floorchat: %v\n%s", err, out)
	}
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "kjload-floorchat-")
	if err != nil {
		return nil, err
	}
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	p := &PeerServer{Spec: chatFloorSpec, Addr: addr, Secret: hex.EncodeToString(key), exited: make(chan struct{}), dir: dir,
		LogPath: filepath.Join(dir, chatFloorSpec.Name+".log"), rowQuery: chatFloorRowQuery}
	if p.db, err = createPeerDB(ctx); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	logf, err := os.Create(p.LogPath)
	if err != nil {
		p.Stop()
		return nil, err
	}
	cmd := exec.Command(bin, "-addr", addr, "-secret", p.Secret, "-db", p.db.dsn)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	if err := startLogged(cmd, logf, &p.err, p.exited); err != nil {
		p.Stop()
		return nil, err
	}
	p.cmd, p.PID = cmd, cmd.Process.Pid
	o.logf("chat floor: pid %d on %s", p.PID, addr)
	switch err := awaitHealthy(ctx, "http://"+addr+"/health", p.exited, 30*time.Second); err {
	case nil:
		return p, nil
	case errExitedAtStart:
		err = fmt.Errorf("chat floor exited at start: %v\n%s", p.err, tail(p.LogPath, 30))
		p.Stop()
		return nil, err
	default:
		if err == errNotHealthy {
			err = fmt.Errorf("chat floor not ready after 30 s\n%s", tail(p.LogPath, 30))
		}
		p.Stop()
		return nil, err
	}
}
