// Package auth owns who a request or a socket belongs to: password hashing
// (argon2id), and sign-in sessions with their three secrets — the access
// token (short-lived, sent as the `token` header), the jwt (long-lived, used
// only to renew the token) and the chat token (opens the chat socket).
// Secrets are random 256-bit strings; the store keeps only their hashes, so
// revocation is a row update. Each node may keep recently validated access
// tokens (TokenCache); revocation reaches those caches through the bus.
package auth

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"kj/internal/bus"
	"kj/internal/clock"
	"kj/storage"
)

var (
	// ErrNoToken: the request carries no token.
	ErrNoToken = errors.New("auth: no token")
	// ErrExpired: the token is unknown, expired or signed out (the client
	// renews with its jwt).
	ErrExpired = errors.New("auth: token expired")
	// ErrReplaced: a newer sign-in on the same platform replaced this one.
	ErrReplaced = errors.New("auth: signed in elsewhere")
	// ErrJWTInvalid: the renewal token is unknown, expired or revoked.
	ErrJWTInvalid = errors.New("auth: jwt invalid")
	// ErrDeviceLimit: the user signed in on more devices than the devices
	// login policy allows and this, the oldest, was signed out.
	ErrDeviceLimit = errors.New("auth: signed out by the device limit")
)

// Tokens are the secrets handed to the client at sign-in.
type Tokens struct {
	Token     string `json:"token"`
	JWT       string `json:"jwt"`
	ChatToken string `json:"chatToken"`
	UserID    string `json:"userId"`
}

// Sessions issues, checks, renews and ends sign-in sessions.
type Sessions struct {
	DB       storage.DB
	Bus      bus.Bus
	Clock    clock.Clock
	TokenTTL time.Duration
	JWTTTL   time.Duration
	// Cache, when set, answers Authenticate for tokens validated recently
	// (see TokenCache); nil checks every token in the store.
	Cache *TokenCache
	// Policy is the login policy (KJ_LOGIN_POLICY): PolicyPlatform (the
	// default, also for "") or PolicyDevices.
	Policy string
	// MaxDevices caps the live sessions of one user under PolicyDevices
	// (KJ_LOGIN_MAX_DEVICES); not positive means 5.
	MaxDevices int
}

// Login policies (KJ_LOGIN_POLICY).
const (
	// PolicyPlatform keeps one session per platform: a newer sign-in on
	// the same platform replaces the older, which is kicked offline.
	PolicyPlatform = "platform"
	// PolicyDevices keeps several sessions per user, up to MaxDevices; a
	// sign-in beyond it signs the oldest out.
	PolicyDevices = "devices"
)

// DefaultMaxDevices is MaxDevices when none is set.
const DefaultMaxDevices = 5

// SessionEndedSubject carries SessionEnded events so every node's chat
// gateway can close the sockets of a session that was replaced or signed out.
const SessionEndedSubject = "kj.session.ended"

// SessionEnded says one session stopped being valid.
type SessionEnded struct {
	SessionID int64  `json:"sessionId"`
	UserID    int64  `json:"userId"`
	Reason    string `json:"reason"` // "replaced" (kick offline), "signedOut" or "deviceLimit"
}

// Reasons of SessionEnded.
const (
	ReasonReplaced    = "replaced"
	ReasonSignedOut   = "signedOut"
	ReasonDeviceLimit = "deviceLimit" // signed out by PolicyDevices' limit
)

// NewSecret returns a random URL-safe secret of 256 bits.
func NewSecret() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("auth: crypto/rand failed: %v", err))
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// SignIn starts a session for userID on platform inside tx, replacing the
// user's active session on the same platform. Call Announce with the
// replaced ids after tx commits.
func (s *Sessions) SignIn(ctx context.Context, tx storage.Tx, userID int64, platform int) (Tokens, []int64, error) {
	t := Tokens{Token: NewSecret(), JWT: NewSecret(), ChatToken: NewSecret(), UserID: fmt.Sprint(userID)}
	replaced, err := storage.CreateSession(ctx, tx, s.newSession(t, userID, platform))
	return t, replaced, err
}

// Ended lists the sessions a sign-in ended, by the reason to announce.
type Ended struct {
	Replaced  []int64 // another sign-in on the same platform (PolicyPlatform, and the console)
	OverLimit []int64 // the oldest beyond MaxDevices (PolicyDevices)
}

