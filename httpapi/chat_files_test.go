package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"kj/storage"
	"kj/storage/storagetest"
)

// TestChatAttachmentNamesCannotBeGuessed: an attachment's name must not be
// derivable from what others know — the uploader's id and the time — so a
// name alone tells nothing (reading it also takes a member's credential,
// TestChatAttachmentsAreServedToTheConversationOnly).
func TestChatAttachmentNamesCannotBeGuessed(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		s.Config.DataDir = t.TempDir()
		u, tok := newUser(t, s, "files_ann")
		name := func() string {
			url := uploadChatFile(t, h, tok.Token, "", "notes.pdf", []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\nsecret"))
			if strings.Contains(url, u.IDString()) {
				t.Fatalf("attachment URL %s names its uploader", url)
			}
			return strings.TrimSuffix(path.Base(url), path.Ext(url))
		}
		a, b := name(), name()
		random := regexp.MustCompile(`^[0-9a-f]{32}$`)
		if !random.MatchString(a) || !random.MatchString(b) || a == b {
			t.Fatalf("attachment names %q, %q: want 128 random bits each", a, b)
		}
	})
}

// attachmentSite is the API with /files/ mounted as the node mounts it.
func attachmentSite(s *Server) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/api/", s.Handler())
	mux.Handle("/files/", s.Files())
	return mux
}

// uploadPNG uploads a small picture as the holder of tok and answers its URL.
func uploadPNG(t *testing.T, h http.Handler, tok string) string {
	t.Helper()
	return uploadChatFile(t, h, tok, "image", "red.png", testPNG)
}

