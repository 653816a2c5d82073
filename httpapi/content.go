package httpapi

// Content routes the app calls: app start (domain info, base data, home
// data, dictionaries, splash image, statistics beacon, update manifest),
// discover (carousel, videos, the daily video limit), same city, and the
// address-book upload. Operators manage all of it in admin_content.go.

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"kj/customer"
	"kj/internal/apierr"
	"kj/storage"
)

func init() {
	registerArea(func(s *Server) {
		s.Post("/getDomainInfo", Open, s.getDomainInfo)
		s.Post("/getBaseData", Open, s.getBaseData)
		s.Post("/getHomeData", Open, s.getHomeData)
		s.Post("/dictMaps", Open, s.dictMaps)
		s.Post("/onloadImg", Open, s.onloadImg)
		s.Post("/zztj", Open, s.zztj)
		s.Post("/resource/download", Open, s.resourceDownload)
		s.Post("/indexCarousel", Open, s.indexCarousel)
		s.Post("/getFindVideo", Open, s.getFindVideo)
		s.Post("/getPassionateVideo", Open, s.getPassionateVideo)
		s.Post("/user/checkVideoCount", User, s.checkVideoCount)
		s.Post("/getCityList", Open, s.getCityList)
		s.Post("/sameCityList", Open, s.sameCityList)
		s.Post("/uploadContacts", User, s.uploadContacts)
	})
}

// Limits of the content routes (docs/API.md).
const (
	contactsMax     = 2000 // entries per uploaded address book
	beaconPerMinute = 120  // /zztj events per client address and minute
	homeVideos      = 4    // discover videos shown on the home data
	listingMinAge   = 18
)

// contentAppSettings loads the operator's app settings (zero when unset).
func (s *Server) contentAppSettings(ctx context.Context) (storage.AppSettings, error) {
	var a storage.AppSettings
	_, err := s.setting(ctx, storage.SettingApp, &a)
	return a, err
}

// contentVideoLimit is the operator's daily video limit, else KJ_VIDEO_DAILY_LIMIT.
func (s *Server) contentVideoLimit(ctx context.Context) (int, error) {
	limit := s.Config.VideoDailyLimit
	_, err := s.setting(ctx, storage.SettingVideoLimit, &limit)
	return limit, err
}

// ---- app start ----

type domainInfoView struct {
	Domain     string `json:"domain"`
	Configured bool   `json:"configured"`
	PlatformID int64  `json:"platformId"`
	PackageID  int64  `json:"packageId"`
	AppName    string `json:"appName"`
	OssURL     string `json:"ossUrl"`
}

// normalizeDomain reduces what a client sends (a host, host:port or a whole
// URL) to the lower-case host name entries are keyed by.
func normalizeDomain(v string) (string, bool) {
	v = strings.ToLower(strings.TrimSpace(v))
	if i := strings.Index(v, "://"); i >= 0 {
		v = v[i+3:]
	}
	if i := strings.IndexAny(v, "/?#"); i >= 0 {
		v = v[:i]
	}
	if i := strings.LastIndex(v, "@"); i >= 0 {
		v = v[i+1:]
	}
	if strings.HasPrefix(v, "[") { // [::1]:8080
		end := strings.Index(v, "]")
		if end < 0 {
			return "", false
		}
		return v[1:end], net.ParseIP(v[1:end]) != nil
	}
	if host, _, err := net.SplitHostPort(v); err == nil {
		v = host
	}
	v = strings.TrimSuffix(v, ".")
	if v == "" || len(v) > 253 {
		return "", false
	}
	for _, r := range v {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '-') {
			return "", false
		}
	}
	return v, true
}

