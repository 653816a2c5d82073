package storage

// Content the operators manage and the app shows: named settings, per-domain
// app identity, banners, videos, cities and their listings, the daily video
// views of non-activated accounts, daily statistics events and uploaded
// address books.

import (
	"context"
	"encoding/json"
	"errors"
)

// Setting names of content_settings.
const (
	SettingApp        = "app"         // AppSettings
	SettingManifest   = "manifest"    // UpdateManifest
	SettingVideoLimit = "video_limit" // int: free videos per day for non-activated accounts
)

// AppSettings is the operator's "app" setting: what the app start routes
// answer beside the per-domain entries.
type AppSettings struct {
	AppName        string `json:"appName"`        // "" falls back to KJ_APP_NAME
	OssURL         string `json:"ossUrl"`         // prefix for relative file paths; "" = this origin
	ServiceWelcome string `json:"serviceWelcome"` // first line of the customer-service chat
	// ServiceWelcome in other languages, keyed by language; a language
	// left out gets ServiceWelcome.
	ServiceWelcomeTexts map[string]string `json:"serviceWelcomeTexts,omitempty"`
	SplashImage         string            `json:"splashImage"` // /onloadImg; "" = no splash
	SplashLink          string            `json:"splashLink"`
	SplashSeconds       int               `json:"splashSeconds"`
	// DefaultLanguage is the language of a visit that chose none and whose
	// browser speaks none of the six; "" is zh-CN.
	DefaultLanguage string `json:"defaultLanguage"`
}

// UpdateManifest is the operator's "manifest" setting, answered by
// /resource/download. An empty version offers nothing.
type UpdateManifest struct {
	Package struct {
		Normal ManifestPackage `json:"normal"`
		Force  ManifestPackage `json:"force"`
	} `json:"package"`
	Resource ManifestResource `json:"resource"`
}

// ManifestPackage is an installable app package.
type ManifestPackage struct {
	Version string `json:"version"`
	Path    string `json:"path"`
	Remark  string `json:"remark"`
}

// ManifestResource is a resource (web assets) package.
type ManifestResource struct {
	Version string `json:"version"`
	Path    string `json:"path"`
}

// GetSetting decodes the named setting into dst and reports whether the
// operator has set it.
func GetSetting(ctx context.Context, q Querier, name string, dst any) (bool, error) {
	var raw string
	err := q.QueryRow(ctx, `SELECT value FROM content_settings WHERE name = $1`, name).Scan(&raw)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, json.Unmarshal([]byte(raw), dst)
}

