package httpapi

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"kj/internal/apierr"
	"kj/storage"
)

// Operators save content with texts in other languages; every content route
// answers in the request's language and falls back to the default text for
// a language or field without one.
func TestContentInTheRequestLanguage(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		_, opTok := contentOperator(t, s, "oper")
		_, userTok := newUser(t, s, "amy")
		ok := func(path, body string) map[string]any {
			t.Helper()
			return contentOK[map[string]any](t, contentPost(t, s, "/admin"+path, body, opTok.Token))
		}
		banner := ok("/banner/save", `{"title":"欢迎","image":"/files/b.png","texts":{"en-US":{"title":"Welcome"},"vi-VN":{"title":" "}}}`)
		if texts := banner["texts"].(map[string]any); len(texts) != 1 {
			t.Errorf("saved banner texts %v: the empty vi-VN title should be dropped", texts)
		}
		ok("/video/save", `{"kind":"find","title":"日出","url":"/files/v.mp4","texts":{"en-US":{"title":"Sunrise"},"es-ES":{"title":"Amanecer"}}}`)
		ok("/video/save", `{"kind":"passionate","title":"夜色","url":"/files/n.mp4","texts":{"en-US":{"title":"Night"}}}`)
		city := ok("/city/save", `{"name":"上海","texts":{"en-US":{"name":"Shanghai"},"zh-HANT":{"name":"上海市"}}}`)
		ok("/listing/save", `{"cityId":"`+city["id"].(string)+`","name":"莉莉","age":24,"intro":"喜欢咖啡","texts":{"en-US":{"name":"Lily","intro":"Loves coffee"},"es-ES":{"intro":"Le encanta el café"}}}`)
		ok("/notice/publish", `{"title":"公告","content":"内容","texts":{"en-US":{"title":"Notice","content":"Text"}}}`)

		type view struct {
			Title, Name, Intro, City, Content string
		}
		get := func(path, lang, token string, body ...string) reply {
			t.Helper()
			b := `{}`
			if len(body) > 0 {
				b = body[0]
			}
			return contentPost(t, s, path, b, token, "Accept-Language", lang)
		}
		for _, tc := range []struct {
			lang                                                     string
			banner, find, passionate, city, name, intro, notice, msg string
		}{
			{"en-US", "Welcome", "Sunrise", "Night", "Shanghai", "Lily", "Loves coffee", "Notice", "Text"},
			{"en", "Welcome", "Sunrise", "Night", "Shanghai", "Lily", "Loves coffee", "Notice", "Text"},
			{"es-ES", "欢迎", "Amanecer", "夜色", "上海", "莉莉", "Le encanta el café", "公告", "内容"},
			{"zh-HANT", "欢迎", "日出", "夜色", "上海市", "莉莉", "喜欢咖啡", "公告", "内容"},
			{"zh-CN", "欢迎", "日出", "夜色", "上海", "莉莉", "喜欢咖啡", "公告", "内容"},
			{"fr-FR", "欢迎", "日出", "夜色", "上海", "莉莉", "喜欢咖啡", "公告", "内容"},
		} {
			banners := contentOK[[]view](t, get("/indexCarousel", tc.lang, ""))
			finds := contentOK[contentList[view]](t, get("/getFindVideo", tc.lang, ""))
			highlights := contentOK[contentList[view]](t, get("/getPassionateVideo", tc.lang, ""))
			cities := contentOK[[]view](t, get("/getCityList", tc.lang, ""))
			listings := contentOK[contentList[view]](t, get("/sameCityList", tc.lang, "", `{"city":"`+city["id"].(string)+`"}`))
			notices := contentOK[contentList[view]](t, get("/user/noticeList", tc.lang, userTok.Token))
			home := contentOK[struct {
				Carousel []view
				Videos   []view
				Cities   []view
				Notice   struct{ Latest view }
			}](t, get("/getHomeData", tc.lang, ""))
			got := []string{banners[0].Title, finds.List[0].Title, highlights.List[0].Title, cities[0].Name,
				listings.List[0].Name, listings.List[0].Intro, listings.List[0].City, notices.List[0].Title, notices.List[0].Content,
				home.Carousel[0].Title, home.Videos[0].Title, home.Cities[0].Name, home.Notice.Latest.Title}
			want := []string{tc.banner, tc.find, tc.passionate, tc.city, tc.name, tc.intro, tc.city, tc.notice, tc.msg,
				tc.banner, tc.find, tc.city, tc.notice}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("%s: answer %d is %q, want %q (all: %q)", tc.lang, i, got[i], want[i], got)
					break
				}
			}
		}

		// The customer-service welcome from the app settings, likewise.
		ok("/settings/save", `{"serviceWelcome":"您好","serviceWelcomeTexts":{"en-US":"Hello","ms-MY":""}}`)
		for lang, want := range map[string]string{"en-US": "Hello", "ms-MY": "您好", "zh-CN": "您好"} {
			base := contentOK[struct {
				CustomerService struct{ Welcome string }
			}](t, get("/getBaseData", lang, ""))
			init := contentOK[struct{ Welcome string }](t, get("/customer/init", lang, ""))
			if base.CustomerService.Welcome != want || init.Welcome != want {
				t.Errorf("%s welcome: base data %q, customer init %q, want %q", lang, base.CustomerService.Welcome, init.Welcome, want)
			}
		}
		contentFails(t, contentPost(t, s, "/admin/settings/save", `{"serviceWelcomeTexts":{"xx-XX":"Hi"}}`, opTok.Token), apierr.CodeInvalid)
		// A form that leaves texts out (the console's settings form, an older client) keeps them;
		// {} clears them.
		ok("/settings/save", `{"serviceWelcome":"您好！"}`)
		if w := contentOK[struct{ Welcome string }](t, get("/customer/init", "en-US", "")).Welcome; w != "Hello" {
			t.Errorf("settings saved without texts: en-US welcome %q", w)
		}
		ok("/city/save", `{"id":"`+city["id"].(string)+`","name":"上海","sort":1}`)
		if name := contentOK[[]view](t, get("/getCityList", "en-US", ""))[0].Name; name != "Shanghai" {
			t.Errorf("city saved without texts: en-US name %q", name)
		}
		ok("/city/save", `{"id":"`+city["id"].(string)+`","name":"上海","texts":{}}`)
		if name := contentOK[[]view](t, get("/getCityList", "en-US", ""))[0].Name; name != "上海" {
			t.Errorf("city saved with texts {}: en-US name %q", name)
		}
		ok("/city/save", `{"id":"`+city["id"].(string)+`","name":"上海","texts":{"en-US":{"name":"Shanghai"},"zh-HANT":{"name":"上海市"}}}`)

		// Operators read back every language beside the default one.
		cities := contentOK[[]adminCity](t, contentPost(t, s, "/admin/city/list", `{}`, opTok.Token, "Accept-Language", "en-US"))
		if len(cities) != 1 || cities[0].Name != "上海" || cities[0].Texts["zh-HANT"]["name"] != "上海市" {
			t.Errorf("operator city list %+v", cities)
		}
	})
}

