package httpapi

// Chat attachments (/files/chat/...) are served to the conversation's
// members only; avatars, group avatars and operator content stay public
// under /files/.
//
// Why signed links and not a cookie: browsers load <img>, <video> and
// <audio> without an Authorization header, and the app may load files from
// another host than the page's (a backup line of KJ_API_LINES, the
// operator's files base), where a cookie set by this host is not sent. A
// link signed for one user (HMAC-SHA256 over path, user and expiry, keys
// from KJ_MEDIA_SECRETS or the database) works on every node and host,
// needs no CSRF defence, and a link copied out of the app, or kept by a
// reader who signed out, dies within ten minutes. Messages keep storing
// the bare /files/chat/... path, so no stored content carries a
// credential; the app asks /chat/fileURLs for links when it shows a
// message, and other clients may instead fetch the bare path with their
// session token (header token or Bearer).
//
// The signature proves who asks; whether they may still read is decided
// at each fetch from the store (storage.ChatFileReadable), so a member
// removed from a group is refused at once, not when the link expires.
// Refusals do not tell whether a file exists: no or a bad credential is
// 403 for every path, a valid one for a file the user may not read is the
// same 404 as for a file that does not exist.

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"kj/auth"
	"kj/internal/apierr"
	"kj/storage"
)

// mediaLinkPeriod: a link is valid until the end of the period after the
// one it was signed in: more than one period, at most two (10 minutes), so
// a link outlives its reader's session by ten minutes at most. Signing
// again within a period answers the same link, so browsers' caches keep
// hitting; the app asks again before a link expires (expiresIn).
const mediaLinkPeriod = 5 * time.Minute

// maxFileURLs caps the paths signed in one /chat/fileURLs call.
const maxFileURLs = 200

func init() {
	registerArea(func(s *Server) {
		s.Post("/chat/fileURLs", User, s.chatFileURLs)
	})
}

// mediaKeys holds the keys signing attachment links, loaded once.
type mediaKeys struct {
	mu   sync.Mutex
	keys [][]byte
}

// mediaKeys answers the signing keys: KJ_MEDIA_SECRETS, else the one kept
// in the database (made by the first node that needs it).
func (s *Server) mediaKeys(ctx context.Context) ([][]byte, error) {
	mk := &s.media
	mk.mu.Lock()
	defer mk.mu.Unlock()
	if mk.keys != nil {
		return mk.keys, nil
	}
	if len(s.Config.MediaSecrets) > 0 {
		for _, k := range s.Config.MediaSecrets {
			mk.keys = append(mk.keys, []byte(k))
		}
		return mk.keys, nil
	}
	secret, err := storage.MediaSecret(ctx, s.DB, auth.NewSecret())
	if err != nil {
		return nil, err
	}
	mk.keys = [][]byte{[]byte(secret)}
	return mk.keys, nil
}

func mediaSignature(key []byte, rel string, user, exp int64) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("kj-media\x00" + rel + "\x00" + strconv.FormatInt(user, 10) + "\x00" + strconv.FormatInt(exp, 10)))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:18])
}

// mediaLinkExpiry is when a link signed at now expires: the end of the
// period after now's.
func mediaLinkExpiry(now time.Time) int64 {
	period := int64(mediaLinkPeriod / time.Second)
	return (now.Unix()/period + 2) * period
}

// signChatFile answers the link to /files/<rel> for user, valid until exp
// (mediaLinkExpiry).
func (s *Server) signChatFile(ctx context.Context, rel string, user, exp int64) (string, error) {
	keys, err := s.mediaKeys(ctx)
	if err != nil {
		return "", err
	}
	q := url.Values{"u": {strconv.FormatInt(user, 10)}, "e": {strconv.FormatInt(exp, 10)}, "s": {mediaSignature(keys[0], rel, user, exp)}}
	return "/files/" + rel + "?" + q.Encode(), nil
}

// errMediaExpired: a genuine signature past its expiry.
var errMediaExpired = errors.New("media link expired")

// checkMediaSignature answers the user a link was signed for.
func (s *Server) checkMediaSignature(ctx context.Context, rel string, q url.Values) (int64, error) {
	user, err1 := strconv.ParseInt(q.Get("u"), 10, 64)
	exp, err2 := strconv.ParseInt(q.Get("e"), 10, 64)
	if err1 != nil || err2 != nil || user <= 0 {
		return 0, auth.ErrNoToken
	}
	keys, err := s.mediaKeys(ctx)
	if err != nil {
		return 0, err
	}
	got := []byte(q.Get("s"))
	for _, k := range keys {
		if hmac.Equal(got, []byte(mediaSignature(k, rel, user, exp))) {
			if s.Clock.Now().Unix() >= exp {
				return 0, errMediaExpired
			}
			return user, nil
		}
	}
	return 0, auth.ErrNoToken
}

// chatFileRel answers the path under the files directory of an attachment
// reference: /files/chat/..., or an absolute URL with that path (messages
// may carry either), without any query.
func chatFileRel(ref string) (string, bool) {
	u, err := url.Parse(ref)
	if err != nil {
		return "", false
	}
	rel, ok := strings.CutPrefix(u.Path, "/files/")
	if !ok || !strings.HasPrefix(rel, "chat/") || path.Clean(rel) != rel {
		return "", false
	}
	return rel, true
}

// chatFileReader is the user as a reader of attachments: operators who
// answer customer service (admins and agents) also read its pictures.
func (s *Server) chatFileReader(ctx context.Context, userID int64) (storage.ChatFileReader, error) {
	r := storage.ChatFileReader{UserID: userID}
	role, err := storage.OperatorRole(ctx, s.DB, userID)
	switch {
	case err == nil:
		r.Agent = role == storage.OperatorAdmin || role == storage.OperatorAgent
	case !errors.Is(err, storage.ErrNotFound):
		return r, err
	}
	return r, nil
}

