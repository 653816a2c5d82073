package httpapi

// Operator routes of the content area (/api/admin/...): banners, videos and
// the daily video limit, cities and listings, the update manifest, domain
// entries, app settings, file uploads for all of those, the statistics the
// beacon counts, and the audit log. Every change writes its audit entry in
// its own transaction.

import (
	"context"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"kj/internal/apierr"
	"kj/storage"
)

func init() {
	registerArea(func(s *Server) {
		s.Post("/admin/banner/list", Operator, s.adminBannerList)
		s.Post("/admin/banner/save", Operator, s.adminBannerSave)
		s.Post("/admin/banner/delete", Operator, s.adminBannerDelete)
		s.Post("/admin/video/list", Operator, s.adminVideoList)
		s.Post("/admin/video/save", Operator, s.adminVideoSave)
		s.Post("/admin/video/delete", Operator, s.adminVideoDelete)
		s.Post("/admin/video/limit", Operator, s.adminVideoLimit)
		s.Post("/admin/city/list", Operator, s.adminCityList)
		s.Post("/admin/city/save", Operator, s.adminCitySave)
		s.Post("/admin/city/delete", Operator, s.adminCityDelete)
		s.Post("/admin/listing/list", Operator, s.adminListingList)
		s.Post("/admin/listing/save", Operator, s.adminListingSave)
		s.Post("/admin/listing/delete", Operator, s.adminListingDelete)
		s.Post("/admin/manifest/get", Operator, s.adminManifestGet)
		s.Post("/admin/manifest/save", Operator, s.adminManifestSave)
		s.Post("/admin/domain/list", Operator, s.adminDomainList)
		s.Post("/admin/domain/save", Operator, s.adminDomainSave)
		s.Post("/admin/domain/delete", Operator, s.adminDomainDelete)
		s.Post("/admin/settings/get", Operator, s.adminSettingsGet)
		s.Post("/admin/settings/save", Operator, s.adminSettingsSave)
		s.Post("/admin/upload", Operator, s.adminUpload)
		s.Post("/admin/stats/list", Operator, s.adminStatsList)
		s.Post("/admin/audit/list", Operator, s.adminAuditList)
		s.Post("/admin/audit/actions", Operator, s.adminAuditActions)
	})
}

type contentIDReq struct {
	ID contentID `json:"id"`
}

func contentDecodeID(c *Call) (int64, error) {
	var req contentIDReq
	if err := c.Decode(&req); err != nil {
		return 0, err
	}
	if req.ID == 0 {
		return 0, apierr.Required("id")
	}
	return int64(req.ID), nil
}

// contentAudited loads one thing of a kind as its audit rows show it,
// before and after a change (a listing's contact left out: it is personal
// data).
var contentAudited = map[string]func(ctx context.Context, q storage.Querier, id int64) (any, error){
	"banner": func(ctx context.Context, q storage.Querier, id int64) (any, error) {
		b, err := storage.BannerByID(ctx, q, id)
		return map[string]any{"title": b.Title, "image": b.Image, "link": b.Link, "sort": b.Sort, "enabled": b.Enabled,
			"texts": adminTexts(b.Texts)}, err
	},
	"video": func(ctx context.Context, q storage.Querier, id int64) (any, error) {
		v, err := storage.VideoByID(ctx, q, id)
		return map[string]any{"kind": v.Kind, "title": v.Title, "cover": v.Cover, "url": v.URL, "duration": v.DurationS,
			"chatUserId": contentID(v.ChatUserID), "sort": v.Sort, "enabled": v.Enabled, "texts": adminTexts(v.Texts)}, err
	},
	"city": func(ctx context.Context, q storage.Querier, id int64) (any, error) {
		ct, err := storage.CityByID(ctx, q, id)
		return map[string]any{"name": ct.Name, "sort": ct.Sort, "enabled": ct.Enabled, "texts": adminTexts(ct.Texts)}, err
	},
	"listing": func(ctx context.Context, q storage.Querier, id int64) (any, error) {
		l, err := storage.ListingByID(ctx, q, id)
		return map[string]any{"cityId": contentID(l.CityID), "name": l.Name, "age": l.Age, "photos": l.Photos, "intro": l.Intro,
			"certified": l.Certified, "depositPaid": l.DepositPaid, "sort": l.Sort, "enabled": l.Enabled, "texts": adminTexts(l.Texts)}, err
	},
}

