package window

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"time"

	"kj/internal/bus"
	"kj/storage"
)

// FairnessRounds is how many of a window's newest rounds the players'
// fairness report covers.
const FairnessRounds = 1000

// trendMaxAge bounds how long a cached board is trusted without a draw
// arriving: the bus is at-most-once, so a lost result push must not leave
// a board stale for longer than this.
const trendMaxAge = time.Minute

// trendCache keeps each window's board; a draw's result push extends it
// (FollowResults), so a request costs no store read between draws.
type trendCache struct {
	mu       sync.Mutex
	byWindow map[int64]*trendEntry
}

type trendEntry struct {
	results  []ResultView // oldest first, at most TrendSize
	board    Trend
	loadedAt time.Time
}

// Trend answers a window's trend board, from the cache while it is fresh.
func (s *Rounds) Trend(ctx context.Context, windowID int64) (Trend, error) {
	if _, err := s.window(ctx, windowID); err != nil {
		return Trend{}, err
	}
	now := s.Clock.Now()
	s.trend.mu.Lock()
	defer s.trend.mu.Unlock()
	if e := s.trend.byWindow[windowID]; e != nil && now.Sub(e.loadedAt) < trendMaxAge {
		return e.board, nil
	}
	rs, err := storage.DrawnRounds(ctx, s.DB, windowID, TrendSize, 0)
	if err != nil {
		return Trend{}, err
	}
	results := make([]ResultView, len(rs))
	for i, r := range rs { // newest first from the store
		results[len(rs)-1-i] = ViewResult(r)
	}
	e := &trendEntry{results: results, board: ComputeTrend(windowID, results), loadedAt: now}
	if s.trend.byWindow == nil {
		s.trend.byWindow = map[int64]*trendEntry{}
	}
	s.trend.byWindow[windowID] = e
	return e.board, nil
}

// NoteResult extends a cached board with a round just drawn. A result that
// does not follow the cached newest round (a push was lost, or a day
// began) drops the entry, so the next request reads the store.
func (s *Rounds) NoteResult(r ResultView) {
	s.trend.mu.Lock()
	defer s.trend.mu.Unlock()
	e := s.trend.byWindow[r.WindowID]
	if e == nil {
		return
	}
	if len(e.results) > 0 {
		last := e.results[len(e.results)-1].Issue
		if r.Issue <= last {
			return // already shown (pushes may repeat after a restart)
		}
		if !followsIssue(last, r.Issue) {
			delete(s.trend.byWindow, r.WindowID)
			return
		}
	}
	results := append(e.results, r)
	if len(results) > TrendSize {
		results = append([]ResultView(nil), results[len(results)-TrendSize:]...)
	}
	s.trend.byWindow[r.WindowID] = &trendEntry{results: results, board: ComputeTrend(r.WindowID, results),
		loadedAt: s.Clock.Now()}
}

// followsIssue reports whether b is the round after a on the same day: the
// same date and window, the day's count one more.
func followsIssue(a, b string) bool {
	if len(a) != len(b) || len(a) < 5 || a[:len(a)-5] != b[:len(b)-5] {
		return false
	}
	x, err1 := strconv.Atoi(a[len(a)-5:])
	y, err2 := strconv.Atoi(b[len(b)-5:])
	return err1 == nil && err2 == nil && y == x+1
}

// FollowResults feeds every node's result pushes (round.result, broadcast
// on the bus by whichever node draws) into the trend cache.
func (s *Rounds) FollowResults(b bus.Bus) (bus.Subscription, error) {
	return b.Subscribe(bus.BroadcastSubject, func(_ string, data []byte) {
		var n bus.Notification
		if json.Unmarshal(data, &n) != nil || n.Key != PushResult {
			return
		}
		var r ResultView
		if json.Unmarshal([]byte(n.Data), &r) != nil || r.Issue == "" {
			return
		}
		s.NoteResult(r)
	})
}

// FairnessOf is the players' report: a window's newest FairnessRounds
// rounds, each outcome row naming its newest round to verify.
func (s *Rounds) FairnessOf(ctx context.Context, windowID int64) (Fairness, error) {
	if _, err := s.window(ctx, windowID); err != nil {
		return Fairness{}, err
	}
	rs, err := storage.DrawnRounds(ctx, s.DB, windowID, FairnessRounds, 0)
	if err != nil {
		return Fairness{}, err
	}
	var counts TripleCounts
	latest := map[string]*ResultView{}
	note := func(label string, r storage.Round) {
		if latest[label] == nil { // rounds come newest first
			v := ViewResult(r)
			latest[label] = &v
		}
	}
	for _, r := range rs {
		d := [3]int{r.D0, r.D1, r.D2}
		counts.Add(d)
		o := Outcome{Digits: d, Sum: r.D0 + r.D1 + r.D2}
		l := o.Labels()
		note(string(l[0]), r)
		note(string(l[1]), r)
		note(string(l[0])+" "+string(l[1]), r)
		for _, x := range d {
			note(strconv.Itoa(x), r)
		}
	}
	f := ComputeFairness(&counts)
	for ti := range f.Tests {
		for ri := range f.Tests[ti].Rows {
			f.Tests[ti].Rows[ri].Latest = latest[f.Tests[ti].Rows[ri].Outcome]
		}
	}
	return f, nil
}

// FairnessAll is the operators' report over every drawn round of a window
// (windowID 0: of every window), counted in the store.
func (s *Rounds) FairnessAll(ctx context.Context, windowID int64) (Fairness, error) {
	if windowID != 0 {
		if _, err := storage.RoundWindowByID(ctx, s.DB, windowID); err != nil {
			if errors.Is(err, storage.ErrNotFound) {
				return Fairness{}, ErrUnknownWindow
			}
			return Fairness{}, err
		}
	}
	ts, err := storage.DrawnTripleCounts(ctx, s.DB, windowID)
	if err != nil {
		return Fairness{}, err
	}
	var counts TripleCounts
	for _, t := range ts {
		if t.D0 < 0 || t.D0 > 9 || t.D1 < 0 || t.D1 > 9 || t.D2 < 0 || t.D2 > 9 {
			continue // a drawn round always has digits 0-9
		}
		counts[t.D0*100+t.D1*10+t.D2] += t.Rounds
	}
	return ComputeFairness(&counts), nil
}
