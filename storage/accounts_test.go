package storage_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

func TestCaptchaIsTakenOnceAndExpiredOnesArePruned(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		if err := storage.CreateCaptcha(ctx, db, "old", "h-old", 100, 50); err != nil {
			t.Fatal(err)
		}
		if err := storage.CreateCaptcha(ctx, db, "new", "h-new", 500, 200); err != nil {
			t.Fatal(err)
		}
		// Creating "new" at 200 pruned "old" (expired at 100).
		if _, _, err := storage.TakeCaptcha(ctx, db, "old"); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("expired captcha should be pruned, got %v", err)
		}
		h, exp, err := storage.TakeCaptcha(ctx, db, "new")
		if err != nil || h != "h-new" || exp != 500 {
			t.Fatalf("TakeCaptcha = %q, %d, %v", h, exp, err)
		}
		if _, _, err := storage.TakeCaptcha(ctx, db, "new"); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("second take must fail, got %v", err)
		}
	})
}

func TestSMSCodeReplaceTakeAndExpire(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		if err := storage.PutSMSCode(ctx, db, "13800138000", "forget", "first", 1000, 0); err != nil {
			t.Fatal(err)
		}
		if err := storage.PutSMSCode(ctx, db, "13800138000", "forget", "second", 2000, 10); err != nil {
			t.Fatal(err)
		}
		if err := storage.PutSMSCode(ctx, db, "13800138000", "setPhone", "other", 2000, 10); err != nil {
			t.Fatal(err)
		}
		if err := storage.TakeSMSCode(ctx, db, "13800138000", "forget", "first", 20); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("a replaced code must not work: %v", err)
		}
		if err := storage.TakeSMSCode(ctx, db, "13800138000", "forget", "other", 20); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("another purpose's code must not work: %v", err)
		}
		if err := storage.TakeSMSCode(ctx, db, "13800138000", "forget", "second", 2000); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("an expired code must not work: %v", err)
		}
		if err := storage.TakeSMSCode(ctx, db, "13800138000", "forget", "second", 1999); err != nil {
			t.Fatalf("the live code: %v", err)
		}
		if err := storage.TakeSMSCode(ctx, db, "13800138000", "forget", "second", 1999); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("a code works once: %v", err)
		}
		if err := storage.DeleteSMSCode(ctx, db, "13800138000", "setPhone"); err != nil {
			t.Fatal(err)
		}
		if err := storage.TakeSMSCode(ctx, db, "13800138000", "setPhone", "other", 20); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("a deleted code must not work: %v", err)
		}
	})
}

func TestEndUserSessionsKeepsOneAndOthersUsers(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		u, other := storedUser(t, db, "erin"), storedUser(t, db, "fred")
		var ids []int64
		mk := func(userID int64, platform int) int64 {
			s := storage.AuthSession{ID: storage.NewID(), UserID: userID, Platform: platform,
				TokenHash: storage.HashSecret(fmt.Sprint(storage.NewID())), JWTHash: storage.HashSecret(fmt.Sprint(storage.NewID())),
				ChatTokenHash: storage.HashSecret(fmt.Sprint(storage.NewID())), TokenExpiresAt: 100, JWTExpiresAt: 200}
			if err := db.Tx(ctx, func(tx storage.Tx) error { _, err := storage.CreateSession(ctx, tx, s); return err }); err != nil {
				t.Fatal(err)
			}
			return s.ID
		}
		keep := mk(u.ID, 5)
		ids = append(ids, mk(u.ID, 1), mk(u.ID, 2))
		theirs := mk(other.ID, 5)
		ended, err := storage.EndUserSessions(ctx, db, u.ID, keep, storage.SessionSignedOut)
		slices.Sort(ended)
		if err != nil || !slices.Equal(ended, ids) {
			t.Fatalf("ended %v, %v; want %v", ended, err, ids)
		}
		for id, want := range map[int64]int{keep: storage.SessionActive, ids[0]: storage.SessionSignedOut, theirs: storage.SessionActive} {
			s, _ := storage.SessionByID(ctx, db, id)
			if s.State != want {
				t.Errorf("session %d state %d, want %d", id, s.State, want)
			}
		}
	})
}

