package httpapi

// Abuse caps of open routes: what one client address may do without
// signing in.

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"kj/internal/apierr"
	"kj/storage"
)

func TestCustomerServiceWithoutSignInIsCappedPerAddress(t *testing.T) {
	t.Parallel()
	eachCounters(t, func(t *testing.T, db storage.DB, s *Server) {
		s.Config.CustomerNewVisitorsPerHour, s.Config.CustomerSendsPerMinute = 5, 12
		// 60 messages from one address, each without a visitor key (a new
		// visitor each time): only 5 visitors are made, the rest refused.
		got := burst(t, s, 60, "/customer/send", func(i int) string { return fmt.Sprintf(`{"content":"hello %d"}`, i) })
		if got[0] != 5 || got[apierr.CodeRateLimited] != 55 {
			t.Fatalf("60 key-less sends from one address: %v; want 5 accepted", got)
		}
		if n := countRows(t, db, "customer_visitors"); n != 5 {
			t.Fatalf("%d visitors made, want 5", n)
		}
		// One visitor's key from the same address: sends stop at the
		// address's cap (12 a minute, 5 already spent).
		r, key := customerCall(t, s, "/customer/init", ``)
		if r.Code != 0 || key == "" {
			t.Fatalf("init from another address: %+v", r)
		}
		got = burst(t, s, 30, "/customer/send", func(i int) string { return fmt.Sprintf(`{"content":"again %d"}`, i) }, visitorHeader, key)
		if got[0] != 7 || got[apierr.CodeRateLimited] != 23 {
			t.Fatalf("30 sends with one key from a capped address: %v; want 7 accepted", got)
		}
	})
}

func TestNicknamesWithHiddenOrReorderingCharactersAreRefused(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		_, tok := newUser(t, s, "nick_bidi")
		for _, bad := range []string{"\u202Enimda", "ser\u200Bvice", "\uFEFFkf"} {
			fails(t, s, tok.Token, "/user/editNick", jsonBody(t, map[string]string{"nickName": bad}), apierr.CodeNickInvalid)
		}
		ok(t, s, tok.Token, "/user/editNick", jsonBody(t, map[string]string{"nickName": "José"}), nil)
	})
}

func TestPasswordResetDoesNotTellWhichAccountsAndPhonesExist(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		box := captureSMS(s)
		u, _ := newUser(t, s, "enum_fay")
		setPhoneDirect(t, db, u.ID, "13800138001")
		send := func(phone, account string) reply {
			return call(t, h, "POST", "/api/sendSmsCode", jsonBody(t, map[string]string{"phone": phone, "type": "forget", "account": account}), "Accept-Language", "en-US")
		}
		real := send("13800138001", "enum_fay")
		unknown := send("13800138002", "enum_nobody")
		mismatch := send("13800138003", "enum_fay")
		if real.Code != 0 || unknown.Code != real.Code || mismatch.Code != real.Code || string(unknown.Data) != string(real.Data) || string(mismatch.Data) != string(real.Data) {
			t.Fatalf("sendSmsCode answers differ: real %+v, unknown account %+v, other phone %+v", real, unknown, mismatch)
		}
		if box.count() != 1 {
			t.Fatalf("%d codes sent, want 1 (only to the account's own phone)", box.count())
		}
		forget := func(account, phone string) reply {
			return call(t, h, "POST", "/api/forget", jsonBody(t, map[string]string{"account": account, "phone": phone, "smsCode": "123456",
				"password": "new123", "confirmPassword": "new123"}), "Accept-Language", "en-US")
		}
		a, b, c := forget("enum_fay", "13800138001"), forget("enum_nobody", "13800138001"), forget("enum_fay", "13800138009")
		if a.Code != apierr.CodeSMSCodeInvalid || b.Code != a.Code || c.Code != a.Code || b.Message != a.Message || c.Message != a.Message {
			t.Fatalf("forget answers differ: wrong code %+v, unknown account %+v, other phone %+v", a, b, c)
		}
	})
}

func TestOnlyAPhoneBoundWithAnSMSCodeResetsAPasswordAndOnlyForOneAccount(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		box := captureSMS(s)
		_, tok := newUser(t, s, "enum_gil")
		_, other := newUser(t, s, "enum_hal")
		// Bound without a code (KJ_PHONE_SMS_REQUIRED=false): no reset by SMS.
		ok(t, s, tok.Token, "/user/setPhone", `{"phone":"13900139001"}`, nil)
		r := call(t, h, "POST", "/api/sendSmsCode", `{"phone":"13900139001","type":"forget","account":"enum_gil"}`, "Accept-Language", "en-US")
		if r.Code != 0 || box.count() != 0 {
			t.Fatalf("a phone bound without a code got a reset code: %+v, %d sent", r, box.count())
		}
		// Bound with a code: resets work, and the phone is this account's only.
		s.Config.PhoneSMSRequired = true
		bind := func(token, phone string) reply {
			if r := post(t, s, token, "/sendSmsCode", jsonBody(t, map[string]string{"phone": phone, "type": "setPhone"})); r.Code != 0 {
				t.Fatalf("setPhone code: %+v", r)
			}
			return post(t, s, token, "/user/setPhone", jsonBody(t, map[string]string{"phone": phone, "smsCode": box.last(t)}))
		}
		if r := bind(tok.Token, "13900139001"); r.Code != 0 {
			t.Fatalf("binding with a code: %+v", r)
		}
		s.Clock.(interface{ Advance(time.Duration) }).Advance(2 * time.Minute)
		if r := bind(other.Token, "13900139001"); r.Code != apierr.CodePhoneTaken {
			t.Fatalf("a second account binding the same phone: %+v", r)
		}
		s.Clock.(interface{ Advance(time.Duration) }).Advance(2 * time.Minute)
		sent := box.count()
		r = call(t, h, "POST", "/api/sendSmsCode", `{"phone":"13900139001","type":"forget","account":"enum_gil"}`, "Accept-Language", "en-US")
		if r.Code != 0 || box.count() != sent+1 {
			t.Fatalf("a phone bound with a code gets no reset code: %+v", r)
		}
		if r := call(t, h, "POST", "/api/forget", jsonBody(t, map[string]string{"account": "enum_gil", "phone": "13900139001", "smsCode": box.last(t),
			"password": "new123", "confirmPassword": "new123"})); r.Code != 0 {
			t.Fatalf("reset with the code: %+v", r)
		}
	})
}
