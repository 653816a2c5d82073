package loadtest

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Latencies are recorded in microseconds from 1 µs to 5 minutes with three
// significant digits (0.1 % error), HdrHistogram's usual setting.
const (
	histLowest  = 1
	histHighest = int64(5 * time.Minute / time.Microsecond)
	histDigits  = 3
)

// Histogram is an HDR latency histogram. It is not safe for concurrent use;
// Recorder is.
type Histogram struct {
	h *hdrhistogram.Histogram
}

// NewHistogram returns an empty histogram.
func NewHistogram() *Histogram {
	return &Histogram{h: hdrhistogram.New(histLowest, histHighest, histDigits)}
}

// Record adds one latency. Values outside the range are clamped rather than
// dropped, so a stall still shows up as the maximum.
func (h *Histogram) Record(d time.Duration) {
	us := int64(d / time.Microsecond)
	us = min(max(us, histLowest), histHighest)
	_ = h.h.RecordValue(us)
}

// Merge adds every value of o.
func (h *Histogram) Merge(o *Histogram) {
	if o != nil {
		h.h.Merge(o.h)
	}
}

// Count is the number of values recorded.
func (h *Histogram) Count() int64 { return h.h.TotalCount() }

// Quantile returns the latency at q (0..1); 0 for an empty histogram.
func (h *Histogram) Quantile(q float64) time.Duration {
	if h.h.TotalCount() == 0 {
		return 0
	}
	return time.Duration(h.h.ValueAtQuantile(q*100)) * time.Microsecond
}

// Max is the largest value recorded.
func (h *Histogram) Max() time.Duration {
	if h.h.TotalCount() == 0 {
		return 0
	}
	return time.Duration(h.h.Max()) * time.Microsecond
}

// Latency is a histogram's summary in milliseconds, as results carry it.
type Latency struct {
	Count int64   `json:"count"`
	P50   float64 `json:"p50Ms"`
	P99   float64 `json:"p99Ms"`
	P999  float64 `json:"p999Ms"`
	Max   float64 `json:"maxMs"`
}

// Summary reads the percentiles results report.
func (h *Histogram) Summary() Latency {
	return Latency{Count: h.Count(), P50: ms(h.Quantile(0.5)), P99: ms(h.Quantile(0.99)),
		P999: ms(h.Quantile(0.999)), Max: ms(h.Max())}
}

func (l Latency) String() string {
	return fmt.Sprintf("n=%d p50=%.2fms p99=%.2fms p999=%.2fms max=%.2fms", l.Count, l.P50, l.P99, l.P999, l.Max)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// MarshalJSON writes the compressed HdrHistogram V2 encoding, so generator
// processes can hand whole histograms to the coordinator to merge.
func (h *Histogram) MarshalJSON() ([]byte, error) {
	b, err := h.h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return nil, err
	}
	return json.Marshal(string(b))
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (h *Histogram) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	d, err := hdrhistogram.Decode([]byte(s))
	if err != nil {
		return fmt.Errorf("histogram: %w", err)
	}
	h.h = hdrhistogram.New(histLowest, histHighest, histDigits)
	h.h.Merge(d)
	return nil
}

// Recorder is a Histogram behind a mutex, for many goroutines.
type Recorder struct {
	mu sync.Mutex
	h  *Histogram
}

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder { return &Recorder{h: NewHistogram()} }

// Record adds one latency.
func (r *Recorder) Record(d time.Duration) {
	r.mu.Lock()
	r.h.Record(d)
	r.mu.Unlock()
}

// Snapshot copies the histogram so far.
func (r *Recorder) Snapshot() *Histogram {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := NewHistogram()
	c.Merge(r.h)
	return c
}
