package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"kj/auth"
	"kj/internal/apierr"
	"kj/internal/counter"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

// jsonBody encodes v as a request body.
func jsonBody(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// data decodes the data of a reply into v.
func data[T any](t *testing.T, r reply) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(r.Data, &v); err != nil {
		t.Fatalf("data %s: %v", r.Data, err)
	}
	return v
}

func login(t *testing.T, s *Server, account, password string, platform int, headers ...string) reply {
	t.Helper()
	return call(t, s.Handler(), "POST", "/api/accountLogin",
		jsonBody(t, map[string]any{"account": account, "password": password, "platform": platform, "operationID": "op1"}),
		append([]string{"Accept-Language", "en-US"}, headers...)...)
}

func mustLogin(t *testing.T, s *Server, account, password string) auth.Tokens {
	t.Helper()
	r := login(t, s, account, password, 5)
	if r.Code != 0 {
		t.Fatalf("login %s: %+v", account, r)
	}
	return data[auth.Tokens](t, r)
}

// countRows counts the rows of table.
func countRows(t *testing.T, db storage.DB, table string) int64 {
	t.Helper()
	var n int64
	if err := db.QueryRow(context.Background(), `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestValidationRulesOfSection5(t *testing.T) {
	t.Parallel()
	accounts := []struct {
		in   string
		code int
	}{
		{"", apierr.CodeRequired}, {"abc", apierr.CodeAccountInvalid}, {"abcd", 0}, {strings.Repeat("a", 20), 0},
		{strings.Repeat("a", 21), apierr.CodeAccountInvalid}, {"ab-cd", apierr.CodeAccountInvalid}, {"ab cd", apierr.CodeAccountInvalid},
		{"用户名字", apierr.CodeAccountInvalid}, {"A_b_9", 0}, {"ab\x00cd", apierr.CodeAccountInvalid},
	}
	for _, c := range accounts {
		if got := codeOf(ValidateAccount(c.in)); got != c.code {
			t.Errorf("account %q: code %d, want %d", c.in, got, c.code)
		}
	}
	passwords := []struct {
		in   string
		code int
	}{
		{"", apierr.CodeRequired}, {"ab12", apierr.CodePasswordLength}, {"abc12", apierr.CodePasswordLength}, {"abc123", 0},
		{strings.Repeat("a1", 10), 0}, {strings.Repeat("a1", 10) + "b", apierr.CodePasswordLength},
		{"abcdef", apierr.CodePasswordNoDigit}, {"123456", apierr.CodePasswordNoLetter}, {"abc 123", apierr.CodePasswordChars},
		{"密码abc123", apierr.CodePasswordChars}, {"Ab1!@#", 0}, {"______", apierr.CodePasswordNoDigit}, {"12345!", apierr.CodePasswordNoLetter},
	}
	for _, c := range passwords {
		if got := codeOf(ValidatePassword("password", c.in)); got != c.code {
			t.Errorf("password %q: code %d, want %d", c.in, got, c.code)
		}
	}
	confirm := []struct {
		pw, confirm string
		required    bool
		code        int
	}{
		{"abc123", "abc123", true, 0}, {"abc123", "abc124", true, apierr.CodePasswordMismatch},
		{"abc123", "", true, apierr.CodeRequired}, {"abc123", "", false, 0}, {"abc123", "x", false, apierr.CodePasswordMismatch},
	}
	for _, c := range confirm {
		if got := codeOf(validateNewPassword(c.pw, c.confirm, c.required)); got != c.code {
			t.Errorf("confirm %q/%q: code %d, want %d", c.pw, c.confirm, got, c.code)
		}
	}
	nicks := []struct {
		in, out string
		code    int
	}{
		{"", "", apierr.CodeRequired}, {"   ", "", apierr.CodeRequired}, {" Bob ", "Bob", 0}, {"一二三四五六七八九十", "一二三四五六七八九十", 0},
		{"一二三四五六七八九十一", "", apierr.CodeNickInvalid}, {"abcdefghij", "abcdefghij", 0}, {"abcdefghijk", "", apierr.CodeNickInvalid},
		{"a\x00b", "", apierr.CodeNickInvalid}, {"a\nb", "", apierr.CodeNickInvalid}, {"\xff\xfe", "", apierr.CodeNickInvalid}, {"😀😀", "😀😀", 0},
	}
	for _, c := range nicks {
		got, err := ValidateNickname(c.in)
		if codeOf(err) != c.code || got != c.out {
			t.Errorf("nickname %q: %q code %d, want %q %d", c.in, got, codeOf(err), c.out, c.code)
		}
	}
	s := &Server{}
	s.Config.PhoneMinDigits, s.Config.PhoneMaxDigits = 6, 11
	phones := []struct {
		in   string
		code int
	}{
		{"", apierr.CodeRequired}, {"12345", apierr.CodePhoneInvalid}, {"123456", 0}, {"13800138000", 0}, {"138001380001", apierr.CodePhoneInvalid},
		{"1380013800a", apierr.CodePhoneInvalid}, {"+8613800", apierr.CodePhoneInvalid}, {"138 0013", apierr.CodePhoneInvalid}, {"１２３４５６", apierr.CodePhoneInvalid},
	}
	for _, c := range phones {
		if got := codeOf(s.validatePhone(c.in)); got != c.code {
			t.Errorf("phone %q: code %d, want %d", c.in, got, c.code)
		}
	}
	smsCodes := []struct {
		in   string
		code int
	}{{"", apierr.CodeRequired}, {"12345", apierr.CodeSMSCodeFormat}, {"123456", 0}, {"1234567", apierr.CodeSMSCodeFormat}, {"12345a", apierr.CodeSMSCodeFormat}}
	for _, c := range smsCodes {
		if got := codeOf(validateSMSCode(c.in)); got != c.code {
			t.Errorf("sms code %q: code %d, want %d", c.in, got, c.code)
		}
	}
}

func codeOf(err error) int {
	if err == nil {
		return 0
	}
	e, _ := asError(err)
	return e.Code
}

func TestRegisterRejectsBadInputAndWritesNothing(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		if r := call(t, h, "POST", "/api/register", `{"account":"taken","password":"abc123"}`); r.Code != 0 {
			t.Fatalf("register: %+v", r)
		}
		cases := []struct {
			body, msg string
			code      int
		}{
			{`{}`, "account is required", apierr.CodeRequired},
			{`{"account":"abc","password":"abc123"}`, "Account must be 4-20 letters, digits or underscores", apierr.CodeAccountInvalid},
			{`{"account":"good_one"}`, "password is required", apierr.CodeRequired},
			{`{"account":"good_one","password":"abc12"}`, "Password must be 6-20 characters", apierr.CodePasswordLength},
			{`{"account":"good_one","password":"abcdefg"}`, "Password must contain digits", apierr.CodePasswordNoDigit},
			{`{"account":"good_one","password":"1234567"}`, "Password must contain letters", apierr.CodePasswordNoLetter},
			{`{"account":"good_one","password":"abc123","confirmPassword":"abc321"}`, "Two passwords are inconsistent", apierr.CodePasswordMismatch},
			{`{"account":"good_one","password":"abc123","inviteCode":"taken"}`, "Invalid invitation code", apierr.CodeInviteInvalid},
			{`{"account":"good_one","password":"abc123","inviteCode":"pro_nobody"}`, "The invitation code does not exist", apierr.CodeInviteUnknown},
			{`{"account":"taken","password":"abc123"}`, "This account already exists", apierr.CodeAccountExists},
			{`{"account":12,"password":"abc123"}`, "Field account has the wrong type", apierr.CodeBadRequest},
			{`{"account":"good_one","password":["abc123"]}`, "Field password has the wrong type", apierr.CodeBadRequest},
			{`{"account":"good_one",`, "The request is malformed", apierr.CodeBadRequest},
			{`{"account":"` + strings.Repeat("x", MaxBody) + `"}`, "The request is too large", apierr.CodeTooLarge},
		}
		for _, c := range cases {
			r := call(t, h, "POST", "/api/register", c.body, "Accept-Language", "en-US")
			if r.Code != c.code || r.Message != c.msg {
				t.Errorf("%.60s: got %d %q, want %d %q", c.body, r.Code, r.Message, c.code, c.msg)
			}
		}
		if n := countRows(t, db, "users"); n != 1 {
			t.Fatalf("bad registrations wrote users: %d", n)
		}
	})
}

func TestRegisterWithInviteCodeStoresTheSuperiorAndSignsIn(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		boss, _ := newUser(t, s, "boss")
		r := call(t, h, "POST", "/api/register", jsonBody(t, map[string]string{
			"account": "newbie", "password": "pass1234", "confirmPassword": "pass1234", "inviteCode": boss.InviteCode}))
		if r.Code != 0 {
			t.Fatalf("register: %+v", r)
		}
		got := data[registerReply](t, r)
		u, err := storage.UserByAccount(context.Background(), db, "newbie")
		if err != nil {
			t.Fatal(err)
		}
		if got.UserID != u.IDString() || u.SuperiorID != boss.ID || u.Nickname != "newbie" || !strings.HasPrefix(u.InviteCode, "pro_") ||
			got.InviteCode != u.InviteCode || u.IsActivation != 0 || u.IsOperator != 0 {
			t.Fatalf("stored %+v, reply %+v", u, got)
		}
		if u.PasswordHash == "pass1234" || !auth.CheckPassword(u.PasswordHash, "pass1234") {
			t.Fatal("password must be stored as an argon2id hash")
		}
		if tok := mustLogin(t, s, "newbie", "pass1234"); tok.UserID != u.IDString() {
			t.Fatalf("login after register: %+v", tok)
		}
	})
}

func TestRegisterConfigAndRequiredInvite(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		cfg := data[registerConfigReply](t, call(t, h, "GET", "/api/register/config", ""))
		if cfg.CaptchaRequired || cfg.InviteCodeRequired || strings.Join(cfg.Required, ",") != "account,password" {
			t.Fatalf("defaults: %+v", cfg)
		}
		s.Config.RegisterInviteRequired, s.Config.RegisterCaptcha = true, true
		cfg = data[registerConfigReply](t, call(t, h, "POST", "/api/register/config", "{}"))
		if !cfg.CaptchaRequired || !cfg.InviteCodeRequired || strings.Join(cfg.Required, ",") != "account,password,inviteCode,captchaId,captchaCode" {
			t.Fatalf("all on: %+v", cfg)
		}
		s.Config.RegisterCaptcha = false
		r := call(t, h, "POST", "/api/register", `{"account":"lonely","password":"abc123"}`, "Accept-Language", "en-US")
		if r.Code != apierr.CodeRequired || r.Message != "inviteCode is required" {
			t.Fatalf("invite required: %+v", r)
		}
		vt := data[verifyTypeReply](t, call(t, h, "POST", "/api/getVerifyType", "{}"))
		if vt != (verifyTypeReply{Register: "none", Login: "none", Forget: "sms", SetPhone: "none"}) {
			t.Fatalf("verify types: %+v", vt)
		}
		s.Config.RegisterCaptcha, s.Config.PhoneSMSRequired = true, true
		vt = data[verifyTypeReply](t, call(t, h, "GET", "/api/getVerifyType", ""))
		if vt != (verifyTypeReply{Register: "captcha", Login: "none", Forget: "sms", SetPhone: "sms"}) {
			t.Fatalf("verify types with captcha and SMS: %+v", vt)
		}
		v5 := data[verify5Reply](t, call(t, h, "GET", "/api/getVerify5Data", ""))
		if v5.Register.Verify != "captcha" || v5.SetPhone.Verify != "sms" || strings.Join(v5.SetPhone.Required, ",") != "phone,smsCode" ||
			v5.Limits.Password != [2]int{6, 20} || v5.Limits.Account != [2]int{4, 20} || v5.Limits.Phone != [2]int{6, 11} ||
			v5.Limits.Nickname != [2]int{1, 10} || v5.SMS != (verifySMS{6, 60, 300}) || v5.Lockout != (verifyLockout{5, 600, 600}) {
			t.Fatalf("verify5: %+v", v5)
		}
	})
}

func TestLoginLockoutAndItsExpiry(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, clk := testServer(t, db)
		newUser(t, s, "lucy")
		for i := 1; i <= 4; i++ {
			if r := login(t, s, "lucy", "wrong1", 5); r.Code != apierr.CodeLoginCredential || r.Message != "Invalid login credential" {
				t.Fatalf("failure %d: %+v", i, r)
			}
		}
		if r := login(t, s, "lucy", "wrong1", 5); r.Code != apierr.CodeLoginLocked || r.Message != "Too many login errors, retry after 10 minutes" {
			t.Fatalf("fifth failure must lock: %+v", r)
		}
		if r := login(t, s, "lucy", "abc123", 5); r.Code != apierr.CodeLoginLocked {
			t.Fatalf("the right password is refused while locked: %+v", r)
		}
		clk.Advance(9*time.Minute + 59*time.Second)
		if r := login(t, s, "lucy", "abc123", 5); r.Code != apierr.CodeLoginLocked {
			t.Fatalf("still locked just before 10 minutes: %+v", r)
		}
		clk.Advance(time.Second)
		if r := login(t, s, "lucy", "abc123", 5); r.Code != 0 {
			t.Fatalf("lock must expire after 10 minutes: %+v", r)
		}

		// Failures older than the 10-minute window do not add up.
		for i := 0; i < 4; i++ {
			login(t, s, "lucy", "wrong1", 5)
		}
		clk.Advance(10 * time.Minute)
		for i := 0; i < 4; i++ {
			if r := login(t, s, "lucy", "wrong1", 5); r.Code != apierr.CodeLoginCredential {
				t.Fatalf("new window, failure %d: %+v", i+1, r)
			}
		}
		// A success clears the count.
		if r := login(t, s, "lucy", "abc123", 5); r.Code != 0 {
			t.Fatalf("login: %+v", r)
		}
		for i := 0; i < 4; i++ {
			if r := login(t, s, "lucy", "wrong1", 5); r.Code != apierr.CodeLoginCredential {
				t.Fatalf("after success, failure %d: %+v", i+1, r)
			}
		}

		// Unknown accounts answer like wrong passwords and lock the same way.
		for i := 0; i < 4; i++ {
			if r := login(t, s, "ghost", "abc123", 5); r.Code != apierr.CodeLoginCredential {
				t.Fatalf("unknown account: %+v", r)
			}
		}
		if r := login(t, s, "ghost", "abc123", 5); r.Code != apierr.CodeLoginLocked {
			t.Fatalf("unknown account lock: %+v", r)
		}
	})
}

func TestLockoutIsSharedThroughRedis(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		rdb, prefix := testenv.Redis(t)
		a, _ := testServer(t, db)
		b, _ := testServer(t, db)
		a.Counters = counter.NewRedis(rdb, prefix)
		b.Counters = counter.NewRedis(rdb, prefix)
		newUser(t, a, "nina")
		for i, s := range []*Server{a, b, a, b} {
			if r := login(t, s, "nina", "wrong1", 5); r.Code != apierr.CodeLoginCredential {
				t.Fatalf("failure %d: %+v", i, r)
			}
		}
		if r := login(t, b, "nina", "wrong1", 5); r.Code != apierr.CodeLoginLocked {
			t.Fatalf("failures on two nodes must add up: %+v", r)
		}
		if r := login(t, a, "nina", "abc123", 5); r.Code != apierr.CodeLoginLocked {
			t.Fatalf("the other node must see the lock: %+v", r)
		}
		ttl, err := rdb.PTTL(context.Background(), prefix+"acct:login:lock:nina").Result()
		if err != nil || ttl <= 9*time.Minute || ttl > 10*time.Minute {
			t.Fatalf("lock TTL in Redis = %v, %v; want 10 minutes", ttl, err)
		}
	})
}

func TestSignInIsRateLimitedPerAddress(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		from := func(ip string) reply {
			req := request("POST", "/api/accountLogin", strings.NewReader(`{"account":"a","password":"x","platform":5}`), "Accept-Language", "en-US")
			req.RemoteAddr = ip + ":4242"
			return send(t, s.Handler(), req)
		}
		for i := 0; i < loginPerIPPerMinute; i++ {
			if r := from("198.51.100.7"); r.Code != apierr.CodeLoginCredential {
				t.Fatalf("attempt %d: %+v", i+1, r)
			}
		}
		if r := from("198.51.100.7"); r.Code != apierr.CodeRateLimited || r.Message != "Too many requests, please slow down" {
			t.Fatalf("over the limit: %+v", r)
		}
		if r := from("198.51.100.8"); r.Code != apierr.CodeLoginCredential {
			t.Fatalf("another address is not limited: %+v", r)
		}

		// Behind a trusted proxy the address is the last X-Forwarded-For entry.
		s.Config.TrustProxy = true
		c := &Call{R: httptest.NewRequest("POST", "/", nil), s: s}
		c.R.RemoteAddr = "10.0.0.1:1"
		c.R.Header.Set("X-Forwarded-For", "1.2.3.4, 203.0.113.9")
		if ip := c.ClientIP(); ip != "203.0.113.9" {
			t.Fatalf("ClientIP behind proxy = %q", ip)
		}
		s.Config.TrustProxy = false
		if ip := c.ClientIP(); ip != "10.0.0.1" {
			t.Fatalf("ClientIP without proxy trust = %q", ip)
		}
	})
}

func TestRegistrationsAreLimitedPerAddress(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, clk := testServer(t, db)
		h := s.Handler()
		for i := 0; i < registerPerIPPerHour; i++ {
			// Refused registrations do not count.
			call(t, h, "POST", "/api/register", `{"account":"x","password":"abc123"}`)
			if r := call(t, h, "POST", "/api/register", fmt.Sprintf(`{"account":"many_%d","password":"abc123"}`, i)); r.Code != 0 {
				t.Fatalf("registration %d: %+v", i+1, r)
			}
		}
		if r := call(t, h, "POST", "/api/register", `{"account":"one_more","password":"abc123"}`); r.Code != apierr.CodeRateLimited {
			t.Fatalf("over the limit: %+v", r)
		}
		clk.Advance(time.Hour)
		if r := call(t, h, "POST", "/api/register", `{"account":"one_more","password":"abc123"}`); r.Code != 0 {
			t.Fatalf("an hour later: %+v", r)
		}
	})
}

func TestLoginValidation(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		cases := []struct {
			body string
			code int
			msg  string
		}{
			{`{"password":"abc123","platform":5}`, apierr.CodeRequired, "account is required"},
			{`{"account":"walt","platform":5}`, apierr.CodeRequired, "password is required"},
			{`{"account":"walt","password":"abc123"}`, apierr.CodeRequired, "platform is required"},
			{`{"account":"walt","password":"abc123","platform":99}`, apierr.CodeInvalid, "platform is invalid"},
			{`{"account":"walt","password":"abc123","platform":"5"}`, apierr.CodeBadRequest, "Field platform has the wrong type"},
			{`{"account":"walt","password":"` + strings.Repeat("a1", 500) + `","platform":5}`, apierr.CodeLoginCredential, "Invalid login credential"},
		}
		for _, c := range cases {
			if r := call(t, h, "POST", "/api/accountLogin", c.body, "Accept-Language", "en-US"); r.Code != c.code || r.Message != c.msg {
				t.Errorf("%.50s: %d %q, want %d %q", c.body, r.Code, r.Message, c.code, c.msg)
			}
		}
	})
}

func TestTokenRenewalFlow(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, clk := testServer(t, db)
		h := s.Handler()
		u, _ := newUser(t, s, "rene")
		tok := mustLogin(t, s, "rene", "abc123")
		if tok.Token == "" || tok.JWT == "" || tok.ChatToken == "" || tok.UserID != u.IDString() {
			t.Fatalf("login answer: %+v", tok)
		}
		if r := call(t, h, "POST", "/api/user/mine", "{}", "token", tok.Token); r.Code != 0 {
			t.Fatalf("mine: %+v", r)
		}
		clk.Advance(s.Config.TokenTTL)
		r := call(t, h, "POST", "/api/user/mine", "{}", "token", tok.Token, "Accept-Language", "en-US")
		if r.Code != apierr.CodeTokenExpired {
			t.Fatalf("expired token must answer 401: %+v", r)
		}
		renew := call(t, h, "POST", "/api/jwt/login", jsonBody(t, map[string]any{"token": tok.JWT, "packageId": 100002001, "operationID": "x", "platform": 5}))
		if renew.Code != 0 {
			t.Fatalf("renewal: %+v", renew)
		}
		fresh := data[jwtLoginReply](t, renew)
		if fresh.Token == "" || fresh.Token == tok.Token || fresh.JWT != tok.JWT || fresh.UserID != u.IDString() {
			t.Fatalf("renewal answer: %+v", fresh)
		}
		if r := call(t, h, "POST", "/api/user/mine", "{}", "token", fresh.Token); r.Code != 0 || data[UserInfo](t, r).Username != "rene" {
			t.Fatalf("retry with the renewed token: %+v", r)
		}
		if r := call(t, h, "POST", "/api/user/mine", "{}", "token", tok.Token); r.Code != apierr.CodeTokenExpired {
			t.Fatalf("the old token stays dead: %+v", r)
		}
		// The chat token survives renewal.
		if _, err := s.Sessions.ChatSession(context.Background(), tok.ChatToken); err != nil {
			t.Fatalf("chat token after renewal: %v", err)
		}

		// 402: unknown, empty-string and expired jwts.
		for _, body := range []string{`{"token":"nonsense"}`, `{"token":"` + tok.Token + `"}`} {
			if r := call(t, h, "POST", "/api/jwt/login", body, "Accept-Language", "en-US"); r.Code != apierr.CodeLoginInvalid || r.Message != "Login invalid" {
				t.Fatalf("bad jwt %s: %+v", body, r)
			}
		}
		if r := call(t, h, "POST", "/api/jwt/login", `{}`); r.Code != apierr.CodeRequired {
			t.Fatalf("missing jwt: %+v", r)
		}
		clk.Advance(s.Config.JWTTTL)
		if r := call(t, h, "POST", "/api/jwt/login", jsonBody(t, map[string]string{"token": tok.JWT})); r.Code != apierr.CodeLoginInvalid {
			t.Fatalf("expired jwt must answer 402: %+v", r)
		}
	})
}

func TestLogoutRevokesTokenJWTAndChatToken(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		newUser(t, s, "olga")
		web := mustLogin(t, s, "olga", "abc123")
		r := login(t, s, "olga", "abc123", 1) // a second device
		phone := data[auth.Tokens](t, r)
		if r := call(t, h, "POST", "/api/logout", jsonBody(t, map[string]any{"chatToken": phone.ChatToken, "operationID": "x", "platform": 5}), "token", web.Token); r.Code != 0 {
			t.Fatalf("logout: %+v", r)
		}
		for _, tok := range []auth.Tokens{web, phone} {
			if r := call(t, h, "POST", "/api/user/mine", "{}", "token", tok.Token); r.Code != apierr.CodeTokenExpired {
				t.Fatalf("token after logout: %+v", r)
			}
			if r := call(t, h, "POST", "/api/jwt/login", jsonBody(t, map[string]string{"token": tok.JWT})); r.Code != apierr.CodeLoginInvalid {
				t.Fatalf("jwt after logout must answer 402: %+v", r)
			}
			if _, err := s.Sessions.ChatSession(context.Background(), tok.ChatToken); err == nil {
				t.Fatal("chat token after logout must be refused")
			}
		}
		if r := call(t, h, "POST", "/api/logout", "{}"); r.Code != apierr.CodeTokenExpired {
			t.Fatalf("logout without token: %+v", r)
		}
	})
}

func TestNewLoginReplacesOldSession403AndKicksItsSocket(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		u, _ := newUser(t, s, "kate")
		announced := recordBus[auth.SessionEnded](t, s.Bus, auth.SessionEndedSubject)
		first := mustLogin(t, s, "kate", "abc123")
		firstSess, _ := storage.SessionByToken(context.Background(), db, first.Token)
		other := login(t, s, "kate", "abc123", 1) // another platform keeps both
		if other.Code != 0 {
			t.Fatal(other)
		}
		second := mustLogin(t, s, "kate", "abc123")
		for _, lang := range apierr.Langs {
			r := call(t, h, "POST", "/api/user/mine", "{}", "token", first.Token, "Accept-Language", lang)
			if r.Code != apierr.CodeLoggedElsewhere || r.Message != apierr.Translate(lang, "logged.elsewhere", nil) {
				t.Fatalf("%s: replaced session must answer 403: %+v", lang, r)
			}
		}
		if r := call(t, h, "POST", "/api/jwt/login", jsonBody(t, map[string]string{"token": first.JWT})); r.Code != apierr.CodeLoggedElsewhere {
			t.Fatalf("replaced session's jwt: %+v", r)
		}
		for _, tok := range []string{second.Token, data[auth.Tokens](t, other).Token} {
			if r := call(t, h, "POST", "/api/user/mine", "{}", "token", tok); r.Code != 0 {
				t.Fatalf("live sessions: %+v", r)
			}
		}
		// newUser's own sign-in was replaced by the first, the first by the second.
		ended := announced.wait(t, 2)
		if len(ended) != 2 || ended[1] != (auth.SessionEnded{SessionID: firstSess.ID, UserID: u.ID, Reason: auth.ReasonReplaced}) {
			t.Fatalf("announcement %+v", ended)
		}
	})
}

func TestAccountLoginAtmSignsOutTheAccountSwitchedFrom(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		newUser(t, s, "amy_a")
		newUser(t, s, "ben_b")
		a := mustLogin(t, s, "amy_a", "abc123")
		body := jsonBody(t, map[string]any{"account": "ben_b", "password": "abc123", "platform": 5})
		r := call(t, h, "POST", "/api/accountLoginAtm", body, "token", a.Token)
		if r.Code != 0 {
			t.Fatalf("switch: %+v", r)
		}
		b := data[auth.Tokens](t, r)
		if r := call(t, h, "POST", "/api/user/mine", "{}", "token", a.Token); r.Code != apierr.CodeTokenExpired {
			t.Fatalf("the account switched from is signed out: %+v", r)
		}
		if r := call(t, h, "POST", "/api/jwt/login", jsonBody(t, map[string]string{"token": a.JWT})); r.Code != apierr.CodeLoginInvalid {
			t.Fatalf("its jwt too: %+v", r)
		}
		if r := call(t, h, "POST", "/api/user/mine", "{}", "token", b.Token); r.Code != 0 || data[UserInfo](t, r).Username != "ben_b" {
			t.Fatalf("the new account: %+v", r)
		}
		// Without a token it is a plain sign-in; a wrong password changes nothing.
		if r := call(t, h, "POST", "/api/accountLoginAtm", body); r.Code != 0 {
			t.Fatalf("switch without a token: %+v", r)
		}
		a2 := mustLogin(t, s, "amy_a", "abc123")
		if r := call(t, h, "POST", "/api/accountLoginAtm", `{"account":"ben_b","password":"wrong1","platform":5}`, "token", a2.Token); r.Code != apierr.CodeLoginCredential {
			t.Fatalf("wrong password: %+v", r)
		}
		if r := call(t, h, "POST", "/api/user/mine", "{}", "token", a2.Token); r.Code != 0 {
			t.Fatalf("a failed switch must not sign out: %+v", r)
		}
	})
}

func TestMessagesInAllSixLanguages(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		newUser(t, s, "lang")
		probes := []struct {
			path, body, key string
		}{
			{"/api/register", `{"account":"ab","password":"abc123"}`, "account.invalid"},
			{"/api/register", `{"account":"abcd","password":"abcdef"}`, "password.no.digit"},
			{"/api/register", `{"account":"abcd","password":"123456"}`, "password.no.letter"},
			{"/api/register", `{"account":"abcd","password":"a1"}`, "password.length"},
			{"/api/register", `{"account":"abcd","password":"abc123","confirmPassword":"x"}`, "password.mismatch"},
			{"/api/register", `{"account":"lang","password":"abc123"}`, "account.exists"},
			{"/api/accountLogin", `{"account":"lang","password":"nope12","platform":5}`, "login.credential"},
			{"/api/sendSmsCode", `{"phone":"123","type":"forget"}`, "phone.invalid"},
		}
		seen := map[string]map[string]bool{}
		for _, p := range probes {
			seen[p.key] = map[string]bool{}
			for _, lang := range apierr.Langs {
				r := call(t, h, "POST", p.path, p.body, "Accept-Language", lang)
				want := apierr.Translate(lang, p.key, map[string]any{"min": 6, "max": 11})
				if r.Message != want || strings.Contains(r.Message, "{") || r.Message == p.key {
					t.Errorf("%s %s: %q, want %q", p.key, lang, r.Message, want)
				}
				seen[p.key][r.Message] = true
				s.Counters.Delete(context.Background(), "acct:login:fail:lang") // six tries, no lockout
			}
			if len(seen[p.key]) < 5 { // zh-CN and zh-HANT may rarely agree; the rest differ
				t.Errorf("%s: only %d distinct texts across six languages", p.key, len(seen[p.key]))
			}
		}
		if r := call(t, h, "POST", "/api/register", `{"account":"ab","password":"abc123"}`, "Accept-Language", "fr-FR"); r.Message != "账号须为4-20位字母、数字或下划线" {
			t.Fatalf("unknown language falls back to zh-CN: %q", r.Message)
		}
		if r := call(t, h, "POST", "/api/sendSmsCode", `{"phone":"123","type":"forget"}`, "Accept-Language", "en-US"); r.Message != "Phone number must be 6-11 digits" {
			t.Fatalf("placeholders filled: %q", r.Message)
		}
	})
}

func TestNoPasswordsOrTokensInLogs(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		var buf bytes.Buffer
		var mu sync.Mutex
		s.Log = slog.New(slog.NewTextHandler(lockedWriter{&buf, &mu}, &slog.HandlerOptions{Level: slog.LevelDebug}))
		call(t, h, "POST", "/api/register", `{"account":"quiet_q","password":"Secret77"}`)
		for i := 0; i < LoginMaxFailures; i++ {
			login(t, s, "quiet_q", "Wrong77x", 5)
		}
		s.Counters.Delete(context.Background(), "acct:login:lock:quiet_q")
		s.Counters.Delete(context.Background(), "acct:login:fail:quiet_q")
		tok := mustLogin(t, s, "quiet_q", "Secret77")
		renewed := data[jwtLoginReply](t, call(t, h, "POST", "/api/jwt/login", jsonBody(t, map[string]string{"token": tok.JWT})))
		call(t, h, "POST", "/api/user/changePwd", `{"oldPassword":"Secret77","password":"Fresh88x","confirmPassword":"Fresh88x"}`, "token", renewed.Token)
		call(t, h, "POST", "/api/logout", jsonBody(t, map[string]string{"chatToken": tok.ChatToken}), "token", renewed.Token)
		mu.Lock()
		logs := buf.String()
		mu.Unlock()
		if !strings.Contains(logs, "signed in") || !strings.Contains(logs, "account locked") {
			t.Fatalf("expected the sign-in events in the log:\n%s", logs)
		}
		for _, secret := range []string{"Secret77", "Wrong77x", "Fresh88x", tok.Token, tok.JWT, tok.ChatToken, renewed.Token} {
			if strings.Contains(logs, secret) {
				t.Fatalf("secret %q in the log:\n%s", secret, logs)
			}
		}
	})
}
