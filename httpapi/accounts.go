package httpapi

// Accounts: registration, sign-in (with lockout and per-address limits),
// token renewal, sign-out and password reset. Captchas are in captcha.go,
// SMS codes in sms.go, the profile routes in profile.go, avatars in
// avatar.go and the operators' user routes in admin_users.go.

import (
	"context"
	"crypto/rand"
	"errors"
	"net"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"kj/auth"
	"kj/storage"
)

var (
	signIns = promauto.NewCounterVec(prometheus.CounterOpts{
		Name: "kj_accounts_signins_total",
		Help: "Password sign-ins by result: ok, wrong (credential), locked.",
	}, []string{"result"})
	registrations = promauto.NewCounter(prometheus.CounterOpts{
		Name: "kj_accounts_registrations_total",
		Help: "Accounts created through /register.",
	})
)

// Error codes of the accounts area (README, section Accounts). 1100-1149
// are used here; 1150-1199 are left for the rest of the area (fund
// password, bank cards, notices).
const (
	CodeAccountInvalid   = 1100 // account is not 4-20 letters, digits or underscores
	CodeAccountExists    = 1101 // account taken
	CodeAccountUnknown   = 1102 // no such account
	CodePasswordLength   = 1103 // password not 6-20 characters
	CodePasswordNoDigit  = 1104 // password without digits
	CodePasswordNoLetter = 1105 // password without letters
	CodePasswordChars    = 1106 // password with spaces or non-ASCII characters
	CodePasswordMismatch = 1107 // 'Two passwords are inconsistent'
	CodeOldPasswordWrong = 1108 // change password: the original is wrong
	CodeLoginCredential  = 1109 // 'invalid login credential'
	CodeLoginLocked      = 1110 // 'too many login errors, retry after 10 minutes'
	CodePasswordLocked   = 1111 // too many wrong original passwords
	CodeInviteInvalid    = 1112 // invite code does not start with pro_
	CodeInviteUnknown    = 1113 // invite code names nobody
	CodeCaptchaWrong     = 1114 // captcha wrong, used or expired
	CodeSMSCodeInvalid   = 1115 // SMS code wrong, used or expired
	CodeSMSCodeFormat    = 1116 // SMS code not 6 digits
	CodeSMSCooldown      = 1117 // another code asked for too soon
	CodeSMSLimit         = 1118 // too many codes to one phone
	CodeSMSSendFailed    = 1119 // the sender failed
	CodePhoneInvalid     = 1120 // phone not min-max digits
	CodePhoneMismatch    = 1121 // phone is not the account's bound phone
	CodeNickInvalid      = 1122 // nickname not 1-10 characters
	CodeAvatarType       = 1123 // not PNG, JPEG or WebP
	CodeAvatarTooLarge   = 1124 // over 5 MB
	CodeAvatarBroken     = 1125 // does not decode, or too many pixels
	CodeSuperiorBound    = 1126 // a superior is already bound
	CodeSuperiorInvalid  = 1127 // binding oneself or one's own invitee
)

// Rules of spec sections 5 and 9.
const (
	AccountMinLen  = 4
	AccountMaxLen  = 20
	PasswordMinLen = 6
	PasswordMaxLen = 20
	NicknameMaxLen = 10

	// Sign-in lockout: LoginMaxFailures wrong passwords within
	// LoginFailureWindow lock the account for LoginLockTime.
	LoginMaxFailures   = 5
	LoginFailureWindow = 10 * time.Minute
	LoginLockTime      = 10 * time.Minute

	// Per client address: sign-in attempts per minute, registrations and
	// password resets per hour. Generous for people behind one NAT, tight
	// enough to stop scripted guessing and mass sign-ups.
	loginPerIPPerMinute   = 30
	registerPerIPPerHour  = 10
	forgetPerIPPerHour    = 20
	maxSuperiorChainDepth = 1000
)

// ValidateAccount checks an account name: 4-20 of A-Z, a-z, 0-9 and _.
func ValidateAccount(account string) error {
	if account == "" {
		return Required("account")
	}
	if len(account) < AccountMinLen || len(account) > AccountMaxLen {
		return Fail(CodeAccountInvalid, "account.invalid")
	}
	for i := 0; i < len(account); i++ {
		c := account[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return Fail(CodeAccountInvalid, "account.invalid")
		}
	}
	return nil
}

