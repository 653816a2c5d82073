package httpapi

// SMS codes: 6 digits, single use, valid KJ_SMS_CODE_TTL, one per phone and
// purpose, a resend cool-down (KJ_SMS_RESEND_INTERVAL), at most
// smsPerPhonePerDay codes to a phone and smsPerIPPerHour per address, and
// smsMaxWrongTries wrong answers before a code is burnt.
//
// Delivery is pluggable (SMSSender). Without a gateway the code is written
// to the server log, which is the only place it appears: handlers log the
// phone and purpose, never the code.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"kj/internal/apierr"
	"kj/storage"
)

const (
	SMSCodeLength     = 6
	smsPerPhonePerDay = 10
	smsPerIPPerHour   = 20
	smsMaxWrongTries  = 5
	smsWebhookTimeout = 10 * time.Second
	smsForget         = "forget"
	smsSetPhone       = "setPhone"
	smsDayWindow      = 24 * time.Hour
)

// SMSSender delivers a code to a phone. purpose is "forget" or "setPhone".
type SMSSender interface {
	SendCode(ctx context.Context, phone, purpose, code string) error
}

// LogSender is the default sender: it writes the code to the server log so
// an operator (or a developer) can read it out. Its whole purpose is to log
// the code; nothing else in the server does.
type LogSender struct{ Log *slog.Logger }

func (l LogSender) SendCode(ctx context.Context, phone, purpose, code string) error {
	l.Log.LogAttrs(ctx, slog.LevelWarn, "SMS code (no SMS gateway: set KJ_SMS_WEBHOOK_URL to deliver it)",
		slog.String("phone", phone), slog.String("purpose", purpose), slog.String("code", code))
	return nil
}

// WebhookSender posts {"phone", "code", "purpose"} as JSON to URL and
// expects a 2xx answer; a small bridge on the other side talks to the SMS
// gateway of the operator's choice.
type WebhookSender struct {
	URL    string
	Client *http.Client
}

func (w WebhookSender) SendCode(ctx context.Context, phone, purpose, code string) error {
	body, _ := json.Marshal(map[string]string{"phone": phone, "code": code, "purpose": purpose})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := w.Client.Do(req)
	if err != nil {
		// The error of net/http names the URL, never the body.
		return err
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("sms webhook answered %s", resp.Status)
	}
	return nil
}

var smsWebhookClient = &http.Client{Timeout: smsWebhookTimeout}

// smsSender is Deps.SMS, else the webhook when configured, else the log.
func (s *Server) smsSender() SMSSender {
	switch {
	case s.SMS != nil:
		return s.SMS
	case s.Config.SMSWebhookURL != "":
		return WebhookSender{URL: s.Config.SMSWebhookURL, Client: smsWebhookClient}
	}
	return LogSender{Log: s.Log}
}

func init() {
	registerArea(func(s *Server) {
		s.Post("/sendSmsCode", Open, s.sendSmsCode)
	})
}

type sendSmsCodeRequest struct {
	Phone   string `json:"phone"`
	Type    string `json:"type"`    // forget or setPhone
	Account string `json:"account"` // for forget: the account whose password is reset
}

type sendSmsCodeReply struct {
	ResendSeconds int `json:"resendSeconds"`
	ExpiresIn     int `json:"expiresIn"`
}

