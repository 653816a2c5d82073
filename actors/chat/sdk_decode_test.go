package chat

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"testing"
	"unsafe"
)

// sdkSendFrame is a SendMessage frame as the SDK sends it: the message is
// what CreateTextMessage answered (every field of a Message), as a JSON
// string inside the data string.
func sdkSendFrame(t testing.TB, text string) []byte {
	t.Helper()
	m := Message{ClientMsgID: "7f3c0f3e8a9b4c1d", CreateTime: 1772359200000, SessionType: sessionSingle,
		SendID: "1001", RecvID: "1002", MsgFrom: msgFromUser, ContentType: TypeText, SenderPlatformID: platformWeb,
		SenderNickname: "Ann", Status: statusSending, TextElem: &TextElem{Content: text}}
	msg, err := json.Marshal(&m)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal([]any{string(msg), "1002", "", "{}", false})
	if err != nil {
		t.Fatal(err)
	}
	frame, err := json.Marshal(Request{ReqFuncName: "SendMessage", OperationID: "op-1", UserID: "1001", Data: string(data)})
	if err != nil {
		t.Fatal(err)
	}
	return frame
}

// checkRequestFast fails when decodeRequestFast decodes frame otherwise
// than encoding/json does; it says whether the fast path took it.
func checkRequestFast(t *testing.T, frame []byte) bool {
	t.Helper()
	r, a, ok := decodeRequestFast(frame)
	if !ok {
		return false
	}
	wr, wa, err := decodeRequestJSON(frame)
	if err != nil {
		t.Fatalf("fast path took %q, encoding/json refuses it: %v", frame, err)
	}
	if r != wr {
		t.Fatalf("%q: request %+v, encoding/json %+v", frame, r, wr)
	}
	if a.call != wa.call || len(a.raw) != len(wa.raw) {
		t.Fatalf("%q: args %q, encoding/json %q", frame, a.raw, wa.raw)
	}
	for i := range a.raw {
		if !bytes.Equal(bytes.TrimSpace(a.raw[i]), bytes.TrimSpace(wa.raw[i])) {
			t.Fatalf("%q: arg %d %q, encoding/json %q", frame, i, a.raw[i], wa.raw[i])
		}
	}
	return true
}

// checkMessageFast fails when decodeMessageFast decodes arg otherwise than
// encoding/json does; it says whether the fast path took it. The scratch
// buffer it decodes in is scribbled over before the comparison: the
// message must hold nothing of it (it goes back to framePool).
func checkMessageFast(t *testing.T, arg []byte) bool {
	t.Helper()
	var m Message
	scratch := new([]byte)
	if !decodeMessageWith(arg, &m, scratch) {
		return false
	}
	b := (*scratch)[:cap(*scratch)]
	for i := range b {
		b[i] = '#'
	}
	var want Message
	if err := (Args{raw: []json.RawMessage{arg}}).Object(0, "message", &want); err != nil {
		t.Fatalf("fast path took %q, encoding/json refuses it: %v", arg, err)
	}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("%q:\n got %+v\nwant %+v", arg, m, want)
	}
	return true
}

func TestDecodeRequestFastTakesSDKFrames(t *testing.T) {
	for _, text := range []string{"hello", `quote " backslash \ slash / tab 	 newline
`, "中文 emoji 😀 <b>&</b>", "\u2028 and \u2029"} {
		frame := sdkSendFrame(t, text)
		if !checkRequestFast(t, frame) {
			t.Fatalf("the fast path left an SDK frame to encoding/json: %s", frame)
		}
		r, a, err := DecodeRequest(frame)
		if err != nil || r.ReqFuncName != "SendMessage" || r.OperationID != "op-1" || a.Len() != 5 {
			t.Fatalf("DecodeRequest: %+v %v", r, err)
		}
		arg, _ := a.get(0)
		if !checkMessageFast(t, arg) {
			t.Fatalf("the fast path left the SDK's message to encoding/json: %s", arg)
		}
		var m Message
		if err := a.NewMessage(0, "message", &m); err != nil || m.TextElem == nil || m.TextElem.Content != text {
			t.Fatalf("NewMessage: %+v %v", m, err)
		}
	}
}