// ValidatePassword checks a login password: 6-20 printable ASCII
// characters with at least one letter and one digit. Length is checked
// first, then digits, then letters, so each case has its own message.
func ValidatePassword(field, password string) error {
	if password == "" {
		return Required(field)
	}
	n := utf8.RuneCountInString(password)
	if n < PasswordMinLen || n > PasswordMaxLen {
		return Fail(CodePasswordLength, "password.length")
	}
	var letter, digit bool
	for _, r := range password {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
			letter = true
		case r > ' ' && r < 0x7f:
		default:
			return Fail(CodePasswordChars, "password.chars")
		}
	}
	if !digit {
		return Fail(CodePasswordNoDigit, "password.no.digit")
	}
	if !letter {
		return Fail(CodePasswordNoLetter, "password.no.letter")
	}
	return nil
}

// validateNewPassword is ValidatePassword plus the confirmation, when the
// form has one.
func validateNewPassword(password, confirm string, confirmRequired bool) error {
	if err := ValidatePassword("password", password); err != nil {
		return err
	}
	if confirm == "" && confirmRequired {
		return Required("confirmPassword")
	}
	if confirm != "" && confirm != password {
		return Fail(CodePasswordMismatch, "password.mismatch")
	}
	return nil
}

// NewInviteCode makes a user's own invite code: "pro_" and 8 random
// lower-case letters and digits (36^8, so a clash is retried, not feared).
func NewInviteCode() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		panic("httpapi: crypto/rand failed: " + err.Error())
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return "pro_" + string(b)
}

// ClientIP is the caller's address: the connection's peer, or with
// KJ_TRUST_PROXY the last X-Forwarded-For entry (the one our own proxy
// appended; earlier entries are whatever the client claimed).
func (c *Call) ClientIP() string {
	if c.s.Config.TrustProxy {
		if xff := c.R.Header.Get("X-Forwarded-For"); xff != "" {
			parts := strings.Split(xff, ",")
			if ip := strings.TrimSpace(parts[len(parts)-1]); ip != "" {
				return ip
			}
		}
	}
	host, _, err := net.SplitHostPort(c.R.RemoteAddr)
	if err != nil {
		return c.R.RemoteAddr
	}
	return host
}

// countAttempt adds one to key (a fixed window of length window) and
// refuses with "too many requests" once more than max were counted.
func (s *Server) countAttempt(ctx context.Context, key string, max int64, window time.Duration) error {
	n, err := s.Counters.Incr(ctx, "acct:"+key, 1, window)
	if err != nil {
		return err
	}
	if n > max {
		return Fail(CodeRateLimited, "rate.limited")
	}
	return nil
}

// checkPlatform validates the chat platform id of a sign-in (OpenIM's
// 1 iOS ... 5 web ... 10 admin).
func checkPlatform(p int) error {
	if p == 0 {
		return Required("platform")
	}
	if p < 1 || p > 10 {
		return Invalid("platform")
	}
	return nil
}

func init() {
	registerArea(func(s *Server) {
		s.Post("/register", Open, s.register)
		s.Post("/register/config", Open, s.registerConfig)
		s.Get("/register/config", Open, s.registerConfig)
		s.Post("/accountLogin", Open, func(c *Call) (any, error) { return s.accountLogin(c, false) })
		s.Post("/accountLoginAtm", Open, func(c *Call) (any, error) { return s.accountLogin(c, true) })
		s.Post("/jwt/login", Open, s.jwtLogin)
		s.Post("/logout", User, s.logout)
		s.Post("/forget", Open, s.forget)
	})
}

type registerRequest struct {
	Account         string `json:"account"`
	Password        string `json:"password"`
	ConfirmPassword string `json:"confirmPassword"`
	InviteCode      string `json:"inviteCode"`
	CaptchaID       string `json:"captchaId"`
	CaptchaCode     string `json:"captchaCode"`
}

type registerReply struct {
	UserID     string `json:"userId"`
	Account    string `json:"account"`
	InviteCode string `json:"inviteCode"`
}

