package httpapi

// What the content area's routes share: its error codes (1500-1599) and
// translated messages, ids as strings, paging, the optional signed-in user
// of open routes, link and text checks, the calendar day, and the audit
// record every operator action writes.

import (
	"encoding/json"
	"errors"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"kj/storage"
)

// Content error codes (README, "Content, customer service and notices").
const (
	CodeVideoLimit      = 1501 // a non-activated account used today's free videos
	CodePageOutOfRange  = 1502 // page beyond the last one
	CodeCityUnknown     = 1503 // no such (enabled) city
	CodeListingUnderAge = 1504 // a listing's age below 18
	CodeContactsTooMany = 1505 // address book over the cap
	CodeCityInUse       = 1506 // deleting a city that still has listings
	CodeCityNameTaken   = 1507 // another city has this name
	CodeManifestOrder   = 1508 // forced version newer than the normal version
	CodeUploadType      = 1509 // upload is not an accepted image or video
	CodeUploadTooLarge  = 1510 // upload over its size cap
)

// contentID is an id as the web app carries it: a JSON string, because ids
// exceed JavaScript's exact integers. A JSON number is accepted on input.
type contentID int64

func (id contentID) MarshalJSON() ([]byte, error) {
	return []byte(`"` + strconv.FormatInt(int64(id), 10) + `"`), nil
}

func (id *contentID) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		return nil
	}
	if u, err := strconv.Unquote(s); err == nil {
		s = u
	}
	if s == "" {
		*id = 0
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return &json.UnmarshalTypeError{Value: "id " + string(b), Type: reflect.TypeFor[contentID]()}
	}
	*id = contentID(n)
	return nil
}

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

// pageWindow checks the paging against total and returns the page's limit and
// offset with an empty list ready to fill. A page after the last one is
// an error (an empty list has one, empty, page).
func pageWindow[T any](p contentPaging, total, defSize int) (contentList[T], int, int, error) {
	if p.Page < 0 || p.Page > 100000 {
		return contentList[T]{}, 0, 0, Invalid("page")
	}
	if p.PageSize < 0 || p.PageSize > contentMaxPageSize {
		return contentList[T]{}, 0, 0, Fail(CodeInvalid, "content.page.size", "max", contentMaxPageSize)
	}
	if p.Page == 0 {
		p.Page = 1
	}
	if p.PageSize == 0 {
		p.PageSize = defSize
	}
	pages := max(1, (total+p.PageSize-1)/p.PageSize)
	if p.Page > pages {
		return contentList[T]{}, 0, 0, Fail(CodePageOutOfRange, "content.page.range", "page", p.Page, "pages", pages)
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
		return Required(field)
	}
	if n < min || n > max || !utf8.ValidString(*v) {
		return Fail(CodeInvalid, "content.text.length", "field", field, "min", min, "max", max)
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
			return Required(field)
		}
		return nil
	}
	bad := Fail(CodeInvalid, "content.link.invalid", "field", field)
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
		return Invalid(field)
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

// RecordOperatorAction writes the audit entry of the operator action c is
// making (who, what, when) in tx, the action's own transaction. target is
// an id (int64) or a name; detail is encoded as JSON and must hold no
// secrets. Every operator route of every area can call it.
func RecordOperatorAction(c *Call, tx storage.Tx, action string, target any, detail any) error {
	var t string
	switch v := target.(type) {
	case int64:
		t = strconv.FormatInt(v, 10)
	case contentID:
		t = strconv.FormatInt(int64(v), 10)
	case string:
		t = v
	}
	return storage.RecordAudit(c.Ctx, tx, c.User.ID, action, t, detail, c.s.Clock.Now().UnixMilli())
}

// contentStoreErr maps storage sentinels onto the client's errors.
func contentStoreErr(err error) error {
	if errors.Is(err, storage.ErrNotFound) {
		return NotFound()
	}
	return err
}

