package wallet

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"kj/internal/apierr"
	"kj/storage"
	"kj/storage/storagetest"
)

func TestBindCardRules(t *testing.T) {
	eachWallet(t, func(t *testing.T, w *Wallet) {
		db, ctx := w.DB, t.Context()
		hana := newUser(t, w, "hana", false)
		mallory := withFundPassword(t, w, newUser(t, w, "mallory", false))
		card := func(name, bank, number, confirm, pw string) CardRequest {
			return CardRequest{Name: name, Bank: json.RawMessage(bank), CardNumber: number, ConfirmCardNumber: confirm, FundPassword: pw}
		}
		_, err := w.BindCard(ctx, hana, card("Hana", "91", "4000123412341234", "4000123412341234", "123456"))
		wantCode(t, err, apierr.CodeFundPasswordNotSet, "no fund password")
		hana = withFundPassword(t, w, hana)
		before := counts(t, db)
		for _, c := range []struct {
			req  CardRequest
			code int
		}{
			{CardRequest{}, apierr.CodeRequired},
			{card("", "91", "4000123412341234", "4000123412341234", "123456"), apierr.CodeRequired},
			{card("   ", "91", "4000123412341234", "4000123412341234", "123456"), apierr.CodeRequired},
			{card("Hana", `""`, "4000123412341234", "4000123412341234", "123456"), apierr.CodeRequired},
			{card("Hana", "null", "4000123412341234", "4000123412341234", "123456"), apierr.CodeRequired},
			{card("Hana", "91", "", "4000123412341234", "123456"), apierr.CodeRequired},
			{card("Hana", "91", "4000123412341234", "", "123456"), apierr.CodeRequired},
			{card("Hana", "91", "4000123412341234", "4000123412341234", ""), apierr.CodeRequired},
			{card(strings.Repeat("H", 51), "91", "4000123412341234", "4000123412341234", "123456"), apierr.CodeHolderNameInvalid},
			{card("Ha\tna", "91", "4000123412341234", "4000123412341234", "123456"), apierr.CodeHolderNameInvalid},
			{card("Hana", "91", "40001234123", "40001234123", "123456"), apierr.CodeCardNumberInvalid},
			{card("Hana", "91", "40001234123412341234", "40001234123412341234", "123456"), apierr.CodeCardNumberInvalid},
			{card("Hana", "91", "4000x23412341234", "4000x23412341234", "123456"), apierr.CodeCardNumberInvalid},
			{card("Hana", "91", "4000123412341234", "4000123412341235", "123456"), apierr.CodeCardNumbersMismatch},
			{card("Hana", "9999", "4000123412341234", "4000123412341234", "123456"), apierr.CodeBankUnknown},
			{card("Hana", `"No Such Bank"`, "4000123412341234", "4000123412341234", "123456"), apierr.CodeBankUnknown},
			{card("Hana", "true", "4000123412341234", "4000123412341234", "123456"), apierr.CodeBadRequest},
			{card("Hana", "91", "4000123412341234", "4000123412341234", "654321"), apierr.CodeFundPasswordWrong},
		} {
			_, err := w.BindCard(ctx, hana, c.req)
			wantCode(t, err, c.code, fmt.Sprintf("%+v", c.req))
		}
		if after := counts(t, db); after != before {
			t.Fatalf("refused bindings wrote: %s -> %s", before, after)
		}

		// Bound by id, by id string and by name; spaces and dashes in the
		// number ignored.
		c1, err := w.BindCard(ctx, hana, card("Hana Ito", "91", "4000 1234 1234 1234", "4000-1234-1234-1234", "123456"))
		if err != nil || c1.CardNumber != "4000123412341234" || c1.BankName != "BBVA" || c1.HolderName != "Hana Ito" {
			t.Fatalf("bound %+v %v", c1, err)
		}
		c2, err := w.BindCard(ctx, hana, card("Hana Ito", `"Vietcombank"`, "9704000011112222", "9704000011112222", "123456"))
		if err != nil || c2.BankName != "Vietcombank" || c2.BankID != 50 {
			t.Fatalf("bound by name %+v %v", c2, err)
		}
		if _, err := w.BindCard(ctx, hana, card("Hana Ito", `"91"`, "4000123412341234", "4000123412341234", "123456")); err == nil {
			t.Fatal("one number bound twice")
		} else {
			wantCode(t, err, apierr.CodeCardAlreadyBound, "the same number again")
		}
		for i := range MaxBankCards - 2 {
			n := fmt.Sprintf("62220000000000%02d", i)
			if _, err := w.BindCard(ctx, hana, card("Hana Ito", "1", n, n, "123456")); err != nil {
				t.Fatal(err)
			}
		}
		_, err = w.BindCard(ctx, hana, card("Hana Ito", "1", "6222000000000099", "6222000000000099", "123456"))
		wantCode(t, err, apierr.CodeTooManyCards, "a card over the cap")

		// Someone else's card: not found, nothing deleted.
		before = counts(t, db)
		wantCode(t, w.DeleteCard(ctx, mallory.ID, c1.ID), apierr.CodeNotFound, "mallory deletes hana's card")
		if after := counts(t, db); after != before {
			t.Fatalf("mallory changed something: %s -> %s", before, after)
		}
		if cards, err := w.Cards(ctx, mallory.ID); err != nil || len(cards) != 0 {
			t.Fatalf("mallory's cards %+v %v", cards, err)
		}
		if err := w.DeleteCard(ctx, hana.ID, c1.ID); err != nil {
			t.Fatal(err)
		}
		wantCode(t, w.DeleteCard(ctx, hana.ID, c1.ID), apierr.CodeNotFound, "deleted twice")
		if cards, err := w.Cards(ctx, hana.ID); err != nil || len(cards) != MaxBankCards-1 || cards[0].ID != c2.ID {
			t.Fatalf("hana's cards %+v %v", cards, err)
		}
		if r := storagetest.CheckLedger(t, db); r.Transfers != 0 {
			t.Fatalf("bank cards moved money: %s", r)
		}
	})
}