// register creates an account. Cheap checks come first; the captcha is
// consumed before the store is asked whether the account is free, so
// probing for taken names costs one captcha each.
func (s *Server) register(c *Call) (any, error) {
	var req registerRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if err := ValidateAccount(req.Account); err != nil {
		return nil, err
	}
	if err := validateNewPassword(req.Password, req.ConfirmPassword, false); err != nil {
		return nil, err
	}
	if req.InviteCode == "" && s.Config.RegisterInviteRequired {
		return nil, Required("inviteCode")
	}
	if req.InviteCode != "" && (!strings.HasPrefix(req.InviteCode, "pro_") || len(req.InviteCode) > 64) {
		return nil, Fail(CodeInviteInvalid, "invite.invalid")
	}
	ip := c.ClientIP()
	if n, _, err := s.Counters.Get(c.Ctx, "acct:register:ip:"+ip); err != nil {
		return nil, err
	} else if n >= registerPerIPPerHour {
		return nil, Fail(CodeRateLimited, "rate.limited")
	}
	if s.Config.RegisterCaptcha {
		if err := s.checkCaptcha(c.Ctx, req.CaptchaID, req.CaptchaCode); err != nil {
			return nil, err
		}
	}
	hash, err := auth.HashPassword(req.Password)
	if err != nil {
		return nil, err
	}
	now := s.Clock.Now().UnixMilli()
	u := storage.User{ID: storage.NewID(), Account: req.Account, PasswordHash: hash, Nickname: req.Account,
		CreatedAt: now, UpdatedAt: now}
	// A clash on the generated invite code (never seen in practice) is
	// retried with a new code; a clash on the account is the user's.
	for attempt := 0; ; attempt++ {
		u.InviteCode = NewInviteCode()
		err = s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
			if req.InviteCode != "" {
				sup, err := storage.UserByInviteCode(c.Ctx, tx, req.InviteCode)
				if errors.Is(err, storage.ErrNotFound) {
					return Fail(CodeInviteUnknown, "invite.unknown")
				}
				if err != nil {
					return err
				}
				u.SuperiorID = sup.ID
			}
			if _, err := storage.UserByAccount(c.Ctx, tx, req.Account); err == nil {
				return Fail(CodeAccountExists, "account.exists")
			} else if !errors.Is(err, storage.ErrNotFound) {
				return err
			}
			return storage.CreateUser(c.Ctx, tx, u)
		})
		if errors.Is(err, storage.ErrConflict) {
			if strings.Contains(err.Error(), "invite_code") && attempt < 3 {
				continue
			}
			return nil, Fail(CodeAccountExists, "account.exists")
		}
		break
	}
	if err != nil {
		return nil, err
	}
	if _, err := s.Counters.Incr(c.Ctx, "acct:register:ip:"+ip, 1, time.Hour); err != nil {
		s.Log.Warn("register: counting the address failed", "err", err)
	}
	registrations.Inc()
	s.Log.Info("account registered", "userId", u.ID, "account", u.Account, "superiorId", u.SuperiorID)
	return registerReply{UserID: u.IDString(), Account: u.Account, InviteCode: u.InviteCode}, nil
}

type registerConfigReply struct {
	CaptchaRequired    bool     `json:"captchaRequired"`
	InviteCodeRequired bool     `json:"inviteCodeRequired"`
	Required           []string `json:"required"`
}

func (s *Server) registerConfig(c *Call) (any, error) {
	r := registerConfigReply{
		CaptchaRequired:    s.Config.RegisterCaptcha,
		InviteCodeRequired: s.Config.RegisterInviteRequired,
		Required:           []string{"account", "password"},
	}
	if r.InviteCodeRequired {
		r.Required = append(r.Required, "inviteCode")
	}
	if r.CaptchaRequired {
		r.Required = append(r.Required, "captchaId", "captchaCode")
	}
	return r, nil
}

type loginRequest struct {
	Account     string `json:"account"`
	Password    string `json:"password"`
	Platform    int    `json:"platform"`
	OperationID string `json:"operationID"`
}

