package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
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
	var r Request
	if !utf8.Valid(b) {
		return r, Args{}, errFrame
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&r); err != nil {
		return Request{}, Args{}, errFrame
	}
	if dec.More() {
		return Request{}, Args{}, errFrame
	}
	if r.ReqFuncName == "" || len(r.ReqFuncName) > maxNameLen || !isName(r.ReqFuncName) || len(r.OperationID) > maxOpIDLen {
		return Request{}, Args{}, errFrame
	}
	a := Args{call: r.ReqFuncName}
	if r.Data == "" {
		return r, a, nil
	}
	if err := json.Unmarshal([]byte(r.Data), &a.raw); err != nil || len(a.raw) > maxArgs {
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
		v = bytes.TrimSpace([]byte(s))
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
// as a string; nil data is the empty string.
func encodeReply(event, opID string, data any, code int, msg string) []byte {
	r := Reply{Event: event, ErrCode: code, ErrMsg: msg, OperationID: opID}
	if data != nil {
		switch d := data.(type) {
		case rawJSON:
			r.Data = string(d)
		default:
			b, err := json.Marshal(data)
			if err != nil {
				r.ErrCode, r.ErrMsg = apierr.CodeChatBusy, fmt.Sprintf("encode reply: %v", err)
			} else {
				r.Data = string(b)
			}
		}
	}
	b, _ := json.Marshal(r)
	return b
}

// rawJSON is reply data that is already JSON.
type rawJSON []byte

// encodeConversationPush renders what encodeReply(event, "", items, 0, "")
// renders, byte for byte, splicing in the twice-escaped latest message
// each fanned-out message carries (latest[i] for items[i], nil when there
// is none) instead of escaping it again for every recipient.
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
		var wire []byte
		if i < len(latest) {
			if m := latest[i]; m != nil && m.latestWire != nil && it.LatestMsg == m.encodedText {
				wire = m.latestWire
			}
		}
		out = appendConversationItem(out, it, wire)
	}
	out = append(out, ']')
	return append(out, pushTail...)
}

// appendConversationItem appends it as encoding/json renders a
// *ConversationItem, as it stands inside the frame's data string: the keys
// escaped once (written so below: \" is a quote inside the data string)
// and the string values twice. When latestWire is not nil it is the item's
// latest message already escaped twice, put in as it is. Written by hand
// because encoding/json's reflection was most of the cost of a member's
// conversation push (W3 profile), and straight into the frame because
// building the item and then escaping it as a whole was still two thirds
// of a member's flush (BenchmarkMemberFlush). TestConversationPushMatchesEncodeReply
// holds it to encoding/json byte for byte.
func appendConversationItem(out []byte, it *ConversationItem, latestWire []byte) []byte {
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
	if latestWire != nil {
		out = append(out, `,\"latestMsg\":\"`...)
		out = append(out, latestWire...)
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
func appendEscapedTwice(dst, src []byte) []byte {
	start := 0
	for i := 0; i < len(src); {
		b := src[i]
		size := 1
		if b < utf8.RuneSelf {
			if plainASCII[b] {
				i++
				continue
			}
		} else {
			var c rune
			c, size = utf8.DecodeRune(src[i:])
			if (c != utf8.RuneError || size > 1) && c != '\u2028' && c != '\u2029' {
				i += size
				continue
			}
		}
		dst = append(dst, src[start:i]...)
		var once [8]byte // the longest escape of one character is \u00XX
		dst = appendEscaped(dst, appendEscaped(once[:0], src[i:i+size]))
		i += size
		start = i
	}
	return append(dst, src[start:]...)
}
