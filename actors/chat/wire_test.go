package chat

import (
	"encoding/json"
	"errors"
	"testing"

	"kj/internal/apierr"
	"kj/storage"
)

func TestDecodeRequestAndArgs(t *testing.T) {
	req, args, err := DecodeRequest([]byte(`{"reqFuncName":"GetGroupMemberList","operationID":"op1","userID":"1","data":"[\"12\",0,0,2000]"}`))
	if err != nil || req.ReqFuncName != "GetGroupMemberList" || req.OperationID != "op1" || args.Len() != 4 {
		t.Fatalf("%+v %v %v", req, args, err)
	}
	if s, err := args.String(0, "groupID"); err != nil || s != "12" {
		t.Fatalf("string arg %q %v", s, err)
	}
	if n, err := args.Int(3, "count"); err != nil || n != 2000 {
		t.Fatalf("int arg %d %v", n, err)
	}
	if _, err := args.String(1, "filter"); !isCode(err, apierr.CodeChatBadArgument) {
		t.Fatalf("number read as string: %v", err)
	}
	if _, err := args.Int(9, "missing"); !isCode(err, apierr.CodeChatBadArgument) {
		t.Fatalf("missing arg: %v", err)
	}
	// An object argument arrives as a JSON string (or bare); type errors name the field.
	_, args, _ = DecodeRequest([]byte(`{"reqFuncName":"X","operationID":"o","data":"[\"{\\\"toUserID\\\":\\\"5\\\",\\\"reqMsg\\\":7}\", {\"a\":1}, \"[\\\"x\\\"]\", 1e3, 2.5, true]"}`))
	var p struct {
		ToUserID string `json:"toUserID"`
		ReqMsg   string `json:"reqMsg"`
	}
	err = args.Object(0, "params", &p)
	var he *apierr.Error
	if !errors.As(err, &he) || he.Args["arg"] != "params.reqMsg" {
		t.Fatalf("type error: %v", err)
	}
	var bare map[string]int
	if err := args.Object(1, "bare", &bare); err != nil || bare["a"] != 1 {
		t.Fatalf("bare object %v %v", bare, err)
	}
	if l, err := args.StringList(2, "list"); err != nil || len(l) != 1 || l[0] != "x" {
		t.Fatalf("list %v %v", l, err)
	}
	if n, err := args.Int(3, "n"); err != nil || n != 1000 {
		t.Fatalf("1e3 %d %v", n, err)
	}
	if _, err := args.Int(4, "n"); err == nil {
		t.Fatal("2.5 read as an integer")
	}
	if b, err := args.Bool(5, "b"); err != nil || !b {
		t.Fatalf("bool %v %v", b, err)
	}
	// An empty data string is no arguments; a non-array is an error.
	if _, a, err := DecodeRequest([]byte(`{"reqFuncName":"X","operationID":"o","data":""}`)); err != nil || a.Len() != 0 {
		t.Fatalf("empty data: %v", err)
	}
	if _, _, err := DecodeRequest([]byte(`{"reqFuncName":"X","operationID":"o","data":"{}"}`)); !isCode(err, apierr.CodeChatBadArgument) {
		t.Fatalf("object data: %v", err)
	}
	for _, bad := range []string{``, `null`, `[]`, `{"reqFuncName":1}`, `{"reqFuncName":"a b"}`, `{"reqFuncName":"X"} {"x":1}`, "\xff"} {
		if _, _, err := DecodeRequest([]byte(bad)); !errors.Is(err, errFrame) {
			t.Fatalf("%q: %v", bad, err)
		}
	}
}

func isCode(err error, code int) bool {
	var he *apierr.Error
	return errors.As(err, &he) && he.Code == code
}

