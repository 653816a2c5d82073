package engine

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestProfileHandler(t *testing.T) {
	h := profileHandler()
	for path, want := range map[string]string{
		"/debug/pprof/":                  "goroutine",
		"/debug/pprof/goroutine?debug=1": "goroutine profile",
		"/debug/pprof/mutex?debug=1":     "mutex",
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("%s: %d %.200s", path, rec.Code, rec.Body.String())
		}
	}
}
