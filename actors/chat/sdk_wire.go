package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
	"unicode/utf8"
	"unsafe"

	"kj/internal/apierr"
)

// Request is one frame from the SDK:
// {"reqFuncName","operationID","userID","data"}, data being a string that
// holds a JSON array of positional arguments.
type Request struct {
	ReqFuncName string `json:"reqFuncName"`
	OperationID string `json:"operationID"`
	UserID      string `json:"userID"`
	Data        string `json:"data"`
}

// Reply is every frame the gateway writes: a reply to a request (event =
// reqFuncName, same operationID) or a push (event = callback name, empty
// operationID). Data is a JSON document encoded as a string.
type Reply struct {
	Event       string `json:"event"`
	ErrCode     int    `json:"errCode"`
	ErrMsg      string `json:"errMsg"`
	Data        string `json:"data"`
	OperationID string `json:"operationID"`
}

// Limits of a request frame's fields (the frame itself is capped by the
// socket's read limit).
const (
	maxNameLen = 64
	maxOpIDLen = 128
	maxArgs    = 16
)

// errFrame is a frame that is not a request object; the gateway answers it
// with CodeChatBadFrame.
var errFrame = errors.New("chat: malformed frame")

// DecodeRequest parses a frame and its argument array. A frame that is not
// a JSON object with string fields fails with errFrame; a data string that
// is not a JSON array fails with a bad-argument error (the request is
// identified, so the reply can name it).
func DecodeRequest(b []byte) (Request, Args, error) {
	if !utf8.Valid(b) {
		return Request{}, Args{}, errFrame
	}
	if r, a, ok := decodeRequestFast(b); ok {
		return r, a, nil
	}
	return decodeRequestJSON(b)
}

// decodeRequestJSON is DecodeRequest with encoding/json, for the frames
// decodeRequestFast leaves to it (and the fuzz test's reference).
func decodeRequestJSON(b []byte) (Request, Args, error) {
	var r Request
	// Unmarshal, not a Decoder: one object and nothing after it, without
	// the Decoder and its read buffer (~2 KB of garbage per request).
	if err := json.Unmarshal(b, &r); err != nil {
		return Request{}, Args{}, errFrame
	}
	if r.ReqFuncName == "" || len(r.ReqFuncName) > maxNameLen || !isName(r.ReqFuncName) || len(r.OperationID) > maxOpIDLen {
		return Request{}, Args{}, errFrame
	}
	a := Args{call: r.ReqFuncName}
	if r.Data == "" {
		return r, a, nil
	}
	// Read in place: Unmarshal only reads its input, and each argument
	// is copied out of it (json.RawMessage).
	if err := json.Unmarshal(unsafeBytes(r.Data), &a.raw); err != nil || len(a.raw) > maxArgs {
		return r, Args{call: r.ReqFuncName}, badArg("data")
	}
	return r, a, nil
}

func isName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// Args are the positional arguments of one request, read with typed
// accessors that fail with a translated error naming the argument.
type Args struct {
	call string
	raw  []json.RawMessage
	data *[]byte // the framePool buffer raw points into (releasesArgs); nil otherwise
	// elems is the rawArgsPool array raw is a slice of, with data (a
	// fresh one per request was ~0.13 KB of a send); nil otherwise.
	elems *[maxArgs]json.RawMessage
}

// rawArgsPool keeps the arrays of the arguments of calls that keep
// nothing of them (releasesArgs), given back with their data by release.
var rawArgsPool = sync.Pool{New: func() any { return new([maxArgs]json.RawMessage) }}

// release gives the arguments' pooled buffers back once the call that
// read them has returned (releasesArgs); a no-op for other calls. The
// arguments are not read afterwards.
func (a *Args) release() {
	if a.data != nil {
		putFrame(a.data)
		a.data, a.raw = nil, nil
	}
	if a.elems != nil {
		clear(a.elems[:])
		rawArgsPool.Put(a.elems)
		a.elems, a.raw = nil, nil
	}
}

// Len is the number of arguments given.
func (a Args) Len() int { return len(a.raw) }