// FuzzDecodeRequest throws arbitrary frames at the decoder and every typed
// accessor: nothing panics, a frame either decodes or fails with errFrame
// or a bad-argument error, and a decoded request round-trips.
func FuzzDecodeRequest(f *testing.F) {
	for _, s := range []string{
		`{"reqFuncName":"Login","operationID":"1","userID":"7","data":"[\"7\",\"tok\"]"}`,
		`{"reqFuncName":"SendMessageNotOss","operationID":"2","data":"[\"{\\\"clientMsgID\\\":\\\"a\\\",\\\"contentType\\\":101,\\\"textElem\\\":{\\\"content\\\":\\\"hi\\\"}}\",\"8\",\"\",\"{}\",false]"}`,
		`{"reqFuncName":"GetGroupMemberList","operationID":"3","data":"[\"1\",0,0,2000]"}`,
		`{"reqFuncName":"X","data":"[null,1e400,-0,\"\\u0000\"]"}`,
		`{"reqFuncName":"X","data":"[[[[[[[[]]]]]]]]"}`,
		`{}`, `[]`, `"x"`, `{"reqFuncName":"X","data":5}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		req, args, err := DecodeRequest(b)
		if err != nil {
			if !errors.Is(err, errFrame) && !isCode(err, apierr.CodeChatBadArgument) {
				t.Fatalf("unexpected error kind: %v", err)
			}
			return
		}
		for i := 0; i < args.Len()+1; i++ {
			args.String(i, "s")
			args.OptString(i, "s")
			args.Int(i, "i")
			args.Float(i, "f")
			args.Bool(i, "b")
			args.StringList(i, "l")
			var m Message
			args.Object(i, "o", &m)
			var ms []*Message
			args.ObjectList(i, "ol", &ms)
		}
		again, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		req2, _, err := DecodeRequest(again)
		if err != nil && !isCode(err, apierr.CodeChatBadArgument) {
			t.Fatalf("re-encoded request fails: %v", err)
		}
		if req2.ReqFuncName != req.ReqFuncName || req2.OperationID != req.OperationID {
			t.Fatalf("round trip %+v != %+v", req2, req)
		}
	})
}

// A conversation push spliced from the message's escaped forms must be
// the very frame encodeReply renders for the items with their latestMsg
// filled (as a conversation list has them), whatever the texts hold: for a
// 1:1 message (escaped once more in the push) and a group's (latestWire).
func TestConversationPushMatchesEncodeReply(t *testing.T) {
	fanned := func(text, group string) *Message {
		m := &Message{ClientMsgID: "c1", ServerMsgID: "s1", SendID: "7", RecvID: "8", GroupID: group, SenderNickname: text,
			ContentType: 101, TextElem: &TextElem{Content: text}, Seq: 3, SendTime: 1700000000000}
		if group != "" {
			m.RecvID = ""
		}
		ev := &userEvent{Kind: evMsgs, Msgs: []*Message{m}}
		ev.prepare()
		return m
	}
	nasty := []string{
		"plain",
		`"latestMsg":""`,
		`quote " backslash \ slash /`,
		"<script>&amp;</script>",
		"中文 · émoji 🎉 · line\u2028sep\u2029 · tab\t · nul\x00",
		"bad utf8 \xff\xfe here",
		"controls \b\f\r\x01\x1f\x7f end",
	}
	for _, group := range []string{"", "9"} {
		for _, text := range nasty {
			m := fanned(text, group)
			if (m.latestWire != nil) != (group != "") {
				t.Fatalf("group %q: latestWire made: %v", group, m.latestWire != nil)
			}
			other := &Message{ClientMsgID: "c2", TextElem: &TextElem{Content: text}, ContentType: 101}
			rows := []storage.ChatUserConversation{
				{ConversationID: "si_7_8", SessionType: sessionSingle, PeerID: 8, MaxSeq: 3, Unread: 2, DraftText: text},
				{ConversationID: "sg_9", SessionType: sessionGroup, GroupID: 9, MaxSeq: 1},
				{ConversationID: "sg_10", SessionType: sessionGroup, GroupID: 10},
			}
			meta := convMeta{showName: text, faceURL: "/files/a.png?x=<1>&y=2"}
			latest := []*Message{m, other, nil}
			// listed: latestMsg filled, as a conversation list renders it
			// with encoding/json; pushed: as a user actor renders a push.
			render := func(wire bool) []*ConversationItem {
				items := make([]*ConversationItem, len(rows))
				for i, r := range rows {
					items[i] = new(ConversationItem)
					fillConversationItem(items[i], r, meta, latest[i], "", wire)
				}
				// Every field away from its zero value somewhere, hostile
				// text in every string.
				items[0].IsPinned, items[0].AttachedInfo, items[0].GroupAtType = true, text, 2
				items[1].IsNotInGroup, items[1].IsPrivateChat, items[1].Ex, items[1].MinSeq = true, true, text, -1
				items[2].IsMsgDestruct, items[2].BurnDuration, items[2].MsgDestructTime, items[2].DraftTextTime = true, 30, 86400, 1700000000001
				items[2].UserID, items[2].RecvMsgOpt, items[2].HasReadSeq = text, 1, 9
				return items
			}
			listed, pushed := render(false), render(true)
			if pushed[0].LatestMsg != "" || pushed[1].LatestMsg == "" || listed[0].LatestMsg == "" {
				t.Fatalf("text %q: the fanned-out message is not the one left out of the pushed item", text)
			}
			want := encodeReply("OnConversationChanged", "", listed, 0, "")
			got := encodeConversationPush("OnConversationChanged", pushed, latest)
			if string(got) != string(want) {
				t.Fatalf("group %q text %q:\n got %s\nwant %s", group, text, got, want)
			}
			// The listed items, latestMsg filled, render the same frame too.
			if again := encodeConversationPush("OnConversationChanged", listed, latest); string(again) != string(want) {
				t.Fatalf("group %q text %q: listed items:\n got %s\nwant %s", group, text, again, want)
			}
			// Appended after other bytes in a reused buffer, the same frame.
			pre := []byte("left over")
			if again := appendConversationPush(pre, "OnConversationChanged", pushed, latest); string(again[len(pre):]) != string(want) {
				t.Fatalf("text %q: appended push differs:\n got %s\nwant %s", text, again[len(pre):], want)
			}
			var r Reply
			if err := json.Unmarshal(got, &r); err != nil {
				t.Fatalf("text %q: %v", text, err)
			}
			mjs, _ := json.Marshal(m)
			var back []ConversationItem
			if err := json.Unmarshal([]byte(r.Data), &back); err != nil || len(back) != 3 || back[0].LatestMsg != string(mjs) || back[1].LatestMsg != listed[1].LatestMsg {
				t.Fatalf("text %q: data does not decode to the items: %v", text, err)
			}
		}
	}
}

