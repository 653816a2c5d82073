package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kj/internal/apierr"
	"kj/storage"
)

func TestOperatorRoutesRefuseUsers(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		_, tok := newUser(t, s, "amy")
		n := 0
		for _, rt := range s.Routes() {
			if !strings.HasPrefix(rt.Path, "/admin/") {
				continue
			}
			if rt.Access != Operator {
				t.Errorf("%s is under /admin/ but not operator-only", rt.Path)
			}
			r := call(t, s.Handler(), rt.Method, "/api"+rt.Path, `{"id":"1","title":"x","content":"y","limit":1}`, "token", tok.Token, "Accept-Language", "en-US")
			if r.Code != apierr.CodeOperatorOnly || r.Status != 403 || r.Message != "This page is for operators only" {
				t.Errorf("%s as a user: %+v", rt.Path, r)
			}
			if r := call(t, s.Handler(), rt.Method, "/api"+rt.Path, `{}`); r.Code != apierr.CodeTokenExpired {
				t.Errorf("%s without a token: %+v", rt.Path, r)
			}
			n++
		}
		if n < 25 {
			t.Fatalf("only %d operator routes checked", n)
		}
		if empty, what, _ := storage.ContentIsEmpty(context.Background(), db); !empty && what != "users" {
			t.Fatalf("refused operator calls wrote %s", what)
		}
		if c, _ := storage.CountAudit(context.Background(), db, storage.AuditFilter{}); c != 0 {
			t.Fatalf("refused calls audited: %d", c)
		}
	})
}

