package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"kj/auth"
	"kj/internal/apierr"
	"kj/internal/clock"
	"kj/internal/counter"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

// contentOperator makes a signed-in operator account.
func contentOperator(t *testing.T, s *Server, account string) (storage.User, auth.Tokens) {
	t.Helper()
	u, tok := newUser(t, s, account)
	if err := storage.UpdateUserFields(context.Background(), s.DB, u.ID, 1, map[string]any{"is_operator": 1}); err != nil {
		t.Fatal(err)
	}
	u.IsOperator = 1
	return u, tok
}

// post calls path with body as the holder of token ("" for none), in English.
func contentPost(t *testing.T, s *Server, path, body, token string, headers ...string) reply {
	t.Helper()
	h := append([]string{"Accept-Language", "en-US"}, headers...)
	if token != "" {
		h = append(h, "token", token)
	}
	return call(t, s.Handler(), "POST", "/api"+path, body, h...)
}

// ok decodes the data of a successful reply into T.
func contentOK[T any](t *testing.T, r reply) T {
	t.Helper()
	if r.Code != 0 {
		t.Fatalf("want success, got code %d %q", r.Code, r.Message)
	}
	return data[T](t, r)
}

// failsWith checks a reply's code (and HTTP status when given).
func contentFails(t *testing.T, r reply, code int, status ...int) {
	t.Helper()
	if r.Code != code || (len(status) > 0 && r.Status != status[0]) {
		t.Fatalf("want code %d %v, got %d (HTTP %d) %q", code, status, r.Code, r.Status, r.Message)
	}
	if r.Message == "" || strings.HasPrefix(r.Message, "content.") {
		t.Fatalf("message not translated: %q", r.Message)
	}
}

func TestDomainInfoDefaultsAndEntries(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		_, opTok := contentOperator(t, s, "oper")
		got := contentOK[domainInfoView](t, contentPost(t, s, "/getDomainInfo", `{"domain":"https://App.Example.com:8443/x?y","type":"h5","param":"a=b","platformId":1,"packageId":"2"}`, ""))
		if got != (domainInfoView{Domain: "app.example.com", PlatformID: 10000, PackageID: 100002001, AppName: "kj"}) {
			t.Fatalf("defaults: %+v", got)
		}
		allowContentHosts(t, s, "https://cdn.example.com")
		contentOK[any](t, contentPost(t, s, "/admin/settings/save", `{"appName":"Chatty","ossUrl":"https://cdn.example.com/"}`, opTok.Token))
		contentOK[any](t, contentPost(t, s, "/admin/domain/save", `{"domain":"app.example.com","platformId":20000,"packageId":200002001,"appName":"Kay"}`, opTok.Token))
		got = contentOK[domainInfoView](t, contentPost(t, s, "/getDomainInfo", `{"domain":"app.example.com","type":"h5"}`, ""))
		if got != (domainInfoView{"app.example.com", true, 20000, 200002001, "Kay", "https://cdn.example.com/"}) {
			t.Fatalf("entry: %+v", got)
		}
		// No domain: the Host the app was served from.
		got = contentOK[domainInfoView](t, contentPost(t, s, "/getDomainInfo", `{}`, ""))
		if got.Domain != "example.com" || got.AppName != "Chatty" || got.Configured {
			t.Fatalf("host fallback: %+v", got)
		}
		contentFails(t, contentPost(t, s, "/getDomainInfo", `{"domain":"bad domain!"}`, ""), apierr.CodeInvalid)
		contentFails(t, contentPost(t, s, "/getDomainInfo", `{"type":"fax"}`, ""), apierr.CodeInvalid)
		contentFails(t, contentPost(t, s, "/getDomainInfo", `{"domain":5}`, ""), apierr.CodeBadRequest)
	})
}