// sendSmsCode sends a code for a password reset (to the account's bound
// phone, after the answer) or for setting a phone (signed in; to the new
// phone, before the answer, which says when the sender failed).
func (s *Server) sendSmsCode(c *Call) (any, error) {
	var req sendSmsCodeRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	switch req.Type {
	case "":
		return nil, apierr.Required("type")
	case smsForget, smsSetPhone:
	default:
		return nil, apierr.Invalid("type")
	}
	if err := s.validatePhone(req.Phone); err != nil {
		return nil, err
	}
	// Counted before the account and phone are looked at, so probing which
	// phone belongs to which account is limited too.
	if err := s.countAttempt(c.Ctx, "sms:ip:"+c.ClientIP(), smsPerIPPerHour, time.Hour); err != nil {
		return nil, err
	}
	var userID int64
	deliver := true
	if req.Type == smsSetPhone {
		if err := s.authenticate(c); err != nil {
			return nil, err
		}
		userID = c.User.ID
	} else {
		if err := ValidateAccount(req.Account); err != nil {
			return nil, err
		}
		// An unknown account, another phone or one bound without an SMS
		// code gets the same answer as a code sent (and the same
		// cool-down), but no code: the answer does not tell which
		// accounts and phones exist.
		u, bound, err := s.accountWithPhone(c, req.Account, req.Phone)
		if err != nil {
			return nil, err
		}
		deliver = bound
		userID = u.ID
	}
	coolKey := "acct:sms:cool:" + req.Type + ":" + req.Phone
	n, err := s.Counters.Incr(c.Ctx, coolKey, 1, s.Config.SMSResendInterval)
	if err != nil {
		return nil, err
	}
	if n > 1 {
		_, left, err := s.Counters.Get(c.Ctx, coolKey)
		if err != nil {
			return nil, err
		}
		return nil, apierr.Fail(apierr.CodeSMSCooldown, "sms.cooldown", "seconds", int((left+time.Second-1)/time.Second))
	}
	sent := false
	defer func() {
		if !sent { // let the user ask again at once
			_ = s.Counters.Delete(context.WithoutCancel(c.Ctx), coolKey)
		}
	}()
	if n, err := s.Counters.Incr(c.Ctx, "acct:sms:day:"+req.Phone, 1, smsDayWindow); err != nil {
		return nil, err
	} else if n > smsPerPhonePerDay {
		return nil, apierr.Fail(apierr.CodeSMSLimit, "sms.limit")
	}

	reply := sendSmsCodeReply{
		ResendSeconds: int(s.Config.SMSResendInterval / time.Second),
		ExpiresIn:     int(s.Config.SMSCodeTTL / time.Second),
	}
	switch {
	case req.Type == smsSetPhone:
		if err := s.deliverSMSCode(c.Ctx, req.Phone, req.Type, userID); err != nil {
			return nil, err
		}
	case deliver:
		// A reset code is stored and sent after the answer, so the answer
		// costs the same whether or not a code goes out: storing it and
		// calling the gateway (a webhook: tens of milliseconds or more)
		// would otherwise tell which phone is which account's. A failed
		// send lifts the cool-down, so the user can ask again at once.
		s.smsSends.Add(1)
		go func(ctx context.Context) {
			defer s.smsSends.Done()
			if err := s.deliverSMSCode(ctx, req.Phone, req.Type, userID); err != nil {
				_ = s.Counters.Delete(ctx, coolKey)
			}
		}(context.WithoutCancel(c.Ctx))
	default:
		s.Log.Info("sms code not sent: no account with this verified phone", "phone", req.Phone, "purpose", req.Type)
	}
	sent = true // the cool-down stays, as after every code sent
	return reply, nil
}

// WaitForSMS waits, until ctx ends, for the reset codes still being stored
// and sent after their answer: a node that stops sends what it promised
// before its store closes.
func (s *Server) WaitForSMS(ctx context.Context) {
	done := make(chan struct{})
	go func() { s.smsSends.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		s.Log.Warn("stopped before every reset code was sent", "err", ctx.Err())
	}
}

// deliverSMSCode makes a new code for phone and purpose, stores its hash
// (replacing any earlier code, with a fresh count of wrong tries) and
// sends it; when the sender fails the code is dropped and the error is
// CodeSMSSendFailed.
func (s *Server) deliverSMSCode(ctx context.Context, phone, purpose string, userID int64) error {
	code := randomDigits(SMSCodeLength)
	now := s.Clock.Now()
	if err := storage.PutSMSCode(ctx, s.DB, phone, purpose, smsHash(phone, purpose, code),
		now.Add(s.Config.SMSCodeTTL).UnixMilli(), now.UnixMilli()); err != nil {
		s.Log.Error("sms code not stored", "phone", phone, "purpose", purpose, "err", err)
		return err
	}
	if err := s.Counters.Delete(ctx, smsFailKey(phone, purpose)); err != nil {
		s.Log.Error("sms code's wrong tries not reset", "phone", phone, "purpose", purpose, "err", err)
		return err
	}
	if err := s.smsSender().SendCode(ctx, phone, purpose, code); err != nil {
		s.Log.Error("sms code not sent", "phone", phone, "purpose", purpose, "err", err)
		_ = storage.DeleteSMSCode(context.WithoutCancel(ctx), s.DB, phone, purpose)
		return apierr.Fail(apierr.CodeSMSSendFailed, "sms.send.failed")
	}
	s.Log.Info("sms code sent", "phone", phone, "purpose", purpose, "userId", userID)
	return nil
}

