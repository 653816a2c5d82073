package loadtest

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Every chat message a workload sends carries its stream (who sent it to
// whom) and its number in that stream, counting from 0. The receiving side
// feeds each arrival to the stream's Stream; at the end the sender's count
// says how many should have arrived. A run fails unless every message
// arrived exactly once and in order.

// Arrival is what one receipt turned out to be.
type Arrival int

// Kinds of arrival.
const (
	InOrder   Arrival = iota // the next number expected
	Early                    // ahead of a number still missing (out of order)
	Duplicate                // a number already received
)

// Stream follows the numbers received on one stream.
type Stream struct {
	next     uint64              // every number below next has arrived
	ahead    map[uint64]struct{} // arrived beyond a gap
	received uint64              // distinct numbers received
	max      uint64              // largest number received
	dups     uint64
	early    uint64
}

// Receive records number n.
func (s *Stream) Receive(n uint64) Arrival {
	if n < s.next {
		s.dups++
		return Duplicate
	}
	if _, ok := s.ahead[n]; ok {
		s.dups++
		return Duplicate
	}
	s.received++
	s.max = max(s.max, n)
	if n > s.next {
		if s.ahead == nil {
			s.ahead = map[uint64]struct{}{}
		}
		s.ahead[n] = struct{}{}
		s.early++
		return Early
	}
	s.next++
	for {
		if _, ok := s.ahead[s.next]; !ok {
			break
		}
		delete(s.ahead, s.next)
		s.next++
	}
	return InOrder
}

// StreamState is a stream's tally, as a generator process reports it.
type StreamState struct {
	Next       uint64 `json:"next"`     // contiguous prefix received
	Received   uint64 `json:"received"` // distinct numbers received
	Max        uint64 `json:"max"`      // largest number received
	Duplicates uint64 `json:"duplicates"`
	OutOfOrder uint64 `json:"outOfOrder"`
}

// State is the stream's tally so far.
func (s *Stream) State() StreamState {
	return StreamState{Next: s.next, Received: s.received, Max: s.max, Duplicates: s.dups, OutOfOrder: s.early}
}

// Loss is the verdict over all streams of a run.
type Loss struct {
	Streams    int      `json:"streams"`
	Sent       uint64   `json:"sent"`
	Received   uint64   `json:"received"` // distinct
	Lost       uint64   `json:"lost"`
	Duplicates uint64   `json:"duplicates"`
	OutOfOrder uint64   `json:"outOfOrder"`
	Unexpected uint64   `json:"unexpected"`         // numbers never sent (or on unknown streams)
	SeqErrors  uint64   `json:"seqErrors"`          // server seq not increasing within a conversation
	Examples   []string `json:"examples,omitempty"` // a few offending streams, for the log
}

// OK says whether every message arrived exactly once, in order.
func (l Loss) OK() bool {
	return l.Lost == 0 && l.Duplicates == 0 && l.OutOfOrder == 0 && l.Unexpected == 0 && l.SeqErrors == 0
}

func (l Loss) String() string {
	s := fmt.Sprintf("streams=%d sent=%d received=%d lost=%d duplicates=%d outOfOrder=%d unexpected=%d seqErrors=%d",
		l.Streams, l.Sent, l.Received, l.Lost, l.Duplicates, l.OutOfOrder, l.Unexpected, l.SeqErrors)
	if len(l.Examples) > 0 {
		s += " (" + strings.Join(l.Examples, "; ") + ")"
	}
	return s
}

const maxExamples = 5

// Judge compares what was sent on each stream with what arrived. sent and
// got are keyed by stream name; a stream present in only one of them is
// judged too (nothing arrived, or arrivals nobody sent).
func Judge(sent map[string]uint64, got map[string]StreamState, seqErrors uint64) Loss {
	l := Loss{SeqErrors: seqErrors}
	names := make([]string, 0, len(sent)+len(got))
	for k := range sent {
		names = append(names, k)
	}
	for k := range got {
		if _, ok := sent[k]; !ok {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	l.Streams = len(names)
	for _, k := range names {
		n, st := sent[k], got[k]
		l.Sent += n
		l.Duplicates += st.Duplicates
		l.OutOfOrder += st.OutOfOrder
		valid := st.Received
		if st.Received > 0 && st.Max >= n {
			// Numbers at or beyond n were never sent; how many of the
			// distinct arrivals they are is at least one (a failed run
			// either way).
			extra := max(1, st.Received-min(st.Received, n))
			l.Unexpected += extra
			valid = st.Received - extra
		}
		l.Received += valid
		if n > valid {
			l.Lost += n - valid
		}
		bad := st.Duplicates > 0 || st.OutOfOrder > 0 || st.Next != n || st.Received != n
		if bad && len(l.Examples) < maxExamples {
			l.Examples = append(l.Examples, fmt.Sprintf("%s: sent %d, contiguous %d, received %d, dup %d, ooo %d",
				k, n, st.Next, st.Received, st.Duplicates, st.OutOfOrder))
		}
	}
	return l
}

// Tracker holds the streams and conversation seqs a generator process
// receives on, safe for many reading goroutines.
type Tracker struct {
	mu        sync.Mutex
	streams   map[string]*Stream
	seqs      map[string]*int64 // a pointer: updating a seq makes no key string
	seqErrors uint64
}

// NewTracker returns an empty tracker.
func NewTracker() *Tracker {
	return &Tracker{streams: map[string]*Stream{}, seqs: map[string]*int64{}}
}

// Receive records number n on stream, and the server's seq of the message
// in its conversation (ignored when conv is empty): seqs must increase.
func (t *Tracker) Receive(stream string, n uint64, conv string, seq int64) Arrival {
	return t.receive([]byte(stream), n, []byte(conv), seq)
}

// receive is Receive with the names as bytes (a generator builds them in
// a buffer of its own): a name's string is made only when first seen.
func (t *Tracker) receive(stream []byte, n uint64, conv []byte, seq int64) Arrival {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.streams[string(stream)]
	if s == nil {
		s = &Stream{}
		t.streams[string(stream)] = s
	}
	if len(conv) > 0 {
		switch last := t.seqs[string(conv)]; {
		case last == nil:
			p := new(int64)
			*p = seq
			t.seqs[string(conv)] = p
		case seq <= *last:
			t.seqErrors++
		default:
			*last = seq
		}
	}
	return s.Receive(n)
}

// States is every stream's tally and the seq errors seen.
func (t *Tracker) States() (map[string]StreamState, uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make(map[string]StreamState, len(t.streams))
	for k, s := range t.streams {
		out[k] = s.State()
	}
	return out, t.seqErrors
}