func TestBaseHomeDictsSplashAndManifest(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		_, opTok := contentOperator(t, s, "oper")
		_, tok := newUser(t, s, "amy")

		base := contentOK[map[string]any](t, contentPost(t, s, "/getBaseData", ``, ""))
		cs := base["customerService"].(map[string]any)
		if base["appName"] != "kj" || cs["agents"] != 1.0 || cs["socket"] != "/ws/customer" || cs["serviceId"] != "1" || base["limits"].(map[string]any)["videoDailyLimit"] != 3.0 || base["smsEnabled"] != false {
			t.Fatalf("base data: %v", base)
		}
		s.Config.SMSWebhookURL = "https://sms.example.com/hook"
		if base := contentOK[map[string]any](t, contentPost(t, s, "/getBaseData", ``, "")); base["smsEnabled"] != true {
			t.Fatalf("with KJ_SMS_WEBHOOK_URL smsEnabled = %v", base["smsEnabled"])
		}
		s.Config.SMSWebhookURL = ""
		contentOK[any](t, contentPost(t, s, "/admin/settings/save", `{"serviceWelcome":"Hello, how can we help?","splashImage":"/files/demo/splash.png","splashSeconds":3}`, opTok.Token))
		contentOK[any](t, contentPost(t, s, "/admin/video/limit", `{"limit":5}`, opTok.Token))
		base = contentOK[map[string]any](t, contentPost(t, s, "/getBaseData", ``, ""))
		if base["customerService"].(map[string]any)["welcome"] != "Hello, how can we help?" || base["limits"].(map[string]any)["videoDailyLimit"] != 5.0 ||
			base["defaultLanguage"] != "zh-CN" {
			t.Fatalf("base data after settings: %v", base)
		}
		splash := contentOK[map[string]any](t, contentPost(t, s, "/onloadImg", ``, ""))
		if splash["image"] != "/files/demo/splash.png" || splash["seconds"] != 3.0 {
			t.Fatalf("splash: %v", splash)
		}
		// The operator's default language (a save of the settings form
		// replaces the rest of it too): one of the six, else refused and
		// nothing changed.
		contentFails(t, contentPost(t, s, "/admin/settings/save", `{"defaultLanguage":"fr-FR"}`, opTok.Token), apierr.CodeInvalid)
		if base := contentOK[map[string]any](t, contentPost(t, s, "/getBaseData", ``, "")); base["defaultLanguage"] != "zh-CN" {
			t.Fatalf("a refused default language changed it: %v", base["defaultLanguage"])
		}
		contentOK[any](t, contentPost(t, s, "/admin/settings/save", `{"defaultLanguage":"en-US"}`, opTok.Token))
		if base := contentOK[map[string]any](t, contentPost(t, s, "/getBaseData", ``, "")); base["defaultLanguage"] != "en-US" {
			t.Fatalf("operator's default language: %v", base["defaultLanguage"])
		}

		// Home data: carousel, videos without addresses, cities, notice badge.
		contentOK[any](t, contentPost(t, s, "/admin/banner/save", `{"title":"Spring","image":"/files/b1.png","sort":2}`, opTok.Token))
		contentOK[any](t, contentPost(t, s, "/admin/banner/save", `{"title":"Hidden","image":"/files/b2.png","enabled":0}`, opTok.Token))
		contentOK[any](t, contentPost(t, s, "/admin/video/save", `{"kind":"find","title":"Harbour","url":"/files/v.mp4","cover":"/files/c.png","duration":12}`, opTok.Token))
		contentOK[any](t, contentPost(t, s, "/admin/notice/publish", `{"title":"Welcome","content":"Hello"}`, opTok.Token))
		type home struct {
			Carousel []bannerView `json:"carousel"`
			Videos   []videoView  `json:"videos"`
			Cities   []cityView   `json:"cities"`
			Notice   struct {
				Latest *noticeView `json:"latest"`
				Unread int         `json:"unread"`
			} `json:"notice"`
		}
		h := contentOK[home](t, contentPost(t, s, "/getHomeData", ``, tok.Token))
		if len(h.Carousel) != 1 || h.Carousel[0].Title != "Spring" || len(h.Videos) != 1 || h.Videos[0].URL != "" ||
			h.Notice.Latest == nil || h.Notice.Latest.Title != "Welcome" || h.Notice.Unread != 1 || h.Cities == nil {
			t.Fatalf("home: %+v", h)
		}
		if anon := contentOK[home](t, contentPost(t, s, "/getHomeData", ``, "")); anon.Notice.Unread != 0 || len(anon.Carousel) != 1 {
			t.Fatalf("anonymous home: %+v", anon)
		}
		contentFails(t, contentPost(t, s, "/getHomeData", ``, "not-a-token"), apierr.CodeTokenExpired)

		dicts := contentOK[map[string][]dictEntry](t, call(t, s.Handler(), "POST", "/api/dictMaps", "", "Accept-Language", "zh-CN"))
		if dicts["betContent"][0] != (dictEntry{"BIG", "大"}) || len(dicts["dayFilter"]) != 4 || dicts["dayFilter"][1].Label != "近 7 天" ||
			dicts["languages"][5].Label != "繁體中文" || dicts["recordStatus"][1].Label != "审核中" {
			t.Fatalf("dicts: %v", dicts)
		}

		type manifest = storage.UpdateManifest
		if m := contentOK[manifest](t, contentPost(t, s, "/resource/download", ``, "")); m.Package.Normal.Version != "" {
			t.Fatalf("unconfigured manifest offers %+v", m)
		}
		body := `{"package":{"normal":{"version":"1.3.230281760","path":"https://dl.example.com/kj.apk","remark":"Faster chat"},
			"force":{"version":"1.3.0","path":"https://dl.example.com/kj-1.3.0.apk"}},"resource":{"version":"14","path":"/files/res-14.wgt"}}`
		contentOK[any](t, contentPost(t, s, "/admin/manifest/save", body, opTok.Token))
		m := contentOK[manifest](t, contentPost(t, s, "/resource/download", ``, ""))
		if m.Package.Normal.Remark != "Faster chat" || m.Package.Force.Version != "1.3.0" || m.Resource.Path != "/files/res-14.wgt" {
			t.Fatalf("manifest: %+v", m)
		}
		contentFails(t, contentPost(t, s, "/admin/manifest/save", `{"package":{"normal":{"version":"1.2"},"force":{"version":"1.3","path":"/files/a"}}}`, opTok.Token), apierr.CodeRequired)
		contentFails(t, contentPost(t, s, "/admin/manifest/save", `{"package":{"normal":{"version":"1.2","path":"/a"},"force":{"version":"1.3","path":"/files/a"}}}`, opTok.Token), apierr.CodeManifestOrder)
		contentFails(t, contentPost(t, s, "/admin/manifest/save", `{"package":{"normal":{"version":"one","path":"/a"}}}`, opTok.Token), apierr.CodeInvalid)
		if again := contentOK[manifest](t, contentPost(t, s, "/resource/download", ``, "")); again != m {
			t.Fatalf("a refused manifest changed the stored one: %+v", again)
		}
	})
}

