package httpapi

// Fuzzing the chat upload route (/api/chat/upload) with multipart bodies:
//
//	go test -run '^$' -fuzz FuzzChatUpload -fuzztime 1m ./httpapi/
//
// Invariants: every body gets an envelope, never a 5xx or "system busy";
// an accepted upload names a file that exists, of the kind asked for, no
// bigger than the cap, served to its uploader and refused signed out; a
// refused one leaves no file behind.

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kj/actors/chat"
	"kj/internal/apierr"
)

func FuzzChatUpload(f *testing.F) {
	s := fuzzServer(f)
	s.Config.DataDir = f.TempDir()
	_, tok := newUser(f, s, "fuzz_uploader")
	u := tok.Token
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")
	for _, seed := range []struct {
		kind, name string
		body       []byte
	}{
		{"image", "a.png", png}, {"file", "doc.pdf", []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")}, {"video", "v.mp4", []byte("\x00\x00\x00\x18ftypmp42")},
		{"image", "x.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)},
		{"", "", nil}, {"nonsense", "../../etc/passwd", []byte("root:x:0:0")}, {"file", "a\x00b.txt", []byte("hello")},
	} {
		f.Add(seed.kind, seed.name, seed.body)
	}
	f.Fuzz(func(t *testing.T, kind, name string, content []byte) {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		if kind != "" {
			_ = mw.WriteField("kind", kind)
		}
		if name != "" || content != nil {
			fw, err := mw.CreateFormFile("file", name)
			if err != nil {
				return
			}
			_, _ = fw.Write(content)
		}
		_ = mw.Close()
		r := send(t, s.Handler(), request("POST", "/api/chat/upload", &body, "Content-Type", mw.FormDataContentType(), "token", u))
		if r.Status >= 500 || r.Code == apierr.CodeInternal || r.Message == "" {
			t.Fatalf("kind %q name %q: server error %d %+v", kind, name, r.Status, r)
		}
		if r.Code != 0 {
			return
		}
		var got struct {
			URL string `json:"url"`
		}
		if err := json.Unmarshal(r.Data, &got); err != nil || !strings.HasPrefix(got.URL, "/files/chat/") {
			t.Fatalf("accepted upload answered %s", r.Data)
		}
		rel := strings.TrimPrefix(got.URL, "/files/")
		if strings.Contains(rel, "..") {
			t.Fatalf("upload stored outside its directory: %s", got.URL)
		}
		st, err := os.Stat(filepath.Join(s.Config.DataDir, "files", filepath.FromSlash(rel)))
		if err != nil || st.Size() != int64(len(content)) || st.Size() > chat.UploadMax {
			t.Fatalf("accepted upload %s: %v (size %d of %d)", got.URL, err, st.Size(), len(content))
		}
		// It is served to its uploader only until sent (chat_files.go).
		files := s.ChatFiles()
		for tok, want := range map[string]int{"": 403, u: 200} {
			w := fetchFile(files, got.URL, "token", tok)
			if w.Code != want || (want == 200 && w.Body.Len() != len(content)) {
				t.Fatalf("fetch %s with token %q: %d, %d bytes", got.URL, tok, w.Code, w.Body.Len())
			}
		}
	})
}
