package metrics

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// TestRegisteredWithTheDefaultRegistry: what the constructors make is
// served by /metrics (the default gatherer) with its name, help, labels
// and buckets.
func TestRegisteredWithTheDefaultRegistry(t *testing.T) {
	Histogram("kj_test_histogram_seconds", "a histogram", DurationBuckets).Observe(0.003)
	Counter("kj_test_counter_total", "a counter").Inc()
	CounterVec("kj_test_countervec_total", "a labelled counter", "outcome").WithLabelValues("written").Add(2)
	GaugeVec("kj_test_gaugevec", "a labelled gauge", "shard").WithLabelValues("0").Set(5)

	families, err := prometheus.DefaultGatherer.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*dto.MetricFamily{}
	for _, f := range families {
		got[f.GetName()] = f
	}
	h := got["kj_test_histogram_seconds"]
	if h == nil || h.GetHelp() != "a histogram" || len(h.Metric[0].GetHistogram().GetBucket()) != len(DurationBuckets) ||
		h.Metric[0].GetHistogram().GetSampleCount() != 1 {
		t.Fatalf("histogram: %v", h)
	}
	if c := got["kj_test_counter_total"]; c == nil || c.Metric[0].GetCounter().GetValue() != 1 {
		t.Fatalf("counter: %v", c)
	}
	cv := got["kj_test_countervec_total"]
	if cv == nil || cv.Metric[0].GetLabel()[0].GetName() != "outcome" || cv.Metric[0].GetCounter().GetValue() != 2 {
		t.Fatalf("counter vec: %v", cv)
	}
	gv := got["kj_test_gaugevec"]
	if gv == nil || gv.Metric[0].GetLabel()[0].GetValue() != "0" || gv.Metric[0].GetGauge().GetValue() != 5 {
		t.Fatalf("gauge vec: %v", gv)
	}
}