// readableChatFile answers the upload at rel when reader may fetch it, and
// storage.ErrNotFound both when there is none and when it is not theirs.
func (s *Server) readableChatFile(ctx context.Context, rel string, reader storage.ChatFileReader) (storage.ChatFile, error) {
	f, err := storage.ChatFileByPath(ctx, s.DB, rel)
	if err != nil {
		return f, err
	}
	ok, err := storage.ChatFileReadable(ctx, s.DB, f, reader)
	if err != nil {
		return f, err
	}
	if !ok {
		return f, storage.ErrNotFound
	}
	return f, nil
}

// chatFileURLs signs links for the attachments the caller may read: body
// {"urls": [...]} of stored references, answer {"urls": {ref: link},
// "expiresIn": seconds}. Every link of one answer expires together;
// expiresIn counts by the server's clock, so a client whose clock is off
// still renews them in time. References the caller may not read, or that
// are not attachments, are left out (the app shows them as unavailable).
func (s *Server) chatFileURLs(c *Call) (any, error) {
	var req struct {
		URLs []string `json:"urls"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if len(req.URLs) > maxFileURLs {
		return nil, apierr.Invalid("urls")
	}
	reader, err := s.chatFileReader(c.Ctx, c.User.ID)
	if err != nil {
		return nil, err
	}
	now := s.Clock.Now()
	exp := mediaLinkExpiry(now)
	out := make(map[string]string, len(req.URLs))
	for _, ref := range req.URLs {
		rel, ok := chatFileRel(ref)
		if !ok {
			continue
		}
		if _, err := s.readableChatFile(c.Ctx, rel, reader); err != nil {
			if errors.Is(err, storage.ErrNotFound) {
				continue
			}
			return nil, err
		}
		link, err := s.signChatFile(c.Ctx, rel, c.User.ID, exp)
		if err != nil {
			return nil, err
		}
		out[ref] = link
	}
	return map[string]any{"urls": out, "expiresIn": exp - now.Unix()}, nil
}

// ChatFiles serves /files/chat/... alone; the node mounts Files, which
// sends attachments here after the same checks.
func (s *Server) ChatFiles() http.Handler {
	files := s.Files()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rel, ok := canonicalFile(r); ok && !isChatFile(rel) {
			refuseFile(w, r, http.StatusNotFound, apierr.NotFound())
			return
		}
		files.ServeHTTP(w, r)
	})
}

// serveChatFile serves the attachment at rel (a canonical path whose first
// segment is chat in any case): to a signed link's user, or to the session
// of a token header, when they may read the file. Range requests and
// conditional requests work as for any file; caching is private (a shared
// cache must not hand it to someone else).
func (s *Server) serveChatFile(w http.ResponseWriter, r *http.Request, rel string) {
	refuse := func(status int, err *apierr.Error) { refuseFile(w, r, status, err) }
	// Only the attachments' directory as the store names it.
	if _, ok := chatFileRel(filesPrefix + rel); !ok {
		refuse(http.StatusNotFound, apierr.NotFound())
		return
	}
	var user int64
	var until time.Time // when the link expires; zero for a token
	var err error
	if q := r.URL.Query(); q.Has("s") {
		user, err = s.checkMediaSignature(r.Context(), rel, q)
		if err == nil {
			exp, _ := strconv.ParseInt(q.Get("e"), 10, 64)
			until = time.Unix(exp, 0)
		}
	} else {
		var u storage.User
		u, _, err = s.Sessions.Authenticate(r.Context(), Token(r))
		user = u.ID
	}
	switch {
	case errors.Is(err, errMediaExpired):
		refuse(http.StatusForbidden, apierr.ChatError(apierr.CodeChatMediaExpired))
		return
	case errors.Is(err, auth.ErrNoToken), errors.Is(err, auth.ErrExpired), errors.Is(err, auth.ErrReplaced), errors.Is(err, auth.ErrDeviceLimit):
		refuse(http.StatusForbidden, apierr.ChatError(apierr.CodeChatMediaRefused))
		return
	case err != nil:
		s.Log.Error("chat file: checking the reader", "err", err)
		refuse(http.StatusServiceUnavailable, apierr.Fail(apierr.CodeSystemBusy, "system.busy"))
		return
	}
	reader, err := s.chatFileReader(r.Context(), user)
	var f storage.ChatFile
	if err == nil {
		f, err = s.readableChatFile(r.Context(), rel, reader)
	}
	if errors.Is(err, storage.ErrNotFound) {
		refuse(http.StatusNotFound, apierr.Fail(apierr.CodeNotFound, "not.found"))
		return
	}
	if err != nil {
		s.Log.Error("chat file: checking access", "err", err)
		refuse(http.StatusServiceUnavailable, apierr.Fail(apierr.CodeSystemBusy, "system.busy"))
		return
	}
	file, err := os.Open(filepath.Join(s.Config.DataDir, "files", filepath.FromSlash(f.Path)))
	if err != nil {
		refuse(http.StatusNotFound, apierr.Fail(apierr.CodeNotFound, "not.found"))
		return
	}
	defer file.Close()
	st, err := file.Stat()
	if err != nil || st.IsDir() {
		refuse(http.StatusNotFound, apierr.Fail(apierr.CodeNotFound, "not.found"))
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.ContentType)
	if left := until.Sub(s.Clock.Now()); !until.IsZero() && left > 0 {
		h.Set("Cache-Control", "private, max-age="+strconv.FormatInt(int64(left/time.Second), 10))
	} else {
		h.Set("Cache-Control", "private, no-cache")
	}
	http.ServeContent(w, r, "", st.ModTime(), file)
}
