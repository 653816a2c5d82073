package httpapi

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"net/http/httptest"
	"reflect"
	"testing"

	"kj/actors/window"
	"kj/internal/apierr"
)

// Strings a reply can carry, those encoding/json escapes among them.
var replyStrings = []string{"", "a", "7301234567890123", "20260301000100001", "BIG", "win",
	`quote " and \ backslash`, "<script>&amp;</script>", "tab\tnewline\ncr\r nul\x00 bell\x07", "del\x7f",
	"line\u2028para\u2029", "中文 名字", "Tiếng Việt", "emoji 😀", "bad \xff\xfe utf-8", "half \xe4\xb8",
	"https://example.com/a?b=c&d=e", "/files/avatars/a.png"}

var replyInts = []int64{0, 1, -1, 9, 10, 99, 12345, -987654321, 1 << 53, math.MaxInt32, math.MinInt32,
	math.MaxInt64, math.MinInt64}

// fill sets every field of v (a struct, a slice of structs, ...) to a value
// picked from the lists above, so that a field the hand-written encoder
// leaves out or spells differently shows.
func fill(v reflect.Value, r *rand.Rand) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(replyStrings[r.IntN(len(replyStrings))])
	case reflect.Int, reflect.Int64, reflect.Int32:
		n := replyInts[r.IntN(len(replyInts))]
		if v.OverflowInt(n) {
			n = int64(int32(n))
		}
		v.SetInt(n)
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 1)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), r)
		}
	case reflect.Slice:
		switch n := r.IntN(5); n {
		case 0: // nil: null
		default:
			s := reflect.MakeSlice(v.Type(), n-1, n-1) // 0 elements: []
			for i := range s.Len() {
				fill(s.Index(i), r)
			}
			v.Set(s)
		}
	default:
		panic("fill: no values for " + v.Type().String())
	}
}

// The hand-written answers are byte for byte encoding/json's, alone and in
// the envelope, for values in every field (strings needing escapes, the
// extremes of the integers, nil and empty lists).
func TestHandWrittenRepliesMatchEncodingJSON(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(38, 5))
	types := []reflect.Type{reflect.TypeFor[amountReply](), reflect.TypeFor[UserInfo](),
		reflect.TypeFor[userIndexReply](), reflect.TypeFor[window.BetView](), reflect.TypeFor[window.Lobby]()}
	for _, typ := range types {
		zero := reflect.New(typ).Elem().Interface()
		if _, ok := appendData(nil, zero); !ok {
			t.Fatalf("%s is not written by hand", typ)
		}
		for i := range 2000 {
			v := reflect.New(typ).Elem()
			if i > 0 { // the zero value first
				fill(v, r)
			}
			data := v.Interface()
			want, err := json.Marshal(data)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := appendData([]byte("prefix"), data)
			if string(got) != "prefix"+string(want) {
				t.Fatalf("%s:\n got %s\nwant prefix%s", typ, got, want)
			}
			if i%100 == 0 {
				lang := apierr.Langs[i/100%len(apierr.Langs)]
				hand, enc := httptest.NewRecorder(), httptest.NewRecorder()
				writeOK(hand, nil, lang, data)
				WriteJSON(enc, 200, envelope{Code: apierr.CodeOK, Message: apierr.Translate(lang, "ok", nil), Data: data})
				if hand.Body.String() != enc.Body.String() ||
					hand.Header().Get("Content-Length") != enc.Header().Get("Content-Length") {
					t.Fatalf("%s in the envelope:\n got %s\nwant %s", typ, hand.Body, enc.Body)
				}
			}
		}
	}
	// Other types still go through encoding/json.
	if _, ok := appendData(nil, map[string]int{"a": 1}); ok {
		t.Error("a map was written by hand")
	}
}

// appendJSONString quotes as encoding/json does, every string above and
// every single byte.
func TestAppendJSONString(t *testing.T) {
	t.Parallel()
	strs := append([]string(nil), replyStrings...)
	for c := range 256 {
		strs = append(strs, string([]byte{byte(c)}), "x"+string([]byte{byte(c)})+"y")
	}
	for _, s := range strs {
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	}
}