func TestBeaconCountsAndLimits(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, c := testServer(t, db)
		_, opTok := contentOperator(t, s, "oper")
		for i := 1; i <= 3; i++ {
			got := contentOK[map[string]any](t, contentPost(t, s, "/zztj", `{"event":"page"}`, ""))
			if got["count"] != float64(i) || got["day"] != 20260301.0 {
				t.Fatalf("beacon %d: %v", i, got)
			}
		}
		contentOK[any](t, contentPost(t, s, "/zztj", ``, ""))
		contentFails(t, contentPost(t, s, "/zztj", `{"event":"hack"}`, ""), apierr.CodeInvalid)
		c.Advance(24 * time.Hour)
		opTok = contentSignIn(t, s, opTok.UserID)
		contentOK[any](t, contentPost(t, s, "/zztj", `{"event":"page"}`, ""))
		stats := contentOK[struct {
			List []struct {
				Day   int    `json:"day"`
				Event string `json:"event"`
				Count int    `json:"count"`
			} `json:"list"`
		}](t, contentPost(t, s, "/admin/stats/list", `{"days":2}`, opTok.Token))
		want := fmt.Sprint([]any{20260302, "page", 1, 20260301, "launch", 1, 20260301, "page", 3})
		var got []any
		for _, st := range stats.List {
			got = append(got, st.Day, st.Event, st.Count)
		}
		if fmt.Sprint(got) != want {
			t.Fatalf("stats = %v, want %v", got, want)
		}
		// One client address may send beaconPerMinute events a minute.
		for range beaconPerMinute - 1 {
			contentPost(t, s, "/zztj", `{"event":"share"}`, "")
		}
		contentFails(t, contentPost(t, s, "/zztj", `{"event":"share"}`, ""), apierr.CodeRateLimited, 429)
		c.Advance(time.Minute)
		contentOK[any](t, contentPost(t, s, "/zztj", `{"event":"share"}`, ""))
	})
}

