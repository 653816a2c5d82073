package chat

import (
	"hash/maphash"
	"sync"
)

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
//
// A message is remembered by a 64-bit hash of its key, not the key: a
// string made per message was ~32 B of every send's garbage, and a set of
// strings is pointers the collector scans at every cycle, where a set of
// numbers is not scanned at all. The hash's seed is random per process;
// a stranger's key answers "pushed" with a chance of about 2^-48 with the
// set full, and then costs only the second push's absence (the recipient
// sees the message at its next reconnect).
type fannedOut struct {
	mu    sync.Mutex
	seed  maphash.Seed
	set   map[uint64]struct{}
	order []uint64 // ring of the keys in set, oldest at next
	next  int
}

const fannedOutSize = 1 << 16

func newFannedOut() *fannedOut {
	return &fannedOut{seed: maphash.MakeSeed(), set: make(map[uint64]struct{}, fannedOutSize), order: make([]uint64, 0, fannedOutSize)}
}

// key hashes the sender and clientMsgID (a clientMsgID holds no '/', so
// the pair is read back one way only, as the string key was).
func (f *fannedOut) key(m *Message) uint64 {
	var h maphash.Hash
	h.SetSeed(f.seed)
	h.WriteString(m.SendID)
	h.WriteByte('/')
	h.WriteString(m.ClientMsgID)
	return h.Sum64()
}

func (f *fannedOut) add(m *Message) {
	k := f.key(m)
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
	k := f.key(m)
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.set[k]
	return ok
}
