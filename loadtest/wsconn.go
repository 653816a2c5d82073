package loadtest

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"
)

// rawWS is a generator socket owned by its worker's event loop
// (wsloop_linux.go) rather than by a goroutine of its own: the websocket
// handshake, framing and the calls that log it in are done here by hand,
// so that once it is logged in the loop can take its descriptor and read
// and write it with no goroutine, timer or library in between. It speaks
// kj's chat protocol or, with peer set, the peer's (PeerConn's).
type rawWS struct {
	fd     int
	member int    // index in the plan's members
	uid    string // the socket's user
	peer   bool
	own    string // peer: the stream it sends, whose publications come back to it
	// target of its sends: a user (kj) or a channel (kj's groups, the peer)
	recvID, groupID string
	idPrefix        string // clientMsgID up to the message number: "kjl-p17_a-"
	n               uint64 // messages sent on its lane

	mask    [4]byte
	in      []byte // bytes read that are not yet a whole frame
	msg     []byte // a fragmented message's payload so far
	out     []byte // bytes not yet written
	queued  bool   // on the loop's list of sockets with bytes to write
	ids     uint32 // peer: last command id
	pubs    []peerPub
	errSent bool // a send failed: later sends of its lane are not made

	err  error
	dead atomic.Bool
}

// peerPub is a publish awaiting its reply.
type peerPub struct {
	id    uint32
	sched int64
}

// Alive says whether the socket is still open.
func (c *rawWS) Alive() bool { return !c.dead.Load() }

// Err is why the socket closed (valid once Alive is false).
func (c *rawWS) Err() error {
	if c.Alive() {
		return nil
	}
	if c.err == nil {
		return errors.New("closed")
	}
	return c.err
}

const (
	wsContinuation = 0x0
	wsText         = 0x1
	wsBinary       = 0x2
	wsClose        = 0x8
	wsPing         = 0x9
	wsPong         = 0xA
	wsMaxFrame     = 4 << 20
)

// wsFrame parses the frame at the head of b (a server's: unmasked). ok is
// false while it is incomplete; size is how many bytes it takes.
func wsFrame(b []byte) (fin bool, op byte, payload []byte, size int, ok bool, err error) {
	if len(b) < 2 {
		return false, 0, nil, 0, false, nil
	}
	fin, op = b[0]&0x80 != 0, b[0]&0x0f
	if b[1]&0x80 != 0 {
		return false, 0, nil, 0, false, errors.New("websocket: masked frame from the server")
	}
	n, h := uint64(b[1]&0x7f), 2
	switch n {
	case 126:
		if len(b) < 4 {
			return false, 0, nil, 0, false, nil
		}
		n, h = uint64(binary.BigEndian.Uint16(b[2:])), 4
	case 127:
		if len(b) < 10 {
			return false, 0, nil, 0, false, nil
		}
		n, h = binary.BigEndian.Uint64(b[2:]), 10
	}
	if n > wsMaxFrame {
		return false, 0, nil, 0, false, fmt.Errorf("websocket: frame of %d bytes", n)
	}
	if uint64(len(b)-h) < n {
		return false, 0, nil, 0, false, nil
	}
	return fin, op, b[h : h+int(n)], h + int(n), true, nil
}

// appendWSFrame appends a client frame (one, final, masked with mask).
func appendWSFrame(dst []byte, op byte, mask [4]byte, payload []byte) []byte {
	dst = append(dst, 0x80|op)
	switch n := len(payload); {
	case n < 126:
		dst = append(dst, 0x80|byte(n))
	case n <= 0xffff:
		dst = append(dst, 0x80|126, byte(n>>8), byte(n))
	default:
		dst = append(dst, 0x80|127)
		dst = binary.BigEndian.AppendUint64(dst, uint64(n))
	}
	dst = append(dst, mask[:]...)
	at := len(dst)
	dst = append(dst, payload...)
	for i := range payload {
		dst[at+i] ^= mask[i&3]
	}
	return dst
}

// frames hands every whole message at the head of b to onMsg (a
// fragmented one once its last fragment is in), answers pings into c.out,
// and returns how many bytes it took; an error for a close frame or a
// malformed one.
func (c *rawWS) frames(b []byte, onMsg func([]byte)) (int, error) {
	off := 0
	for {
		fin, op, payload, size, ok, err := wsFrame(b[off:])
		if err != nil {
			return off, err
		}
		if !ok {
			return off, nil
		}
		off += size
		switch op {
		case wsText, wsBinary, wsContinuation:
			if fin && len(c.msg) == 0 {
				onMsg(payload)
				continue
			}
			c.msg = append(c.msg, payload...)
			if fin {
				onMsg(c.msg)
				c.msg = c.msg[:0]
			}
		case wsPing:
			c.out = appendWSFrame(c.out, wsPong, c.mask, payload)
		case wsClose:
			code := 0
			if len(payload) >= 2 {
				code = int(binary.BigEndian.Uint16(payload))
			}
			return off, fmt.Errorf("websocket: closed by the server (%d)", code)
		}
	}
}