func (s *Server) getDomainInfo(c *Call) (any, error) {
	var req struct {
		Domain string `json:"domain"`
		Type   string `json:"type"`
		Param  string `json:"param"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	switch req.Type {
	case "", "h5", "android", "ios", "pc":
	default:
		return nil, apierr.Invalid("type")
	}
	if req.Domain == "" {
		req.Domain = c.R.Host
	}
	domain, ok := normalizeDomain(req.Domain)
	if !ok {
		return nil, apierr.Invalid("domain")
	}
	app, err := s.contentAppSettings(c.Ctx)
	if err != nil {
		return nil, err
	}
	out := domainInfoView{Domain: domain, PlatformID: s.Config.PlatformID, PackageID: s.Config.PackageID,
		AppName: cmp.Or(app.AppName, s.Config.AppName), OssURL: app.OssURL}
	d, err := storage.DomainByName(c.Ctx, s.DB, domain)
	switch {
	case err == nil:
		out.Configured, out.PlatformID, out.PackageID = true, d.PlatformID, d.PackageID
		out.AppName, out.OssURL = cmp.Or(d.AppName, out.AppName), cmp.Or(d.OssURL, out.OssURL)
	case !errors.Is(err, storage.ErrNotFound):
		return nil, err
	}
	return out, nil
}

func (s *Server) getBaseData(c *Call) (any, error) {
	app, err := s.contentAppSettings(c.Ctx)
	if err != nil {
		return nil, err
	}
	limit, err := s.contentVideoLimit(c.Ctx)
	if err != nil {
		return nil, err
	}
	agents, err := s.reads.Agents(c.Ctx)
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"appName":         cmp.Or(app.AppName, s.Config.AppName),
		"ossUrl":          app.OssURL,
		"platformId":      s.Config.PlatformID,
		"packageId":       s.Config.PackageID,
		"languages":       apierr.Langs,
		"defaultLanguage": cmp.Or(app.DefaultLanguage, apierr.DefaultLang),
		"serverTime":      s.Clock.Now().UnixMilli(),
		// Without an SMS gateway the codes only reach the server log: the
		// app offers customer service for a lost password instead.
		"smsEnabled": s.Config.SMSWebhookURL != "",
		// Where the app asks for the alternative API hosts (/api/lines)
		// should this host stop answering.
		"lineListUrls": append([]string{}, s.Config.LineListURLs...),
		"combineId":    s.Config.CombineID,
		"customerService": map[string]any{
			"page":    "/pages/customer/customer",
			"init":    "/api/customer/init",
			"socket":  "/ws/customer",
			"welcome": customer.Welcome(app, c.Lang),
			"agents":  agents,
			// The id players know the service by, whoever answers.
			"serviceId": strconv.FormatInt(customer.PublicServiceID, 10),
		},
		// Spec section 5 and 9 bounds the app validates before sending,
		// and the content area's own caps.
		"limits": map[string]any{
			"phoneMin": 6, "phoneMax": 11, "nicknameMax": 10, "passwordMin": 6, "passwordMax": 20,
			"fundPasswordLength": 6, "smsCodeLength": 6,
			"videoDailyLimit": limit, "contactsMax": contactsMax, "customerMessageMax": customerMaxLength,
		},
	}, nil
}

// homeSections are parts other areas add to /getHomeData (the rounds area
// adds its windows summary), by name.
var homeSections = map[string]Handler{}

// AddHomeSection adds a named part to /getHomeData, computed on every call
// (c.User is set when the caller sent a valid token). Call it from init.
func AddHomeSection(name string, f Handler) {
	switch name {
	case "carousel", "videos", "notice", "cities":
		panic("httpapi: home section name is taken by the content area: " + name)
	}
	if _, dup := homeSections[name]; dup {
		panic("httpapi: home section added twice: " + name)
	}
	homeSections[name] = f
}

func (s *Server) getHomeData(c *Call) (any, error) {
	signedIn, err := contentViewer(c)
	if err != nil {
		return nil, err
	}
	banners, err := storage.ListBanners(c.Ctx, s.DB, true)
	if err != nil {
		return nil, err
	}
	videos, err := storage.ListVideos(c.Ctx, s.DB, storage.VideoFind, true, homeVideos, 0)
	if err != nil {
		return nil, err
	}
	cities, err := storage.ListCities(c.Ctx, s.DB, true)
	if err != nil {
		return nil, err
	}
	latest, err := storage.ListNotices(c.Ctx, s.DB, 1, 0)
	if err != nil {
		return nil, err
	}
	notice := map[string]any{"latest": nil, "unread": 0}
	if len(latest) == 1 {
		n := latest[0]
		notice["latest"] = noticeView{ID: contentID(n.ID), Title: n.Texts.Text(c.Lang, "title", n.Title), CreatedAt: n.CreatedAt}
	}
	if signedIn {
		n, err := storage.UnreadNotices(c.Ctx, s.DB, c.User.ID)
		if err != nil {
			return nil, err
		}
		notice["unread"] = n
	}
	out := map[string]any{
		"carousel": contentMap(banners, bannerViewIn(c.Lang)),
		"videos":   contentMap(videos, videoViewIn(c.Lang)),
		"cities":   contentMap(cities, cityViewIn(c.Lang)),
		"notice":   notice,
	}
	for name, f := range homeSections {
		v, err := f(c)
		if err != nil {
			return nil, err
		}
		out[name] = v
	}
	return out, nil
}

func contentMap[T, V any](in []T, f func(T) V) []V {
	out := make([]V, 0, len(in))
	for _, v := range in {
		out = append(out, f(v))
	}
	return out
}

type dictEntry struct {
	Value any    `json:"value"`
	Label string `json:"label"`
}

// dictMaps are the product's fixed dictionaries (bet contents, match and
// record states, filters, languages, video kinds)
// with labels in the caller's language, so every screen names values alike.
func (s *Server) dictMaps(c *Call) (any, error) {
	l := func(key string, kv ...any) string {
		args := map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			args[kv[i].(string)] = kv[i+1]
		}
		return apierr.Translate(c.Lang, key, args)
	}
	days := []dictEntry{{0, l("content.dict.today")}}
	for _, n := range []int{7, 15, 30} {
		days = append(days, dictEntry{n, l("content.dict.days", "n", n)})
	}
	langs := make([]dictEntry, 0, len(apierr.Langs))
	for _, lang := range apierr.Langs {
		langs = append(langs, dictEntry{lang, apierr.Translate(lang, "content.dict.language", nil)})
	}
	return map[string]any{
		"betContent": []dictEntry{
			{"BIG", l("content.dict.big")}, {"SMALL", l("content.dict.small")},
			{"SINGLE", l("content.dict.single")}, {"DOUBLE", l("content.dict.double")},
		},
		"matchStatus":   []dictEntry{{"", l("content.dict.all")}, {0, l("content.dict.unmatched")}, {1, l("content.dict.matched")}},
		"pointsFilter":  []dictEntry{{"", l("content.dict.all")}, {"income", l("content.dict.income")}, {"expenditure", l("content.dict.expenditure")}},
		"recordStatus":  []dictEntry{{"", l("content.dict.all")}, {0, l("content.dict.review")}, {1, l("content.dict.success")}, {2, l("content.dict.failed")}},
		"accountStatus": []dictEntry{{0, l("content.dict.inactive")}, {1, l("content.dict.active")}},
		"dayFilter":     days,
		"languages":     langs,
		"videoKind":     []dictEntry{{storage.VideoFind, l("content.dict.find")}, {storage.VideoPassionate, l("content.dict.passionate")}},
	}, nil
}

func (s *Server) onloadImg(c *Call) (any, error) {
	app, err := s.contentAppSettings(c.Ctx)
	if err != nil {
		return nil, err
	}
	return map[string]any{"image": app.SplashImage, "link": app.SplashLink, "seconds": app.SplashSeconds}, nil
}

// beaconEvents are the events /zztj counts.
var beaconEvents = []string{"launch", "page", "video", "download", "share", "register", "customer"}

// zztj is the statistics beacon: it counts one event for today and answers
// today's count of that event. Operators read the counts with
// /admin/stats/list. Each client address may send beaconPerMinute a minute.
func (s *Server) zztj(c *Call) (any, error) {
	var req struct {
		Event string `json:"event"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.Event == "" {
		req.Event = "launch"
	}
	if !slices.Contains(beaconEvents, req.Event) {
		return nil, apierr.Invalid("event")
	}
	host, _, err := net.SplitHostPort(c.R.RemoteAddr)
	if err != nil {
		host = c.R.RemoteAddr
	}
	n, err := s.Counters.Incr(c.Ctx, "zztj:"+host, 1, time.Minute)
	if err != nil {
		return nil, err
	}
	if n > beaconPerMinute {
		return nil, apierr.Fail(apierr.CodeRateLimited, "rate.limited").WithStatus(http.StatusTooManyRequests)
	}
	day, _ := s.contentDay(s.Clock.Now())
	count, err := storage.AddStat(c.Ctx, s.DB, day, req.Event)
	if err != nil {
		return nil, err
	}
	return map[string]any{"event": req.Event, "day": day, "count": count}, nil
}

func (s *Server) resourceDownload(c *Call) (any, error) {
	var m storage.UpdateManifest
	if _, err := s.setting(c.Ctx, storage.SettingManifest, &m); err != nil {
		return nil, err
	}
	return m, nil
}

// ---- discover ----

type bannerView struct {
	ID    contentID `json:"id"`
	Title string    `json:"title"`
	Image string    `json:"image"`
	Link  string    `json:"link"`
	Sort  int       `json:"sort"`
}

// bannerViewIn shows banners in lang (the request's language); a text the
// operator gave no translation for is in the default language. The other
// views of this file do the same.
func bannerViewIn(lang string) func(storage.Banner) bannerView {
	return func(b storage.Banner) bannerView {
		return bannerView{ID: contentID(b.ID), Title: b.Texts.Text(lang, "title", b.Title), Image: b.Image, Link: b.Link, Sort: b.Sort}
	}
}

func (s *Server) indexCarousel(c *Call) (any, error) {
	banners, err := storage.ListBanners(c.Ctx, s.DB, true)
	if err != nil {
		return nil, err
	}
	return contentMap(banners, bannerViewIn(c.Lang)), nil
}

// videoView is a video in a list. URL is empty for discover videos: their
// address comes from /user/checkVideoCount, which counts the view.
type videoView struct {
	ID         contentID `json:"id"`
	Kind       string    `json:"kind"`
	Title      string    `json:"title"`
	Cover      string    `json:"cover"`
	URL        string    `json:"url,omitempty"`
	Duration   int       `json:"duration"`
	ChatUserID contentID `json:"chatUserId"`
	CreatedAt  int64     `json:"createdAt"`
}

func videoViewIn(lang string) func(storage.Video) videoView {
	return func(v storage.Video) videoView {
		out := videoView{ID: contentID(v.ID), Kind: v.Kind, Title: v.Texts.Text(lang, "title", v.Title), Cover: v.Cover,
			Duration: v.DurationS, ChatUserID: contentID(v.ChatUserID), CreatedAt: v.CreatedAt}
		if v.Kind != storage.VideoFind {
			out.URL = v.URL
		}
		return out
	}
}

func (s *Server) listVideos(c *Call, kind string) (any, error) {
	var p contentPaging
	if err := c.Decode(&p); err != nil {
		return nil, err
	}
	return videosPage(c, kind, true, p, 10, videoViewIn(c.Lang))
}

// videosPage is a page of the videos of kind (of every kind when kind is
// empty), only the enabled ones when onlyEnabled, each shown by view.
func videosPage[T any](c *Call, kind string, onlyEnabled bool, p contentPaging, perPage int, view func(storage.Video) T) (contentList[T], error) {
	return listPage(p, perPage, func() (int, error) { return storage.CountVideos(c.Ctx, c.s.DB, kind, onlyEnabled) },
		func(limit, offset int) ([]storage.Video, error) {
			return storage.ListVideos(c.Ctx, c.s.DB, kind, onlyEnabled, limit, offset)
		}, view)
}

func (s *Server) getFindVideo(c *Call) (any, error) { return s.listVideos(c, storage.VideoFind) }

func (s *Server) getPassionateVideo(c *Call) (any, error) {
	return s.listVideos(c, storage.VideoPassionate)
}

type videoCountView struct {
	IsActivation int        `json:"isActivation"`
	Unlimited    bool       `json:"unlimited"`
	Limit        int        `json:"limit"`
	Used         int        `json:"used"`
	Remaining    int        `json:"remaining"`
	Counted      bool       `json:"counted"`
	Video        *videoView `json:"video"`
}

// checkVideoCount answers how many discover videos the caller may still
// watch today; with a videoId it also counts one view and hands out the
// video's address. Non-activated accounts stop at the daily limit with
// CodeVideoLimit; activated accounts (and operators) are unlimited.
func (s *Server) checkVideoCount(c *Call) (any, error) {
	var req struct {
		VideoID contentID `json:"videoId"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	var play *videoView
	if req.VideoID != 0 {
		v, err := storage.VideoByID(c.Ctx, s.DB, int64(req.VideoID))
		if err != nil && !errors.Is(err, storage.ErrNotFound) {
			return nil, err
		}
		if err != nil || v.Enabled != 1 || v.Kind != storage.VideoFind {
			return nil, apierr.NotFound()
		}
		view := videoViewIn(c.Lang)(v)
		view.URL = v.URL
		play = &view
	}
	limit, err := s.contentVideoLimit(c.Ctx)
	if err != nil {
		return nil, err
	}
	out := videoCountView{IsActivation: c.User.IsActivation, Limit: limit}
	if c.User.IsActivation == 1 || c.User.IsOperator == 1 {
		out.Unlimited, out.Counted, out.Video = true, play != nil, play
		return out, nil
	}
	now := s.Clock.Now()
	day, next := s.contentDay(now)
	if play == nil {
		out.Used, err = s.videoViews(c.Ctx, c.User.ID, day)
		out.Remaining = max(0, limit-out.Used)
		return out, err
	}
	used, ok, err := s.addVideoView(c.Ctx, c.User.ID, day, limit, next.Sub(now))
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, apierr.Fail(apierr.CodeVideoLimit, "content.video.limit", "limit", limit)
	}
	out.Used, out.Remaining, out.Counted, out.Video = used, max(0, limit-used), true, play
	return out, nil
}

// The daily count lives in Redis when one is configured (every node sees
// it, and it expires by itself), else in the store.
func videoKey(userID int64, day int) string { return fmt.Sprintf("video:%d:%d", userID, day) }

func (s *Server) videoViews(ctx context.Context, userID int64, day int) (int, error) {
	if s.Config.RedisURL == "" {
		return storage.VideoViews(ctx, s.DB, userID, day)
	}
	n, _, err := s.Counters.Get(ctx, videoKey(userID, day))
	return int(n), err
}

func (s *Server) addVideoView(ctx context.Context, userID int64, day, limit int, left time.Duration) (int, bool, error) {
	if s.Config.RedisURL == "" {
		return storage.AddVideoView(ctx, s.DB, userID, day, limit)
	}
	key, ttl := videoKey(userID, day), left+time.Hour
	n, err := s.Counters.Incr(ctx, key, 1, ttl)
	if err != nil {
		return 0, false, err
	}
	if n > int64(limit) {
		// Undo, so the count stays at the limit and a raised limit applies at once.
		_, err := s.Counters.Incr(ctx, key, -1, ttl)
		return int(n - 1), false, err
	}
	return int(n), true, nil
}

// ---- same city ----

type cityView struct {
	ID    contentID `json:"id"`
	Name  string    `json:"name"`
	Count int       `json:"count"`
}

func cityViewIn(lang string) func(storage.City) cityView {
	return func(c storage.City) cityView {
		return cityView{ID: contentID(c.ID), Name: c.Texts.Text(lang, "name", c.Name), Count: c.Listings}
	}
}

func (s *Server) getCityList(c *Call) (any, error) {
	cities, err := storage.ListCities(c.Ctx, s.DB, true)
	if err != nil {
		return nil, err
	}
	return contentMap(cities, cityViewIn(c.Lang)), nil
}

// listingView is a listing as users see it: badges and photos, never the
// contact (the get-contact button opens customer service).
type listingView struct {
	ID          contentID `json:"id"`
	CityID      contentID `json:"cityId"`
	City        string    `json:"city"`
	Name        string    `json:"name"`
	Age         int       `json:"age"`
	Photos      []string  `json:"photos"`
	Intro       string    `json:"intro"`
	Certified   int       `json:"certified"`
	DepositPaid int       `json:"depositPaid"`
}

// newListingView shows l in lang; city is the city's name in lang.
func newListingView(l storage.Listing, lang, city string) listingView {
	photos := l.Photos
	if photos == nil {
		photos = []string{}
	}
	return listingView{ID: contentID(l.ID), CityID: contentID(l.CityID), City: city, Name: l.Texts.Text(lang, "name", l.Name),
		Age: l.Age, Photos: photos, Intro: l.Texts.Text(lang, "intro", l.Intro), Certified: l.Certified, DepositPaid: l.DepositPaid}
}

// findCity resolves what a client names a city by: its id, or its name.
func (s *Server) findCity(ctx context.Context, q storage.Querier, city string) (storage.City, error) {
	city = strings.TrimSpace(city)
	if city == "" {
		return storage.City{}, apierr.Required("city")
	}
	var c storage.City
	var err error
	if id, perr := strconv.ParseInt(city, 10, 64); perr == nil {
		c, err = storage.CityByID(ctx, q, id)
	} else {
		c, err = storage.CityByName(ctx, q, city)
	}
	if errors.Is(err, storage.ErrNotFound) {
		return c, apierr.Fail(apierr.CodeCityUnknown, "content.city.unknown")
	}
	return c, err
}

// cityPaging is a page of a city's listings as a client asks for it.
type cityPaging struct {
	City contentCity `json:"city"`
	contentPaging
}

// listingsPage is a page of the listings of a city (of every city when
// cityID is 0), only the enabled ones when onlyEnabled, each shown by view.
func listingsPage[T any](c *Call, cityID int64, onlyEnabled bool, p contentPaging, perPage int, view func(storage.Listing) T) (contentList[T], error) {
	return listPage(p, perPage, func() (int, error) { return storage.CountListings(c.Ctx, c.s.DB, cityID, onlyEnabled) },
		func(limit, offset int) ([]storage.Listing, error) {
			return storage.ListListings(c.Ctx, c.s.DB, cityID, onlyEnabled, limit, offset)
		}, view)
}

func (s *Server) sameCityList(c *Call) (any, error) {
	var req cityPaging
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	city, err := s.findCity(c.Ctx, s.DB, string(req.City))
	if err != nil {
		return nil, err
	}
	if city.Enabled != 1 {
		return nil, apierr.Fail(apierr.CodeCityUnknown, "content.city.unknown")
	}
	cityName := city.Texts.Text(c.Lang, "name", city.Name)
	return listingsPage(c, city.ID, true, req.contentPaging, 10, func(l storage.Listing) listingView {
		return newListingView(l, c.Lang, cityName)
	})
}

// contentCity is a city as a client names it: an id (string or number) or
// a name.
type contentCity string

func (v *contentCity) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*v = ""
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var s string
		err := json.Unmarshal(b, &s)
		*v = contentCity(s)
		return err
	}
	var id contentID
	if err := id.UnmarshalJSON(b); err != nil {
		return err
	}
	*v = contentCity(strconv.FormatInt(int64(id), 10))
	return nil
}

// ---- address book ----

func (s *Server) uploadContacts(c *Call) (any, error) {
	var req struct {
		Contacts []storage.Contact `json:"contacts"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.Contacts == nil {
		return nil, apierr.Required("contacts")
	}
	if len(req.Contacts) > contactsMax {
		return nil, apierr.Fail(apierr.CodeContactsTooMany, "content.contacts.many", "max", contactsMax)
	}
	for i := range req.Contacts {
		ct := &req.Contacts[i]
		if err := contentText("name", &ct.Name, 0, 64); err != nil {
			return nil, err
		}
		ct.Phone = strings.TrimSpace(ct.Phone)
		if ct.Phone == "" {
			return nil, apierr.Required("phone")
		}
		if len(ct.Phone) > 32 || strings.Trim(ct.Phone, "0123456789+-() ") != "" {
			return nil, apierr.Invalid("phone")
		}
	}
	now := s.Clock.Now().UnixMilli()
	if err := storage.SaveContacts(c.Ctx, s.DB, c.User.ID, req.Contacts, now); err != nil {
		return nil, err
	}
	return map[string]any{"count": len(req.Contacts), "updatedAt": now}, nil
}
