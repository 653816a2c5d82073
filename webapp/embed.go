// Package webapp holds the React source of the mobile web app (src/) and of
// the operator console (admin/), both built by Vite into dist/app, and serves
// the build embedded in the binary.
package webapp

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// dist holds the committed placeholder page and, after `npm run build`, the
// app itself under dist/app.
//
//go:embed all:dist
var dist embed.FS

// Built reports whether the binary carries a built app.
func Built() bool {
	_, err := fs.Stat(dist, "dist/app/index.html")
	return err == nil
}

// Handler serves the app: real files as they are (hashed assets cached for
// a year), any other path gets index.html so the history router can take
// over — admin/index.html (the operator console) for /admin and below.
// Without a build it serves a page saying how to build one.
func Handler() http.Handler {
	if !Built() {
		page, _ := dist.ReadFile("dist/placeholder.html")
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			_, _ = w.Write(page)
		})
	}
	app, _ := fs.Sub(dist, "dist/app")
	return serveBuild(app)
}

// Encodings the build writes beside a file (name.br, name.gz), best first:
// on a tie of the client's q-values the smaller brotli wins.
var encodings = []struct{ name, suffix string }{{"br", ".br"}, {"gzip", ".gz"}}

// variant is one stored representation of a file: the file itself or one of
// its precompressed copies.
type variant struct {
	file     string // path in the build
	encoding string // Content-Encoding; "" for the file as it is
	etag     string
}

// asset is a file of the build with the representations it has.
type asset struct {
	contentType string
	variants    []variant // identity first
}

// serveBuild serves a Vite build: the players' index.html and the console's
// admin/index.html, with the files beside them. Every file is served in the
// best encoding the client accepts among those the build precompressed
// (Accept-Encoding, with Vary), with a strong ETag per representation, so
// conditional and range requests work on each.
func serveBuild(app fs.FS) http.Handler {
	assets := indexBuild(app)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name != "" && name != "index.html" && name != "admin/index.html" {
			if a, ok := assets[name]; ok {
				cache := "no-cache"
				if strings.HasPrefix(name, "assets/") {
					// Vite names these by their content: a new build is a new name.
					cache = "public, max-age=31536000, immutable"
				}
				serveAsset(w, r, app, name, a, cache)
				return
			}
		}
		page := "index.html"
		if name == "admin" || strings.HasPrefix(name, "admin/") {
			if r.URL.Path == "/admin" {
				// The console's relative asset paths and router base need the slash.
				http.Redirect(w, r, "/admin/", http.StatusMovedPermanently)
				return
			}
			page = "admin/index.html"
		}
		a, ok := assets[page]
		if !ok {
			http.NotFound(w, r)
			return
		}
		serveAsset(w, r, app, page, a, "no-cache")
	})
}

// indexBuild finds every file of the build with its precompressed copies
// and hashes each representation once, at start.
func indexBuild(app fs.FS) map[string]asset {
	assets := map[string]asset{}
	_ = fs.WalkDir(app, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || isCompressedCopy(app, name) {
			return nil
		}
		tag, ok := etagOf(app, name, "")
		if !ok {
			return nil
		}
		ctype := mime.TypeByExtension(path.Ext(name))
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		a := asset{contentType: ctype, variants: []variant{{file: name, etag: tag}}}
		for _, enc := range encodings {
			if tag, ok := etagOf(app, name+enc.suffix, enc.name); ok {
				a.variants = append(a.variants, variant{file: name + enc.suffix, encoding: enc.name, etag: tag})
			}
		}
		assets[name] = a
		return nil
	})
	return assets
}

// isCompressedCopy: x.js.br beside x.js is a representation of x.js, never
// a file of its own.
func isCompressedCopy(app fs.FS, name string) bool {
	for _, enc := range encodings {
		if base, ok := strings.CutSuffix(name, enc.suffix); ok {
			if st, err := fs.Stat(app, base); err == nil && !st.IsDir() {
				return true
			}
		}
	}
	return false
}

