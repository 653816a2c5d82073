package wallet

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"kj/auth"
	"kj/internal/apierr"
	"kj/internal/clock"
	"kj/storage"
	"kj/storage/storagetest"
)

func TestFundPasswordSetChangeLockout(t *testing.T) {
	eachWallet(t, func(t *testing.T, w *Wallet) {
		db, ctx := w.DB, t.Context()
		clk := w.Clock.(*clock.Fake)
		fiona := newUser(t, w, "fiona", false)
		gina := newUser(t, w, "gina", false)

		for _, p := range []string{"", "12345", "1234567", "12345a", "１２３４５６" /* full-width digits */} {
			code := apierr.CodeFundPasswordFormat
			if p == "" {
				code = apierr.CodeRequired
			}
			wantCode(t, w.SetFundPassword(ctx, fiona, p), code, "set "+p)
		}
		wantCode(t, w.ChangeFundPassword(ctx, fiona, "123456", "654321"), apierr.CodeFundPasswordNotSet, "change before one is set")
		fiona = withFundPassword(t, w, fiona)
		wantCode(t, w.SetFundPassword(ctx, fiona, "111111"), apierr.CodeFundPasswordSet, "set twice")
		// A request that read the user before the first was set.
		wantCode(t, w.SetFundPassword(ctx, storage.User{ID: fiona.ID}, "111111"), apierr.CodeFundPasswordSet, "set concurrently")
		if h := fiona.FundPasswordHash; !strings.HasPrefix(h, "$argon2id$") || auth.CheckPassword(h, "123457") || !auth.CheckPassword(h, "123456") {
			t.Fatalf("stored hash %q", h)
		}
		if s, err := w.Summary(ctx, fiona.ID); err != nil || !s.HasFundPassword {
			t.Fatalf("summary %+v %v", s, err)
		}

		wantCode(t, w.ChangeFundPassword(ctx, fiona, "", "654321"), apierr.CodeRequired, "no old password")
		wantCode(t, w.ChangeFundPassword(ctx, fiona, "123456", "65432"), apierr.CodeFundPasswordFormat, "short new password")
		wantCode(t, w.ChangeFundPassword(ctx, fiona, "123456", "123456"), apierr.CodeFundPasswordUnchanged, "unchanged")
		// Four wrong tries say how many are left; the fifth locks.
		for left := 4; left >= 1; left-- {
			e := wantCode(t, w.ChangeFundPassword(ctx, fiona, "000000", "654321"), apierr.CodeFundPasswordWrong, "wrong try")
			if e.Args["left"] != int64(left) {
				t.Fatalf("left %v, want %d", e.Args["left"], left)
			}
		}
		e := wantCode(t, w.ChangeFundPassword(ctx, fiona, "abc", "654321"), apierr.CodeFundPasswordLocked, "fifth wrong try")
		if e.Args["minutes"] != 10 {
			t.Fatalf("locked for %v minutes", e.Args["minutes"])
		}
		// Locked: even the right password is refused, and the lock covers
		// every use of the fund password (binding a card).
		wantCode(t, w.ChangeFundPassword(ctx, fiona, "123456", "654321"), apierr.CodeFundPasswordLocked, "right password while locked")
		card := CardRequest{Name: "F", Bank: json.RawMessage(`91`), CardNumber: "400012341234", ConfirmCardNumber: "400012341234", FundPassword: "123456"}
		_, err := w.BindCard(ctx, fiona, card)
		wantCode(t, err, apierr.CodeFundPasswordLocked, "binding a card while locked")
		// Someone else is not locked.
		bindCard(t, w, withFundPassword(t, w, gina), "400012341234")

		clk.Advance(9 * time.Minute)
		e = wantCode(t, w.ChangeFundPassword(ctx, fiona, "123456", "654321"), apierr.CodeFundPasswordLocked, "a minute before the end")
		if e.Args["minutes"] != 1 {
			t.Fatalf("remaining %v minutes", e.Args["minutes"])
		}
		clk.Advance(time.Minute)
		if err := w.ChangeFundPassword(ctx, fiona, "123456", "654321"); err != nil {
			t.Fatal(err)
		}
		// A change made by another request meanwhile: this one's old
		// password is stale, and nothing changes.
		wantCode(t, w.ChangeFundPassword(ctx, fiona, "123456", "111111"), apierr.CodeFundPasswordWrong, "change with a stale user")
		fiona, _ = storage.UserByID(ctx, db, fiona.ID)
		if !auth.CheckPassword(fiona.FundPasswordHash, "654321") {
			t.Fatal("the stale change overwrote the password")
		}
		_, err = w.BindCard(ctx, fiona, card)
		wantCode(t, err, apierr.CodeFundPasswordWrong, "the old password after the change")
		card.FundPassword = "654321"
		if _, err := w.BindCard(ctx, fiona, card); err != nil {
			t.Fatal(err)
		}
		// A success clears the count of wrong tries.
		e = wantCode(t, w.ChangeFundPassword(ctx, fiona, "000000", "111111"), apierr.CodeFundPasswordWrong, "wrong after a success")
		if e.Args["left"] != int64(4) {
			t.Fatalf("after a success the count restarts: %v left", e.Args["left"])
		}
		if r := storagetest.CheckLedger(t, db); r.Transfers != 0 {
			t.Fatalf("the fund password moved money: %s", r)
		}
	})
}
