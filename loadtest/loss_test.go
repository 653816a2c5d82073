package loadtest

import (
	"strings"
	"testing"
)

func TestStreamArrivals(t *testing.T) {
	var s Stream
	for n := range uint64(5) {
		if got := s.Receive(n); got != InOrder {
			t.Fatalf("%d: %v", n, got)
		}
	}
	if st := s.State(); st.Next != 5 || st.Received != 5 || st.Duplicates != 0 || st.OutOfOrder != 0 {
		t.Fatalf("in order: %+v", st)
	}
	// 7 arrives before 5 and 6: early (out of order); 5 and 6 then fill
	// the gap in order and the prefix jumps to 8.
	if s.Receive(7) != Early {
		t.Fatal("7 before 5 must be early")
	}
	if s.Receive(7) != Duplicate {
		t.Fatal("7 again must be a duplicate")
	}
	if s.Receive(5) != InOrder || s.Receive(6) != InOrder {
		t.Fatal("5 and 6 fill the gap in order")
	}
	if s.Receive(3) != Duplicate {
		t.Fatal("3 again must be a duplicate")
	}
	st := s.State()
	if st.Next != 8 || st.Received != 8 || st.Duplicates != 2 || st.OutOfOrder != 1 || st.Max != 7 {
		t.Fatalf("after gap: %+v", st)
	}
}

func TestJudge(t *testing.T) {
	perfect := func(n uint64) StreamState {
		var s Stream
		for i := range n {
			s.Receive(i)
		}
		return s.State()
	}
	gap := func() StreamState { // 0,1,3 of 4: 2 lost
		var s Stream
		for _, i := range []uint64{0, 1, 3} {
			s.Receive(i)
		}
		return s.State()
	}
	dup := func() StreamState {
		var s Stream
		for _, i := range []uint64{0, 1, 1, 2} {
			s.Receive(i)
		}
		return s.State()
	}
	ooo := func() StreamState {
		var s Stream
		for _, i := range []uint64{0, 2, 1} {
			s.Receive(i)
		}
		return s.State()
	}
	extra := func() StreamState { // a number never sent
		var s Stream
		for _, i := range []uint64{0, 1, 2, 9} {
			s.Receive(i)
		}
		return s.State()
	}
	cases := []struct {
		name    string
		sent    map[string]uint64
		got     map[string]StreamState
		seqErrs uint64
		check   func(Loss) bool
		ok      bool
	}{
		{"all arrived once in order", map[string]uint64{"a": 100, "b": 3}, map[string]StreamState{"a": perfect(100), "b": perfect(3)}, 0,
			func(l Loss) bool { return l.Sent == 103 && l.Received == 103 }, true},
		{"a gap is a loss", map[string]uint64{"a": 4}, map[string]StreamState{"a": gap()}, 0,
			func(l Loss) bool { return l.Lost == 1 && l.OutOfOrder == 1 }, false},
		{"tail lost", map[string]uint64{"a": 10}, map[string]StreamState{"a": perfect(7)}, 0,
			func(l Loss) bool { return l.Lost == 3 && l.Received == 7 }, false},
		{"nothing arrived", map[string]uint64{"a": 5}, map[string]StreamState{}, 0,
			func(l Loss) bool { return l.Lost == 5 && l.Streams == 1 }, false},
		{"duplicate", map[string]uint64{"a": 3}, map[string]StreamState{"a": dup()}, 0,
			func(l Loss) bool { return l.Duplicates == 1 && l.Lost == 0 }, false},
		{"out of order", map[string]uint64{"a": 3}, map[string]StreamState{"a": ooo()}, 0,
			func(l Loss) bool { return l.OutOfOrder == 1 && l.Lost == 0 }, false},
		{"numbers never sent", map[string]uint64{"a": 3}, map[string]StreamState{"a": extra()}, 0,
			func(l Loss) bool { return l.Unexpected == 1 }, false},
		{"stream nobody sent", map[string]uint64{}, map[string]StreamState{"x": perfect(2)}, 0,
			func(l Loss) bool { return l.Unexpected >= 1 && l.Streams == 1 }, false},
		{"server seq went backwards", map[string]uint64{"a": 2}, map[string]StreamState{"a": perfect(2)}, 1,
			func(l Loss) bool { return l.SeqErrors == 1 }, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := Judge(c.sent, c.got, c.seqErrs)
			if l.OK() != c.ok || !c.check(l) {
				t.Fatalf("%s", l)
			}
			if !c.ok && c.seqErrs == 0 && len(l.Examples) == 0 {
				t.Fatal("a failed judgement names the offending stream")
			}
		})
	}
}

func TestTrackerSeqOrder(t *testing.T) {
	tr := NewTracker()
	tr.Receive("u1/p1.a", 0, "u1/p1", 5)
	tr.Receive("u1/p1.a", 1, "u1/p1", 6)
	tr.Receive("u2/p1.b", 0, "u2/p1", 6) // another receiver: its own order
	tr.Receive("u1/p1.a", 2, "u1/p1", 6) // seq did not rise
	states, seqErr := tr.States()
	if seqErr != 1 {
		t.Fatalf("seq errors %d", seqErr)
	}
	if states["u1/p1.a"].Next != 3 || states["u2/p1.b"].Next != 1 {
		t.Fatalf("%+v", states)
	}
	l := Judge(map[string]uint64{"u1/p1.a": 3, "u2/p1.b": 1}, states, seqErr)
	if l.OK() || l.Lost != 0 || !strings.Contains(l.String(), "seqErrors=1") {
		t.Fatalf("%s", l)
	}
}
