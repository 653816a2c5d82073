package httpapi

// Every request under /files/ goes through Files: it takes the one path
// the request names, refuses it unless it is canonical, and only then
// decides who may read it (chat attachments: chat_files.go; everything
// else — avatars, operator content, demo media — is public).
//
// Why refuse rather than clean: the router, the access check and the file
// system must agree on which file a request names. An encoded slash
// (chat%2F26/x.png) is one segment to a router and two to the file system;
// a dot segment or a doubled slash is cleaned by some layers and not by
// others. kj never hands out such a path, so none of them is needed, and
// refusing them outright leaves nothing to disagree about.
//
// Why 404 and not 400: a refused path names no file, and it gets exactly
// the answer of a file that does not exist, so a probe learns neither
// which files exist nor where the filter draws its line.

import (
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"

	"kj/internal/apierr"
)

// filesPrefix is where uploaded files are served.
const filesPrefix = "/files/"

// UnderFiles reports whether r asks for something under /files/, in any
// spelling the router or the file system could take for it: the node
// hands these to Files before its router cleans or splits the path.
func UnderFiles(r *http.Request) bool {
	p := r.URL.Path
	if !strings.HasPrefix(strings.ToLower(p), "/files") {
		return false
	}
	rest := p[len("/files"):]
	return rest == "" || rest[0] == '/' || rest[0] == '\\'
}

// canonicalFile answers the path under the files directory that r names
// (chat/3f/….png), and false unless the request spelled it canonically:
// no encoded separator (%2F, %5C), no backslash, no control character, no
// empty (doubled slash), "." or ".." segment, in the path as sent or as
// decoded (%2e%2e is "..").
func canonicalFile(r *http.Request) (string, bool) {
	raw := strings.ToLower(r.URL.EscapedPath())
	if strings.Contains(raw, "%2f") || strings.Contains(raw, "%5c") || strings.Contains(raw, `\`) {
		return "", false
	}
	rel, ok := strings.CutPrefix(r.URL.Path, filesPrefix)
	if !ok {
		return "", false
	}
	for _, seg := range strings.Split(rel, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return "", false
		}
		for i := 0; i < len(seg); i++ {
			if c := seg[i]; c < 0x20 || c == 0x7f || c == '\\' {
				return "", false
			}
		}
	}
	// Belt and braces: what the file system will open is what was checked.
	if path.Clean(rel) != rel {
		return "", false
	}
	return rel, true
}

// isChatFile reports whether rel is under the attachments' directory. The
// first segment is compared without case: on a case-insensitive file
// system (macOS, Windows) "Chat/…" opens the attachments' directory too.
func isChatFile(rel string) bool {
	first, _, _ := strings.Cut(rel, "/")
	return strings.EqualFold(first, "chat")
}

// refuseFile answers a refused or missing file: the translated error of
// the request's language, never cached.
func refuseFile(w http.ResponseWriter, r *http.Request, status int, err *apierr.Error) {
	w.Header().Set("Cache-Control", "no-store")
	WriteJSON(w, status, envelope{Code: err.Code, Message: apierr.Translate(negotiateLang(r.Header.Get("Accept-Language")), err.Key, err.Args)})
}

// Files serves everything under /files/ (mounted by the node in front of
// its router): a canonical path to an attachment goes to the attachment
// check, any other canonical path to the public files, anything else is
// the 404 of a missing file. Only GET and HEAD.
func (s *Server) Files() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			refuseFile(w, r, http.StatusMethodNotAllowed, apierr.Fail(apierr.CodeUnsupported, "method.unsupported"))
			return
		}
		rel, ok := canonicalFile(r)
		if !ok {
			refuseFile(w, r, http.StatusNotFound, apierr.NotFound())
			return
		}
		if isChatFile(rel) {
			s.serveChatFile(w, r, rel)
			return
		}
		s.servePublicFile(w, r, rel)
	})
}

// servePublicFile serves the public file at rel (canonical, not an
// attachment): avatars, operator content, demo media. Directories are not
// listed.
func (s *Server) servePublicFile(w http.ResponseWriter, r *http.Request, rel string) {
	f, err := os.Open(filepath.Join(s.Config.DataDir, "files", filepath.FromSlash(rel)))
	if err != nil {
		refuseFile(w, r, http.StatusNotFound, apierr.NotFound())
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		refuseFile(w, r, http.StatusNotFound, apierr.NotFound())
		return
	}
	// The type follows the name's extension, as the uploads chose it.
	http.ServeContent(w, r, path.Base(rel), st.ModTime(), f)
}
