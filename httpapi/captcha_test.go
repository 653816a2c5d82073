package httpapi

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image/png"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"kj/internal/apierr"
	"kj/storage"
	"kj/storage/storagetest"
)

// captchaAnswer recovers the answer of a captcha from its stored hash (5
// digits: 100000 tries), as a person would read it off the image.
func captchaAnswer(t *testing.T, db storage.DB, id string) string {
	t.Helper()
	var hash string
	if err := db.QueryRow(context.Background(), `SELECT answer_hash FROM captchas WHERE id = $1`, id).Scan(&hash); err != nil {
		t.Fatal(err)
	}
	for n := 0; n < 100000; n++ {
		a := fmt.Sprintf("%05d", n)
		if captchaHash(id, a) == hash {
			return a
		}
	}
	t.Fatal("no 5-digit answer matches")
	return ""
}

func getCaptcha(t *testing.T, s *Server) captchaReply {
	t.Helper()
	r := call(t, s.Handler(), "POST", "/api/getCaptcha", "{}")
	if r.Code != 0 {
		t.Fatalf("getCaptcha: %+v", r)
	}
	return data[captchaReply](t, r)
}

func TestRegisterWithCaptchaSingleUseAndExpiry(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, clk := testServer(t, db)
		s.Config.RegisterCaptcha = true
		h := s.Handler()
		reg := func(account, id, code string) reply {
			return call(t, h, "POST", "/api/register", jsonBody(t, map[string]string{
				"account": account, "password": "abc123", "captchaId": id, "captchaCode": code}), "Accept-Language", "en-US")
		}
		if r := reg("capt1", "", ""); r.Code != apierr.CodeRequired || r.Message != "captchaId is required" {
			t.Fatalf("missing captcha: %+v", r)
		}
		c := getCaptcha(t, s)
		if c.Length != 5 || c.ExpiresIn != 300 || c.CaptchaID == "" {
			t.Fatalf("captcha reply %+v", c)
		}
		b64, ok := strings.CutPrefix(c.Image, "data:image/png;base64,")
		if !ok {
			t.Fatalf("image is not a PNG data URI: %.40s", c.Image)
		}
		raw, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(raw))
		if err != nil || img.Bounds().Dx() != 240 || img.Bounds().Dy() != 80 {
			t.Fatalf("captcha image: %v %v", img.Bounds(), err)
		}
		answer := captchaAnswer(t, db, c.CaptchaID)
		wrong := fmt.Sprintf("%05d", (int(answer[4]-'0')+1)%10)
		if r := reg("capt1", c.CaptchaID, answer[:4]+wrong[4:]); r.Code != apierr.CodeCaptchaWrong || r.Message != "The captcha is wrong or has expired, please get a new one" {
			t.Fatalf("wrong answer: %+v", r)
		}
		if r := reg("capt1", c.CaptchaID, answer); r.Code != apierr.CodeCaptchaWrong {
			t.Fatalf("a captcha is spent by a wrong answer: %+v", r)
		}
		if countRows(t, db, "users") != 0 {
			t.Fatal("nothing may be written")
		}
		c = getCaptcha(t, s)
		if r := reg("capt1", c.CaptchaID, captchaAnswer(t, db, c.CaptchaID)); r.Code != 0 {
			t.Fatalf("right answer: %+v", r)
		}
		c2 := getCaptcha(t, s)
		if r := reg("capt2", c.CaptchaID, captchaAnswer(t, db, c2.CaptchaID)); r.Code != apierr.CodeCaptchaWrong {
			t.Fatalf("reused captcha id: %+v", r)
		}
		c3 := getCaptcha(t, s)
		a3 := captchaAnswer(t, db, c3.CaptchaID)
		clk.Advance(CaptchaTTL)
		if r := reg("capt3", c3.CaptchaID, a3); r.Code != apierr.CodeCaptchaWrong {
			t.Fatalf("expired captcha: %+v", r)
		}
		// Each answer is its own: another captcha's answer does not open this one.
		if r := reg("capt4", c2.CaptchaID, "xxxxx"); r.Code != apierr.CodeCaptchaWrong {
			t.Fatalf("garbage answer: %+v", r)
		}
	})
}

