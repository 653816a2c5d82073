package engine

// `kj seed --demo`: fill an empty store with tasteful demo content so a
// fresh `make run` shows a living app — banners, videos, cities with
// listings, notices, app settings and a customer-service operator — with
// every picture and video generated here (seed_media.go) into
// $KJ_DATA_DIR/files/demo/. Nothing is ever loaded unless asked, and never
// into a store that already holds accounts or content.

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"image"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"sync"
	"time"

	"kj/auth"
	"kj/engine/config"
	"kj/storage"
)

// ErrStoreNotEmpty: demo content only goes into an empty store.
var ErrStoreNotEmpty = errors.New("the store is not empty")

// DemoSeed says what SeedDemo loaded.
type DemoSeed struct {
	Banners, Videos, Cities, Listings, Notices int
	Files                                      int
	OperatorAccount                            string
	OperatorPassword                           string
}

// Seed runs `kj seed --demo`: load the configuration, open and migrate the
// store, seed it, and print what was loaded and the operator's password.
func Seed(args []string, out io.Writer) error {
	demo := false
	var rest []string
	for _, a := range args {
		if a == "--demo" || a == "-demo" {
			demo = true
		} else {
			rest = append(rest, a)
		}
	}
	if !demo {
		return errors.New("seed: say what to seed; the only choice is `kj seed --demo` (demo content into an empty store)")
	}
	cfg, err := config.Load(rest, os.Getenv)
	if err != nil {
		return err
	}
	ctx := context.Background()
	db, err := OpenStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := storage.Migrate(ctx, db); err != nil {
		return err
	}
	res, err := SeedDemo(ctx, db, cfg.DataDir, time.Now())
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	fmt.Fprintf(out, "demo content loaded into the %s store: %d banners, %d videos, %d cities, %d listings, %d notices, %d files under %s\n",
		db.Dialect(), res.Banners, res.Videos, res.Cities, res.Listings, res.Notices, res.Files, filepath.Join(cfg.DataDir, "files", "demo"))
	fmt.Fprintf(out, "customer-service operator: account %q, password %q (sign in at /api/accountLogin; change it before going live)\n",
		res.OperatorAccount, res.OperatorPassword)
	return nil
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

// SeedDemo writes the demo files under dataDir/files/demo and loads the
// demo content in one transaction. It refuses (ErrStoreNotEmpty) when the
// store holds accounts or content, and removes the files it wrote when
// loading fails.
func SeedDemo(ctx context.Context, db storage.DB, dataDir string, now time.Time) (DemoSeed, error) {
	if empty, what, err := storage.ContentIsEmpty(ctx, db); err != nil {
		return DemoSeed{}, err
	} else if !empty {
		return DemoSeed{}, fmt.Errorf("%w (it has %s); demo content only goes into an empty store", ErrStoreNotEmpty, what)
	}

	media, err := demoMedia()
	if err != nil {
		return DemoSeed{}, err
	}
	dir := filepath.Join(dataDir, "files", "demo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return DemoSeed{}, err
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
			return DemoSeed{}, fmt.Errorf("write %s: %w", p, err)
		}
		written = append(written, p)
	}
	res, err := loadDemo(ctx, db, now.UnixMilli(), demoScenes[0].file, demoScenes[1].file, demoScenes[2].file)
	if err != nil {
		cleanup()
		return DemoSeed{}, err
	}
	res.Files = len(written)
	return res, nil
}

// demoListing is one listed person of the demo.
type demoListing struct {
	name, intro          string
	age                  int
	certified, depositPd int
}

var (
	demoCities   = []string{"上海", "广州", "深圳", "吉隆坡"}
	demoListings = []demoListing{
		{"Lily", "Enjoys hiking and good coffee · 喜欢徒步和咖啡", 24, 1, 1},
		{"Mia", "Photographer who loves jazz · 摄影师，爱听爵士", 27, 1, 0},
		{"Sophie", "Learning to cook Cantonese dishes · 正在学做粤菜", 25, 0, 1},
		{"Grace", "Runs on weekends, reads on weeknights · 周末跑步，平日读书", 29, 1, 1},
		{"Ivy", "Travels with a sketchbook · 带着速写本旅行", 23, 0, 0},
		{"Ruby", "Plays piano and loves the sea · 弹钢琴，喜欢大海", 31, 1, 0},
		{"Nora", "Tea, cats and old films · 茶、猫和老电影", 26, 1, 1},
		{"Ella", "Yoga teacher, early riser · 瑜伽老师，早起的人", 28, 0, 1},
	}
	demoNotices = [][2]string{
		{"欢迎使用 kj · Welcome to kj", "聊天、发现视频和同城信息都已准备好。如需开通会员，请联系客服。\nChats, discover videos and same-city listings are ready. Customer service can activate your membership."},
		{"客服时间 · Customer service hours", "客服每天 09:00–23:00 在线，其他时间留言我们会尽快回复。\nOur team answers every day from 09:00 to 23:00; leave a message any time and we will reply."},
		{"账户安全提示 · Keep your account safe", "请勿向任何人透露登录密码和资金密码，工作人员不会索要。\nNever share your login or fund password; our staff will never ask for them."},
	}
)

