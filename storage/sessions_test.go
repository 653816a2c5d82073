package storage_test

import (
	"context"
	"errors"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

func TestSessionUserByToken(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		u := storage.User{ID: storage.NewID(), Account: "frank", PasswordHash: "h", Nickname: "Frank", Avatar: "/a.png",
			Phone: "13800138000", InviteCode: "pro_frank", SuperiorID: 7, IsActivation: 1, IsOperator: 0,
			FundPasswordHash: "f", CreatedAt: 11, UpdatedAt: 12}
		addUsers(t, db, u)
		sess := storage.AuthSession{ID: storage.NewID(), UserID: u.ID, Platform: 5, TokenHash: storage.HashSecret("tok"),
			JWTHash: storage.HashSecret("jwt"), ChatTokenHash: storage.HashSecret("chat"), TokenExpiresAt: 100, JWTExpiresAt: 200,
			State: storage.SessionActive, CreatedAt: 50}
		if err := db.Tx(ctx, func(tx storage.Tx) error { _, err := storage.CreateSession(ctx, tx, sess); return err }); err != nil {
			t.Fatal(err)
		}
		gotS, gotU, err := storage.SessionUserByToken(ctx, db, "tok")
		if err != nil {
			t.Fatal(err)
		}
		if gotS != sess || gotU != u {
			t.Fatalf("session %+v\nuser %+v", gotS, gotU)
		}
		// Same answers as the two separate lookups.
		s2, _ := storage.SessionByToken(ctx, db, "tok")
		u2, _ := storage.UserByID(ctx, db, u.ID)
		if s2 != gotS || u2 != gotU {
			t.Fatal("one query must read what the two lookups read")
		}
		// Any state is returned (the caller judges it).
		if err := storage.EndSession(ctx, db, sess.ID, storage.SessionSignedOut); err != nil {
			t.Fatal(err)
		}
		if s, _, err := storage.SessionUserByToken(ctx, db, "tok"); err != nil || s.State != storage.SessionSignedOut {
			t.Fatalf("ended session: %+v %v", s, err)
		}
		for _, tok := range []string{"unknown", "jwt", "chat", ""} {
			if _, _, err := storage.SessionUserByToken(ctx, db, tok); !errors.Is(err, storage.ErrNotFound) {
				t.Fatalf("%q: %v, want ErrNotFound", tok, err)
			}
		}
	})
}
