package httpapi

// Web Push (package push): the VAPID public key a browser subscribes
// with, and this device's subscription. A device is the caller's sign-in
// session, so a subscription ends with it; the node's push sender is told
// of a new subscriber over the bus (any node may take the route).

import (
	"crypto/ecdh"
	"encoding/base64"
	"errors"
	"net"
	"net/url"
	"strings"

	"kj/internal/apierr"
	"kj/push"
	"kj/storage"
)

func init() {
	registerArea(func(s *Server) {
		s.Get("/push/key", Open, s.pushKey)
		s.Get("/push/subscription", User, s.pushSubscription)
		s.Post("/push/subscribe", User, s.pushSubscribe)
		s.Post("/push/preview", User, s.pushPreview)
		s.Post("/push/unsubscribe", User, s.pushUnsubscribe)
	})
}

type pushKeyView struct {
	PublicKey string `json:"publicKey"` // base64url, the applicationServerKey
}

func (s *Server) pushKey(c *Call) (any, error) {
	public, _, err := push.Keys(c.Ctx, s.DB, s.Clock)
	if err != nil {
		return nil, err
	}
	return pushKeyView{PublicKey: public}, nil
}

type pushSubscriptionView struct {
	Subscribed bool   `json:"subscribed"`
	Endpoint   string `json:"endpoint,omitempty"`
	Preview    bool   `json:"preview"`
}

// pushSubscription answers whether this device has a subscription, and
// its preview choice.
func (s *Server) pushSubscription(c *Call) (any, error) {
	sub, err := storage.PushSubscriptionOfSession(c.Ctx, s.DB, c.Session.ID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return pushSubscriptionView{Preview: true}, nil
	case err != nil:
		return nil, err
	}
	return pushSubscriptionView{Subscribed: true, Endpoint: sub.Endpoint, Preview: sub.Preview}, nil
}

// pushSubscribeRequest is the browser's PushSubscription.toJSON() with the
// preview choice.
type pushSubscribeRequest struct {
	Endpoint string `json:"endpoint"`
	Keys     struct {
		P256dh string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
	Preview *bool `json:"preview"` // absent: shown
}

// maxEndpoint bounds an endpoint URL (the browsers' are under 500 bytes).
const maxEndpoint = 1024

// pushSubscribe stores this device's subscription (replacing its earlier
// one); sent again with the same endpoint it changes the preview choice.
func (s *Server) pushSubscribe(c *Call) (any, error) {
	var req pushSubscribeRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.Endpoint == "" {
		return nil, apierr.Required("endpoint")
	}
	if !pushEndpointOK(req.Endpoint) || !pushKeyOK(req.Keys.P256dh, 65) || !pushKeyOK(req.Keys.Auth, 16) {
		return nil, apierr.Fail(apierr.CodeInvalid, "push.subscription.invalid")
	}
	preview := req.Preview == nil || *req.Preview
	sub := storage.PushSubscription{ID: storage.NewID(), UserID: c.User.ID, SessionID: c.Session.ID, Endpoint: req.Endpoint,
		P256dh: req.Keys.P256dh, Auth: req.Keys.Auth, Preview: preview, Lang: c.Lang, CreatedAt: s.Clock.Now().UnixMilli()}
	if err := s.DB.Tx(c.Ctx, func(tx storage.Tx) error { return storage.SavePushSubscription(c.Ctx, tx, sub) }); err != nil {
		return nil, err
	}
	if err := push.Announce(c.Ctx, s.Bus, c.User.ID); err != nil {
		s.Log.Warn("push: announce subscriber", "user", c.User.ID, "err", err)
	}
	return pushSubscriptionView{Subscribed: true, Endpoint: sub.Endpoint, Preview: preview}, nil
}

// pushPreview changes this device's preview choice; a device without a
// subscription is told so (1006) and nothing changes.
func (s *Server) pushPreview(c *Call) (any, error) {
	var req struct {
		Preview *bool `json:"preview"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.Preview == nil {
		return nil, apierr.Required("preview")
	}
	err := storage.SetPushPreview(c.Ctx, s.DB, c.User.ID, c.Session.ID, *req.Preview)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, apierr.Fail(apierr.CodeNotFound, "push.subscription.none")
	}
	if err != nil {
		return nil, err
	}
	return s.pushSubscription(c)
}

// pushUnsubscribe ends this device's subscription; a device without one
// is already where the call leads.
func (s *Server) pushUnsubscribe(c *Call) (any, error) {
	err := storage.DeletePushSubscriptionOfSession(c.Ctx, s.DB, c.User.ID, c.Session.ID)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return nil, err
	}
	return pushSubscriptionView{Preview: true}, nil
}

// pushEndpointOK takes the https URLs browsers' push services give, and
// plain http only on a loopback host (a push service on the same machine,
// as the tests run): the node posts to the endpoint, so it must not be
// turned at the private network over plain http.
func pushEndpointOK(endpoint string) bool {
	if len(endpoint) > maxEndpoint {
		return false
	}
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" || u.User != nil {
		return false
	}
	switch u.Scheme {
	case "https":
		return true
	case "http":
		host := u.Hostname()
		ip := net.ParseIP(host)
		return strings.EqualFold(host, "localhost") || (ip != nil && ip.IsLoopback())
	}
	return false
}

// pushKeyOK checks a base64url key of the browser's: the P-256 public key
// (a point on the curve, 65 bytes) or the 16-byte auth secret.
func pushKeyOK(s string, size int) bool {
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil || len(b) != size {
		return false
	}
	if size == 65 {
		_, err = ecdh.P256().NewPublicKey(b)
	}
	return err == nil
}