func TestDecodeFastLeavesOthersToJSON(t *testing.T) {
	for _, frame := range []string{
		`{"reqFuncName":"SendMessage","operationID":"1","userID":"2","data":"[]","extra":1}`,
		`{"ReqFuncName":"SendMessage","operationID":"1","userID":"2","data":"[]"}`,
		`{"reqFuncName":"NoSuchCall","operationID":"1","userID":"2","data":"[]"}`,
		`{"reqFuncName":"SendMessage","operationID":"1","userID":"2","data":"[1,]"}`,
		`{"reqFuncName":"SendMessage","operationID":"1","userID":"2","data":null}`,
		`{"reqFuncName":"SendMessage","operationID":"1","userID":"2","data":"[]"} x`,
		`{"reqFuncName":"SendMessage","operationID":"1","userID":"2","data":"[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]"}`,
	} {
		if _, _, ok := decodeRequestFast([]byte(frame)); ok {
			t.Errorf("fast path took %s", frame)
		}
	}
	for _, msg := range []string{
		`{"ClientMsgID":"a"}`,
		`{"pictureElem":{"sourcePath":"x"}}`,
		`{"createTime":1.5}`,
		`{"createTime":1e3}`,
		`{"createTime":"1"}`,
		`{"textElem":{"Content":"x"}}`,
		`{"clientMsgID":"a"} {}`,
		`{"clientMsgID":"\ud800"`,
		"{\"clientMsgID\":\"\xff\"}",
		`{"k\u0065y":1}`,
	} {
		var m Message
		if decodeMessageFast([]byte(msg), &m) {
			t.Errorf("fast path took %s", msg)
		}
	}
}

func TestDecodeMessageFastMatchesJSON(t *testing.T) {
	for _, msg := range []string{
		`{}`,
		` { "clientMsgID" : "a" , "createTime" : -12 , "isRead" : true , "textElem" : { "content" : "x" , "other" : [1, {"a": null}] } } `,
		`{"textElem":{"content":"a"},"textElem":{}}`,
		`{"textElem":{"content":"a"},"textElem":null}`,
		`{"clientMsgID":"a","clientMsgID":"b","seq":null,"ex":null,"unknown":{"x":[true,false,null,"s\"",0.5e-3]}}`,
		`{"content":"\u00e9\ud83d\ude00\ud800x\u0041\/\b\f\n\r\t"}`,
		`{"offlinePush":null,"pictureElem":null,"reactions":null}`,
		`"{\"clientMsgID\":\"a\\\"b\",\"textElem\":{\"content\":\"\\u4e2d\"}}"`,
		`{"sessionType":9223372036854775807}`,
	} {
		if !checkMessageFast(t, []byte(msg)) {
			t.Errorf("fast path left %s to encoding/json", msg)
		}
	}
}

func FuzzDecodeRequestFast(f *testing.F) {
	f.Add(sdkSendFrame(f, "hello"))
	f.Add(sdkSendFrame(f, "中文 \" \\ 😀"))
	f.Add([]byte(`{"reqFuncName":"GetLoginStatus","operationID":"x","userID":"","data":""}`))
	f.Add([]byte(`{"reqFuncName":"SendMessage","operationID":"\u00e9","userID":"1","data":"[ 1 , \"a\" , {\"b\":[]} , null ]"}`))
	f.Fuzz(func(t *testing.T, frame []byte) {
		checkRequestFast(t, frame)
	})
}

func FuzzDecodeMessageFast(f *testing.F) {
	_, a, err := DecodeRequest(sdkSendFrame(f, "hello"))
	if err != nil {
		f.Fatal(err)
	}
	arg, _ := a.get(0)
	f.Add([]byte(arg))
	f.Add([]byte(`{"clientMsgID":"a","textElem":{"content":"\ud83d\ude00"},"seq":-1,"x":[1.5e3]}`))
	f.Add([]byte(strconv.Quote(`{"textElem":null,"isRead":false}`)))
	f.Fuzz(func(t *testing.T, arg []byte) {
		checkMessageFast(t, arg)
	})
}

func checkMessageJSON(t *testing.T, m *Message) {
	t.Helper()
	want, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := appendMessageJSON(nil, m)
	if !ok {
		t.Fatalf("appendMessageJSON left a text message to encoding/json: %+v", m)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("appendMessageJSON:\n got %s\nwant %s", got, want)
	}
	// Written escaped once and twice, it is the JSON escaped after.
	for level := 1; level <= 2; level++ {
		want = appendEscaped(nil, want)
		got, ok = appendMessageJSONAt([]byte("kept"), m, level)
		if !ok || !bytes.Equal(got, append([]byte("kept"), want...)) {
			t.Fatalf("appendMessageJSONAt level %d (ok %v):\n got %s\nwant kept%s", level, ok, got, want)
		}
	}
}

