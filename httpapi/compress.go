package httpapi

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Answers are compressed where they are written (writeBody), the whole body
// being in a buffer by then: JSON answers of CompressMinSize bytes or more go
// compressed to clients that accept it, as gzhttp's wrapper did before
// (the same choice of coding: zstd where the client takes it at least as
// gladly as gzip, else gzip; the same levels), without the wrapper's cost on
// every small answer (issue 38 #5: a tenth of a small read's time went to
// wrapping the writer for answers that were never compressed).

// CompressMinSize is the smallest JSON answer sent compressed.
const CompressMinSize = 1024

// coding is a Content-Encoding an answer is sent with.
type coding int

const (
	codingNone coding = iota
	codingGzip
	codingZstd
)

var (
	gzipEncoding = []string{"gzip"}
	zstdEncoding = []string{"zstd"}
	varyEncoding = []string{"Accept-Encoding"}
)

// acceptedCoding is the coding r's Accept-Encoding asks for: the one with
// the higher q-value of gzip and zstd, zstd on a tie; none for HEAD
// requests and for codings refused with q=0.
func acceptedCoding(r *http.Request) coding {
	if r.Method == http.MethodHead {
		return codingNone
	}
	ae := headerValue(r.Header, "Accept-Encoding")
	if ae == "" {
		return codingNone
	}
	var gz, zs float64 // each coding's first mention counts
	var gzSeen, zsSeen bool
	for part := range strings.SplitSeq(ae, ",") {
		name, q := parseCoding(part)
		switch {
		case name == "gzip" && !gzSeen:
			gz, gzSeen = q, true
		case name == "zstd" && !zsSeen:
			zs, zsSeen = q, true
		}
	}
	switch {
	case zs > 0 && zs >= gz:
		return codingZstd
	case gz > 0:
		return codingGzip
	}
	return codingNone
}

// parseCoding reads one element of Accept-Encoding: "gzip", "gzip;q=0.5".
func parseCoding(s string) (name string, q float64) {
	name, params, _ := strings.Cut(s, ";")
	name = strings.ToLower(strings.TrimSpace(name))
	q = 1
	for p := range strings.SplitSeq(params, ";") {
		p = strings.TrimSpace(p)
		if len(p) >= 2 && strings.EqualFold(p[:2], "q=") {
			v, err := strconv.ParseFloat(p[2:], 64)
			if err != nil {
				v = 0
			}
			q = min(max(v, 0), 1)
		}
	}
	return name, q
}

var (
	gzipWriters = sync.Pool{New: func() any {
		w, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression) // a valid level: no error
		return w
	}}
	zstdWriters = sync.Pool{New: func() any {
		w, _ := zstd.NewWriter(nil, // valid options: no error
			zstd.WithEncoderLevel(zstd.SpeedFastest),
			zstd.WithEncoderConcurrency(1),
			zstd.WithLowerEncoderMem(true),
			zstd.WithWindowSize(128<<10),
		)
		return w
	}}
)

// compress writes body compressed with c into dst.
func compress(c coding, dst *bytes.Buffer, body []byte) error {
	switch c {
	case codingGzip:
		zw := gzipWriters.Get().(*gzip.Writer)
		defer gzipWriters.Put(zw)
		zw.Reset(dst)
		if _, err := zw.Write(body); err != nil {
			return err
		}
		return zw.Close()
	case codingZstd:
		zw := zstdWriters.Get().(*zstd.Encoder)
		defer func() {
			zw.Reset(nil)
			zstdWriters.Put(zw)
		}()
		zw.Reset(dst)
		if _, err := zw.Write(body); err != nil {
			return err
		}
		return zw.Close()
	}
	_, err := dst.Write(body)
	return err
}

// headerValue is h.Get(key) for a key already in canonical form (Token,
// Accept-Language): the server stores request headers canonical, and
// Get's canonicalising of a lower-case key cost an allocation per request.
func headerValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}
