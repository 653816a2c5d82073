package chat

import (
	"testing"

	"kj/storage"
)

// singleRef is what callSend got by parsing the conversation id it made,
// whichever of the two ids sorts first as a string.
func TestSingleRefIsTheParsedID(t *testing.T) {
	for _, p := range [][2]int64{{9, 10}, {10, 9}, {123, 45}, {45, 123}, {7, 7000000000000000000}, {1234567890123456789, 987654321}} {
		me, peer := storage.FormatID(p[0]), storage.FormatID(p[1])
		want, ok := parseConversationID(singleConversationID(me, peer))
		if !ok {
			t.Fatalf("%v: not parsed", p)
		}
		if got := singleRef(p[0], me, p[1], peer); got != want {
			t.Fatalf("%v: %+v, want %+v", p, got, want)
		}
	}
}
