package storage_test

import (
	"context"
	"reflect"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

// Every content table keeps its texts in other languages through create,
// read, list and update, and a language or field left out answers the
// default language's column.
func TestContentTextsPerLanguage(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		en := func(kv ...string) storage.Texts {
			m := map[string]string{}
			for i := 0; i+1 < len(kv); i += 2 {
				m[kv[i]] = kv[i+1]
			}
			return storage.Texts{"en-US": m}
		}
		check := func(what string, got, want storage.Texts) {
			t.Helper()
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s texts = %v, want %v", what, got, want)
			}
		}

		b := storage.Banner{ID: storage.NewID(), Title: "欢迎", Image: "/b.png", Enabled: 1, Texts: en("title", "Welcome")}
		if err := storage.CreateBanner(ctx, db, b); err != nil {
			t.Fatal(err)
		}
		banners, err := storage.ListBanners(ctx, db, true)
		if err != nil || len(banners) != 1 {
			t.Fatalf("banners %v %v", banners, err)
		}
		check("banner", banners[0].Texts, b.Texts)
		if got := banners[0].Texts.Text("en-US", "title", banners[0].Title); got != "Welcome" {
			t.Errorf("en-US title %q", got)
		}
		if got := banners[0].Texts.Text("vi-VN", "title", banners[0].Title); got != "欢迎" {
			t.Errorf("vi-VN falls back to the default language: %q", got)
		}
		b.Texts = storage.Texts{"vi-VN": {"title": "Chào mừng"}}
		if err := storage.UpdateBanner(ctx, db, b); err != nil {
			t.Fatal(err)
		}
		got, _ := storage.BannerByID(ctx, db, b.ID)
		check("updated banner", got.Texts, b.Texts)

		v := storage.Video{ID: storage.NewID(), Kind: storage.VideoFind, Title: "日出", URL: "/v.mp4", Enabled: 1, Texts: en("title", "Sunrise")}
		if err := storage.CreateVideo(ctx, db, v); err != nil {
			t.Fatal(err)
		}
		videos, _ := storage.ListVideos(ctx, db, storage.VideoFind, true, 10, 0)
		if len(videos) != 1 {
			t.Fatalf("videos %v", videos)
		}
		check("video", videos[0].Texts, v.Texts)

		c := storage.City{ID: storage.NewID(), Name: "上海", Enabled: 1, Texts: en("name", "Shanghai")}
		if err := storage.CreateCity(ctx, db, c); err != nil {
			t.Fatal(err)
		}
		l := storage.Listing{ID: storage.NewID(), CityID: c.ID, Name: "莉莉", Age: 24, Enabled: 1, Intro: "喜欢咖啡",
			Texts: en("name", "Lily", "intro", "Loves coffee")}
		if err := storage.CreateListing(ctx, db, l); err != nil {
			t.Fatal(err)
		}
		cities, _ := storage.ListCities(ctx, db, true)
		if len(cities) != 1 || cities[0].Listings != 1 {
			t.Fatalf("cities %+v", cities)
		}
		check("listed city", cities[0].Texts, c.Texts)
		byName, _ := storage.CityByName(ctx, db, "上海")
		check("city by name", byName.Texts, c.Texts)
		c.Texts = nil
		if err := storage.UpdateCity(ctx, db, c); err != nil {
			t.Fatal(err)
		}
		byID, _ := storage.CityByID(ctx, db, c.ID)
		if len(byID.Texts) != 0 || byID.Texts.Text("en-US", "name", byID.Name) != "上海" {
			t.Errorf("cleared city texts = %v", byID.Texts)
		}
		listings, _ := storage.ListListings(ctx, db, c.ID, true, 10, 0)
		if len(listings) != 1 {
			t.Fatalf("listings %v", listings)
		}
		check("listing", listings[0].Texts, l.Texts)

		n := storage.Notice{ID: storage.NewID(), Title: "公告", Content: "内容", CreatedAt: 1, UpdatedAt: 1,
			Texts: en("title", "Notice", "content", "Text")}
		if err := storage.CreateNotice(ctx, db, n); err != nil {
			t.Fatal(err)
		}
		mine, err := storage.UserNotices(ctx, db, 42, 10, 0)
		if err != nil || len(mine) != 1 {
			t.Fatalf("user notices %v %v", mine, err)
		}
		check("user's notice", mine[0].Texts, n.Texts)
		n.Texts["es-ES"] = map[string]string{"title": "Aviso"}
		if err := storage.UpdateNotice(ctx, db, n); err != nil {
			t.Fatal(err)
		}
		again, _ := storage.NoticeByID(ctx, db, n.ID)
		check("updated notice", again.Texts, n.Texts)
	})
}
