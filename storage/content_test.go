package storage_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

func TestSettingsAndDomains(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		var limit int
		if ok, err := storage.GetSetting(ctx, db, storage.SettingVideoLimit, &limit); ok || err != nil {
			t.Fatalf("unset setting: %v %v", ok, err)
		}
		storage.PutSetting(ctx, db, storage.SettingVideoLimit, 3, 1, 10)
		storage.PutSetting(ctx, db, storage.SettingVideoLimit, 7, 1, 11)
		if ok, err := storage.GetSetting(ctx, db, storage.SettingVideoLimit, &limit); !ok || err != nil || limit != 7 {
			t.Fatalf("setting = %v %v %d", ok, err, limit)
		}

		d := storage.AppDomain{Domain: "a.example", PlatformID: 1, PackageID: 2, AppName: "A", OssURL: "https://oss", CreatedAt: 5, UpdatedAt: 5}
		if err := storage.SaveDomain(ctx, db, d); err != nil {
			t.Fatal(err)
		}
		d.AppName, d.UpdatedAt = "B", 6
		storage.SaveDomain(ctx, db, d)
		got, err := storage.DomainByName(ctx, db, "a.example")
		if err != nil || got.AppName != "B" || got.CreatedAt != 5 || got.UpdatedAt != 6 {
			t.Fatalf("domain = %+v %v", got, err)
		}
		if err := storage.DeleteDomain(ctx, db, "a.example"); err != nil {
			t.Fatal(err)
		}
		if err := storage.DeleteDomain(ctx, db, "a.example"); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("second delete: %v", err)
		}
	})
}

func TestCitiesAndListings(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		c1 := storage.City{ID: storage.NewID(), Name: "Lisbon", Sort: 2, Enabled: 1}
		c2 := storage.City{ID: storage.NewID(), Name: "Porto", Sort: 1, Enabled: 1}
		c3 := storage.City{ID: storage.NewID(), Name: "Hidden", Enabled: 0}
		for _, c := range []storage.City{c1, c2, c3} {
			if err := storage.CreateCity(ctx, db, c); err != nil {
				t.Fatal(err)
			}
		}
		if err := storage.CreateCity(ctx, db, storage.City{ID: storage.NewID(), Name: "Porto"}); !errors.Is(err, storage.ErrConflict) {
			t.Fatalf("duplicate city name: %v", err)
		}
		for i := range 3 {
			l := storage.Listing{ID: storage.NewID(), CityID: c1.ID, Name: "L" + string(rune('a'+i)), Age: 20 + i,
				Photos: []string{"/files/a.png"}, Certified: 1, Enabled: 1, Contact: "secret"}
			if err := storage.CreateListing(ctx, db, l); err != nil {
				t.Fatal(err)
			}
		}
		storage.CreateListing(ctx, db, storage.Listing{ID: storage.NewID(), CityID: c1.ID, Name: "off", Age: 30, Enabled: 0})
		cities, err := storage.ListCities(ctx, db, true)
		if err != nil || len(cities) != 2 || cities[0].Name != "Porto" || cities[1].Listings != 3 {
			t.Fatalf("cities = %+v %v", cities, err)
		}
		if n, _ := storage.CountListings(ctx, db, c1.ID, true); n != 3 {
			t.Fatalf("enabled listings = %d", n)
		}
		if n, _ := storage.CountListings(ctx, db, 0, false); n != 4 {
			t.Fatalf("all listings = %d", n)
		}
		page, err := storage.ListListings(ctx, db, c1.ID, true, 2, 2)
		if err != nil || len(page) != 1 || page[0].Name != "La" || !slices.Equal(page[0].Photos, []string{"/files/a.png"}) {
			t.Fatalf("second page = %+v %v", page, err)
		}
		l := page[0]
		l.Age, l.Photos = 40, nil
		if err := storage.UpdateListing(ctx, db, l); err != nil {
			t.Fatal(err)
		}
		got, _ := storage.ListingByID(ctx, db, l.ID)
		if got.Age != 40 || len(got.Photos) != 0 || got.Contact != "secret" {
			t.Fatalf("updated listing = %+v", got)
		}
	})
}

func TestVideoViewsStopAtTheLimitUnderConcurrency(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		var wg sync.WaitGroup
		var mu sync.Mutex
		counted := 0
		for range 12 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, ok, err := storage.AddVideoView(ctx, db, 42, 20260301, 5)
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					counted++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if counted != 5 {
			t.Fatalf("%d views counted, want 5", counted)
		}
		if n, _ := storage.VideoViews(ctx, db, 42, 20260301); n != 5 {
			t.Fatalf("stored views = %d", n)
		}
		if n, ok, _ := storage.AddVideoView(ctx, db, 42, 20260302, 5); !ok || n != 1 {
			t.Fatalf("next day starts over: %d %v", n, ok)
		}
		if n, ok, _ := storage.AddVideoView(ctx, db, 43, 20260302, 0); ok || n != 0 {
			t.Fatalf("limit 0 counts nothing: %d %v", n, ok)
		}
	})
}

