package chat

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// The decoding of a request frame and of the message a SendMessage
// carries, without encoding/json's reflection: encoding/json was ~13 % of
// the CPU of an acknowledged send and a quarter of its garbage
// (BenchmarkSendPath profile, issue 34). The fast decoders take only
// input they are sure to read exactly as encoding/json would and answer
// ok=false for anything else (a key that differs from a field's name only
// in case, a field of an element they do not read, invalid UTF-8, a number
// that is not a plain integer ...); the caller then decodes with
// encoding/json, which makes the same result or the same error.
// FuzzDecodeRequestFast and FuzzDecodeMessageFast hold them to
// encoding/json.
//
// A decoded string points into a buffer the decoder made (the unescaped
// data string, the unescaped message) and nothing ever writes again: one
// allocation for all of a request's strings instead of one each.

// callNames interns the names of the calls (register fills it), so a
// decoded reqFuncName is the registered string, not a copy.
var callNames = map[string]string{}

// maxFastDepth is the nesting the fast scanner follows; deeper input goes
// to encoding/json.
const maxFastDepth = 64

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// scanString reads the JSON string opening at b[i]: end is the index after
// its closing quote, esc whether it holds escapes. ok is false when it is
// not a string encoding/json reads as it is (malformed, or not UTF-8).
func scanString(b []byte, i int) (end int, esc, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false, false
	}
	wide := false
	for j := i + 1; j < len(b); j++ {
		c := b[j]
		switch {
		case c == '"':
			if wide && !utf8.Valid(b[i+1:j]) {
				return 0, false, false
			}
			return j + 1, esc, true
		case c == '\\':
			esc = true
			j++
			if j >= len(b) {
				return 0, false, false
			}
			switch b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(b) || hex4(b[j+1:j+5]) < 0 {
					return 0, false, false
				}
				j += 4
			default:
				return 0, false, false
			}
		case c < 0x20:
			return 0, false, false
		case c >= utf8.RuneSelf:
			wide = true
		}
	}
	return 0, false, false
}

// hex4 is the value of four hex digits, -1 when they are not.
func hex4(s []byte) rune {
	if len(s) < 4 {
		return -1
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// unescape appends the characters of a string's escaped content (what
// scanString accepted, without the quotes) to dst, as encoding/json
// unquotes them (a lone surrogate becomes U+FFFD). dst may be src's own
// start: a character is never longer than its escape.
func unescape(dst, src []byte) []byte {
	for i := 0; i < len(src); {
		c := src[i]
		if c != '\\' {
			dst = append(dst, c)
			i++
			continue
		}
		i++
		switch c = src[i]; c {
		case '"', '\\', '/':
			dst = append(dst, c)
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			rr := hex4(src[i+1:])
			i += 4
			if utf16.IsSurrogate(rr) {
				var rr1 rune = -1
				if i+2 < len(src) && src[i+1] == '\\' && src[i+2] == 'u' {
					rr1 = hex4(src[i+3:])
				}
				if dec := utf16.DecodeRune(rr, rr1); dec != unicode.ReplacementChar {
					i += 6
					dst = utf8.AppendRune(dst, dec)
					break
				}
				rr = unicode.ReplacementChar
			}
			dst = utf8.AppendRune(dst, rr)
		}
		i++
	}
	return dst
}

// scanNumber reads the JSON number at b[i] and returns the index after it.
func scanNumber(b []byte, i int) (int, bool) {
	j := i
	if j < len(b) && b[j] == '-' {
		j++
	}
	switch {
	case j < len(b) && b[j] == '0':
		j++
	case j < len(b) && b[j] >= '1' && b[j] <= '9':
		j = skipDigits(b, j)
	default:
		return 0, false
	}
	if j < len(b) && b[j] == '.' {
		k := skipDigits(b, j+1)
		if k == j+1 {
			return 0, false
		}
		j = k
	}
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		j++
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		k := skipDigits(b, j)
		if k == j {
			return 0, false
		}
		j = k
	}
	return j, true
}

// skipDigits returns the index of the first byte from b[j] on that is not
// a decimal digit.
func skipDigits(b []byte, j int) int {
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		j++
	}
	return j
}

