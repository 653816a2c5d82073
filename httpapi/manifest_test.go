package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"kj/storage"
)

func fetchManifest(t *testing.T, s *Server, host string) webManifest {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/manifest.webmanifest", nil)
	req.Host = host
	s.Manifest(rec, req)
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/manifest+json" {
		t.Fatalf("manifest: %d %q %s", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
	var m webManifest
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// The manifest names the app as /getDomainInfo does: the domain's entry,
// else the operator's settings, else KJ_APP_NAME; the rest is what makes
// the app installable.
func TestManifestTakesTheOperatorsName(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		m := fetchManifest(t, s, "app.example.com")
		if m.Name != s.Config.AppName || m.Display != "standalone" || m.Orientation != "portrait" || m.StartURL != "/" ||
			len(m.Icons) != 3 || m.Icons[1].Sizes != "512x512" || m.ThemeColor == "" {
			t.Fatalf("default manifest %+v", m)
		}
		_, admin := newOperator(t, s, "brand_boss")
		if r := call(t, h, "POST", "/api/admin/settings/save", `{"appName":"Lucky Rounds Club"}`, "token", admin.Token); r.Code != 0 {
			t.Fatalf("settings: %+v", r)
		}
		if m := fetchManifest(t, s, "app.example.com"); m.Name != "Lucky Rounds Club" || m.ShortName != "Lucky Rounds" {
			t.Fatalf("after the operator's rename: %+v", m)
		}
		if r := call(t, h, "POST", "/api/admin/domain/save", `{"domain":"vip.example.com","platformId":1,"packageId":2,"appName":"VIP"}`, "token", admin.Token); r.Code != 0 {
			t.Fatalf("domain: %+v", r)
		}
		if m := fetchManifest(t, s, "vip.example.com"); m.Name != "VIP" {
			t.Fatalf("the domain's name: %+v", m)
		}
		if m := fetchManifest(t, s, "app.example.com"); m.Name != "Lucky Rounds Club" {
			t.Fatalf("another domain: %+v", m)
		}
	})
}