// loadDemo inserts the demo rows, referring to the files SeedDemo wrote.
func loadDemo(ctx context.Context, db storage.DB, now int64, videoFiles ...string) (DemoSeed, error) {
	password := demoPassword()
	hash, err := auth.HashPassword(password)
	if err != nil {
		return DemoSeed{}, err
	}
	res := DemoSeed{OperatorAccount: "service", OperatorPassword: password}
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
			AppName:        "kj",
			ServiceWelcome: "您好，欢迎咨询！会员开通、联系方式、找回密码都可以在这里留言。Hello! Leave us a message about membership, contact details or a lost password.",
			SplashImage:    "/files/demo/splash.png", SplashSeconds: 3,
		}, op.ID, now)
		if err != nil {
			return err
		}
		banners := []storage.Banner{
			{Title: "欢迎来到 kj · Welcome to kj", Link: "/pages/tabBar/find"},
			{Title: "和朋友、群组畅聊 · Chat with friends and groups", Link: "/pages/chat/contacts"},
			{Title: "客服随时为您服务 · Customer service is here for you", Link: "/pages/customer/customer"},
		}
		for i, b := range banners {
			b.ID, b.Image, b.Sort, b.Enabled, b.CreatedAt, b.UpdatedAt = storage.NewID(), fmt.Sprintf("/files/demo/banner-%d.png", i+1), i, 1, now, now
			if err := storage.CreateBanner(ctx, tx, b); err != nil {
				return err
			}
			res.Banners++
		}
		titles := map[string][2]string{
			videoFiles[0]: {"海湾日出 · Sunrise over the bay", "清晨精选 · Morning highlights"},
			videoFiles[1]: {"纸船远航 · A paper boat sets sail", "航行精选 · Sailing highlights"},
			videoFiles[2]: {"城市夜色 · The city at night", "夜晚精选 · Evening highlights"},
		}
		for i, f := range videoFiles {
			for k, kind := range []string{storage.VideoFind, storage.VideoPassionate} {
				v := storage.Video{ID: storage.NewID(), Kind: kind, Title: titles[f][k], Cover: "/files/demo/" + f + ".png",
					URL: "/files/demo/" + f + ".mp4", DurationS: 5, Sort: i, Enabled: 1, CreatedAt: now, UpdatedAt: now}
				if kind == storage.VideoPassionate {
					v.ChatUserID = op.ID // the jump-to-conversation button reaches customer service
				}
				if err := storage.CreateVideo(ctx, tx, v); err != nil {
					return err
				}
				res.Videos++
			}
		}
		for ci, name := range demoCities {
			city := storage.City{ID: storage.NewID(), Name: name, Sort: ci, Enabled: 1, CreatedAt: now, UpdatedAt: now}
			if err := storage.CreateCity(ctx, tx, city); err != nil {
				return err
			}
			res.Cities++
			for k := range 3 {
				d := demoListings[(ci*3+k)%len(demoListings)]
				l := storage.Listing{ID: storage.NewID(), CityID: city.ID, Name: d.name, Age: d.age + ci, Intro: d.intro,
					Photos:    []string{fmt.Sprintf("/files/demo/photo-%d.png", (ci+k)%6+1), fmt.Sprintf("/files/demo/photo-%d.png", (ci+k+3)%6+1)},
					Certified: d.certified, DepositPaid: d.depositPd, Contact: "demo listing: no real contact", Sort: k, Enabled: 1,
					CreatedAt: now, UpdatedAt: now}
				if err := storage.CreateListing(ctx, tx, l); err != nil {
					return err
				}
				res.Listings++
			}
		}
		for i, n := range demoNotices {
			at := now + int64(i) // oldest first, so the welcome is the oldest
			if err := storage.CreateNotice(ctx, tx, storage.Notice{ID: storage.NewID(), Title: n[0],
				Content: n[1], CreatedBy: op.ID, CreatedAt: at, UpdatedAt: at}); err != nil {
				return err
			}
			res.Notices++
		}
		return storage.RecordAudit(ctx, tx, op.ID, "demo.seed", "", map[string]int{
			"banners": res.Banners, "videos": res.Videos, "cities": res.Cities, "listings": res.Listings, "notices": res.Notices,
		}, now)
	})
	return res, err
}