func badArg(name string) error {
	return apierr.ChatError(apierr.CodeChatBadArgument, "arg", name)
}

func (a Args) get(i int) (json.RawMessage, bool) {
	if i >= len(a.raw) {
		return nil, false
	}
	v := bytes.TrimSpace(a.raw[i])
	if len(v) == 0 || string(v) == "null" {
		return nil, false
	}
	return v, true
}

// hasValue says whether argument i is given and not null.
func (a Args) hasValue(i int) bool { _, ok := a.get(i); return ok }

// isString says whether argument i is a JSON string.
func (a Args) isString(i int) bool {
	v, ok := a.get(i)
	return ok && v[0] == '"'
}

// String reads a string argument; a missing one is an error.
func (a Args) String(i int, name string) (string, error) {
	v, ok := a.get(i)
	if !ok || v[0] != '"' {
		return "", badArg(name)
	}
	if end, esc, ok := scanString(v, 0); ok && !esc && end == len(v) {
		return string(v[1 : end-1]), nil
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", badArg(name)
	}
	return s, nil
}

// OptString reads a string argument that may be missing or null.
func (a Args) OptString(i int, name string) (string, error) {
	if _, ok := a.get(i); !ok {
		return "", nil
	}
	return a.String(i, name)
}

// OptStringAs is OptString that returns known itself, not a copy, when
// the argument is that string unescaped: a send's recvID is the one its
// message names (a copy was ~24 B of every send).
func (a Args) OptStringAs(i int, name, known string) (string, error) {
	if v, ok := a.get(i); ok && len(v) == len(known)+2 {
		if end, esc, ok := scanString(v, 0); ok && !esc && end == len(v) && string(v[1:end-1]) == known {
			return known, nil
		}
	}
	return a.OptString(i, name)
}

// Int reads an integral number argument.
func (a Args) Int(i int, name string) (int64, error) {
	v, ok := a.get(i)
	if !ok {
		return 0, badArg(name)
	}
	return parseInt(v, name)
}

func parseInt(v json.RawMessage, name string) (int64, error) {
	if v[0] != '-' && (v[0] < '0' || v[0] > '9') {
		return 0, badArg(name)
	}
	if n, err := strconv.ParseInt(string(v), 10, 64); err == nil {
		return n, nil
	}
	// JavaScript numbers may arrive as 1e3 or 5.0; accept whole values.
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, badArg(name)
	}
	return int64(f), nil
}

// Float reads a number argument.
func (a Args) Float(i int, name string) (float64, error) {
	v, ok := a.get(i)
	if !ok || (v[0] != '-' && (v[0] < '0' || v[0] > '9')) {
		return 0, badArg(name)
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, badArg(name)
	}
	return f, nil
}

// Bool reads a boolean argument.
func (a Args) Bool(i int, name string) (bool, error) {
	v, ok := a.get(i)
	if !ok {
		return false, badArg(name)
	}
	switch string(v) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, badArg(name)
}

// OptBool reads a boolean argument that may be missing.
func (a Args) OptBool(i int, name string) (bool, error) {
	if _, ok := a.get(i); !ok {
		return false, nil
	}
	return a.Bool(i, name)
}

// Object decodes an object argument into dst. The SDK sends objects as a
// JSON string inside the array; a bare object is accepted too. Unknown
// fields are ignored, fields of the wrong type are named in the error.
func (a Args) Object(i int, name string, dst any) error {
	v, ok := a.unwrapped(i, '{')
	if !ok {
		return badArg(name)
	}
	return decodeInto(v, name, dst)
}

// NewMessage decodes a message argument, as Object does, into m, which is
// zero: a text message without reflection (decodeMessageFast).
func (a Args) NewMessage(i int, name string, m *Message) error {
	if v, ok := a.get(i); ok && decodeMessageFast(v, m) {
		return nil
	}
	return a.Object(i, name, m)
}

// StringList reads an array of strings, sent as a JSON string or bare.
func (a Args) StringList(i int, name string) ([]string, error) {
	v, ok := a.unwrapped(i, '[')
	var out []string
	if !ok || json.Unmarshal(v, &out) != nil {
		return nil, badArg(name)
	}
	return out, nil
}