// contentSave runs an operator's create-or-update in one transaction with
// its audit row (the thing before and after, as stored): create when id is
// 0 (with a new id), update otherwise (not found when the id does not
// exist).
func contentSave(c *Call, kind string, id int64, create, update func(tx storage.Tx, id int64) error) (int64, error) {
	action := kind + ".update"
	if id == 0 {
		id, action = storage.NewID(), kind+".create"
	}
	audited := contentAudited[kind]
	err := c.s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		var change auditChange
		var err error
		if action == kind+".create" {
			err = create(tx, id)
		} else if change.Before, err = audited(c.Ctx, tx, id); err == nil {
			err = update(tx, id)
		}
		if err != nil {
			return err
		}
		if change.After, err = audited(c.Ctx, tx, id); err != nil {
			return err
		}
		return RecordOperatorAction(c, tx, action, id, change)
	})
	return id, contentStoreErr(err)
}

// contentDelete removes one thing with its audit entry.
func contentDelete(c *Call, kind string, del func(tx storage.Tx, id int64) error) (any, error) {
	id, err := contentDecodeID(c)
	if err != nil {
		return nil, err
	}
	err = c.s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		before, err := contentAudited[kind](c.Ctx, tx, id)
		if err != nil {
			return err
		}
		if err := del(tx, id); err != nil {
			return err
		}
		return RecordOperatorAction(c, tx, kind+".delete", id, auditChange{Before: before})
	})
	if err != nil {
		return nil, contentStoreErr(err)
	}
	return map[string]any{"id": contentID(id)}, nil
}

// ---- banners ----

type adminBanner struct {
	ID        contentID `json:"id"`
	Title     string    `json:"title"`
	Image     string    `json:"image"`
	Link      string    `json:"link"`
	Sort      int       `json:"sort"`
	Enabled   int       `json:"enabled"`
	CreatedAt int64     `json:"createdAt"`
	UpdatedAt int64     `json:"updatedAt"`
	// The title in other languages; a language left out shows Title.
	Texts storage.Texts `json:"texts"`
}

// Fields operators may translate, with their longest length.
var (
	bannerTexts  = map[string]int{"title": 100}
	videoTexts   = map[string]int{"title": 100}
	cityTexts    = map[string]int{"name": 40}
	listingTexts = map[string]int{"name": 40, "intro": 500}
	noticeTexts  = map[string]int{"title": 100, "content": 5000}
)

func newAdminBanner(b storage.Banner) adminBanner {
	return adminBanner{contentID(b.ID), b.Title, b.Image, b.Link, b.Sort, b.Enabled, b.CreatedAt, b.UpdatedAt, adminTexts(b.Texts)}
}

func (s *Server) adminBannerList(c *Call) (any, error) {
	list, err := storage.ListBanners(c.Ctx, s.DB, false)
	return contentMap(list, newAdminBanner), err
}

func (s *Server) adminBannerSave(c *Call) (any, error) {
	var req adminBanner
	req.Enabled = 1
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if err := contentText("title", &req.Title, 0, 100); err != nil {
		return nil, err
	}
	texts, err := contentTexts(req.Texts, bannerTexts)
	if err != nil {
		return nil, err
	}
	if err := s.contentMediaLink(c.Ctx, "image", &req.Image, true); err != nil {
		return nil, err
	}
	if err := contentLink("link", &req.Link, false); err != nil {
		return nil, err
	}
	if err := contentFlag("enabled", req.Enabled); err != nil {
		return nil, err
	}
	now := s.Clock.Now().UnixMilli()
	b := storage.Banner{Title: req.Title, Image: req.Image, Link: req.Link, Sort: req.Sort, Enabled: req.Enabled, CreatedAt: now, UpdatedAt: now, Texts: texts}
	id, err := contentSave(c, "banner", int64(req.ID),
		func(tx storage.Tx, id int64) error { b.ID = id; return storage.CreateBanner(c.Ctx, tx, b) },
		func(tx storage.Tx, id int64) error {
			b.ID = id
			if b.Texts == nil {
				old, err := storage.BannerByID(c.Ctx, tx, id)
				if err != nil {
					return err
				}
				b.Texts = old.Texts
			}
			return storage.UpdateBanner(c.Ctx, tx, b)
		})
	if err != nil {
		return nil, err
	}
	b, err = storage.BannerByID(c.Ctx, s.DB, id)
	return newAdminBanner(b), err
}

func (s *Server) adminBannerDelete(c *Call) (any, error) {
	return contentDelete(c, "banner", func(tx storage.Tx, id int64) error { return storage.DeleteBanner(c.Ctx, tx, id) })
}

// ---- videos ----

type adminVideo struct {
	ID         contentID `json:"id"`
	Kind       string    `json:"kind"`
	Title      string    `json:"title"`
	Cover      string    `json:"cover"`
	URL        string    `json:"url"`
	Duration   int       `json:"duration"`
	ChatUserID contentID `json:"chatUserId"`
	Sort       int       `json:"sort"`
	Enabled    int       `json:"enabled"`
	CreatedAt  int64     `json:"createdAt"`
	UpdatedAt  int64     `json:"updatedAt"`
	// The title in other languages.
	Texts storage.Texts `json:"texts"`
}

