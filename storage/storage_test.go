package storage_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

func newUser(account string) storage.User {
	id := storage.NewID()
	return storage.User{ID: id, Account: account, PasswordHash: "h", Nickname: "n-" + account,
		InviteCode: "pro_" + account, CreatedAt: 1, UpdatedAt: 1}
}

// storedUser is newUser(account), stored.
func storedUser(t *testing.T, db storage.DB, account string) storage.User {
	t.Helper()
	u := newUser(account)
	addUsers(t, db, u)
	return u
}

// addUsers stores users, failing the test on the first that cannot be.
func addUsers(t *testing.T, db storage.DB, users ...storage.User) {
	t.Helper()
	for _, u := range users {
		if err := storage.CreateUser(context.Background(), db, u); err != nil {
			t.Fatal(err)
		}
	}
}

func TestMigrateIsIdempotent(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		applied, err := storage.Migrate(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		if len(applied) != 0 {
			t.Fatalf("second run applied %v", applied)
		}
	})
}

func TestUsersCreateFindConflict(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		alice := newUser("alice")
		if err := storage.CreateUser(ctx, db, alice); err != nil {
			t.Fatal(err)
		}
		got, err := storage.UserByAccount(ctx, db, "alice")
		if err != nil || got != alice {
			t.Fatalf("got %+v, %v; want %+v", got, err, alice)
		}
		dup := newUser("alice")
		dup.InviteCode = "pro_other"
		if err := storage.CreateUser(ctx, db, dup); !errors.Is(err, storage.ErrConflict) {
			t.Fatalf("duplicate account: want ErrConflict, got %v", err)
		}
		if _, err := storage.UserByAccount(ctx, db, "nobody"); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("missing user: want ErrNotFound, got %v", err)
		}
		bob := storedUser(t, db, "bob")
		users, err := storage.UsersByIDs(ctx, db, []int64{alice.ID, bob.ID, 12345})
		if err != nil || len(users) != 2 {
			t.Fatalf("UsersByIDs = %v, %v", users, err)
		}
		if err := storage.UpdateUserFields(ctx, db, bob.ID, 9, map[string]any{"nickname": "Bobby"}); err != nil {
			t.Fatal(err)
		}
		b, _ := storage.UserByID(ctx, db, bob.ID)
		if b.Nickname != "Bobby" || b.UpdatedAt != 9 {
			t.Fatalf("update not applied: %+v", b)
		}
		if err := storage.UpdateUserFields(ctx, db, 1, 9, map[string]any{"nickname": "x"}); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("update of a missing user: %v", err)
		}
	})
}

func TestTxRollsBackOnError(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		boom := errors.New("boom")
		err := db.Tx(ctx, func(tx storage.Tx) error {
			if err := storage.CreateUser(ctx, tx, newUser("carol")); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("Tx returned %v", err)
		}
		if _, err := storage.UserByAccount(ctx, db, "carol"); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("rolled-back insert is visible: %v", err)
		}
	})
}

func TestSessionsReplaceOnSamePlatform(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		u := storedUser(t, db, "dave")
		mk := func(secret string, platform int) storage.AuthSession {
			return storage.AuthSession{ID: storage.NewID(), UserID: u.ID, Platform: platform,
				TokenHash: storage.HashSecret("t" + secret), JWTHash: storage.HashSecret("j" + secret),
				ChatTokenHash: storage.HashSecret("c" + secret), TokenExpiresAt: 100, JWTExpiresAt: 200}
		}
		var first, web, second storage.AuthSession
		err := db.Tx(ctx, func(tx storage.Tx) error {
			first, web = mk("1", 5), mk("w", 1)
			if _, err := storage.CreateSession(ctx, tx, first); err != nil {
				return err
			}
			_, err := storage.CreateSession(ctx, tx, web)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		var replaced []int64
		err = db.Tx(ctx, func(tx storage.Tx) error {
			second = mk("2", 5)
			var err error
			replaced, err = storage.CreateSession(ctx, tx, second)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(replaced, []int64{first.ID}) {
			t.Fatalf("replaced %v, want only the first session on platform 5", replaced)
		}
		old, err := storage.SessionByToken(ctx, db, "t1")
		if err != nil || old.State != storage.SessionReplaced {
			t.Fatalf("old session state %d err %v", old.State, err)
		}
		w, _ := storage.SessionByChatToken(ctx, db, "cw")
		if w.State != storage.SessionActive {
			t.Fatal("another platform's session must stay active")
		}
		if err := storage.RenewSessionToken(ctx, db, second.ID, storage.HashSecret("t3"), 300); err != nil {
			t.Fatal(err)
		}
		if s, err := storage.SessionByToken(ctx, db, "t3"); err != nil || s.ID != second.ID || s.TokenExpiresAt != 300 {
			t.Fatalf("renewed token lookup: %+v %v", s, err)
		}
		if err := storage.RenewSessionToken(ctx, db, first.ID, "x", 1); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("renewing a replaced session must fail, got %v", err)
		}
		storage.EndSession(ctx, db, second.ID, storage.SessionSignedOut)
		if s, _ := storage.SessionByJWT(ctx, db, "j2"); s.State != storage.SessionSignedOut {
			t.Fatalf("state after sign-out = %d", s.State)
		}
	})
}

func TestNewIDIncreases(t *testing.T) {
	prev := storage.NewID()
	for range 10000 {
		id := storage.NewID()
		if id <= prev {
			t.Fatalf("id %d not above %d", id, prev)
		}
		prev = id
	}
}
