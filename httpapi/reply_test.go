package httpapi

import (
	"net/http/httptest"
	"testing"

	"kj/internal/apierr"
)

// A successful answer, written from its ready-made envelope opening, is
// byte for byte what encoding the whole envelope writes, in every language
// and for every kind of data.
func TestWriteOKMatchesTheEnvelope(t *testing.T) {
	t.Parallel()
	datas := []any{nil, benchAmount, []int{}, map[string]any{"a": "<b>&", "n": 1}, "x\u2028y", struct{}{}}
	for _, lang := range append([]string{"", "xx-YY"}, apierr.Langs...) {
		for _, d := range datas {
			got, want := httptest.NewRecorder(), httptest.NewRecorder()
			writeOK(got, nil, lang, d)
			WriteJSON(want, 200, envelope{Code: apierr.CodeOK, Message: apierr.Translate(lang, "ok", nil), Data: d})
			if got.Body.String() != want.Body.String() || got.Code != want.Code ||
				got.Header().Get("Content-Length") != want.Header().Get("Content-Length") {
				t.Fatalf("%q %v: %d %q, want %d %q", lang, d, got.Code, got.Body, want.Code, want.Body)
			}
		}
	}
}
