package loadtest

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// pushFrame builds an OnRecvNewMessage push the way the gateway does: the
// message JSON inside the reply's data string, the text element's JSON
// inside the message's content string.
func pushFrame(t *testing.T, text string, seq int64) []byte {
	t.Helper()
	elem, _ := json.Marshal(map[string]string{"content": text})
	msg, _ := json.Marshal(map[string]any{"clientMsgID": "x", "sendID": "1", "recvID": "2", "contentType": 101,
		"content": string(elem), "seq": seq, "textElem": map[string]string{"content": text}})
	b, err := json.Marshal(map[string]any{"event": "OnRecvNewMessage", "errCode": 0, "errMsg": "", "data": string(msg), "operationID": ""})
	if err != nil {
		t.Fatal(err)
	}
	// encoding/json sorts map keys; the gateway writes event first, as
	// FrameEvent's fast path expects. Put it first.
	s := strings.Replace(string(b), `"data":`, `"event":"OnRecvNewMessage","data":`, 1)
	s = strings.Replace(s, `,"event":"OnRecvNewMessage"}`, `}`, 1)
	return []byte(s)
}

func TestScanPushFrame(t *testing.T) {
	p := Payload{Stream: "g3.s12", N: 41, Sched: 1795247521483871904}
	f := pushFrame(t, p.String(), 987654)
	got, ok := ScanPayload(f)
	if !ok || got != p {
		t.Fatalf("payload %+v %v from %s", got, ok, f)
	}
	if seq, ok := ScanSeq(f); !ok || seq != 987654 {
		t.Fatalf("seq %d %v", seq, ok)
	}
	if ev := FrameEvent(f); ev != "OnRecvNewMessage" {
		t.Fatalf("event %q", ev)
	}
	// IsEvent agrees with FrameEvent, also on a longer event of the same
	// start and on a frame whose event is not its first field.
	reordered := []byte(`{"errCode":0,"event":"SendMessage","data":""}`)
	for _, c := range []struct {
		frame []byte
		event string
		want  bool
	}{
		{f, "OnRecvNewMessage", true},
		{f, "OnRecvNewMessages", false},
		{f, "OnRecvNew", false},
		{f, "SendMessage", false},
		{reordered, "SendMessage", true},
		{reordered, "OnRecvNewMessage", false},
	} {
		if got := IsEvent(c.frame, c.event); got != c.want {
			t.Fatalf("IsEvent(%s, %q) = %v", c.frame, c.event, got)
		}
	}
	// A frame without a load payload (a notification) is not one.
	if _, ok := ScanPayload(pushFrame(t, "hello kjl", 3)); ok {
		t.Fatal("plain text scanned as a payload")
	}
	for _, bad := range []string{"kjl|", "kjl|s|x|1", "kjl|s|1|", "kjl|s p|1|2", "kjl||1|2"} {
		if _, ok := ScanPayload(pushFrame(t, bad, 1)); ok {
			t.Errorf("%q scanned as a payload", bad)
		}
	}
	// The slow path for frames not written event-first.
	if ev := FrameEvent([]byte(`{"errCode":0,"event":"OnKickedOffline"}`)); ev != "OnKickedOffline" {
		t.Fatalf("event %q", ev)
	}
}

func TestScanReply(t *testing.T) {
	code, op := ScanReply([]byte(`{"event":"SendMessage","errCode":1328,"errMsg":"bad \"x\"","data":"","operationID":"k1795247521483871904"}`))
	if code != 1328 || op != "k1795247521483871904" {
		t.Fatalf("%d %q", code, op)
	}
	code, op = ScanReply([]byte(`{"event":"SendMessage","errCode":0,"errMsg":"","data":"{\"operationID\":\"inner\"}","operationID":"k1"}`))
	if code != 0 || op != "k1" {
		t.Fatalf("%d %q: the reply's own operationID is the last one", code, op)
	}
}