func init() {
	AddMessages(Messages{
		"content.video.limit": {
			"en-US":   "You have watched today's {limit} free videos. Please contact customer service to activate your membership for unlimited viewing",
			"es-ES":   "Ya ha visto los {limit} vídeos gratuitos de hoy. Contacte con atención al cliente para activar su membresía y ver sin límites",
			"ms-MY":   "Anda telah menonton {limit} video percuma hari ini. Sila hubungi khidmat pelanggan untuk mengaktifkan keahlian bagi tontonan tanpa had",
			"vi-VN":   "Bạn đã xem hết {limit} video miễn phí hôm nay. Vui lòng liên hệ chăm sóc khách hàng để kích hoạt hội viên và xem không giới hạn",
			"zh-CN":   "今日 {limit} 次免费观看次数已用完，请联系客服开通会员，即可无限观看",
			"zh-HANT": "今日 {limit} 次免費觀看次數已用完，請聯繫客服開通會員，即可無限觀看",
		},
		"content.page.range": {
			"en-US":   "Page {page} does not exist; there are {pages} pages",
			"es-ES":   "La página {page} no existe; hay {pages} páginas",
			"ms-MY":   "Halaman {page} tidak wujud; terdapat {pages} halaman",
			"vi-VN":   "Trang {page} không tồn tại; chỉ có {pages} trang",
			"zh-CN":   "第 {page} 页不存在，共 {pages} 页",
			"zh-HANT": "第 {page} 頁不存在，共 {pages} 頁",
		},
		"content.page.size": {
			"en-US":   "pageSize must be between 1 and {max}",
			"es-ES":   "pageSize debe estar entre 1 y {max}",
			"ms-MY":   "pageSize mestilah antara 1 hingga {max}",
			"vi-VN":   "pageSize phải từ 1 đến {max}",
			"zh-CN":   "每页条数须在 1 到 {max} 之间",
			"zh-HANT": "每頁筆數須在 1 到 {max} 之間",
		},
		"content.city.unknown": {
			"en-US": "This city is not available", "es-ES": "Esta ciudad no está disponible",
			"ms-MY": "Bandar ini tidak tersedia", "vi-VN": "Thành phố này không khả dụng",
			"zh-CN": "该城市不存在或未开放", "zh-HANT": "該城市不存在或未開放",
		},
		"content.listing.age": {
			"en-US":   "A listed person must be at least {min} years old",
			"es-ES":   "La persona publicada debe tener al menos {min} años",
			"ms-MY":   "Orang yang disenaraikan mestilah berumur sekurang-kurangnya {min} tahun",
			"vi-VN":   "Người được đăng phải từ {min} tuổi trở lên",
			"zh-CN":   "入驻人员须年满 {min} 周岁",
			"zh-HANT": "入駐人員須年滿 {min} 週歲",
		},
		"content.contacts.many": {
			"en-US":   "At most {max} contacts can be uploaded",
			"es-ES":   "Se pueden subir como máximo {max} contactos",
			"ms-MY":   "Paling banyak {max} kenalan boleh dimuat naik",
			"vi-VN":   "Chỉ có thể tải lên tối đa {max} liên hệ",
			"zh-CN":   "最多只能上传 {max} 个联系人",
			"zh-HANT": "最多只能上傳 {max} 個聯絡人",
		},
		"content.city.in.use": {
			"en-US":   "This city still has {count} listings; move or delete them first",
			"es-ES":   "Esta ciudad aún tiene {count} perfiles; muévalos o elimínelos primero",
			"ms-MY":   "Bandar ini masih mempunyai {count} senarai; alihkan atau padamkannya dahulu",
			"vi-VN":   "Thành phố này vẫn còn {count} hồ sơ; hãy chuyển hoặc xóa chúng trước",
			"zh-CN":   "该城市下还有 {count} 条信息，请先移走或删除",
			"zh-HANT": "該城市下還有 {count} 筆資訊，請先移走或刪除",
		},
		"content.city.taken": {
			"en-US": "A city with this name already exists", "es-ES": "Ya existe una ciudad con este nombre",
			"ms-MY": "Bandar dengan nama ini sudah wujud", "vi-VN": "Đã có thành phố trùng tên",
			"zh-CN": "已存在同名城市", "zh-HANT": "已存在同名城市",
		},
		"content.manifest.order": {
			"en-US":   "The forced update version cannot be newer than the normal update version",
			"es-ES":   "La versión de actualización obligatoria no puede ser más reciente que la versión normal",
			"ms-MY":   "Versi kemas kini wajib tidak boleh lebih baharu daripada versi kemas kini biasa",
			"vi-VN":   "Phiên bản cập nhật bắt buộc không được mới hơn phiên bản cập nhật thường",
			"zh-CN":   "强制更新版本不能高于普通更新版本",
			"zh-HANT": "強制更新版本不能高於一般更新版本",
		},
		"content.upload.type": {
			"en-US":   "Only PNG, JPEG, WebP or GIF images and MP4 or WebM videos can be uploaded",
			"es-ES":   "Solo se pueden subir imágenes PNG, JPEG, WebP o GIF y vídeos MP4 o WebM",
			"ms-MY":   "Hanya imej PNG, JPEG, WebP atau GIF dan video MP4 atau WebM boleh dimuat naik",
			"vi-VN":   "Chỉ có thể tải lên ảnh PNG, JPEG, WebP, GIF và video MP4 hoặc WebM",
			"zh-CN":   "仅支持上传 PNG、JPEG、WebP、GIF 图片和 MP4、WebM 视频",
			"zh-HANT": "僅支援上傳 PNG、JPEG、WebP、GIF 圖片和 MP4、WebM 影片",
		},
		"content.upload.large": {
			"en-US":   "The file is too large (at most {max} MB)",
			"es-ES":   "El archivo es demasiado grande (máximo {max} MB)",
			"ms-MY":   "Fail terlalu besar (maksimum {max} MB)",
			"vi-VN":   "Tệp quá lớn (tối đa {max} MB)",
			"zh-CN":   "文件过大（最大 {max} MB）",
			"zh-HANT": "檔案過大（最大 {max} MB）",
		},
		"content.text.length": {
			"en-US":   "{field} must be {min}-{max} characters long",
			"es-ES":   "{field} debe tener entre {min} y {max} caracteres",
			"ms-MY":   "{field} mestilah antara {min} hingga {max} aksara",
			"vi-VN":   "{field} phải dài từ {min} đến {max} ký tự",
			"zh-CN":   "{field} 长度须为 {min}-{max} 个字符",
			"zh-HANT": "{field} 長度須為 {min}-{max} 個字元",
		},
		"content.link.invalid": {
			"en-US":   "{field} must be a path on this site (such as /files/...) or an http(s) address",
			"es-ES":   "{field} debe ser una ruta de este sitio (como /files/...) o una dirección http(s)",
			"ms-MY":   "{field} mestilah laluan di laman ini (seperti /files/...) atau alamat http(s)",
			"vi-VN":   "{field} phải là đường dẫn trên trang này (ví dụ /files/...) hoặc địa chỉ http(s)",
			"zh-CN":   "{field} 须为本站路径（如 /files/...）或 http(s) 地址",
			"zh-HANT": "{field} 須為本站路徑（如 /files/...）或 http(s) 位址",
		},
	})
}
