package httpapi

// The fund password: exactly 6 digits, argon2id-hashed into
// users.fund_password_hash, asked for before money leaves (exchange) and
// before a bank card is bound. Five wrong tries within 10 minutes lock it
// for 10 minutes (engine/counter, so every node of a cluster sees the same
// count when Redis is configured).

import (
	"context"
	"errors"
	"strconv"
	"time"

	"kj/auth"
	"kj/storage"
)

const (
	fundPasswordMaxFailures = 5
	fundPasswordLockout     = 10 * time.Minute
)

func init() {
	registerArea(func(s *Server) {
		s.Post("/user/setWalletPwd", User, s.setFundPassword)
		s.Post("/user/changeWalletPwd", User, s.changeFundPassword)
	})
}

// validFundPassword: exactly 6 ASCII digits (spec section 5).
func validFundPassword(p string) bool {
	if len(p) != 6 {
		return false
	}
	for i := 0; i < len(p); i++ {
		if p[i] < '0' || p[i] > '9' {
			return false
		}
	}
	return true
}

func fundFailKey(userID int64) string { return "fundpw:fail:" + strconv.FormatInt(userID, 10) }
func fundLockKey(userID int64) string { return "fundpw:lock:" + strconv.FormatInt(userID, 10) }

// verifyFundPassword checks password against u's fund password, with the
// lockout. Every route that needs the fund password goes through here.
func (s *Server) verifyFundPassword(ctx context.Context, u storage.User, password string) error {
	if password == "" {
		return Required("fundPassword")
	}
	if u.FundPasswordHash == "" {
		return Fail(CodeFundPasswordNotSet, "fundpw.not.set")
	}
	if err := s.fundPasswordLocked(ctx, u.ID); err != nil {
		return err
	}
	// A wrong shape is a wrong password too, without paying for a hash.
	if validFundPassword(password) && auth.CheckPassword(u.FundPasswordHash, password) {
		return s.Counters.Delete(ctx, fundFailKey(u.ID))
	}
	fails, err := s.Counters.Incr(ctx, fundFailKey(u.ID), 1, fundPasswordLockout)
	if err != nil {
		return err
	}
	if fails >= fundPasswordMaxFailures {
		if _, err := s.Counters.Incr(ctx, fundLockKey(u.ID), 1, fundPasswordLockout); err != nil {
			return err
		}
		if err := s.Counters.Delete(ctx, fundFailKey(u.ID)); err != nil {
			return err
		}
		return s.fundPasswordLocked(ctx, u.ID)
	}
	return Fail(CodeFundPasswordWrong, "fundpw.wrong", "left", fundPasswordMaxFailures-fails)
}

// fundPasswordLocked returns the lockout error while the lock lasts.
func (s *Server) fundPasswordLocked(ctx context.Context, userID int64) error {
	n, left, err := s.Counters.Get(ctx, fundLockKey(userID))
	if err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	minutes := int((left + time.Minute - 1) / time.Minute)
	return Fail(CodeFundPasswordLocked, "fundpw.locked", "minutes", minutes)
}

func (s *Server) setFundPassword(c *Call) (any, error) {
	var req struct {
		Password string `json:"password"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.Password == "" {
		return nil, Required("password")
	}
	if !validFundPassword(req.Password) {
		return nil, Fail(CodeFundPasswordFormat, "fundpw.format")
	}
	if c.User.FundPasswordHash != "" {
		return nil, Fail(CodeFundPasswordSet, "fundpw.already.set")
	}
	hash, err := auth.HashPassword(req.Password)
	if err != nil {
		return nil, err
	}
	ok, err := storage.SetFundPasswordHash(c.Ctx, s.DB, c.User.ID, "", hash, s.Clock.Now().UnixMilli())
	if err != nil {
		return nil, err
	}
	if !ok { // set by a concurrent request
		return nil, Fail(CodeFundPasswordSet, "fundpw.already.set")
	}
	return map[string]any{"hasFundPassword": true}, nil
}

func (s *Server) changeFundPassword(c *Call) (any, error) {
	var req struct {
		OldPassword string `json:"oldPassword"`
		Password    string `json:"password"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.OldPassword == "" {
		return nil, Required("oldPassword")
	}
	if req.Password == "" {
		return nil, Required("password")
	}
	if !validFundPassword(req.Password) {
		return nil, Fail(CodeFundPasswordFormat, "fundpw.format")
	}
	err := s.verifyFundPassword(c.Ctx, c.User, req.OldPassword)
	var e *Error
	if errors.As(err, &e) && e.Code == CodeRequired {
		return nil, Required("oldPassword")
	}
	if err != nil {
		return nil, err
	}
	if req.OldPassword == req.Password {
		return nil, Fail(CodeFundPasswordUnchanged, "fundpw.unchanged")
	}
	hash, err := auth.HashPassword(req.Password)
	if err != nil {
		return nil, err
	}
	ok, err := storage.SetFundPasswordHash(c.Ctx, s.DB, c.User.ID, c.User.FundPasswordHash, hash, s.Clock.Now().UnixMilli())
	if err != nil {
		return nil, err
	}
	if !ok { // changed by a concurrent request: this one's old password is stale
		return nil, Fail(CodeFundPasswordWrong, "fundpw.wrong", "left", fundPasswordMaxFailures)
	}
	return map[string]any{"hasFundPassword": true}, nil
}
