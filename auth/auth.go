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
}

// SessionEndedSubject carries SessionEnded events so every node's chat
// gateway can close the sockets of a session that was replaced or signed out.
const SessionEndedSubject = "kj.session.ended"

// SessionEnded says one session stopped being valid.
type SessionEnded struct {
	SessionID int64  `json:"sessionId"`
	UserID    int64  `json:"userId"`
	Reason    string `json:"reason"` // "replaced" (kick offline) or "signedOut"
}

// Reasons of SessionEnded.
const (
	ReasonReplaced  = "replaced"
	ReasonSignedOut = "signedOut"
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
	now := s.Clock.Now()
	t := Tokens{Token: NewSecret(), JWT: NewSecret(), ChatToken: NewSecret(), UserID: fmt.Sprint(userID)}
	replaced, err := storage.CreateSession(ctx, tx, storage.AuthSession{
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
	})
	return t, replaced, err
}

// Announce tells every node that sessions ended: their sockets close and
// their tokens leave every node's cache. This node's cache drops them before
// Announce returns; the others when the bus delivers the event, and a node
// that misses it stops trusting its cached copy after the cache's maximum
// age. Call it after the transaction that ended the sessions committed.
func (s *Sessions) Announce(ctx context.Context, userID int64, reason string, sessionIDs ...int64) {
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
