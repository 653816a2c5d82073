package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"kj/internal/apierr"
)

func call(t *testing.T, srv *httptest.Server, path, token, body string) (int, envelope, json.RawMessage) {
	t.Helper()
	req, _ := http.NewRequest("POST", srv.URL+"/api"+path, strings.NewReader(body))
	req.Header.Set("token", token)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var env struct {
		envelope
		Data json.RawMessage `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" || resp.ContentLength <= 0 {
		t.Fatalf("%s answered %q with length %d", path, ct, resp.ContentLength)
	}
	return resp.StatusCode, env.envelope, env.Data
}

// The floor answers kj's routes in kj's shapes from memory; a bet takes
// from the balance once per betId and is refused past the balance.
func TestFloorAnswersLikeKJ(t *testing.T) {
	s := NewStore([]User{{ID: 7, Account: "ld000007", Token: "tok7", Balance: 1000}, {ID: 8, Account: "ld000008", Token: "tok8", Balance: 50}}, 100, 100000)
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()

	_, env, data := call(t, srv, "/user/mine", "tok7", "")
	var info userInfo
	if err := json.Unmarshal(data, &info); env.Code != 0 || env.Message != "success" || err != nil || info.UserID != "7" || info.Username != "ld000007" {
		t.Fatalf("mine: %+v %s", env, data)
	}
	for _, field := range []string{"userId", "username", "nickName", "avatar", "phone", "notice", "isActivation", "customerId", "isRecharge", "inviteCode", "hasFundPassword", "isOperator"} {
		if !strings.Contains(string(data), `"`+field+`":`) {
			t.Errorf("mine has no %s: %s", field, data)
		}
	}
	amount := func(token string) int64 {
		t.Helper()
		_, env, data := call(t, srv, "/user/amount", token, "")
		var a amountReply
		if err := json.Unmarshal(data, &a); env.Code != 0 || err != nil {
			t.Fatalf("amount: %+v %s", env, data)
		}
		return a.Amount
	}
	if got := amount("tok7"); got != 1000 {
		t.Fatalf("balance %d", got)
	}
	bet := `{"windowId":1,"issue":"20250101001","content":"BIG","amount":300,"betId":"b1"}`
	_, env, data = call(t, srv, "/activation/betRequest", "tok7", bet)
	var v betView
	if err := json.Unmarshal(data, &v); env.Code != 0 || err != nil || v.BetID != "b1" || v.Amount != 300 || v.NoteNo != "1" || v.PlacedAt == 0 {
		t.Fatalf("bet: %+v %s", env, data)
	}
	_, env, data = call(t, srv, "/activation/betRequest", "tok7", bet)
	if env.Code != 0 || !strings.Contains(string(data), `"noteNo":"1"`) {
		t.Fatalf("repeated betId: %+v %s", env, data)
	}
	if got := amount("tok7"); got != 700 {
		t.Fatalf("balance %d after one bet of 300 sent twice, want 700", got)
	}
	for _, c := range []struct {
		token, body string
		code        int
	}{
		{"tok8", `{"windowId":1,"issue":"i","content":"BIG","amount":100,"betId":"b2"}`, apierr.CodeInsufficientBalance},
		{"tok8", `{"windowId":1,"issue":"i","content":"BIG","amount":100,"betId":"b1"}`, apierr.CodeBetIDTaken},
		{"tok7", `{"windowId":1,"issue":"i","content":"RED","amount":100,"betId":"b3"}`, apierr.CodeBetContentInvalid},
		{"tok7", `{"windowId":1,"issue":"i","content":"BIG","amount":99,"betId":"b3"}`, apierr.CodeBetBelowMin},
		{"tok7", `{"windowId":1,"issue":"i","content":"BIG","amount":100001,"betId":"b3"}`, apierr.CodeBetAboveMax},
		{"tok7", `{"windowId":1,"content":"BIG","amount":100,"betId":"b3"}`, apierr.CodeRequired},
		{"tok7", `{"windowId":`, apierr.CodeBadRequest},
		{"nobody", `{"windowId":1,"issue":"i","content":"BIG","amount":100,"betId":"b4"}`, apierr.CodeTokenExpired},
	} {
		if status, env, _ := call(t, srv, "/activation/betRequest", c.token, c.body); status != 200 || env.Code != c.code {
			t.Errorf("%s %s: HTTP %d code %d, want 200 code %d", c.token, c.body, status, env.Code, c.code)
		}
	}
	if _, env, _ := call(t, srv, "/user/mine", "nobody", ""); env.Code != apierr.CodeTokenExpired {
		t.Fatalf("unknown token: %+v", env)
	}
	if got := amount("tok8"); got != 50 {
		t.Fatalf("refused bets took from the balance: %d", got)
	}
}
