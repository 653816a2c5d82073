package seed

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kj/auth"
	"kj/storage"
	"kj/storage/storagetest"
)

func TestSeedDemoFillsAnEmptyStoreOnce(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		dir := t.TempDir()
		res, err := Demo(ctx, db, dir, time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		if res.Banners != 3 || res.Videos != 6 || res.Cities != 4 || res.Listings != 12 || res.Notices != 3 || res.Files != 16 {
			t.Fatalf("seeded %+v", res)
		}
		op, err := storage.UserByAccount(ctx, db, res.OperatorAccount)
		if err != nil || op.IsOperator != 1 || !auth.CheckPassword(op.PasswordHash, res.OperatorPassword) {
			t.Fatalf("operator %+v %v", op, err)
		}
		// Every file the content points at exists and is what it claims.
		listings, _ := storage.ListListings(ctx, db, 0, true, 50, 0)
		videos, _ := storage.ListVideos(ctx, db, "", true, 50, 0)
		banners, _ := storage.ListBanners(ctx, db, true)
		var paths []string
		for _, l := range listings {
			if l.Age < 18 {
				t.Fatalf("listing under 18: %+v", l)
			}
			paths = append(paths, l.Photos...)
		}
		for _, v := range videos {
			paths = append(paths, v.URL, v.Cover)
		}
		for _, b := range banners {
			paths = append(paths, b.Image)
		}
		for _, p := range paths {
			b, err := os.ReadFile(filepath.Join(dir, "files", strings.TrimPrefix(p, "/files/")))
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			switch {
			case strings.HasSuffix(p, ".png"):
				if _, err := png.Decode(bytes.NewReader(b)); err != nil {
					t.Fatalf("%s: %v", p, err)
				}
			case strings.HasSuffix(p, ".mp4"):
				if ct := http.DetectContentType(b); ct != "video/mp4" {
					t.Fatalf("%s sniffs as %s", p, ct)
				}
			}
		}
		if n, _ := storage.CountAudit(ctx, db, storage.AuditFilter{Action: "demo.seed"}); n != 1 {
			t.Fatalf("seed audit entries: %d", n)
		}

		_, err = Demo(ctx, db, t.TempDir(), time.Now())
		if !errors.Is(err, ErrStoreNotEmpty) {
			t.Fatalf("second seed: %v", err)
		}
	})
}