// dialRaw opens a websocket to wsURL from the loopback source address src
// (empty: any) with a handshake of its own; the connection stays in Go's
// hands (blocking reads and writes) until the worker's loop takes it.
func dialRaw(ctx context.Context, wsURL, src string) (net.Conn, *rawWS, error) {
	u, err := url.Parse(wsURL)
	if err != nil {
		return nil, nil, err
	}
	nd := &net.Dialer{Timeout: 10 * time.Second}
	if src != "" {
		nd.LocalAddr = &net.TCPAddr{IP: net.ParseIP(src)}
	}
	nc, err := nd.DialContext(ctx, "tcp", u.Host)
	if err != nil {
		return nil, nil, err
	}
	deadline := time.Now().Add(30 * time.Second)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	_ = nc.SetDeadline(deadline)
	var key [16]byte
	c := &rawWS{fd: -1}
	_, _ = rand.Read(key[:])
	_, _ = rand.Read(c.mask[:])
	k := base64.StdEncoding.EncodeToString(key[:])
	req := "GET " + u.RequestURI() + " HTTP/1.1\r\nHost: " + u.Host + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: " + k + "\r\nSec-WebSocket-Version: 13\r\n\r\n"
	if _, err := nc.Write([]byte(req)); err != nil {
		nc.Close()
		return nil, nil, err
	}
	// Read the answer's head, keeping whatever follows it.
	buf := make([]byte, 0, 1024)
	tmp := make([]byte, 1024)
	end := -1
	for end < 0 {
		n, err := nc.Read(tmp)
		buf = append(buf, tmp[:n]...)
		end = bytes.Index(buf, []byte("\r\n\r\n"))
		if end < 0 && err != nil {
			nc.Close()
			return nil, nil, fmt.Errorf("websocket handshake: %w", err)
		}
		if len(buf) > 16<<10 {
			nc.Close()
			return nil, nil, errors.New("websocket handshake: answer head too long")
		}
	}
	head := buf[:end]
	line, _, _ := bytes.Cut(head, []byte("\r\n"))
	if !bytes.HasPrefix(line, []byte("HTTP/1.1 101")) {
		nc.Close()
		return nil, nil, fmt.Errorf("websocket handshake: %s", line)
	}
	sum := sha1.Sum([]byte(k + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	want := base64.StdEncoding.EncodeToString(sum[:])
	if !headerHas(head, "Sec-WebSocket-Accept", want) {
		nc.Close()
		return nil, nil, errors.New("websocket handshake: wrong or missing Sec-WebSocket-Accept")
	}
	c.in = append(c.in, buf[end+4:]...)
	return nc, c, nil
}

// headerHas says whether an HTTP head has header name (any case) with
// value.
func headerHas(head []byte, name, value string) bool {
	sc := bufio.NewScanner(bytes.NewReader(head))
	for sc.Scan() {
		k, v, ok := bytes.Cut(sc.Bytes(), []byte(":"))
		if ok && bytes.EqualFold(bytes.TrimSpace(k), []byte(name)) && string(bytes.TrimSpace(v)) == value {
			return true
		}
	}
	return false
}

// call sends payload as a text message over nc and returns (a copy of)
// the first message, or the first line of one (lines: the peer batches
// them), that isReply accepts; pings are answered meanwhile.
func (c *rawWS) call(nc net.Conn, payload []byte, lines bool, isReply func([]byte) bool) ([]byte, error) {
	if _, err := nc.Write(appendWSFrame(nil, wsText, c.mask, payload)); err != nil {
		return nil, err
	}
	var reply []byte
	onMsg := func(m []byte) {
		for len(m) > 0 && reply == nil {
			line := m
			if lines {
				if i := bytes.IndexByte(m, '\n'); i >= 0 {
					line, m = m[:i], m[i+1:]
				} else {
					m = nil
				}
			} else {
				m = nil
			}
			if lines && bytes.Equal(bytes.TrimSpace(line), []byte("{}")) {
				c.out = appendWSFrame(c.out, wsText, c.mask, []byte("{}"))
				continue
			}
			if isReply(line) {
				reply = bytes.Clone(line)
			}
		}
	}
	tmp := make([]byte, 4096)
	for {
		k, err := c.frames(c.in, onMsg)
		c.in = append(c.in[:0], c.in[k:]...)
		if len(c.out) > 0 {
			if _, werr := nc.Write(c.out); werr != nil && err == nil {
				err = werr
			}
			c.out = c.out[:0]
		}
		if reply != nil || err != nil {
			return reply, err
		}
		n, err := nc.Read(tmp)
		c.in = append(c.in, tmp[:n]...)
		if err != nil && n == 0 {
			return nil, err
		}
	}
}

// loginChat opens and logs in a kj chat socket for account a (DialChat's
// request, by hand).
func loginChat(ctx context.Context, wsBase, src string, a Account) (net.Conn, *rawWS, error) {
	uid := strconv.FormatInt(a.ID, 10)
	q := url.Values{"sendID": {uid}, "token": {a.ChatToken}, "platformID": {"5"}, "operationID": {"dial"}}
	nc, c, err := dialRaw(ctx, wsBase+"/ws?"+q.Encode(), src)
	if err != nil {
		return nil, nil, fmt.Errorf("chat dial %s: %w", a.Account, err)
	}
	c.uid = uid
	frame, err := request("Login", "c1", uid, uid, a.ChatToken)
	if err == nil {
		var b []byte
		b, err = c.call(nc, frame, false, func(m []byte) bool { _, op := ScanReply(m); return op == "c1" })
		if err == nil {
			if code, _ := ScanReply(b); code != 0 {
				err = fmt.Errorf("errCode %d: %.200s", code, b)
			}
		}
	}
	if err != nil {
		nc.Close()
		return nil, nil, fmt.Errorf("chat login %s: %w", a.Account, err)
	}
	return nc, c, nil
}

// loginPeer connects a socket to the peer as uid and subscribes it to
// channel when not empty (DialPeer's commands, by hand).
func loginPeer(ctx context.Context, wsURL, src, uid, token, channel string) (net.Conn, *rawWS, error) {
	nc, c, err := dialRaw(ctx, wsURL, src)
	if err != nil {
		return nil, nil, fmt.Errorf("peer dial %s: %w", uid, err)
	}
	c.uid, c.peer = uid, true
	cmd := func(method, body string) error {
		c.ids++
		pre := []byte(`{"id":` + strconv.FormatUint(uint64(c.ids), 10) + `,`)
		b, err := c.call(nc, []byte(`{"id":`+strconv.FormatUint(uint64(c.ids), 10)+`,"`+method+`":`+body+`}`), true,
			func(line []byte) bool {
				return bytes.HasPrefix(line, pre) || bytes.HasPrefix(line, pre[:len(pre)-1]) && len(line) == len(pre)
			})
		if err == nil && bytes.Contains(b, []byte(`"error":`)) {
			err = fmt.Errorf("%s: %s", method, b)
		}
		return err
	}
	err = cmd("connect", `{"token":"`+token+`","name":"kjload"}`)
	if err == nil && channel != "" {
		err = cmd("subscribe", `{"channel":"`+channel+`"}`)
	}
	if err != nil {
		nc.Close()
		return nil, nil, fmt.Errorf("peer connect %s: %w", uid, err)
	}
	return nc, c, nil
}

// appendSend appends to c.out the frame of its lane's next message, p
// (number c.n), and counts it.
func (c *rawWS) appendSend(scratch []byte, p Payload) []byte {
	if c.peer {
		c.ids++
		c.pubs = append(c.pubs, peerPub{id: c.ids, sched: p.Sched})
		scratch = append(scratch[:0], `{"id":`...)
		scratch = strconv.AppendUint(scratch, uint64(c.ids), 10)
		scratch = append(scratch, `,"publish":{"channel":"`...)
		scratch = append(scratch, c.groupID...)
		scratch = append(scratch, `","data":{"t":"`...)
		scratch = p.append(scratch)
		scratch = append(scratch, `"}}}`...)
	} else {
		id := strconv.AppendUint([]byte(c.idPrefix), c.n, 10)
		scratch = textMessageFrame(scratch, c.uid, c.recvID, c.groupID, p, string(id))
	}
	c.out = appendWSFrame(c.out, wsText, c.mask, scratch)
	c.n++
	return scratch
}

// peerReply takes the publish answered by a reply line (id and error
// code; code 0: accepted); ok false for a reply to nothing it published.
func (c *rawWS) peerReply(line []byte) (sched, code int64, ok bool) {
	n, k := scanUint(line[len(`{"id":`):])
	if k == 0 {
		return 0, 0, false
	}
	for i, p := range c.pubs {
		if p.id == uint32(n) {
			c.pubs = append(c.pubs[:i], c.pubs[i+1:]...)
			if bytes.Contains(line, []byte(`"error":`)) {
				code, _ = scanNumberAfter(line, `"code":`)
				code = max(code, 1)
			}
			return p.sched, code, true
		}
	}
	return 0, 0, false
}
