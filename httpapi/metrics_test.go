package httpapi

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"

	"kj/internal/apierr"
	"kj/storage/storagetest"
)

// Each answer counts once in kj_http_requests_total under its route and
// code label, refusals (their series looked up once per code) as successes.
func TestRequestsAreCountedByRouteAndCode(t *testing.T) {
	t.Parallel()
	s, _ := testServer(t, storagetest.SQLite(t))
	s.Post("/test/metrics", Open, func(c *Call) (any, error) {
		var v struct {
			Fail int `json:"fail"`
		}
		if err := c.Decode(&v); err != nil {
			return nil, err
		}
		if v.Fail != 0 {
			return nil, apierr.Fail(v.Fail, "bad.request")
		}
		return "ok", nil
	})
	h := s.Handler()
	count := func(label string) float64 {
		var m dto.Metric
		if err := httpRequests.WithLabelValues("/test/metrics", label).Write(&m); err != nil {
			t.Fatal(err)
		}
		return m.GetCounter().GetValue()
	}
	before := map[string]float64{"0": count("0"), "1400s": count("1400s"), "1300s": count("1300s"), "401": count("401")}
	for _, body := range []string{`{}`, `{"fail":1408}`, `{"fail":1408}`, `{"fail":1401}`, `{"fail":1301}`, `{"fail":401}`, `{}`} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/api/test/metrics", strings.NewReader(body)))
	}
	for label, want := range map[string]float64{"0": 2, "1400s": 3, "1300s": 1, "401": 1} {
		if got := count(label) - before[label]; got != want {
			t.Errorf("code %s counted %v times, want %v", label, got, want)
		}
	}
}
