package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"kj/internal/apierr"
	"kj/storage"
)

// allowContentHosts saves the allowed content hosts directly, as an admin
// would in the console (tests that link content elsewhere call it first).
func allowContentHosts(t *testing.T, s *Server, hosts ...string) {
	t.Helper()
	ctx := context.Background()
	if err := storage.PutSetting(ctx, s.DB, settingContentHosts, hosts, 0, s.Clock.Now().UnixMilli()); err != nil {
		t.Fatal(err)
	}
	s.settingChanged(ctx, settingContentHosts)
}

// TestContentLinksOnlyToAllowedHosts: every content link the app loads as
// a picture or a video (banner image, video and cover, listing photos, the
// splash picture, the files base of the settings and of a domain) may
// point at this site or at a content host an admin allowed, nowhere else:
// a link elsewhere is refused with a translated error naming the host and
// changes nothing (issue 32: the policy let pictures and videos load from
// any host). Admins edit the list (agents cannot), entries are http(s)
// origins, a host still linked to cannot be dropped, and every save is
// audited with the list before and after.
func TestContentLinksOnlyToAllowedHosts(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		ctx := context.Background()
		admin, adminTok := contentOperator(t, s, "hosts_admin")
		_, agentTok := newUser(t, s, "hosts_agent")
		if err := storage.SetOperatorRole(ctx, db, mustUserID(t, s, "hosts_agent"), storage.OperatorAgent, s.Clock.Now().UnixMilli()); err != nil {
			t.Fatal(err)
		}
		post := func(path, body string, headers ...string) reply {
			return contentPost(t, s, path, body, adminTok.Token, headers...)
		}
		city := contentOK[adminCity](t, post("/admin/city/save", `{"name":"Porto"}`))
		settingsOf := func() adminSettings { return contentOK[adminSettings](t, post("/admin/settings/get", ``)) }
		if got := settingsOf().ContentHosts; got == nil || len(got) != 0 {
			t.Fatalf("a new store's content hosts: %#v, want []", got)
		}

		// Every media link, to a host not allowed: refused, nothing stored.
		saves := func(link string) map[string]string {
			return map[string]string{
				"/admin/banner/save":    `{"title":"b","image":"` + link + `"}`,
				"/admin/video/save":     `{"kind":"find","title":"v","url":"` + link + `"}`,
				"/admin/video/save#":    `{"kind":"find","title":"v","url":"/files/v.mp4","cover":"` + link + `"}`,
				"/admin/listing/save":   fmt.Sprintf(`{"cityId":"%d","name":"Ana","age":30,"photos":["/files/p.png","%s"]}`, int64(city.ID), link),
				"/admin/settings/save":  `{"ossUrl":"` + link + `"}`,
				"/admin/settings/save#": `{"splashImage":"` + link + `"}`,
				"/admin/domain/save":    `{"domain":"app.example.com","ossUrl":"` + link + `"}`,
			}
		}
		for route, body := range saves("https://cdn.example.com/media/a.png") {
			route = strings.TrimSuffix(route, "#")
			for lang, want := range map[string]string{"en-US": "https://cdn.example.com is not one of the content hosts", "zh-CN": "https://cdn.example.com 不在应用设置允许的内容主机中"} {
				r := post(route, body, "Accept-Language", lang)
				if r.Code != apierr.CodeInvalid || !strings.Contains(r.Message, want) {
					t.Fatalf("%s %s (%s): %d %q, want %q", route, body, lang, r.Code, r.Message, want)
				}
			}
		}
		banners, _ := storage.ListBanners(ctx, db, false)
		videos, _ := storage.CountVideos(ctx, db, "", false)
		listings, _ := storage.CountListings(ctx, db, 0, false)
		domains, _ := storage.ListDomains(ctx, db)
		if len(banners)+videos+listings+len(domains) != 0 {
			t.Fatalf("refused links stored %d banners, %d videos, %d listings, %d domains", len(banners), videos, listings, len(domains))
		}
		if app := settingsOf(); app.OssURL != "" || app.SplashImage != "" {
			t.Fatalf("refused settings stored: %+v", app)
		}
		// Links on this site are always fine.
		contentOK[any](t, post("/admin/banner/save", `{"title":"b","image":"/files/content/1.png"}`))

		// Only admins edit the list, and only with origins.
		if r := contentPost(t, s, "/admin/contentHosts/save", `{"hosts":["https://cdn.example.com"]}`, agentTok.Token); r.Code != apierr.CodeRoleRefused {
			t.Fatalf("an agent saved content hosts: %+v", r)
		}
		many := make([]string, maxContentHosts+1)
		for i := range many {
			many[i] = fmt.Sprintf("https://h%d.example.com", i)
		}
		manyJSON, _ := json.Marshal(map[string][]string{"hosts": many})
		for _, body := range []string{
			`{"hosts":["cdn.example.com"]}`, `{"hosts":["https://cdn.example.com/media"]}`, `{"hosts":["ftp://cdn.example.com"]}`,
			`{"hosts":["javascript:alert(1)"]}`, `{"hosts":["https://user:pw@cdn.example.com"]}`, `{"hosts":["https://cdn.example.com?x"]}`,
			`{"hosts":["https://*.example.com"]}`, `{"hosts":["https://cdn.example.com; script-src *"]}`, string(manyJSON),
		} {
			r := post("/admin/contentHosts/save", body, "Accept-Language", "es-ES")
			if r.Code != apierr.CodeInvalid || !strings.Contains(r.Message, "https://cdn.example.com") {
				t.Fatalf("hosts %s: %d %q", body, r.Code, r.Message)
			}
		}
		if got := settingsOf().ContentHosts; len(got) != 0 {
			t.Fatalf("refused lists saved: %v", got)
		}

		// Saved: normalised (case, default port, trailing slash), sorted,
		// audited; links to them are accepted, on another scheme not.
		got := contentOK[adminSettings](t, post("/admin/contentHosts/save", `{"hosts":["https://CDN.example.com:443/","http://media.example.net:8080",""," https://cdn.example.com "]}`))
		want := []string{"http://media.example.net:8080", "https://cdn.example.com"}
		if !slices.Equal(got.ContentHosts, want) || !slices.Equal(settingsOf().ContentHosts, want) {
			t.Fatalf("saved hosts %v, want %v", got.ContentHosts, want)
		}
		rows, err := storage.ListAudit(ctx, db, storage.AuditFilter{Action: "settings.save", Target: settingContentHosts}, 10, 0)
		if err != nil || len(rows) != 1 || rows[0].OperatorID != admin.ID {
			t.Fatalf("audit rows %+v %v", rows, err)
		}
		var detail struct {
			IP     string   `json:"ip"`
			Before []string `json:"before"`
			After  []string `json:"after"`
		}
		if json.Unmarshal([]byte(rows[0].Detail), &detail) != nil || detail.IP == "" || len(detail.Before) != 0 || !slices.Equal(detail.After, want) {
			t.Fatalf("audit detail %s", rows[0].Detail)
		}
		for route, body := range saves("https://cdn.example.com:443/media/a.png") {
			contentOK[any](t, post(strings.TrimSuffix(route, "#"), body))
		}
		contentOK[any](t, post("/admin/video/save", `{"kind":"find","title":"m","url":"http://media.example.net:8080/m.mp4"}`))
		contentFails(t, post("/admin/banner/save", `{"title":"b","image":"http://cdn.example.com/a.png"}`), apierr.CodeInvalid)
		contentFails(t, post("/admin/banner/save", `{"title":"b","image":"https://cdn.example.com.evil.example/a.png"}`), apierr.CodeInvalid)

		// A host the content still links to stays on the list.
		r := post("/admin/contentHosts/save", `{"hosts":["http://media.example.net:8080"]}`, "Accept-Language", "en-US")
		if r.Code != apierr.CodeInvalid || !strings.Contains(r.Message, "https://cdn.example.com is still used") {
			t.Fatalf("dropping a host in use: %d %q", r.Code, r.Message)
		}
		if got := settingsOf().ContentHosts; !slices.Equal(got, want) {
			t.Fatalf("a refused save changed the list: %v", got)
		}
	})
}