func newAdminVideo(v storage.Video) adminVideo {
	return adminVideo{contentID(v.ID), v.Kind, v.Title, v.Cover, v.URL, v.DurationS, contentID(v.ChatUserID), v.Sort, v.Enabled,
		v.CreatedAt, v.UpdatedAt, adminTexts(v.Texts)}
}

func (s *Server) adminVideoList(c *Call) (any, error) {
	var req struct {
		Kind string `json:"kind"`
		contentPaging
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.Kind != "" && req.Kind != storage.VideoFind && req.Kind != storage.VideoPassionate {
		return nil, apierr.Invalid("kind")
	}
	return videosPage(c, req.Kind, false, req.contentPaging, 20, newAdminVideo)
}

func (s *Server) adminVideoSave(c *Call) (any, error) {
	var req adminVideo
	req.Enabled = 1
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.Kind != storage.VideoFind && req.Kind != storage.VideoPassionate {
		return nil, apierr.Invalid("kind")
	}
	if err := contentText("title", &req.Title, 1, 100); err != nil {
		return nil, err
	}
	texts, err := contentTexts(req.Texts, videoTexts)
	if err != nil {
		return nil, err
	}
	if err := s.contentMediaLink(c.Ctx, "url", &req.URL, true); err != nil {
		return nil, err
	}
	if err := s.contentMediaLink(c.Ctx, "cover", &req.Cover, false); err != nil {
		return nil, err
	}
	if req.Duration < 0 || req.Duration > 24*3600 {
		return nil, apierr.Invalid("duration")
	}
	if err := contentFlag("enabled", req.Enabled); err != nil {
		return nil, err
	}
	if req.ChatUserID != 0 {
		if _, err := storage.UserByID(c.Ctx, s.DB, int64(req.ChatUserID)); err != nil {
			if errors.Is(err, storage.ErrNotFound) {
				return nil, apierr.Invalid("chatUserId")
			}
			return nil, err
		}
	}
	now := s.Clock.Now().UnixMilli()
	v := storage.Video{Kind: req.Kind, Title: req.Title, Cover: req.Cover, URL: req.URL, DurationS: req.Duration,
		ChatUserID: int64(req.ChatUserID), Sort: req.Sort, Enabled: req.Enabled, CreatedAt: now, UpdatedAt: now, Texts: texts}
	id, err := contentSave(c, "video", int64(req.ID),
		func(tx storage.Tx, id int64) error { v.ID = id; return storage.CreateVideo(c.Ctx, tx, v) },
		func(tx storage.Tx, id int64) error {
			v.ID = id
			if v.Texts == nil {
				old, err := storage.VideoByID(c.Ctx, tx, id)
				if err != nil {
					return err
				}
				v.Texts = old.Texts
			}
			return storage.UpdateVideo(c.Ctx, tx, v)
		})
	if err != nil {
		return nil, err
	}
	v, err = storage.VideoByID(c.Ctx, s.DB, id)
	return newAdminVideo(v), err
}

func (s *Server) adminVideoDelete(c *Call) (any, error) {
	return contentDelete(c, "video", func(tx storage.Tx, id int64) error { return storage.DeleteVideo(c.Ctx, tx, id) })
}

// adminVideoLimit sets how many discover videos a non-activated account
// may watch per day; it overrides KJ_VIDEO_DAILY_LIMIT at once.
func (s *Server) adminVideoLimit(c *Call) (any, error) {
	var req struct {
		Limit *int `json:"limit"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.Limit == nil {
		return nil, apierr.Required("limit")
	}
	if *req.Limit < 0 || *req.Limit > 10000 {
		return nil, apierr.Invalid("limit")
	}
	err := s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		before := s.Config.VideoDailyLimit // in force until an operator sets one
		if _, err := storage.GetSetting(c.Ctx, tx, storage.SettingVideoLimit, &before); err != nil {
			return err
		}
		if err := storage.PutSetting(c.Ctx, tx, storage.SettingVideoLimit, *req.Limit, c.User.ID, s.Clock.Now().UnixMilli()); err != nil {
			return err
		}
		return RecordOperatorAction(c, tx, "video.limit", storage.SettingVideoLimit, auditChange{Before: map[string]int{"limit": before},
			After: map[string]int{"limit": *req.Limit}})
	})
	if err != nil {
		return nil, err
	}
	s.settingChanged(c.Ctx, storage.SettingVideoLimit)
	return map[string]int{"limit": *req.Limit}, nil
}

// ---- cities and listings ----

type adminCity struct {
	ID       contentID `json:"id"`
	Name     string    `json:"name"`
	Sort     int       `json:"sort"`
	Enabled  int       `json:"enabled"`
	Listings int       `json:"listings"`
	// The name in other languages.
	Texts storage.Texts `json:"texts"`
}

func (s *Server) adminCityList(c *Call) (any, error) {
	list, err := storage.ListCities(c.Ctx, s.DB, false)
	return contentMap(list, func(ct storage.City) adminCity {
		return adminCity{contentID(ct.ID), ct.Name, ct.Sort, ct.Enabled, ct.Listings, adminTexts(ct.Texts)}
	}), err
}

func (s *Server) adminCitySave(c *Call) (any, error) {
	var req adminCity
	req.Enabled = 1
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if err := contentText("name", &req.Name, 1, 40); err != nil {
		return nil, err
	}
	if _, err := strconv.ParseInt(req.Name, 10, 64); err == nil {
		return nil, apierr.Invalid("name") // a name made of digits would read as a city id
	}
	texts, err := contentTexts(req.Texts, cityTexts)
	if err != nil {
		return nil, err
	}
	if err := contentFlag("enabled", req.Enabled); err != nil {
		return nil, err
	}
	now := s.Clock.Now().UnixMilli()
	ct := storage.City{Name: req.Name, Sort: req.Sort, Enabled: req.Enabled, CreatedAt: now, UpdatedAt: now, Texts: texts}
	id, err := contentSave(c, "city", int64(req.ID),
		func(tx storage.Tx, id int64) error { ct.ID = id; return storage.CreateCity(c.Ctx, tx, ct) },
		func(tx storage.Tx, id int64) error {
			ct.ID = id
			if ct.Texts == nil {
				old, err := storage.CityByID(c.Ctx, tx, id)
				if err != nil {
					return err
				}
				ct.Texts = old.Texts
			}
			return storage.UpdateCity(c.Ctx, tx, ct)
		})
	if errors.Is(err, storage.ErrConflict) {
		return nil, apierr.Fail(apierr.CodeCityNameTaken, "content.city.taken")
	}
	if err != nil {
		return nil, err
	}
	return adminCity{contentID(id), ct.Name, ct.Sort, ct.Enabled, 0, adminTexts(ct.Texts)}, nil
}

func (s *Server) adminCityDelete(c *Call) (any, error) {
	return contentDelete(c, "city", func(tx storage.Tx, id int64) error {
		n, err := storage.CountListings(c.Ctx, tx, id, false)
		if err != nil {
			return err
		}
		if n > 0 {
			return apierr.Fail(apierr.CodeCityInUse, "content.city.in.use", "count", n)
		}
		return storage.DeleteCity(c.Ctx, tx, id)
	})
}

type adminListing struct {
	ID          contentID `json:"id"`
	CityID      contentID `json:"cityId"`
	Name        string    `json:"name"`
	Age         int       `json:"age"`
	Photos      []string  `json:"photos"`
	Intro       string    `json:"intro"`
	Certified   int       `json:"certified"`
	DepositPaid int       `json:"depositPaid"`
	Contact     string    `json:"contact"`
	Sort        int       `json:"sort"`
	Enabled     int       `json:"enabled"`
	CreatedAt   int64     `json:"createdAt"`
	UpdatedAt   int64     `json:"updatedAt"`
	// The name and intro in other languages.
	Texts storage.Texts `json:"texts"`
}

func newAdminListing(l storage.Listing) adminListing {
	photos := l.Photos
	if photos == nil {
		photos = []string{}
	}
	return adminListing{contentID(l.ID), contentID(l.CityID), l.Name, l.Age, photos, l.Intro, l.Certified, l.DepositPaid,
		l.Contact, l.Sort, l.Enabled, l.CreatedAt, l.UpdatedAt, adminTexts(l.Texts)}
}

func (s *Server) adminListingList(c *Call) (any, error) {
	var req cityPaging
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	var cityID int64
	if req.City != "" {
		city, err := s.findCity(c.Ctx, s.DB, string(req.City))
		if err != nil {
			return nil, err
		}
		cityID = city.ID
	}
	return listingsPage(c, cityID, false, req.contentPaging, 20, newAdminListing)
}

const listingMaxPhotos = 9

func (s *Server) adminListingSave(c *Call) (any, error) {
	var req adminListing
	req.Enabled = 1
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.CityID == 0 {
		return nil, apierr.Required("cityId")
	}
	if err := contentText("name", &req.Name, 1, 40); err != nil {
		return nil, err
	}
	if req.Age < listingMinAge {
		return nil, apierr.Fail(apierr.CodeListingUnderAge, "content.listing.age", "min", listingMinAge)
	}
	if req.Age > 99 {
		return nil, apierr.Invalid("age")
	}
	if len(req.Photos) > listingMaxPhotos {
		return nil, apierr.Invalid("photos")
	}
	for i := range req.Photos {
		if err := s.contentMediaLink(c.Ctx, "photos", &req.Photos[i], true); err != nil {
			return nil, err
		}
	}
	if err := contentText("intro", &req.Intro, 0, 500); err != nil {
		return nil, err
	}
	texts, err := contentTexts(req.Texts, listingTexts)
	if err != nil {
		return nil, err
	}
	if err := contentText("contact", &req.Contact, 0, 200); err != nil {
		return nil, err
	}
	for field, v := range map[string]int{"certified": req.Certified, "depositPaid": req.DepositPaid, "enabled": req.Enabled} {
		if err := contentFlag(field, v); err != nil {
			return nil, err
		}
	}
	now := s.Clock.Now().UnixMilli()
	l := storage.Listing{CityID: int64(req.CityID), Name: req.Name, Age: req.Age, Photos: req.Photos, Intro: req.Intro,
		Certified: req.Certified, DepositPaid: req.DepositPaid, Contact: req.Contact, Sort: req.Sort, Enabled: req.Enabled,
		CreatedAt: now, UpdatedAt: now, Texts: texts}
	cityCheck := func(tx storage.Tx) error {
		if _, err := storage.CityByID(c.Ctx, tx, l.CityID); err != nil {
			if errors.Is(err, storage.ErrNotFound) {
				return apierr.Fail(apierr.CodeCityUnknown, "content.city.unknown")
			}
			return err
		}
		return nil
	}
	// The contact stays out of the audit row (contentAudited): it is
	// personal data.
	id, err := contentSave(c, "listing", int64(req.ID),
		func(tx storage.Tx, id int64) error {
			if err := cityCheck(tx); err != nil {
				return err
			}
			l.ID = id
			return storage.CreateListing(c.Ctx, tx, l)
		},
		func(tx storage.Tx, id int64) error {
			if err := cityCheck(tx); err != nil {
				return err
			}
			l.ID = id
			if l.Texts == nil {
				old, err := storage.ListingByID(c.Ctx, tx, id)
				if err != nil {
					return err
				}
				l.Texts = old.Texts
			}
			return storage.UpdateListing(c.Ctx, tx, l)
		})
	if err != nil {
		return nil, err
	}
	l, err = storage.ListingByID(c.Ctx, s.DB, id)
	return newAdminListing(l), err
}

func (s *Server) adminListingDelete(c *Call) (any, error) {
	return contentDelete(c, "listing", func(tx storage.Tx, id int64) error { return storage.DeleteListing(c.Ctx, tx, id) })
}

// ---- update manifest, domains, settings ----

func (s *Server) adminManifestGet(c *Call) (any, error) { return s.resourceDownload(c) }

var manifestVersionPattern = regexp.MustCompile(`^[0-9]{1,9}(\.[0-9]{1,12}){0,3}$`)

// compareManifestVersions compares dotted numeric versions (1.3.230281753).
func compareManifestVersions(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := range max(len(as), len(bs)) {
		var x, y int64
		if i < len(as) {
			x, _ = strconv.ParseInt(as[i], 10, 64)
		}
		if i < len(bs) {
			y, _ = strconv.ParseInt(bs[i], 10, 64)
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

func checkManifestPackage(prefix string, version, path, remark *string) error {
	*version = strings.TrimSpace(*version)
	if *version != "" && !manifestVersionPattern.MatchString(*version) {
		return apierr.Invalid(prefix + ".version")
	}
	if err := contentLink(prefix+".path", path, *version != ""); err != nil {
		return err
	}
	if remark != nil {
		return contentText(prefix+".remark", remark, 0, 1000)
	}
	return nil
}

func (s *Server) adminManifestSave(c *Call) (any, error) {
	var m storage.UpdateManifest
	if err := c.Decode(&m); err != nil {
		return nil, err
	}
	n, f, r := &m.Package.Normal, &m.Package.Force, &m.Resource
	if err := checkManifestPackage("package.normal", &n.Version, &n.Path, &n.Remark); err != nil {
		return nil, err
	}
	if err := checkManifestPackage("package.force", &f.Version, &f.Path, &f.Remark); err != nil {
		return nil, err
	}
	if err := checkManifestPackage("resource", &r.Version, &r.Path, nil); err != nil {
		return nil, err
	}
	if f.Version != "" && n.Version != "" && compareManifestVersions(f.Version, n.Version) > 0 {
		return nil, apierr.Fail(apierr.CodeManifestOrder, "content.manifest.order")
	}
	err := s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		var before storage.UpdateManifest // empty until an operator saves one
		if _, err := storage.GetSetting(c.Ctx, tx, storage.SettingManifest, &before); err != nil {
			return err
		}
		if err := storage.PutSetting(c.Ctx, tx, storage.SettingManifest, m, c.User.ID, s.Clock.Now().UnixMilli()); err != nil {
			return err
		}
		return RecordOperatorAction(c, tx, "manifest.save", storage.SettingManifest, auditChange{Before: before, After: m})
	})
	if err != nil {
		return nil, err
	}
	s.settingChanged(c.Ctx, storage.SettingManifest)
	return m, nil
}

type adminDomain struct {
	Domain     string `json:"domain"`
	PlatformID int64  `json:"platformId"`
	PackageID  int64  `json:"packageId"`
	AppName    string `json:"appName"`
	OssURL     string `json:"ossUrl"`
	UpdatedAt  int64  `json:"updatedAt"`
}

func (s *Server) adminDomainList(c *Call) (any, error) {
	list, err := storage.ListDomains(c.Ctx, s.DB)
	return contentMap(list, func(d storage.AppDomain) adminDomain {
		return adminDomain{d.Domain, d.PlatformID, d.PackageID, d.AppName, d.OssURL, d.UpdatedAt}
	}), err
}

func (s *Server) adminDomainSave(c *Call) (any, error) {
	var req adminDomain
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	domain, ok := normalizeDomain(req.Domain)
	if req.Domain == "" {
		return nil, apierr.Required("domain")
	}
	if !ok {
		return nil, apierr.Invalid("domain")
	}
	if req.PlatformID == 0 {
		req.PlatformID = s.Config.PlatformID
	}
	if req.PackageID == 0 {
		req.PackageID = s.Config.PackageID
	}
	if req.PlatformID < 0 {
		return nil, apierr.Invalid("platformId")
	}
	if req.PackageID < 0 {
		return nil, apierr.Invalid("packageId")
	}
	if err := contentText("appName", &req.AppName, 0, 40); err != nil {
		return nil, err
	}
	if err := s.contentMediaLink(c.Ctx, "ossUrl", &req.OssURL, false); err != nil {
		return nil, err
	}
	now := s.Clock.Now().UnixMilli()
	d := storage.AppDomain{Domain: domain, PlatformID: req.PlatformID, PackageID: req.PackageID, AppName: req.AppName,
		OssURL: req.OssURL, CreatedAt: now, UpdatedAt: now}
	err := s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		var change auditChange // before stays null for a new domain
		if old, err := storage.DomainByName(c.Ctx, tx, domain); err == nil {
			change.Before = adminDomain{old.Domain, old.PlatformID, old.PackageID, old.AppName, old.OssURL, old.UpdatedAt}
		} else if !errors.Is(err, storage.ErrNotFound) {
			return err
		}
		if err := storage.SaveDomain(c.Ctx, tx, d); err != nil {
			return err
		}
		change.After = adminDomain{d.Domain, d.PlatformID, d.PackageID, d.AppName, d.OssURL, d.UpdatedAt}
		return RecordOperatorAction(c, tx, "domain.save", domain, change)
	})
	if err != nil {
		return nil, err
	}
	return adminDomain{d.Domain, d.PlatformID, d.PackageID, d.AppName, d.OssURL, d.UpdatedAt}, nil
}

func (s *Server) adminDomainDelete(c *Call) (any, error) {
	var req struct {
		Domain string `json:"domain"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	domain, ok := normalizeDomain(req.Domain)
	if !ok {
		return nil, apierr.Required("domain")
	}
	err := s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		old, err := storage.DomainByName(c.Ctx, tx, domain)
		if err != nil {
			return err
		}
		if err := storage.DeleteDomain(c.Ctx, tx, domain); err != nil {
			return err
		}
		return RecordOperatorAction(c, tx, "domain.delete", domain, auditChange{
			Before: adminDomain{old.Domain, old.PlatformID, old.PackageID, old.AppName, old.OssURL, old.UpdatedAt}})
	})
	if err != nil {
		return nil, contentStoreErr(err)
	}
	return map[string]string{"domain": domain}, nil
}