func TestBankList(t *testing.T) {
	eachWallet(t, func(t *testing.T, w *Wallet) {
		db, ctx := w.DB, t.Context()
		op := newOperator(t, w, "olga")
		hana := withFundPassword(t, w, newUser(t, w, "hana", false))

		// The caller's market comes first.
		for lang, first := range map[string]string{"vi-VN": "VN", "zh-HANT": "TW", "es-ES": "ES"} {
			banks, err := w.Banks(ctx, lang)
			if err != nil || len(banks) < 50 || banks[0].Country != first {
				t.Fatalf("%s: %d banks, first %+v, %v", lang, len(banks), banks[0], err)
			}
		}

		before := counts(t, db)
		enabled := func(v int) *int { return &v }
		for _, c := range []struct {
			req  BankRequest
			code int
		}{
			{BankRequest{Country: "ES"}, apierr.CodeRequired},
			{BankRequest{Name: "Banco\x00", Country: "ES"}, apierr.CodeInvalid},
			{BankRequest{Name: "Banco"}, apierr.CodeRequired},
			{BankRequest{Name: "Banco", Country: "ESP"}, apierr.CodeInvalid},
			{BankRequest{Name: "Banco", Country: "ES", Sort: -1}, apierr.CodeInvalid},
			{BankRequest{Name: "Banco", Country: "ES", Enabled: enabled(2)}, apierr.CodeInvalid},
			{BankRequest{Name: "BBVA", Country: "ES"}, apierr.CodeBankNameTaken},
		} {
			_, err := w.AddBank(ctx, op, c.req)
			wantCode(t, err, c.code, fmt.Sprintf("add %+v", c.req))
		}
		_, err := w.UpdateBank(ctx, op, BankRequest{ID: json.RawMessage(`"123"`), Name: "X", Country: "ES"})
		wantCode(t, err, apierr.CodeNotFound, "update of a missing bank")
		if after := counts(t, db); after != before {
			t.Fatalf("refused edits wrote: %s -> %s", before, after)
		}

		added, err := w.AddBank(ctx, op, BankRequest{Name: " Banco Nuevo ", Country: "es", Sort: 20})
		if err != nil || added.Name != "Banco Nuevo" || added.Country != "ES" || added.Enabled != 1 {
			t.Fatalf("added %+v %v", added, err)
		}
		id := json.RawMessage(fmt.Sprint(added.ID))
		_, err = w.UpdateBank(ctx, op, BankRequest{ID: id, Name: "BBVA", Country: "ES"})
		wantCode(t, err, apierr.CodeBankNameTaken, "renamed to a taken name")
		if _, err := w.UpdateBank(ctx, op, BankRequest{ID: id, Name: "Banco Nuevo SA", Country: "ES", Enabled: enabled(0)}); err != nil {
			t.Fatal(err)
		}
		// A disabled bank takes no cards and leaves the users' list, not
		// the operators'.
		_, err = w.BindCard(ctx, hana, CardRequest{Name: "Hana", Bank: id, CardNumber: "5000123412341234", ConfirmCardNumber: "5000123412341234", FundPassword: "123456"})
		wantCode(t, err, apierr.CodeBankUnknown, "a card of a disabled bank")
		listed := func(banks []storage.Bank) bool {
			for _, b := range banks {
				if b.ID == added.ID {
					return true
				}
			}
			return false
		}
		users, _ := w.Banks(ctx, "en-US")
		all, _ := w.AllBanks(ctx)
		if listed(users) || !listed(all) {
			t.Fatalf("disabled bank in the users' list %v, in the operators' %v", listed(users), listed(all))
		}
		// Updating without "enabled" leaves it as it was.
		b, err := w.UpdateBank(ctx, op, BankRequest{ID: id, Name: "Banco Nuevo SA", Country: "ES", Sort: 3})
		if err != nil || b.Enabled != 0 || b.Sort != 3 {
			t.Fatalf("update without enabled: %+v %v", b, err)
		}
		// Each accepted edit is audited once, in its transaction.
		if n := len(audited(t, db, "bank.add", added.ID)); n != 1 {
			t.Fatalf("%d bank.add entries", n)
		}
		if n := len(audited(t, db, "bank.update", added.ID)); n != 2 {
			t.Fatalf("%d bank.update entries", n)
		}
	})
}
