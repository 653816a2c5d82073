package chat

import (
	"strconv"
	"testing"
)

// The set answers by sender and clientMsgID, forgets its oldest beyond
// its size, and costs a send no allocation.
func TestFannedOutRemembersRecentSends(t *testing.T) {
	f := newFannedOut()
	a := &Message{SendID: "12", ClientMsgID: "3x"}
	if f.has(a) {
		t.Fatal("empty set has a message")
	}
	f.add(a)
	if !f.has(a) || !f.has(&Message{SendID: "12", ClientMsgID: "3x"}) {
		t.Fatal("added message not found")
	}
	// The same characters split otherwise are another sender's message.
	for _, other := range []*Message{{SendID: "123", ClientMsgID: "x"}, {SendID: "1", ClientMsgID: "23x"}, {SendID: "12", ClientMsgID: "3y"}} {
		if f.has(other) {
			t.Fatalf("%s/%s found", other.SendID, other.ClientMsgID)
		}
	}
	for i := range fannedOutSize {
		f.add(&Message{SendID: "7", ClientMsgID: "m" + strconv.Itoa(i)})
	}
	if f.has(a) {
		t.Fatal("the oldest message was not forgotten")
	}
	if !f.has(&Message{SendID: "7", ClientMsgID: "m1"}) || len(f.set) != fannedOutSize {
		t.Fatalf("recent message forgotten, or %d kept", len(f.set))
	}
	m := &Message{SendID: "1234567890123456789", ClientMsgID: "7f3c0f3e8a9b4c1d"}
	if n := testing.AllocsPerRun(100, func() { f.add(m); _ = f.has(m) }); n != 0 {
		t.Fatalf("%v allocations a send", n)
	}
}