func TestCaptchaIsRateLimitedPerAddress(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		for i := 0; i < captchaPerIPPerMinute; i++ {
			getCaptcha(t, s)
		}
		if r := call(t, s.Handler(), "GET", "/api/getCaptcha", ""); r.Code != apierr.CodeRateLimited {
			t.Fatalf("over the limit: %+v", r)
		}
	})
}

func TestRandomDigitsAreDigitsAndVary(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for i := 0; i < 50; i++ {
		d := randomDigits(6)
		if len(d) != 6 || strings.Trim(d, "0123456789") != "" {
			t.Fatalf("not 6 digits: %q", d)
		}
		seen[d] = true
	}
	if len(seen) < 45 {
		t.Fatalf("only %d distinct codes of 50", len(seen))
	}
}

// smsOutbox is an SMSSender that keeps what it sent. Reset codes go out
// after the answer, so reading it first waits for the server's sends.
type smsOutbox struct {
	s     *Server
	mu    sync.Mutex
	sent  []string // phone/purpose/code
	fail  bool
	delay time.Duration // a gateway's time per send
}

// captureSMS has s send its SMS codes to a new outbox, and returns it.
func captureSMS(s *Server) *smsOutbox {
	box := &smsOutbox{s: s}
	s.SMS = box
	return box
}

func (o *smsOutbox) SendCode(_ context.Context, phone, purpose, code string) error {
	o.mu.Lock()
	delay := o.delay
	o.mu.Unlock()
	time.Sleep(delay) // the gateway's round trip
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.fail {
		return fmt.Errorf("gateway down")
	}
	o.sent = append(o.sent, phone+"/"+purpose+"/"+code)
	return nil
}

func (o *smsOutbox) last(t *testing.T) string {
	t.Helper()
	o.s.smsSends.Wait()
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.sent) == 0 {
		t.Fatal("no SMS sent")
	}
	p := strings.Split(o.sent[len(o.sent)-1], "/")
	return p[2]
}

func (o *smsOutbox) count() int {
	o.s.smsSends.Wait()
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.sent)
}

func setPhoneDirect(t *testing.T, db storage.DB, id int64, phone string) {
	t.Helper()
	if err := storage.SetUserPhone(context.Background(), db, id, phone, true, 1); err != nil {
		t.Fatal(err)
	}
}