// ObjectList reads an array of objects, sent as a JSON string or bare.
func (a Args) ObjectList(i int, name string, dst any) error {
	v, ok := a.unwrapped(i, '[')
	if !ok {
		return badArg(name)
	}
	return decodeInto(v, name, dst)
}

// unwrapped reads argument i as JSON that must open with open ('{' or
// '['): the SDK sends objects and arrays as a JSON string inside the array,
// a bare value is accepted too. ok is false when the argument is missing,
// not a string of JSON, or opens with anything else.
func (a Args) unwrapped(i int, open byte) (v json.RawMessage, ok bool) {
	v, ok = a.get(i)
	if !ok {
		return nil, false
	}
	if v[0] == '"' {
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, false
		}
		// s is this call's own string and is only read: no copy.
		v = bytes.TrimSpace(unsafeBytes(s))
	}
	if len(v) == 0 || v[0] != open {
		return nil, false
	}
	return v, true
}

// decodeInto unmarshals v, turning type errors into a bad-argument error
// that names the offending field ("message.textElem.content").
func decodeInto(v []byte, name string, dst any) error {
	if err := json.Unmarshal(v, dst); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return badArg(name + "." + te.Field)
		}
		return badArg(name)
	}
	return nil
}

// encodeReply renders a reply frame. data is encoded as JSON and carried
// as a string; nil data is the empty string. The frame is what
// json.Marshal(Reply{...}) renders, byte for byte (TestEncodeReplyMatchesJSON),
// written by hand: encoding/json's reflection over Reply, the copy of the
// data into Reply.Data and the buffer it grows were a third of the
// allocations of an acknowledged send (BenchmarkSendPath). A message
// whose frame was made already (Message.encode) is not encoded or escaped
// again: its escaped JSON is copied in.
func encodeReply(event, opID string, data any, code int, msg string) []byte {
	return appendReplyData(nil, event, opID, data, code, msg)
}

// appendReplyData appends what encodeReply returns to out (grown once,
// to the frame's size, when it is too small).
func appendReplyData(out []byte, event, opID string, data any, code int, msg string) []byte {
	var body []byte
	switch d := data.(type) {
	case nil:
	case rawJSON:
		body = d
	case *Message:
		// escaped is set before the message is handed to another actor
		// (Message.encode), never after: reading it here is no race.
		if d.escaped != nil {
			if need := len(out) + len(d.escaped) + 2*(len(event)+len(opID)+len(msg)) + 64; cap(out) < need {
				out = append(make([]byte, 0, need), out...)
			}
			out = append(appendReplyHead(out, event, code, msg), d.escaped...)
			return appendReplyTail(out, opID)
		}
		body = marshalData(d, &code, &msg)
	default:
		body = marshalData(d, &code, &msg)
	}
	if need := len(out) + escapedLen(body) + 2*(len(event)+len(opID)+len(msg)) + 64; cap(out) < need {
		out = append(make([]byte, 0, need), out...)
	}
	return appendReply(out, event, opID, body, code, msg)
}

// marshalData encodes reply data; a failure becomes the reply's error.
func marshalData(data any, code *int, msg *string) []byte {
	b, err := json.Marshal(data)
	if err != nil {
		*code, *msg = apierr.CodeChatBusy, fmt.Sprintf("encode reply: %v", err)
		return nil
	}
	return b
}

// appendReply appends the frame of a Reply whose data is body (JSON, or
// nil for the empty string), as encoding/json renders it.
func appendReply(out []byte, event, opID string, body []byte, code int, msg string) []byte {
	out = appendEscaped(appendReplyHead(out, event, code, msg), body)
	return appendReplyTail(out, opID)
}

// appendReplyHead appends a reply frame's fields up to the opening quote
// of its data string.
func appendReplyHead(out []byte, event string, code int, msg string) []byte {
	out = append(out, `{"event":"`...)
	out = appendEscaped(out, unsafeBytes(event))
	out = append(out, `","errCode":`...)
	out = strconv.AppendInt(out, int64(code), 10)
	out = append(out, `,"errMsg":"`...)
	out = appendEscaped(out, unsafeBytes(msg))
	return append(out, `","data":"`...)
}