// contentSignIn opens a fresh session for userID (after the fake clock
// outran the old token).
func contentSignIn(t *testing.T, s *Server, userID string) auth.Tokens {
	t.Helper()
	var id int64
	fmt.Sscan(userID, &id)
	var tok auth.Tokens
	err := s.DB.Tx(context.Background(), func(tx storage.Tx) error {
		var err error
		tok, _, err = s.Sessions.SignIn(context.Background(), tx, id, 5)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestVideoListsAndPaging(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		_, opTok := contentOperator(t, s, "oper")
		for i := range 12 {
			contentOK[any](t, contentPost(t, s, "/admin/video/save", fmt.Sprintf(`{"kind":"find","title":"F%02d","url":"/files/f%d.mp4","sort":%d}`, i, i, i), opTok.Token))
		}
		allowContentHosts(t, s, "https://v.example.com")
		contentOK[any](t, contentPost(t, s, "/admin/video/save", `{"kind":"passionate","title":"P","url":"https://v.example.com/p.mp4","chatUserId":"`+opTok.UserID+`"}`, opTok.Token))
		type page = contentList[videoView]
		p1 := contentOK[page](t, contentPost(t, s, "/getFindVideo", `{"page":1,"pageSize":5}`, ""))
		if p1.Total != 12 || p1.Pages != 3 || len(p1.List) != 5 || p1.List[0].Title != "F00" || p1.List[0].URL != "" {
			t.Fatalf("page 1: %+v", p1)
		}
		p3 := contentOK[page](t, contentPost(t, s, "/getFindVideo", `{"page":3,"pageSize":5}`, ""))
		if len(p3.List) != 2 || p3.List[1].Title != "F11" {
			t.Fatalf("page 3: %+v", p3)
		}
		contentFails(t, contentPost(t, s, "/getFindVideo", `{"page":4,"pageSize":5}`, ""), apierr.CodePageOutOfRange)
		contentFails(t, contentPost(t, s, "/getFindVideo", `{"page":-1}`, ""), apierr.CodeInvalid)
		contentFails(t, contentPost(t, s, "/getFindVideo", `{"pageSize":500}`, ""), apierr.CodeInvalid)
		contentFails(t, contentPost(t, s, "/getFindVideo", `{"page":"two"}`, ""), apierr.CodeBadRequest)
		pp := contentOK[page](t, contentPost(t, s, "/getPassionateVideo", ``, ""))
		if pp.Total != 1 || pp.List[0].URL != "https://v.example.com/p.mp4" || fmt.Sprint(int64(pp.List[0].ChatUserID)) != opTok.UserID {
			t.Fatalf("live highlights: %+v", pp)
		}
		if e := contentOK[page](t, contentPost(t, s, "/getPassionateVideo", `{"page":1}`, "")); e.Total != 1 {
			t.Fatal(e)
		}
		if banners := contentOK[[]bannerView](t, contentPost(t, s, "/indexCarousel", ``, "")); len(banners) != 0 {
			t.Fatalf("no banners yet: %+v", banners)
		}
	})
}

// videoLimitCase watches videos as a non-activated user across a day
// boundary; the count lives in the store or in Redis.
func videoLimitCase(t *testing.T, s *Server, c *clock.Fake) int64 {
	c.Set(time.Date(2026, 3, 1, 23, 0, 0, 0, time.UTC))
	_, opTok := contentOperator(t, s, "oper")
	var ids []string
	for i := range 3 {
		v := contentOK[adminVideo](t, contentPost(t, s, "/admin/video/save", fmt.Sprintf(`{"kind":"find","title":"V%d","url":"/files/v%d.mp4"}`, i, i), opTok.Token))
		ids = append(ids, fmt.Sprint(int64(v.ID)))
	}
	passionate := contentOK[adminVideo](t, contentPost(t, s, "/admin/video/save", `{"kind":"passionate","title":"P","url":"/files/p.mp4"}`, opTok.Token))
	contentOK[any](t, contentPost(t, s, "/admin/video/limit", `{"limit":2}`, opTok.Token))

	c.Set(time.Date(2026, 3, 1, 23, 30, 0, 0, time.UTC))
	u, tok := newUser(t, s, "viewer")
	watch := func(id string) reply {
		return contentPost(t, s, "/user/checkVideoCount", `{"videoId":"`+id+`"}`, tok.Token)
	}

	st := contentOK[videoCountView](t, contentPost(t, s, "/user/checkVideoCount", ``, tok.Token))
	if st.Unlimited || st.Limit != 2 || st.Used != 0 || st.Remaining != 2 || st.Counted {
		t.Fatalf("status before watching: %+v", st)
	}
	w1 := contentOK[videoCountView](t, watch(ids[0]))
	if !w1.Counted || w1.Used != 1 || w1.Remaining != 1 || w1.Video == nil || w1.Video.URL != "/files/v0.mp4" {
		t.Fatalf("first view: %+v", w1)
	}
	contentOK[videoCountView](t, watch(ids[1]))
	r := watch(ids[2])
	contentFails(t, r, apierr.CodeVideoLimit)
	if !strings.Contains(r.Message, "contact customer service") || !strings.Contains(r.Message, "2") {
		t.Fatalf("limit message: %q", r.Message)
	}
	zh := call(t, s.Handler(), "POST", "/api/user/checkVideoCount", `{"videoId":"`+ids[2]+`"}`, "token", tok.Token)
	if !strings.Contains(zh.Message, "联系客服") {
		t.Fatalf("zh-CN limit message: %q", zh.Message)
	}
	if st := contentOK[videoCountView](t, contentPost(t, s, "/user/checkVideoCount", ``, tok.Token)); st.Used != 2 || st.Remaining != 0 {
		t.Fatalf("refused views must not count: %+v", st)
	}
	contentFails(t, watch(fmt.Sprint(int64(passionate.ID))), apierr.CodeNotFound)
	contentFails(t, watch("12345"), apierr.CodeNotFound)

	c.Advance(29 * time.Minute) // 23:59, same day
	contentFails(t, watch(ids[0]), apierr.CodeVideoLimit)
	c.Advance(time.Minute) // midnight in the configured zone (UTC)
	if w := contentOK[videoCountView](t, watch(ids[2])); w.Used != 1 || !w.Counted {
		t.Fatalf("new day: %+v", w)
	}

	// Raising the limit applies at once; activation lifts it.
	contentOK[any](t, contentPost(t, s, "/admin/video/limit", `{"limit":1}`, opTok.Token))
	contentFails(t, watch(ids[0]), apierr.CodeVideoLimit)
	if err := storage.UpdateUserFields(context.Background(), s.DB, u.ID, 1, map[string]any{"is_activation": 1}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if w := contentOK[videoCountView](t, watch(ids[1])); !w.Unlimited || w.IsActivation != 1 || w.Video == nil {
			t.Fatalf("activated: %+v", w)
		}
	}
	contentFails(t, contentPost(t, s, "/user/checkVideoCount", ``, ""), apierr.CodeTokenExpired)
	return u.ID
}

func TestVideoLimitOverADayBoundary(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, c := testServer(t, db)
		id := videoLimitCase(t, s, c)
		if n, _ := storage.VideoViews(context.Background(), db, id, 20260301); n != 2 {
			t.Fatalf("store holds %d views for the first day", n)
		}
	})
}