// scanValue reads the JSON value at b[i] (no space before it) and returns
// the index after it.
func scanValue(b []byte, i, depth int) (int, bool) {
	if i >= len(b) || depth > maxFastDepth {
		return 0, false
	}
	switch c := b[i]; {
	case c == '"':
		end, _, ok := scanString(b, i)
		return end, ok
	case c == '{' || c == '[':
		close := byte('}')
		if c == '[' {
			close = ']'
		}
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == close {
			return i + 1, true
		}
		for {
			var ok bool
			if c == '{' {
				var end int
				if end, _, ok = scanString(b, i); !ok {
					return 0, false
				}
				if i = skipSpace(b, end); i >= len(b) || b[i] != ':' {
					return 0, false
				}
				i = skipSpace(b, i+1)
			}
			if i, ok = scanValue(b, i, depth+1); !ok {
				return 0, false
			}
			if i = skipSpace(b, i); i >= len(b) {
				return 0, false
			}
			switch b[i] {
			case ',':
				i = skipSpace(b, i+1)
			case close:
				return i + 1, true
			default:
				return 0, false
			}
		}
	case c == '-' || c >= '0' && c <= '9':
		return scanNumber(b, i)
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit {
			return i + len(lit), true
		}
	}
	return 0, false
}

// bytesString views b as a string; b is never written again.
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// objectScan walks the members of a JSON object.
type objectScan struct {
	b []byte
	i int
}

// open starts at the '{' at b[i].
func (o *objectScan) open(b []byte, i int) bool {
	i = skipSpace(b, i)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	o.b, o.i = b, skipSpace(b, i+1)
	return true
}

// next reads the next key (without escapes, or ok is false) and leaves
// o.i at its value; done is true at the closing brace.
func (o *objectScan) next(first bool) (key []byte, done, ok bool) {
	b, i := o.b, o.i
	if i >= len(b) {
		return nil, false, false
	}
	if !first {
		switch b[i] {
		case '}':
			o.i = i + 1
			return nil, true, true
		case ',':
			i = skipSpace(b, i+1)
		default:
			return nil, false, false
		}
	} else if b[i] == '}' {
		o.i = i + 1
		return nil, true, true
	}
	end, esc, ok := scanString(b, i)
	if !ok || esc {
		return nil, false, false
	}
	key = b[i+1 : end-1]
	if i = skipSpace(b, end); i >= len(b) || b[i] != ':' {
		return nil, false, false
	}
	o.i = skipSpace(b, i+1)
	return key, false, true
}

// str reads the string value at o.i, unescaped in place; isNull is true
// for null (encoding/json then leaves the field as it is).
func (o *objectScan) str() (s string, isNull, ok bool) {
	if o.null() {
		return "", true, true
	}
	end, esc, ok := scanString(o.b, o.i)
	if !ok {
		return "", false, false
	}
	v := o.b[o.i+1 : end-1]
	if esc {
		v = unescape(v[:0], v)
	}
	o.i = skipSpace(o.b, end)
	return bytesString(v), false, true
}

// null consumes a null at o.i.
func (o *objectScan) null() bool {
	if len(o.b)-o.i >= 4 && string(o.b[o.i:o.i+4]) == "null" {
		o.i = skipSpace(o.b, o.i+4)
		return true
	}
	return false
}

// int reads an integral number at o.i as encoding/json reads it into an
// int64 (null leaves v as it is).
func (o *objectScan) int(v *int64) bool {
	if o.null() {
		return true
	}
	end, ok := scanNumber(o.b, o.i)
	if !ok {
		return false
	}
	n, err := strconv.ParseInt(bytesString(o.b[o.i:end]), 10, 64)
	if err != nil {
		return false
	}
	*v, o.i = n, skipSpace(o.b, end)
	return true
}

func (o *objectScan) intField(v *int) bool {
	n := int64(*v)
	if !o.int(&n) {
		return false
	}
	*v = int(n)
	return true
}

func (o *objectScan) strField(v *string) bool {
	s, isNull, ok := o.str()
	if ok && !isNull {
		*v = s
	}
	return ok
}

func (o *objectScan) boolField(v *bool) bool {
	switch {
	case o.null():
	case len(o.b)-o.i >= 4 && string(o.b[o.i:o.i+4]) == "true":
		*v, o.i = true, skipSpace(o.b, o.i+4)
	case len(o.b)-o.i >= 5 && string(o.b[o.i:o.i+5]) == "false":
		*v, o.i = false, skipSpace(o.b, o.i+5)
	default:
		return false
	}
	return true
}

