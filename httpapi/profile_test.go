package httpapi

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"kj/internal/apierr"
	"kj/storage"
	"kj/storage/storagetest"
)

func TestUserMineAndIndex(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, clk := testServer(t, db)
		h := s.Handler()
		u, tok := newUser(t, s, "mina")
		setPhoneDirect(t, db, u.ID, "13812345678")
		r := call(t, h, "POST", "/api/user/mine", "{}", "token", tok.Token)
		info := data[UserInfo](t, r)
		want := UserInfo{UserID: u.IDString(), Username: "mina", NickName: "mina", Phone: "138****5678", InviteCode: "pro_mina"}
		if r.Code != 0 || info != want {
			t.Fatalf("mine: %+v\nwant %+v", info, want)
		}
		// With operators, each user is served by one of them, stably.
		op1 := storage.User{ID: storage.NewID(), Account: "desk1", PasswordHash: "x", InviteCode: "pro_desk1", IsOperator: 1}
		op2 := storage.User{ID: storage.NewID(), Account: "desk2", PasswordHash: "x", InviteCode: "pro_desk2", IsOperator: 1}
		storage.CreateUser(context.Background(), db, op1)
		storage.CreateUser(context.Background(), db, op2)
		wantCS := []int64{op1.ID, op2.ID}[u.ID%2]
		info = data[UserInfo](t, call(t, h, "POST", "/api/user/mine", "{}", "token", tok.Token))
		if info.CustomerID != (storage.User{ID: wantCS}).IDString() {
			t.Fatalf("customerId %q, want %d", info.CustomerID, wantCS)
		}
		// The agent already answering the user's customer-service chat wins.
		if err := storage.CreateVisitor(context.Background(), db, storage.Visitor{ID: storage.NewID(), UserID: u.ID, AgentID: op1.ID}); err != nil {
			t.Fatal(err)
		}
		info = data[UserInfo](t, call(t, h, "POST", "/api/user/mine", "{}", "token", tok.Token))
		if info.CustomerID != op1.IDString() {
			t.Fatalf("customerId %q, want the assigned agent %d", info.CustomerID, op1.ID)
		}
		// notice counts the unread notices.
		for i := 0; i < 2; i++ {
			n := storage.Notice{ID: storage.NewID(), Title: "t", Content: "c", CreatedBy: op1.ID, CreatedAt: 1, UpdatedAt: 1}
			if err := storage.CreateNotice(context.Background(), db, n); err != nil {
				t.Fatal(err)
			}
		}
		info = data[UserInfo](t, call(t, h, "POST", "/api/user/mine", "{}", "token", tok.Token))
		if info.Notice != 2 {
			t.Fatalf("notice %d, want 2 unread", info.Notice)
		}
		if _, err := storage.MarkAllNoticesRead(context.Background(), db, u.ID, 2); err != nil {
			t.Fatal(err)
		}
		info = data[UserInfo](t, call(t, h, "POST", "/api/user/mine", "{}", "token", tok.Token))
		if info.Notice != 0 {
			t.Fatalf("notice %d after reading all", info.Notice)
		}
		idx := data[userIndexReply](t, call(t, h, "POST", "/api/user/index", "{}", "token", tok.Token))
		if idx.UserInfo != info || idx.CreatedAt != clk.Now().UnixMilli() || idx.SuperiorBound {
			t.Fatalf("index: %+v", idx)
		}
		if r := call(t, h, "POST", "/api/user/mine", "{}"); r.Code != apierr.CodeTokenExpired {
			t.Fatalf("no token: %+v", r)
		}
		if r := call(t, h, "POST", "/api/user/mine", "{}", "Authorization", "Bearer "+tok.Token); r.Code != 0 {
			t.Fatalf("bearer token: %+v", r)
		}
	})
}

func TestMaskPhone(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"": "", "13812345678": "138****5678", "123456": "12**56", "123456789": "123**6789", "1234": "****",
	} {
		if got := MaskPhone(in); got != want {
			t.Errorf("MaskPhone(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEditNick(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		u, tok := newUser(t, s, "nick")
		cases := []struct {
			body, msg string
			code      int
		}{
			{`{}`, "nickName is required", apierr.CodeRequired},
			{`{"nickName":"  "}`, "nickName is required", apierr.CodeRequired},
			{`{"nickName":"一二三四五六七八九十一"}`, "Nickname must be 1-10 characters", apierr.CodeNickInvalid},
			{`{"nickName":"bad\u0000nick"}`, "Nickname must be 1-10 characters", apierr.CodeNickInvalid},
			{`{"nickName":5}`, "Field nickName has the wrong type", apierr.CodeBadRequest},
		}
		for _, c := range cases {
			if r := call(t, h, "POST", "/api/user/editNick", c.body, "token", tok.Token, "Accept-Language", "en-US"); r.Code != c.code || r.Message != c.msg {
				t.Errorf("%s: %d %q", c.body, r.Code, r.Message)
			}
		}
		if got, _ := storage.UserByID(context.Background(), db, u.ID); got.Nickname != "nick" {
			t.Fatalf("bad input changed the nickname to %q", got.Nickname)
		}
		r := call(t, h, "POST", "/api/user/editNick", `{"nickName":" 一二三四五六七八九十 "}`, "token", tok.Token)
		if r.Code != 0 || string(r.Data) != `{"nickName":"一二三四五六七八九十"}` {
			t.Fatalf("edit: %+v %s", r, r.Data)
		}
		if info := data[UserInfo](t, call(t, h, "POST", "/api/user/mine", "{}", "token", tok.Token)); info.NickName != "一二三四五六七八九十" {
			t.Fatalf("mine after edit: %+v", info)
		}
	})
}

