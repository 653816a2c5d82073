package httpapi

// The fund password: exactly 6 digits, argon2id-hashed into
// users.fund_password_hash, asked for before money leaves (exchange) and
// before a bank card is bound. Five wrong tries within 10 minutes lock it
// for 10 minutes (internal/counter, so every node of a cluster sees the same
// count when Redis is configured).

import (
	"context"
	"errors"
	"strconv"
	"time"

	"kj/auth"
	"kj/internal/apierr"
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

// validFundPassword: exactly 6 ASCII digits, as the web app's keypad enters it.
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
		return apierr.Required("fundPassword")
	}
	if u.FundPasswordHash == "" {
		return apierr.Fail(apierr.CodeFundPasswordNotSet, "fundpw.not.set")
	}
	if err := s.fundPasswordLocked(ctx, u.ID); err != nil {
		return err
	}
	// The try is counted before the password is checked (increment, then
	// compare), so a burst of parallel tries cannot all pass the limit
	// before any of them is counted.
	fails, err := s.Counters.Incr(ctx, fundFailKey(u.ID), 1, fundPasswordLockout)
	if err != nil {
		return err
	}
	if fails > fundPasswordMaxFailures {
		// The window's tries are taken by tries still in flight; their
		// outcome decides whether the fund password locks.
		return apierr.Fail(apierr.CodeRateLimited, "rate.limited")
	}
	// A wrong shape is a wrong password too, without paying for a hash.
	if validFundPassword(password) && auth.CheckPassword(u.FundPasswordHash, password) {
		return s.Counters.Delete(ctx, fundFailKey(u.ID))
	}
	if fails == fundPasswordMaxFailures {
		return s.lockFundPassword(ctx, u.ID)
	}
	return apierr.Fail(apierr.CodeFundPasswordWrong, "fundpw.wrong", "left", fundPasswordMaxFailures-fails)
}

// lockFundPassword starts the lock and answers it. The failure count is left to expire with the lock, so tries that read
// "not locked" just before cannot start a fresh count.
func (s *Server) lockFundPassword(ctx context.Context, userID int64) error {
	n, err := s.Counters.Incr(ctx, fundLockKey(userID), 1, fundPasswordLockout)
	if err != nil {
		return err
	}
	if n == 1 {
		s.Log.Warn("fund password locked after wrong tries", "userId", userID)
	}
	return s.fundPasswordLocked(ctx, userID)
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
	return apierr.Fail(apierr.CodeFundPasswordLocked, "fundpw.locked", "minutes", minutes)
}

func (s *Server) setFundPassword(c *Call) (any, error) {
	var req struct {
		Password string `json:"password"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.Password == "" {
		return nil, apierr.Required("password")
	}
	if !validFundPassword(req.Password) {
		return nil, apierr.Fail(apierr.CodeFundPasswordFormat, "fundpw.format")
	}
	if c.User.FundPasswordHash != "" {
		return nil, apierr.Fail(apierr.CodeFundPasswordSet, "fundpw.already.set")
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
		return nil, apierr.Fail(apierr.CodeFundPasswordSet, "fundpw.already.set")
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
		return nil, apierr.Required("oldPassword")
	}
	if req.Password == "" {
		return nil, apierr.Required("password")
	}
	if !validFundPassword(req.Password) {
		return nil, apierr.Fail(apierr.CodeFundPasswordFormat, "fundpw.format")
	}
	err := s.verifyFundPassword(c.Ctx, c.User, req.OldPassword)
	var e *apierr.Error
	if errors.As(err, &e) && e.Code == apierr.CodeRequired {
		return nil, apierr.Required("oldPassword")
	}
	if err != nil {
		return nil, err
	}
	if req.OldPassword == req.Password {
		return nil, apierr.Fail(apierr.CodeFundPasswordUnchanged, "fundpw.unchanged")
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
		return nil, apierr.Fail(apierr.CodeFundPasswordWrong, "fundpw.wrong", "left", fundPasswordMaxFailures)
	}
	return map[string]any{"hasFundPassword": true}, nil
}
