package seed

// Demo media made from nothing, for `kj seed --demo`: PNG placeholders
// (gradients and simple shapes) and short MP4 videos. The videos are real
// H.264 (Constrained Baseline) in an MP4 container, encoded the simplest way
// the standard allows: the first frame sends every macroblock as raw samples
// (I_PCM), later frames resend only the macroblocks that changed and skip
// the rest. That needs no codec library, is lossless, and stays small for
// scenes where little moves — which is what a tasteful demo shows.

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/bits"
)

// ---- pictures ----

type rgb struct{ r, g, b float64 }

func lerp(a, b rgb, t float64) rgb {
	return rgb{a.r + (b.r-a.r)*t, a.g + (b.g-a.g)*t, a.b + (b.b-a.b)*t}
}

func (c rgb) rgba() color.RGBA {
	cl := func(v float64) uint8 { return uint8(math.Max(0, math.Min(255, v))) }
	return color.RGBA{cl(c.r), cl(c.g), cl(c.b), 255}
}

// canvas is an image being painted.
type canvas struct{ *image.RGBA }

func newCanvas(w, h int) canvas { return canvas{image.NewRGBA(image.Rect(0, 0, w, h))} }

// vertical fills the canvas with a top-to-bottom gradient.
func (c canvas) vertical(top, bottom rgb) {
	b := c.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		col := lerp(top, bottom, float64(y)/float64(b.Dy()-1)).rgba()
		for x := b.Min.X; x < b.Max.X; x++ {
			c.SetRGBA(x, y, col)
		}
	}
}

// disc paints a filled circle with a soft edge.
func (c canvas) disc(cx, cy, r float64, col rgb) {
	b := c.Bounds()
	for y := max(b.Min.Y, int(cy-r-1)); y < min(b.Max.Y, int(cy+r+2)); y++ {
		for x := max(b.Min.X, int(cx-r-1)); x < min(b.Max.X, int(cx+r+2)); x++ {
			d := math.Hypot(float64(x)+.5-cx, float64(y)+.5-cy)
			if a := math.Max(0, math.Min(1, r-d+.5)); a > 0 {
				c.blend(x, y, col, a)
			}
		}
	}
}

func (c canvas) blend(x, y int, col rgb, a float64) {
	o := c.RGBAAt(x, y)
	c.SetRGBA(x, y, lerp(rgb{float64(o.R), float64(o.G), float64(o.B)}, col, a).rgba())
}

// rect paints an axis-aligned rectangle.
func (c canvas) rect(x0, y0, x1, y1 int, col rgb) {
	r := image.Rect(x0, y0, x1, y1).Intersect(c.Bounds())
	rc := col.rgba()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c.SetRGBA(x, y, rc)
		}
	}
}

// below paints every pixel under the curve y = f(x) with col.
func (c canvas) below(f func(x float64) float64, col rgb) {
	b := c.Bounds()
	for x := b.Min.X; x < b.Max.X; x++ {
		top := f(float64(x))
		for y := max(b.Min.Y, int(top)); y < b.Max.Y; y++ {
			a := 1.0
			if y == int(top) {
				a = 1 - (top - math.Floor(top))
			}
			c.blend(x, y, col, a)
		}
	}
}

func pngBytes(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	err := png.Encode(&buf, img)
	return buf.Bytes(), err
}

// Palettes of the demo scenes.
var (
	dawnTop, dawnBottom   = rgb{255, 183, 130}, rgb{255, 228, 196}
	seaDeep, seaLight     = rgb{38, 92, 150}, rgb{88, 160, 200}
	nightTop, nightBottom = rgb{16, 24, 58}, rgb{49, 90, 255}
	meadowTop             = rgb{160, 210, 255}
	sun, moon, ivory      = rgb{255, 120, 70}, rgb{250, 245, 220}, rgb{255, 252, 240}
)

// scene paints frame t (0..1) of one demo scene on c.
type scene func(c canvas, t float64)

// sunrise: the sun climbs over a calm sea.
func sunrise(c canvas, t float64) {
	w, h := float64(c.Bounds().Dx()), float64(c.Bounds().Dy())
	c.vertical(dawnTop, dawnBottom)
	c.disc(w*0.5, h*(0.78-0.42*t), h*0.13, sun)
	c.below(func(x float64) float64 { return h*0.64 + math.Sin(x/w*9)*h*0.01 }, seaDeep)
	for i := range 4 {
		y := int(h*0.7) + i*int(h*0.07)
		c.rect(int(w*0.3)-i*8, y, int(w*0.7)+i*8, y+2, seaLight)
	}
}