// Texts in a language that is not one of the six, for a field that cannot be
// translated, or too long are refused with a translated error and change
// nothing.
func TestContentTextsAreChecked(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		ctx := context.Background()
		_, opTok := contentOperator(t, s, "oper")
		for _, tc := range []struct {
			body string
			code int
		}{
			{`{"title":"t","image":"/files/b.png","texts":{"fr-FR":{"title":"Bienvenue"}}}`, apierr.CodeInvalid},
			{`{"title":"t","image":"/files/b.png","texts":{"en-US":{"link":"/x"}}}`, apierr.CodeInvalid},
			{`{"title":"t","image":"/files/b.png","texts":{"en-US":{"title":"` + strings.Repeat("a", 101) + `"}}}`, apierr.CodeInvalid},
			{`{"title":"t","image":"/files/b.png","texts":{"en-US":"Welcome"}}`, apierr.CodeBadRequest},
		} {
			contentFails(t, contentPost(t, s, "/admin/banner/save", tc.body, opTok.Token, "Accept-Language", "vi-VN"), tc.code)
		}
		if list, _ := storage.ListBanners(ctx, db, false); len(list) != 0 {
			t.Fatalf("refused saves stored %d banners", len(list))
		}
		r := contentPost(t, s, "/admin/notice/publish", `{"title":"t","content":"c","texts":{"en-US":{"image":"x"}}}`, opTok.Token)
		contentFails(t, r, apierr.CodeInvalid)
		if n, _ := storage.CountNotices(ctx, db); n != 0 {
			t.Fatalf("a refused notice was stored")
		}
	})
}
