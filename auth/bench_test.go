package auth_test

import (
	"context"
	"testing"
	"time"

	"kj/auth"
	"kj/internal/clock"
	"kj/storage"
	"kj/storage/storagetest"
)

// BenchmarkAuthenticate is the lookup every authenticated request makes,
// on PostgreSQL: token → session and user.
func BenchmarkAuthenticate(b *testing.B) {
	db := storagetest.Postgres(b)
	ctx := context.Background()
	s := &auth.Sessions{DB: db, Clock: clock.Real{}, TokenTTL: time.Hour, JWTTTL: 24 * time.Hour}
	u := storage.User{ID: storage.NewID(), Account: "bench", PasswordHash: "x", InviteCode: "pro_bench"}
	if err := storage.CreateUser(ctx, db, u); err != nil {
		b.Fatal(err)
	}
	var tok auth.Tokens
	if err := db.Tx(ctx, func(tx storage.Tx) error {
		var err error
		tok, _, err = s.SignIn(ctx, tx, u.ID, 5)
		return err
	}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if got, _, err := s.Authenticate(ctx, tok.Token); err != nil || got.ID != u.ID {
			b.Fatal(got.ID, err)
		}
	}
}
