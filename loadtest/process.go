package loadtest

import (
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// The servers a run starts (kj nodes, the peer, HAProxy) share one life:
// started with their output in a log file, polled until healthy, stopped
// with SIGTERM and, if they linger, SIGKILL.

// startLogged starts cmd in a process group of its own (a ^C to the
// generator does not hit it before the generator stops it in order), its
// output going to logf. Once it has ended, its exit error is stored in
// *exitErr (unless nil), logf is closed and then exited.
func startLogged(cmd *exec.Cmd, logf *os.File, exitErr *error, exited chan<- struct{}) error {
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return err
	}
	go func() {
		err := cmd.Wait()
		if exitErr != nil {
			*exitErr = err
		}
		logf.Close()
		close(exited)
	}()
	return nil
}

var (
	errExitedAtStart = errors.New("exited at start")
	errNotHealthy    = errors.New("not healthy in time")
)

// awaitHealthy polls url every 50 ms until it answers 200. It gives up with
// errExitedAtStart once exited is closed, with ctx's error once ctx ends,
// and with errNotHealthy once within has passed.
func awaitHealthy(ctx context.Context, url string, exited <-chan struct{}, within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		select {
		case <-exited:
			return errExitedAtStart
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return errNotHealthy
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// terminate sends cmd SIGTERM, and SIGKILL if it has not exited after
// grace; it returns once it has exited.
func terminate(cmd *exec.Cmd, exited <-chan struct{}, grace time.Duration) {
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(grace):
		_ = cmd.Process.Kill()
		<-exited
	}
}
