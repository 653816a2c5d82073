// Package seed fills an empty store with demo content for `kj seed --demo`,
// so a fresh `make run` shows a living app — banners, videos, cities with
// listings, notices, app settings and a customer-service operator — with
// every picture and video generated here (media.go) into
// $KJ_DATA_DIR/files/demo/. Nothing is ever loaded unless asked, and never
// into a store that already holds accounts or content.
package seed

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"image"
	"math/big"
	"os"
	"path/filepath"
	"sync"
	"time"

	"kj/auth"
	"kj/storage"
)

// ErrStoreNotEmpty: demo content only goes into an empty store.
var ErrStoreNotEmpty = errors.New("the store is not empty")

// Loaded says what Demo loaded.
type Loaded struct {
	Banners, Videos, Cities, Listings, Notices int
	Files                                      int
	OperatorAccount                            string
	OperatorPassword                           string
}

// demoPassword makes a 12-character password of letters and digits that
// passes the sign-up rules (both kinds present).
func demoPassword() string {
	const letters, digits = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ", "23456789"
	pick := func(set string) byte {
		n, _ := rand.Int(rand.Reader, big.NewInt(int64(len(set))))
		return set[n.Int64()]
	}
	b := make([]byte, 12)
	for i := range b {
		b[i] = pick(letters + digits)
	}
	b[3], b[8] = pick(letters), pick(digits)
	return string(b)
}

// demoFile is a generated file of the demo set.
type demoFile struct {
	name string
	data []byte
}

// demoScenes are the demo videos (and the banners painted from them).
var demoScenes = []struct {
	file  string
	paint scene
}{{"sunrise", sunrise}, {"paper-boat", paperBoat}, {"night-city", nightCity}}

// demoMedia paints the demo files. They are the same on every run, so a
// process paints them once.
var demoMedia = sync.OnceValues(func() ([]demoFile, error) {
	const videoW, videoH, fps, seconds = 320, 180, 10, 5.0
	var files []demoFile
	add := func(name string, img image.Image) error {
		b, err := pngBytes(img)
		files = append(files, demoFile{name, b})
		return err
	}
	for i, sc := range demoScenes {
		c := newCanvas(750, 300)
		sc.paint(c, 0.6)
		if err := add(fmt.Sprintf("banner-%d.png", i+1), c.RGBA); err != nil {
			return nil, err
		}
		mp4, cover := demoVideo(sc.paint, videoW, videoH, fps, seconds)
		files = append(files, demoFile{sc.file + ".mp4", mp4})
		if err := add(sc.file+".png", cover); err != nil {
			return nil, err
		}
	}
	const portraits = 6
	for i := range portraits {
		if err := add(fmt.Sprintf("photo-%d.png", i+1), portrait(360, 480, float64(i)/portraits).RGBA); err != nil {
			return nil, err
		}
	}
	c := newCanvas(375, 667)
	c.vertical(nightBottom, rgb{120, 150, 255})
	c.disc(187, 300, 56, ivory)
	c.disc(187, 300, 34, nightBottom)
	return files, add("splash.png", c.RGBA)
})

// Demo writes the demo files under dataDir/files/demo and loads the
// demo content in one transaction. It refuses (ErrStoreNotEmpty) when the
// store holds accounts or content, and removes the files it wrote when
// loading fails.
func Demo(ctx context.Context, db storage.DB, dataDir string, now time.Time) (Loaded, error) {
	if empty, what, err := storage.ContentIsEmpty(ctx, db); err != nil {
		return Loaded{}, err
	} else if !empty {
		return Loaded{}, fmt.Errorf("%w (it has %s); demo content only goes into an empty store", ErrStoreNotEmpty, what)
	}

	media, err := demoMedia()
	if err != nil {
		return Loaded{}, err
	}
	dir := filepath.Join(dataDir, "files", "demo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Loaded{}, err
	}
	var written []string
	cleanup := func() {
		for _, p := range written {
			os.Remove(p)
		}
	}
	for _, f := range media {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			cleanup()
			return Loaded{}, fmt.Errorf("write %s: %w", p, err)
		}
		written = append(written, p)
	}
	res, err := loadDemo(ctx, db, now.UnixMilli(), demoScenes[0].file, demoScenes[1].file, demoScenes[2].file)
	if err != nil {
		cleanup()
		return Loaded{}, err
	}
	res.Files = len(written)
	return res, nil
}

// demoListing is one listed person of the demo; the intro is in texts.json (intros).
type demoListing struct {
	name                 string
	age                  int
	certified, depositPd int
}

// Names stay as they are in every language; the other words are in texts.go.
var demoListings = []demoListing{
	{"Lily", 24, 1, 1}, {"Mia", 27, 1, 0}, {"Sophie", 25, 0, 1}, {"Grace", 29, 1, 1},
	{"Ivy", 23, 0, 0}, {"Ruby", 31, 1, 0}, {"Nora", 26, 1, 1}, {"Ella", 28, 0, 1},
}