func TestChangePassword(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, clk := testServer(t, db)
		h := s.Handler()
		newUser(t, s, "paul")
		tok := mustLogin(t, s, "paul", "abc123")
		other := login(t, s, "paul", "abc123", 1)
		change := func(old, pw, confirm string) reply {
			return call(t, h, "POST", "/api/user/changePwd", jsonBody(t, map[string]string{"oldPassword": old, "password": pw, "confirmPassword": confirm}),
				"token", tok.Token, "Accept-Language", "en-US")
		}
		cases := []struct {
			old, pw, confirm, msg string
			code                  int
		}{
			{"", "new123", "new123", "oldPassword is required", apierr.CodeRequired},
			{"abc123", "", "", "password is required", apierr.CodeRequired},
			{"abc123", "new12", "new12", "Password must be 6-20 characters", apierr.CodePasswordLength},
			{"abc123", "newpass", "newpass", "Password must contain digits", apierr.CodePasswordNoDigit},
			{"abc123", "1234567", "1234567", "Password must contain letters", apierr.CodePasswordNoLetter},
			{"abc123", "new123", "", "confirmPassword is required", apierr.CodeRequired},
			{"abc123", "new123", "new124", "Two passwords are inconsistent", apierr.CodePasswordMismatch},
			{"abc124", "new123", "new123", "The original password is wrong", apierr.CodeOldPasswordWrong},
		}
		for _, c := range cases {
			if r := change(c.old, c.pw, c.confirm); r.Code != c.code || r.Message != c.msg {
				t.Errorf("%+v: %d %q", c, r.Code, r.Message)
			}
		}
		if r := change("abc123", "new123", "new123"); r.Code != 0 {
			t.Fatalf("change: %+v", r)
		}
		if r := call(t, h, "POST", "/api/user/mine", "{}", "token", tok.Token); r.Code != 0 {
			t.Fatalf("this session stays: %+v", r)
		}
		if r := call(t, h, "POST", "/api/user/mine", "{}", "token", data[map[string]string](t, other)["token"]); r.Code != apierr.CodeTokenExpired {
			t.Fatalf("other sessions end: %+v", r)
		}
		if r := login(t, s, "paul", "abc123", 1); r.Code != apierr.CodeLoginCredential {
			t.Fatalf("old password: %+v", r)
		}
		// Guessing the original with a stolen token: the fifth wrong one locks.
		for i := 1; i < LoginMaxFailures; i++ {
			if r := change("guess1", "new456", "new456"); r.Code != apierr.CodeOldPasswordWrong {
				t.Fatalf("guess %d: %+v", i, r)
			}
		}
		if r := change("guess1", "new456", "new456"); r.Code != apierr.CodePasswordLocked || r.Message != "Too many wrong passwords, retry after 10 minutes" {
			t.Fatalf("locked: %+v", r)
		}
		if r := change("new123", "new456", "new456"); r.Code != apierr.CodePasswordLocked {
			t.Fatalf("locked even for the right one: %+v", r)
		}
		clk.Advance(LoginLockTime)
		if r := change("new123", "new456", "new456"); r.Code != 0 {
			t.Fatalf("after the lock: %+v", r)
		}
	})
}