func TestVideoLimitInRedis(t *testing.T) {
	t.Parallel()
	s, c := testServer(t, storagetest.Postgres(t))
	rdb, prefix := testenv.Redis(t)
	s.Config.RedisURL = testenv.RedisURL()
	s.Counters = counter.NewRedis(rdb, prefix)
	id := videoLimitCase(t, s, c)
	keys, err := rdb.Keys(context.Background(), prefix+"video:*").Result()
	if err != nil || len(keys) != 2 {
		t.Fatalf("want one Redis count per day, got %v %v", keys, err)
	}
	if n, _ := storage.VideoViews(context.Background(), s.DB, id, 20260301); n != 0 {
		t.Fatalf("with Redis configured the store counted too: %d", n)
	}
}

func TestVideoDayFollowsTheConfiguredZone(t *testing.T) {
	t.Parallel()
	s, c := testServer(t, storagetest.SQLite(t))
	zone, _ := time.LoadLocation("Asia/Shanghai")
	s.Config.DayZone = zone
	_, opTok := contentOperator(t, s, "oper")
	v := contentOK[adminVideo](t, contentPost(t, s, "/admin/video/save", `{"kind":"find","title":"V","url":"/files/v.mp4"}`, opTok.Token))
	contentOK[any](t, contentPost(t, s, "/admin/video/limit", `{"limit":1}`, opTok.Token))
	c.Set(time.Date(2026, 3, 1, 15, 30, 0, 0, time.UTC)) // 23:30 in Shanghai
	_, tok := newUser(t, s, "viewer")
	body := fmt.Sprintf(`{"videoId":"%d"}`, int64(v.ID))
	contentOK[any](t, contentPost(t, s, "/user/checkVideoCount", body, tok.Token))
	contentFails(t, contentPost(t, s, "/user/checkVideoCount", body, tok.Token), apierr.CodeVideoLimit)
	c.Advance(30 * time.Minute) // 16:00 UTC is midnight in Shanghai
	contentOK[any](t, contentPost(t, s, "/user/checkVideoCount", body, tok.Token))
}