// loadDemo inserts the demo rows, referring to the files Demo wrote.
func loadDemo(ctx context.Context, db storage.DB, now int64, videoFiles ...string) (Loaded, error) {
	password := demoPassword()
	hash, err := auth.HashPassword(password)
	if err != nil {
		return Loaded{}, err
	}
	res := Loaded{OperatorAccount: "service", OperatorPassword: password}
	err = db.Tx(ctx, func(tx storage.Tx) error {
		// Checked again inside the transaction: another seed may have run meanwhile.
		if empty, what, err := storage.ContentIsEmpty(ctx, tx); err != nil {
			return err
		} else if !empty {
			return fmt.Errorf("%w (it has %s)", ErrStoreNotEmpty, what)
		}
		op := storage.User{ID: storage.NewID(), Account: res.OperatorAccount, PasswordHash: hash, Nickname: "客服 Service",
			InviteCode: "pro_service", IsOperator: 1, IsActivation: 1, CreatedAt: now, UpdatedAt: now}
		if err := storage.CreateUser(ctx, tx, op); err != nil {
			return err
		}
		err := storage.PutSetting(ctx, tx, storage.SettingApp, storage.AppSettings{
			AppName:             "kj",
			ServiceWelcome:      demoTexts.ServiceWelcome[defaultLang],
			ServiceWelcomeTexts: demoWelcomeTexts(),
			SplashImage:         "/files/demo/splash.png", SplashSeconds: 3,
		}, op.ID, now)
		if err != nil {
			return err
		}
		banners := []storage.Banner{
			{Link: "/pages/tabBar/find"},
			{Link: "/pages/chat/contacts"},
			{Link: "/pages/customer/customer"},
		}
		for i, b := range banners {
			title := demoTexts.BannerTitles[i]
			b.Title, b.Texts = title[defaultLang], textsOf(map[string]said{"title": title})
			b.ID, b.Image, b.Sort, b.Enabled, b.CreatedAt, b.UpdatedAt = storage.NewID(), fmt.Sprintf("/files/demo/banner-%d.png", i+1), i, 1, now, now
			if err := storage.CreateBanner(ctx, tx, b); err != nil {
				return err
			}
			res.Banners++
		}
		for i, f := range videoFiles {
			scene := demoTexts.VideoTitles[i]
			for k, kind := range []string{storage.VideoFind, storage.VideoPassionate} {
				title := [2]said{scene.Discover, scene.Highlights}[k]
				v := storage.Video{ID: storage.NewID(), Kind: kind, Title: title[defaultLang], Texts: textsOf(map[string]said{"title": title}),
					Cover: "/files/demo/" + f + ".png", URL: "/files/demo/" + f + ".mp4", DurationS: 5, Sort: i, Enabled: 1,
					CreatedAt: now, UpdatedAt: now}
				if kind == storage.VideoPassionate {
					v.ChatUserID = op.ID // the jump-to-conversation button reaches customer service
				}
				if err := storage.CreateVideo(ctx, tx, v); err != nil {
					return err
				}
				res.Videos++
			}
		}
		for ci, name := range demoTexts.CityNames {
			city := storage.City{ID: storage.NewID(), Name: name[defaultLang], Texts: textsOf(map[string]said{"name": name}),
				Sort: ci, Enabled: 1, CreatedAt: now, UpdatedAt: now}
			if err := storage.CreateCity(ctx, tx, city); err != nil {
				return err
			}
			res.Cities++
			for k := range 3 {
				at := (ci*3 + k) % len(demoListings)
				d, intro := demoListings[at], demoTexts.Intros[at]
				l := storage.Listing{ID: storage.NewID(), CityID: city.ID, Name: d.name, Age: d.age + ci,
					Intro: intro[defaultLang], Texts: textsOf(map[string]said{"intro": intro}),
					Photos:    []string{fmt.Sprintf("/files/demo/photo-%d.png", (ci+k)%6+1), fmt.Sprintf("/files/demo/photo-%d.png", (ci+k+3)%6+1)},
					Certified: d.certified, DepositPaid: d.depositPd, Contact: "demo listing: no real contact", Sort: k, Enabled: 1,
					CreatedAt: now, UpdatedAt: now}
				if err := storage.CreateListing(ctx, tx, l); err != nil {
					return err
				}
				res.Listings++
			}
		}
		for i, n := range demoTexts.Notices {
			at := now + int64(i) // oldest first, so the welcome is the oldest
			if err := storage.CreateNotice(ctx, tx, storage.Notice{ID: storage.NewID(), Title: n.Title[defaultLang],
				Content: n.Content[defaultLang], Texts: textsOf(map[string]said{"title": n.Title, "content": n.Content}),
				CreatedBy: op.ID, CreatedAt: at, UpdatedAt: at}); err != nil {
				return err
			}
			res.Notices++
		}
		// Shaped like every audit row (httpapi/audit.go): from the command
		// line, nothing before, what the seed made after.
		return storage.RecordAudit(ctx, tx, op.ID, "demo.seed", "demo", map[string]any{"ip": "cli", "before": nil,
			"after": map[string]int{"banners": res.Banners, "videos": res.Videos, "cities": res.Cities, "listings": res.Listings, "notices": res.Notices},
		}, now)
	})
	return res, err
}