// paperBoat: a paper boat sails across gentle waves.
func paperBoat(c canvas, t float64) {
	w, h := float64(c.Bounds().Dx()), float64(c.Bounds().Dy())
	c.vertical(meadowTop, rgb{225, 240, 255})
	c.disc(w*0.82, h*0.2, h*0.08, ivory)
	waterline := h * 0.62
	bx := w*0.12 + w*0.7*t
	for y := int(waterline - h*0.16); y < int(waterline); y++ {
		half := (float64(y) - (waterline - h*0.16)) / (h * 0.16) * w * 0.09
		c.rect(int(bx-half), y, int(bx+half), y+1, ivory)
	}
	c.below(func(x float64) float64 { return waterline + math.Sin(x/w*14)*h*0.012 }, seaLight)
	c.below(func(x float64) float64 { return h*0.8 + math.Sin(x/w*10+2)*h*0.01 }, seaDeep)
}

// nightCity: the moon crosses the sky above a quiet skyline.
func nightCity(c canvas, t float64) {
	w, h := float64(c.Bounds().Dx()), float64(c.Bounds().Dy())
	c.vertical(nightTop, nightBottom)
	c.disc(w*(0.15+0.7*t), h*0.25, h*0.09, moon)
	heights := []float64{0.45, 0.6, 0.38, 0.7, 0.5, 0.42, 0.65, 0.48}
	bw := w / float64(len(heights))
	for i, bh := range heights {
		x0 := int(float64(i) * bw)
		c.rect(x0+2, int(h*(1-bh)), x0+int(bw)-2, int(h), rgb{22, 28, 52})
		for wy := int(h*(1-bh)) + 6; wy < int(h)-6; wy += 12 {
			c.rect(x0+8, wy, x0+12, wy+4, rgb{255, 214, 120})
		}
	}
}

// portrait paints a neutral placeholder: a head-and-shoulders silhouette
// on a pastel background of the given hue (0..1).
func portrait(w, h int, hue float64) canvas {
	c := newCanvas(w, h)
	bg := hsl(hue, 0.55, 0.86)
	c.vertical(bg, hsl(hue, 0.45, 0.74))
	fw, fh := float64(w), float64(h)
	fg := hsl(hue, 0.35, 0.55)
	c.disc(fw*0.5, fh*0.38, fw*0.17, fg)
	c.below(func(x float64) float64 {
		d := (x - fw*0.5) / (fw * 0.36)
		if d*d >= 1 {
			return fh
		}
		return fh*0.62 + fh*0.3*(1-math.Sqrt(1-d*d))
	}, fg)
	return c
}

func hsl(h, s, l float64) rgb {
	f := func(n float64) float64 {
		k := math.Mod(n+h*12, 12)
		a := s * math.Min(l, 1-l)
		return 255 * (l - a*math.Max(-1, math.Min(math.Min(k-3, 9-k), 1)))
	}
	return rgb{f(0), f(8), f(4)}
}

// ---- H.264 ----

// bitWriter writes an RBSP most significant bit first.
type bitWriter struct {
	buf  []byte
	cur  byte
	used uint8
}

func (w *bitWriter) u(v uint64, n int) {
	for i := n - 1; i >= 0; i-- {
		w.cur = w.cur<<1 | byte(v>>uint(i)&1)
		if w.used++; w.used == 8 {
			w.buf, w.cur, w.used = append(w.buf, w.cur), 0, 0
		}
	}
}

// ue writes an Exp-Golomb code.
func (w *bitWriter) ue(v uint32) {
	n := bits.Len32(v + 1)
	w.u(0, n-1)
	w.u(uint64(v+1), n)
}

func (w *bitWriter) se(v int32) {
	if v > 0 {
		w.ue(uint32(2*v - 1))
	} else {
		w.ue(uint32(-2 * v))
	}
}

func (w *bitWriter) align() {
	for w.used != 0 {
		w.u(0, 1)
	}
}