func TestForgetPasswordWithSMSCode(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		box := captureSMS(s)
		u, _ := newUser(t, s, "fiona")
		setPhoneDirect(t, db, u.ID, "13800138000")
		send := func(body string) reply {
			return call(t, h, "POST", "/api/sendSmsCode", body, "Accept-Language", "en-US")
		}
		cases := []struct {
			body string
			code int
			msg  string
		}{
			{`{"phone":"13800138000"}`, apierr.CodeRequired, "type is required"},
			{`{"phone":"13800138000","type":"hack"}`, apierr.CodeInvalid, "type is invalid"},
			{`{"phone":"1380","type":"forget","account":"fiona"}`, apierr.CodePhoneInvalid, "Phone number must be 6-11 digits"},
			{`{"phone":"13800138000","type":"forget"}`, apierr.CodeRequired, "account is required"},
		}
		for _, c := range cases {
			if r := send(c.body); r.Code != c.code || r.Message != c.msg {
				t.Errorf("%s: %d %q, want %d %q", c.body, r.Code, r.Message, c.code, c.msg)
			}
		}
		if box.count() != 0 {
			t.Fatal("no code may be sent for bad requests")
		}
		r := send(`{"phone":"13800138000","type":"forget","account":"fiona"}`)
		if r.Code != 0 || data[sendSmsCodeReply](t, r) != (sendSmsCodeReply{ResendSeconds: 60, ExpiresIn: 300}) {
			t.Fatalf("send: %+v", r)
		}
		code := box.last(t)
		if len(code) != 6 {
			t.Fatalf("code %q", code)
		}
		forget := func(smsCode, pw, confirm string) reply {
			return call(t, h, "POST", "/api/forget", jsonBody(t, map[string]string{"account": "fiona", "phone": "13800138000",
				"smsCode": smsCode, "password": pw, "confirmPassword": confirm}), "Accept-Language", "en-US")
		}
		wrong := fmt.Sprintf("%06d", (atoi(code)+1)%1000000)
		bad := []struct {
			code, pw, confirm string
			want              int
		}{
			{"", "new123", "new123", apierr.CodeRequired}, {"12345", "new123", "new123", apierr.CodeSMSCodeFormat},
			{code, "new", "new", apierr.CodePasswordLength}, {code, "new123", "new124", apierr.CodePasswordMismatch},
			{code, "new123", "", apierr.CodeRequired}, {wrong, "new123", "new123", apierr.CodeSMSCodeInvalid},
		}
		for _, b := range bad {
			if r := forget(b.code, b.pw, b.confirm); r.Code != b.want {
				t.Errorf("forget %+v: %+v", b, r)
			}
		}
		live := mustLogin(t, s, "fiona", "abc123") // the old password still works after failed resets
		if r := forget(code, "new123", "new123"); r.Code != 0 {
			t.Fatalf("reset: %+v", r)
		}
		if r := forget(code, "new456", "new456"); r.Code != apierr.CodeSMSCodeInvalid || r.Message != "The SMS code is wrong or has expired" {
			t.Fatalf("a code works once: %+v", r)
		}
		if r := call(t, h, "POST", "/api/user/mine", "{}", "token", live.Token); r.Code != apierr.CodeTokenExpired {
			t.Fatalf("sessions end on reset: %+v", r)
		}
		if r := login(t, s, "fiona", "abc123", 5); r.Code != apierr.CodeLoginCredential {
			t.Fatalf("old password: %+v", r)
		}
		mustLogin(t, s, "fiona", "new123")
	})
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

func TestSMSCodeBurnsAfterFiveWrongTriesAndExpires(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, clk := testServer(t, db)
		box := captureSMS(s)
		h := s.Handler()
		u, _ := newUser(t, s, "gwen")
		setPhoneDirect(t, db, u.ID, "13800138001")
		sendBody := `{"phone":"13800138001","type":"forget","account":"gwen"}`
		if r := call(t, h, "POST", "/api/sendSmsCode", sendBody); r.Code != 0 {
			t.Fatal(r)
		}
		code := box.last(t)
		forget := func(c string) reply {
			return call(t, h, "POST", "/api/forget", jsonBody(t, map[string]string{"account": "gwen", "phone": "13800138001",
				"smsCode": c, "password": "new123", "confirmPassword": "new123"}))
		}
		wrong := fmt.Sprintf("%06d", (atoi(code)+1)%1000000)
		for i := 0; i < smsMaxWrongTries; i++ {
			if r := forget(wrong); r.Code != apierr.CodeSMSCodeInvalid {
				t.Fatalf("wrong try %d: %+v", i+1, r)
			}
		}
		if r := forget(code); r.Code != apierr.CodeSMSCodeInvalid {
			t.Fatalf("after 5 wrong tries the right code is burnt: %+v", r)
		}
		// A new code (after the cool-down) works again, until it expires.
		clk.Advance(s.Config.SMSResendInterval)
		if r := call(t, h, "POST", "/api/sendSmsCode", sendBody); r.Code != 0 {
			t.Fatal(r)
		}
		code = box.last(t)
		clk.Advance(s.Config.SMSCodeTTL)
		if r := forget(code); r.Code != apierr.CodeSMSCodeInvalid {
			t.Fatalf("expired code: %+v", r)
		}
		clk.Advance(s.Config.SMSResendInterval)
		call(t, h, "POST", "/api/sendSmsCode", sendBody)
		if r := forget(box.last(t)); r.Code != 0 {
			t.Fatalf("fresh code: %+v", r)
		}
	})
}