func TestSameCity(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		_, opTok := contentOperator(t, s, "oper")
		lisbon := contentOK[adminCity](t, contentPost(t, s, "/admin/city/save", `{"name":"Lisbon","sort":1}`, opTok.Token))
		contentOK[any](t, contentPost(t, s, "/admin/city/save", `{"name":"Closed","enabled":0}`, opTok.Token))
		for i := range 3 {
			contentOK[any](t, contentPost(t, s, "/admin/listing/save", fmt.Sprintf(`{"cityId":"%d","name":"Ana %d","age":%d,"photos":["/files/demo/p%d.png"],
				"certified":1,"depositPaid":%d,"contact":"wechat:ana%d","intro":"Likes the sea"}`, int64(lisbon.ID), i, 21+i, i, i%2, i), opTok.Token))
		}
		cities := contentOK[[]cityView](t, contentPost(t, s, "/getCityList", ``, ""))
		if len(cities) != 1 || cities[0].Name != "Lisbon" || cities[0].Count != 3 {
			t.Fatalf("cities: %+v", cities)
		}
		for _, city := range []string{`"Lisbon"`, fmt.Sprintf(`"%d"`, int64(lisbon.ID)), fmt.Sprint(int64(lisbon.ID))} {
			r := contentPost(t, s, "/sameCityList", `{"city":`+city+`,"page":1,"pageSize":2}`, "")
			if strings.Contains(string(r.Data), "wechat") || strings.Contains(string(r.Data), "contact") {
				t.Fatalf("contact details reached a user: %s", r.Data)
			}
			p := contentOK[contentList[listingView]](t, r)
			if p.Total != 3 || len(p.List) != 2 || p.List[0].City != "Lisbon" || p.List[0].Certified != 1 || len(p.List[0].Photos) != 1 || p.List[0].Age < 18 {
				t.Fatalf("listings by %s: %+v", city, p)
			}
		}
		contentFails(t, contentPost(t, s, "/sameCityList", `{"city":"Atlantis"}`, ""), apierr.CodeCityUnknown)
		contentFails(t, contentPost(t, s, "/sameCityList", `{"city":"Closed"}`, ""), apierr.CodeCityUnknown)
		contentFails(t, contentPost(t, s, "/sameCityList", `{"city":"999"}`, ""), apierr.CodeCityUnknown)
		contentFails(t, contentPost(t, s, "/sameCityList", `{}`, ""), apierr.CodeRequired)
		contentFails(t, contentPost(t, s, "/sameCityList", `{"city":"Lisbon","page":3,"pageSize":2}`, ""), apierr.CodePageOutOfRange)
		contentFails(t, contentPost(t, s, "/sameCityList", `{"city":["Lisbon"]}`, ""), apierr.CodeBadRequest)

		// Operators see the contact; ages under 18 never get in.
		admin := contentOK[contentList[adminListing]](t, contentPost(t, s, "/admin/listing/list", `{"city":"Lisbon"}`, opTok.Token))
		if admin.Total != 3 || !strings.HasPrefix(admin.List[0].Contact, "wechat:") {
			t.Fatalf("operator listings: %+v", admin)
		}
		before := admin.Total
		contentFails(t, contentPost(t, s, "/admin/listing/save", fmt.Sprintf(`{"cityId":"%d","name":"Kid","age":17}`, int64(lisbon.ID)), opTok.Token), apierr.CodeListingUnderAge)
		contentFails(t, contentPost(t, s, "/admin/listing/save", `{"cityId":"12345","name":"Nowhere","age":30}`, opTok.Token), apierr.CodeCityUnknown)
		contentFails(t, contentPost(t, s, "/admin/listing/save", fmt.Sprintf(`{"cityId":"%d","name":"X","age":30,"photos":["javascript:alert(1)"]}`, int64(lisbon.ID)), opTok.Token), apierr.CodeInvalid)
		contentFails(t, contentPost(t, s, "/admin/city/delete", fmt.Sprintf(`{"id":"%d"}`, int64(lisbon.ID)), opTok.Token), apierr.CodeCityInUse)
		contentFails(t, contentPost(t, s, "/admin/city/save", `{"name":"Lisbon"}`, opTok.Token), apierr.CodeCityNameTaken)
		if n, _ := storage.CountListings(context.Background(), db, 0, false); n != before {
			t.Fatalf("refused saves wrote listings: %d", n)
		}
		edited := admin.List[0]
		edited.Age = 16
		b, _ := json.Marshal(edited)
		contentFails(t, contentPost(t, s, "/admin/listing/save", string(b), opTok.Token), apierr.CodeListingUnderAge)
		if l, _ := storage.ListingByID(context.Background(), db, int64(edited.ID)); l.Age < 18 {
			t.Fatalf("refused edit changed the age: %+v", l)
		}
	})
}