// uploadChatFile uploads content as the holder of tok (with a kind field
// unless kind is empty) and answers its URL; anything but success fails t.
func uploadChatFile(t *testing.T, h http.Handler, tok, kind, filename string, content []byte) string {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if kind != "" {
		_ = mw.WriteField("kind", kind)
	}
	fw, _ := mw.CreateFormFile("file", filename)
	fw.Write(content)
	mw.Close()
	w := serve(h, request("POST", "/api/chat/upload", &body, "Content-Type", mw.FormDataContentType(), "token", tok))
	var r struct {
		Code int `json:"code"`
		Data struct {
			URL string `json:"url"`
		} `json:"data"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil || r.Code != 0 {
		t.Fatalf("upload: %s", w.Body.String())
	}
	return r.Data.URL
}

var testPNG = append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte{7}, 200)...)

// fetchFile GETs target with headers (name, value pairs).
func fetchFile(h http.Handler, target string, headers ...string) *httptest.ResponseRecorder {
	return serve(h, request("GET", target, nil, headers...))
}

// signedLinks asks /chat/fileURLs for links to refs as the holder of tok.
func signedLinks(t *testing.T, h http.Handler, tok string, refs ...string) map[string]string {
	t.Helper()
	body, _ := json.Marshal(map[string][]string{"urls": refs})
	r := call(t, h, "POST", "/api/chat/fileURLs", string(body), "token", tok)
	var got struct {
		URLs map[string]string `json:"urls"`
	}
	if r.Code != 0 || json.Unmarshal(r.Data, &got) != nil {
		t.Fatalf("fileURLs: %+v", r)
	}
	return got.URLs
}

// TestChatAttachmentsAreServedToTheConversationOnly: an attachment is
// fetched by its uploader and the members of the conversations it was sent
// in, with a signed link or a session token; everyone else — signed out, a
// stranger, a member removed from the group — is refused, and a refusal
// does not tell whether the file exists.
func TestChatAttachmentsAreServedToTheConversationOnly(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		ctx := context.Background()
		s.Config.DataDir = t.TempDir()
		h := attachmentSite(s)
		owner, ownerTok := newUser(t, s, "att_owner")
		peer, peerTok := newUser(t, s, "att_peer")
		_, strangerTok := newUser(t, s, "att_stranger")
		member, memberTok := newUser(t, s, "att_member")
		img := uploadPNG(t, h, ownerTok.Token)
		rel := strings.TrimPrefix(img, "/files/")
		f, err := storage.ChatFileByPath(ctx, db, rel)
		if err != nil {
			t.Fatal(err)
		}
		// Sent to peer one to one, and in a group with member (the chat
		// records these when the messages are sent; actors/chat tests it).
		a, b := owner.IDString(), peer.IDString()
		if b < a {
			a, b = b, a
		}
		gid := storage.NewID()
		now := s.Clock.Now().UnixMilli()
		if err := storage.CreateChatGroup(ctx, db, storage.ChatGroup{ID: gid, Name: "g", OwnerID: owner.ID, CreatorID: owner.ID, GroupType: 2, MemberCount: 2, CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
		if err := storage.AddChatGroupMembers(ctx, db, storage.ChatGroupMember{GroupID: gid, UserID: owner.ID, RoleLevel: 100, JoinTime: now},
			storage.ChatGroupMember{GroupID: gid, UserID: member.ID, RoleLevel: 20, JoinTime: now}); err != nil {
			t.Fatal(err)
		}
		for _, conv := range []string{"si_" + a + "_" + b, "sg_" + storage.FormatID(gid)} {
			if err := storage.ShareChatFile(ctx, db, f.ID, conv); err != nil {
				t.Fatal(err)
			}
		}

		// Signed out: refused, and the same for a file that does not exist.
		missing := "/files/chat/00/00000000000000000000000000000000.png"
		for _, target := range []string{img, missing} {
			if w := fetchFile(h, target); w.Code != http.StatusForbidden || strings.Contains(w.Body.String(), "PNG") {
				t.Fatalf("signed out %s: %d %q", target, w.Code, w.Body.String())
			}
		}
		// A stranger: no link, and a token fetch is the same 404 as a
		// file that does not exist.
		if got := signedLinks(t, h, strangerTok.Token, img); len(got) != 0 {
			t.Fatalf("a stranger got links %v", got)
		}
		notFound := fetchFile(h, missing, "token", strangerTok.Token)
		if w := fetchFile(h, img, "token", strangerTok.Token); w.Code != http.StatusNotFound || w.Body.String() != notFound.Body.String() || notFound.Code != http.StatusNotFound {
			t.Fatalf("stranger: %d %q; missing file: %d %q", w.Code, w.Body.String(), notFound.Code, notFound.Body.String())
		}
		// The uploader and both conversations' members read it: with a
		// token, and through a link that the browser can use as a src.
		for _, tok := range []string{ownerTok.Token, peerTok.Token, memberTok.Token} {
			if w := fetchFile(h, img, "token", tok); w.Code != http.StatusOK || !bytes.Equal(w.Body.Bytes(), testPNG) {
				t.Fatalf("member by token: %d", w.Code)
			}
			link := signedLinks(t, h, tok, img, "/files/avatars/x.png")[img]
			w := fetchFile(h, link)
			if w.Code != http.StatusOK || !bytes.Equal(w.Body.Bytes(), testPNG) || w.Header().Get("Content-Type") != "image/png" {
				t.Fatalf("member by link %s: %d %v", link, w.Code, w.Header())
			}
			if cc := w.Header().Get("Cache-Control"); !strings.HasPrefix(cc, "private, max-age=") {
				t.Fatalf("cache-control %q: want private caching", cc)
			}
			// Ranges work (video and audio seek with them).
			if w := fetchFile(h, link, "Range", "bytes=2-5"); w.Code != http.StatusPartialContent || !bytes.Equal(w.Body.Bytes(), testPNG[2:6]) {
				t.Fatalf("range: %d %q", w.Code, w.Body.Bytes())
			}
		}
		peerLink := signedLinks(t, h, peerTok.Token, img)[img]
		if again := signedLinks(t, h, peerTok.Token, img)[img]; again != peerLink {
			t.Fatalf("links within one period differ (%s, %s): browsers could not cache them", peerLink, again)
		}
		// A tampered link, or one moved to another user, is refused.
		u, _ := url.Parse(peerLink)
		q := u.Query()
		tampered := []url.Values{}
		for _, change := range []func(url.Values){
			func(v url.Values) { v.Set("s", strings.Repeat("A", len(v.Get("s")))) },
			func(v url.Values) { v.Set("u", owner.IDString()) },
			func(v url.Values) { v.Set("e", v.Get("e")+"0") },
			func(v url.Values) { v.Del("s") },
		} {
			v := url.Values{}
			for k, vs := range q {
				v[k] = append([]string(nil), vs...)
			}
			change(v)
			tampered = append(tampered, v)
		}
		for _, v := range tampered {
			w := fetchFile(h, u.Path+"?"+v.Encode(), "Accept-Language", "en-US")
			if w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), `"code":1342`) {
				t.Fatalf("tampered link %s: %d %s", v.Encode(), w.Code, w.Body.String())
			}
		}
		// The link of one file does not open another.
		other := uploadPNG(t, h, ownerTok.Token)
		if w := fetchFile(h, other+"?"+q.Encode()); w.Code != http.StatusForbidden {
			t.Fatalf("a link moved to another file: %d", w.Code)
		}

		// A member removed from the group is refused from then on, with
		// the link they already hold and with their token.
		memberLink := signedLinks(t, h, memberTok.Token, img)[img]
		if _, err := storage.RemoveChatGroupMembers(ctx, db, gid, []int64{member.ID}); err != nil {
			t.Fatal(err)
		}
		if w := fetchFile(h, memberLink); w.Code != http.StatusNotFound {
			t.Fatalf("removed member by link: %d", w.Code)
		}
		if w := fetchFile(h, img, "token", memberTok.Token); w.Code != http.StatusNotFound {
			t.Fatalf("removed member by token: %d", w.Code)
		}
		if got := signedLinks(t, h, memberTok.Token, img); len(got) != 0 {
			t.Fatalf("removed member got links %v", got)
		}

		// Links expire: within two periods at most, with a clear error.
		s.Clock.(interface{ Advance(time.Duration) }).Advance(2 * mediaLinkPeriod)
		for lang, want := range map[string]string{"en-US": "expired", "zh-CN": "过期"} {
			w := fetchFile(h, peerLink, "Accept-Language", lang)
			var r reply
			if w.Code != http.StatusForbidden || json.Unmarshal(w.Body.Bytes(), &r) != nil || r.Code != 1341 || !strings.Contains(r.Message, want) {
				t.Fatalf("expired link (%s): %d %s", lang, w.Code, w.Body.String())
			}
		}
		if w := fetchFile(h, signedLinks(t, h, peerTok.Token, img)[img]); w.Code != http.StatusOK {
			t.Fatalf("a fresh link after expiry: %d", w.Code)
		}
	})
}

// TestMediaKeysRotate: KJ_MEDIA_SECRETS signs with its first key and
// accepts every key listed, so a new key can go first while links signed
// with the old one still open; a key dropped from the list no longer opens.
func TestMediaKeysRotate(t *testing.T) {
	t.Parallel()
	db := storagetest.SQLite(t)
	dir := t.TempDir()
	old, fresh := strings.Repeat("o", 32), strings.Repeat("n", 32)
	sign := func(keys ...string) (*Server, http.Handler) {
		s, _ := testServer(t, db)
		s.Config.DataDir = dir
		s.Config.MediaSecrets = keys
		return s, attachmentSite(s)
	}
	s1, h1 := sign(old)
	_, tok := newUser(t, s1, "rot_owner")
	img := uploadPNG(t, h1, tok.Token)
	link := signedLinks(t, h1, tok.Token, img)[img]
	_, h2 := sign(fresh, old)
	if w := fetchFile(h2, link); w.Code != http.StatusOK {
		t.Fatalf("old key's link after rotation: %d", w.Code)
	}
	if l2 := signedLinks(t, h2, tok.Token, img)[img]; l2 == link {
		t.Fatal("the new key does not sign")
	}
	_, h3 := sign(fresh)
	if w := fetchFile(h3, link); w.Code != http.StatusForbidden {
		t.Fatalf("link of a dropped key: %d", w.Code)
	}
}

// TestCustomerServiceAttachments: a picture a signed-in visitor sends to
// customer service is read by the visitor and the agents only, and a
// visitor cannot send someone else's upload.
func TestCustomerServiceAttachments(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		ctx := context.Background()
		s.Config.DataDir = t.TempDir()
		h := attachmentSite(s)
		_, visitorTok := newUser(t, s, "cs_visitor")
		_, otherTok := newUser(t, s, "cs_other")
		agent, agentTok := newUser(t, s, "cs_agent")
		if err := storage.SetOperatorRole(ctx, db, agent.ID, storage.OperatorAgent, s.Clock.Now().UnixMilli()); err != nil {
			t.Fatal(err)
		}
		img := uploadPNG(t, h, visitorTok.Token)
		if r := call(t, h, "POST", "/api/customer/send", `{"content":"`+img+`"}`, "token", otherTok.Token); r.Code != 1329 {
			t.Fatalf("another user sent the visitor's picture: %+v", r)
		}
		if w := fetchFile(h, img, "token", agentTok.Token); w.Code != http.StatusNotFound {
			t.Fatalf("agent before it was sent: %d", w.Code)
		}
		if r := call(t, h, "POST", "/api/customer/send", `{"content":"`+img+`"}`, "token", visitorTok.Token); r.Code != 0 {
			t.Fatalf("visitor send: %+v", r)
		}
		if w := fetchFile(h, signedLinks(t, h, agentTok.Token, img)[img]); w.Code != http.StatusOK {
			t.Fatalf("agent: %d", w.Code)
		}
		if w := fetchFile(h, img, "token", otherTok.Token); w.Code != http.StatusNotFound {
			t.Fatalf("another user: %d", w.Code)
		}
	})
}

// TestSignedLinksLastAtMostTenMinutes: a signed link, whenever in a period
// it is signed, opens for more than five minutes and at most ten (issue
// 32: a reader who signed out kept reading for up to an hour), is the same
// link when asked again, and the answer's expiresIn is the time it has left
// by the server's clock; at its expiry it is refused as expired, and the
// browser is never told to cache it longer than it lives.
func TestSignedLinksLastAtMostTenMinutes(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		s.Config.DataDir = t.TempDir()
		h := attachmentSite(s)
		clk := s.Clock.(interface{ Advance(time.Duration) })
		_, tok := newUser(t, s, "life_owner")
		img := uploadPNG(t, h, tok.Token)
		sign := func() (link string, expiresIn int64) {
			body, _ := json.Marshal(map[string][]string{"urls": {img}})
			r := call(t, h, "POST", "/api/chat/fileURLs", string(body), "token", tok.Token)
			var got struct {
				URLs      map[string]string `json:"urls"`
				ExpiresIn int64             `json:"expiresIn"`
			}
			if r.Code != 0 || json.Unmarshal(r.Data, &got) != nil || got.URLs[img] == "" {
				t.Fatalf("fileURLs: %+v", r)
			}
			return got.URLs[img], got.ExpiresIn
		}
		const period = 5 * time.Minute
		for _, into := range []time.Duration{0, time.Second, period / 2, period - time.Second} {
			// To the start of the next period, then into it.
			clk.Advance(period - time.Duration(s.Clock.Now().UnixNano())%period + into)
			signedAt := s.Clock.Now()
			link, expiresIn := sign()
			u, _ := url.Parse(link)
			exp, _ := strconv.ParseInt(u.Query().Get("e"), 10, 64)
			life := time.Unix(exp, 0).Sub(signedAt)
			if life <= period || life > 10*time.Minute || expiresIn != int64(life/time.Second) {
				t.Fatalf("signed %v into a period: lives %v, expiresIn %d s; want more than 5 min, at most 10, and expiresIn saying so", into, life, expiresIn)
			}
			w := fetchFile(h, link)
			maxAge, _ := strconv.Atoi(strings.TrimPrefix(w.Header().Get("Cache-Control"), "private, max-age="))
			if w.Code != http.StatusOK || maxAge <= 0 || time.Duration(maxAge)*time.Second > life {
				t.Fatalf("fresh link: %d, Cache-Control %q for a link living %v", w.Code, w.Header().Get("Cache-Control"), life)
			}
			if again, left := sign(); again != link || left != expiresIn {
				t.Fatalf("signed again at once: %s (%d s), want the same link", again, left)
			}
			clk.Advance(life - time.Second)
			if w := fetchFile(h, link); w.Code != http.StatusOK {
				t.Fatalf("a second before expiry: %d", w.Code)
			}
			clk.Advance(time.Second)
			if w := fetchFile(h, link, "Accept-Language", "en-US"); w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), `"code":1341`) {
				t.Fatalf("at expiry (signed %v into a period): %d %s", into, w.Code, w.Body.String())
			}
		}
	})
}
