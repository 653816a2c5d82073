package engine

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestChatAttachmentsNeedAMember: the node serves /files/chat/ only to the
// conversation's members (httpapi/chat_files.go) — a signed-out client and
// a signed-in stranger are refused — while avatars and operator content
// under /files/ stay public.
func TestChatAttachmentsNeedAMember(t *testing.T) {
	n := serveNode(t, map[string]string{})
	base := n.Base
	owner, stranger := registerAndSignIn(t, base, "att_owner1"), registerAndSignIn(t, base, "att_other1")
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("kind", "image")
	fw, _ := mw.CreateFormFile("file", "red.png")
	png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), make([]byte, 64)...)
	fw.Write(png)
	mw.Close()
	req, _ := http.NewRequest("POST", base+"/api/chat/upload", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("token", owner)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var up struct {
		Code int `json:"code"`
		Data struct {
			URL string `json:"url"`
		} `json:"data"`
	}
	json.NewDecoder(resp.Body).Decode(&up)
	resp.Body.Close()
	if up.Code != 0 || !strings.HasPrefix(up.Data.URL, "/files/chat/") {
		t.Fatalf("upload: %+v", up)
	}
	fetch := func(path, token string) int {
		t.Helper()
		req, _ := http.NewRequest("GET", base+path, nil)
		if token != "" {
			req.Header.Set("token", token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := fetch(up.Data.URL, ""); code != http.StatusForbidden {
		t.Fatalf("signed out: %d, want 403", code)
	}
	if code := fetch(up.Data.URL, stranger); code != http.StatusNotFound {
		t.Fatalf("a stranger: %d, want 404", code)
	}
	if code := fetch(up.Data.URL, owner); code != http.StatusOK {
		t.Fatalf("the uploader: %d", code)
	}
	// Public files: an avatar and operator content.
	for _, p := range []string{"avatars/ab/face.png", "content/banner.png"} {
		full := filepath.Join(n.Node.Config.DataDir, "files", filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, png, 0o644); err != nil {
			t.Fatal(err)
		}
		if code := fetch("/files/"+p, ""); code != http.StatusOK {
			t.Fatalf("public /files/%s: %d", p, code)
		}
	}
}
