package wallet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"kj/internal/apierr"
	"kj/internal/clock"
	"kj/internal/config"
	"kj/internal/counter"
	"kj/storage"
	"kj/storage/storagetest"
	"kj/wallet/wallettest"
)

const (
	testTRC20 = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7"
	testERC20 = "0xdAC17F958D2ee523a2206206994597C13D831ec7"
	tronHash  = "3f1a9c0b8e7d6a5f4e3d2c1b0a99887766554433221100ffeeddccbbaa998877"
)

// eachWallet runs f on both stores, each time with a fresh Wallet: a
// running ledger writer, in-process counters and a fake clock (w.Clock is
// a *clock.Fake), both USDT
// protocols, minDep 10.00 and exchanges of 10.00 .. 5,000.00.
func eachWallet(t *testing.T, f func(t *testing.T, w *Wallet)) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		clk := clock.NewFake(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
		cfg := config.Config{USDTTRC20Address: testTRC20, USDTERC20Address: testERC20, RechargeViaService: true,
			RechargeMinDeposit: 1000, ExchangeMin: 1000, ExchangeMax: 500_000}
		f(t, &Wallet{DB: db, Ledger: wallettest.Ledger(t, db, nil, clk), Counters: counter.NewMemory(clk), Clock: clk, Config: cfg,
			Log: slog.New(slog.DiscardHandler)})
	})
}

// newUser stores a user (an operator when operator is set).
func newUser(t *testing.T, w *Wallet, account string, operator bool) storage.User {
	t.Helper()
	now := w.now()
	u := storage.User{ID: storage.NewID(), Account: account, PasswordHash: "-", Nickname: account, InviteCode: "pro_" + account,
		CreatedAt: now, UpdatedAt: now}
	if operator {
		u.IsOperator = 1
	}
	if err := storage.CreateUser(context.Background(), w.DB, u); err != nil {
		t.Fatal(err)
	}
	return u
}

