package wallet

// The fund password: exactly 6 digits, argon2id-hashed into
// users.fund_password_hash, asked for before money leaves (exchange) and
// before a bank card is bound. Five wrong tries within 10 minutes lock it
// for 10 minutes (internal/counter, so every node of a cluster sees the
// same count when Redis is configured).

import (
	"context"
	"strconv"
	"time"

	"kj/auth"
	"kj/internal/apierr"
	"kj/storage"
)

// The lockout: this many wrong tries within FundPasswordLockout lock the
// fund password for FundPasswordLockout.
const (
	FundPasswordMaxFailures = 5
	FundPasswordLockout     = 10 * time.Minute
)

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

// VerifyFundPassword checks password against u's fund password, with the
// lockout. Everything that needs the fund password goes through here.
func (w *Wallet) VerifyFundPassword(ctx context.Context, u storage.User, password string) error {
	if password == "" {
		return apierr.Required("fundPassword")
	}
	if u.FundPasswordHash == "" {
		return apierr.Fail(apierr.CodeFundPasswordNotSet, "fundpw.not.set")
	}
	if err := w.fundPasswordLocked(ctx, u.ID); err != nil {
		return err
	}
	// The try is counted before the password is checked (increment, then
	// compare), so a burst of parallel tries cannot all pass the limit
	// before any of them is counted.
	fails, err := w.Counters.Incr(ctx, fundFailKey(u.ID), 1, FundPasswordLockout)
	if err != nil {
		return err
	}
	if fails > FundPasswordMaxFailures {
		// The window's tries are taken by tries still in flight; their
		// outcome decides whether the fund password locks.
		return apierr.Fail(apierr.CodeRateLimited, "rate.limited")
	}
	// A wrong shape is a wrong password too, without paying for a hash.
	if validFundPassword(password) && auth.CheckPassword(u.FundPasswordHash, password) {
		return w.Counters.Delete(ctx, fundFailKey(u.ID))
	}
	if fails == FundPasswordMaxFailures {
		return w.lockFundPassword(ctx, u.ID)
	}
	return apierr.Fail(apierr.CodeFundPasswordWrong, "fundpw.wrong", "left", FundPasswordMaxFailures-fails)
}

// lockFundPassword starts the lock and answers it. The failure count is left to expire with the lock, so tries that read
// "not locked" just before cannot start a fresh count.
func (w *Wallet) lockFundPassword(ctx context.Context, userID int64) error {
	n, err := w.Counters.Incr(ctx, fundLockKey(userID), 1, FundPasswordLockout)
	if err != nil {
		return err
	}
	if n == 1 {
		w.log().Warn("fund password locked after wrong tries", "userId", userID)
	}
	return w.fundPasswordLocked(ctx, userID)
}

// fundPasswordLocked returns the lockout error while the lock lasts.
func (w *Wallet) fundPasswordLocked(ctx context.Context, userID int64) error {
	n, left, err := w.Counters.Get(ctx, fundLockKey(userID))
	if err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	minutes := int((left + time.Minute - 1) / time.Minute)
	return apierr.Fail(apierr.CodeFundPasswordLocked, "fundpw.locked", "minutes", minutes)
}

// newFundPassword checks a new fund password's presence and shape.
func newFundPassword(password string) error {
	if password == "" {
		return apierr.Required("password")
	}
	if !validFundPassword(password) {
		return apierr.Fail(apierr.CodeFundPasswordFormat, "fundpw.format")
	}
	return nil
}

// SetFundPassword sets u's first fund password.
func (w *Wallet) SetFundPassword(ctx context.Context, u storage.User, password string) error {
	if err := newFundPassword(password); err != nil {
		return err
	}
	if u.FundPasswordHash != "" {
		return apierr.Fail(apierr.CodeFundPasswordSet, "fundpw.already.set")
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return err
	}
	ok, err := storage.SetFundPasswordHash(ctx, w.DB, u.ID, "", hash, w.now())
	if err != nil {
		return err
	}
	if !ok { // set by a concurrent request
		return apierr.Fail(apierr.CodeFundPasswordSet, "fundpw.already.set")
	}
	return nil
}

// ChangeFundPassword replaces u's fund password, given the old one (which
// counts as a try of the lockout).
func (w *Wallet) ChangeFundPassword(ctx context.Context, u storage.User, old, password string) error {
	if old == "" {
		return apierr.Required("oldPassword")
	}
	if err := newFundPassword(password); err != nil {
		return err
	}
	if err := w.VerifyFundPassword(ctx, u, old); err != nil {
		return err
	}
	if old == password {
		return apierr.Fail(apierr.CodeFundPasswordUnchanged, "fundpw.unchanged")
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return err
	}
	ok, err := storage.SetFundPasswordHash(ctx, w.DB, u.ID, u.FundPasswordHash, hash, w.now())
	if err != nil {
		return err
	}
	if !ok { // changed by a concurrent request: this one's old password is stale
		return apierr.Fail(apierr.CodeFundPasswordWrong, "fundpw.wrong", "left", FundPasswordMaxFailures)
	}
	return nil
}
