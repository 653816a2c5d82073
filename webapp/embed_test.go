package webapp

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"
)

// The players' routes get the app's page, /admin and below the console's own
// page (the history router takes over there), and real files stay files.
func TestServeBuildGivesTheConsoleItsOwnPage(t *testing.T) {
	h := serveBuild(fstest.MapFS{
		"index.html":       {Data: []byte("players")},
		"admin/index.html": {Data: []byte("console")},
		"assets/admin.js":  {Data: []byte("js")},
	})
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec
	}
	for path, want := range map[string]string{
		"/": "players", "/pages/mine": "players", "/administrator": "players",
		"/admin/": "console", "/admin/login": "console", "/admin/users/42": "console", "/admin/recharges?x=1": "console",
		"/assets/admin.js": "js",
	} {
		if rec := get(path); rec.Code != http.StatusOK || rec.Body.String() != want {
			t.Errorf("%s: %d %q, want %q", path, rec.Code, rec.Body.String(), want)
		}
	}
	if rec := get("/admin"); rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "/admin/" {
		t.Errorf("/admin: %d %q, want a redirect to /admin/", rec.Code, rec.Header().Get("Location"))
	}
}

// A build as the precompress step leaves it: each text file beside its .br
// and .gz copies, pictures as they are.
func compressedBuild(t *testing.T) (fstest.MapFS, []byte) {
	t.Helper()
	js := bytes.Repeat([]byte("export const answer = 42; // the app's code\n"), 200)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(js)
	_ = zw.Close()
	var br bytes.Buffer
	bw := brotli.NewWriter(&br)
	_, _ = bw.Write(js)
	_ = bw.Close()
	return fstest.MapFS{
		"index.html":             {Data: []byte("<!doctype html><title>players</title>")},
		"assets/index-abc.js":    {Data: js},
		"assets/index-abc.js.gz": {Data: gz.Bytes()},
		"assets/index-abc.js.br": {Data: br.Bytes()},
		"icons/icon-192.png":     {Data: []byte("\x89PNG not really")},
		"sw.js":                  {Data: []byte("self.x = 1")},
	}, js
}

func getWith(h http.Handler, target string, headers map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, target, nil)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func decoded(t *testing.T, rec *httptest.ResponseRecorder) []byte {
	t.Helper()
	var r io.Reader = rec.Body
	switch enc := rec.Header().Get("Content-Encoding"); enc {
	case "br":
		r = brotli.NewReader(rec.Body)
	case "gzip":
		zr, err := gzip.NewReader(rec.Body)
		if err != nil {
			t.Fatalf("gzip body: %v", err)
		}
		r = zr
	case "":
	default:
		t.Fatalf("unexpected Content-Encoding %q", enc)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s body: %v", rec.Header().Get("Content-Encoding"), err)
	}
	return b
}

// The client's Accept-Encoding picks the precompressed copy, q-values
// included, and every answer decodes to the file itself.
func TestServeBuildNegotiatesPrecompressedCopies(t *testing.T) {
	build, js := compressedBuild(t)
	h := serveBuild(build)
	for _, tc := range []struct{ accept, want string }{
		{"gzip, deflate, br, zstd", "br"},
		{"br", "br"},
		{"gzip", "gzip"},
		{"x-gzip", "gzip"},
		{"", ""},
		{"identity", ""},
		{"deflate", ""},
		{"br;q=0.5, gzip;q=0.9", "gzip"},
		{"br;q=0, gzip", "gzip"},
		{"gzip;q=0.8, br;q=0.8", "br"},
		{"*", "br"},
		{"*;q=0.5, br;q=0", "gzip"},
		{"br;q=0.2, identity;q=0.9", ""},
		{"BR;Q=1", "br"},
		{"br;q=2, gzip;q=0.1", "gzip"}, // a malformed q leaves the entry out
		{"br;q=0, gzip;q=0, identity;q=0", ""},
	} {
		rec := getWith(h, "/assets/index-abc.js", map[string]string{"Accept-Encoding": tc.accept})
		if rec.Code != http.StatusOK {
			t.Fatalf("%q: status %d", tc.accept, rec.Code)
		}
		if got := rec.Header().Get("Content-Encoding"); got != tc.want {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", tc.accept, got, tc.want)
		}
		if got := rec.Header().Get("Vary"); got != "Accept-Encoding" {
			t.Errorf("%q: Vary %q", tc.accept, got)
		}
		if got := rec.Header().Get("Content-Type"); got != "text/javascript; charset=utf-8" {
			t.Errorf("%q: Content-Type %q", tc.accept, got)
		}
		if got := rec.Header().Get("Cache-Control"); got != "public, max-age=31536000, immutable" {
			t.Errorf("%q: Cache-Control %q", tc.accept, got)
		}
		if cl := rec.Header().Get("Content-Length"); cl != strconv.Itoa(rec.Body.Len()) {
			t.Errorf("%q: Content-Length %q for %d bytes", tc.accept, cl, rec.Body.Len())
		}
		if tc.want != "" && rec.Body.Len() >= len(js) {
			t.Errorf("%q: %d bytes sent for a %d-byte file", tc.accept, rec.Body.Len(), len(js))
		}
		if body := decoded(t, rec); !bytes.Equal(body, js) {
			t.Errorf("%q: body decodes to %d bytes, not the file", tc.accept, len(body))
		}
	}
}

