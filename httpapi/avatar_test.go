package httpapi

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kj/internal/apierr"
	"kj/storage"
)

// upload posts file as the multipart part field/name to /user/uploadAvatar.
func upload(t *testing.T, s *Server, token, field, name string, file []byte) reply {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("note", "ignored")
	if field != "" {
		fw, err := mw.CreateFormFile(field, name)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(file)
	}
	mw.Close()
	return send(t, s.Handler(), request("POST", "/api/user/uploadAvatar", &body,
		"Content-Type", mw.FormDataContentType(), "token", token, "Accept-Language", "en-US"))
}

func encoded(t *testing.T, w, h int, format string, opaque bool) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			a := uint8(255)
			if !opaque && x < w/2 {
				a = 0
			}
			img.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(y), 200, a})
		}
	}
	var b bytes.Buffer
	switch format {
	case "png":
		png.Encode(&b, img)
	case "jpeg":
		jpeg.Encode(&b, img, nil)
	case "gif":
		gif.Encode(&b, img, nil)
	}
	return b.Bytes()
}

// hugePNGHeader is a valid PNG signature and IHDR claiming w x h pixels,
// with no image data: a decompression bomb's calling card.
func hugePNGHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

func storedAvatar(t *testing.T, s *Server, url string) (image.Image, string) {
	t.Helper()
	rel, ok := strings.CutPrefix(url, "/files/avatars/")
	if !ok {
		t.Fatalf("avatar url %q is not under /files/avatars/", url)
	}
	b, err := os.ReadFile(filepath.Join(s.Config.DataDir, "files", "avatars", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	img, format, err := image.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("stored avatar does not decode: %v", err)
	}
	return img, format
}

func TestUploadAvatar(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		s.Config.DataDir = t.TempDir()
		u, tok := newUser(t, s, "avery")

		// A large opaque JPEG is scaled to fit 512 and stays JPEG.
		r := upload(t, s, tok.Token, "file", "photo.jpg", encoded(t, 1000, 500, "jpeg", true))
		if r.Code != 0 {
			t.Fatalf("jpeg: %+v", r)
		}
		first := data[avatarReply](t, r).Avatar
		img, format := storedAvatar(t, s, first)
		if format != "jpeg" || img.Bounds().Dx() != 512 || img.Bounds().Dy() != 256 {
			t.Fatalf("stored %s %v", format, img.Bounds())
		}
		if !strings.HasPrefix(first, "/files/avatars/2026/03/"+u.IDString()+"-") {
			t.Fatalf("url %q", first)
		}
		if info := data[UserInfo](t, call(t, s.Handler(), "POST", "/api/user/mine", "{}", "token", tok.Token)); info.Avatar != first {
			t.Fatalf("mine avatar %q", info.Avatar)
		}

		// A transparent PNG stays PNG (keeps its alpha); the file name does not matter.
		r = upload(t, s, tok.Token, "avatar", "x.exe", encoded(t, 64, 48, "png", false))
		if r.Code != 0 {
			t.Fatalf("png: %+v", r)
		}
		second := data[avatarReply](t, r).Avatar
		img, format = storedAvatar(t, s, second)
		if format != "png" || img.Bounds().Dx() != 64 || img.Bounds().Dy() != 48 {
			t.Fatalf("stored %s %v", format, img.Bounds())
		}
		if _, _, _, a := img.At(0, 0).RGBA(); a != 0 {
			t.Fatal("transparency lost")
		}
		// The replaced file is gone.
		if _, err := os.Stat(filepath.Join(s.Config.DataDir, "files", strings.TrimPrefix(first, "/files/"))); !os.IsNotExist(err) {
			t.Fatalf("previous avatar still on disk: %v", err)
		}

		// WebP decodes (sniffed from the bytes) and is re-encoded.
		webp, err := os.ReadFile("testdata/avatar.webp")
		if err != nil {
			t.Fatal(err)
		}
		if r = upload(t, s, tok.Token, "file", "a.webp", webp); r.Code != 0 {
			t.Fatalf("webp: %+v", r)
		}
		storedAvatar(t, s, data[avatarReply](t, r).Avatar)

		// Refusals, each leaving the avatar as it was.
		current := data[avatarReply](t, r).Avatar
		big := append(encoded(t, 8, 8, "png", true), bytes.Repeat([]byte{0}, AvatarMaxBytes)...)
		truncated := encoded(t, 200, 200, "png", true)
		truncated = truncated[:len(truncated)/2]
		refusals := []struct {
			name  string
			field string
			file  []byte
			code  int
			msg   string
		}{
			{"gif", "file", encoded(t, 8, 8, "gif", true), apierr.CodeAvatarType, "Only PNG, JPEG or WebP images are accepted"},
			{"text", "file", []byte("hello, I am not an image"), apierr.CodeAvatarType, "Only PNG, JPEG or WebP images are accepted"},
			{"svg", "file", []byte(`<svg xmlns="http://www.w3.org/2000/svg"></svg>`), apierr.CodeAvatarType, "Only PNG, JPEG or WebP images are accepted"},
			{"over 5 MB", "file", big, apierr.CodeAvatarTooLarge, "The image must be at most 5 MB"},
			{"truncated", "file", truncated, apierr.CodeAvatarBroken, "The image is damaged or too large to process"},
			{"bomb", "file", hugePNGHeader(50000, 50000), apierr.CodeAvatarBroken, "The image is damaged or too large to process"},
			{"no file", "", nil, apierr.CodeRequired, "file is required"},
			{"empty file", "file", []byte{}, apierr.CodeRequired, "file is required"},
		}
		for _, c := range refusals {
			if r := upload(t, s, tok.Token, c.field, "f", c.file); r.Code != c.code || r.Message != c.msg {
				t.Errorf("%s: %d %q", c.name, r.Code, r.Message)
			}
		}
		if r := call(t, s.Handler(), "POST", "/api/user/uploadAvatar", `{"file":"x"}`, "token", tok.Token); r.Code != apierr.CodeRequired {
			t.Fatalf("JSON body: %+v", r)
		}
		if got, _ := storage.UserByID(context.Background(), db, u.ID); got.Avatar != current {
			t.Fatalf("refusals changed the avatar to %q", got.Avatar)
		}
		entries, _ := filepath.Glob(filepath.Join(s.Config.DataDir, "files", "avatars", "*", "*", "*"))
		if len(entries) != 1 {
			t.Fatalf("files on disk: %v", entries)
		}
		if r := upload(t, s, "", "file", "a.png", encoded(t, 8, 8, "png", true)); r.Code != apierr.CodeTokenExpired {
			t.Fatalf("no token: %+v", r)
		}
	})
}
