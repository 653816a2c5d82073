package engine

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

// rawGet sends target exactly as written (no client cleans or re-encodes
// it: a backslash stays a backslash) with headers (name, value pairs) and
// answers the status and body.
func rawGet(t *testing.T, addr, method, target string, headers ...string) (int, []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var req strings.Builder
	req.WriteString(method + " " + target + " HTTP/1.1\r\nHost: " + addr + "\r\nConnection: close\r\n")
	for i := 0; i+1 < len(headers); i += 2 {
		req.WriteString(headers[i] + ": " + headers[i+1] + "\r\n")
	}
	req.WriteString("\r\n")
	if _, err := io.WriteString(conn, req.String()); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: method})
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, body
}

// signUp registers account on the node and answers its user and token.
func signUp(t *testing.T, db storage.DB, base, account string) (storage.User, string) {
	t.Helper()
	token := registerAndSignIn(t, base, account)
	u, err := storage.UserByAccount(context.Background(), db, account)
	if err != nil {
		t.Fatal(err)
	}
	return u, token
}

// registerAndSignIn registers account on the node and answers its token.
func registerAndSignIn(t *testing.T, base, account string) string {
	t.Helper()
	if code, data := post(t, base+"/api/register", "", `{"account":"`+account+`","password":"abc123","confirmPassword":"abc123"}`); code != 0 {
		t.Fatalf("register: %d %s", code, data)
	}
	code, data := post(t, base+"/api/accountLogin", "", `{"account":"`+account+`","password":"abc123","platform":5}`)
	var tok struct {
		Token string `json:"token"`
	}
	if code != 0 || json.Unmarshal(data, &tok) != nil || tok.Token == "" {
		t.Fatalf("sign in: %d %s", code, data)
	}
	return tok.Token
}

