package loadtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// socket is the websocket plumbing ChatConn and PeerConn share: writes
// serialized under wmu with a write deadline, and done closed by the read
// loop when the socket ends, with err saying why.
type socket struct {
	ws   *websocket.Conn
	wmu  sync.Mutex
	buf  []byte // frame built under wmu by the hot send paths
	done chan struct{}
	err  error
}

// dialBuffers shares write buffers between idle sockets, which matters
// with tens of thousands of them open.
var dialBuffers = &sync.Pool{}

// dialSocket opens a websocket to wsURL from the loopback source address
// src (empty: any); what and who name the dial in its error.
func dialSocket(ctx context.Context, wsURL, src, what, who string) (*websocket.Conn, error) {
	nd := &net.Dialer{Timeout: 10 * time.Second}
	if src != "" {
		nd.LocalAddr = &net.TCPAddr{IP: net.ParseIP(src)}
	}
	d := websocket.Dialer{NetDialContext: nd.DialContext, HandshakeTimeout: 30 * time.Second,
		ReadBufferSize: 4096, WriteBufferSize: 1024, WriteBufferPool: dialBuffers}
	ws, resp, err := d.DialContext(ctx, wsURL, nil)
	if err != nil {
		if resp != nil {
			return nil, fmt.Errorf("%s dial %s: HTTP %d: %w", what, who, resp.StatusCode, err)
		}
		return nil, fmt.Errorf("%s dial %s: %w", what, who, err)
	}
	ws.SetReadLimit(4 << 20)
	return ws, nil
}

// flushLocked sends buf; the caller holds wmu.
func (s *socket) flushLocked() error {
	_ = s.ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
	return s.ws.WriteMessage(websocket.TextMessage, s.buf)
}

func (s *socket) write(frame []byte) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	_ = s.ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
	return s.ws.WriteMessage(websocket.TextMessage, frame)
}

// readLoop hands every frame to onMessage until the socket ends; then it
// records why, runs onEnd (which wakes the callers still awaiting a
// reply) and closes done. Frames are read into one buffer the socket
// keeps, so onMessage's bytes are valid only during the call: a handler
// that keeps them copies them. (ReadMessage's fresh, regrown slice per
// frame was the generator's garbage, three frames per kj delivery.)
func (s *socket) readLoop(onMessage func([]byte), onEnd func()) {
	defer close(s.done)
	var buf bytes.Buffer
	for {
		_, r, err := s.ws.NextReader()
		if err == nil {
			buf.Reset()
			_, err = buf.ReadFrom(r)
		}
		if err != nil {
			s.err = err
			onEnd()
			return
		}
		onMessage(buf.Bytes())
	}
}

// closeAll closes and forgets every awaited reply channel, so that their
// callers learn the socket ended; the caller holds the lock over pending.
func closeAll[K comparable](pending map[K]chan []byte) {
	for k, ch := range pending {
		close(ch)
		delete(pending, k)
	}
}

// awaitReply waits for the reply the read loop hands over on ch, which it
// closes instead when the socket ends; name is the request, for errors.
func (s *socket) awaitReply(ctx context.Context, ch <-chan []byte, name string) ([]byte, error) {
	select {
	case b, ok := <-ch:
		if !ok {
			return nil, fmt.Errorf("%s: socket closed: %v", name, s.err)
		}
		return b, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(60 * time.Second):
		return nil, fmt.Errorf("%s: no reply in 60 s", name)
	}
}

// Alive says whether the socket is still open.
func (s *socket) Alive() bool { return !ended(s.done) }

// Err is why the socket closed.
func (s *socket) Err() error {
	if s.Alive() {
		return nil
	}
	if s.err == nil {
		return errors.New("closed")
	}
	return s.err
}

// Close ends the socket politely.
func (s *socket) Close() {
	s.wmu.Lock()
	_ = s.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	s.wmu.Unlock()
	s.ws.Close()
	<-s.done
}

// ended says whether ch, closed when something ends, is closed.
func ended(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