// skip passes over a value whose key names no field. A key that differs
// from a field's name only in case is one encoding/json would match: it
// is left to encoding/json.
func (o *objectScan) skip(key []byte, fields map[string]bool) bool {
	for _, c := range key {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	var low [64]byte
	if len(key) > len(low) {
		return false // no field has so long a name; fold it no further
	}
	for i, c := range key {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	if fields[string(low[:len(key)])] {
		return false
	}
	end, ok := scanValue(o.b, o.i, 1)
	if !ok {
		return false
	}
	o.i = skipSpace(o.b, end)
	return true
}

// decodeRequestFast is DecodeRequest for the frames the SDK sends: the
// four keys, string values. ok is false for any other frame.
func decodeRequestFast(b []byte) (r Request, a Args, ok bool) {
	var o objectScan
	if !o.open(b, 0) {
		return r, a, false
	}
	var name, op, user, data []byte
	var opEsc, userEsc, dataEsc bool
	for first := true; ; first = false {
		key, done, ok := o.next(first)
		if !ok {
			return r, a, false
		}
		if done {
			break
		}
		end, esc, ok := scanString(b, o.i)
		if !ok {
			return r, a, false
		}
		v := b[o.i+1 : end-1]
		switch string(key) {
		case "reqFuncName":
			if esc {
				return r, a, false
			}
			name = v
		case "operationID":
			op, opEsc = v, esc
		case "userID":
			user, userEsc = v, esc
		case "data":
			data, dataEsc = v, esc
		default:
			return r, a, false
		}
		o.i = skipSpace(b, end)
	}
	if skipSpace(b, o.i) != len(b) {
		return r, a, false
	}
	var known bool
	if r.ReqFuncName, known = callNames[string(name)]; !known {
		return Request{}, a, false
	}
	// One buffer for the strings: operationID, userID, then data; data
	// in a pooled one of its own for a call that keeps nothing of its
	// arguments (Args.release).
	pooled := releasesArgs(r.ReqFuncName) && len(data) > 0
	size := len(op) + len(user)
	if !pooled {
		size += len(data)
	}
	buf := make([]byte, 0, size)
	put := func(v []byte, esc bool) string {
		start := len(buf)
		if esc {
			buf = unescape(buf, v)
		} else {
			buf = append(buf, v...)
		}
		return bytesString(buf[start:len(buf):len(buf)])
	}
	r.OperationID, r.UserID = put(op, opEsc), put(user, userEsc)
	if len(r.OperationID) > maxOpIDLen {
		return Request{}, Args{}, false
	}
	if pooled {
		a.data = getFrame()
		buf = (*a.data)[:0]
	}
	r.Data = put(data, dataEsc)
	if pooled {
		*a.data = buf
	}
	a.call = r.ReqFuncName
	if r.Data == "" {
		return r, a, true
	}
	var elems *[maxArgs]json.RawMessage
	if pooled {
		// The elements slice the pooled data: they go back with it.
		a.elems = rawArgsPool.Get().(*[maxArgs]json.RawMessage)
		elems = a.elems
	}
	if a.raw, ok = splitArray(unsafeBytes(r.Data), elems); !ok {
		a.release()
		return Request{}, Args{}, false
	}
	return r, a, true
}

// releasesArgs says whether call's handler keeps nothing that points into
// its arguments once it returns: every string and message it takes from
// Args is a copy (String, OptString, NewMessage), so the unescaped data
// can go back to framePool after it (Args.release). A send's data was
// ~0.45 KB of garbage per message (BenchmarkSendPath).
func releasesArgs(call string) bool { return call == "SendMessage" }

// splitArray cuts a JSON array into its elements, each a slice of b,
// returned in into when it is not nil (and then valid as long as into is
// not reused), else in a slice of their number.
func splitArray(b []byte, into *[maxArgs]json.RawMessage) ([]json.RawMessage, bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return nil, false
	}
	// Gathered on the stack and copied out at their number: a send has
	// four or five (a slice grown from 8 was ~0.2 KB).
	var elems [maxArgs]json.RawMessage
	raw := elems[:0]
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		i++
	} else {
		for {
			end, ok := scanValue(b, i, 1)
			if !ok || len(raw) == maxArgs {
				return nil, false
			}
			raw = append(raw, b[i:end:end])
			if i = skipSpace(b, end); i >= len(b) {
				return nil, false
			}
			if b[i] == ']' {
				i++
				break
			}
			if b[i] != ',' {
				return nil, false
			}
			i = skipSpace(b, i+1)
		}
	}
	if skipSpace(b, i) != len(b) {
		return nil, false
	}
	if len(raw) == 0 {
		return nil, true
	}
	if into != nil {
		n := copy(into[:], raw)
		return into[:n:n], true
	}
	return append(make([]json.RawMessage, 0, len(raw)), raw...), true
}