// The frames that carry a fanned-out message, built from its escaped JSON
// made once (Message.encode), are byte for byte what encoding/json renders
// for them, as they were before (the message marshalled, then marshalled
// again as the Reply's data string): the acknowledgement, the delivery
// (OnRecvNewMessage, written as it is to the peer and the sender's other
// devices) and the conversation push, for texts every escape touches.
func TestMessageFramesMatchOldEncoding(t *testing.T) {
	texts := []string{
		`say "hi" \ back\slash`,
		"<b>bold</b> & <i>",
		"line\u2028sep\u2029para",
		"emoji 🎉👍🏽 and 中文消息，你好",
		"all: \"q\" \\ < > & \u2028 🎉 中文 \t\n\x01 \xff",
	}
	for _, text := range texts {
		// A picture is rendered by encoding/json and escaped after; a text
		// is written escaped at once (appendMessageJSONAt).
		for i, group := range []string{"", "42", "", "42"} {
			m := &Message{ClientMsgID: "cid-" + text, ServerMsgID: "s9", SendID: "7", RecvID: "8", GroupID: group,
				SenderNickname: text, SenderFaceURL: "/f?a=<1>&b=2", ContentType: TypeText, Content: text,
				TextElem: &TextElem{Content: text}, Seq: 12, SendTime: 1700000000123, Ex: text}
			if i >= 2 {
				m.ContentType, m.TextElem, m.PictureElem = TypePicture, nil, &PictureElem{SourcePath: text}
			}
			mjs, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			old := func(event, opID string) string {
				b, err := json.Marshal(Reply{Event: event, Data: string(mjs), OperationID: opID})
				if err != nil {
					t.Fatal(err)
				}
				return string(b)
			}
			m.encode()
			if want := old("OnRecvNewMessage", ""); string(m.frame) != want {
				t.Fatalf("%q: delivery:\n got %s\nwant %s", text, m.frame, want)
			}
			ev := &userEvent{Kind: evMsgs, Msgs: []*Message{m}}
			ev.prepare()
			if string(ev.frames[0]) != string(m.frame) {
				t.Fatalf("%q: the event's frame is not the message's", text)
			}
			ack := appendReplyData([]byte("reused"), "SendMessage", "op<&>\"1", m, 0, "")
			if want := old("SendMessage", "op<&>\"1"); string(ack[len("reused"):]) != want {
				t.Fatalf("%q: acknowledgement:\n got %s\nwant %s", text, ack[len("reused"):], want)
			}
			row := storage.ChatUserConversation{ConversationID: "si_7_8", SessionType: sessionSingle, PeerID: 8, MaxSeq: 12}
			if group != "" {
				row = storage.ChatUserConversation{ConversationID: "sg_42", SessionType: sessionGroup, GroupID: 42, MaxSeq: 12}
			}
			pushed := new(ConversationItem)
			fillConversationItem(pushed, row, convMeta{showName: text}, m, "", true)
			listed := *pushed
			listed.LatestMsg = string(mjs)
			data, _ := json.Marshal([]*ConversationItem{&listed})
			want, _ := json.Marshal(Reply{Event: "OnConversationChanged", Data: string(data)})
			if got := encodeConversationPush("OnConversationChanged", []*ConversationItem{pushed}, []*Message{m}); string(got) != string(want) {
				t.Fatalf("%q group %q: conversation push:\n got %s\nwant %s", text, group, got, want)
			}
		}
	}
}