// accountLogin signs in with account and password. With switching set
// (/accountLoginAtm, the switch-account screen) the session whose token the
// request carries, if any, is signed out in the same transaction: the
// device moves to the other account and leaves no live session behind.
func (s *Server) accountLogin(c *Call, switching bool) (any, error) {
	var req loginRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.Account == "" {
		return nil, Required("account")
	}
	if req.Password == "" {
		return nil, Required("password")
	}
	if err := checkPlatform(req.Platform); err != nil {
		return nil, err
	}
	ip := c.ClientIP()
	if err := s.countAttempt(c.Ctx, "login:ip:"+ip, loginPerIPPerMinute, time.Minute); err != nil {
		return nil, err
	}
	// Names that cannot be accounts fail like a wrong password, without
	// a lockout key (their length is unbounded).
	if ValidateAccount(req.Account) != nil || len(req.Password) > 4*PasswordMaxLen {
		auth.CheckPassword(dummyHash(), req.Password)
		signIns.WithLabelValues("wrong").Inc()
		return nil, Fail(CodeLoginCredential, "login.credential")
	}
	if locked, err := s.loginLocked(c.Ctx, req.Account); err != nil {
		return nil, err
	} else if locked {
		signIns.WithLabelValues("locked").Inc()
		return nil, Fail(CodeLoginLocked, "login.locked")
	}
	u, err := storage.UserByAccount(c.Ctx, s.DB, req.Account)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		// Same work as a real check, so timing does not tell which
		// accounts exist.
		auth.CheckPassword(dummyHash(), req.Password)
		return nil, s.loginFailed(c, req.Account)
	case err != nil:
		return nil, err
	case !auth.CheckPassword(u.PasswordHash, req.Password):
		return nil, s.loginFailed(c, req.Account)
	}

	var previous storage.AuthSession
	if switching {
		if _, sess, err := s.Sessions.Authenticate(c.Ctx, Token(c.R)); err == nil {
			previous = sess
		}
	}
	var tok auth.Tokens
	var replaced []int64
	err = s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		var err error
		if previous.ID != 0 {
			if err := storage.EndSession(c.Ctx, tx, previous.ID, storage.SessionSignedOut); err != nil {
				return err
			}
		}
		tok, replaced, err = s.Sessions.SignIn(c.Ctx, tx, u.ID, req.Platform)
		if err != nil {
			return err
		}
		return storage.RecordLogin(c.Ctx, tx, u.ID, s.Clock.Now().UnixMilli(), ip)
	})
	if err != nil {
		return nil, err
	}
	s.Sessions.Announce(c.Ctx, u.ID, auth.ReasonReplaced, replaced...)
	if previous.ID != 0 {
		s.Sessions.Announce(c.Ctx, previous.UserID, auth.ReasonSignedOut, previous.ID)
	}
	if err := s.Counters.Delete(c.Ctx, "acct:login:fail:"+req.Account); err != nil {
		s.Log.Warn("login: clearing failures failed", "err", err)
	}
	signIns.WithLabelValues("ok").Inc()
	s.Log.Info("signed in", "userId", u.ID, "platform", req.Platform, "replaced", len(replaced),
		"switch", switching, "operationID", req.OperationID)
	return tok, nil
}

func (s *Server) loginLocked(ctx context.Context, account string) (bool, error) {
	n, _, err := s.Counters.Get(ctx, "acct:login:lock:"+account)
	return n > 0, err
}

// loginFailed counts a wrong password; the LoginMaxFailures-th within the
// window locks the account and is answered with the lockout message.
func (s *Server) loginFailed(c *Call, account string) error {
	n, err := s.Counters.Incr(c.Ctx, "acct:login:fail:"+account, 1, LoginFailureWindow)
	if err != nil {
		return err
	}
	signIns.WithLabelValues("wrong").Inc()
	if n < LoginMaxFailures {
		return Fail(CodeLoginCredential, "login.credential")
	}
	if _, err := s.Counters.Incr(c.Ctx, "acct:login:lock:"+account, 1, LoginLockTime); err != nil {
		return err
	}
	if err := s.Counters.Delete(c.Ctx, "acct:login:fail:"+account); err != nil {
		return err
	}
	s.Log.Warn("account locked after failed sign-ins", "account", account, "ip", c.ClientIP())
	return Fail(CodeLoginLocked, "login.locked")
}

// dummyHash is a real hash of nothing anyone types, checked against when
// there is no account, so unknown accounts cost the same time.
var dummyHash = sync.OnceValue(func() string {
	h, _ := auth.HashPassword(auth.NewSecret())
	return h
})

type jwtLoginRequest struct {
	Token       string `json:"token"`
	PackageID   any    `json:"packageId"` // the client's app package, number or string; not used
	OperationID string `json:"operationID"`
	Platform    int    `json:"platform"`
}

type jwtLoginReply struct {
	Token  string `json:"token"`
	JWT    string `json:"jwt"`
	UserID string `json:"userId"`
}

