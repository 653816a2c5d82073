package chat

import (
	"bytes"
	"fmt"
	"testing"
)

// The resend cache keeps the acknowledgements of the last recentMessages
// committed sends of a conversation: the newest are found, the oldest
// gives way, and a send remembered twice takes one place.
func TestPipelineRemembersTheLatestSends(t *testing.T) {
	p := newPipeline()
	msg := func(i int) *Message {
		return &Message{ClientMsgID: fmt.Sprintf("c%d", i), Seq: int64(i), ContentType: 101, TextElem: &TextElem{Content: fmt.Sprintf("text %d", i)}}
	}
	sent := map[string]string{}
	for i := range recentMessages + 1 {
		m := msg(i)
		p.remember(m)
		p.remember(msg(i)) // a resend committed again is not kept twice
		sent[m.ClientMsgID] = string(m.escaped)
	}
	if m := p.recentSend("c0"); m != nil {
		t.Fatalf("the oldest of %d sends is still kept: %s", recentMessages+1, m.escaped)
	}
	for i := 1; i <= recentMessages; i++ {
		id := fmt.Sprintf("c%d", i)
		m := p.recentSend(id)
		if m == nil || string(m.escaped) != sent[id] || !bytes.Contains(m.escaped, fmt.Appendf(nil, "text %d", i)) {
			t.Fatalf("send %d: kept %+v, want the acknowledgement %s", i, m, sent[id])
		}
		// The acknowledgement a resend gets is the one the send got.
		want := string(encodeReply("SendMessage", "op", msg(i), 0, ""))
		if got := string(encodeReply("SendMessage", "op", m, 0, "")); got != want {
			t.Fatalf("resend of send %d answered\n%s\nwant\n%s", i, got, want)
		}
	}
	// Keeping an encoded message's acknowledgement allocates nothing: the
	// cache shares the bytes its frame holds.
	encoded := make([]*Message, 101) // AllocsPerRun's warm-up and 100 runs
	for i := range encoded {
		encoded[i] = msg(100 + i)
		encoded[i].encode()
	}
	next := 0
	if n := testing.AllocsPerRun(100, func() { p.remember(encoded[next]); next++ }); n != 0 {
		t.Fatalf("remember made %.0f allocations a send", n)
	}
	last := encoded[len(encoded)-1]
	if m := p.recentSend(last.ClientMsgID); m == nil || string(m.escaped) != string(last.escaped) {
		t.Fatalf("kept %+v, want the acknowledgement of %s", m, last.ClientMsgID)
	}
}