// appendReplyTail closes the data string appendReplyHead opened.
func appendReplyTail(out []byte, opID string) []byte {
	out = append(out, `","operationID":"`...)
	out = appendEscaped(out, unsafeBytes(opID))
	return append(out, `"}`...)
}

// encode makes the message's frame and escaped JSON (and a group
// message's latestWire) unless made already. It is called by the actor
// that owns the message before it hands it on (the acknowledgement, the
// fan-out), so the fields are written once and only read afterwards.
//
// The JSON is written escaped (appendMessageJSONAt) into a pooled buffer
// and copied from there into the frame, which is the one allocation a
// message's frames cost: the acknowledgement copies escaped into its
// socket's pooled buffer, the delivery is frame itself, and a conversation
// push writes the JSON escaped twice into its own pooled buffer
// (appendConversationItem). A message with other elements is rendered by
// encoding/json and escaped after.
func (m *Message) encode() {
	if m.frame != nil {
		return
	}
	scratch := getFrame()
	esc, ok := appendMessageJSONAt((*scratch)[:0], m, 1)
	if !ok {
		js, _ := json.Marshal(m)
		esc = appendEscaped((*scratch)[:0], js)
	}
	*scratch = esc // grown, perhaps: the pool keeps the larger buffer
	const event = "OnRecvNewMessage"
	frame := appendPushHead(make([]byte, 0, len(`{"event":"","errCode":0,"errMsg":"","data":"`)+len(event)+len(esc)+len(pushTail)), event)
	head := len(frame)
	frame = append(frame, esc...)
	m.escaped = frame[head:len(frame):len(frame)]
	m.frame = append(frame, pushTail...)
	if m.GroupID != "" {
		m.latestWire = m.appendLatestWire(make([]byte, 0, escapedLen(m.escaped)))
	}
	putFrame(scratch)
}

// appendLatestWire appends the message's JSON escaped twice, as it sits in
// a conversation push (latestMsg): a group message's kept latestWire, else
// written so at once for a text message, else its escaped JSON escaped once
// more. The message is encoded.
func (m *Message) appendLatestWire(out []byte) []byte {
	if m.latestWire != nil {
		return append(out, m.latestWire...)
	}
	if w, ok := appendMessageJSONAt(out, m, 2); ok {
		return w
	}
	return appendEscaped(out, m.escaped)
}

