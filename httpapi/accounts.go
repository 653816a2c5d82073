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
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"kj/auth"
	"kj/internal/apierr"
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

// The account rules the web app also checks before sending (its forms show
// the same limits, read from /getVerify5Data).
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
		return apierr.Required("account")
	}
	if len(account) < AccountMinLen || len(account) > AccountMaxLen {
		return apierr.Fail(apierr.CodeAccountInvalid, "account.invalid")
	}
	for i := 0; i < len(account); i++ {
		c := account[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return apierr.Fail(apierr.CodeAccountInvalid, "account.invalid")
		}
	}
	return nil
}

// ValidatePassword checks a login password: 6-20 printable ASCII
// characters with at least one letter and one digit. Length is checked
// first, then digits, then letters, so each case has its own message.
func ValidatePassword(field, password string) error {
	if password == "" {
		return apierr.Required(field)
	}
	n := utf8.RuneCountInString(password)
	if n < PasswordMinLen || n > PasswordMaxLen {
		return apierr.Fail(apierr.CodePasswordLength, "password.length")
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
			return apierr.Fail(apierr.CodePasswordChars, "password.chars")
		}
	}
	if !digit {
		return apierr.Fail(apierr.CodePasswordNoDigit, "password.no.digit")
	}
	if !letter {
		return apierr.Fail(apierr.CodePasswordNoLetter, "password.no.letter")
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
		return apierr.Required("confirmPassword")
	}
	if confirm != "" && confirm != password {
		return apierr.Fail(apierr.CodePasswordMismatch, "password.mismatch")
	}
	return nil
}