func TestTextMessageFrame(t *testing.T) {
	p := Payload{Stream: "p7.a", N: 3, Sched: 1795247521000000000}
	for _, c := range []struct{ recv, group, session string }{{"42", "", "1"}, {"", "99", "3"}} {
		b := textMessageFrame(nil, "41", c.recv, c.group, p, "kjl-p7_a-3")
		var req struct {
			ReqFuncName, OperationID, UserID, Data string
		}
		if err := json.Unmarshal(b, &req); err != nil {
			t.Fatalf("%v: %s", err, b)
		}
		if req.ReqFuncName != "SendMessage" || req.OperationID != "k1795247521000000000" || req.UserID != "41" {
			t.Fatalf("%+v", req)
		}
		var args []any
		if err := json.Unmarshal([]byte(req.Data), &args); err != nil || len(args) != 5 {
			t.Fatalf("args %v %v", args, err)
		}
		var msg map[string]any
		if err := json.Unmarshal([]byte(args[0].(string)), &msg); err != nil {
			t.Fatal(err)
		}
		if msg["clientMsgID"] != "kjl-p7_a-3" || msg["contentType"] != float64(101) || args[1] != c.recv || args[2] != c.group ||
			msg["sessionType"] != float64(map[string]int{"1": 1, "3": 3}[c.session]) {
			t.Fatalf("%v %v", msg, args)
		}
		if got, ok := ScanPayload(b); !ok || got != p {
			t.Fatalf("the sent frame carries the payload: %+v %v", got, ok)
		}
	}
}

// The frame written by hand is encoding/json's byte for byte, and falls
// back to it for text that needs escaping.
func TestTextMessageFrameMatchesJSON(t *testing.T) {
	for _, c := range []struct {
		from, recv, group, id string
		p                     Payload
	}{
		{"41", "42", "", "kjl-p7_a-3", Payload{Stream: "p7.a", N: 3, Sched: 1795247521123456789}},
		{"41", "", "99", "kjl-g3_s12-0", Payload{Stream: "g3.s12", N: 0, Sched: 1}},
		{"4\"1", "<42>", "", "a&b", Payload{Stream: "p\\7", N: 9, Sched: 17}},
	} {
		got := textMessageFrame([]byte("junk"), c.from, c.recv, c.group, c.p, c.id)
		want := textMessageFrameJSON(nil, c.from, c.recv, c.group, c.p, c.id)
		if !bytes.Equal(got, want) {
			t.Fatalf("by hand:\n%s\nencoding/json:\n%s", got, want)
		}
	}
}

func TestConversationOfStream(t *testing.T) {
	for s, want := range map[string]string{"p17.a": "p17", "g3.s12": "g3", "solo": "solo"} {
		if got := Conversation(s); got != want {
			t.Errorf("%s: %s", s, got)
		}
	}
}

func TestSplitPlansKeepsPairsTogether(t *testing.T) {
	members := make([]Member, 10)
	for i := range members {
		members[i].Account.ID = int64(i)
	}
	plans := splitPlans(Plan{Workload: "W2"}, members, 3, 2)
	total := 0
	for i, p := range plans {
		if len(p.Members)%2 != 0 {
			t.Fatalf("plan %d has %d members: a pair was split", i, len(p.Members))
		}
		if p.Source != SourceAddr(i) || p.Worker != i {
			t.Fatalf("plan %d: source %s", i, p.Source)
		}
		total += len(p.Members)
	}
	if total != 10 {
		t.Fatalf("%d members planned", total)
	}
	if SourceAddr(0) != "127.0.0.2" || SourceAddr(1) != "127.0.0.3" {
		t.Fatal("loopback sources start at 127.0.0.2")
	}
}

// A stream's conversation is what precedes its last dot, whether the
// stream is a string or bytes read in place.
func TestConversationOfAStream(t *testing.T) {
	for stream, want := range map[string]string{"p17.a": "p17", "g3.s12": "g3", "a.b.c": "a.b", "solo": "solo", ".a": ".a", "": ""} {
		if got := Conversation(stream); got != want {
			t.Errorf("Conversation(%q) = %q, want %q", stream, got, want)
		}
		if got := string(conversationOf([]byte(stream))); got != want {
			t.Errorf("conversationOf(%q bytes) = %q, want %q", stream, got, want)
		}
	}
}