// Escaping n times in one pass is escaping, then escaping the result, n
// times: for every kind of character, alone, in runs and at the edges of a
// text, and for every byte value; and escaping once is what encoding/json
// does inside a string.
func TestEscapedTwiceIsEscapeOfEscape(t *testing.T) {
	texts := []string{"", "plain", `"`, `\`, `a"b\c`, "<>&", "\u2028\u2029", "\xff", "a\xffb\xfe",
		"中文 · émoji 🎉", "tab\t nul\x00 del\x7f", "\b\f\n\r\x01\x1f", `"latestMsg":"x"`}
	for b := range 256 {
		texts = append(texts, string([]byte{byte(b)}), "x"+string([]byte{byte(b)})+"y")
	}
	for _, text := range texts {
		want := appendEscaped(nil, appendEscaped(nil, []byte(text)))
		if got := appendEscapedTwice([]byte("kept"), []byte(text)); string(got) != "kept"+string(want) {
			t.Fatalf("%q: got %q, want %q", text, got[4:], want)
		}
		want = []byte(text)
		for n := 1; n <= maxEscapes; n++ {
			want = appendEscaped(nil, want)
			if got := appendEscapedTimes([]byte("kept"), []byte(text), n); string(got) != "kept"+string(want) {
				t.Fatalf("%q escaped %d times: got %q, want %q", text, n, got[4:], want)
			}
		}
		quoted, _ := json.Marshal(text)
		if once := appendEscaped(nil, []byte(text)); `"`+string(once)+`"` != string(quoted) {
			t.Fatalf("%q: escaped %q, encoding/json %s", text, once, quoted)
		}
	}
}

// The unread total's frame, written without encoding/json, is what
// encodeReply renders for it.
func TestTotalPushMatchesEncodeReply(t *testing.T) {
	for _, total := range []int64{0, 7, 1234567, -1, 1 << 40} {
		want := encodeReply("OnTotalUnreadMessageCountChanged", "", total, 0, "")
		if got := appendTotalPush([]byte("x"), total); string(got[1:]) != string(want) {
			t.Fatalf("total %d:\n got %s\nwant %s", total, got[1:], want)
		}
	}
}