func TestSendSmsCodeCooldownDailyCapAndSenderFailure(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, clk := testServer(t, db)
		box := captureSMS(s)
		h := s.Handler()
		_, tok := newUser(t, s, "hugo")
		send := func() reply {
			return call(t, h, "POST", "/api/sendSmsCode", `{"phone":"13700137000","type":"setPhone"}`, "token", tok.Token, "Accept-Language", "en-US")
		}
		if r := call(t, h, "POST", "/api/sendSmsCode", `{"phone":"13700137000","type":"setPhone"}`); r.Code != apierr.CodeTokenExpired {
			t.Fatalf("setPhone codes need a signed-in user: %+v", r)
		}
		if r := send(); r.Code != 0 {
			t.Fatal(r)
		}
		if r := send(); r.Code != apierr.CodeSMSCooldown || r.Message != "Please wait 60 seconds before requesting another code" {
			t.Fatalf("cool-down: %+v", r)
		}
		clk.Advance(45 * time.Second)
		if r := send(); r.Code != apierr.CodeSMSCooldown || r.Message != "Please wait 15 seconds before requesting another code" {
			t.Fatalf("cool-down later: %+v", r)
		}
		clk.Advance(15 * time.Second)
		box.mu.Lock()
		box.fail = true
		box.mu.Unlock()
		if r := send(); r.Code != apierr.CodeSMSSendFailed || r.Message != "The SMS could not be sent, please try again later" {
			t.Fatalf("sender failure: %+v", r)
		}
		box.mu.Lock()
		box.fail = false
		box.mu.Unlock()
		// A failed send does not start the cool-down.
		for i := 2; i <= smsPerPhonePerDay-1; i++ {
			if r := send(); r.Code != 0 {
				t.Fatalf("send %d: %+v", i, r)
			}
			clk.Advance(s.Config.SMSResendInterval)
		}
		if r := send(); r.Code != apierr.CodeSMSLimit {
			t.Fatalf("over the daily cap: %+v", r)
		}
		if box.count() != smsPerPhonePerDay-1 {
			t.Fatalf("sent %d", box.count())
		}
	})
}

func TestLogSenderWritesTheCodeOnlyToItsOwnLine(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		var buf bytes.Buffer
		var mu sync.Mutex
		s.Log = slog.New(slog.NewTextHandler(lockedWriter{&buf, &mu}, nil))
		_, tok := newUser(t, s, "ivy_log")
		r := call(t, s.Handler(), "POST", "/api/sendSmsCode", `{"phone":"13600136000","type":"setPhone"}`, "token", tok.Token)
		if r.Code != 0 {
			t.Fatal(r)
		}
		mu.Lock()
		logs := buf.String()
		mu.Unlock()
		var codeLines, sentLines int
		for _, line := range strings.Split(strings.TrimSpace(logs), "\n") {
			if strings.Contains(line, "code=") {
				codeLines++
				if !strings.Contains(line, "phone=13600136000") || !strings.Contains(line, "purpose=setPhone") {
					t.Fatalf("code line: %s", line)
				}
			}
			if strings.Contains(line, "sms code sent") {
				sentLines++
			}
			if strings.Contains(line, tok.Token) {
				t.Fatalf("a token was logged: %s", line)
			}
		}
		if codeLines != 1 || sentLines != 1 {
			t.Fatalf("want one line with the code and one without, got:\n%s", logs)
		}
	})
}

