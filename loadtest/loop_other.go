//go:build !linux

package loadtest

import (
	"context"
	"errors"
	"time"
)

// HTTPLoop is the epoll sender of loop_linux.go; elsewhere every step
// fails at once with this error.
type HTTPLoop struct {
	Addr       string
	Conns      int
	Next       func(b []byte) []byte
	Check      func(status int, body []byte) error
	FirstError error
	Waits      int64
	Early      time.Duration
	Late       time.Duration
}

// Open does nothing here.
func (l *HTTPLoop) Open() error { return nil }

// Close does nothing here.
func (l *HTTPLoop) Close() {}

func (l *HTTPLoop) step(context.Context, float64, time.Duration, time.Duration) (StepResult, *Histogram) {
	l.FirstError = errors.New("the epoll sender runs on Linux only")
	return StepResult{Errors: 1}, NewHistogram()
}