// messageFields are the names encoding/json matches to a Message's
// fields, lower case; textElemFields those of a TextElem.
var (
	messageFields  = jsonFieldNames(Message{})
	textElemFields = jsonFieldNames(TextElem{})
)

// decodeMessageFast decodes a SendMessage's message argument (a JSON
// string holding the object, or the bare object) into m, which must be
// zero. ok is false when the message holds anything but the fields of a
// text message (or the element fields null): encoding/json decodes it.
//
// The object is unescaped into a pooled scratch buffer and its strings
// then copied out of it into one array of their length (compactStrings):
// the message keeps its own strings' bytes and none of the JSON's names
// and numbers (an array of the whole object was ~0.3 KB of a send, about
// three times its strings).
func decodeMessageFast(v []byte, m *Message) bool {
	scratch := getFrame()
	ok := decodeMessageWith(v, m, scratch)
	putFrame(scratch)
	return ok
}

// decodeMessageWith is decodeMessageFast with scratch as the buffer the
// object is unescaped into; m holds nothing of it afterwards, so the
// caller may reuse it at once.
func decodeMessageWith(v []byte, m *Message, scratch *[]byte) bool {
	var buf []byte
	switch {
	case len(v) > 0 && v[0] == '"':
		end, esc, ok := scanString(v, 0)
		if !ok || end != len(v) {
			return false
		}
		buf = v[1 : end-1]
		if esc {
			buf = unescape((*scratch)[:0], buf)
		} else {
			// The argument is a slice of a buffer that holds other
			// arguments too, which its strings must not keep (and
			// str unescapes in place).
			buf = append((*scratch)[:0], buf...)
		}
	default:
		// A bare object: a slice of the data buffer, which its strings
		// must not keep, and which is not to be written.
		buf = append((*scratch)[:0], v...)
	}
	*scratch = buf[:0] // grown, perhaps: the pool keeps the larger buffer
	var tmp Message
	var o objectScan
	if !o.open(buf, 0) || !decodeMessageFields(&o, &tmp) || skipSpace(buf, o.i) != len(buf) {
		return false
	}
	compactStrings(&tmp)
	*m = tmp
	return true
}

// compactStrings copies every string decodeMessageFields can set (each a
// slice of the scratch buffer, or empty) into one new array. A string
// field that decodeMessageFields learns to read must be added here, or
// it would point into a pooled buffer (checkMessageFast scribbles over
// the scratch to catch that).
func compactStrings(m *Message) {
	fields := [...]*string{&m.ClientMsgID, &m.ServerMsgID, &m.SendID, &m.RecvID, &m.SenderNickname,
		&m.SenderFaceURL, &m.GroupID, &m.Content, &m.AttachedInfo, &m.Ex, &m.LocalEx, nil}
	if m.TextElem != nil {
		fields[len(fields)-1] = &m.TextElem.Content
	}
	n := 0
	for _, f := range fields {
		if f != nil {
			n += len(*f)
		}
	}
	b := make([]byte, 0, n)
	for _, f := range fields {
		if f == nil {
			continue
		}
		if len(*f) == 0 {
			*f = "" // not even an empty slice of the scratch
			continue
		}
		start := len(b)
		b = append(b, *f...)
		*f = bytesString(b[start:len(b):len(b)])
	}
}