func TestStatsContactsAndEmptiness(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		if empty, _, err := storage.ContentIsEmpty(ctx, db); !empty || err != nil {
			t.Fatalf("fresh store not empty: %v", err)
		}
		storage.AddStat(ctx, db, 20260301, "launch")
		if n, err := storage.AddStat(ctx, db, 20260301, "launch"); n != 2 || err != nil {
			t.Fatalf("stat = %d %v", n, err)
		}
		storage.AddStat(ctx, db, 20260302, "page")
		stats, _ := storage.ListStats(ctx, db, 20260301, 20260302)
		if len(stats) != 2 || stats[0].Day != 20260302 || stats[1].Count != 2 {
			t.Fatalf("stats = %+v", stats)
		}

		storage.SaveContacts(ctx, db, 7, []storage.Contact{{Name: "a", Phone: "1"}, {Name: "b", Phone: "2"}}, 1)
		storage.SaveContacts(ctx, db, 7, []storage.Contact{{Name: "c", Phone: "3"}}, 2)
		got, at, err := storage.ContactsOf(ctx, db, 7)
		if err != nil || at != 2 || len(got) != 1 || got[0].Name != "c" {
			t.Fatalf("contacts = %+v %d %v", got, at, err)
		}
		if got, _, _ := storage.ContactsOf(ctx, db, 8); got != nil {
			t.Fatalf("someone else's contacts: %+v", got)
		}

		storage.CreateBanner(ctx, db, storage.Banner{ID: storage.NewID(), Image: "/x.png", Enabled: 1})
		if empty, what, _ := storage.ContentIsEmpty(ctx, db); empty || what != "banners" {
			t.Fatalf("store with a banner: %v %q", empty, what)
		}
	})
}

func TestNoticesReadState(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		var ids []int64
		for i := range 4 {
			n := storage.Notice{ID: storage.NewID(), Title: "t", Content: "c", CreatedBy: 1, CreatedAt: int64(i)}
			if err := storage.CreateNotice(ctx, db, n); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, n.ID)
		}
		if n, _ := storage.UnreadNotices(ctx, db, 7); n != 4 {
			t.Fatalf("unread = %d", n)
		}
		if was, err := storage.MarkNoticeRead(ctx, db, 7, ids[1], 9); !was || err != nil {
			t.Fatalf("read one: %v %v", was, err)
		}
		if was, _ := storage.MarkNoticeRead(ctx, db, 7, ids[1], 9); was {
			t.Fatal("reading twice should report already read")
		}
		if _, err := storage.MarkNoticeRead(ctx, db, 7, 12345, 9); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("unknown notice: %v", err)
		}
		list, _ := storage.UserNotices(ctx, db, 7, 10, 0)
		if len(list) != 4 || list[0].ID != ids[3] || list[2].ID != ids[1] || !list[2].Read || list[0].Read {
			t.Fatalf("list = %+v", list)
		}
		if n, _ := storage.UnreadNotices(ctx, db, 8); n != 4 {
			t.Fatalf("another user's read state leaked: %d", n)
		}
		if n, err := storage.MarkAllNoticesRead(ctx, db, 7, 10); n != 3 || err != nil {
			t.Fatalf("read all = %d %v", n, err)
		}
		if n, _ := storage.UnreadNotices(ctx, db, 7); n != 0 {
			t.Fatalf("unread after read all = %d", n)
		}
		newer := storage.Notice{ID: storage.NewID(), Title: "new", Content: "c", CreatedBy: 1, CreatedAt: 20}
		storage.CreateNotice(ctx, db, newer)
		if n, _ := storage.UnreadNotices(ctx, db, 7); n != 1 {
			t.Fatalf("a notice after read all must be unread: %d", n)
		}
		if err := storage.DeleteNotice(ctx, db, newer.ID); err != nil {
			t.Fatal(err)
		}
		if n, _ := storage.UnreadNotices(ctx, db, 7); n != 0 {
			t.Fatalf("deleted notice still counted: %d", n)
		}
		if n, _ := storage.MarkAllNoticesRead(ctx, db, 9, 10); n != 4 {
			t.Fatalf("read all for a fresh user = %d", n)
		}
	})
}

func TestAuditLog(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		op := newUser("opal")
		op.IsOperator = 1
		addUsers(t, db, op)
		db.Tx(ctx, func(tx storage.Tx) error {
			storage.RecordAudit(ctx, tx, op.ID, "banner.create", "1", map[string]any{"title": "x"}, 5)
			return storage.RecordAudit(ctx, tx, op.ID, "notice.publish", "2", nil, 6)
		})
		errBoom := errors.New("boom")
		db.Tx(ctx, func(tx storage.Tx) error {
			storage.RecordAudit(ctx, tx, op.ID, "banner.delete", "1", nil, 7)
			return errBoom
		})
		if n, _ := storage.CountAudit(ctx, db, storage.AuditFilter{}); n != 2 {
			t.Fatalf("entries = %d (a rolled-back action must leave none)", n)
		}
		list, err := storage.ListAudit(ctx, db, storage.AuditFilter{Action: "banner.create", OperatorID: op.ID}, 10, 0)
		if err != nil || len(list) != 1 || list[0].Operator != "opal" || list[0].Detail != `{"title":"x"}` || list[0].CreatedAt != 5 {
			t.Fatalf("audit = %+v %v", list, err)
		}
	})
}