// jwtLogin trades the jwt for a fresh access token. The chat token stays
// the same (an open socket keeps working), so it is not in the answer.
func (s *Server) jwtLogin(c *Call) (any, error) {
	var req jwtLoginRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.Token == "" {
		return nil, Required("token")
	}
	token, sess, err := s.Sessions.Renew(c.Ctx, req.Token)
	switch {
	case errors.Is(err, auth.ErrJWTInvalid) && sess.State == storage.SessionReplaced:
		return nil, Fail(CodeLoggedElsewhere, "logged.elsewhere")
	case errors.Is(err, auth.ErrJWTInvalid):
		return nil, Fail(CodeLoginInvalid, "login.invalid")
	case err != nil:
		return nil, err
	}
	s.Log.Debug("token renewed", "userId", sess.UserID, "session", sess.ID, "operationID", req.OperationID)
	return jwtLoginReply{Token: token, JWT: req.Token, UserID: storage.User{ID: sess.UserID}.IDString()}, nil
}

type logoutRequest struct {
	ChatToken   string `json:"chatToken"`
	OperationID string `json:"operationID"`
	Platform    int    `json:"platform"`
}

// logout revokes the caller's session (token, jwt and chat token). A chat
// token of another live session of the same user is revoked too; one of
// someone else's is ignored.
func (s *Server) logout(c *Call) (any, error) {
	var req logoutRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if err := s.Sessions.SignOut(c.Ctx, c.Session); err != nil {
		return nil, err
	}
	if req.ChatToken != "" {
		if sess, err := s.Sessions.ChatSession(c.Ctx, req.ChatToken); err == nil && sess.UserID == c.User.ID && sess.ID != c.Session.ID {
			if err := s.Sessions.SignOut(c.Ctx, sess); err != nil {
				return nil, err
			}
		}
	}
	s.Log.Info("signed out", "userId", c.User.ID, "operationID", req.OperationID)
	return nil, nil
}

type forgetRequest struct {
	Account         string `json:"account"`
	Phone           string `json:"phone"`
	SMSCode         string `json:"smsCode"`
	Password        string `json:"password"`
	ConfirmPassword string `json:"confirmPassword"`
}

// forget resets a password with an SMS code sent to the account's bound
// phone (/sendSmsCode type "forget"). Every session of the account ends and
// its lockout is lifted.
func (s *Server) forget(c *Call) (any, error) {
	var req forgetRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if err := ValidateAccount(req.Account); err != nil {
		return nil, err
	}
	if err := s.validatePhone(req.Phone); err != nil {
		return nil, err
	}
	if err := validateSMSCode(req.SMSCode); err != nil {
		return nil, err
	}
	if err := validateNewPassword(req.Password, req.ConfirmPassword, true); err != nil {
		return nil, err
	}
	if err := s.countAttempt(c.Ctx, "forget:ip:"+c.ClientIP(), forgetPerIPPerHour, time.Hour); err != nil {
		return nil, err
	}
	u, err := storage.UserByAccount(c.Ctx, s.DB, req.Account)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, Fail(CodeAccountUnknown, "account.unknown")
	}
	if err != nil {
		return nil, err
	}
	if u.Phone == "" || u.Phone != req.Phone {
		return nil, Fail(CodePhoneMismatch, "phone.mismatch")
	}
	hash, err := auth.HashPassword(req.Password)
	if err != nil {
		return nil, err
	}
	var ended []int64
	err = s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		if err := s.takeSMSCode(c.Ctx, tx, req.Phone, smsForget, req.SMSCode); err != nil {
			return err
		}
		if err := storage.UpdateUserFields(c.Ctx, tx, u.ID, s.Clock.Now().UnixMilli(), map[string]any{"password_hash": hash}); err != nil {
			return err
		}
		ended, err = storage.EndUserSessions(c.Ctx, tx, u.ID, 0, storage.SessionSignedOut)
		return err
	})
	if err != nil {
		return nil, s.smsCodeFailed(c.Ctx, req.Phone, smsForget, err)
	}
	s.Sessions.Announce(c.Ctx, u.ID, auth.ReasonSignedOut, ended...)
	for _, k := range []string{"acct:login:fail:", "acct:login:lock:"} {
		if err := s.Counters.Delete(c.Ctx, k+u.Account); err != nil {
			s.Log.Warn("forget: clearing the lockout failed", "err", err)
		}
	}
	s.Log.Info("password reset by SMS", "userId", u.ID, "sessionsEnded", len(ended))
	return nil, nil
}

func init() {
	AddMessages(accountMessages)
}
