package loadtest

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

// serverFrame is a frame as a server writes it: unmasked.
func serverFrame(fin bool, op byte, payload []byte) []byte {
	b := []byte{op}
	if fin {
		b[0] |= 0x80
	}
	switch n := len(payload); {
	case n < 126:
		b = append(b, byte(n))
	case n <= 0xffff:
		b = append(b, 126, byte(n>>8), byte(n))
	default:
		b = append(b, 127)
		b = binary.BigEndian.AppendUint64(b, uint64(n))
	}
	return append(b, payload...)
}

// unmask reads back a client frame (appendWSFrame's).
func unmask(t *testing.T, b []byte) (op byte, payload []byte, rest []byte) {
	t.Helper()
	if b[1]&0x80 == 0 {
		t.Fatal("a client frame must be masked")
	}
	n, h := int(b[1]&0x7f), 2
	switch n {
	case 126:
		n, h = int(binary.BigEndian.Uint16(b[2:])), 4
	case 127:
		n, h = int(binary.BigEndian.Uint64(b[2:])), 10
	}
	mask := b[h : h+4]
	p := bytes.Clone(b[h+4 : h+4+n])
	for i := range p {
		p[i] ^= mask[i&3]
	}
	return b[0] & 0x0f, p, b[h+4+n:]
}

func TestClientFramesMasked(t *testing.T) {
	for _, n := range []int{0, 5, 125, 126, 300, 70000} {
		payload := bytes.Repeat([]byte("x"), n)
		b := appendWSFrame([]byte("keep"), wsText, [4]byte{1, 2, 3, 4}, payload)
		if !bytes.HasPrefix(b, []byte("keep")) || b[4] != 0x80|wsText {
			t.Fatalf("%d: header %x", n, b[:6])
		}
		op, got, rest := unmask(t, b[4:])
		if op != wsText || !bytes.Equal(got, payload) || len(rest) != 0 {
			t.Fatalf("%d bytes: op %d, %d back, %d left", n, op, len(got), len(rest))
		}
	}
}

// Frames split anywhere come out whole, in order; a fragmented message
// once its last fragment is in; a ping is answered with its payload; a
// close ends the socket.
func TestFramesAcrossReads(t *testing.T) {
	big := strings.Repeat("y", 70000)
	var stream []byte
	stream = append(stream, serverFrame(true, wsText, []byte("one"))...)
	stream = append(stream, serverFrame(true, wsPing, []byte("hb"))...)
	stream = append(stream, serverFrame(false, wsText, []byte("tw"))...)
	stream = append(stream, serverFrame(true, wsContinuation, []byte("o"))...)
	stream = append(stream, serverFrame(true, wsText, []byte(big))...)
	stream = append(stream, serverFrame(true, wsClose, []byte{0x03, 0xe9})...)
	for _, chunk := range []int{1, 7, 1000, len(stream)} {
		c := &rawWS{}
		var got []string
		var err error
		for off := 0; off < len(stream) && err == nil; off += chunk {
			c.in = append(c.in, stream[off:min(off+chunk, len(stream))]...)
			var k int
			k, err = c.frames(c.in, func(m []byte) { got = append(got, string(m)) })
			c.in = append(c.in[:0], c.in[k:]...)
		}
		if len(got) != 3 || got[0] != "one" || got[1] != "two" || got[2] != big {
			t.Fatalf("chunks of %d: %d messages %.20q", chunk, len(got), got)
		}
		if err == nil || !strings.Contains(err.Error(), "1001") {
			t.Fatalf("chunks of %d: the close frame ends it: %v", chunk, err)
		}
		op, pong, rest := unmask(t, c.out)
		if op != wsPong || string(pong) != "hb" || len(rest) != 0 {
			t.Fatalf("chunks of %d: pong %d %q", chunk, op, pong)
		}
	}
	if _, _, _, _, _, err := wsFrame([]byte{0x81, 0x81, 0, 0, 0, 0, 'x'}); err == nil {
		t.Fatal("a masked server frame is refused")
	}
}

func TestRawSendFrames(t *testing.T) {
	p := Payload{Stream: "p7.a", N: 0, Sched: 1795247521123456789}
	c := &rawWS{uid: "41", recvID: "42", idPrefix: "kjl-p7_a-", mask: [4]byte{9, 8, 7, 6}}
	c.appendSend(nil, p)
	_, got, _ := unmask(t, c.out)
	if want := textMessageFrameJSON(nil, "41", "42", "", p, "kjl-p7_a-0"); !bytes.Equal(got, want) || c.n != 1 {
		t.Fatalf("kj send:\n%s\nwant\n%s", got, want)
	}
	pc := &rawWS{uid: "41", peer: true, groupID: "pair:3", ids: 2}
	pc.appendSend(nil, p)
	p.N, p.Sched = 1, 5
	pc.appendSend(nil, p)
	_, got, rest := unmask(t, pc.out)
	if want := `{"id":3,"publish":{"channel":"pair:3","data":{"t":"kjl|p7.a|0|1795247521123456789"}}}`; string(got) != want {
		t.Fatalf("peer publish %s", got)
	}
	if _, got, _ = unmask(t, rest); !bytes.Contains(got, []byte(`{"id":4,`)) {
		t.Fatalf("second publish %s", got)
	}
	// Replies in any order find their publish, once.
	if sched, code, ok := pc.peerReply([]byte(`{"id":4,"publish":{}}`)); !ok || sched != 5 || code != 0 {
		t.Fatalf("reply 4: %d %d %v", sched, code, ok)
	}
	if sched, code, ok := pc.peerReply([]byte(`{"id":3,"error":{"code":108,"message":"not available"}}`)); !ok || sched != 1795247521123456789 || code != 108 {
		t.Fatalf("reply 3: %d %d %v", sched, code, ok)
	}
	if _, _, ok := pc.peerReply([]byte(`{"id":3,"publish":{}}`)); ok {
		t.Fatal("a reply is taken once")
	}
}