// uploadAttachment uploads content as a chat picture and answers its path.
func uploadAttachment(t *testing.T, base, token string, content []byte) string {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("kind", "image")
	fw, _ := mw.CreateFormFile("file", "red.png")
	fw.Write(content)
	mw.Close()
	req, _ := http.NewRequest("POST", base+"/api/chat/upload", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("token", token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var up struct {
		Code int `json:"code"`
		Data struct {
			URL string `json:"url"`
		} `json:"data"`
	}
	if json.NewDecoder(resp.Body).Decode(&up) != nil || up.Code != 0 || !strings.HasPrefix(up.Data.URL, "/files/chat/") {
		t.Fatalf("upload: %+v", up)
	}
	return up.Data.URL
}

// spellings are the ways of writing /files/<rel> that a router, an access
// check and a file system could each read differently, for rel of three
// segments or more (dir/sub/name). Each must be refused.
func spellings(rel string) map[string]string {
	dir, rest, _ := strings.Cut(rel, "/")
	sub, name, _ := strings.Cut(rest, "/")
	other := "avatars"
	if dir == "avatars" {
		other = "content"
	}
	return map[string]string{
		"%2F":               "/files/" + dir + "%2F" + rest,
		"%2f":               "/files/" + dir + "%2f" + rest,
		"every slash %2F":   "/files/" + dir + "%2F" + sub + "%2F" + name,
		"%5C":               "/files/" + dir + "%5C" + sub + "%5C" + name,
		"backslash":         "/files/" + dir + `\` + sub + `\` + name,
		"leading //":        "/files//" + rel,
		"inner //":          "/files/" + dir + "//" + rest,
		"./":                "/files/./" + rel,
		"../":               "/files/" + other + "/../" + rel,
		"%2e%2e":            "/files/" + other + "/%2e%2e/" + rel,
		"%2E%2E%2F":         "/files/" + other + "/%2E%2E%2F" + rel,
		"%2e":               "/files/%2e/" + rel,
		"../ from /files":   "/files/../files/" + rel,
		"trailing /":        "/files/" + rel + "/",
		"%2F after /files":  "/files%2F" + rel,
		"backslash /files":  `/files\` + rel,
		"encoded NUL":       "/files/" + rel + "%00.png",
		"trailing %2F..%2F": "/files/" + dir + "/" + sub + "%2F..%2F" + sub + "/" + name,
	}
}

// TestFilesDecideOnOneCanonicalPath: every request under /files/ — chat
// attachments, avatars, operator content, demo media — is decided on the
// one path it names. A path with an encoded separator, a backslash, a dot
// segment or a doubled slash is refused with the 404 of a missing file,
// with or without credentials, before any route or access decision: no
// such spelling ever serves an attachment (issue 32: /files/chat%2F26/…
// answered 200 without a token), nor lets a member removed from the group
// read it, while the canonical public paths still serve.
func TestFilesDecideOnOneCanonicalPath(t *testing.T) {
	storagetest.EachServed(t, func(t *testing.T, db storage.DB, env map[string]string) {
		ctx := context.Background()
		n := serveNode(t, env)
		owner, ownerTok := signUp(t, db, n.Base, "canon_owner")
		member, memberTok := signUp(t, db, n.Base, "canon_member")
		_, strangerTok := signUp(t, db, n.Base, "canon_other")
		png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte("attachment"), 20)...)
		img := uploadAttachment(t, n.Base, ownerTok, png)
		rel := strings.TrimPrefix(img, "/files/")
		f, err := storage.ChatFileByPath(ctx, db, rel)
		if err != nil {
			t.Fatal(err)
		}
		gid := storage.NewID()
		now := n.Clock.Now().UnixMilli()
		if err := storage.CreateChatGroup(ctx, db, storage.ChatGroup{ID: gid, Name: "g", OwnerID: owner.ID, CreatorID: owner.ID, GroupType: 2, MemberCount: 2, CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
		if err := storage.AddChatGroupMembers(ctx, db, storage.ChatGroupMember{GroupID: gid, UserID: owner.ID, RoleLevel: 100, JoinTime: now},
			storage.ChatGroupMember{GroupID: gid, UserID: member.ID, RoleLevel: 20, JoinTime: now}); err != nil {
			t.Fatal(err)
		}
		if err := storage.ShareChatFile(ctx, db, f.ID, "sg_"+storage.FormatID(gid)); err != nil {
			t.Fatal(err)
		}
		var links struct {
			URLs map[string]string `json:"urls"`
		}
		if code, data := post(t, n.Base+"/api/chat/fileURLs", memberTok, `{"urls":["`+img+`"]}`); code != 0 || json.Unmarshal(data, &links) != nil || links.URLs[img] == "" {
			t.Fatalf("member's link: %d %s", code, data)
		}
		query := links.URLs[img][strings.Index(links.URLs[img], "?"):]

		public := map[string][]byte{
			"avatars/ab/face.png":    []byte("\x89PNG avatar"),
			"content/2024/promo.png": []byte("\x89PNG content"),
			"demo/clips/sunrise.mp4": []byte("\x00\x00\x00\x18ftypmp42 demo"),
		}
		for p, b := range public {
			full := filepath.Join(n.Node.Config.DataDir, "files", filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}

		// The canonical paths serve: the attachment to its members only,
		// public files to anyone.
		if code, _ := rawGet(t, n.Addr, "GET", img); code != http.StatusForbidden {
			t.Fatalf("attachment signed out: %d, want 403", code)
		}
		if code, _ := rawGet(t, n.Addr, "GET", img, "token", strangerTok); code != http.StatusNotFound {
			t.Fatalf("attachment to a stranger: %d, want 404", code)
		}
		for _, target := range []string{img + query, img} {
			if code, body := rawGet(t, n.Addr, "GET", target, "token", memberTok); code != http.StatusOK || !bytes.Equal(body, png) {
				t.Fatalf("member %s: %d", target, code)
			}
		}
		for p, b := range public {
			if code, body := rawGet(t, n.Addr, "GET", "/files/"+p); code != http.StatusOK || !bytes.Equal(body, b) {
				t.Fatalf("public /files/%s: %d %q", p, code, body)
			}
			if code, _ := rawGet(t, n.Addr, "HEAD", "/files/"+p); code != http.StatusOK {
				t.Fatalf("HEAD /files/%s: %d", p, code)
			}
		}

		// Every other spelling is the 404 of a missing file, whoever asks.
		refused := func(who string, headers ...string) {
			t.Helper()
			for _, p := range append([]string{rel}, "avatars/ab/face.png", "content/2024/promo.png", "demo/clips/sunrise.mp4") {
				for kind, target := range spellings(p) {
					for _, suffix := range []string{"", query} {
						code, body := rawGet(t, n.Addr, "GET", target+suffix, headers...)
						if code != http.StatusNotFound || bytes.Contains(body, []byte("PNG")) || bytes.Contains(body, []byte("ftyp")) {
							t.Errorf("%s, %s (%s): %d %q, want the 404 of a missing file", who, target+suffix, kind, code, body)
						}
					}
				}
			}
		}
		refused("signed out")
		refused("a stranger", "token", strangerTok)
		refused("the uploader", "token", ownerTok)
		// Other spellings of the attachments' directory never reach the
		// public files (on a case-insensitive disk "Chat" opens "chat").
		for _, target := range []string{"/files/Chat/" + strings.TrimPrefix(rel, "chat/"), "/files/CHAT/" + strings.TrimPrefix(rel, "chat/")} {
			if code, body := rawGet(t, n.Addr, "GET", target); code == http.StatusOK || bytes.Contains(body, []byte("PNG")) {
				t.Errorf("%s signed out: %d", target, code)
			}
		}
		// A letter encoded (%66 is f) names the canonical path: it gets the
		// attachment's own check.
		if code, body := rawGet(t, n.Addr, "GET", "/%66iles/"+rel); code != http.StatusForbidden || bytes.Contains(body, []byte("PNG")) {
			t.Errorf("/%%66iles/… signed out: %d, want 403", code)
		}
		if code, _ := rawGet(t, n.Addr, "POST", "/files/avatars/ab/face.png"); code != http.StatusMethodNotAllowed {
			t.Errorf("POST to a public file: %d, want 405", code)
		}
		if code, _ := rawGet(t, n.Addr, "GET", "/files/avatars/ab/"); code != http.StatusNotFound {
			t.Errorf("a directory: %d, want 404 (no listing)", code)
		}

		// A member removed from the group is refused in every spelling,
		// with the link and the token they still hold.
		if _, err := storage.RemoveChatGroupMembers(ctx, db, gid, []int64{member.ID}); err != nil {
			t.Fatal(err)
		}
		if code, _ := rawGet(t, n.Addr, "GET", img+query); code != http.StatusNotFound {
			t.Fatalf("removed member's link: %d, want 404", code)
		}
		if code, _ := rawGet(t, n.Addr, "GET", img, "token", memberTok); code != http.StatusNotFound {
			t.Fatalf("removed member's token: %d, want 404", code)
		}
		refused("the removed member", "token", memberTok)
	})
}
