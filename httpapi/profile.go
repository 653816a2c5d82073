package httpapi

// The signed-in user's profile and settings: who am I (/user/mine,
// /user/index), nickname, login password, phone, superior and invite link.
// Avatars are in avatar.go.

import (
	"errors"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"kj/auth"
	"kj/internal/apierr"
	"kj/internal/names"
	"kj/storage"
)

func init() {
	registerArea(func(s *Server) {
		s.Post("/user/mine", Identified, s.userMine)
		s.Post("/user/index", Identified, s.userIndex)
		s.Post("/user/editNick", User, s.editNick)
		s.Post("/user/changePwd", User, s.changePwd)
		s.Post("/user/setPhone", User, s.setPhone)
		s.Post("/user/bindProUser", User, s.bindProUser)
		s.Post("/user/getUserProUrl", User, s.getUserProUrl)
	})
}

// UserInfo is the user state as the web app stores it (userInfo in local
// storage).
type UserInfo struct {
	UserID          string `json:"userId"`
	Username        string `json:"username"` // the account
	NickName        string `json:"nickName"`
	Avatar          string `json:"avatar"`
	Phone           string `json:"phone"`        // masked: 138****5678
	Notice          int64  `json:"notice"`       // unread notices
	IsActivation    int    `json:"isActivation"` // 0 not activated, 1 activated
	CustomerID      string `json:"customerId"`   // the operator who serves this user in chat
	IsRecharge      bool   `json:"isRecharge"`   // a recharge was credited
	InviteCode      string `json:"inviteCode"`
	HasFundPassword bool   `json:"hasFundPassword"`
	IsOperator      int    `json:"isOperator"`
}

// userInfo answers the caller's row with the facts from the node's copy
// (reads.go), read in one statement when the node has none, so it is exact
// even when the route knows the caller from the token cache; the row read
// becomes c.User.
func (s *Server) userInfo(c *Call) (UserInfo, error) {
	facts, err := s.reads.Profile(c.Ctx, c.User.ID)
	if errors.Is(err, storage.ErrNotFound) {
		return UserInfo{}, apierr.Fail(apierr.CodeTokenExpired, "token.expired")
	}
	if err != nil {
		return UserInfo{}, err
	}
	u := facts.User
	c.User = u
	info := UserInfo{
		UserID: u.IDString(), Username: u.Account, NickName: u.Nickname, Avatar: u.Avatar,
		Phone: MaskPhone(u.Phone), IsActivation: u.IsActivation, InviteCode: u.InviteCode,
		HasFundPassword: u.FundPasswordHash != "", IsOperator: u.IsOperator,
	}
	info.Notice = int64(facts.UnreadNotices)
	info.IsRecharge = facts.Recharged
	// Operators are the customer service (customer.go): the agent already
	// answering this user's customer-service chat, else one picked by user
	// id so the choice is stable and spread out.
	switch {
	case facts.AgentID != 0:
		info.CustomerID = storage.User{ID: facts.AgentID}.IDString()
	case facts.OperatorID != 0:
		info.CustomerID = storage.User{ID: facts.OperatorID}.IDString()
	}
	return info, nil
}

// MaskPhone hides the middle of a phone number: the first 3 and last 4
// digits stay (138****5678); shorter numbers keep 2 and 2.
func MaskPhone(p string) string {
	switch {
	case p == "":
		return ""
	case len(p) >= 9:
		return p[:3] + strings.Repeat("*", len(p)-7) + p[len(p)-4:]
	case len(p) >= 5:
		return p[:2] + strings.Repeat("*", len(p)-4) + p[len(p)-2:]
	}
	return strings.Repeat("*", len(p))
}

func (s *Server) userMine(c *Call) (any, error) { return s.userInfo(c) }

type userIndexReply struct {
	UserInfo
	CreatedAt     int64 `json:"createdAt"` // unix ms
	SuperiorBound bool  `json:"superiorBound"`
}

// userIndex is /user/mine plus what the mine page header shows: when the
// account was made and whether a superior is bound (the bind form hides
// once it is).
func (s *Server) userIndex(c *Call) (any, error) {
	info, err := s.userInfo(c)
	if err != nil {
		return nil, err
	}
	return userIndexReply{UserInfo: info, CreatedAt: c.User.CreatedAt, SuperiorBound: c.User.SuperiorID != 0}, nil
}