func TestUploadContacts(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		u, tok := newUser(t, s, "amy")
		got := contentOK[map[string]any](t, contentPost(t, s, "/uploadContacts", `{"contacts":[{"name":"Mum","phone":"+351 912 345 678"},{"phone":"(21) 555-0100"}]}`, tok.Token))
		if got["count"] != 2.0 {
			t.Fatalf("upload: %v", got)
		}
		stored, _, _ := storage.ContactsOf(context.Background(), db, u.ID)
		if len(stored) != 2 || stored[0].Name != "Mum" {
			t.Fatalf("stored: %+v", stored)
		}
		many := make([]string, contactsMax+1)
		for i := range many {
			many[i] = fmt.Sprintf(`{"name":"n%d","phone":"%d"}`, i, 1000+i)
		}
		contentFails(t, contentPost(t, s, "/uploadContacts", `{"contacts":[`+strings.Join(many, ",")+`]}`, tok.Token), apierr.CodeContactsTooMany)
		contentFails(t, contentPost(t, s, "/uploadContacts", `{"contacts":[{"name":"x","phone":"call me"}]}`, tok.Token), apierr.CodeInvalid)
		contentFails(t, contentPost(t, s, "/uploadContacts", `{"contacts":[{"name":"x"}]}`, tok.Token), apierr.CodeRequired)
		contentFails(t, contentPost(t, s, "/uploadContacts", `{"contacts":[{"name":"`+strings.Repeat("n", 65)+`","phone":"1"}]}`, tok.Token), apierr.CodeInvalid)
		contentFails(t, contentPost(t, s, "/uploadContacts", `{}`, tok.Token), apierr.CodeRequired)
		contentFails(t, contentPost(t, s, "/uploadContacts", `{"contacts":[{"name":"`+strings.Repeat("n", MaxBody)+`"}]}`, tok.Token), apierr.CodeTooLarge, 413)
		contentFails(t, contentPost(t, s, "/uploadContacts", `{"contacts":[]}`, ""), apierr.CodeTokenExpired)
		if again, _, _ := storage.ContactsOf(context.Background(), db, u.ID); len(again) != 2 {
			t.Fatalf("refused uploads changed the stored book: %+v", again)
		}
		_, other := newUser(t, s, "bob")
		contentOK[any](t, contentPost(t, s, "/uploadContacts", `{"contacts":[]}`, other.Token))
		if mine, _, _ := storage.ContactsOf(context.Background(), db, u.ID); len(mine) != 2 {
			t.Fatal("another user's upload touched this book")
		}
	})
}

// The rounds area adds its windows summary to the home data this way.
var addTestHomeSection = sync.OnceFunc(func() {
	AddHomeSection("contentTestSection", func(c *Call) (any, error) {
		if c.User.ID == 0 {
			return "anonymous", nil
		}
		return "signed in as " + c.User.Account, nil
	})
})

// Not parallel: it adds to the package's homeSections, which the other
// tests' /getHomeData read.
func TestHomeSectionsFromOtherAreas(t *testing.T) {
	addTestHomeSection()
	s, _ := testServer(t, storagetest.SQLite(t))
	_, tok := newUser(t, s, "amy")
	if h := contentOK[map[string]any](t, contentPost(t, s, "/getHomeData", ``, tok.Token)); h["contentTestSection"] != "signed in as amy" {
		t.Fatalf("home with a section: %v", h)
	}
	if h := contentOK[map[string]any](t, contentPost(t, s, "/getHomeData", ``, "")); h["contentTestSection"] != "anonymous" {
		t.Fatalf("anonymous home with a section: %v", h)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a section named like a content part must be refused")
		}
	}()
	AddHomeSection("carousel", nil)
}
