package httpapi

// The signed-in user's devices: every live sign-in of the account, with
// "sign out this device" and "sign out all others". Under
// KJ_LOGIN_POLICY=devices a user keeps several (up to KJ_LOGIN_MAX_DEVICES);
// under the platform policy one per platform, and the list still shows the
// app and the browser apart.

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"kj/auth"
	"kj/internal/apierr"
	"kj/storage"
)

func init() {
	registerArea(func(s *Server) {
		s.Post("/devices", User, s.devices)
		s.Get("/devices", User, s.devices)
		s.Post("/devices/signOut", User, s.signOutDevice)
		s.Post("/devices/signOutOthers", User, s.signOutOtherDevices)
	})
}

// deviceView is one live sign-in in the device list.
type deviceView struct {
	ID        string `json:"id"`       // the session's id, as text (64-bit)
	Platform  int    `json:"platform"` // OpenIM platform id: 1 iOS, 2 Android, 5 web...
	Device    string `json:"device"`   // "Chrome · Windows"; empty when unknown
	CreatedAt int64  `json:"createdAt"`
	Current   bool   `json:"current"` // the sign-in this request came from
}

type devicesReply struct {
	Policy     string       `json:"policy"`     // platform or devices (KJ_LOGIN_POLICY)
	MaxDevices int          `json:"maxDevices"` // the cap under the devices policy; 0 under platform
	Devices    []deviceView `json:"devices"`    // newest first
}

// devices lists the caller's live sign-ins, newest first.
func (s *Server) devices(c *Call) (any, error) {
	list, err := storage.LiveSessionsOfUser(c.Ctx, s.DB, c.User.ID, s.Clock.Now().UnixMilli())
	if err != nil {
		return nil, err
	}
	out := devicesReply{Policy: auth.PolicyPlatform, Devices: make([]deviceView, 0, len(list))}
	if s.Sessions.Policy == auth.PolicyDevices {
		out.Policy, out.MaxDevices = auth.PolicyDevices, s.Sessions.MaxDevicesAllowed()
	}
	for _, d := range list {
		out.Devices = append(out.Devices, deviceView{ID: storage.FormatID(d.ID), Platform: d.Platform, Device: d.Device,
			CreatedAt: d.CreatedAt, Current: d.ID == c.Session.ID})
	}
	return out, nil
}

type signOutDeviceRequest struct {
	ID string `json:"id"`
}

// signOutDevice signs out one of the caller's sign-ins (its token, jwt and
// chat token; its socket is told its token expired). The caller's own is
// allowed: that is signing out here. Another user's, or one already ended,
// is not found.
func (s *Server) signOutDevice(c *Call) (any, error) {
	var req signOutDeviceRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.ID == "" {
		return nil, apierr.Required("id")
	}
	id, err := strconv.ParseInt(req.ID, 10, 64)
	if err != nil || id <= 0 {
		return nil, apierr.Invalid("id")
	}
	_, err = s.signOutSessions(c, func() ([]int64, error) {
		return []int64{id}, storage.EndSessionOf(c.Ctx, s.DB, c.User.ID, id, storage.SessionSignedOut)
	})
	if errors.Is(err, storage.ErrNotFound) {
		return nil, apierr.NotFound()
	}
	return nil, err
}

type signOutOthersReply struct {
	SignedOut int `json:"signedOut"` // how many sign-ins ended
}

// signOutOtherDevices signs out every sign-in of the caller but this one.
func (s *Server) signOutOtherDevices(c *Call) (any, error) {
	ended, err := s.signOutSessions(c, func() ([]int64, error) {
		return storage.EndUserSessions(c.Ctx, s.DB, c.User.ID, c.Session.ID, storage.SessionSignedOut)
	})
	if err != nil {
		return nil, err
	}
	return signOutOthersReply{SignedOut: len(ended)}, nil
}

// signOutSessions is what both sign-outs of the device list do: end ends
// the caller's sign-ins it names in the store and returns their ids; they
// are then announced (their sockets are told the token expired, every
// node's cache drops them) and logged.
func (s *Server) signOutSessions(c *Call, end func() ([]int64, error)) ([]int64, error) {
	ended, err := end()
	if err != nil {
		return nil, err
	}
	s.Sessions.Announce(c.Ctx, c.User.ID, auth.ReasonSignedOut, ended...)
	s.Log.Info("devices signed out", "userId", c.User.ID, "sessions", ended, "self", slices.Contains(ended, c.Session.ID))
	return ended, nil
}

// deviceLabel makes the short label a device list shows ("Chrome ·
// Windows") from a User-Agent: the browser and the system when they are
// recognised, otherwise the first product token (an app's HTTP library,
// "okhttp/4.12"), at most 40 bytes; empty for none.
func deviceLabel(ua string) string {
	var browser, system string
	switch {
	case strings.Contains(ua, "Edg/"), strings.Contains(ua, "EdgA/"), strings.Contains(ua, "EdgiOS/"):
		browser = "Edge"
	case strings.Contains(ua, "OPR/"):
		browser = "Opera"
	case strings.Contains(ua, "SamsungBrowser/"):
		browser = "Samsung Internet"
	case strings.Contains(ua, "Firefox/"), strings.Contains(ua, "FxiOS/"):
		browser = "Firefox"
	case strings.Contains(ua, "Chrome/"), strings.Contains(ua, "CriOS/"):
		browser = "Chrome"
	case strings.Contains(ua, "Safari/"):
		browser = "Safari"
	}
	switch {
	case strings.Contains(ua, "iPhone"), strings.Contains(ua, "iPad"), strings.Contains(ua, "iPod"):
		system = "iOS"
	case strings.Contains(ua, "Android"):
		system = "Android"
	case strings.Contains(ua, "Windows"):
		system = "Windows"
	case strings.Contains(ua, "CrOS"):
		system = "ChromeOS"
	case strings.Contains(ua, "Mac OS X"), strings.Contains(ua, "Macintosh"):
		system = "macOS"
	case strings.Contains(ua, "Linux"):
		system = "Linux"
	}
	switch {
	case browser != "" && system != "":
		return browser + " · " + system
	case browser != "" || system != "":
		return browser + system
	}
	first, _, _ := strings.Cut(strings.TrimSpace(ua), " ")
	return clip(first, 40)
}

// clip cuts s to at most n bytes without splitting a character.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