func TestAppendMessageJSONMatchesMarshal(t *testing.T) {
	for _, text := range []string{"", "hello", `" \ / <>& ` + "\n\t\r\b\f\x00\x1f", "中文 😀 \u2028\u2029", "bad \xff utf-8"} {
		checkMessageJSON(t, &Message{ClientMsgID: text, ServerMsgID: "9", CreateTime: -1, SendTime: 1 << 62, SessionType: 3,
			SendID: "1", RecvID: text, MsgFrom: 100, ContentType: TypeText, SenderPlatformID: 5, SenderNickname: text,
			SenderFaceURL: "http://x/y?a=1&b=2", GroupID: "7", Content: text, Seq: 42, IsRead: true, Status: 2, IsReact: true,
			IsExternal: true, AttachedInfo: text, Ex: text, LocalEx: text, TextElem: &TextElem{Content: text}, EditTime: 5})
	}
	checkMessageJSON(t, &Message{})
	checkMessageJSON(t, &Message{Reactions: []MessageReaction{}})
	if _, ok := appendMessageJSON(nil, &Message{PictureElem: &PictureElem{}}); ok {
		t.Fatal("appendMessageJSON wrote a picture message")
	}
}

func FuzzAppendMessageJSON(f *testing.F) {
	f.Add("hello", "中文", int64(1), true)
	f.Add("<\xff>", "\u2028\"\\", int64(-5), false)
	f.Fuzz(func(t *testing.T, a, b string, n int64, flag bool) {
		m := &Message{ClientMsgID: a, Content: b, SendID: a + b, Seq: n, IsRead: flag, EditTime: n}
		if flag {
			m.TextElem = &TextElem{Content: b + a}
		}
		checkMessageJSON(t, m)
	})
}

// A send's arguments are unescaped into a pooled buffer that goes back to
// framePool once its handler returns (releasesArgs): what the handler took
// from them (the message, the recvID, the operationID) must not point into
// it. Here the buffer is scribbled over after the release.
func TestSendArgsReleasedKeepNothing(t *testing.T) {
	text := `hi "there" \ <b>&</b> 中文 🎉`
	r, a, err := DecodeRequest(sdkSendFrame(t, text))
	if err != nil || a.data == nil {
		t.Fatalf("a send's data is not pooled: %v", err)
	}
	var m Message
	if err := a.NewMessage(0, "message", &m); err != nil {
		t.Fatal(err)
	}
	recv, err := a.OptString(1, "recvID")
	if err != nil {
		t.Fatal(err)
	}
	// callSend's read: the message's own recvID string, not a copy.
	recvAs, err := a.OptStringAs(1, "recvID", m.RecvID)
	if err != nil || recvAs != "1002" || unsafe.StringData(recvAs) != unsafe.StringData(m.RecvID) {
		t.Fatalf("OptStringAs %q %v: not the message's string", recvAs, err)
	}
	if other, err := a.OptStringAs(1, "recvID", "1003"); err != nil || other != "1002" {
		t.Fatalf("OptStringAs with another string: %q %v", other, err)
	}
	buf, elems := a.data, a.elems
	if elems == nil || len(a.raw) == 0 || &a.raw[0] != &elems[0] {
		t.Fatal("a send's arguments are not in a pooled array")
	}
	a.release()
	if a.data != nil || a.raw != nil || a.elems != nil {
		t.Fatal("release left the buffers in the arguments")
	}
	// The array goes back to its pool holding no slice of the buffer.
	for i, e := range elems {
		if e != nil {
			t.Fatalf("released array still holds argument %d", i)
		}
	}
	b := (*buf)[:cap(*buf)]
	for i := range b {
		b[i] = 'x'
	}
	if m.TextElem == nil || m.TextElem.Content != text || m.ClientMsgID != "7f3c0f3e8a9b4c1d" || m.SendID != "1001" ||
		recv != "1002" || recvAs != "1002" || r.OperationID != "op-1" || r.UserID != "1001" {
		t.Fatalf("taken from the released buffer: %+v %q %+v", m, recv, r)
	}
	// Another call's data is not pooled: nothing releases it.
	if _, other, err := DecodeRequest([]byte(`{"reqFuncName":"GetGroupMemberList","operationID":"o","userID":"1","data":"[\"12\"]"}`)); err != nil || other.data != nil || other.elems != nil {
		t.Fatalf("a call that may keep its arguments got a pooled buffer: %v", err)
	}
}