func mustUserID(t *testing.T, s *Server, account string) int64 {
	t.Helper()
	u, err := storage.UserByAccount(context.Background(), s.DB, account)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// TestContentHostsStartFromTheContentAlreadyStored: a store from before the
// list existed allows, on first use, exactly the hosts its content already
// links to (so an upgrade keeps showing its pictures and videos), and
// saves that list so the console shows it.
func TestContentHostsStartFromTheContentAlreadyStored(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		ctx := context.Background()
		now := s.Clock.Now().UnixMilli()
		if err := storage.CreateBanner(ctx, db, storage.Banner{ID: storage.NewID(), Title: "b", Image: "https://CDN.example.com/b.png", Link: "https://elsewhere.example.org/page", Enabled: 1, CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
		if err := storage.CreateVideo(ctx, db, storage.Video{ID: storage.NewID(), Kind: "find", Title: "v", URL: "https://video.example.net:8443/v.mp4", Cover: "/files/c.png", Enabled: 1, CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
		if err := storage.PutSetting(ctx, db, storage.SettingApp, storage.AppSettings{OssURL: "https://files.example.com/", SplashImage: "/files/s.png", SplashLink: "https://ads.example.org"}, 0, now); err != nil {
			t.Fatal(err)
		}
		got, err := s.ContentHosts(ctx)
		want := []string{"https://cdn.example.com", "https://files.example.com", "https://video.example.net:8443"}
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("first use: %v %v, want %v (pictures and videos only, not page links)", got, err, want)
		}
		var saved []string
		if found, err := storage.GetSetting(ctx, db, settingContentHosts, &saved); err != nil || !found || !slices.Equal(saved, want) {
			t.Fatalf("saved %v %v %v", saved, found, err)
		}
		// Once saved, the list is the operator's: new content does not add to it.
		if err := storage.CreateBanner(ctx, db, storage.Banner{ID: storage.NewID(), Title: "c", Image: "https://new.example.com/c.png", Enabled: 1, CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.ContentHosts(ctx); !slices.Equal(got, want) {
			t.Fatalf("later: %v", got)
		}
	})
}