// jsonText is the message's JSON as a string (a conversation's latestMsg
// in a list), the bytes encode escapes.
func (m *Message) jsonText() string {
	if b, ok := appendMessageJSON(nil, m); ok {
		return string(b)
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// escapedLen is the length of appendEscaped(nil, b): buffers sized with
// it are not grown while a frame is written, and need no slack (the
// message frame's 16 bytes of slack put BenchmarkSendPath's frame of
// 757 bytes in the allocator's 896-byte class instead of the 768).
func escapedLen(b []byte) int {
	n := len(b)
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if !plainASCII[c] {
				if c < 0x20 && c != '\n' && c != '\t' && c != '\r' && c != '\b' && c != '\f' || c == '<' || c == '>' || c == '&' {
					n += 5 // \u00XX
				} else {
					n++
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += 5 // one byte becomes \ufffd
		case r == '\u2028' || r == '\u2029':
			n += 3 // three bytes become \u202X
		}
		i += size
	}
	return n
}

// rawJSON is reply data that is already JSON.
type rawJSON []byte

// encodeConversationPush renders what encodeReply(event, "", items, 0, "")
// renders for the same items with their latestMsg filled, byte for byte:
// an item whose latestMsg was left out (fillConversationItem's wire) gets
// latest[i], a fanned-out message, spliced in from its escaped forms
// (appendConversationItem) instead of its JSON escaped twice afresh.
func encodeConversationPush(event string, items []*ConversationItem, latest []*Message) []byte {
	return appendConversationPush(make([]byte, 0, 512), event, items, latest)
}

// appendPushHead appends a push frame's fields up to the opening quote of
// its data, as encodeReply renders them (event is a callback name: plain
// ASCII, as encoding/json would quote it).
func appendPushHead(out []byte, event string) []byte {
	out = append(out, `{"event":"`...)
	out = appendEscaped(out, unsafeBytes(event))
	return append(out, `","errCode":0,"errMsg":"","data":"`...)
}

// pushTail closes what appendPushHead opened.
const pushTail = `","operationID":""}`

// appendTotalPush appends what encodeReply(OnTotalUnreadMessageCountChanged,
// "", total, 0, "") renders, without encoding/json's allocations.
func appendTotalPush(out []byte, total int64) []byte {
	out = appendPushHead(out, "OnTotalUnreadMessageCountChanged")
	out = strconv.AppendInt(out, total, 10)
	return append(out, pushTail...)
}

// appendConversationPush appends what encodeConversationPush returns.
func appendConversationPush(out []byte, event string, items []*ConversationItem, latest []*Message) []byte {
	out = appendPushHead(out, event)
	out = append(out, '[')
	for i, it := range items {
		if i > 0 {
			out = append(out, ',')
		}
		var m *Message
		if i < len(latest) && it.LatestMsg == "" {
			if m = latest[i]; m != nil && m.escaped == nil {
				m = nil
			}
		}
		out = appendConversationItem(out, it, m)
	}
	out = append(out, ']')
	return append(out, pushTail...)
}

// appendConversationItem appends it as encoding/json renders a
// *ConversationItem, as it stands inside the frame's data string: the keys
// escaped once (written so below: \" is a quote inside the data string)
// and the string values twice. When spliced is not nil it is the item's
// latest message, fanned out (Message.encode) and left out of
// it.LatestMsg (fillConversationItem's wire), put in by
// Message.appendLatestWire. Written by hand
// because encoding/json's reflection was most of the cost of a member's
// conversation push (W3 profile), and straight into the frame because
// building the item and then escaping it as a whole was still two thirds
// of a member's flush (BenchmarkMemberFlush). TestConversationPushMatchesEncodeReply
// holds it to encoding/json byte for byte.
func appendConversationItem(out []byte, it *ConversationItem, spliced *Message) []byte {
	str := func(key, v string) {
		out = append(out, key...)
		out = append(out, `\"`...)
		out = appendEscapedTwice(out, unsafeBytes(v))
		out = append(out, `\"`...)
	}
	num := func(key string, v int64) {
		out = append(out, key...)
		out = strconv.AppendInt(out, v, 10)
	}
	flag := func(key string, v bool) {
		out = append(out, key...)
		out = strconv.AppendBool(out, v)
	}
	out = append(out, '{')
	str(`\"conversationID\":`, it.ConversationID)
	num(`,\"conversationType\":`, int64(it.ConversationType))
	str(`,\"userID\":`, it.UserID)
	str(`,\"groupID\":`, it.GroupID)
	str(`,\"showName\":`, it.ShowName)
	str(`,\"faceURL\":`, it.FaceURL)
	num(`,\"recvMsgOpt\":`, int64(it.RecvMsgOpt))
	num(`,\"unreadCount\":`, it.UnreadCount)
	num(`,\"groupAtType\":`, int64(it.GroupAtType))
	if spliced != nil {
		out = append(out, `,\"latestMsg\":\"`...)
		out = spliced.appendLatestWire(out)
		out = append(out, `\"`...)
	} else {
		str(`,\"latestMsg\":`, it.LatestMsg)
	}
	num(`,\"latestMsgSendTime\":`, it.LatestMsgSendTime)
	str(`,\"draftText\":`, it.DraftText)
	num(`,\"draftTextTime\":`, it.DraftTextTime)
	num(`,\"burnDuration\":`, it.BurnDuration)
	num(`,\"msgDestructTime\":`, it.MsgDestructTime)
	flag(`,\"isPinned\":`, it.IsPinned)
	flag(`,\"isNotInGroup\":`, it.IsNotInGroup)
	flag(`,\"isPrivateChat\":`, it.IsPrivateChat)
	flag(`,\"isMsgDestruct\":`, it.IsMsgDestruct)
	str(`,\"attachedInfo\":`, it.AttachedInfo)
	str(`,\"ex\":`, it.Ex)
	num(`,\"maxSeq\":`, it.MaxSeq)
	num(`,\"hasReadSeq\":`, it.HasReadSeq)
	num(`,\"minSeq\":`, it.MinSeq)
	return append(out, '}')
}

// unsafeBytes views s as bytes without copying; the bytes are only read.
func unsafeBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

const hexDigits = "0123456789abcdef"

// appendEscaped appends src escaped as encoding/json escapes a string's
// characters (HTML-safe: <, > and & as \u escapes; U+2028 and U+2029;
// invalid UTF-8 as \ufffd), without the quotes. Escaping works character by
// character, so escaping the parts of a text split between characters and
// joining them equals escaping the whole; the conversation push relies on
// it. TestConversationPushMatchesEncodeReply holds it to encoding/json.
func appendEscaped(dst, src []byte) []byte {
	start := 0
	for i := 0; i < len(src); {
		b := src[i]
		if b < utf8.RuneSelf {
			if plainASCII[b] {
				i++
				continue
			}
			dst = append(dst, src[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRune(src[i:])
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, src[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, src[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(dst, src[start:]...)
}

// plainASCII marks the ASCII bytes appendEscaped copies as they are: a
// table, because the comparisons per byte were most of the escaping's cost.
var plainASCII = func() (t [utf8.RuneSelf]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\' && b != '<' && b != '>' && b != '&'
	}
	return t
}()

// appendEscapedTwice appends what appendEscaped(nil, appendEscaped(nil,
// src)) returns without the buffer between: a character appendEscaped
// copies as it is stays as it is, and any other is escaped, and its
// escape escaped again.
func appendEscapedTwice(dst, src []byte) []byte { return appendEscapedTimes(dst, src, 2) }

// appendEscapedTimes appends src escaped n times (1 to maxEscapes) in one
// pass: an ASCII character to escape takes its n-fold escape from
// asciiEscapes; a rune escaped only as invalid UTF-8 or a line separator
// is escaped once, and that escape (ASCII) n-1 times more. Escaping a
// character and then its escape, by a call per character, was most of
// the cost of a message's content (JSON text: a quote every few bytes) in
// a conversation push, where it sits escaped three times.
func appendEscapedTimes(dst, src []byte, n int) []byte {
	t := &asciiEscapes[n]
	start := 0
	for i := 0; i < len(src); {
		b := src[i]
		if b < utf8.RuneSelf {
			if plainASCII[b] {
				i++
				continue
			}
			dst = append(dst, src[start:i]...)
			dst = append(dst, t[b]...)
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRune(src[i:])
		if (c != utf8.RuneError || size > 1) && c != '\u2028' && c != '\u2029' {
			i += size
			continue
		}
		dst = append(dst, src[start:i]...)
		var once [8]byte // the longest escape of one character is \u00XX
		e := appendEscaped(once[:0], src[i:i+size])
		if n > 1 {
			dst = appendEscapedTimes(dst, e, n-1)
		} else {
			dst = append(dst, e...)
		}
		i += size
		start = i
	}
	return append(dst, src[start:]...)
}

// maxEscapes is the most times appendEscapedTimes escapes: a string value
// of a message in a conversation push (JSON in a string in a string).
const maxEscapes = 3

// asciiEscapes[n][b] is ASCII character b escaped n times ("" for a
// character appendEscaped copies as it is).
var asciiEscapes = func() (t [maxEscapes + 1][utf8.RuneSelf]string) {
	for b := range utf8.RuneSelf {
		if plainASCII[b] {
			continue
		}
		e := []byte{byte(b)}
		for n := 1; n <= maxEscapes; n++ {
			e = appendEscaped(nil, e)
			t[n][b] = string(e)
		}
	}
	return t
}()
