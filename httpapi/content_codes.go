package httpapi

// What the content area's routes share (its error codes, 1500-1599, and
// messages are in internal/apierr): ids as strings, paging, the optional signed-in user
// of open routes, link and text checks and the calendar day. The audit
// record every operator action writes is in audit.go.

import (
	"errors"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"kj/internal/apierr"
	"kj/internal/jsonid"
	"kj/storage"
)

// contentID is an id as the web app carries it: a JSON string, because ids
// exceed JavaScript's exact integers (shared with customer service).
type contentID = jsonid.ID

// contentPaging is the paging a list route accepts: page from 1 (0 means
// 1) and pageSize up to contentMaxPageSize (0 means the route's default).
type contentPaging struct {
	Page     int `json:"page"`
	PageSize int `json:"pageSize"`
}

const contentMaxPageSize = 50

// contentList is one page of a list.
type contentList[T any] struct {
	List     []T `json:"list"`
	Total    int `json:"total"`
	Page     int `json:"page"`
	PageSize int `json:"pageSize"`
	Pages    int `json:"pages"`
}

// valid checks the paging on its own, before anything is looked up.
func (p contentPaging) valid() error {
	_, _, _, err := pageWindow[struct{}](p, 1<<30, 1)
	return err
}

// listPage is one page of a list: count gives the total, pageWindow checks
// the page asked for, list loads its window and view shapes each row.
func listPage[T, R any](p contentPaging, perPage int, count func() (int, error),
	list func(limit, offset int) ([]R, error), view func(R) T) (contentList[T], error) {
	total, err := count()
	if err != nil {
		return contentList[T]{}, err
	}
	page, limit, offset, err := pageWindow[T](p, total, perPage)
	if err != nil {
		return page, err
	}
	rows, err := list(limit, offset)
	page.List = contentMap(rows, view)
	return page, err
}

// pageWindow checks the paging against total and returns the page's limit and
// offset with an empty list ready to fill. A page after the last one is
// an error (an empty list has one, empty, page).
func pageWindow[T any](p contentPaging, total, defSize int) (contentList[T], int, int, error) {
	if p.Page < 0 || p.Page > 100000 {
		return contentList[T]{}, 0, 0, apierr.Invalid("page")
	}
	if p.PageSize < 0 || p.PageSize > contentMaxPageSize {
		return contentList[T]{}, 0, 0, apierr.Fail(apierr.CodeInvalid, "content.page.size", "max", contentMaxPageSize)
	}
	if p.Page == 0 {
		p.Page = 1
	}
	if p.PageSize == 0 {
		p.PageSize = defSize
	}
	pages := max(1, (total+p.PageSize-1)/p.PageSize)
	if p.Page > pages {
		return contentList[T]{}, 0, 0, apierr.Fail(apierr.CodePageOutOfRange, "content.page.range", "page", p.Page, "pages", pages)
	}
	l := contentList[T]{List: []T{}, Total: total, Page: p.Page, PageSize: p.PageSize, Pages: pages}
	return l, p.PageSize, (p.Page - 1) * p.PageSize, nil
}

// contentViewer authenticates the caller of an open route when it sends a
// token: a valid token sets c.User; a bad one fails as on any user route
// (401/403) so the client renews it; no token is an anonymous caller.
func contentViewer(c *Call) (bool, error) {
	if c.User.ID != 0 {
		return true, nil
	}
	if Token(c.R) == "" {
		return false, nil
	}
	if err := c.s.authenticate(c); err != nil {
		return false, err
	}
	return true, nil
}

// contentText trims v and checks its length in characters; min 0 allows empty.
func contentText(field string, v *string, min, max int) error {
	*v = strings.TrimSpace(*v)
	n := utf8.RuneCountInString(*v)
	if n == 0 && min > 0 {
		return apierr.Required(field)
	}
	if n < min || n > max || !utf8.ValidString(*v) {
		return apierr.Fail(apierr.CodeInvalid, "content.text.length", "field", field, "min", min, "max", max)
	}
	return nil
}

// contentLink accepts the addresses operators give for images, videos and
// links: a path on this server (/files/..., an app page /pages/...) or an
// http(s) URL. Empty is accepted unless required.
func contentLink(field string, v *string, required bool) error {
	*v = strings.TrimSpace(*v)
	if *v == "" {
		if required {
			return apierr.Required(field)
		}
		return nil
	}
	bad := apierr.Fail(apierr.CodeInvalid, "content.link.invalid", "field", field)
	if len(*v) > 1000 || strings.ContainsAny(*v, " \t\r\n\\<>\"") {
		return bad
	}
	if strings.HasPrefix(*v, "/") {
		if strings.HasPrefix(*v, "//") || strings.Contains(*v, "/../") || strings.HasSuffix(*v, "/..") {
			return bad
		}
		return nil
	}
	u, err := url.Parse(*v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return bad
	}
	return nil
}

// contentFlag checks a 0/1 flag field.
func contentFlag(field string, v int) error {
	if v != 0 && v != 1 {
		return apierr.Invalid(field)
	}
	return nil
}

// contentDay is the calendar day (yyyymmdd) of t in the configured zone,
// and when the next day starts.
func (s *Server) contentDay(t time.Time) (int, time.Time) {
	zone := s.Config.DayZone
	if zone == nil {
		zone = time.UTC
	}
	lt := t.In(zone)
	y, m, d := lt.Date()
	next := time.Date(y, m, d+1, 0, 0, 0, 0, zone)
	return y*10000 + int(m)*100 + d, next
}

// contentStoreErr maps storage sentinels onto the client's errors.
func contentStoreErr(err error) error {
	if errors.Is(err, storage.ErrNotFound) {
		return apierr.NotFound()
	}
	return err
}

// contentTexts checks the texts an operator gives in other languages
// ({"en-US": {"title": "..."}}): languages among the six, fields among those
// of maxRunes, each text as long as its field allows (trimmed; an empty one
// is dropped, so that language shows the default text). Absent texts stay
// nil: an update then keeps the stored ones (a form that does not edit them
// must not erase them); {} clears them.
func contentTexts(texts storage.Texts, maxRunes map[string]int) (storage.Texts, error) {
	if texts == nil {
		return nil, nil
	}
	out := storage.Texts{}
	for lang, fields := range texts {
		if !slices.Contains(apierr.Langs, lang) {
			return nil, apierr.Invalid("texts." + lang)
		}
		for field, v := range fields {
			max, ok := maxRunes[field]
			if !ok {
				return nil, apierr.Invalid("texts." + lang + "." + field)
			}
			if err := contentText("texts."+lang+"."+field, &v, 0, max); err != nil {
				return nil, err
			}
			if v == "" {
				continue
			}
			if out[lang] == nil {
				out[lang] = map[string]string{}
			}
			out[lang][field] = v
		}
	}
	return out, nil
}

// adminTexts is how operators read texts back: never null.
func adminTexts(t storage.Texts) storage.Texts {
	if t == nil {
		return storage.Texts{}
	}
	return t
}
