package httpapi

// The disaster-recovery line list: the alternative API hosts a client
// switches to when its host stops answering. The app learns where to ask
// (KJ_LINE_LIST_URLS, named by /getBaseData) while its host still answers,
// and asks there with its combine id once requests keep failing.

import (
	"net/http"
	"strings"

	"kj/internal/apierr"
)

func init() {
	registerArea(func(s *Server) {
		// Plain text, one base URL a line, as code-API addresses answer
		// (an object-storage file can stand in for this route).
		s.mux.HandleFunc("GET /api/lines", s.lines)
	})
}

func (s *Server) lines(w http.ResponseWriter, r *http.Request) {
	if id := r.URL.Query().Get("combineId"); id != s.Config.CombineID {
		lang := negotiateLang(r.Header.Get("Accept-Language"))
		WriteJSON(w, http.StatusNotFound, envelope{Code: apierr.CodeNotFound, Message: apierr.Translate(lang, "not.found", nil)})
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	// A line added or removed reaches clients within a minute.
	w.Header().Set("Cache-Control", "max-age=60")
	var b strings.Builder
	for _, line := range s.Config.APILines {
		b.WriteString(line)
		b.WriteByte('\n')
	}
	_, _ = w.Write([]byte(b.String()))
}
