// Package bus carries events between the parts of a node and between nodes:
// pushes to a user's sockets, broadcasts, cache invalidations. Two
// implementations behind one interface: in-process (Memory) for a single
// node, and NATS for a cluster. Delivery is at-most-once and ordered per
// subscription, like core NATS; anything that must not be lost is in the
// store first and the bus only says "look".
package bus

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
)

// Handler receives one message. It runs on the subscription's own goroutine:
// messages to one subscription arrive one at a time, in publish order.
type Handler func(subject string, data []byte)

// Bus publishes and subscribes by subject. Subjects are dot-separated tokens;
// a subscription may use "*" for one token and a final ">" for the rest.
type Bus interface {
	Publish(ctx context.Context, subject string, data []byte) error
	Subscribe(subject string, h Handler) (Subscription, error)
	// Ping reports whether the bus is usable (for /readyz).
	Ping(ctx context.Context) error
	Close() error
}

// Resumer is a bus whose connection can go down and come back (NATS).
// Whatever was published meanwhile is lost to this node: pushes for its
// sockets, and the events that drop its caches. OnResume registers f to
// run each time the connection is back, so the node can rebuild that
// state from the store.
type Resumer interface {
	OnResume(f func())
}

// OnResume registers f with b when b is a Resumer (f then runs each time
// b's connection comes back).
func OnResume(b Bus, f func()) {
	if r, ok := b.(Resumer); ok {
		r.OnResume(f)
	}
}

// Health is a bus that can say whether it is up: connected, and done with
// its resume hooks after a reconnection (NATS). Until then events meant to
// drop a node's copies may have been missed, so the node reads the store.
type Health interface {
	Up() bool
}

// Up reports whether b is up; a bus that cannot tell is always up.
func Up(b Bus) bool {
	if h, ok := b.(Health); ok {
		return h.Up()
	}
	return true
}

// resumers are the functions a Resumer runs after a reconnection.
type resumers struct {
	mu sync.Mutex
	fs []func()
}

func (r *resumers) add(f func()) {
	r.mu.Lock()
	r.fs = append(r.fs, f)
	r.mu.Unlock()
}

func (r *resumers) run() {
	r.mu.Lock()
	fs := append([]func(){}, r.fs...)
	r.mu.Unlock()
	for _, f := range fs {
		f()
	}
}

// Subscription is an active Subscribe.
type Subscription interface {
	Unsubscribe() error
}

// ErrClosed is returned after Close.
var ErrClosed = errors.New("bus: closed")

// Subjects used across the product.
const (
	// BroadcastSubject reaches every online chat socket on every node.
	BroadcastSubject  = "kj.push.all"
	userSubjectPrefix = "kj.push.user."
	// UserSubjects matches every per-user push subject.
	UserSubjects = userSubjectPrefix + "*"
)

// UserSubject is the subject of pushes to one user's sockets on any node.
func UserSubject(userID string) string { return userSubjectPrefix + userID }

// UserFromSubject returns the user id of a UserSubject.
func UserFromSubject(subject string) (string, bool) {
	return strings.CutPrefix(subject, userSubjectPrefix)
}

// Notification is a business push (round phases, balance changes, notices,
// forced logout). The chat gateway delivers it to sockets as an
// OnRecvCustomBusinessMessage whose data is {"key": Key, "data": Data}, Data
// being a JSON document encoded as a string, as the OpenIM SDK expects.
type Notification struct {
	Key  string `json:"key"`
	Data string `json:"data"`
}

// NewNotification encodes v as the notification's data.
func NewNotification(key string, v any) (Notification, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return Notification{}, err
	}
	return Notification{Key: key, Data: string(b)}, nil
}

// PushToUser publishes a business notification to every socket of userID.
func PushToUser(ctx context.Context, b Bus, userID, key string, v any) error {
	return push(ctx, b, UserSubject(userID), key, v)
}

// Broadcast publishes a business notification to every online socket.
func Broadcast(ctx context.Context, b Bus, key string, v any) error {
	return push(ctx, b, BroadcastSubject, key, v)
}

func push(ctx context.Context, b Bus, subject, key string, v any) error {
	n, err := NewNotification(key, v)
	if err != nil {
		return err
	}
	data, err := json.Marshal(n)
	if err != nil {
		return err
	}
	return b.Publish(ctx, subject, data)
}

// Match reports whether subject matches pattern (NATS rules: "*" is one
// token, a trailing ">" one or more tokens).
func Match(pattern, subject string) bool {
	p := strings.Split(pattern, ".")
	s := strings.Split(subject, ".")
	for i, tok := range p {
		if tok == ">" {
			return i == len(p)-1 && len(s) > i
		}
		if i >= len(s) {
			return false
		}
		if tok != "*" && tok != s[i] {
			return false
		}
	}
	return len(s) == len(p)
}
