package httpapi

import (
	"net/http"
	"testing"
	"time"

	"kj/auth"
	"kj/internal/apierr"
	"kj/storage"
)

const (
	chromeLinux = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
	safariPhone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
	firefoxWin  = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"
)

// signInFrom signs account in on platform 5 from a browser with User-Agent ua.
func signInFrom(t *testing.T, s *Server, account, ua string) auth.Tokens {
	t.Helper()
	r := login(t, s, account, "abc123", 5, "User-Agent", ua)
	if r.Code != 0 {
		t.Fatalf("login %s: %d %s", account, r.Code, r.Message)
	}
	return data[auth.Tokens](t, r)
}

func TestDevicesPolicyTheListAndSigningOut(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		s.Sessions.Policy, s.Sessions.MaxDevices = auth.PolicyDevices, 2
		clk := s.Clock.(interface{ Advance(time.Duration) })
		newUser(t, s, "dora_d") // a first session, from no browser (platform 5)
		clk.Advance(time.Second)
		chrome := signInFrom(t, s, "dora_d", chromeLinux)
		clk.Advance(time.Second)
		phone := signInFrom(t, s, "dora_d", safariPhone)

		// Three sign-ins, two allowed: the oldest (newUser's) is gone; the two browsers stay.
		var list devicesReply
		ok(t, s, phone.Token, "/devices", `{}`, &list)
		if list.Policy != auth.PolicyDevices || list.MaxDevices != 2 || len(list.Devices) != 2 {
			t.Fatalf("device list: %+v", list)
		}
		if d := list.Devices[0]; d.Device != "Safari · iOS" || !d.Current || d.Platform != 5 {
			t.Fatalf("newest device: %+v", d)
		}
		if d := list.Devices[1]; d.Device != "Chrome · Linux" || d.Current {
			t.Fatalf("older device: %+v", d)
		}
		chromeID := list.Devices[1].ID

		// A fourth signs the oldest out, which hears it in words of its own.
		clk.Advance(time.Second)
		firefox := signInFrom(t, s, "dora_d", firefoxWin)
		r := fails(t, s, chrome.Token, "/user/mine", `{}`, apierr.CodeLoggedElsewhere)
		if r.Message == apierr.Translate("en-US", "logged.elsewhere", nil) || r.Message != apierr.Translate("en-US", "logged.out.device.limit", nil) {
			t.Fatalf("the device limit's own words, got %q", r.Message)
		}
		r = call(t, h, "POST", "/api/jwt/login", jsonBody(t, map[string]string{"token": chrome.JWT}), "Accept-Language", "en-US")
		if r.Code != apierr.CodeLoggedElsewhere || r.Message != apierr.Translate("en-US", "logged.out.device.limit", nil) {
			t.Fatalf("renewing a device signed out by the limit: %d %q", r.Code, r.Message)
		}

		// Someone else's device, an ended one, and nonsense are refused and change nothing.
		_, olgaTok := newUser(t, s, "olga_e")
		var olgas devicesReply
		ok(t, s, olgaTok.Token, "/devices", `{}`, &olgas)
		fails(t, s, phone.Token, "/devices/signOut", jsonBody(t, map[string]string{"id": olgas.Devices[0].ID}), apierr.CodeNotFound)
		fails(t, s, phone.Token, "/devices/signOut", jsonBody(t, map[string]string{"id": chromeID}), apierr.CodeNotFound)
		fails(t, s, phone.Token, "/devices/signOut", `{"id":"x1"}`, apierr.CodeInvalid)
		fails(t, s, phone.Token, "/devices/signOut", `{}`, apierr.CodeRequired)
		ok(t, s, olgaTok.Token, "/user/mine", `{}`, nil)

		// Sign out all others: only this device stays.
		var res signOutOthersReply
		ok(t, s, phone.Token, "/devices/signOutOthers", `{}`, &res)
		if res.SignedOut != 1 {
			t.Fatalf("signed out %d, want 1 (Firefox)", res.SignedOut)
		}
		fails(t, s, firefox.Token, "/user/mine", `{}`, apierr.CodeTokenExpired)
		ok(t, s, phone.Token, "/devices", `{}`, &list)
		if len(list.Devices) != 1 || !list.Devices[0].Current {
			t.Fatalf("after signing out the others: %+v", list)
		}

		// Sign out this device: the token is dead at once.
		ok(t, s, phone.Token, "/devices/signOut", jsonBody(t, map[string]string{"id": list.Devices[0].ID}), nil)
		fails(t, s, phone.Token, "/devices", `{}`, apierr.CodeTokenExpired)
	})
}

func TestPlatformPolicyTheListShowsOnePerPlatform(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		newUser(t, s, "paul_p")
		first := signInFrom(t, s, "paul_p", chromeLinux)
		second := signInFrom(t, s, "paul_p", firefoxWin)
		// The spec's policy: the newer sign-in on the platform replaced the older.
		r := fails(t, s, first.Token, "/devices", `{}`, apierr.CodeLoggedElsewhere)
		if r.Message != apierr.Translate("en-US", "logged.elsewhere", nil) {
			t.Fatalf("platform policy words: %q", r.Message)
		}
		var list devicesReply
		ok(t, s, second.Token, "/devices", `{}`, &list)
		if list.Policy != auth.PolicyPlatform || list.MaxDevices != 0 || len(list.Devices) != 1 || list.Devices[0].Device != "Firefox · Windows" {
			t.Fatalf("device list: %+v", list)
		}
	})
}

func TestDeviceLabel(t *testing.T) {
	t.Parallel()
	for ua, want := range map[string]string{
		chromeLinux: "Chrome · Linux",
		safariPhone: "Safari · iOS",
		firefoxWin:  "Firefox · Windows",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0": "Edge · Windows",
		"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15":         "Safari · macOS",
		"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36":         "Chrome · Android",
		"okhttp/4.12.0": "okhttp/4.12.0",
		"node":          "node",
		"":              "",
		"ééééééééééééééééééééééééééééééé": "éééééééééééééééééééé",
	} {
		if got := deviceLabel(ua); got != want {
			t.Errorf("deviceLabel(%q) = %q, want %q", ua, got, want)
		}
	}
}