// SignInDevice starts a session for userID on platform inside tx under the
// login policy, labelled with device (shown in the device list). Call
// AnnounceEnded with what it ended after tx commits. The operators'
// console (storage.ConsolePlatform) keeps one session under either policy.
func (s *Sessions) SignInDevice(ctx context.Context, tx storage.Tx, userID int64, platform int, device string) (Tokens, Ended, error) {
	t := Tokens{Token: NewSecret(), JWT: NewSecret(), ChatToken: NewSecret(), UserID: fmt.Sprint(userID)}
	sess := s.newSession(t, userID, platform)
	var ended Ended
	var err error
	if s.Policy == PolicyDevices {
		ended.Replaced, ended.OverLimit, err = storage.CreateDeviceSession(ctx, tx, sess, s.MaxDevicesAllowed(), sess.CreatedAt, storage.ConsolePlatform)
	} else {
		ended.Replaced, err = storage.CreateSession(ctx, tx, sess)
	}
	if err == nil && device != "" {
		err = storage.SetSessionDevice(ctx, tx, sess.ID, device)
	}
	if err != nil {
		return Tokens{}, Ended{}, err
	}
	return t, ended, nil
}

// AnnounceEnded is Announce for what a sign-in ended, each with its reason.
func (s *Sessions) AnnounceEnded(ctx context.Context, userID int64, ended Ended) {
	s.Announce(ctx, userID, ReasonReplaced, ended.Replaced...)
	s.Announce(ctx, userID, ReasonDeviceLimit, ended.OverLimit...)
}

// MaxDevicesAllowed is the live sessions one user may keep under
// PolicyDevices.
func (s *Sessions) MaxDevicesAllowed() int {
	if s.MaxDevices > 0 {
		return s.MaxDevices
	}
	return DefaultMaxDevices
}

// newSession is the stored form of a new session holding t's secrets.
func (s *Sessions) newSession(t Tokens, userID int64, platform int) storage.AuthSession {
	now := s.Clock.Now()
	return storage.AuthSession{
		ID:             storage.NewID(),
		UserID:         userID,
		Platform:       platform,
		TokenHash:      storage.HashSecret(t.Token),
		JWTHash:        storage.HashSecret(t.JWT),
		ChatTokenHash:  storage.HashSecret(t.ChatToken),
		TokenExpiresAt: now.Add(s.TokenTTL).UnixMilli(),
		JWTExpiresAt:   now.Add(s.JWTTTL).UnixMilli(),
		State:          storage.SessionActive,
		CreatedAt:      now.UnixMilli(),
	}
}

// Announce tells every node that sessions ended: their sockets close and
// their tokens leave every node's cache. This node's cache drops them before
// Announce returns; the others when the bus delivers the event, and a node
// that misses it stops trusting its cached copy after the cache's maximum
// age. Call it after the transaction that ended the sessions committed.
func (s *Sessions) Announce(ctx context.Context, userID int64, reason string, sessionIDs ...int64) {
	if len(sessionIDs) == 0 {
		return
	}
	if s.Cache != nil {
		s.Cache.Evict(sessionIDs...)
	}
	if s.Bus == nil {
		return
	}
	for _, id := range sessionIDs {
		b := fmt.Appendf(nil, `{"sessionId":%d,"userId":%d,"reason":%q}`, id, userID, reason)
		_ = s.Bus.Publish(ctx, SessionEndedSubject, b)
	}
}

// Authenticate resolves an access token to its user and session in one
// store round trip, the user read as it is now. Routes that need only who
// the caller is use Identify, which the node's cache answers.
func (s *Sessions) Authenticate(ctx context.Context, token string) (storage.User, storage.AuthSession, error) {
	if token == "" {
		return storage.User{}, storage.AuthSession{}, ErrNoToken
	}
	var since uint64
	if s.Cache != nil {
		since = s.Cache.mark()
	}
	sess, u, err := s.lookup(ctx, token)
	if err != nil {
		return storage.User{}, sess, err
	}
	if s.Cache != nil {
		s.Cache.put(storage.HashSecret(token), since, sess, u)
	}
	return u, sess, nil
}

// Identify resolves an access token to its session and the caller's
// identity: a User with only ID, Account, InviteCode and CreatedAt set,
// the fields that never change. A token validated recently is answered from
// the node's cache (TokenCache) without a store round trip; revocation
// reaches the cache through the bus (Announce, Renew).
func (s *Sessions) Identify(ctx context.Context, token string) (storage.User, storage.AuthSession, error) {
	if s.Cache == nil {
		u, sess, err := s.Authenticate(ctx, token)
		return identity(u), sess, err
	}
	if token == "" {
		return storage.User{}, storage.AuthSession{}, ErrNoToken
	}
	hash := storage.HashSecret(token)
	if sess, u, ok := s.Cache.get(hash); ok {
		if err := s.check(sess, sess.TokenExpiresAt); err != nil {
			return storage.User{}, sess, err
		}
		return u, sess, nil
	}
	since := s.Cache.mark()
	sess, u, err := s.lookup(ctx, token)
	if err != nil {
		return storage.User{}, sess, err
	}
	s.Cache.put(hash, since, sess, u)
	return identity(u), sess, nil
}

