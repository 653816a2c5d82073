package chat

import (
	"fmt"
	"testing"
)

// The resend cache keeps the last recentMessages committed sends of a
// conversation: the newest are found, the oldest gives way, and a send
// remembered twice takes one place.
func TestPipelineRemembersTheLatestSends(t *testing.T) {
	p := newPipeline()
	msg := func(i int) *Message { return &Message{ClientMsgID: fmt.Sprintf("c%d", i), Seq: int64(i)} }
	for i := range recentMessages + 1 {
		p.remember(msg(i))
		p.remember(msg(i)) // a resend committed again is not kept twice
	}
	if m := p.recentSend("c0"); m != nil {
		t.Fatalf("the oldest of %d sends is still kept (seq %d)", recentMessages+1, m.Seq)
	}
	for i := 1; i <= recentMessages; i++ {
		m := p.recentSend(fmt.Sprintf("c%d", i))
		if m == nil || m.Seq != int64(i) {
			t.Fatalf("send %d: kept %+v", i, m)
		}
	}
	// What is kept is a copy: the fan-out's later changes to the
	// committed message do not reach it.
	orig := msg(99)
	p.remember(orig)
	orig.Seq = -1
	if m := p.recentSend("c99"); m == nil || m.Seq != 99 {
		t.Fatalf("kept %+v, want the message as committed", m)
	}
}
