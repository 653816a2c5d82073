// Package webapp holds the React source of the mobile web app (src/, built
// by Vite into dist/app) and serves the build embedded in the binary.
package webapp

import (
	"embed"
	"io/fs"
	"net/http"
	"path"
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
// over. Without a build it serves a page saying how to build one.
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
	index, _ := fs.ReadFile(app, "index.html")
	files := http.FileServerFS(app)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name != "" && name != "index.html" {
			if st, err := fs.Stat(app, name); err == nil && !st.IsDir() {
				if strings.HasPrefix(name, "assets/") {
					w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
				}
				files.ServeHTTP(w, r)
				return
			}
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(index)
	})
}