// RefreshCache confirms in the store, in one statement, the cached tokens
// that are half their maximum age old and were used within keepIdle, so a
// token in use never ages out of the cache; a session found ended, renewed,
// expired or gone leaves it. KeepCacheFresh runs it every maxAge/4.
func (s *Sessions) RefreshCache(ctx context.Context) error {
	tc := s.Cache
	if tc == nil {
		return nil
	}
	entries := tc.due()
	if len(entries) == 0 {
		return nil
	}
	ids := make([]int64, len(entries))
	for i, e := range entries {
		ids[i] = e.session.ID
	}
	began := tc.clock.Now()
	stored, err := storage.SessionsByID(ctx, s.DB, ids)
	if err != nil {
		return err
	}
	tc.confirm(entries, stored, began)
	return nil
}

// KeepCacheFresh runs RefreshCache every maxAge/4 until stop is called. A
// failed refresh changes nothing: entries then age out as they would
// without it.
func (s *Sessions) KeepCacheFresh(log *slog.Logger) (stop func()) {
	if s.Cache == nil {
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(max(s.Cache.maxAge/4, 100*time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := s.RefreshCache(ctx); err != nil && ctx.Err() == nil {
					log.Warn("token cache refresh failed", "err", err)
				}
			}
		}
	}()
	return func() { cancel(); <-done }
}

// identity keeps the fields of u that never change after registration.
func identity(u storage.User) storage.User {
	return storage.User{ID: u.ID, Account: u.Account, InviteCode: u.InviteCode, CreatedAt: u.CreatedAt}
}

// lookup reads and checks a token's session and user in the store.
func (s *Sessions) lookup(ctx context.Context, token string) (storage.AuthSession, storage.User, error) {
	if token == "" {
		return storage.AuthSession{}, storage.User{}, ErrNoToken
	}
	sess, u, err := storage.SessionUserByToken(ctx, s.DB, token)
	if err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return storage.AuthSession{}, storage.User{}, ErrExpired
		}
		return storage.AuthSession{}, storage.User{}, err
	}
	if err := s.check(sess, sess.TokenExpiresAt); err != nil {
		return sess, storage.User{}, err
	}
	return sess, u, nil
}

// ChatSession resolves a chat token; it lives as long as the jwt.
func (s *Sessions) ChatSession(ctx context.Context, chatToken string) (storage.AuthSession, error) {
	if chatToken == "" {
		return storage.AuthSession{}, ErrNoToken
	}
	sess, err := storage.SessionByChatToken(ctx, s.DB, chatToken)
	if errors.Is(err, storage.ErrNotFound) {
		return sess, ErrExpired
	}
	if err != nil {
		return sess, err
	}
	return sess, s.check(sess, sess.JWTExpiresAt)
}

func (s *Sessions) check(sess storage.AuthSession, expiresAt int64) error {
	switch {
	case sess.State == storage.SessionReplaced:
		return ErrReplaced
	case sess.State == storage.SessionDeviceLimit:
		return ErrDeviceLimit
	case sess.State != storage.SessionActive:
		return ErrExpired
	case s.Clock.Now().UnixMilli() >= expiresAt:
		return ErrExpired
	}
	return nil
}

// Renew trades a valid jwt for a fresh access token on the same session.
// The chat token is kept so an open socket stays valid.
func (s *Sessions) Renew(ctx context.Context, jwt string) (string, storage.AuthSession, error) {
	sess, err := storage.SessionByJWT(ctx, s.DB, jwt)
	if errors.Is(err, storage.ErrNotFound) || jwt == "" {
		return "", sess, ErrJWTInvalid
	}
	if err != nil {
		return "", sess, err
	}
	if sess.State != storage.SessionActive || s.Clock.Now().UnixMilli() >= sess.JWTExpiresAt {
		return "", sess, ErrJWTInvalid
	}
	token := NewSecret()
	err = storage.RenewSessionToken(ctx, s.DB, sess.ID, storage.HashSecret(token), s.Clock.Now().Add(s.TokenTTL).UnixMilli())
	if errors.Is(err, storage.ErrNotFound) {
		return "", sess, ErrJWTInvalid
	}
	if err != nil {
		return "", sess, err
	}
	// The old token is dead: out of this node's cache now, out of the
	// others' when the bus delivers.
	if s.Cache != nil {
		s.Cache.Evict(sess.ID)
	}
	if s.Bus != nil {
		b := fmt.Appendf(nil, `{"sessionId":%d,"userId":%d}`, sess.ID, sess.UserID)
		_ = s.Bus.Publish(ctx, TokenRenewedSubject, b)
	}
	return token, sess, nil
}

// SignOut revokes all three secrets of a session and tells the gateways.
func (s *Sessions) SignOut(ctx context.Context, sess storage.AuthSession) error {
	if err := storage.EndSession(ctx, s.DB, sess.ID, storage.SessionSignedOut); err != nil {
		return err
	}
	s.Announce(ctx, sess.UserID, ReasonSignedOut, sess.ID)
	return nil
}