func TestOperatorContentManagementIsAudited(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		ctx := context.Background()
		op, opTok := contentOperator(t, s, "oper")
		post := func(path, body string) reply { return contentPost(t, s, path, body, opTok.Token) }

		b := contentOK[adminBanner](t, post("/admin/banner/save", `{"title":"Summer","image":"/files/content/1.png","link":"/pages/tabBar/find","sort":1}`))
		bid := fmt.Sprint(int64(b.ID))
		allowContentHosts(t, s, "https://cdn.example.com")
		b2 := contentOK[adminBanner](t, post("/admin/banner/save", `{"id":"`+bid+`","title":"Summer sale","image":"https://cdn.example.com/1.png","enabled":0}`))
		if b2.ID != b.ID || b2.Title != "Summer sale" || b2.Enabled != 0 || b2.CreatedAt != b.CreatedAt {
			t.Fatalf("banner update: %+v", b2)
		}
		if list := contentOK[[]adminBanner](t, post("/admin/banner/list", ``)); len(list) != 1 {
			t.Fatalf("operator sees disabled banners: %+v", list)
		}
		if shown := contentOK[[]bannerView](t, contentPost(t, s, "/indexCarousel", ``, "")); len(shown) != 0 {
			t.Fatalf("users see a disabled banner: %+v", shown)
		}
		contentFails(t, post("/admin/banner/save", `{"id":"12345","image":"/files/x.png"}`), apierr.CodeNotFound)
		contentFails(t, post("/admin/banner/save", `{"title":"no image"}`), apierr.CodeRequired)
		contentFails(t, post("/admin/banner/save", `{"image":"//evil.example.com/x.png"}`), apierr.CodeInvalid)
		contentFails(t, post("/admin/banner/save", `{"image":"/files/x.png","enabled":2}`), apierr.CodeInvalid)
		contentOK[any](t, post("/admin/banner/delete", `{"id":"`+bid+`"}`))
		contentFails(t, post("/admin/banner/delete", `{"id":"`+bid+`"}`), apierr.CodeNotFound)
		contentFails(t, post("/admin/banner/delete", `{}`), apierr.CodeRequired)

		v := contentOK[adminVideo](t, post("/admin/video/save", `{"kind":"find","title":"Sunrise","url":"/files/demo/sunrise.mp4","duration":8}`))
		contentOK[any](t, post("/admin/video/save", fmt.Sprintf(`{"id":"%d","kind":"passionate","title":"Sunrise","url":"/files/demo/sunrise.mp4"}`, int64(v.ID))))
		if vl := contentOK[contentList[adminVideo]](t, post("/admin/video/list", `{"kind":"passionate"}`)); vl.Total != 1 {
			t.Fatalf("video moved to live highlights: %+v", vl)
		}
		contentFails(t, post("/admin/video/save", `{"kind":"movie","title":"x","url":"/files/x.mp4"}`), apierr.CodeInvalid)
		contentFails(t, post("/admin/video/save", `{"kind":"find","title":"x","url":"/files/x.mp4","chatUserId":"12345"}`), apierr.CodeInvalid)
		contentFails(t, post("/admin/video/save", `{"kind":"find","title":"x","url":"/files/x.mp4","duration":-1}`), apierr.CodeInvalid)
		contentFails(t, post("/admin/video/list", `{"kind":"movie"}`), apierr.CodeInvalid)
		contentOK[any](t, post("/admin/video/delete", fmt.Sprintf(`{"id":%d}`, int64(v.ID))))
		contentFails(t, post("/admin/video/limit", `{}`), apierr.CodeRequired)
		contentFails(t, post("/admin/video/limit", `{"limit":-2}`), apierr.CodeInvalid)
		contentOK[any](t, post("/admin/video/limit", `{"limit":0}`))
		if set := contentOK[adminSettings](t, post("/admin/settings/get", ``)); set.VideoDailyLimit != 0 {
			t.Fatalf("limit 0 must stick: %+v", set)
		}

		city := contentOK[adminCity](t, post("/admin/city/save", `{"name":"Porto"}`))
		contentFails(t, post("/admin/city/save", `{"name":"12"}`), apierr.CodeInvalid)
		if cities := contentOK[[]adminCity](t, post("/admin/city/list", ``)); len(cities) != 1 || cities[0].Name != "Porto" {
			t.Fatalf("operator cities: %+v", cities)
		}
		contentOK[any](t, post("/admin/city/save", fmt.Sprintf(`{"id":"%d","name":"Porto Norte"}`, int64(city.ID))))
		listing := contentOK[adminListing](t, post("/admin/listing/save", fmt.Sprintf(`{"cityId":"%d","name":"Rita","age":25,"contact":"+351 900"}`, int64(city.ID))))
		contentOK[any](t, post("/admin/listing/delete", fmt.Sprintf(`{"id":"%d"}`, int64(listing.ID))))
		contentOK[any](t, post("/admin/city/delete", fmt.Sprintf(`{"id":"%d"}`, int64(city.ID))))

		if m := contentOK[storage.UpdateManifest](t, post("/admin/manifest/get", ``)); m.Package.Normal.Version != "" {
			t.Fatalf("unset manifest: %+v", m)
		}
		contentOK[any](t, post("/admin/domain/save", `{"domain":"Chat.Example.org","appName":"Chat"}`))
		if ds := contentOK[[]adminDomain](t, post("/admin/domain/list", ``)); len(ds) != 1 || ds[0].Domain != "chat.example.org" || ds[0].PlatformID != 10000 {
			t.Fatalf("domains: %+v", ds)
		}
		contentFails(t, post("/admin/domain/save", `{"domain":"a b"}`), apierr.CodeInvalid)
		contentFails(t, post("/admin/domain/save", `{}`), apierr.CodeRequired)
		contentOK[any](t, post("/admin/domain/delete", `{"domain":"chat.example.org"}`))
		contentFails(t, post("/admin/domain/delete", `{"domain":"chat.example.org"}`), apierr.CodeNotFound)
		contentFails(t, post("/admin/settings/save", `{"splashSeconds":99}`), apierr.CodeInvalid)
		contentFails(t, post("/admin/settings/save", `{"appName":"`+strings.Repeat("a", 41)+`"}`), apierr.CodeInvalid)

		// Every change above has its entry, newest first, with who and when.
		audit := contentOK[contentList[auditView]](t, post("/admin/audit/list", `{"pageSize":50}`))
		var actions []string
		for _, e := range audit.List {
			actions = append(actions, e.Action)
			if e.Operator != "oper" || fmt.Sprint(int64(e.OperatorID)) != op.IDString() || e.CreatedAt != s.Clock.Now().UnixMilli() {
				t.Fatalf("entry: %+v", e)
			}
		}
		want := "domain.delete,domain.save,city.delete,listing.delete,listing.create,city.update,city.create,video.limit,video.delete,video.update,video.create,banner.delete,banner.update,banner.create"
		if strings.Join(actions, ",") != want {
			t.Fatalf("audit:\n got %s\nwant %s", strings.Join(actions, ","), want)
		}
		creates := contentOK[contentList[auditView]](t, post("/admin/audit/list", `{"action":"banner.create"}`))
		detail, _ := json.Marshal(creates.List[0].Detail)
		if creates.Total != 1 || creates.List[0].Target != bid || !strings.Contains(string(detail), `"title":"Summer"`) {
			t.Fatalf("filtered audit: %+v %s", creates, detail)
		}
		listingAudit := contentOK[contentList[auditView]](t, post("/admin/audit/list", `{"action":"listing.create"}`))
		if d, _ := json.Marshal(listingAudit.List[0].Detail); strings.Contains(string(d), "+351") {
			t.Fatalf("a listing's contact leaked into the audit log: %s", d)
		}
		contentFails(t, post("/admin/audit/list", `{"page":3}`), apierr.CodePageOutOfRange)
		if n, _ := storage.CountAudit(ctx, db, storage.AuditFilter{OperatorID: op.ID}); n != len(want)-len(strings.ReplaceAll(want, ",", ""))+1 {
			t.Fatalf("refused calls must not be audited: %d entries", n)
		}
	})
}