func (w *bitWriter) trailing() {
	w.u(1, 1)
	w.align()
}

// nal wraps an RBSP into a NAL unit, inserting emulation-prevention bytes.
func nal(refIdc, typ byte, rbsp []byte) []byte {
	out := []byte{refIdc<<5 | typ}
	zeros := 0
	for _, b := range rbsp {
		if zeros == 2 && b <= 3 {
			out, zeros = append(out, 3), 0
		}
		out = append(out, b)
		if b == 0 {
			zeros++
		} else {
			zeros = 0
		}
	}
	return out
}

// yuvFrame is a 4:2:0 picture at the coded size (multiples of 16), in the
// limited (video) range H.264 assumes without VUI.
type yuvFrame struct {
	w, h      int
	y, cb, cr []byte
}

func toYUV(img *image.RGBA, w, h int) yuvFrame {
	f := yuvFrame{w: w, h: h, y: make([]byte, w*h), cb: make([]byte, w*h/4), cr: make([]byte, w*h/4)}
	b := img.Bounds()
	at := func(x, y int) color.RGBA { // edge pixels repeat into the padding
		return img.RGBAAt(min(x, b.Dx()-1), min(y, b.Dy()-1))
	}
	limit := func(v int, scale int) byte { return byte(16 + (v*scale+127)/255) }
	for y := range h {
		for x := range w {
			c := at(x, y)
			yy, _, _ := color.RGBToYCbCr(c.R, c.G, c.B)
			f.y[y*w+x] = limit(int(yy), 219)
		}
	}
	for y := range h / 2 {
		for x := range w / 2 {
			var sb, sr int
			for dy := range 2 {
				for dx := range 2 {
					c := at(2*x+dx, 2*y+dy)
					_, cb, cr := color.RGBToYCbCr(c.R, c.G, c.B)
					sb, sr = sb+int(cb), sr+int(cr)
				}
			}
			f.cb[y*w/2+x], f.cr[y*w/2+x] = limit((sb+2)/4, 224), limit((sr+2)/4, 224)
		}
	}
	return f
}

// mbEqual reports whether macroblock (mx, my) is the same in a and b.
func mbEqual(a, b yuvFrame, mx, my int) bool {
	for y := range 16 {
		o := (my*16+y)*a.w + mx*16
		if !bytes.Equal(a.y[o:o+16], b.y[o:o+16]) {
			return false
		}
	}
	for y := range 8 {
		o := (my*8+y)*a.w/2 + mx*8
		if !bytes.Equal(a.cb[o:o+8], b.cb[o:o+8]) || !bytes.Equal(a.cr[o:o+8], b.cr[o:o+8]) {
			return false
		}
	}
	return true
}

// pcm writes macroblock (mx, my) of f as raw samples (the writer is byte aligned).
func (w *bitWriter) pcm(f yuvFrame, mx, my int) {
	for y := range 16 {
		o := (my*16+y)*f.w + mx*16
		w.buf = append(w.buf, f.y[o:o+16]...)
	}
	for _, plane := range [][]byte{f.cb, f.cr} {
		for y := range 8 {
			o := (my*8+y)*f.w/2 + mx*8
			w.buf = append(w.buf, plane[o:o+8]...)
		}
	}
}

// h264Stream encodes frames of a fixed size.
type h264Stream struct {
	w, h       int // displayed size
	cw, ch     int // coded size
	sps, pps   []byte
	frameNum   int
	idrCount   int
	ref        yuvFrame
	haveRef    bool
	sampleSize []uint32
	sync       []uint32 // 1-based numbers of the IDR samples
	samples    bytes.Buffer
}

const (
	h264Profile = 66   // Baseline
	h264Compat  = 0xC0 // constraint_set0 and set1: Constrained Baseline
	h264Level   = 30
)