// withFundPassword sets u's fund password to 123456 and returns u as
// stored.
func withFundPassword(t *testing.T, w *Wallet, u storage.User) storage.User {
	t.Helper()
	ctx := context.Background()
	if err := w.SetFundPassword(ctx, u, "123456"); err != nil {
		t.Fatal(err)
	}
	u, err := storage.UserByID(ctx, w.DB, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// bindCard binds a BBVA card of number to u and returns it.
func bindCard(t *testing.T, w *Wallet, u storage.User, number string) storage.BankCard {
	t.Helper()
	c, err := w.BindCard(context.Background(), u, CardRequest{Name: "Ana Pérez", Bank: json.RawMessage(`91`),
		CardNumber: number, ConfirmCardNumber: number, FundPassword: "123456"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// logAudit writes the wallet's audit entries to the store's audit log, in
// the change's transaction, as httpapi's does.
type logAudit struct{ operator int64 }

func (a logAudit) Reviewed(ctx context.Context, tx storage.Tx, action string, r Review) error {
	return storage.RecordAudit(ctx, tx, a.operator, action, strconv.FormatInt(r.OrderID, 10), r, 0)
}

func (a logAudit) BankChanged(ctx context.Context, tx storage.Tx, action string, before *storage.Bank, after storage.Bank) error {
	return storage.RecordAudit(ctx, tx, a.operator, action, strconv.FormatInt(after.ID, 10), []any{before, after}, 0)
}

// newOperator stores an operator whose changes are audited by logAudit.
func newOperator(t *testing.T, w *Wallet, account string) Operator {
	t.Helper()
	u := newUser(t, w, account, true)
	return Operator{ID: u.ID, Audit: logAudit{u.ID}}
}

// audited lists the audit entries of one action on one target.
func audited(t *testing.T, db storage.DB, action string, target int64) []storage.AuditEntry {
	t.Helper()
	list, err := storage.ListAudit(context.Background(), db, storage.AuditFilter{Action: action, Target: strconv.FormatInt(target, 10)}, 100, 0)
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// wantCode fails the test unless err is the client error code.
func wantCode(t *testing.T, err error, code int, what string) *apierr.Error {
	t.Helper()
	var e *apierr.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("%s: %v, want code %d", what, err, code)
	}
	return e
}

func balance(t *testing.T, db storage.DB, a storage.AccountRef) int64 {
	t.Helper()
	b, err := storage.AccountBalance(context.Background(), db, a)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// counts returns the number of rows of the wallet's tables and the sum of
// all balances, to prove that a refused request wrote nothing.
func counts(t *testing.T, db storage.DB) string {
	t.Helper()
	var parts []string
	for _, table := range []string{"ledger_transfers", "ledger_entries", "recharge_orders", "exchange_orders", "bank_cards", "banks", "audit_log"} {
		var n int64
		if err := db.QueryRow(context.Background(), `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, fmt.Sprintf("%s=%d", table, n))
	}
	var sum int64
	db.QueryRow(context.Background(), `SELECT CAST(COALESCE(SUM(ABS(balance)), 0) AS BIGINT) FROM ledger_accounts`).Scan(&sum)
	return strings.Join(parts, " ") + fmt.Sprintf(" balances=%d", sum)
}

func hashN(n int) string { return fmt.Sprintf("%064x", n+1) }

func TestParseAmountTakesOnlyPositiveWholeCents(t *testing.T) {
	for _, c := range []struct {
		raw  string
		code int // 0: accepted
		want int64
	}{
		{`1`, 0, 1},
		{` 250000 `, 0, 250_000},
		{`1000000000000000`, 0, storage.MaxAmount},
		{`-100`, apierr.CodeAmountInvalid, 0},
		{`0`, apierr.CodeAmountInvalid, 0},
		{`-0`, apierr.CodeAmountInvalid, 0},
		{`10.5`, apierr.CodeAmountInvalid, 0},
		{`1000.0`, apierr.CodeAmountInvalid, 0},
		{`1e3`, apierr.CodeAmountInvalid, 0},
		{`1E5`, apierr.CodeAmountInvalid, 0},
		{`"1000"`, apierr.CodeBadRequest, 0},
		{`true`, apierr.CodeBadRequest, 0},
		{`[1000]`, apierr.CodeBadRequest, 0},
		{`{"v":1}`, apierr.CodeBadRequest, 0},
		{`12abc`, apierr.CodeBadRequest, 0},
		{``, apierr.CodeRequired, 0},
		{`null`, apierr.CodeRequired, 0},
		{`99999999999999999999`, apierr.CodeAmountTooLarge, 0},
		{`9223372036854775808`, apierr.CodeAmountTooLarge, 0},
		{`1000000000000001`, apierr.CodeAmountTooLarge, 0},
	} {
		n, err := ParseAmount(json.RawMessage(c.raw), "amount")
		if c.code == 0 {
			if err != nil || n != c.want {
				t.Errorf("%s: %d %v, want %d", c.raw, n, err, c.want)
			}
			continue
		}
		var e *apierr.Error
		if !errors.As(err, &e) || e.Code != c.code {
			t.Errorf("%s: %d %v, want code %d", c.raw, n, err, c.code)
		} else if e.Args["field"] != "amount" {
			t.Errorf("%s: the error names %v, not the field", c.raw, e.Args)
		}
	}
}

func TestParseIDTakesNumbersAndDigitStrings(t *testing.T) {
	for raw, want := range map[string]int64{`42`: 42, `"9007199254740993"`: 9007199254740993, ` "7" `: 7} {
		if n, err := ParseID(json.RawMessage(raw), "id"); err != nil || n != want {
			t.Errorf("%s: %d %v, want %d", raw, n, err, want)
		}
	}
	for raw, code := range map[string]int{``: apierr.CodeRequired, `null`: apierr.CodeRequired, `""`: apierr.CodeRequired,
		`0`: apierr.CodeInvalid, `-5`: apierr.CodeInvalid, `"abc"`: apierr.CodeInvalid, `1.5`: apierr.CodeInvalid} {
		_, err := ParseID(json.RawMessage(raw), "id")
		wantCode(t, err, code, raw)
	}
}

func TestFormatCentsAndMaskCard(t *testing.T) {
	for n, want := range map[int64]string{0: "0.00", 5: "0.05", 1000: "10.00", 123456: "1234.56", -250: "-2.50"} {
		if got := FormatCents(n); got != want {
			t.Errorf("FormatCents(%d) = %q, want %q", n, got, want)
		}
	}
	for n, want := range map[string]string{"4000123412341234": "************1234", "1234": "1234", "": ""} {
		if got := MaskCard(n); got != want {
			t.Errorf("MaskCard(%q) = %q, want %q", n, got, want)
		}
	}
}