type adminSettings struct {
	storage.AppSettings
	VideoDailyLimit int      `json:"videoDailyLimit"` // read only here; set with /admin/video/limit
	ContentHosts    []string `json:"contentHosts"`    // read only here; set with /admin/contentHosts/save (content_hosts.go)
}

func (s *Server) adminSettingsGet(c *Call) (any, error) {
	app, err := s.contentAppSettings(c.Ctx)
	if err != nil {
		return nil, err
	}
	limit, err := s.contentVideoLimit(c.Ctx)
	if err != nil {
		return nil, err
	}
	hosts, err := s.ContentHosts(c.Ctx)
	return adminSettings{app, limit, hosts}, err
}

func (s *Server) adminSettingsSave(c *Call) (any, error) {
	var a storage.AppSettings
	if err := c.Decode(&a); err != nil {
		return nil, err
	}
	if err := contentText("appName", &a.AppName, 0, 40); err != nil {
		return nil, err
	}
	if err := s.contentMediaLink(c.Ctx, "ossUrl", &a.OssURL, false); err != nil {
		return nil, err
	}
	if err := contentText("serviceWelcome", &a.ServiceWelcome, 0, 500); err != nil {
		return nil, err
	}
	if a.ServiceWelcomeTexts == nil {
		// A form that does not edit the other languages keeps them.
		old, err := s.contentAppSettings(c.Ctx)
		if err != nil {
			return nil, err
		}
		a.ServiceWelcomeTexts = old.ServiceWelcomeTexts
	} else {
		welcomes := storage.Texts{}
		for lang, text := range a.ServiceWelcomeTexts {
			welcomes[lang] = map[string]string{"serviceWelcome": text}
		}
		welcomes, err := contentTexts(welcomes, map[string]int{"serviceWelcome": 500})
		if err != nil {
			return nil, err
		}
		a.ServiceWelcomeTexts = map[string]string{}
		for lang, fields := range welcomes {
			a.ServiceWelcomeTexts[lang] = fields["serviceWelcome"]
		}
	}
	if err := s.contentMediaLink(c.Ctx, "splashImage", &a.SplashImage, false); err != nil {
		return nil, err
	}
	if err := contentLink("splashLink", &a.SplashLink, false); err != nil {
		return nil, err
	}
	if a.SplashSeconds < 0 || a.SplashSeconds > 30 {
		return nil, apierr.Invalid("splashSeconds")
	}
	if a.DefaultLanguage != "" && !slices.Contains(apierr.Langs, a.DefaultLanguage) {
		return nil, apierr.Invalid("defaultLanguage")
	}
	err := s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		var before storage.AppSettings // empty until an operator saves them
		if _, err := storage.GetSetting(c.Ctx, tx, storage.SettingApp, &before); err != nil {
			return err
		}
		if err := storage.PutSetting(c.Ctx, tx, storage.SettingApp, a, c.User.ID, s.Clock.Now().UnixMilli()); err != nil {
			return err
		}
		return RecordOperatorAction(c, tx, "settings.save", storage.SettingApp, auditChange{Before: before, After: a})
	})
	if err != nil {
		return nil, err
	}
	s.settingChanged(c.Ctx, storage.SettingApp)
	return s.adminSettingsGet(c)
}

