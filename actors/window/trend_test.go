package window

import (
	"fmt"
	"testing"
	"time"

	"kj/internal/clock"
)

// results makes rounds of window 1 with the given sums, issues counting
// from 1.
func results(sums ...int) []ResultView {
	out := make([]ResultView, len(sums))
	for i, s := range sums {
		out[i] = ResultView{WindowID: 1, Issue: fmt.Sprintf("20260301000100%03d", i+1), Sum: s}
	}
	return out
}

func cells(b TrendBoard, road bool) string {
	list := b.Bead
	if road {
		list = b.Road
	}
	s := ""
	for _, c := range list {
		s += fmt.Sprintf("%c%d,%d ", c.Value[0], c.Col, c.Row)
	}
	return s
}

func TestTrendOfAShortSequence(t *testing.T) {
	// BIG BIG BIG SMALL SMALL BIG; sums 20 even, 1 odd.
	tr := ComputeTrend(1, results(20, 20, 20, 1, 1, 20, 3))
	if tr.Rounds != 7 || tr.LatestIssue != "20260301000100007" || len(tr.Boards) != 2 {
		t.Fatalf("trend %+v", tr)
	}
	size, parity := tr.Boards[0], tr.Boards[1]
	if size.Kind != "size" || parity.Kind != "parity" {
		t.Fatalf("boards %s %s", size.Kind, parity.Kind)
	}
	if got, want := cells(size, false), "B0,0 B0,1 B0,2 S0,3 S0,4 B0,5 S1,0 "; got != want {
		t.Errorf("size bead %q, want %q", got, want)
	}
	if got, want := cells(size, true), "B0,0 B0,1 B0,2 S1,0 S1,1 B2,0 S3,0 "; got != want {
		t.Errorf("size road %q, want %q", got, want)
	}
	if size.BeadColumns != 2 || size.RoadColumns != 4 {
		t.Errorf("columns bead %d road %d", size.BeadColumns, size.RoadColumns)
	}
	if size.Counts[Big] != 4 || size.Counts[Small] != 3 {
		t.Errorf("counts %v", size.Counts)
	}
	if l := size.Longest[Big]; l.Length != 3 || l.From != "20260301000100001" {
		t.Errorf("longest BIG %+v", l)
	}
	if l := size.Longest[Small]; l.Length != 2 || l.From != "20260301000100004" {
		t.Errorf("longest SMALL %+v", l)
	}
	if size.Current == nil || size.Current.Value != Small || size.Current.Length != 1 {
		t.Errorf("current %+v", size.Current)
	}
	// Parity: D D D S S D S.
	if got, want := cells(parity, true), "D0,0 D0,1 D0,2 S1,0 S1,1 D2,0 S3,0 "; got != want {
		t.Errorf("parity road %q, want %q", got, want)
	}
	if parity.Counts[Double] != 4 || parity.Counts[Single] != 3 {
		t.Errorf("parity counts %v", parity.Counts)
	}
}

// A streak longer than a column turns right along its last free row, and
// the next streak's tail turns where the previous tail blocks it.
func TestTrendDragonTails(t *testing.T) {
	sums := []int{}
	for i := 0; i < 8; i++ {
		sums = append(sums, 20) // BIG ×8
	}
	for i := 0; i < 7; i++ {
		sums = append(sums, 2) // SMALL ×7
	}
	sums = append(sums, 20)
	size := ComputeTrend(1, results(sums...)).Boards[0]
	want := "B0,0 B0,1 B0,2 B0,3 B0,4 B0,5 B1,5 B2,5 " +
		"S1,0 S1,1 S1,2 S1,3 S1,4 S2,4 S3,4 " +
		"B2,0 "
	if got := cells(size, true); got != want {
		t.Errorf("road\n got %q\nwant %q", got, want)
	}
	if size.Longest[Big].Length != 8 || size.Longest[Small].Length != 7 {
		t.Errorf("longest %+v", size.Longest)
	}
}

func TestTrendKeepsTheNewestHundred(t *testing.T) {
	sums := make([]int, 130)
	for i := range sums {
		sums[i] = i % 28
	}
	tr := ComputeTrend(1, results(sums...))
	if tr.Rounds != TrendSize || tr.Results[0].Issue != "20260301000100031" || tr.LatestIssue != "20260301000100130" {
		t.Fatalf("rounds %d first %s latest %s", tr.Rounds, tr.Results[0].Issue, tr.LatestIssue)
	}
	b := tr.Boards[0]
	if len(b.Bead) != 100 || b.BeadColumns != 17 || b.Counts[Big]+b.Counts[Small] != 100 {
		t.Errorf("bead %d columns %d counts %v", len(b.Bead), b.BeadColumns, b.Counts)
	}
}

func TestTrendEmpty(t *testing.T) {
	tr := ComputeTrend(3, nil)
	if tr.Rounds != 0 || tr.LatestIssue != "" || tr.Boards[0].Current != nil || len(tr.Boards[0].Road) != 0 {
		t.Errorf("%+v", tr)
	}
}

// A draw extends a cached board; a gap (a lost push) drops it so the next
// request reads the store; a repeated push changes nothing.
func TestTrendCacheFollowsDraws(t *testing.T) {
	s := &Rounds{Clock: clock.NewFake(time.UnixMilli(1_700_000_000_000))}
	all := results(20, 1, 20, 20)
	s.trend.byWindow = map[int64]*trendEntry{1: {results: all[:2], board: ComputeTrend(1, all[:2])}}
	s.NoteResult(all[2])
	e := s.trend.byWindow[1]
	if e == nil || e.board.Rounds != 3 || e.board.LatestIssue != all[2].Issue {
		t.Fatalf("after the next draw: %+v", e)
	}
	s.NoteResult(all[2])
	if s.trend.byWindow[1].board.Rounds != 3 {
		t.Fatalf("a repeated push changed the board")
	}
	s.NoteResult(ResultView{WindowID: 1, Issue: "20260301000100009", Sum: 3})
	if s.trend.byWindow[1] != nil {
		t.Fatalf("a gap kept the stale board")
	}
	s.NoteResult(all[3]) // no entry: nothing to extend
	if s.trend.byWindow[1] != nil {
		t.Fatalf("a push made a board without the store")
	}
}
