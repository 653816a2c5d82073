package storage

import (
	"bytes"
	"testing"

	"github.com/jackc/pgx/v5/pgproto3"
)

// The send buffer wireReserve gives the frontend goes back to its pool
// only once the frontend no longer holds it: pgproto3 keeps a buffer of
// at most 1 KB after a flush (and one whose flush failed), and the pool
// must then not hand it to another batch while the connection writes its
// next messages into it.
func TestWireReserveReclaimsOnlyWhatTheFrontendDropped(t *testing.T) {
	for _, tc := range []struct {
		name     string
		payload  int
		reclaim  bool
		flushErr bool
	}{
		{"large batch: the frontend drops it at the flush", 4 << 10, true, false},
		{"small batch: the frontend keeps it", 100, false, false},
		{"not flushed: still the frontend's", 4 << 10, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			f := pgproto3.NewFrontend(bytes.NewReader(nil), &out)
			var w wireArgs
			w.reserve = wireReserve{n: tc.payload + 64}
			f.Send(&w.reserve)
			p := w.reserve.buf
			if p == nil {
				t.Fatal("the reserve did not give the frontend a pooled buffer")
			}
			f.Send(&pgproto3.Query{String: string(make([]byte, tc.payload))})
			if !tc.flushErr {
				if err := f.Flush(); err != nil {
					t.Fatal(err)
				}
			}
			// Whatever the frontend holds now is what the probe is shown.
			w.probe = wireProbe{buf: *p}
			f.Send(&w.probe)
			held := w.probe.held
			if !w.probe.called {
				t.Fatal("the probe was not called")
			}
			if held == tc.reclaim {
				t.Fatalf("probe says held=%v, want %v", held, !tc.reclaim)
			}
			w.probe = wireProbe{}
			// And reclaim decides the same.
			w.reserve.buf = p
			if got := w.reclaim(f); got != tc.reclaim {
				t.Fatalf("reclaimed %v, want %v", got, tc.reclaim)
			}
			if w.reserve.buf != nil {
				t.Fatal("reclaim left the buffer in the reserve")
			}
		})
	}
}

func TestOverlap(t *testing.T) {
	b := make([]byte, 10, 100)
	if !overlap(b, b[5:7]) || !overlap(b[:0], b[99:100]) || overlap(b, make([]byte, 10)) || overlap(nil, b) {
		t.Fatal("overlap is wrong")
	}
}