// createAccount stores u, with its own new invite code, in one transaction
// with what before and after do there (either may be nil): refused with
// exists when the account is taken. A clash on the generated invite code
// (never seen in practice) is retried with a new code; a clash on the
// account is the caller's.
func createAccount(ctx context.Context, db storage.DB, u *storage.User, exists error, before, after func(tx storage.Tx) error) error {
	for attempt := 0; ; attempt++ {
		u.InviteCode = NewInviteCode()
		err := db.Tx(ctx, func(tx storage.Tx) error {
			if before != nil {
				if err := before(tx); err != nil {
					return err
				}
			}
			if _, err := storage.UserByAccount(ctx, tx, u.Account); err == nil {
				return exists
			} else if !errors.Is(err, storage.ErrNotFound) {
				return err
			}
			if err := storage.CreateUser(ctx, tx, *u); err != nil || after == nil {
				return err
			}
			return after(tx)
		})
		if errors.Is(err, storage.ErrConflict) {
			if strings.Contains(err.Error(), "invite_code") && attempt < 3 {
				continue
			}
			return exists
		}
		return err
	}
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
func (c *Call) ClientIP() string { return c.s.clientIP(c.R) }

func (s *Server) clientIP(r *http.Request) string {
	if s.Config.TrustProxy {
		if xff := r.Header.Get("X-Forwarded-For"); xff != "" {
			parts := strings.Split(xff, ",")
			if ip := strings.TrimSpace(parts[len(parts)-1]); ip != "" {
				return ip
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
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
		return apierr.Fail(apierr.CodeRateLimited, "rate.limited")
	}
	return nil
}

// checkPlatform validates the chat platform id of a sign-in (OpenIM's
// 1 iOS ... 5 web ... 10 admin).
func checkPlatform(p int) error {
	if p == 0 {
		return apierr.Required("platform")
	}
	if p < 1 || p > 10 {
		return apierr.Invalid("platform")
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
		return nil, apierr.Required("inviteCode")
	}
	if req.InviteCode != "" && (!strings.HasPrefix(req.InviteCode, "pro_") || len(req.InviteCode) > 64) {
		return nil, apierr.Fail(apierr.CodeInviteInvalid, "invite.invalid")
	}
	// The registration is counted for the address before it is made
	// (increment, then compare), so parallel requests cannot all pass; a
	// registration that is refused or fails gives its place back.
	ipKey := "acct:register:ip:" + c.ClientIP()
	n, err := s.Counters.Incr(c.Ctx, ipKey, 1, time.Hour)
	if err != nil {
		return nil, err
	}
	registered := false
	defer func() {
		if !registered {
			if _, err := s.Counters.Incr(context.WithoutCancel(c.Ctx), ipKey, -1, time.Hour); err != nil {
				s.Log.Warn("register: giving back the address's place failed", "err", err)
			}
		}
	}()
	if n > registerPerIPPerHour {
		return nil, apierr.Fail(apierr.CodeRateLimited, "rate.limited")
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
	// The owner of the invite code, when one is given, is the superior.
	superior := func(tx storage.Tx) error {
		if req.InviteCode == "" {
			return nil
		}
		sup, err := storage.UserByInviteCode(c.Ctx, tx, req.InviteCode)
		if errors.Is(err, storage.ErrNotFound) {
			return apierr.Fail(apierr.CodeInviteUnknown, "invite.unknown")
		}
		if err != nil {
			return err
		}
		u.SuperiorID = sup.ID
		return nil
	}
	if err := createAccount(c.Ctx, s.DB, &u, apierr.Fail(apierr.CodeAccountExists, "account.exists"), superior, nil); err != nil {
		return nil, err
	}
	registered = true
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
		return nil, apierr.Required("account")
	}
	if req.Password == "" {
		return nil, apierr.Required("password")
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
		return nil, apierr.Fail(apierr.CodeLoginCredential, "login.credential")
	}
	tries, err := s.reserveLoginAttempt(c.Ctx, req.Account)
	if err != nil {
		return nil, err
	}
	u, err := storage.UserByAccount(c.Ctx, s.DB, req.Account)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		// Same work as a real check, so timing does not tell which
		// accounts exist.
		auth.CheckPassword(dummyHash(), req.Password)
		return nil, s.loginFailed(c, req.Account, tries)
	case err != nil:
		// The store did not answer: this try was not a failure.
		_, _ = s.Counters.Incr(context.WithoutCancel(c.Ctx), "acct:login:fail:"+req.Account, -1, LoginFailureWindow)
		return nil, err
	case !auth.CheckPassword(u.PasswordHash, req.Password):
		return nil, s.loginFailed(c, req.Account, tries)
	}

	var previous storage.AuthSession
	if switching {
		if _, sess, err := s.Sessions.Authenticate(c.Ctx, Token(c.R)); err == nil {
			previous = sess
		}
	}
	var tok auth.Tokens
	var ended auth.Ended
	err = s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		var err error
		if previous.ID != 0 {
			if err := storage.EndSession(c.Ctx, tx, previous.ID, storage.SessionSignedOut); err != nil {
				return err
			}
		}
		if err := frozenSignIn(c.Ctx, tx, u.ID); err != nil {
			return err
		}
		tok, ended, err = s.Sessions.SignInDevice(c.Ctx, tx, u.ID, req.Platform, deviceLabel(c.R.UserAgent()))
		if err != nil {
			return err
		}
		return storage.RecordLogin(c.Ctx, tx, u.ID, s.Clock.Now().UnixMilli(), ip)
	})
	if err != nil {
		return nil, err
	}
	s.Sessions.AnnounceEnded(c.Ctx, u.ID, ended)
	if previous.ID != 0 {
		s.Sessions.Announce(c.Ctx, previous.UserID, auth.ReasonSignedOut, previous.ID)
	}
	if err := s.Counters.Delete(c.Ctx, "acct:login:fail:"+req.Account); err != nil {
		s.Log.Warn("login: clearing failures failed", "err", err)
	}
	signIns.WithLabelValues("ok").Inc()
	s.Log.Info("signed in", "userId", u.ID, "platform", req.Platform, "replaced", len(ended.Replaced), "overDeviceLimit", len(ended.OverLimit),
		"switch", switching, "operationID", req.OperationID)
	return tok, nil
}

// reserveLoginAttempt counts this attempt before the password is checked
// (increment, then compare), so a burst of parallel tries cannot all pass
// the limit before any of them is counted. It answers the attempt's number
// within the failure window, the lockout error when the account is locked,
// or "too many requests" when the window's tries are taken by attempts
// still in flight (their outcome decides whether the account locks).
func (s *Server) reserveLoginAttempt(ctx context.Context, account string) (int64, error) {
	locked := apierr.Fail(apierr.CodeLoginLocked, "login.locked")
	if n, _, err := s.Counters.Get(ctx, "acct:login:lock:"+account); err != nil {
		return 0, err
	} else if n > 0 {
		signIns.WithLabelValues("locked").Inc()
		return 0, locked
	}
	n, err := s.Counters.Incr(ctx, "acct:login:fail:"+account, 1, LoginFailureWindow)
	if err != nil {
		return 0, err
	}
	if n > LoginMaxFailures {
		signIns.WithLabelValues("locked").Inc()
		return 0, apierr.Fail(apierr.CodeRateLimited, "rate.limited")
	}
	return n, nil
}