// multipartFile builds a multipart body with one "file" part.
func multipartFile(t *testing.T, name string, data []byte) (string, *bytes.Buffer) {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	part, _ := w.CreateFormFile("file", name)
	part.Write(data)
	w.Close()
	return w.FormDataContentType(), &body
}

func TestOperatorUpload(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		s.Config.DataDir = t.TempDir()
		_, opTok := contentOperator(t, s, "oper")
		upload := func(name string, data []byte) reply {
			ctype, body := multipartFile(t, name, data)
			return send(t, s.Handler(), request("POST", "/api/admin/upload", body, "Content-Type", ctype, "token", opTok.Token, "Accept-Language", "en-US"))
		}
		img := image.NewRGBA(image.Rect(0, 0, 8, 8))
		img.Set(1, 1, color.RGBA{200, 10, 10, 255})
		var pngData bytes.Buffer
		png.Encode(&pngData, img)

		got := contentOK[map[string]any](t, upload("banner.txt", pngData.Bytes()))
		url, _ := got["url"].(string)
		if !strings.HasPrefix(url, "/files/content/") || !strings.HasSuffix(url, ".png") || got["type"] != "image/png" {
			t.Fatalf("upload: %v", got)
		}
		onDisk, err := os.ReadFile(filepath.Join(s.Config.DataDir, "files", strings.TrimPrefix(url, "/files/")))
		if err != nil || !bytes.Equal(onDisk, pngData.Bytes()) {
			t.Fatalf("stored file: %v", err)
		}
		contentFails(t, upload("evil.png", []byte("<html><script>alert(1)</script></html>")), apierr.CodeUploadType)
		big := append(append([]byte{}, pngData.Bytes()...), make([]byte, contentImageMax)...)
		contentFails(t, upload("big.png", big), apierr.CodeUploadTooLarge, 413)
		files, _ := os.ReadDir(filepath.Join(s.Config.DataDir, "files", "content"))
		if len(files) != 1 {
			t.Fatalf("refused uploads left files: %v", files)
		}
		if n, _ := storage.CountAudit(context.Background(), db, storage.AuditFilter{Action: "file.upload"}); n != 1 {
			t.Fatalf("upload audit entries: %d", n)
		}
		contentFails(t, contentPost(t, s, "/admin/upload", `{}`, opTok.Token), apierr.CodeRequired)
	})
}
