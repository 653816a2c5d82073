package httpapi

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"kj/storage/storagetest"
)

// JSON answers from CompressMinSize up travel gzipped to clients that accept
// it, with Vary; small answers and clients without gzip get plain JSON, and
// every answer reads back to the same envelope.
func TestJSONAnswersAreGzippedAboveTheMinimum(t *testing.T) {
	t.Parallel()
	s, _ := testServer(t, storagetest.SQLite(t))
	long := strings.Repeat("a long name ", 200)
	s.Post("/test/size", Open, func(c *Call) (any, error) {
		var v struct {
			Text string `json:"text"`
		}
		if err := c.Decode(&v); err != nil {
			return nil, err
		}
		return v.Text, nil
	})
	h := s.Handler()
	post := func(text, acceptEncoding string) *httptest.ResponseRecorder {
		body, _ := json.Marshal(map[string]string{"text": text})
		req := httptest.NewRequest(http.MethodPost, "/api/test/size", bytes.NewReader(body))
		if acceptEncoding != "" {
			req.Header.Set("Accept-Encoding", acceptEncoding)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	text := func(t *testing.T, rec *httptest.ResponseRecorder) string {
		t.Helper()
		if cl := rec.Header().Get("Content-Length"); cl != strconv.Itoa(rec.Body.Len()) {
			t.Errorf("Content-Length %q for %d bytes", cl, rec.Body.Len())
		}
		var r io.Reader = rec.Body
		switch rec.Header().Get("Content-Encoding") {
		case "gzip":
			zr, err := gzip.NewReader(rec.Body)
			if err != nil {
				t.Fatal(err)
			}
			r = zr
		case "zstd":
			zr, err := zstd.NewReader(rec.Body)
			if err != nil {
				t.Fatal(err)
			}
			defer zr.Close()
			r = zr
		}
		var env struct {
			Code int    `json:"code"`
			Data string `json:"data"`
		}
		if err := json.NewDecoder(r).Decode(&env); err != nil || env.Code != 0 {
			t.Fatalf("envelope: %v code %d", err, env.Code)
		}
		return env.Data
	}

	big := post(long, "gzip, deflate, br")
	if big.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("a %d-byte answer was sent with Content-Encoding %q", len(long), big.Header().Get("Content-Encoding"))
	}
	if !strings.Contains(big.Header().Get("Vary"), "Accept-Encoding") {
		t.Errorf("Vary %q", big.Header().Get("Vary"))
	}
	if big.Header().Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("Content-Type %q", big.Header().Get("Content-Type"))
	}
	if big.Body.Len() >= len(long)/4 {
		t.Errorf("%d bytes sent for a %d-byte answer", big.Body.Len(), len(long))
	}
	if got := text(t, big); got != long {
		t.Errorf("gzipped answer reads back %d bytes, want %d", len(got), len(long))
	}

	plain := post(long, "")
	if plain.Header().Get("Content-Encoding") != "" || text(t, plain) != long {
		t.Errorf("a client without Accept-Encoding got %q", plain.Header().Get("Content-Encoding"))
	}
	refused := post(long, "gzip;q=0, br")
	if refused.Header().Get("Content-Encoding") != "" || text(t, refused) != long {
		t.Errorf("a client refusing gzip got %q", refused.Header().Get("Content-Encoding"))
	}
	small := post("short", "gzip")
	if small.Header().Get("Content-Encoding") != "" || text(t, small) != "short" {
		t.Errorf("a small answer was sent with Content-Encoding %q", small.Header().Get("Content-Encoding"))
	}
	if cl := small.Header().Get("Content-Length"); cl == "" {
		t.Error("a small plain answer lost its Content-Length")
	}
	for _, rec := range []*httptest.ResponseRecorder{small, plain, refused} {
		if got := rec.Header().Values("Vary"); len(got) != 1 || got[0] != "Accept-Encoding" {
			t.Errorf("an answer sent plain has Vary %q", got)
		}
	}
	// As browsers ask (Chrome: "gzip, deflate, br, zstd"), zstd is taken
	// where the client takes it at least as gladly as gzip, as gzhttp chose.
	for ae, want := range map[string]string{
		"gzip, deflate, br, zstd": "zstd",
		"zstd;q=0.5, gzip":        "gzip",
		"gzip;q=0.5, zstd":        "zstd",
		"zstd;q=0, gzip;q=0.1":    "gzip",
		"zstd, gzip;q=0":          "zstd",
		"ZSTD":                    "zstd",
		"gzip;q=0, zstd;q=0":      "",
		"br, deflate":             "",
	} {
		rec := post(long, ae)
		if got := rec.Header().Get("Content-Encoding"); got != want {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", ae, got, want)
		}
		if got := text(t, rec); got != long {
			t.Errorf("Accept-Encoding %q: reads back %d bytes, want %d", ae, len(got), len(long))
		}
	}
	// An error envelope, large or small, takes the same path.
	bad := post(strings.Repeat("x", MaxBody), "gzip")
	if bad.Header().Get("Vary") != "Accept-Encoding" || bad.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("too large: %d, Vary %q", bad.Code, bad.Header().Get("Vary"))
	}
	// Unknown routes answer through the same wrapper.
	req := httptest.NewRequest(http.MethodPost, "/api/no/such/route", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotFound || rec.Header().Get("Content-Encoding") != "" {
		t.Errorf("unknown route: %d %q", rec.Code, rec.Header().Get("Content-Encoding"))
	}
}