func TestSetPhone(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		box := captureSMS(s)
		u, tok := newUser(t, s, "phil")
		set := func(body string) reply {
			return call(t, h, "POST", "/api/user/setPhone", body, "token", tok.Token, "Accept-Language", "en-US")
		}
		for body, code := range map[string]int{
			`{}`: apierr.CodeRequired, `{"phone":"12345"}`: apierr.CodePhoneInvalid, `{"phone":"123456789012"}`: apierr.CodePhoneInvalid,
			`{"phone":"1381234567x"}`: apierr.CodePhoneInvalid, `{"phone":13812345678}`: apierr.CodeBadRequest,
		} {
			if r := set(body); r.Code != code {
				t.Errorf("%s: %+v", body, r)
			}
		}
		if r := set(`{"phone":"123456"}`); r.Code != 0 || string(r.Data) != `{"phone":"12**56"}` {
			t.Fatalf("6 digits: %+v", r)
		}
		if r := set(`{"phone":"13812345678"}`); r.Code != 0 {
			t.Fatalf("11 digits: %+v", r)
		}
		if got, _ := storage.UserByID(context.Background(), db, u.ID); got.Phone != "13812345678" {
			t.Fatalf("stored phone %q", got.Phone)
		}
		// A stricter configuration.
		s.Config.PhoneMinDigits, s.Config.PhoneMaxDigits = 11, 11
		if r := set(`{"phone":"123456"}`); r.Code != apierr.CodePhoneInvalid || r.Message != "Phone number must be 11-11 digits" {
			t.Fatalf("configured length: %+v", r)
		}
		// With SMS verification.
		s.Config.PhoneSMSRequired = true
		if r := set(`{"phone":"13900139000"}`); r.Code != apierr.CodeRequired || r.Message != "smsCode is required" {
			t.Fatalf("code required: %+v", r)
		}
		if r := call(t, h, "POST", "/api/sendSmsCode", `{"phone":"13900139000","type":"setPhone"}`, "token", tok.Token); r.Code != 0 {
			t.Fatal(r)
		}
		code := box.last(t)
		if r := set(`{"phone":"13900139001","smsCode":"` + code + `"}`); r.Code != apierr.CodeSMSCodeInvalid {
			t.Fatalf("a code is for its phone only: %+v", r)
		}
		if r := set(`{"phone":"13900139000","smsCode":"` + code + `"}`); r.Code != 0 {
			t.Fatalf("with the code: %+v", r)
		}
		if got, _ := storage.UserByID(context.Background(), db, u.ID); got.Phone != "13900139000" {
			t.Fatalf("stored phone %q", got.Phone)
		}
	})
}

func TestBindProUser(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		top, topTok := newUser(t, s, "top_dog")
		// "kid" registers with top's invite code: top is kid's superior.
		if r := call(t, h, "POST", "/api/register", `{"account":"kid_one","password":"abc123","inviteCode":"`+top.InviteCode+`"}`); r.Code != 0 {
			t.Fatal(r)
		}
		kid, _ := storage.UserByAccount(context.Background(), db, "kid_one")
		other, _ := newUser(t, s, "other")
		bind := func(tok, code string) reply {
			return call(t, h, "POST", "/api/user/bindProUser", `{"inviteCode":"`+code+`"}`, "token", tok, "Accept-Language", "en-US")
		}
		cases := []struct {
			code string
			want int
		}{
			{"", apierr.CodeRequired}, {"abc", apierr.CodeInviteInvalid}, {"pro_missing", apierr.CodeInviteUnknown},
			{top.InviteCode, apierr.CodeSuperiorInvalid}, {kid.InviteCode, apierr.CodeSuperiorInvalid},
		}
		for _, c := range cases {
			if r := bind(topTok.Token, c.code); r.Code != c.want {
				t.Errorf("bind %q: %+v", c.code, r)
			}
		}
		if r := bind(topTok.Token, other.InviteCode); r.Code != 0 || !strings.Contains(string(r.Data), `"superiorId":"`+other.IDString()+`"`) {
			t.Fatalf("bind: %+v %s", r, r.Data)
		}
		third, _ := newUser(t, s, "third")
		if r := bind(topTok.Token, third.InviteCode); r.Code != apierr.CodeSuperiorBound || r.Message != "A superior is already bound to this account" {
			t.Fatalf("second bind: %+v", r)
		}
		if got, _ := storage.UserByID(context.Background(), db, top.ID); got.SuperiorID != other.ID {
			t.Fatalf("superior %d", got.SuperiorID)
		}
		idx := data[userIndexReply](t, call(t, h, "POST", "/api/user/index", "{}", "token", topTok.Token))
		if !idx.SuperiorBound {
			t.Fatal("index should say a superior is bound")
		}
	})
}

func TestGetUserProUrl(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		u, tok := newUser(t, s, "inviter")
		r := data[userProURLReply](t, call(t, h, "POST", "/api/user/getUserProUrl", "{}", "token", tok.Token))
		if r.InviteCode != u.InviteCode || r.URL != "http://example.com/pages/auth/login?inviteCode=pro_inviter" {
			t.Fatalf("link from the request host: %+v", r)
		}
		s.Config.PublicURL = "https://kj.example.org"
		r = data[userProURLReply](t, call(t, h, "POST", "/api/user/getUserProUrl", "{}", "token", tok.Token))
		if r.URL != "https://kj.example.org/pages/auth/login?inviteCode=pro_inviter" {
			t.Fatalf("link from KJ_PUBLIC_URL: %+v", r)
		}
		// The link's code registers a new user under this one.
		if res := call(t, h, "POST", "/api/register", `{"account":"invitee","password":"abc123","inviteCode":"`+r.InviteCode+`"}`); res.Code != 0 {
			t.Fatal(res)
		}
		if got, _ := storage.UserByAccount(context.Background(), db, "invitee"); got.SuperiorID != u.ID {
			t.Fatalf("superior %d", got.SuperiorID)
		}
	})
}