func newH264(w, h int) *h264Stream {
	s := &h264Stream{w: w, h: h, cw: (w + 15) / 16 * 16, ch: (h + 15) / 16 * 16}
	var b bitWriter
	b.u(h264Profile, 8)
	b.u(h264Compat, 8)
	b.u(h264Level, 8)
	b.ue(0) // seq_parameter_set_id
	b.ue(0) // log2_max_frame_num_minus4: frame_num has 4 bits
	b.ue(2) // pic_order_cnt_type 2: output order = decoding order
	b.ue(1) // max_num_ref_frames
	b.u(0, 1)
	b.ue(uint32(s.cw/16 - 1))
	b.ue(uint32(s.ch/16 - 1))
	b.u(1, 1) // frame_mbs_only_flag
	b.u(1, 1) // direct_8x8_inference_flag
	if s.cw != w || s.ch != h {
		b.u(1, 1) // frame_cropping_flag, in 2-sample units for 4:2:0
		b.ue(0)
		b.ue(uint32((s.cw - w) / 2))
		b.ue(0)
		b.ue(uint32((s.ch - h) / 2))
	} else {
		b.u(0, 1)
	}
	b.u(0, 1) // vui_parameters_present_flag
	b.trailing()
	s.sps = nal(3, 7, b.buf)

	b = bitWriter{}
	b.ue(0)   // pic_parameter_set_id
	b.ue(0)   // seq_parameter_set_id
	b.u(0, 1) // entropy_coding_mode_flag: CAVLC
	b.u(0, 1) // bottom_field_pic_order_in_frame_present_flag
	b.ue(0)   // num_slice_groups_minus1
	b.ue(0)   // num_ref_idx_l0_default_active_minus1
	b.ue(0)   // num_ref_idx_l1_default_active_minus1
	b.u(0, 1) // weighted_pred_flag
	b.u(0, 2) // weighted_bipred_idc
	b.se(0)   // pic_init_qp_minus26
	b.se(0)   // pic_init_qs_minus26
	b.se(0)   // chroma_qp_index_offset
	b.u(1, 1) // deblocking_filter_control_present_flag
	b.u(0, 1) // constrained_intra_pred_flag
	b.u(0, 1) // redundant_pic_cnt_present_flag
	b.trailing()
	s.pps = nal(3, 8, b.buf)
	return s
}

// add encodes one frame: as an IDR picture of I_PCM macroblocks when key
// (and always first), else as a P picture that skips unchanged macroblocks
// (a skipped macroblock copies the previous picture: with every motion
// vector zero, its prediction is exact) and resends changed ones as I_PCM.
// Key frames are where players can start decoding after a seek.
func (s *h264Stream) add(img *image.RGBA, key bool) {
	f := toYUV(img, s.cw, s.ch)
	idr := key || !s.haveRef
	if idr {
		s.frameNum = 0
		s.sync = append(s.sync, uint32(len(s.sampleSize)+1))
	}
	var b bitWriter
	b.ue(0) // first_mb_in_slice
	if idr {
		b.ue(7) // slice_type: I (all slices)
	} else {
		b.ue(5) // slice_type: P (all slices)
	}
	b.ue(0) // pic_parameter_set_id
	b.u(uint64(s.frameNum%16), 4)
	if idr {
		b.ue(uint32(s.idrCount % 2)) // idr_pic_id: consecutive IDR pictures differ
		s.idrCount++
	} else {
		b.u(0, 1) // num_ref_idx_active_override_flag
		b.u(0, 1) // ref_pic_list_modification_flag_l0
	}
	if idr {
		b.u(0, 1) // no_output_of_prior_pics_flag
		b.u(0, 1) // long_term_reference_flag
	} else {
		b.u(0, 1) // adaptive_ref_pic_marking_mode_flag: sliding window
	}
	b.se(0) // slice_qp_delta
	b.ue(1) // disable_deblocking_filter_idc: off (I_PCM needs none)
	skipped := 0
	for my := range s.ch / 16 {
		for mx := range s.cw / 16 {
			if !idr && mbEqual(f, s.ref, mx, my) {
				skipped++
				continue
			}
			if idr {
				b.ue(25) // mb_type I_PCM in an I slice
			} else {
				b.ue(uint32(skipped)) // mb_skip_run
				skipped = 0
				b.ue(30) // mb_type I_PCM in a P slice (5 + 25)
			}
			b.align() // pcm_alignment_zero_bit
			b.pcm(f, mx, my)
		}
	}
	if skipped > 0 {
		b.ue(uint32(skipped))
	}
	b.trailing()
	typ := byte(1)
	if idr {
		typ = 5
	}
	unit := nal(2, typ, b.buf)
	binary.Write(&s.samples, binary.BigEndian, uint32(len(unit)))
	s.samples.Write(unit)
	s.sampleSize = append(s.sampleSize, uint32(4+len(unit)))
	s.ref, s.haveRef = f, true
	s.frameNum++
}

