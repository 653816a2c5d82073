package loadtest

import (
	"encoding/json"
	"math"
	"sync"
	"testing"
	"time"
)

func TestHistogramPercentiles(t *testing.T) {
	h := NewHistogram()
	// 1..10000 µs: the p-th percentile is p·100 µs.
	for i := 1; i <= 10000; i++ {
		h.Record(time.Duration(i) * time.Microsecond)
	}
	if h.Count() != 10000 {
		t.Fatalf("count %d", h.Count())
	}
	for q, want := range map[float64]time.Duration{0.5: 5 * time.Millisecond, 0.99: 9900 * time.Microsecond, 0.999: 9990 * time.Microsecond, 1: 10 * time.Millisecond} {
		got := h.Quantile(q)
		if math.Abs(float64(got-want))/float64(want) > 0.001 {
			t.Errorf("q%.3f = %v, want %v within 0.1%%", q, got, want)
		}
	}
	s := h.Summary()
	if s.Count != 10000 || math.Abs(s.P99-9.9) > 0.01 || math.Abs(s.Max-10) > 0.01 {
		t.Errorf("summary %+v", s)
	}
}

func TestHistogramClampsAndEmpty(t *testing.T) {
	h := NewHistogram()
	if h.Quantile(0.99) != 0 || h.Max() != 0 || h.Summary().Count != 0 {
		t.Fatal("empty histogram should read zero")
	}
	h.Record(-time.Second)   // a clock step backwards: counted as the smallest value
	h.Record(time.Hour * 24) // a stall beyond the range: counted as the largest
	if h.Count() != 2 {
		t.Fatalf("clamped values dropped: %d", h.Count())
	}
	if h.Max() < 4*time.Minute {
		t.Fatalf("a stall must show as the maximum, got %v", h.Max())
	}
}

func TestHistogramMergeAndJSON(t *testing.T) {
	a, b := NewHistogram(), NewHistogram()
	for i := range 1000 {
		a.Record(time.Millisecond)
		if i < 10 {
			b.Record(time.Second)
		}
	}
	raw, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	var back Histogram
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if back.Count() != 10 || back.Max() < 999*time.Millisecond {
		t.Fatalf("round trip: count %d max %v", back.Count(), back.Max())
	}
	a.Merge(&back)
	if a.Count() != 1010 {
		t.Fatalf("merged count %d", a.Count())
	}
	// 1 % of values are 1 s: p99 is still 1 ms, p99.9 is 1 s.
	if p := a.Quantile(0.99); p > 2*time.Millisecond {
		t.Errorf("p99 %v", p)
	}
	if p := a.Quantile(0.999); p < 900*time.Millisecond {
		t.Errorf("p99.9 %v", p)
	}
	var bad Histogram
	if err := json.Unmarshal([]byte(`"not a histogram"`), &bad); err == nil {
		t.Error("garbage decoded as a histogram")
	}
}

func TestRecorderConcurrent(t *testing.T) {
	r := NewRecorder()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 1000 {
				r.Record(time.Duration(g*1000+i) * time.Microsecond)
			}
		}()
	}
	wg.Wait()
	if n := r.Snapshot().Count(); n != 8000 {
		t.Fatalf("count %d", n)
	}
}
