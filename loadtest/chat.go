package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
)

// The chat client speaks the gateway's protocol (OpenIM JS SDK v3 frames,
// docs/PROTOCOL.md) with as little work per frame as possible: a load
// generator on the same two cores as the server must not be what limits a
// run. Frames it sends are built by hand; frames it receives are scanned
// for the few fields it needs instead of being decoded.

// Every chat message a workload sends is a text whose content is
// "kjl|<stream>|<number>|<scheduled unix ns>": the stream and number feed
// the loss check, the scheduled time the latency (from when the message
// was due, not when it went out, so a stalled generator or server shows as
// latency). Its request's operationID is "k<scheduled unix ns>", so the
// durable acknowledgement's latency needs no lookup table either.
const payloadPrefix = "kjl|"

// Payload is what a load message carries.
type Payload struct {
	Stream string
	N      uint64
	Sched  int64 // unix ns
}

// String is the message text.
func (p Payload) String() string {
	return payloadPrefix + p.Stream + "|" + strconv.FormatUint(p.N, 10) + "|" + strconv.FormatInt(p.Sched, 10)
}

// append appends the message text to b.
func (p Payload) append(b []byte) []byte {
	b = append(b, payloadPrefix...)
	b = append(b, p.Stream...)
	b = append(b, '|')
	b = strconv.AppendUint(b, p.N, 10)
	b = append(b, '|')
	return strconv.AppendInt(b, p.Sched, 10)
}

// ScanPayload finds a load payload in a frame (however deeply its JSON
// strings are escaped: the payload has no characters that need escaping).
func ScanPayload(frame []byte) (Payload, bool) {
	stream, n, sched, ok := scanPayload(frame)
	if !ok {
		return Payload{}, false
	}
	return Payload{Stream: string(stream), N: n, Sched: sched}, true
}

// scanPayload is ScanPayload with the stream left in frame, for a
// generator that reads every frame and need not copy it.
func scanPayload(frame []byte) (stream []byte, n uint64, sched int64, ok bool) {
	i := bytes.Index(frame, []byte(payloadPrefix))
	if i < 0 {
		return nil, 0, 0, false
	}
	rest := frame[i+len(payloadPrefix):]
	j := bytes.IndexByte(rest, '|')
	if j <= 0 {
		return nil, 0, 0, false
	}
	stream = rest[:j]
	for _, c := range stream {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return nil, 0, 0, false
		}
	}
	rest = rest[j+1:]
	n, k := scanUint(rest)
	if k == 0 || k >= len(rest) || rest[k] != '|' {
		return nil, 0, 0, false
	}
	ts, k2 := scanUint(rest[k+1:])
	if k2 == 0 {
		return nil, 0, 0, false
	}
	return stream, n, int64(ts), true
}

func scanUint(b []byte) (uint64, int) {
	var n uint64
	i := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' && i < 19 {
		n = n*10 + uint64(b[i]-'0')
		i++
	}
	return n, i
}

// scanNumberAfter reads the number following key (which ends just before
// the digits), e.g. `seq\":` inside an escaped data string.
func scanNumberAfter(frame []byte, key string) (int64, bool) {
	i := bytes.Index(frame, []byte(key))
	if i < 0 {
		return 0, false
	}
	rest := frame[i+len(key):]
	neg := len(rest) > 0 && rest[0] == '-'
	if neg {
		rest = rest[1:]
	}
	n, k := scanUint(rest)
	if k == 0 {
		return 0, false
	}
	if neg {
		return -int64(n), true
	}
	return int64(n), true
}

// ScanSeq is the server's seq of the message a push carries (inside the
// escaped data string).
func ScanSeq(frame []byte) (int64, bool) { return scanNumberAfter(frame, `\"seq\":`) }

// FrameEvent is a frame's event name (the gateway writes it first).
func FrameEvent(frame []byte) string {
	const pre = `{"event":"`
	if !bytes.HasPrefix(frame, []byte(pre)) {
		var f struct {
			Event string `json:"event"`
		}
		_ = json.Unmarshal(frame, &f)
		return f.Event
	}
	rest := frame[len(pre):]
	if j := bytes.IndexByte(rest, '"'); j >= 0 {
		return string(rest[:j])
	}
	return ""
}

