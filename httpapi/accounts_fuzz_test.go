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
	"net/http/httptest"
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
	req := httptest.NewRequest("POST", path, bytes.NewReader(body))
	req.RemoteAddr = fmt.Sprintf("10.%d.%d.%d:1000", i>>16&255, i>>8&255, i&255)
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, req)
	var r reply
	if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil {
		t.Fatalf("body %q: reply is not an envelope: %q", body, w.Body.String())
	}
	if w.Code >= 500 || r.Code == apierr.CodeInternal {
		t.Fatalf("body %q: server error %d %+v", body, w.Code, r)
	}
	if r.Message == "" {
		t.Fatalf("body %q: empty message", body)
	}
	return r
}

func FuzzRegisterJSON(f *testing.F) {
	db := storagetest.SQLite(f)
	s, _ := testServer(f, db)
	s.Log = slog.New(slog.DiscardHandler) // millions of calls
	boss := storage.User{ID: storage.NewID(), Account: "fuzzboss", PasswordHash: "x", InviteCode: "pro_fuzzboss"}
	if err := storage.CreateUser(context.Background(), db, boss); err != nil {
		f.Fatal(err)
	}
	var n atomic.Int64
	f.Fuzz(func(t *testing.T, body []byte) {
		r := fuzzCall(t, s, "/api/register", body, &n)
		if r.Code != 0 {
			return
		}
		var req registerRequest
		if err := json.Unmarshal(body, &req); err != nil {
			t.Fatalf("body %q registered but does not decode: %v", body, err)
		}
		if ValidateAccount(req.Account) != nil || ValidatePassword("password", req.Password) != nil {
			t.Fatalf("body %q registered an account breaking the rules", body)
		}
		u, err := storage.UserByAccount(context.Background(), db, req.Account)
		if err != nil || data[registerReply](t, r).UserID != u.IDString() {
			t.Fatalf("body %q: registered %s but stored %+v %v", body, r.Data, u, err)
		}
	})
}

func FuzzAccountLoginJSON(f *testing.F) {
	db := storagetest.SQLite(f)
	s, _ := testServer(f, db)
	s.Log = slog.New(slog.DiscardHandler) // millions of calls
	u := storage.User{ID: storage.NewID(), Account: "fuzzer", PasswordHash: testHash(), InviteCode: "pro_fuzzer"}
	if err := storage.CreateUser(context.Background(), db, u); err != nil {
		f.Fatal(err)
	}
	var n atomic.Int64
	f.Fuzz(func(t *testing.T, body []byte) {
		r := fuzzCall(t, s, "/api/accountLogin", body, &n)
		if r.Code != 0 {
			return
		}
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