// loginFailed answers a wrong password whose attempt was reserved as the
// tries-th of the window; the LoginMaxFailures-th locks the account and is
// answered with the lockout message.
func (s *Server) loginFailed(c *Call, account string, tries int64) error {
	signIns.WithLabelValues("wrong").Inc()
	if tries < LoginMaxFailures {
		return apierr.Fail(apierr.CodeLoginCredential, "login.credential")
	}
	// The failure count is left to expire: deleting it would let tries
	// that read "not locked" just before the lock was set start a fresh
	// count.
	if _, err := s.Counters.Incr(c.Ctx, "acct:login:lock:"+account, 1, LoginLockTime); err != nil {
		return err
	}
	s.Log.Warn("account locked after failed sign-ins", "account", account, "ip", c.ClientIP())
	return apierr.Fail(apierr.CodeLoginLocked, "login.locked")
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
		return nil, apierr.Required("token")
	}
	token, sess, err := s.Sessions.Renew(c.Ctx, req.Token)
	switch {
	case errors.Is(err, auth.ErrJWTInvalid) && sess.State == storage.SessionReplaced:
		return nil, apierr.Fail(apierr.CodeLoggedElsewhere, "logged.elsewhere")
	case errors.Is(err, auth.ErrJWTInvalid) && sess.State == storage.SessionDeviceLimit:
		return nil, apierr.Fail(apierr.CodeLoggedElsewhere, "logged.out.device.limit")
	case errors.Is(err, auth.ErrJWTInvalid):
		return nil, apierr.Fail(apierr.CodeLoginInvalid, "login.invalid")
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
	// Every try on the phone is counted before anything is compared
	// (increment, then compare), so parallel guesses get smsMaxWrongTries
	// of them compared, not all.
	tries, err := s.Counters.Incr(c.Ctx, smsFailKey(req.Phone, smsForget), 1, s.Config.SMSCodeTTL)
	if err != nil {
		return nil, err
	}
	// An unknown account, another phone, one bound without an SMS code and
	// a wrong code get the same answer after the same work: both look-ups
	// and the code's check run whatever the first found, and the new
	// password is hashed (tens of milliseconds) only once all of them
	// passed. Otherwise the time of the answer would tell which phone is
	// which account's.
	u, bound, err := s.accountWithPhone(c, req.Account, req.Phone)
	if err != nil {
		return nil, err
	}
	codeHash := smsHash(req.Phone, smsForget, req.SMSCode)
	right, err := storage.SMSCodeMatches(c.Ctx, s.DB, req.Phone, smsForget, codeHash, s.Clock.Now().UnixMilli())
	if err != nil {
		return nil, err
	}
	if !bound || !right || tries > smsMaxWrongTries {
		if tries >= smsMaxWrongTries { // the last allowed try failed: the code is burnt
			if err := storage.DeleteSMSCode(c.Ctx, s.DB, req.Phone, smsForget); err != nil {
				s.Log.Warn("sms: burning a code failed", "err", err)
			}
		}
		return nil, apierr.Fail(apierr.CodeSMSCodeInvalid, "sms.code.invalid")
	}
	hash, err := auth.HashPassword(req.Password)
	if err != nil {
		return nil, err
	}
	var ended []int64
	err = s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		// Taken in the reset's transaction, so it is spent only if the
		// reset commits; a parallel reset that took it first wins.
		err := storage.TakeSMSCode(c.Ctx, tx, req.Phone, smsForget, codeHash, s.Clock.Now().UnixMilli())
		if errors.Is(err, storage.ErrNotFound) {
			return apierr.Fail(apierr.CodeSMSCodeInvalid, "sms.code.invalid")
		}
		if err != nil {
			return err
		}
		if err := storage.UpdateUserFields(c.Ctx, tx, u.ID, s.Clock.Now().UnixMilli(), map[string]any{"password_hash": hash}); err != nil {
			return err
		}
		ended, err = storage.EndUserSessions(c.Ctx, tx, u.ID, 0, storage.SessionSignedOut)
		return err
	})
	if err != nil {
		return nil, err
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

// accountWithPhone loads the account a password reset is for and says
// whether phone is its bound phone, verified by an SMS code (an account
// without a phone matches no phone). It makes the same two look-ups
// whatever the first finds (for an unknown account, the second asks for id
// 0, which nobody has), so its time does not tell the cases apart.
func (s *Server) accountWithPhone(c *Call, account, phone string) (storage.User, bool, error) {
	u, err := storage.UserByAccount(c.Ctx, s.DB, account)
	found := err == nil
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return storage.User{}, false, err
	}
	if !found {
		u = storage.User{}
	}
	verified, err := storage.PhoneVerified(c.Ctx, s.DB, u.ID)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return storage.User{}, false, err
	}
	return u, found && verified && u.Phone != "" && u.Phone == phone, nil
}