func smsHash(phone, purpose, code string) string {
	return storage.HashSecret(purpose + ":" + phone + ":" + code)
}

func smsFailKey(phone, purpose string) string { return "acct:sms:fail:" + purpose + ":" + phone }

// takeSMSCode consumes the code inside tx (so it is spent only if the whole
// operation commits). A code with too many wrong tries is refused even when
// right.
//
// Every try is counted before the code is compared (increment, then
// compare), so a burst of parallel guesses gets smsMaxWrongTries of them
// compared, not all.
func (s *Server) takeSMSCode(ctx context.Context, tx storage.Tx, phone, purpose, code string) error {
	n, err := s.Counters.Incr(ctx, smsFailKey(phone, purpose), 1, s.Config.SMSCodeTTL)
	if err != nil {
		return err
	}
	if n > smsMaxWrongTries {
		return apierr.Fail(apierr.CodeSMSCodeInvalid, "sms.code.invalid")
	}
	err = storage.TakeSMSCode(ctx, tx, phone, purpose, smsHash(phone, purpose, code), s.Clock.Now().UnixMilli())
	if errors.Is(err, storage.ErrNotFound) {
		return apierr.Fail(apierr.CodeSMSCodeInvalid, "sms.code.invalid")
	}
	return err
}

// smsCodeFailed is called with the error of an operation that took an SMS
// code: when the code was wrong (its try was counted by takeSMSCode) it
// burns the code once smsMaxWrongTries were counted. err is returned.
func (s *Server) smsCodeFailed(ctx context.Context, phone, purpose string, err error) error {
	var e *apierr.Error
	if !errors.As(err, &e) || e.Code != apierr.CodeSMSCodeInvalid {
		return err
	}
	n, _, cerr := s.Counters.Get(ctx, smsFailKey(phone, purpose))
	if cerr != nil {
		s.Log.Warn("sms: reading the wrong tries failed", "err", cerr)
		return err
	}
	if n >= smsMaxWrongTries {
		if derr := storage.DeleteSMSCode(ctx, s.DB, phone, purpose); derr != nil {
			s.Log.Warn("sms: burning a code failed", "err", derr)
		}
	}
	return err
}

// validateSMSCode checks the form of a code: exactly 6 digits.
func validateSMSCode(code string) error {
	if code == "" {
		return apierr.Required("smsCode")
	}
	if len(code) != SMSCodeLength {
		return apierr.Fail(apierr.CodeSMSCodeFormat, "sms.code.format")
	}
	for i := 0; i < len(code); i++ {
		if code[i] < '0' || code[i] > '9' {
			return apierr.Fail(apierr.CodeSMSCodeFormat, "sms.code.format")
		}
	}
	return nil
}

// validatePhone checks a phone number: digits only, KJ_PHONE_MIN_DIGITS to
// KJ_PHONE_MAX_DIGITS of them.
func (s *Server) validatePhone(phone string) error {
	if phone == "" {
		return apierr.Required("phone")
	}
	bad := len(phone) < s.Config.PhoneMinDigits || len(phone) > s.Config.PhoneMaxDigits
	for i := 0; i < len(phone) && !bad; i++ {
		bad = phone[i] < '0' || phone[i] > '9'
	}
	if bad {
		return apierr.Fail(apierr.CodePhoneInvalid, "phone.invalid", "min", s.Config.PhoneMinDigits, "max", s.Config.PhoneMaxDigits)
	}
	return nil
}