// IsEvent says whether frame is a frame of event: FrameEvent(frame) ==
// event without making the string, which a generator reading every frame
// of thousands of sockets would otherwise allocate per frame.
func IsEvent(frame []byte, event string) bool {
	const pre = `{"event":"`
	if !bytes.HasPrefix(frame, []byte(pre)) {
		return FrameEvent(frame) == event
	}
	rest := frame[len(pre):]
	return len(rest) > len(event) && string(rest[:len(event)]) == event && rest[len(event)] == '"'
}

// ScanReply reads a reply's errCode and operationID.
func ScanReply(frame []byte) (errCode int64, opID string) {
	errCode, op := scanReply(frame)
	return errCode, string(op)
}

// scanReply is ScanReply with the operationID left in frame.
func scanReply(frame []byte) (errCode int64, opID []byte) {
	errCode, _ = scanNumberAfter(frame, `"errCode":`)
	const key = `"operationID":"`
	if i := bytes.LastIndex(frame, []byte(key)); i >= 0 {
		rest := frame[i+len(key):]
		if j := bytes.IndexByte(rest, '"'); j >= 0 {
			opID = rest[:j]
		}
	}
	return errCode, opID
}

// request builds a request frame: data is the JSON array of args,
// itself a JSON string.
func request(name, opID, userID string, args ...any) ([]byte, error) {
	if args == nil {
		args = []any{}
	}
	data, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	return json.Marshal(map[string]string{"reqFuncName": name, "operationID": opID, "userID": userID, "data": string(data)})
}

// textMessageFrame is a SendMessage request of a text message, built
// without reflection: the fields a Create call would have filled, the
// payload as its text. The message is a JSON string inside the request's
// args, which are a JSON string inside the frame, so its quotes are
// escaped twice; it is written that way directly, byte for byte what
// textMessageFrameJSON makes with encoding/json (which it falls back to
// for any character other than the ids' and the payload's).
func textMessageFrame(buf []byte, from, recvID, groupID string, p Payload, clientMsgID string) []byte {
	if !jsonPlain(from) || !jsonPlain(recvID) || !jsonPlain(groupID) || !jsonPlain(clientMsgID) || !jsonPlain(p.Stream) {
		return textMessageFrameJSON(buf, from, recvID, groupID, p, clientMsgID)
	}
	sessionType := byte('1')
	if groupID != "" {
		sessionType = '3'
	}
	const q2 = `\\\"` // a quote inside the message inside the args: \\\"
	buf = append(buf[:0], `{"reqFuncName":"SendMessage","operationID":"k`...)
	buf = strconv.AppendInt(buf, p.Sched, 10)
	buf = append(buf, `","userID":"`...)
	buf = append(buf, from...)
	buf = append(buf, `","data":"[\"{`+q2+`clientMsgID`+q2+`:`+q2...)
	buf = append(buf, clientMsgID...)
	buf = append(buf, q2+`,`+q2+`createTime`+q2+`:`...)
	buf = strconv.AppendInt(buf, p.Sched/1e6, 10)
	buf = append(buf, `,`+q2+`sessionType`+q2+`:`...)
	buf = append(buf, sessionType)
	buf = append(buf, `,`+q2+`sendID`+q2+`:`+q2...)
	buf = append(buf, from...)
	buf = append(buf, q2+`,`+q2+`recvID`+q2+`:`+q2...)
	buf = append(buf, recvID...)
	buf = append(buf, q2+`,`+q2+`groupID`+q2+`:`+q2...)
	buf = append(buf, groupID...)
	buf = append(buf, q2+`,`+q2+`msgFrom`+q2+`:100,`+q2+`contentType`+q2+`:101,`+q2+`senderPlatformID`+q2+`:5,`+
		q2+`status`+q2+`:1,`+q2+`textElem`+q2+`:{`+q2+`content`+q2+`:`+q2...)
	buf = p.append(buf)
	buf = append(buf, q2+`}}\",\"`...)
	buf = append(buf, recvID...)
	buf = append(buf, `\",\"`...)
	buf = append(buf, groupID...)
	return append(buf, `\",\"{}\",false]"}`...)
}