func decodeMessageFields(o *objectScan, m *Message) bool {
	for first := true; ; first = false {
		key, done, ok := o.next(first)
		if !ok {
			return false
		}
		if done {
			return true
		}
		switch string(key) {
		case "clientMsgID":
			ok = o.strField(&m.ClientMsgID)
		case "serverMsgID":
			ok = o.strField(&m.ServerMsgID)
		case "createTime":
			ok = o.int(&m.CreateTime)
		case "sendTime":
			ok = o.int(&m.SendTime)
		case "sessionType":
			ok = o.intField(&m.SessionType)
		case "sendID":
			ok = o.strField(&m.SendID)
		case "recvID":
			ok = o.strField(&m.RecvID)
		case "msgFrom":
			ok = o.intField(&m.MsgFrom)
		case "contentType":
			ok = o.intField(&m.ContentType)
		case "senderPlatformID":
			ok = o.intField(&m.SenderPlatformID)
		case "senderNickname":
			ok = o.strField(&m.SenderNickname)
		case "senderFaceUrl":
			ok = o.strField(&m.SenderFaceURL)
		case "groupID":
			ok = o.strField(&m.GroupID)
		case "content":
			ok = o.strField(&m.Content)
		case "seq":
			ok = o.int(&m.Seq)
		case "isRead":
			ok = o.boolField(&m.IsRead)
		case "status":
			ok = o.intField(&m.Status)
		case "isReact":
			ok = o.boolField(&m.IsReact)
		case "isExternalExtensions":
			ok = o.boolField(&m.IsExternal)
		case "attachedInfo":
			ok = o.strField(&m.AttachedInfo)
		case "ex":
			ok = o.strField(&m.Ex)
		case "localEx":
			ok = o.strField(&m.LocalEx)
		case "editTime":
			ok = o.int(&m.EditTime)
		case "textElem":
			switch {
			case o.null():
				m.TextElem = nil
			default:
				// encoding/json decodes into the element already there.
				if m.TextElem == nil {
					m.TextElem = &TextElem{}
				}
				ok = decodeTextElem(o, m.TextElem)
			}
		case "offlinePush", "cardElem", "pictureElem", "soundElem", "videoElem", "fileElem", "mergeElem",
			"atTextElem", "faceElem", "locationElem", "customElem", "quoteElem", "notificationElem",
			"typingElem", "attachedInfoElem", "reactions":
			// Only null is read here (it leaves the field nil); an element
			// other than text is decoded by encoding/json.
			ok = o.null()
		default:
			ok = o.skip(key, messageFields)
		}
		if !ok {
			return false
		}
	}
}

func decodeTextElem(o *objectScan, e *TextElem) bool {
	i := o.i
	var inner objectScan
	if !inner.open(o.b, i) {
		return false
	}
	for first := true; ; first = false {
		key, done, ok := inner.next(first)
		if !ok {
			return false
		}
		if done {
			break
		}
		if string(key) == "content" {
			ok = inner.strField(&e.Content)
		} else {
			ok = inner.skip(key, textElemFields)
		}
		if !ok {
			return false
		}
	}
	o.i = skipSpace(o.b, inner.i)
	return true
}

// jsonFieldNames lists the keys encoding/json decodes into v's fields, in
// lower case.
func jsonFieldNames(v any) map[string]bool {
	out := map[string]bool{}
	t := reflect.TypeOf(v)
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[strings.ToLower(name)] = true
	}
	return out
}

// appendMessageJSON appends what json.Marshal renders for m, for a message
// with no element but text (ok is false for any other: encoding/json
// renders it). encoding/json's reflection over the message was most of
// the cost of encoding a send once (BenchmarkSendPath);
// TestAppendMessageJSONMatchesMarshal holds this to it byte for byte.
func appendMessageJSON(out []byte, m *Message) ([]byte, bool) {
	return appendMessageJSONAt(out, m, 0)
}