// PutSetting stores v as the named setting.
func PutSetting(ctx context.Context, q Querier, name string, v any, by, at int64) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = q.Exec(ctx, `INSERT INTO content_settings (name, value, updated_by, updated_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
		name, string(b), by, at)
	return err
}

// AppDomain is what /getDomainInfo answers for one domain.
type AppDomain struct {
	Domain     string
	PlatformID int64
	PackageID  int64
	AppName    string
	OssURL     string
	CreatedAt  int64
	UpdatedAt  int64
}

const domainColumns = `domain, platform_id, package_id, app_name, oss_url, created_at, updated_at`

func scanDomain(r Row) (AppDomain, error) {
	var d AppDomain
	err := r.Scan(&d.Domain, &d.PlatformID, &d.PackageID, &d.AppName, &d.OssURL, &d.CreatedAt, &d.UpdatedAt)
	return d, err
}

// SaveDomain inserts or replaces the entry of d.Domain.
func SaveDomain(ctx context.Context, q Querier, d AppDomain) error {
	_, err := q.Exec(ctx, `INSERT INTO app_domains (`+domainColumns+`) VALUES ($1,$2,$3,$4,$5,$6,$7)
		ON CONFLICT (domain) DO UPDATE SET platform_id = excluded.platform_id, package_id = excluded.package_id,
		app_name = excluded.app_name, oss_url = excluded.oss_url, updated_at = excluded.updated_at`,
		d.Domain, d.PlatformID, d.PackageID, d.AppName, d.OssURL, d.CreatedAt, d.UpdatedAt)
	return err
}

// DomainByName loads the entry of one domain; ErrNotFound when none.
func DomainByName(ctx context.Context, q Querier, domain string) (AppDomain, error) {
	return scanDomain(q.QueryRow(ctx, `SELECT `+domainColumns+` FROM app_domains WHERE domain = $1`, domain))
}

// ListDomains lists every configured domain by name.
func ListDomains(ctx context.Context, q Querier) ([]AppDomain, error) {
	rows, err := q.Query(ctx, `SELECT `+domainColumns+` FROM app_domains ORDER BY domain`)
	return CollectRows(rows, err, func(r Rows) (AppDomain, error) { return scanDomain(r) })
}

// DeleteDomain removes one domain; ErrNotFound when it was not there.
func DeleteDomain(ctx context.Context, q Querier, domain string) error {
	return affected(q.Exec(ctx, `DELETE FROM app_domains WHERE domain = $1`, domain))
}

// Banner is one slide of the discover carousel.
type Banner struct {
	ID        int64
	Title     string
	Image     string
	Link      string
	Sort      int
	Enabled   int
	CreatedAt int64
	UpdatedAt int64
	Texts     Texts // the title in other languages
}

const bannerColumns = `id, title, image, link, sort, enabled, created_at, updated_at, texts`

func scanBanner(r Row) (Banner, error) {
	var b Banner
	var texts string
	err := r.Scan(&b.ID, &b.Title, &b.Image, &b.Link, &b.Sort, &b.Enabled, &b.CreatedAt, &b.UpdatedAt, &texts)
	return b, scanTexts(err, texts, &b.Texts)
}

// CreateBanner inserts b (ID set by the caller).
func CreateBanner(ctx context.Context, q Querier, b Banner) error {
	_, err := q.Exec(ctx, `INSERT INTO banners (`+bannerColumns+`) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`,
		b.ID, b.Title, b.Image, b.Link, b.Sort, b.Enabled, b.CreatedAt, b.UpdatedAt, b.Texts.json())
	return err
}

// UpdateBanner replaces the editable fields of b; ErrNotFound when missing.
func UpdateBanner(ctx context.Context, q Querier, b Banner) error {
	return affected(q.Exec(ctx, `UPDATE banners SET title = $2, image = $3, link = $4, sort = $5, enabled = $6, updated_at = $7, texts = $8 WHERE id = $1`,
		b.ID, b.Title, b.Image, b.Link, b.Sort, b.Enabled, b.UpdatedAt, b.Texts.json()))
}

// BannerByID loads one banner.
func BannerByID(ctx context.Context, q Querier, id int64) (Banner, error) {
	return scanBanner(q.QueryRow(ctx, `SELECT `+bannerColumns+` FROM banners WHERE id = $1`, id))
}

// DeleteBanner removes one banner.
func DeleteBanner(ctx context.Context, q Querier, id int64) error {
	return affected(q.Exec(ctx, `DELETE FROM banners WHERE id = $1`, id))
}

// ListBanners lists banners in display order (sort, then age); onlyEnabled
// is what users see.
func ListBanners(ctx context.Context, q Querier, onlyEnabled bool) ([]Banner, error) {
	rows, err := q.Query(ctx, `SELECT `+bannerColumns+` FROM banners WHERE enabled >= $1 ORDER BY sort, id`, enabledFloor(onlyEnabled))
	return CollectRows(rows, err, func(r Rows) (Banner, error) { return scanBanner(r) })
}

func enabledFloor(onlyEnabled bool) int {
	if onlyEnabled {
		return 1
	}
	return 0
}

// Video kinds.
const (
	VideoFind       = "find"       // discover tab, counted against the daily limit
	VideoPassionate = "passionate" // live-highlights tab
)

// Video is one video of the discover or live-highlights tab.
type Video struct {
	ID         int64
	Kind       string
	Title      string
	Cover      string
	URL        string
	DurationS  int
	ChatUserID int64
	Sort       int
	Enabled    int
	CreatedAt  int64
	UpdatedAt  int64
	Texts      Texts // the title in other languages
}

const videoColumns = `id, kind, title, cover, url, duration_s, chat_user_id, sort, enabled, created_at, updated_at, texts`

func scanVideo(r Row) (Video, error) {
	var v Video
	var texts string
	err := r.Scan(&v.ID, &v.Kind, &v.Title, &v.Cover, &v.URL, &v.DurationS, &v.ChatUserID, &v.Sort, &v.Enabled, &v.CreatedAt, &v.UpdatedAt, &texts)
	return v, scanTexts(err, texts, &v.Texts)
}

// CreateVideo inserts v.
func CreateVideo(ctx context.Context, q Querier, v Video) error {
	_, err := q.Exec(ctx, `INSERT INTO videos (`+videoColumns+`) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)`,
		v.ID, v.Kind, v.Title, v.Cover, v.URL, v.DurationS, v.ChatUserID, v.Sort, v.Enabled, v.CreatedAt, v.UpdatedAt, v.Texts.json())
	return err
}

// UpdateVideo replaces the editable fields of v.
func UpdateVideo(ctx context.Context, q Querier, v Video) error {
	return affected(q.Exec(ctx, `UPDATE videos SET kind = $2, title = $3, cover = $4, url = $5, duration_s = $6,
		chat_user_id = $7, sort = $8, enabled = $9, updated_at = $10, texts = $11 WHERE id = $1`,
		v.ID, v.Kind, v.Title, v.Cover, v.URL, v.DurationS, v.ChatUserID, v.Sort, v.Enabled, v.UpdatedAt, v.Texts.json()))
}

// VideoByID loads one video.
func VideoByID(ctx context.Context, q Querier, id int64) (Video, error) {
	return scanVideo(q.QueryRow(ctx, `SELECT `+videoColumns+` FROM videos WHERE id = $1`, id))
}

// DeleteVideo removes one video.
func DeleteVideo(ctx context.Context, q Querier, id int64) error {
	return affected(q.Exec(ctx, `DELETE FROM videos WHERE id = $1`, id))
}

// CountVideos counts the videos of kind ("" for all kinds).
func CountVideos(ctx context.Context, q Querier, kind string, onlyEnabled bool) (int, error) {
	return count(ctx, q, `SELECT COUNT(*) FROM videos WHERE ($1 = '' OR kind = $1) AND enabled >= $2`,
		kind, enabledFloor(onlyEnabled))
}

// ListVideos lists one page of videos of kind ("" for all) in display order.
func ListVideos(ctx context.Context, q Querier, kind string, onlyEnabled bool, limit, offset int) ([]Video, error) {
	rows, err := q.Query(ctx, `SELECT `+videoColumns+` FROM videos WHERE ($1 = '' OR kind = $1) AND enabled >= $2
		ORDER BY sort, id DESC LIMIT $3 OFFSET $4`, kind, enabledFloor(onlyEnabled), limit, offset)
	return CollectRows(rows, err, func(r Rows) (Video, error) { return scanVideo(r) })
}

// City is one city of the same-city tab; Listings counts its enabled
// listings when loaded by ListCities.
type City struct {
	ID        int64
	Name      string
	Sort      int
	Enabled   int
	CreatedAt int64
	UpdatedAt int64
	Listings  int
	Texts     Texts // the name in other languages
}

const cityColumns = `id, name, sort, enabled, created_at, updated_at, texts`

func scanCity(r Row, extra ...any) (City, error) {
	var c City
	var texts string
	err := r.Scan(append([]any{&c.ID, &c.Name, &c.Sort, &c.Enabled, &c.CreatedAt, &c.UpdatedAt, &texts}, extra...)...)
	return c, scanTexts(err, texts, &c.Texts)
}

// CreateCity inserts c; ErrConflict when the name is taken.
func CreateCity(ctx context.Context, q Querier, c City) error {
	_, err := q.Exec(ctx, `INSERT INTO cities (`+cityColumns+`) VALUES ($1,$2,$3,$4,$5,$6,$7)`,
		c.ID, c.Name, c.Sort, c.Enabled, c.CreatedAt, c.UpdatedAt, c.Texts.json())
	return err
}

// UpdateCity replaces the editable fields of c; ErrConflict on a taken name.
func UpdateCity(ctx context.Context, q Querier, c City) error {
	return affected(q.Exec(ctx, `UPDATE cities SET name = $2, sort = $3, enabled = $4, updated_at = $5, texts = $6 WHERE id = $1`,
		c.ID, c.Name, c.Sort, c.Enabled, c.UpdatedAt, c.Texts.json()))
}

// CityByID loads one city.
func CityByID(ctx context.Context, q Querier, id int64) (City, error) {
	return scanCity(q.QueryRow(ctx, `SELECT `+cityColumns+` FROM cities WHERE id = $1`, id))
}

// CityByName loads one city by its exact name.
func CityByName(ctx context.Context, q Querier, name string) (City, error) {
	return scanCity(q.QueryRow(ctx, `SELECT `+cityColumns+` FROM cities WHERE name = $1`, name))
}

// DeleteCity removes a city (the caller makes sure no listing is left).
func DeleteCity(ctx context.Context, q Querier, id int64) error {
	return affected(q.Exec(ctx, `DELETE FROM cities WHERE id = $1`, id))
}

// ListCities lists cities in display order with their enabled listings
// counted.
func ListCities(ctx context.Context, q Querier, onlyEnabled bool) ([]City, error) {
	rows, err := q.Query(ctx, `SELECT c.id, c.name, c.sort, c.enabled, c.created_at, c.updated_at, c.texts,
		(SELECT COUNT(*) FROM city_listings l WHERE l.city_id = c.id AND l.enabled = 1)
		FROM cities c WHERE c.enabled >= $1 ORDER BY c.sort, c.name`, enabledFloor(onlyEnabled))
	return CollectRows(rows, err, func(r Rows) (City, error) {
		var listings int
		c, err := scanCity(r, &listings)
		c.Listings = listings
		return c, err
	})
}

// Listing is one person listed in a city. Contact is for operators only.
type Listing struct {
	ID          int64
	CityID      int64
	Name        string
	Age         int
	Photos      []string
	Intro       string
	Certified   int
	DepositPaid int
	Contact     string
	Sort        int
	Enabled     int
	CreatedAt   int64
	UpdatedAt   int64
	Texts       Texts // the name and intro in other languages
}

const listingColumns = `id, city_id, name, age, photos, intro, certified, deposit_paid, contact, sort, enabled, created_at, updated_at, texts`

func scanListing(r Row) (Listing, error) {
	var l Listing
	var photos, texts string
	err := r.Scan(&l.ID, &l.CityID, &l.Name, &l.Age, &photos, &l.Intro, &l.Certified, &l.DepositPaid, &l.Contact,
		&l.Sort, &l.Enabled, &l.CreatedAt, &l.UpdatedAt, &texts)
	if err == nil {
		err = json.Unmarshal([]byte(photos), &l.Photos)
	}
	return l, scanTexts(err, texts, &l.Texts)
}

func photosJSON(p []string) string {
	if p == nil {
		p = []string{}
	}
	b, _ := json.Marshal(p)
	return string(b)
}

// CreateListing inserts l.
func CreateListing(ctx context.Context, q Querier, l Listing) error {
	_, err := q.Exec(ctx, `INSERT INTO city_listings (`+listingColumns+`) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14)`,
		l.ID, l.CityID, l.Name, l.Age, photosJSON(l.Photos), l.Intro, l.Certified, l.DepositPaid, l.Contact,
		l.Sort, l.Enabled, l.CreatedAt, l.UpdatedAt, l.Texts.json())
	return err
}

// UpdateListing replaces the editable fields of l.
func UpdateListing(ctx context.Context, q Querier, l Listing) error {
	return affected(q.Exec(ctx, `UPDATE city_listings SET city_id = $2, name = $3, age = $4, photos = $5, intro = $6,
		certified = $7, deposit_paid = $8, contact = $9, sort = $10, enabled = $11, updated_at = $12, texts = $13 WHERE id = $1`,
		l.ID, l.CityID, l.Name, l.Age, photosJSON(l.Photos), l.Intro, l.Certified, l.DepositPaid, l.Contact,
		l.Sort, l.Enabled, l.UpdatedAt, l.Texts.json()))
}

// ListingByID loads one listing.
func ListingByID(ctx context.Context, q Querier, id int64) (Listing, error) {
	return scanListing(q.QueryRow(ctx, `SELECT `+listingColumns+` FROM city_listings WHERE id = $1`, id))
}

// DeleteListing removes one listing.
func DeleteListing(ctx context.Context, q Querier, id int64) error {
	return affected(q.Exec(ctx, `DELETE FROM city_listings WHERE id = $1`, id))
}

// CountListings counts the listings of a city (0: of every city).
func CountListings(ctx context.Context, q Querier, cityID int64, onlyEnabled bool) (int, error) {
	return count(ctx, q, `SELECT COUNT(*) FROM city_listings WHERE (CAST($1 AS BIGINT) = 0 OR city_id = $1) AND enabled >= $2`,
		cityID, enabledFloor(onlyEnabled))
}

// ListListings lists one page of a city's listings (0: every city) in
// display order.
func ListListings(ctx context.Context, q Querier, cityID int64, onlyEnabled bool, limit, offset int) ([]Listing, error) {
	rows, err := q.Query(ctx, `SELECT `+listingColumns+` FROM city_listings WHERE (CAST($1 AS BIGINT) = 0 OR city_id = $1) AND enabled >= $2
		ORDER BY sort, id DESC LIMIT $3 OFFSET $4`, cityID, enabledFloor(onlyEnabled), limit, offset)
	return CollectRows(rows, err, func(r Rows) (Listing, error) { return scanListing(r) })
}

// AddVideoView counts one video view of userID on day when the user is
// still under limit, in one statement so concurrent views cannot overshoot.
// It returns the day's views and whether this one was counted.
func AddVideoView(ctx context.Context, q Querier, userID int64, day, limit int) (int, bool, error) {
	if limit <= 0 {
		n, err := VideoViews(ctx, q, userID, day)
		return n, false, err
	}
	var n int
	err := q.QueryRow(ctx, `INSERT INTO video_views (user_id, day, views) VALUES ($1, $2, 1)
		ON CONFLICT (user_id, day) DO UPDATE SET views = video_views.views + 1 WHERE video_views.views < $3
		RETURNING views`, userID, day, limit).Scan(&n)
	if errors.Is(err, ErrNotFound) {
		n, err = VideoViews(ctx, q, userID, day)
		return n, false, err
	}
	return n, err == nil, err
}

// VideoViews returns how many videos userID watched on day.
func VideoViews(ctx context.Context, q Querier, userID int64, day int) (int, error) {
	var n int
	err := q.QueryRow(ctx, `SELECT views FROM video_views WHERE user_id = $1 AND day = $2`, userID, day).Scan(&n)
	if errors.Is(err, ErrNotFound) {
		return 0, nil
	}
	return n, err
}

// AddStat counts one event on day and returns the day's count.
func AddStat(ctx context.Context, q Querier, day int, event string) (int64, error) {
	var n int64
	err := q.QueryRow(ctx, `INSERT INTO content_stats (day, event, count) VALUES ($1, $2, 1)
		ON CONFLICT (day, event) DO UPDATE SET count = content_stats.count + 1 RETURNING count`, day, event).Scan(&n)
	return n, err
}

// Stat is the count of one event on one day.
type Stat struct {
	Day   int
	Event string
	Count int64
}

// ListStats lists the counts of days from..to (yyyymmdd, inclusive), newest
// day first.
func ListStats(ctx context.Context, q Querier, from, to int) ([]Stat, error) {
	rows, err := q.Query(ctx, `SELECT day, event, count FROM content_stats WHERE day >= $1 AND day <= $2 ORDER BY day DESC, event`, from, to)
	return CollectRows(rows, err, func(r Rows) (Stat, error) {
		var s Stat
		err := r.Scan(&s.Day, &s.Event, &s.Count)
		return s, err
	})
}

// Contact is one entry of an uploaded address book.
type Contact struct {
	Name  string `json:"name"`
	Phone string `json:"phone"`
}

// SaveContacts replaces the address book of userID.
func SaveContacts(ctx context.Context, q Querier, userID int64, contacts []Contact, at int64) error {
	if contacts == nil {
		contacts = []Contact{}
	}
	b, err := json.Marshal(contacts)
	if err != nil {
		return err
	}
	_, err = q.Exec(ctx, `INSERT INTO user_contacts (user_id, contacts, count, updated_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (user_id) DO UPDATE SET contacts = excluded.contacts, count = excluded.count, updated_at = excluded.updated_at`,
		userID, string(b), len(contacts), at)
	return err
}

// ContactsOf loads the address book userID uploaded (nil when none). Only
// the user's own requests and tests read it.
func ContactsOf(ctx context.Context, q Querier, userID int64) ([]Contact, int64, error) {
	var raw string
	var at int64
	err := q.QueryRow(ctx, `SELECT contacts, updated_at FROM user_contacts WHERE user_id = $1`, userID).Scan(&raw, &at)
	if errors.Is(err, ErrNotFound) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	var out []Contact
	return out, at, json.Unmarshal([]byte(raw), &out)
}

// ContentIsEmpty reports whether the store holds no accounts and no
// content, which is when demo content may be seeded; what names the first
// table found with rows.
func ContentIsEmpty(ctx context.Context, q Querier) (empty bool, what string, err error) {
	for _, table := range []string{"users", "banners", "videos", "cities", "city_listings", "notices",
		"app_domains", "content_settings", "customer_visitors"} {
		var n int
		if err := q.QueryRow(ctx, `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil {
			return false, "", err
		}
		if n > 0 {
			return false, table, nil
		}
	}
	return true, "", nil
}
