package httpapi

// Fuzzing the JSON decoding of /register and /accountLogin. The seed corpus
// is in testdata/fuzz/<FuzzName>/ and runs in every `go test`; explore with
//
//	go test -run '^$' -fuzz FuzzRegisterJSON -fuzztime 1m ./httpapi/
//
// Invariants: every body gets an envelope, never a 5xx or "system busy";
// success only for input that passes the rules (and then the account
// exists, or the password was right).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync/atomic"
	"testing"

	"kj/internal/apierr"
	"kj/storage"
	"kj/storage/storagetest"
)

// fuzzCall posts body from a fresh client address, so the per-address
// limits do not hide the handler behind "too many requests".
func fuzzCall(t *testing.T, s *Server, path string, body []byte, n *atomic.Int64) reply {
	i := n.Add(1)
	req := request("POST", path, bytes.NewReader(body))
	req.RemoteAddr = fmt.Sprintf("10.%d.%d.%d:1000", i>>16&255, i>>8&255, i&255)
	r := send(t, s.Handler(), req)
	if r.Status >= 500 || r.Code == apierr.CodeInternal {
		t.Fatalf("body %q: server error %d %+v", body, r.Status, r)
	}
	if r.Message == "" {
		t.Fatalf("body %q: empty message", body)
	}
	return r
}

// fuzzServer is a test server on SQLite that logs nothing (fuzzing makes
// millions of calls).
func fuzzServer(f *testing.F) *Server {
	s, _ := testServer(f, storagetest.SQLite(f))
	s.Log = slog.New(slog.DiscardHandler)
	return s
}

// fuzzAccepted fuzzes path with request bodies (fuzzCall checks every
// reply) and has accepted check each body the route accepted.
func fuzzAccepted(f *testing.F, s *Server, path string, accepted func(t *testing.T, body []byte, r reply)) {
	var n atomic.Int64
	f.Fuzz(func(t *testing.T, body []byte) {
		if r := fuzzCall(t, s, path, body, &n); r.Code == 0 {
			accepted(t, body, r)
		}
	})
}

func FuzzRegisterJSON(f *testing.F) {
	s := fuzzServer(f)
	newUser(f, s, "fuzzboss")
	fuzzAccepted(f, s, "/api/register", func(t *testing.T, body []byte, r reply) {
		var req registerRequest
		if err := json.Unmarshal(body, &req); err != nil {
			t.Fatalf("body %q registered but does not decode: %v", body, err)
		}
		if ValidateAccount(req.Account) != nil || ValidatePassword("password", req.Password) != nil {
			t.Fatalf("body %q registered an account breaking the rules", body)
		}
		u, err := storage.UserByAccount(context.Background(), s.DB, req.Account)
		if err != nil || data[registerReply](t, r).UserID != u.IDString() {
			t.Fatalf("body %q: registered %s but stored %+v %v", body, r.Data, u, err)
		}
	})
}

func FuzzAccountLoginJSON(f *testing.F) {
	s := fuzzServer(f)
	u, _ := newUser(f, s, "fuzzer")
	fuzzAccepted(f, s, "/api/accountLogin", func(t *testing.T, body []byte, r reply) {
		var req loginRequest
		if err := json.Unmarshal(body, &req); err != nil || req.Account != "fuzzer" || req.Password != "abc123" {
			t.Fatalf("body %q signed in: %+v %v", body, req, err)
		}
		tok := data[map[string]string](t, r)
		if tok["token"] == "" || tok["jwt"] == "" || tok["chatToken"] == "" || tok["userId"] != u.IDString() {
			t.Fatalf("body %q: tokens %v", body, tok)
		}
	})
}
