//go:build !linux

package loadtest

import (
	"context"
	"errors"
	"time"
)

// wsLoopSupported: elsewhere than Linux workers run a goroutine per socket.
const wsLoopSupported = false

// wsLoop is the event loop of wsloop_linux.go; never made here.
type wsLoop struct {
	conns []*rawWS
	begin chan time.Time
	sent  chan struct{}
	done  chan struct{}
}

func (l *wsLoop) close() {}

func (l *wsLoop) sentCounts(map[string]uint64) {}

func (w *worker) connectLoop(context.Context, func(string, ...any)) (WorkerReady, error) {
	return WorkerReady{}, errors.New("the event loop runs on Linux only")
}