// Each representation has its own strong ETag: a revalidation answers 304
// for the copy the client holds and the whole other copy otherwise.
func TestServeBuildETagPerEncoding(t *testing.T) {
	build, _ := compressedBuild(t)
	h := serveBuild(build)
	tags := map[string]string{}
	for _, enc := range []string{"br", "gzip", "identity"} {
		rec := getWith(h, "/assets/index-abc.js", map[string]string{"Accept-Encoding": enc})
		tag := rec.Header().Get("ETag")
		if !strings.HasPrefix(tag, `"`) || tags[tag] != "" {
			t.Fatalf("%s: ETag %q (seen for %q)", enc, tag, tags[tag])
		}
		tags[tag] = enc
		again := getWith(h, "/assets/index-abc.js", map[string]string{"Accept-Encoding": enc, "If-None-Match": tag})
		if again.Code != http.StatusNotModified || again.Body.Len() != 0 {
			t.Errorf("%s: revalidation %d with %d bytes, want 304", enc, again.Code, again.Body.Len())
		}
	}
	for tag, enc := range tags {
		if enc == "br" {
			continue
		}
		rec := getWith(h, "/assets/index-abc.js", map[string]string{"Accept-Encoding": "br", "If-None-Match": tag})
		if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "br" {
			t.Errorf("br client holding the %s copy: %d %q, want the br copy", enc, rec.Code, rec.Header().Get("Content-Encoding"))
		}
	}
}

// Ranges address the bytes of the representation sent, and a range of the
// plain file is the file's own bytes.
func TestServeBuildRanges(t *testing.T) {
	build, js := compressedBuild(t)
	h := serveBuild(build)
	rec := getWith(h, "/assets/index-abc.js", map[string]string{"Range": "bytes=10-19"})
	if rec.Code != http.StatusPartialContent || rec.Body.String() != string(js[10:20]) {
		t.Fatalf("identity range: %d %q", rec.Code, rec.Body.String())
	}
	if cr := rec.Header().Get("Content-Range"); cr != "bytes 10-19/"+strconv.Itoa(len(js)) {
		t.Errorf("Content-Range %q", cr)
	}
	brCopy := build["assets/index-abc.js.br"].Data
	rec = getWith(h, "/assets/index-abc.js", map[string]string{"Range": "bytes=0-3", "Accept-Encoding": "br"})
	if rec.Code != http.StatusPartialContent || rec.Header().Get("Content-Encoding") != "br" || !bytes.Equal(rec.Body.Bytes(), brCopy[:4]) {
		t.Fatalf("br range: %d %q %x", rec.Code, rec.Header().Get("Content-Encoding"), rec.Body.Bytes())
	}
	if cl := rec.Header().Get("Content-Length"); cl != "4" {
		t.Errorf("br range Content-Length %q", cl)
	}
	rec = getWith(h, "/assets/index-abc.js", map[string]string{"Range": "bytes=999999-", "Accept-Encoding": "gzip"})
	if rec.Code != http.StatusRequestedRangeNotSatisfiable || rec.Header().Get("Content-Encoding") != "" {
		t.Errorf("unsatisfiable range: %d with Content-Encoding %q", rec.Code, rec.Header().Get("Content-Encoding"))
	}
}

// The page itself is revalidated on every visit, files outside assets/ are
// revalidated too, and the compressed copies are no files of their own.
func TestServeBuildCachingAndHiddenCopies(t *testing.T) {
	build, _ := compressedBuild(t)
	h := serveBuild(build)
	for path, want := range map[string]string{
		"/": "no-cache", "/pages/tabBar/find": "no-cache", "/sw.js": "no-cache", "/icons/icon-192.png": "no-cache",
		"/assets/index-abc.js": "public, max-age=31536000, immutable",
	} {
		rec := getWith(h, path, map[string]string{"Accept-Encoding": "br, gzip"})
		if rec.Code != http.StatusOK || rec.Header().Get("Cache-Control") != want || rec.Header().Get("ETag") == "" {
			t.Errorf("%s: %d Cache-Control %q ETag %q, want %q", path, rec.Code, rec.Header().Get("Cache-Control"), rec.Header().Get("ETag"), want)
		}
	}
	page := getWith(h, "/pages/mine", nil)
	if page.Header().Get("Content-Type") != "text/html; charset=utf-8" || !strings.Contains(page.Body.String(), "players") {
		t.Errorf("history route: %q %q", page.Header().Get("Content-Type"), page.Body.String())
	}
	png := getWith(h, "/icons/icon-192.png", map[string]string{"Accept-Encoding": "br, gzip"})
	if png.Header().Get("Content-Type") != "image/png" || png.Header().Get("Content-Encoding") != "" || png.Header().Get("Vary") != "" {
		t.Errorf("picture without copies: %q %q Vary %q", png.Header().Get("Content-Type"), png.Header().Get("Content-Encoding"), png.Header().Get("Vary"))
	}
	copyOf := getWith(h, "/assets/index-abc.js.br", nil)
	if copyOf.Header().Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("a compressed copy was served as a file: %q", copyOf.Header().Get("Content-Type"))
	}
	head := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodHead, "/assets/index-abc.js", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	h.ServeHTTP(head, req)
	if head.Code != http.StatusOK || head.Body.Len() != 0 || head.Header().Get("Content-Encoding") != "gzip" {
		t.Errorf("HEAD: %d, %d bytes, %q", head.Code, head.Body.Len(), head.Header().Get("Content-Encoding"))
	}
}