// ---- uploads ----

// Upload caps: images for banners, covers, photos and the splash; short
// videos for the video tabs.
const (
	contentImageMax = 5 << 20
	contentVideoMax = 50 << 20
)

var contentUploadTypes = map[string]string{
	"image/png": ".png", "image/jpeg": ".jpg", "image/webp": ".webp", "image/gif": ".gif",
	"video/mp4": ".mp4", "video/webm": ".webm",
}

// adminUpload stores one image or video (multipart field "file") under
// $KJ_DATA_DIR/files/content/ and answers the /files/ path to put in a
// banner, video, listing or setting. The type is sniffed from the bytes.
func (s *Server) adminUpload(c *Call) (any, error) {
	c.R.Body = http.MaxBytesReader(c.W, c.R.Body, contentVideoMax+64<<10)
	file, _, err := c.R.FormFile("file")
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, apierr.Fail(apierr.CodeUploadTooLarge, "content.upload.large", "max", contentVideoMax>>20).WithStatus(http.StatusRequestEntityTooLarge)
		}
		if errors.Is(err, http.ErrMissingFile) || errors.Is(err, http.ErrNotMultipart) {
			return nil, apierr.Required("file")
		}
		return nil, apierr.Fail(apierr.CodeBadRequest, "bad.request")
	}
	defer file.Close()
	defer func() {
		if c.R.MultipartForm != nil {
			c.R.MultipartForm.RemoveAll()
		}
	}()
	head := make([]byte, 512)
	n, _ := io.ReadFull(file, head)
	mime := http.DetectContentType(head[:n])
	ext, ok := contentUploadTypes[mime]
	if !ok {
		return nil, apierr.Fail(apierr.CodeUploadType, "content.upload.type")
	}
	size, err := file.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, err
	}
	limit := int64(contentImageMax)
	if strings.HasPrefix(mime, "video/") {
		limit = contentVideoMax
	}
	if size > limit {
		return nil, apierr.Fail(apierr.CodeUploadTooLarge, "content.upload.large", "max", limit>>20).WithStatus(http.StatusRequestEntityTooLarge)
	}
	id := storage.NewID()
	name := strconv.FormatInt(id, 10) + ext
	dir := filepath.Join(s.Config.DataDir, "files", "content")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, name)
	if err := contentSaveUpload(file, path); err != nil {
		return nil, err
	}
	url := "/files/content/" + name
	err = s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		return RecordOperatorAction(c, tx, "file.upload", url, auditChange{After: map[string]any{"type": mime, "size": size}})
	})
	if err != nil {
		os.Remove(path)
		return nil, err
	}
	return map[string]any{"url": url, "type": mime, "size": size}, nil
}

