package chat

import "sync"

// fannedOut remembers which messages this node has fanned out lately, by
// sender and clientMsgID. A resend that the store answers as a duplicate
// was committed earlier — by this node, which pushed it then, or by a node
// that may have died between its commit and its fan-out (its sender never
// got the acknowledgement, which is why it sends again). Only in the second
// case is the message pushed now: otherwise a recipient whose socket never
// closed would see it only at its next reconnect. When the first node did
// push it and lived, the recipient gets it twice, which clients merge by
// clientMsgID. The set outlives the conversation actors (they retire when
// idle) and forgets its oldest entries beyond its size.
type fannedOut struct {
	mu    sync.Mutex
	set   map[string]struct{}
	order []string // ring of the keys in set, oldest at next
	next  int
}

const fannedOutSize = 1 << 16

func newFannedOut() *fannedOut {
	return &fannedOut{set: make(map[string]struct{}, fannedOutSize), order: make([]string, 0, fannedOutSize)}
}

func fannedOutKey(m *Message) string { return m.SendID + "/" + m.ClientMsgID }

func (f *fannedOut) add(m *Message) {
	k := fannedOutKey(m)
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.set[k]; ok {
		return
	}
	if len(f.order) < fannedOutSize {
		f.order = append(f.order, k)
	} else {
		delete(f.set, f.order[f.next])
		f.order[f.next] = k
		f.next = (f.next + 1) % fannedOutSize
	}
	f.set[k] = struct{}{}
}

func (f *fannedOut) has(m *Message) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.set[fannedOutKey(m)]
	return ok
}