func etagOf(app fs.FS, name, encoding string) (string, bool) {
	f, err := app.Open(name)
	if err != nil {
		return "", false
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", false
	}
	tag := hex.EncodeToString(h.Sum(nil)[:12])
	if encoding != "" {
		tag += "-" + encoding
	}
	return `"` + tag + `"`, true
}

func serveAsset(w http.ResponseWriter, r *http.Request, app fs.FS, name string, a asset, cache string) {
	v := a.variants[0]
	if len(a.variants) > 1 {
		v = pick(a.variants, r.Header.Get("Accept-Encoding"))
	}
	f, err := app.Open(v.file)
	if err != nil {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	content, seekable := f.(io.ReadSeeker)
	if err != nil || !seekable {
		http.Error(w, "unreadable file", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	if len(a.variants) > 1 {
		// Caches keep one copy per encoding.
		h.Add("Vary", "Accept-Encoding")
	}
	h.Set("Content-Type", a.contentType)
	h.Set("Cache-Control", cache)
	h.Set("ETag", v.etag)
	if v.encoding != "" {
		h.Set("Content-Encoding", v.encoding)
		// ServeContent leaves the length out when an encoding is set (for
		// writers that compress on the fly); these bytes are final.
		h.Set("Content-Length", strconv.FormatInt(st.Size(), 10))
	}
	// Embedded files carry no modification time; the ETag is the validator.
	http.ServeContent(w, r, name, st.ModTime(), content)
}

// pick chooses the representation for an Accept-Encoding header: the
// highest q-value among the encodings there are, brotli before gzip before
// the file as it is on a tie; the file as it is when the client names no
// coding there is. No header, or none acceptable, gets the file as it is.
func pick(vs []variant, header string) variant {
	if strings.TrimSpace(header) == "" {
		return vs[0]
	}
	q := acceptedEncodings(header)
	qOf := func(enc string) float64 {
		if enc == "" {
			enc = "identity"
		}
		if v, ok := q[enc]; ok {
			return v
		}
		if v, ok := q["*"]; ok {
			return v
		}
		if enc == "identity" {
			// Acceptable unless refused by name or by *;q=0, yet below
			// every coding the client names (the smallest qvalue is 0.001).
			return 0.0001
		}
		return 0
	}
	best, bestQ := vs[0], qOf("")
	for _, v := range vs[1:] {
		if vq := qOf(v.encoding); vq > bestQ || (vq == bestQ && vq > 0 && rank(v.encoding) < rank(best.encoding)) {
			best, bestQ = v, vq
		}
	}
	if bestQ <= 0 {
		return vs[0]
	}
	return best
}

func rank(encoding string) int {
	for i, enc := range encodings {
		if enc.name == encoding {
			return i
		}
	}
	return len(encodings)
}

// acceptedEncodings reads "br;q=1.0, gzip;q=0.8, *;q=0" into q-values by
// lower-case coding (x-gzip is gzip); an entry with a malformed q is left out.
func acceptedEncodings(header string) map[string]float64 {
	q := map[string]float64{}
	for part := range strings.SplitSeq(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding == "" {
			continue
		}
		if coding == "x-gzip" {
			coding = "gzip"
		}
		value, ok := 1.0, true
		for param := range strings.SplitSeq(params, ";") {
			k, v, found := strings.Cut(strings.TrimSpace(param), "=")
			if found && strings.EqualFold(strings.TrimSpace(k), "q") {
				value, ok = parseQ(strings.TrimSpace(v))
			}
		}
		if ok {
			q[coding] = value
		}
	}
	return q
}

// parseQ reads a qvalue: 0 to 1 with at most three decimals.
func parseQ(s string) (float64, bool) {
	if s == "" || len(s) > 5 || (s[0] != '0' && s[0] != '1') {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || v > 1 {
		return 0, false
	}
	return v, true
}