type lockedWriter struct {
	b  *bytes.Buffer
	mu *sync.Mutex
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func TestWebhookSenderDeliversCodesEndToEnd(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		var mu sync.Mutex
		var got []map[string]string
		status := http.StatusOK
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var m map[string]string
			err := json.NewDecoder(r.Body).Decode(&m)
			mu.Lock()
			defer mu.Unlock()
			if err != nil || r.Header.Get("Content-Type") != "application/json" {
				w.WriteHeader(http.StatusBadRequest)
				return
			}
			got = append(got, m)
			w.WriteHeader(status)
		}))
		defer srv.Close()
		s, clk := testServer(t, db)
		s.Config.SMSWebhookURL = srv.URL
		s.Config.PhoneSMSRequired = true
		h := s.Handler()
		if _, ok := s.smsSender().(WebhookSender); !ok {
			t.Fatalf("sender %T", s.smsSender())
		}
		_, tok := newUser(t, s, "hook_user")
		if r := call(t, h, "POST", "/api/sendSmsCode", `{"phone":"13500135000","type":"setPhone"}`, "token", tok.Token); r.Code != 0 {
			t.Fatalf("send: %+v", r)
		}
		mu.Lock()
		if len(got) != 1 || got[0]["phone"] != "13500135000" || got[0]["purpose"] != "setPhone" || len(got[0]["code"]) != 6 {
			t.Fatalf("webhook got %v", got)
		}
		code := got[0]["code"]
		status = http.StatusBadGateway
		mu.Unlock()
		if r := call(t, h, "POST", "/api/user/setPhone", `{"phone":"13500135000","smsCode":"`+code+`"}`, "token", tok.Token); r.Code != 0 {
			t.Fatalf("setPhone with the delivered code: %+v", r)
		}
		clk.Advance(s.Config.SMSResendInterval)
		r := call(t, h, "POST", "/api/sendSmsCode", `{"phone":"13500135001","type":"setPhone"}`, "token", tok.Token, "Accept-Language", "en-US")
		if r.Code != apierr.CodeSMSSendFailed {
			t.Fatalf("failing webhook: %+v", r)
		}
		mu.Lock()
		undelivered := got[len(got)-1]["code"]
		mu.Unlock()
		if r := call(t, h, "POST", "/api/user/setPhone", `{"phone":"13500135001","smsCode":"`+undelivered+`"}`, "token", tok.Token); r.Code != apierr.CodeSMSCodeInvalid {
			t.Fatalf("a code that was not delivered must not work: %+v", r)
		}
		s.Config.SMSWebhookURL = ""
		if _, ok := s.smsSender().(LogSender); !ok {
			t.Fatalf("default sender %T", s.smsSender())
		}
	})
}

// A node that stops waits for the reset codes it answered for but had not
// yet sent (they go out after the answer), up to its shutdown deadline.
func TestStopWaitsForResetCodesBeingSent(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		box := captureSMS(s)
		box.delay = 300 * time.Millisecond
		u, _ := newUser(t, s, "gwen")
		setPhoneDirect(t, db, u.ID, "13800138001")
		if r := call(t, h, "POST", "/api/sendSmsCode", `{"phone":"13800138001","type":"forget","account":"gwen"}`); r.Code != 0 {
			t.Fatalf("sendSmsCode: %+v", r)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s.WaitForSMS(ctx)
		box.mu.Lock()
		sent := len(box.sent)
		box.mu.Unlock()
		if sent != 1 {
			t.Fatalf("WaitForSMS returned with %d codes sent, want 1", sent)
		}

		// A gateway slower than the deadline does not hold the stop.
		box.mu.Lock()
		box.delay = time.Second
		box.mu.Unlock()
		// The cool-down is per phone: another account and phone.
		v, _ := newUser(t, s, "hana")
		setPhoneDirect(t, db, v.ID, "13800138002")
		if r := call(t, h, "POST", "/api/sendSmsCode", `{"phone":"13800138002","type":"forget","account":"hana"}`); r.Code != 0 {
			t.Fatalf("sendSmsCode: %+v", r)
		}
		short, cancelShort := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancelShort()
		start := time.Now()
		s.WaitForSMS(short)
		if d := time.Since(start); d > 500*time.Millisecond {
			t.Fatalf("WaitForSMS held the stop %v past its deadline", d)
		}
	})
}