func contentSaveUpload(src multipart.File, path string) error {
	if _, err := src.Seek(0, io.SeekStart); err != nil {
		return err
	}
	tmp := path + ".part"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = io.Copy(f, src)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// ---- statistics and audit ----

// adminStatsList answers the beacon counts of the last days (1-90, default 7).
func (s *Server) adminStatsList(c *Call) (any, error) {
	days, err := decodeDays(c, 90)
	if err != nil {
		return nil, err
	}
	now := s.Clock.Now()
	to, _ := s.contentDay(now)
	from, _ := s.contentDay(now.AddDate(0, 0, -(days - 1)))
	stats, err := storage.ListStats(c.Ctx, s.DB, from, to)
	out := make([]map[string]any, 0, len(stats))
	for _, st := range stats {
		out = append(out, map[string]any{"day": st.Day, "event": st.Event, "count": st.Count})
	}
	return map[string]any{"from": from, "to": to, "events": beaconEvents, "list": out}, err
}

type auditView struct {
	ID         contentID `json:"id"`
	OperatorID contentID `json:"operatorId"`
	Operator   string    `json:"operator"`
	Action     string    `json:"action"`
	Target     string    `json:"target"`
	Detail     any       `json:"detail"`
	CreatedAt  int64     `json:"createdAt"`
	// Reading is the row in words, in the caller's language (audit_render.go).
	Reading auditReading `json:"reading"`
}

func (s *Server) adminAuditList(c *Call) (any, error) {
	var req struct {
		Action     string    `json:"action"`
		OperatorID contentID `json:"operatorId"`
		Operator   string    `json:"operator"` // the operator's account
		Target     string    `json:"target"`
		From       int64     `json:"from"` // unix ms, inclusive; 0 open
		To         int64     `json:"to"`   // unix ms, exclusive; 0 open
		contentPaging
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	for field, v := range map[string]string{"action": req.Action, "operator": req.Operator, "target": req.Target} {
		if len(v) > 64 {
			return nil, apierr.Invalid(field)
		}
	}
	if req.From < 0 || req.To < 0 || (req.To != 0 && req.To <= req.From) {
		return nil, apierr.Invalid("to")
	}
	f := storage.AuditFilter{Action: strings.TrimSpace(req.Action), OperatorID: int64(req.OperatorID),
		Operator: strings.TrimSpace(req.Operator), Target: strings.TrimSpace(req.Target), From: req.From, To: req.To}
	return listPage(req.contentPaging, 20, func() (int, error) { return storage.CountAudit(c.Ctx, s.DB, f) },
		func(limit, offset int) ([]storage.AuditEntry, error) {
			return storage.ListAudit(c.Ctx, s.DB, f, limit, offset)
		},
		func(e storage.AuditEntry) auditView {
			if e.OperatorID == 0 {
				e.Operator = "cli" // `kj admin`: the detail's osUser names who ran it
			}
			v := auditView{contentID(e.ID), contentID(e.OperatorID), e.Operator, e.Action, e.Target, contentRawJSON(e.Detail), e.CreatedAt,
				readAudit(c.Lang, e)}
			v.Reading.OrderNo = s.auditOrderNo(c, e.Action, v.Reading.OrderID)
			return v
		})
}

// auditOrderNo is the number of the order a row names ("" when it names
// none, or the order is not found).
func (s *Server) auditOrderNo(c *Call, action, orderID string) string {
	id, err := strconv.ParseInt(orderID, 10, 64)
	if err != nil {
		return ""
	}
	if strings.HasPrefix(action, "recharge.") {
		if o, err := storage.RechargeOrderByID(c.Ctx, s.DB, id); err == nil {
			return o.OrderNo
		}
	} else if o, err := storage.ExchangeOrderByID(c.Ctx, s.DB, id); err == nil {
		return o.OrderNo
	}
	return ""
}

// adminAuditActions lists every action the audit log records, in words in
// the caller's language, for the console's action filter.
func (s *Server) adminAuditActions(c *Call) (any, error) {
	type action struct {
		Action string `json:"action"`
		Name   string `json:"name"`
	}
	out := make([]action, 0, len(auditActions))
	for a := range auditActions {
		out = append(out, action{a, auditActionName(c.Lang, a)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Action < out[j].Action })
	return map[string]any{"list": out}, nil
}

// contentRawJSON passes a stored JSON document through unchanged.
type contentRawJSON string

func (r contentRawJSON) MarshalJSON() ([]byte, error) {
	if r == "" {
		return []byte("{}"), nil
	}
	return []byte(r), nil
}