// appendMessageJSONAt appends appendMessageJSON's text escaped level
// times (0, 1 or 2) as appendEscaped escapes, written that way at once:
// the keys come escaped from messageKeysAt, and each value is escaped
// level+1 times in one pass (appendEscapedTimes). A message's push frame
// carries its JSON escaped once (encode), and a conversation push carries
// it as latestMsg escaped twice; escaping the whole text after writing it
// was most of encode's cost and of a member's conversation push (W2
// profile at 10,000 msg/s: appendEscaped 7-8 % of the server). Escaping is
// a map of each character, so escaping the pieces is escaping the whole;
// TestAppendMessageJSONMatchesMarshal and its fuzz target hold each level
// to appendEscaped of the one below.
func appendMessageJSONAt(out []byte, m *Message, level int) ([]byte, bool) {
	if m.OfflinePush != nil || m.CardElem != nil || m.PictureElem != nil || m.SoundElem != nil || m.VideoElem != nil ||
		m.FileElem != nil || m.MergeElem != nil || m.AtTextElem != nil || m.FaceElem != nil || m.LocationElem != nil ||
		m.CustomElem != nil || m.QuoteElem != nil || m.NotificationElem != nil || m.TypingElem != nil ||
		m.AttachedInfoElem != nil || len(m.Reactions) > 0 {
		return out, false
	}
	k := &messageKeysAt[level]
	str := func(key int, v string) {
		out = append(out, k[key]...)
		out = append(out, k[keyQuote]...)
		out = appendEscapedTimes(out, unsafeBytes(v), level+1) // once as a JSON string, then level times
		out = append(out, k[keyQuote]...)
	}
	num := func(key int, v int64) {
		out = append(out, k[key]...)
		out = strconv.AppendInt(out, v, 10)
	}
	flag := func(key int, v bool) {
		out = append(out, k[key]...)
		out = strconv.AppendBool(out, v)
	}
	str(keyClientMsgID, m.ClientMsgID)
	str(keyServerMsgID, m.ServerMsgID)
	num(keyCreateTime, m.CreateTime)
	num(keySendTime, m.SendTime)
	num(keySessionType, int64(m.SessionType))
	str(keySendID, m.SendID)
	str(keyRecvID, m.RecvID)
	num(keyMsgFrom, int64(m.MsgFrom))
	num(keyContentType, int64(m.ContentType))
	num(keySenderPlatformID, int64(m.SenderPlatformID))
	str(keySenderNickname, m.SenderNickname)
	str(keySenderFaceURL, m.SenderFaceURL)
	str(keyGroupID, m.GroupID)
	str(keyContent, m.Content)
	num(keySeq, m.Seq)
	flag(keyIsRead, m.IsRead)
	num(keyStatus, int64(m.Status))
	flag(keyIsReact, m.IsReact)
	flag(keyIsExternal, m.IsExternal)
	str(keyAttachedInfo, m.AttachedInfo)
	str(keyEx, m.Ex)
	str(keyLocalEx, m.LocalEx)
	if m.TextElem != nil {
		str(keyTextElem, m.TextElem.Content)
		out = append(out, '}')
	}
	if m.EditTime != 0 {
		num(keyEditTime, m.EditTime)
	}
	return append(out, '}'), true
}

// The keys of appendMessageJSONAt, in messageKeys' order; keyQuote is the
// quote around a string value.
const (
	keyQuote = iota
	keyClientMsgID
	keyServerMsgID
	keyCreateTime
	keySendTime
	keySessionType
	keySendID
	keyRecvID
	keyMsgFrom
	keyContentType
	keySenderPlatformID
	keySenderNickname
	keySenderFaceURL
	keyGroupID
	keyContent
	keySeq
	keyIsRead
	keyStatus
	keyIsReact
	keyIsExternal
	keyAttachedInfo
	keyEx
	keyLocalEx
	keyTextElem
	keyEditTime
	messageKeyCount
)

// messageKeys is the JSON text before each of a message's values.
var messageKeys = [messageKeyCount]string{
	keyQuote:            `"`,
	keyClientMsgID:      `{"clientMsgID":`,
	keyServerMsgID:      `,"serverMsgID":`,
	keyCreateTime:       `,"createTime":`,
	keySendTime:         `,"sendTime":`,
	keySessionType:      `,"sessionType":`,
	keySendID:           `,"sendID":`,
	keyRecvID:           `,"recvID":`,
	keyMsgFrom:          `,"msgFrom":`,
	keyContentType:      `,"contentType":`,
	keySenderPlatformID: `,"senderPlatformID":`,
	keySenderNickname:   `,"senderNickname":`,
	keySenderFaceURL:    `,"senderFaceUrl":`,
	keyGroupID:          `,"groupID":`,
	keyContent:          `,"content":`,
	keySeq:              `,"seq":`,
	keyIsRead:           `,"isRead":`,
	keyStatus:           `,"status":`,
	keyIsReact:          `,"isReact":`,
	keyIsExternal:       `,"isExternalExtensions":`,
	keyAttachedInfo:     `,"attachedInfo":`,
	keyEx:               `,"ex":`,
	keyLocalEx:          `,"localEx":`,
	keyTextElem:         `,"textElem":{"content":`,
	keyEditTime:         `,"editTime":`,
}

// messageKeysAt is messageKeys escaped 0, 1 and 2 times.
var messageKeysAt = func() (at [3][messageKeyCount]string) {
	at[0] = messageKeys
	for l := 1; l < len(at); l++ {
		for i, k := range at[l-1] {
			at[l][i] = string(appendEscaped(nil, []byte(k)))
		}
	}
	return at
}()
