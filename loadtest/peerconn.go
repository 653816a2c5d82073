package loadtest

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// The peer's client: Centrifugo's bidirectional JSON protocol over a
// websocket, as little of it as the workloads need — connect with a
// connection token, subscribe to a channel, publish into it, answer the
// server's pings. Like ChatConn it scans frames instead of decoding them,
// so the generator costs the same per delivery whichever server it drives.
//
// One websocket message may carry several replies or pushes, one JSON
// object per line. A reply has the command's "id"; a push has none:
//
//	{"id":1,"connect":{"client":"…","ping":25,"pong":true}}
//	{"push":{"channel":"group:3","pub":{"data":{"t":"kjl|g3.s1|7|…"}}}}
//	{}                                   a ping; the client answers {}

// PeerToken is an HS256 connection token for user sub, signed with secret.
func PeerToken(secret, sub string, exp time.Time) string {
	enc := base64.RawURLEncoding
	head := enc.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))
	claims, _ := json.Marshal(map[string]any{"sub": sub, "exp": exp.Unix()})
	unsigned := head + "." + enc.EncodeToString(claims)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(unsigned))
	return unsigned + "." + enc.EncodeToString(mac.Sum(nil))
}

// PeerConn is one connected socket to the peer.
type PeerConn struct {
	UserID string
	socket

	pushes func(line []byte)                          // every push line
	acked  func(sched int64, code int64, line []byte) // every publish reply
	ids    atomic.Uint32

	pmu     sync.Mutex
	pending map[uint32]chan []byte // connect/subscribe replies awaited
	scheds  map[uint32]int64       // publish id → scheduled time of its message
}

// DialPeer connects to the peer's websocket endpoint as user uid (token
// from PeerToken), from loopback source src, and subscribes to channel
// when it is not empty. pushes gets every push, acked every publish reply.
func DialPeer(ctx context.Context, wsURL, src, uid, token, channel string, pushes func([]byte), acked func(int64, int64, []byte)) (*PeerConn, error) {
	ws, err := dialSocket(ctx, wsURL, src, "peer", uid)
	if err != nil {
		return nil, err
	}
	c := &PeerConn{UserID: uid, socket: socket{ws: ws, done: make(chan struct{})}, pushes: pushes, acked: acked,
		pending: map[uint32]chan []byte{}, scheds: map[uint32]int64{}}
	go c.read()
	cmd, _ := json.Marshal(map[string]any{"token": token, "name": "kjload"})
	if _, err := c.call(ctx, "connect", cmd); err != nil {
		c.Close()
		return nil, fmt.Errorf("peer connect %s: %w", uid, err)
	}
	if channel != "" {
		cmd, _ := json.Marshal(map[string]string{"channel": channel})
		if _, err := c.call(ctx, "subscribe", cmd); err != nil {
			c.Close()
			return nil, fmt.Errorf("peer subscribe %s to %s: %w", uid, channel, err)
		}
	}
	return c, nil
}

// call sends one command and waits for its reply; an error reply fails.
func (c *PeerConn) call(ctx context.Context, method string, body []byte) ([]byte, error) {
	id := c.ids.Add(1)
	ch := make(chan []byte, 1)
	c.pmu.Lock()
	c.pending[id] = ch
	c.pmu.Unlock()
	frame := []byte(`{"id":` + strconv.FormatUint(uint64(id), 10) + `,"` + method + `":`)
	frame = append(append(frame, body...), '}')
	if err := c.write(frame); err != nil {
		return nil, err
	}
	b, err := c.awaitReply(ctx, ch, method)
	if err != nil {
		return nil, err
	}
	if bytes.Contains(b, []byte(`"error":`)) {
		return nil, fmt.Errorf("%s: %s", method, b)
	}
	return b, nil
}

func (c *PeerConn) read() {
	c.readLoop(c.onMessage, func() {
		c.pmu.Lock()
		closeAll(c.pending)
		c.pmu.Unlock()
	})
}

// onMessage splits a frame into its lines (the peer batches them).
func (c *PeerConn) onMessage(b []byte) {
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		c.onLine(line)
	}
}

func (c *PeerConn) onLine(line []byte) {
	if len(bytes.TrimSpace(line)) <= 2 { // {} is the server's ping
		if bytes.Equal(bytes.TrimSpace(line), []byte("{}")) {
			_ = c.write([]byte("{}"))
		}
		return
	}
	if !bytes.HasPrefix(line, []byte(`{"id":`)) {
		if c.pushes != nil {
			c.pushes(line)
		}
		return
	}
	n, k := scanUint(line[len(`{"id":`):])
	if k == 0 {
		return
	}
	id := uint32(n)
	c.pmu.Lock()
	ch, waited := c.pending[id]
	delete(c.pending, id)
	sched, published := c.scheds[id]
	delete(c.scheds, id)
	c.pmu.Unlock()
	switch {
	case waited:
		ch <- bytes.Clone(line)
	case published && c.acked != nil:
		var code int64
		if bytes.Contains(line, []byte(`"error":`)) {
			code, _ = scanNumberAfter(line, `"code":`)
			code = max(code, 1)
		}
		c.acked(sched, code, line)
	}
}

// Publish sends p's text into channel; its reply reaches acked with the
// message's scheduled time.
func (c *PeerConn) Publish(channel string, p Payload) error {
	id := c.ids.Add(1)
	c.pmu.Lock()
	c.scheds[id] = p.Sched
	c.pmu.Unlock()
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.buf = append(c.buf[:0], `{"id":`...)
	c.buf = strconv.AppendUint(c.buf, uint64(id), 10)
	c.buf = append(c.buf, `,"publish":{"channel":"`...)
	c.buf = append(c.buf, channel...)
	c.buf = append(c.buf, `","data":{"t":"`...)
	c.buf = append(c.buf, p.String()...)
	c.buf = append(c.buf, `"}}}`...)
	return c.flushLocked()
}

// SendText publishes into the group's channel (the peer has no 1:1 path).
func (c *PeerConn) SendText(_, groupID string, p Payload, _ string) error {
	return c.Publish(groupID, p)
}
