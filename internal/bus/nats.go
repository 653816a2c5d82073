package bus

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
)

// NATS is the cluster bus: every node publishes and subscribes on one NATS
// server (or cluster).
type NATS struct {
	nc      *nats.Conn
	closed  atomic.Bool
	down    atomic.Bool // from a disconnection until the resume hooks ran
	resumed resumers
}

// NewNATS connects to url. It fails fast when the server is unreachable so a
// misconfigured node does not start.
func NewNATS(url, name string) (*NATS, error) {
	b := &NATS{}
	nc, err := nats.Connect(url,
		nats.Name(name),
		nats.Timeout(5*time.Second),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(500*time.Millisecond),
		// Runs after the client has subscribed again on the new connection
		// (nats.go resends the subscriptions before it calls this).
		nats.ReconnectHandler(func(*nats.Conn) { b.resumed.run(); b.down.Store(false) }),
		nats.DisconnectErrHandler(func(*nats.Conn, error) { b.down.Store(true) }),
	)
	if err != nil {
		return nil, fmt.Errorf("bus: connect to NATS at %s: %w", url, err)
	}
	b.nc = nc
	return b, nil
}

// OnResume runs f after each reconnection to the server (core NATS keeps
// nothing for a client that was away).
func (b *NATS) OnResume(f func()) { b.resumed.add(f) }

func (b *NATS) Publish(_ context.Context, subject string, data []byte) error {
	if b.closed.Load() {
		return ErrClosed
	}
	return b.nc.Publish(subject, data)
}

func (b *NATS) Subscribe(subject string, h Handler) (Subscription, error) {
	sub, err := b.nc.Subscribe(subject, func(m *nats.Msg) { h(m.Subject, m.Data) })
	if err != nil {
		return nil, err
	}
	// Pushes fan out to many sockets; let a burst queue up rather than be
	// dropped as a slow consumer.
	if err := sub.SetPendingLimits(1<<20, 256<<20); err != nil {
		return nil, err
	}
	return sub, nil
}

// Up reports whether the connection is up and caught up: false from a
// disconnection until the resume hooks have run on the new connection.
func (b *NATS) Up() bool { return !b.closed.Load() && !b.down.Load() && b.nc.IsConnected() }

// Ping round-trips to the server.
func (b *NATS) Ping(ctx context.Context) error {
	if !b.nc.IsConnected() {
		return fmt.Errorf("bus: NATS not connected (%s)", b.nc.Status())
	}
	d := 2 * time.Second
	if dl, ok := ctx.Deadline(); ok {
		d = time.Until(dl)
	}
	return b.nc.FlushTimeout(d)
}

// Flush waits until the server has received everything published so far.
func (b *NATS) Flush() error { return b.nc.Flush() }

func (b *NATS) Close() error {
	if b.closed.Swap(true) {
		return nil
	}
	if err := b.nc.Drain(); err != nil {
		b.nc.Close()
	}
	return nil
}