// encodeReply, written by hand, renders what encoding/json renders for
// the Reply, whatever its texts hold; a message encoded once for the
// acknowledgement and the fan-out (Message.encode) is the same data as one
// marshalled for the reply.
func TestEncodeReplyMatchesJSON(t *testing.T) {
	texts := []string{"", "plain", `quo"te \ back`, "<a&b>", "tab\tnl\ncr\r\x01\x1f", "中文 ✓", "bad\xffutf8", "line\u2028sep\u2029", "m12345"}
	msg := &Message{ClientMsgID: "c1", SendID: "1", RecvID: "2", ContentType: TypeText, Seq: 3,
		TextElem: &TextElem{Content: `hi "there" <b> & 中文` + "\n"}}
	datas := []any{nil, 42, map[string]any{"k": "v<"}, []string{"a", "b\"c"}, rawJSON(`{"x":"y\"z"}`), msg}
	for _, text := range texts {
		for _, data := range datas {
			for _, code := range []int{0, 1004} {
				r := Reply{Event: "SendMessage" + text, ErrCode: code, ErrMsg: text, OperationID: text}
				switch d := data.(type) {
				case nil:
				case rawJSON:
					r.Data = string(d)
				default:
					b, err := json.Marshal(d)
					if err != nil {
						t.Fatal(err)
					}
					r.Data = string(b)
				}
				want, err := json.Marshal(r)
				if err != nil {
					t.Fatal(err)
				}
				if got := encodeReply(r.Event, text, data, code, text); string(got) != string(want) {
					t.Fatalf("%q %T:\n got %s\nwant %s", text, data, got, want)
				}
			}
		}
	}
	before := string(encodeReply("SendMessage", "op", msg, 0, ""))
	msg.encode()
	if after := string(encodeReply("SendMessage", "op", msg, 0, "")); after != before {
		t.Fatalf("encoded message:\n got %s\nwant %s", after, before)
	}
}

// escapedLen is the length appendEscaped makes, of any bytes.
func TestEscapedLen(t *testing.T) {
	for _, s := range []string{"", "abc", `a"b\c`, "<>&", "\n\t\r\b\f\x01\x1f\x7f", `{"k":"v","n":[1,2]}`,
		"中文 🎉 émoji", "line\u2028sep\u2029", "bad \xff utf8 \xe2\x80", "\xed\xa0\x80 surrogate", "\xf0\x9f\x8e"} {
		if got, want := escapedLen([]byte(s)), len(appendEscaped(nil, []byte(s))); got != want {
			t.Errorf("%q: escapedLen %d, escaped %d", s, got, want)
		}
	}
}

func FuzzEscapedLen(f *testing.F) {
	f.Add([]byte("a\u2028\xff<\"\\中"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := escapedLen(b), len(appendEscaped(nil, b)); got != want {
			t.Fatalf("%q: escapedLen %d, escaped %d", b, got, want)
		}
	})
}

// A message's frame is made at its exact length (no slack that moves it
// to a larger size class), also when its text is not ASCII.
func TestMessageFrameExactSize(t *testing.T) {
	for _, text := range []string{"plain", "中文 🎉 \u2028 \xff <&>"} {
		m := &Message{ClientMsgID: "c1", SendID: "1", RecvID: "2", ContentType: TypeText, Content: textContent(text),
			TextElem: &TextElem{Content: text}}
		m.encode()
		if cap(m.frame) != len(m.frame) {
			t.Errorf("%q: frame of %d bytes in %d", text, len(m.frame), cap(m.frame))
		}
	}
}

// A text message's content, written without encoding/json, is what
// encoding/json renders for its TextElem.
func TestTextContentMatchesMarshal(t *testing.T) {
	for _, s := range []string{"", "plain", `say "hi" \ there`, "<a href='x'>&amp;</a>", "line\u2028sep\u2029",
		"中文 🎉 émoji", "ctl \x00\x01\t\n\r\x1f\x7f", "bad \xff utf8"} {
		want, err := json.Marshal(&TextElem{Content: s})
		if err != nil {
			t.Fatal(err)
		}
		if got := textContent(s); got != string(want) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	}
}