// ---- MP4 ----

func box(typ string, parts ...[]byte) []byte {
	n := 8
	for _, p := range parts {
		n += len(p)
	}
	out := binary.BigEndian.AppendUint32(make([]byte, 0, n), uint32(n))
	out = append(out, typ...)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func u32s(vs ...uint32) []byte {
	var out []byte
	for _, v := range vs {
		out = binary.BigEndian.AppendUint32(out, v)
	}
	return out
}

func u16s(vs ...uint16) []byte {
	var out []byte
	for _, v := range vs {
		out = binary.BigEndian.AppendUint16(out, v)
	}
	return out
}

var identityMatrix = u32s(0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000)

// mp4 wraps the stream into a progressive MP4 (moov before mdat) at fps.
func (s *h264Stream) mp4(fps int) []byte {
	const timescale = 1000
	n := uint32(len(s.sampleSize))
	duration := n * timescale / uint32(fps)
	avcC := box("avcC", []byte{1, h264Profile, h264Compat, h264Level, 0xFF, 0xE1},
		u16s(uint16(len(s.sps))), s.sps, []byte{1}, u16s(uint16(len(s.pps))), s.pps)
	compressor := make([]byte, 32)
	avc1 := box("avc1", make([]byte, 6), u16s(1), make([]byte, 16), u16s(uint16(s.w), uint16(s.h)),
		u32s(0x00480000, 0x00480000, 0), u16s(1), compressor, u16s(0x0018, 0xFFFF), avcC)
	sizes := u32s(0, n)
	for _, sz := range s.sampleSize {
		sizes = append(sizes, u32s(sz)...)
	}
	stblWith := func(offset uint32) []byte {
		return box("stbl",
			box("stsd", u32s(0, 1), avc1),
			box("stts", u32s(0, 1, n, timescale/uint32(fps))),
			box("stss", u32s(0, uint32(len(s.sync))), u32s(s.sync...)),
			box("stsc", u32s(0, 1, 1, n, 1)),
			box("stsz", u32s(0), sizes),
			box("stco", u32s(0, 1, offset)))
	}
	moovWith := func(offset uint32) []byte {
		return box("moov",
			box("mvhd", u32s(0, 0, 0, timescale, duration, 0x00010000), u16s(0x0100, 0), u32s(0, 0), identityMatrix, make([]byte, 24), u32s(2)),
			box("trak",
				box("tkhd", u32s(3, 0, 0, 1, 0, duration, 0, 0), u16s(0, 0, 0, 0), identityMatrix, u32s(uint32(s.w)<<16, uint32(s.h)<<16)),
				box("mdia",
					box("mdhd", u32s(0, 0, 0, timescale, duration), u16s(0x55C4, 0)),
					box("hdlr", u32s(0, 0), []byte("vide"), u32s(0, 0, 0), []byte("VideoHandler\x00")),
					box("minf",
						box("vmhd", u32s(1), u16s(0, 0, 0, 0)),
						box("dinf", box("dref", u32s(0, 1), box("url ", u32s(1)))),
						stblWith(offset)))))
	}
	ftyp := box("ftyp", []byte("isom"), u32s(0x200), []byte("isomiso2avc1mp41"))
	// The chunk offset is where the samples start: after ftyp, moov and the mdat header.
	offset := uint32(len(ftyp) + len(moovWith(0)) + 8)
	out := append(ftyp, moovWith(offset)...)
	return append(out, box("mdat", s.samples.Bytes())...)
}

// demoVideo renders seconds of sc at fps into an MP4 and returns it with
// its first frame (the cover).
func demoVideo(sc scene, w, h, fps int, seconds float64) ([]byte, *image.RGBA) {
	st := newH264(w, h)
	frames := int(seconds * float64(fps))
	var cover *image.RGBA
	for i := range frames {
		c := newCanvas(w, h)
		sc(c, float64(i)/float64(frames-1))
		if i == 0 {
			cover = c.RGBA
		}
		st.add(c.RGBA, i%(2*fps) == 0) // a key frame every 2 s, where a seek can start
	}
	return st.mp4(fps), cover
}