// ValidateNickname trims a nickname and checks it: 1-10 characters
// (runes), no control characters, nothing hidden or reordering (bidi
// overrides, zero-width characters: internal/names).
func ValidateNickname(nick string) (string, error) {
	nick = strings.TrimSpace(nick)
	if nick == "" {
		return "", apierr.Required("nickName")
	}
	if !utf8.ValidString(nick) || utf8.RuneCountInString(nick) > NicknameMaxLen {
		return "", apierr.Fail(apierr.CodeNickInvalid, "nick.invalid")
	}
	for _, r := range nick {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return "", apierr.Fail(apierr.CodeNickInvalid, "nick.invalid")
		}
	}
	if names.Hidden(nick) {
		return "", apierr.Fail(apierr.CodeNickInvalid, "nick.invalid")
	}
	return nick, nil
}

type editNickRequest struct {
	NickName string `json:"nickName"`
}

func (s *Server) editNick(c *Call) (any, error) {
	var req editNickRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	nick, err := ValidateNickname(req.NickName)
	if err != nil {
		return nil, err
	}
	if err := storage.UpdateUserFields(c.Ctx, s.DB, c.User.ID, s.Clock.Now().UnixMilli(), map[string]any{"nickname": nick}); err != nil {
		return nil, err
	}
	return map[string]string{"nickName": nick}, nil
}

type changePwdRequest struct {
	OldPassword     string `json:"oldPassword"`
	Password        string `json:"password"`
	ConfirmPassword string `json:"confirmPassword"`
}

// changePwd sets a new login password after checking the original one.
// Wrong originals count like failed sign-ins (5 in 10 minutes lock the
// form for 10 minutes), so a stolen token cannot guess the password. The
// user's other sessions end; this one stays.
func (s *Server) changePwd(c *Call) (any, error) {
	var req changePwdRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.OldPassword == "" {
		return nil, apierr.Required("oldPassword")
	}
	if err := validateNewPassword(req.Password, req.ConfirmPassword, true); err != nil {
		return nil, err
	}
	// The try is counted before the password is checked (increment, then
	// compare), so parallel guesses cannot all pass the limit.
	failKey := "acct:pwd:fail:" + c.User.IDString()
	n, err := s.Counters.Incr(c.Ctx, failKey, 1, LoginLockTime)
	if err != nil {
		return nil, err
	}
	if n > LoginMaxFailures {
		return nil, apierr.Fail(apierr.CodePasswordLocked, "password.locked")
	}
	if !auth.CheckPassword(c.User.PasswordHash, req.OldPassword) {
		if n >= LoginMaxFailures {
			return nil, apierr.Fail(apierr.CodePasswordLocked, "password.locked")
		}
		return nil, apierr.Fail(apierr.CodeOldPasswordWrong, "password.old.wrong")
	}
	hash, err := auth.HashPassword(req.Password)
	if err != nil {
		return nil, err
	}
	var ended []int64
	err = s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		if err := storage.UpdateUserFields(c.Ctx, tx, c.User.ID, s.Clock.Now().UnixMilli(), map[string]any{"password_hash": hash}); err != nil {
			return err
		}
		var err error
		ended, err = storage.EndUserSessions(c.Ctx, tx, c.User.ID, c.Session.ID, storage.SessionSignedOut)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.Sessions.Announce(c.Ctx, c.User.ID, auth.ReasonSignedOut, ended...)
	_ = s.Counters.Delete(c.Ctx, failKey)
	s.Log.Info("password changed", "userId", c.User.ID, "sessionsEnded", len(ended))
	return nil, nil
}

type setPhoneRequest struct {
	Phone   string `json:"phone"`
	SMSCode string `json:"smsCode"`
}