// jsonPlain says whether s needs no escaping in a JSON string, at any
// depth, by encoding/json (which escapes <, > and & too).
func jsonPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// textMessageFrameJSON is textMessageFrame through encoding/json.
func textMessageFrameJSON(buf []byte, from, recvID, groupID string, p Payload, clientMsgID string) []byte {
	sessionType := "1"
	if groupID != "" {
		sessionType = "3"
	}
	msg := `{"clientMsgID":"` + clientMsgID + `","createTime":` + strconv.FormatInt(p.Sched/1e6, 10) +
		`,"sessionType":` + sessionType + `,"sendID":"` + from + `","recvID":"` + recvID + `","groupID":"` + groupID +
		`","msgFrom":100,"contentType":101,"senderPlatformID":5,"status":1,"textElem":{"content":"` + p.String() + `"}}`
	args, _ := json.Marshal([]any{msg, recvID, groupID, "{}", false})
	buf = append(buf[:0], `{"reqFuncName":"SendMessage","operationID":"k`...)
	buf = strconv.AppendInt(buf, p.Sched, 10)
	buf = append(buf, `","userID":"`...)
	buf = append(buf, from...)
	buf = append(buf, `","data":`...)
	b, _ := json.Marshal(string(args))
	buf = append(buf, b...)
	return append(buf, '}')
}

// ChatConn is one logged-in chat socket.
type ChatConn struct {
	UserID string
	socket

	onFrame atomic.Pointer[func([]byte)]
	pmu     sync.Mutex
	pending map[string]chan []byte // replies awaited by Call
	waiting atomic.Int32           // len(pending), read without the lock
	ops     atomic.Int64
}

// DialChat opens a chat socket as account a from the loopback source
// address src (empty: any) and logs in. frames gets every frame that is
// not the answer to a Call.
func DialChat(ctx context.Context, wsBase, src string, a Account, frames func([]byte)) (*ChatConn, error) {
	uid := strconv.FormatInt(a.ID, 10)
	q := url.Values{"sendID": {uid}, "token": {a.ChatToken}, "platformID": {"5"}, "operationID": {"dial"}}
	ws, err := dialSocket(ctx, wsBase+"/ws?"+q.Encode(), src, "chat", a.Account)
	if err != nil {
		return nil, err
	}
	c := &ChatConn{UserID: uid, socket: socket{ws: ws, done: make(chan struct{})}, pending: map[string]chan []byte{}}
	if frames != nil {
		c.onFrame.Store(&frames)
	}
	go c.read()
	if _, err := c.Call(ctx, "Login", uid, a.ChatToken); err != nil {
		c.Close()
		return nil, fmt.Errorf("chat login %s: %w", a.Account, err)
	}
	return c, nil
}

func (c *ChatConn) read() {
	c.readLoop(c.onMessage, func() {
		c.pmu.Lock()
		closeAll(c.pending)
		c.waiting.Store(0)
		c.pmu.Unlock()
	})
}

// onMessage hands a frame to the Call awaiting it, or else to the frame
// handler.
func (c *ChatConn) onMessage(b []byte) {
	if c.waiting.Load() > 0 {
		_, op := ScanReply(b)
		c.pmu.Lock()
		ch, ok := c.pending[op]
		if ok {
			delete(c.pending, op)
			c.waiting.Add(-1)
		}
		c.pmu.Unlock()
		if ok {
			ch <- bytes.Clone(b) // b is the read loop's buffer
			return
		}
	}
	if f := c.onFrame.Load(); f != nil {
		(*f)(b)
	}
}

// Call sends a request and waits for its reply's data; a non-zero errCode
// is an error.
func (c *ChatConn) Call(ctx context.Context, name string, args ...any) (string, error) {
	op := "c" + strconv.FormatInt(c.ops.Add(1), 10)
	ch := make(chan []byte, 1)
	c.pmu.Lock()
	c.pending[op] = ch
	c.waiting.Add(1)
	c.pmu.Unlock()
	frame, err := request(name, op, c.UserID, args...)
	if err != nil {
		return "", err
	}
	if err := c.write(frame); err != nil {
		return "", err
	}
	b, err := c.awaitReply(ctx, ch, name)
	if err != nil {
		return "", err
	}
	var r struct {
		ErrCode int    `json:"errCode"`
		ErrMsg  string `json:"errMsg"`
		Data    string `json:"data"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return "", err
	}
	if r.ErrCode != 0 {
		return "", fmt.Errorf("%s: errCode %d: %s", name, r.ErrCode, r.ErrMsg)
	}
	return r.Data, nil
}

// SendText sends a text message carrying p to a user (recvID) or a group
// (groupID); its reply arrives as a frame with operationID "k<p.Sched>".
func (c *ChatConn) SendText(recvID, groupID string, p Payload, clientMsgID string) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.buf = textMessageFrame(c.buf, c.UserID, recvID, groupID, p, clientMsgID)
	return c.flushLocked()
}

// SetFrames replaces the frame handler.
func (c *ChatConn) SetFrames(f func([]byte)) { c.onFrame.Store(&f) }