func TestBindSuperiorOnlyOnce(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		u, a, b := newUser("gina"), newUser("hank"), newUser("ivan")
		addUsers(t, db, u, a, b)
		if err := storage.BindSuperior(ctx, db, u.ID, a.ID, 7); err != nil {
			t.Fatal(err)
		}
		if err := storage.BindSuperior(ctx, db, u.ID, b.ID, 8); !errors.Is(err, storage.ErrConflict) {
			t.Fatalf("second bind: want ErrConflict, got %v", err)
		}
		got, _ := storage.UserByID(ctx, db, u.ID)
		if got.SuperiorID != a.ID || got.UpdatedAt != 7 {
			t.Fatalf("superior %d updated %d", got.SuperiorID, got.UpdatedAt)
		}
	})
}

func TestFindUsersKeywordStatusAndPages(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		var made []storage.User
		for _, acc := range []string{"john_doe", "johnxdoe", "Mary", "op_main"} {
			u := newUser(acc)
			if acc == "Mary" {
				u.Phone, u.IsActivation = "13800138000", 1
			}
			if acc == "op_main" {
				u.IsOperator = 1
			}
			addUsers(t, db, u)
			made = append(made, u)
		}
		if err := storage.RecordLogin(ctx, db, made[2].ID, 1234, "10.0.0.9"); err != nil {
			t.Fatal(err)
		}
		accounts := func(q storage.UserQuery) ([]string, int64) {
			t.Helper()
			list, total, err := storage.FindUsers(ctx, db, q)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, u := range list {
				out = append(out, u.Account)
			}
			return out, total
		}
		all := storage.UserQuery{IsActivation: -1, Limit: 10}
		if got, total := accounts(all); total != 4 || !slices.Equal(got, []string{"op_main", "Mary", "johnxdoe", "john_doe"}) {
			t.Fatalf("all: %v %d", got, total)
		}
		// "_" is literal, not LIKE's any-character.
		if got, _ := accounts(storage.UserQuery{Keyword: "n_d", IsActivation: -1, Limit: 10}); !slices.Equal(got, []string{"john_doe"}) {
			t.Fatalf("underscore keyword: %v", got)
		}
		if got, _ := accounts(storage.UserQuery{Keyword: "MARY", IsActivation: -1, Limit: 10}); !slices.Equal(got, []string{"Mary"}) {
			t.Fatalf("case-insensitive keyword: %v", got)
		}
		if got, _ := accounts(storage.UserQuery{Keyword: "13800138000", IsActivation: -1, Limit: 10}); !slices.Equal(got, []string{"Mary"}) {
			t.Fatalf("phone keyword: %v", got)
		}
		if got, _ := accounts(storage.UserQuery{Keyword: made[1].IDString(), IsActivation: -1, Limit: 10}); !slices.Equal(got, []string{"johnxdoe"}) {
			t.Fatalf("id keyword: %v", got)
		}
		if got, total := accounts(storage.UserQuery{IsActivation: 0, Limit: 2, Offset: 2}); total != 3 || !slices.Equal(got, []string{"john_doe"}) {
			t.Fatalf("status 0, page 2: %v %d", got, total)
		}
		s, err := storage.UserSummaryByID(ctx, db, made[2].ID)
		if err != nil || s.LastLoginAt != 1234 || s.LastLoginIP != "10.0.0.9" || s.Account != "Mary" {
			t.Fatalf("summary %+v %v", s, err)
		}
		// The only operator serves everybody until a chat picks an agent.
		for _, u := range made[:3] {
			if f, err := storage.ProfileFactsOf(ctx, db, u.ID); err != nil || f.OperatorID != made[3].ID || f.AgentID != 0 {
				t.Fatalf("profile facts of %s: %+v %v", u.Account, f, err)
			}
		}
	})
}