// setPhone binds a phone number; with KJ_PHONE_SMS_REQUIRED the code sent
// to that number (/sendSmsCode type setPhone) must come with it, and the
// phone is then verified: it can reset the password (/forget) and is this
// account's only. A phone bound without a code cannot reset a password.
func (s *Server) setPhone(c *Call) (any, error) {
	var req setPhoneRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if err := s.validatePhone(req.Phone); err != nil {
		return nil, err
	}
	if s.Config.PhoneSMSRequired {
		if err := validateSMSCode(req.SMSCode); err != nil {
			return nil, err
		}
	}
	err := s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		if s.Config.PhoneSMSRequired {
			if err := s.takeSMSCode(c.Ctx, tx, req.Phone, smsSetPhone, req.SMSCode); err != nil {
				return err
			}
		}
		err := storage.SetUserPhone(c.Ctx, tx, c.User.ID, req.Phone, s.Config.PhoneSMSRequired, s.Clock.Now().UnixMilli())
		if errors.Is(err, storage.ErrConflict) {
			return apierr.Fail(apierr.CodePhoneTaken, "phone.taken")
		}
		return err
	})
	if err != nil {
		return nil, s.smsCodeFailed(c.Ctx, req.Phone, smsSetPhone, err)
	}
	return map[string]string{"phone": MaskPhone(req.Phone)}, nil
}

type bindProUserRequest struct {
	InviteCode string `json:"inviteCode"`
}

// bindProUser binds a superior once, by invite code. The superior may not
// be the user or anyone below the user (that would make a loop).
func (s *Server) bindProUser(c *Call) (any, error) {
	var req bindProUserRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	code := strings.TrimSpace(req.InviteCode)
	if code == "" {
		return nil, apierr.Required("inviteCode")
	}
	if !strings.HasPrefix(code, "pro_") || len(code) > 64 {
		return nil, apierr.Fail(apierr.CodeInviteInvalid, "invite.invalid")
	}
	if c.User.SuperiorID != 0 {
		return nil, apierr.Fail(apierr.CodeSuperiorBound, "superior.bound")
	}
	var sup storage.User
	err := s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		var err error
		sup, err = storage.UserByInviteCode(c.Ctx, tx, code)
		if errors.Is(err, storage.ErrNotFound) {
			return apierr.Fail(apierr.CodeInviteUnknown, "invite.unknown")
		}
		if err != nil {
			return err
		}
		// Walk up from the new superior; meeting the user means a loop.
		for id, depth := sup.ID, 0; id != 0; depth++ {
			if id == c.User.ID || depth > maxSuperiorChainDepth {
				return apierr.Fail(apierr.CodeSuperiorInvalid, "superior.invalid")
			}
			up, err := storage.UserByID(c.Ctx, tx, id)
			if err != nil {
				return err
			}
			id = up.SuperiorID
		}
		err = storage.BindSuperior(c.Ctx, tx, c.User.ID, sup.ID, s.Clock.Now().UnixMilli())
		if errors.Is(err, storage.ErrConflict) {
			return apierr.Fail(apierr.CodeSuperiorBound, "superior.bound")
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	s.Log.Info("superior bound", "userId", c.User.ID, "superiorId", sup.ID)
	return map[string]string{"superiorId": sup.IDString(), "superiorNickName": sup.Nickname}, nil
}

type userProURLReply struct {
	InviteCode string `json:"inviteCode"`
	URL        string `json:"url"`
}

// getUserProUrl is the user's invite link: the web app's sign-in page
// with ?inviteCode=, which the app saves as the superior on launch.
func (s *Server) getUserProUrl(c *Call) (any, error) {
	return userProURLReply{InviteCode: c.User.InviteCode, URL: s.publicBase(c) + "/pages/auth/login?inviteCode=" + url.QueryEscape(c.User.InviteCode)}, nil
}

// publicBase is KJ_PUBLIC_URL, else the scheme and host the request came
// to (the forwarded scheme behind a trusted proxy).
func (s *Server) publicBase(c *Call) string {
	if s.Config.PublicURL != "" {
		return s.Config.PublicURL
	}
	scheme := "http"
	if c.R.TLS != nil {
		scheme = "https"
	}
	if p := c.R.Header.Get("X-Forwarded-Proto"); s.Config.TrustProxy && (p == "https" || p == "http") {
		scheme = p
	}
	return scheme + "://" + c.R.Host
}
