package httpapi

// Avatar upload: one multipart file, at most 5 MB, PNG, JPEG or WebP by its
// bytes (never by its name or declared type). It is decoded — which proves
// it is an image — then scaled down to fit AvatarSide and re-encoded, which
// drops EXIF (camera GPS positions included) and anything hidden after the
// image data. Saved under $KJ_DATA_DIR/files/avatars/YYYY/MM/ and served
// back from /files/avatars/....

import (
	"bytes"
	"errors"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp" // registers the WebP decoder

	"kj/auth"
	"kj/internal/apierr"
	"kj/storage"
)

const (
	AvatarMaxBytes = 5 << 20
	// AvatarSide bounds the stored image; avatars are shown at most a few
	// hundred pixels wide.
	AvatarSide = 512
	// avatarMaxPixels refuses images whose decoded size (4 bytes a pixel)
	// would be out of proportion to the upload: a 5 MB PNG can claim
	// gigapixels.
	avatarMaxPixels = 4096 * 4096
	avatarMaxSide   = 8192
)

func init() {
	registerArea(func(s *Server) {
		s.Post("/user/uploadAvatar", User, s.uploadAvatar)
	})
}

type avatarReply struct {
	Avatar string `json:"avatar"`
}

func (s *Server) uploadAvatar(c *Call) (any, error) {
	data, err := readAvatarPart(c)
	if err != nil {
		return nil, err
	}
	img, err := decodeAvatar(data)
	if err != nil {
		return nil, err
	}
	out, ext, err := encodeAvatar(img)
	if err != nil {
		return nil, err
	}

	now := s.Clock.Now().UTC()
	rel := path.Join("avatars", now.Format("2006"), now.Format("01"), c.User.IDString()+"-"+auth.NewSecret()[:16]+ext)
	root := filepath.Join(s.Config.DataDir, "files")
	file := filepath.Join(root, filepath.FromSlash(rel))
	if err := writeAvatarFile(file, out); err != nil {
		return nil, err
	}
	url := "/files/" + rel
	if err := storage.UpdateUserFields(c.Ctx, s.DB, c.User.ID, now.UnixMilli(), map[string]any{"avatar": url}); err != nil {
		_ = os.Remove(file)
		return nil, err
	}
	// The previous upload is no longer referenced by anyone.
	if old, ok := strings.CutPrefix(c.User.Avatar, "/files/avatars/"); ok && !strings.Contains(old, "..") {
		if err := os.Remove(filepath.Join(root, "avatars", filepath.FromSlash(old))); err != nil && !errors.Is(err, os.ErrNotExist) {
			s.Log.Warn("avatar: removing the previous file failed", "err", err)
		}
	}
	return avatarReply{Avatar: url}, nil
}

// readAvatarPart reads the first file part of a multipart body (field
// "file", as uni-app uploads, or any other name), refusing more than
// AvatarMaxBytes.
func readAvatarPart(c *Call) ([]byte, error) {
	mt, _, err := mime.ParseMediaType(c.R.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		return nil, apierr.Required("file")
	}
	// Room for the part headers and boundaries around a full-size file.
	c.R.Body = http.MaxBytesReader(c.W, c.R.Body, AvatarMaxBytes+64<<10)
	mr, err := c.R.MultipartReader()
	if err != nil {
		return nil, apierr.Fail(apierr.CodeBadRequest, "bad.request")
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, apierr.Required("file")
		}
		if err != nil {
			return nil, avatarReadError(err)
		}
		if part.FileName() == "" && part.FormName() != "file" {
			part.Close()
			continue
		}
		data, err := io.ReadAll(io.LimitReader(part, AvatarMaxBytes+1))
		part.Close()
		if err != nil {
			return nil, avatarReadError(err)
		}
		if len(data) > AvatarMaxBytes {
			return nil, apierr.Fail(apierr.CodeAvatarTooLarge, "avatar.too.large")
		}
		if len(data) == 0 {
			return nil, apierr.Required("file")
		}
		return data, nil
	}
}

func avatarReadError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return apierr.Fail(apierr.CodeAvatarTooLarge, "avatar.too.large")
	}
	return apierr.Fail(apierr.CodeBadRequest, "bad.request")
}

// decodeAvatar sniffs the type from the bytes, bounds the dimensions before
// decoding, then decodes the whole image.
func decodeAvatar(data []byte) (image.Image, error) {
	switch http.DetectContentType(data) {
	case "image/png", "image/jpeg", "image/webp":
	default:
		return nil, apierr.Fail(apierr.CodeAvatarType, "avatar.type")
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width < 1 || cfg.Height < 1 || cfg.Width > avatarMaxSide || cfg.Height > avatarMaxSide ||
		cfg.Width*cfg.Height > avatarMaxPixels {
		return nil, apierr.Fail(apierr.CodeAvatarBroken, "avatar.broken")
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, apierr.Fail(apierr.CodeAvatarBroken, "avatar.broken")
	}
	return img, nil
}

// encodeAvatar scales img to fit AvatarSide and encodes it: PNG when it
// has transparency, JPEG otherwise.
func encodeAvatar(img image.Image) ([]byte, string, error) {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w > AvatarSide || h > AvatarSide {
		if w >= h {
			w, h = AvatarSide, max(1, h*AvatarSide/w)
		} else {
			w, h = max(1, w*AvatarSide/h), AvatarSide
		}
	}
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
	var buf bytes.Buffer
	if !dst.Opaque() {
		if err := png.Encode(&buf, dst); err != nil {
			return nil, "", err
		}
		return buf.Bytes(), ".png", nil
	}
	if err := jpeg.Encode(&buf, dst, &jpeg.Options{Quality: 88}); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), ".jpg", nil
}

// writeAvatarFile writes data to name through a temporary file in the same
// directory, so a reader never sees half a file.
func writeAvatarFile(name string, data []byte) error {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".upload-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(f.Name(), 0o644)
	}
	if werr == nil {
		werr = os.Rename(f.Name(), name)
	}
	if werr != nil {
		os.Remove(f.Name())
	}
	return werr
}