func TestSeedRefusesAStoreWithAccounts(t *testing.T) {
	ctx := context.Background()
	db := storagetest.SQLite(t)
	storage.CreateUser(ctx, db, storage.User{ID: storage.NewID(), Account: "real", PasswordHash: "x", InviteCode: "pro_real"})
	dir := t.TempDir()
	if _, err := Demo(ctx, db, dir, time.Now()); !errors.Is(err, ErrStoreNotEmpty) || !strings.Contains(err.Error(), "users") {
		t.Fatalf("seed on a used store: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "files", "demo")); !os.IsNotExist(err) {
		t.Fatalf("a refused seed wrote files: %v", err)
	}
	if n, _ := storage.CountVideos(ctx, db, "", false); n != 0 {
		t.Fatalf("a refused seed wrote videos: %d", n)
	}
}

// TestDemoVideoBitstream decodes the generated H.264 with a reader for the
// subset the writer uses (I_PCM and skipped macroblocks) and checks that
// every decoded frame is exactly the frame that was painted, that the MP4
// tables point at the samples, and that emulation prevention holds.
func TestDemoVideoBitstream(t *testing.T) {
	const w, h, fps = 320, 180, 10
	mp4, _ := demoVideo(nightCity, w, h, fps, 2)
	boxes := map[string][]byte{}
	walkBoxes(t, mp4, boxes)
	for _, b := range []string{"ftyp", "moov", "mdat", "avcC", "stsz", "stco", "stss", "stts"} {
		if boxes[b] == nil {
			t.Fatalf("missing box %s", b)
		}
	}
	stsz := boxes["stsz"]
	count := int(binary.BigEndian.Uint32(stsz[8:]))
	if count != 2*fps {
		t.Fatalf("%d samples", count)
	}
	offset := int(binary.BigEndian.Uint32(boxes["stco"][8:]))
	if keys := binary.BigEndian.Uint32(boxes["stss"][4:]); keys != 1 {
		t.Fatalf("%d key frames in 2 s, want 1", keys)
	}

	dec := subsetDecoder{cw: w, ch: 192}
	for i := range count {
		size := int(binary.BigEndian.Uint32(stsz[12+4*i:]))
		unitLen := int(binary.BigEndian.Uint32(mp4[offset:]))
		if unitLen+4 != size {
			t.Fatalf("sample %d: size %d, NAL %d", i, size, unitLen)
		}
		unit := mp4[offset+4 : offset+size]
		if bytes.Contains(unit, []byte{0, 0, 1}) || bytes.Contains(unit, []byte{0, 0, 0}) {
			t.Fatalf("sample %d holds a start code", i)
		}
		got := dec.decode(t, unit, i == 0)
		c := newCanvas(w, h)
		nightCity(c, float64(i)/float64(count-1))
		want := toYUV(c.RGBA, w, 192)
		if !bytes.Equal(got.y, want.y) || !bytes.Equal(got.cb, want.cb) || !bytes.Equal(got.cr, want.cr) {
			t.Fatalf("frame %d decodes differently from what was painted", i)
		}
		offset += size
	}
}

func walkBoxes(t *testing.T, b []byte, into map[string][]byte) {
	for len(b) >= 8 {
		n := int(binary.BigEndian.Uint32(b))
		if n < 8 || n > len(b) {
			t.Fatalf("bad box size %d", n)
		}
		typ, body := string(b[4:8]), b[8:n]
		into[typ] = body
		switch typ {
		case "moov", "trak", "mdia", "minf", "stbl", "dinf":
			walkBoxes(t, body, into)
		case "stsd":
			walkBoxes(t, body[8:], into)
		case "avc1":
			walkBoxes(t, body[78:], into)
		}
		b = b[n:]
	}
}

// subsetDecoder decodes the pictures newH264 writes.
type subsetDecoder struct {
	cw, ch int
	ref    yuvFrame
}

type bitReader struct {
	b   []byte
	pos int // in bits
}

func (r *bitReader) u(n int) uint64 {
	var v uint64
	for range n {
		v = v<<1 | uint64(r.b[r.pos/8]>>(7-r.pos%8)&1)
		r.pos++
	}
	return v
}

func (r *bitReader) ue() uint32 {
	zeros := 0
	for r.u(1) == 0 {
		zeros++
	}
	return uint32(1<<zeros - 1 + r.u(zeros))
}

// more is more_rbsp_data(): anything before the final stop bit.
func (r *bitReader) more() bool {
	last := len(r.b)*8 - 1
	for r.b[last/8]>>(7-last%8)&1 == 0 {
		last--
	}
	return r.pos < last
}

func (d *subsetDecoder) decode(t *testing.T, unit []byte, idr bool) yuvFrame {
	t.Helper()
	var rbsp []byte
	zeros := 0
	for _, c := range unit[1:] {
		if zeros == 2 && c == 3 {
			zeros = 0
			continue
		}
		rbsp = append(rbsp, c)
		if c == 0 {
			zeros++
		} else {
			zeros = 0
		}
	}
	if typ := unit[0] & 31; (typ == 5) != idr {
		t.Fatalf("NAL type %d, idr %v", typ, idr)
	}
	r := &bitReader{b: rbsp}
	r.ue() // first_mb_in_slice
	sliceType := r.ue()
	r.ue() // pps id
	r.u(4) // frame_num
	if idr {
		r.ue() // idr_pic_id
		r.u(2) // dec_ref_pic_marking
	} else {
		r.u(3) // override, list modification, adaptive marking
	}
	r.ue() // slice_qp_delta (se, 0)
	if r.ue() != 1 {
		t.Fatal("deblocking not disabled")
	}
	f := yuvFrame{w: d.cw, h: d.ch, y: make([]byte, d.cw*d.ch), cb: make([]byte, d.cw*d.ch/4), cr: make([]byte, d.cw*d.ch/4)}
	if !idr {
		copy(f.y, d.ref.y)
		copy(f.cb, d.ref.cb)
		copy(f.cr, d.ref.cr)
	}
	mbs, addr := d.cw/16*d.ch/16, 0
	for addr < mbs {
		if sliceType == 5 {
			addr += int(r.ue())
			if addr >= mbs {
				break
			}
		}
		want := uint32(25)
		if sliceType == 5 {
			want = 30
		}
		if mt := r.ue(); mt != want {
			t.Fatalf("mb_type %d at %d", mt, addr)
		}
		for r.pos%8 != 0 {
			if r.u(1) != 0 {
				t.Fatal("pcm alignment bit set")
			}
		}
		mx, my, p := addr%(d.cw/16), addr/(d.cw/16), r.pos/8
		for y := range 16 {
			copy(f.y[(my*16+y)*d.cw+mx*16:], rbsp[p:p+16])
			p += 16
		}
		for _, plane := range [][]byte{f.cb, f.cr} {
			for y := range 8 {
				copy(plane[(my*8+y)*d.cw/2+mx*8:], rbsp[p:p+8])
				p += 8
			}
		}
		r.pos = p * 8
		addr++
		if !r.more() {
			break
		}
	}
	if addr < mbs && sliceType != 5 {
		t.Fatalf("I slice ended at macroblock %d of %d", addr, mbs)
	}
	d.ref = f
	return f
}

// Demo content is in every language, one language per text: the default
// language in the columns, the five others in texts, no title joining two.
func TestSeedDemoSpeaksEveryLanguage(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		if _, err := Demo(ctx, db, t.TempDir(), time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)); err != nil {
			t.Fatal(err)
		}
		type row struct {
			what   string
			base   map[string]string
			texts  storage.Texts
			fields []string
		}
		var rows []row
		banners, _ := storage.ListBanners(ctx, db, true)
		for _, b := range banners {
			rows = append(rows, row{"banner", map[string]string{"title": b.Title}, b.Texts, []string{"title"}})
		}
		videos, _ := storage.ListVideos(ctx, db, "", true, 50, 0)
		for _, v := range videos {
			rows = append(rows, row{"video", map[string]string{"title": v.Title}, v.Texts, []string{"title"}})
		}
		cities, _ := storage.ListCities(ctx, db, true)
		for _, c := range cities {
			rows = append(rows, row{"city", map[string]string{"name": c.Name}, c.Texts, []string{"name"}})
		}
		listings, _ := storage.ListListings(ctx, db, 0, true, 50, 0)
		for _, l := range listings {
			rows = append(rows, row{"listing", map[string]string{"intro": l.Intro}, l.Texts, []string{"intro"}})
		}
		notices, _ := storage.ListNotices(ctx, db, 50, 0)
		for _, n := range notices {
			rows = append(rows, row{"notice", map[string]string{"title": n.Title, "content": n.Content}, n.Texts, []string{"title", "content"}})
		}
		if len(rows) != 3+6+4+12+3 {
			t.Fatalf("%d rows", len(rows))
		}
		latin := func(s string) bool {
			for _, r := range s {
				if r >= 'A' && r <= 'z' && r != 'k' && r != 'j' {
					return true
				}
			}
			return false
		}
		han := func(s string) bool {
			for _, r := range s {
				if r >= 0x4e00 && r <= 0x9fff {
					return true
				}
			}
			return false
		}
		for _, r := range rows {
			for _, f := range r.fields {
				if base := r.base[f]; strings.Contains(base, " · ") || latin(base) || !han(base) {
					t.Errorf("%s %s %q is not zh-CN alone", r.what, f, base)
				}
				for _, lang := range []string{"zh-HANT", "en-US", "es-ES", "ms-MY", "vi-VN"} {
					text := r.texts[lang][f]
					if text == "" {
						t.Errorf("%s %s has no %s text", r.what, f, lang)
					}
					if lang != "zh-HANT" && (han(text) || strings.Contains(text, " · ")) {
						t.Errorf("%s %s in %s mixes in Chinese: %q", r.what, f, lang, text)
					}
				}
			}
		}
		var app storage.AppSettings
		if ok, err := storage.GetSetting(ctx, db, storage.SettingApp, &app); !ok || err != nil {
			t.Fatalf("app settings %v %v", ok, err)
		}
		if latin(app.ServiceWelcome) || len(app.ServiceWelcomeTexts) != 5 || han(app.ServiceWelcomeTexts["en-US"]) {
			t.Errorf("welcome %q in others %v", app.ServiceWelcome, app.ServiceWelcomeTexts)
		}
		if got := cities[0].Texts.Text("en-US", "name", cities[0].Name); got != "Shanghai" {
			t.Errorf("first city in en-US: %q", got)
		}
	})
}
