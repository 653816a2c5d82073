package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"kj/actors/ledger"
	"kj/auth"
	"kj/internal/apierr"
	"kj/internal/bus"
	"kj/internal/clock"
	"kj/storage"
	"kj/storage/storagetest"
	"kj/wallet"
)

const (
	testTRC20 = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7"
	testERC20 = "0xdAC17F958D2ee523a2206206994597C13D831ec7"
	tronHash  = "3f1a9c0b8e7d6a5f4e3d2c1b0a99887766554433221100ffeeddccbbaa998877"
)

// walletServer is testServer with a running ledger writer (on the fake
// clock) and the wallet configured: both USDT protocols, minDep 10.00,
// exchanges 10.00 .. 5,000.00.
func walletServer(t *testing.T, db storage.DB) (*Server, *clock.Fake) {
	t.Helper()
	s, c := testServer(t, db)
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.NewTextHandler(io.Discard, nil))
	}))
	w, err := ledger.Start(sys, db, ledger.Options{Bus: s.Bus, Clock: c})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		w.Stop(ctx)
		sys.Shutdown()
	})
	s.Wallet.Ledger = w
	cfg := &s.Wallet.Config
	cfg.USDTTRC20Address, cfg.USDTERC20Address = testTRC20, testERC20
	cfg.RechargeMinDeposit, cfg.ExchangeMin, cfg.ExchangeMax = 1000, 1000, 500_000
	return s, c
}

func checkLedger(t *testing.T, db storage.DB) storage.LedgerReport {
	t.Helper()
	r, err := storage.CheckLedger(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if !r.OK() {
		t.Fatalf("ledger check: %s", r)
	}
	return r
}

func walletBalance(t *testing.T, db storage.DB, userID int64) int64 {
	t.Helper()
	b, err := storage.AccountBalance(context.Background(), db, storage.Wallet(userID))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// counts returns the number of rows of each table, to prove that a refused
// request wrote nothing.
func counts(t *testing.T, db storage.DB) string {
	t.Helper()
	var parts []string
	for _, table := range []string{"ledger_transfers", "ledger_entries", "recharge_orders", "exchange_orders", "bank_cards", "banks"} {
		parts = append(parts, fmt.Sprintf("%s=%d", table, countRows(t, db, table)))
	}
	var sum int64
	db.QueryRow(context.Background(), `SELECT CAST(COALESCE(SUM(ABS(balance)), 0) AS BIGINT) FROM ledger_accounts`).Scan(&sum)
	return strings.Join(parts, " ") + fmt.Sprintf(" balances=%d", sum)
}

// setFundPassword gives the user fund password 123456.
func setFundPassword(t *testing.T, s *Server, token string) {
	t.Helper()
	ok(t, s, token, "/user/setWalletPwd", `{"password":"123456"}`, nil)
}

// bindCard binds a BBVA card and returns its id.
func bindCard(t *testing.T, s *Server, token, number string) string {
	t.Helper()
	var card bankCardJSON
	ok(t, s, token, "/user/setBankCard", fmt.Sprintf(`{"name":"Ana Pérez","bank":"91","cardNumber":%q,"confirmCardNumber":%q,"fundPassword":"123456"}`, number, number), &card)
	return card.ID
}

// recharge makes a recharge order of amount cents and has an operator
// confirm it; it returns the order.
func recharge(t *testing.T, s *Server, token, opToken string, amount int64, hash string) orderJSON {
	t.Helper()
	var o orderJSON
	ok(t, s, token, "/user/rechargeOrder", fmt.Sprintf(`{"amount":%d,"protocol":"TRC20","txHash":%q}`, amount, hash), &o)
	ok(t, s, opToken, "/admin/recharge/confirm", fmt.Sprintf(`{"orderId":%q}`, o.ID), &o)
	return o
}

func hashN(n int) string { return fmt.Sprintf("%064x", n+1) }

func TestFundPasswordSetChangeLockout(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, clk := walletServer(t, db)
		_, tok := newUser(t, s, "fiona")
		_, other := newUser(t, s, "gina")

		for _, c := range []struct {
			body string
			code int
		}{
			{`{}`, apierr.CodeRequired},
			{`{"password":""}`, apierr.CodeRequired},
			{`{"password":"12345"}`, apierr.CodeFundPasswordFormat},
			{`{"password":"1234567"}`, apierr.CodeFundPasswordFormat},
			{`{"password":"12345a"}`, apierr.CodeFundPasswordFormat},
			{`{"password":"１２３４５６"}`, apierr.CodeFundPasswordFormat}, // full-width digits
			{`{"password":123456}`, apierr.CodeBadRequest},
		} {
			fails(t, s, tok.Token, "/user/setWalletPwd", c.body, c.code)
		}
		// Changing before one is set.
		fails(t, s, tok.Token, "/user/changeWalletPwd", `{"oldPassword":"123456","password":"654321"}`, apierr.CodeFundPasswordNotSet)
		setFundPassword(t, s, tok.Token)
		fails(t, s, tok.Token, "/user/setWalletPwd", `{"password":"111111"}`, apierr.CodeFundPasswordSet)
		var amt amountReply
		ok(t, s, tok.Token, "/user/amount", `{}`, &amt)
		if !amt.HasFundPassword {
			t.Fatal("hasFundPassword")
		}
		u, _ := storage.UserByAccount(context.Background(), db, "fiona")
		if !strings.HasPrefix(u.FundPasswordHash, "$argon2id$") || auth.CheckPassword(u.FundPasswordHash, "123457") || !auth.CheckPassword(u.FundPasswordHash, "123456") {
			t.Fatalf("stored hash %q", u.FundPasswordHash)
		}

		fails(t, s, tok.Token, "/user/changeWalletPwd", `{"password":"654321"}`, apierr.CodeRequired)
		fails(t, s, tok.Token, "/user/changeWalletPwd", `{"oldPassword":"123456","password":"65432"}`, apierr.CodeFundPasswordFormat)
		fails(t, s, tok.Token, "/user/changeWalletPwd", `{"oldPassword":"123456","password":"123456"}`, apierr.CodeFundPasswordUnchanged)
		// Four wrong tries say how many are left; the fifth locks.
		for left := 4; left >= 1; left-- {
			r := fails(t, s, tok.Token, "/user/changeWalletPwd", `{"oldPassword":"000000","password":"654321"}`, apierr.CodeFundPasswordWrong)
			if want := fmt.Sprintf("Incorrect fund password, %d attempts left", left); r.Message != want {
				t.Fatalf("message %q, want %q", r.Message, want)
			}
		}
		r := fails(t, s, tok.Token, "/user/changeWalletPwd", `{"oldPassword":"abc","password":"654321"}`, apierr.CodeFundPasswordLocked)
		if r.Message != "Too many wrong fund passwords, retry after 10 minutes" {
			t.Fatalf("lock message %q", r.Message)
		}
		// Locked: even the right password is refused, and the lock covers
		// every use of the fund password (binding a card).
		fails(t, s, tok.Token, "/user/changeWalletPwd", `{"oldPassword":"123456","password":"654321"}`, apierr.CodeFundPasswordLocked)
		fails(t, s, tok.Token, "/user/setBankCard", `{"name":"F","bank":91,"cardNumber":"400012341234","confirmCardNumber":"400012341234","fundPassword":"123456"}`, apierr.CodeFundPasswordLocked)
		// Someone else is not locked.
		setFundPassword(t, s, other.Token)
		bindCard(t, s, other.Token, "400012341234")

		clk.Advance(9 * time.Minute)
		r = fails(t, s, tok.Token, "/user/changeWalletPwd", `{"oldPassword":"123456","password":"654321"}`, apierr.CodeFundPasswordLocked)
		if !strings.Contains(r.Message, "after 1 minutes") {
			t.Fatalf("remaining time: %q", r.Message)
		}
		clk.Advance(time.Minute)
		ok(t, s, tok.Token, "/user/changeWalletPwd", `{"oldPassword":"123456","password":"654321"}`, nil)
		fails(t, s, tok.Token, "/user/setBankCard", `{"name":"F","bank":91,"cardNumber":"400012341234","confirmCardNumber":"400012341234","fundPassword":"123456"}`, apierr.CodeFundPasswordWrong)
		ok(t, s, tok.Token, "/user/setBankCard", `{"name":"F","bank":91,"cardNumber":"400012341234","confirmCardNumber":"400012341234","fundPassword":"654321"}`, nil)
		// A success clears the count of wrong tries.
		r = fails(t, s, tok.Token, "/user/changeWalletPwd", `{"oldPassword":"000000","password":"111111"}`, apierr.CodeFundPasswordWrong)
		if !strings.Contains(r.Message, "4 attempts left") {
			t.Fatalf("after a success the count restarts: %q", r.Message)
		}
		if r := checkLedger(t, db); r.Transfers != 0 {
			t.Fatalf("fund password routes moved money: %s", r)
		}
	})
}

func TestBankCards(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, _ := walletServer(t, db)
		_, tok := newUser(t, s, "hana")
		_, mallory := newUser(t, s, "mallory")
		_, opTok := newOperator(t, s, "olga")

		card := func(name, bank, number, confirm, pw string) string {
			return fmt.Sprintf(`{"name":%q,"bank":%s,"cardNumber":%q,"confirmCardNumber":%q,"fundPassword":%q}`, name, bank, number, confirm, pw)
		}
		fails(t, s, tok.Token, "/user/setBankCard", card("Hana", "91", "4000123412341234", "4000123412341234", "123456"), apierr.CodeFundPasswordNotSet)
		setFundPassword(t, s, tok.Token)
		before := counts(t, db)
		for _, c := range []struct {
			body string
			code int
		}{
			{`{}`, apierr.CodeRequired},
			{card("", "91", "4000123412341234", "4000123412341234", "123456"), apierr.CodeRequired},
			{card("   ", "91", "4000123412341234", "4000123412341234", "123456"), apierr.CodeRequired},
			{card("Hana", `""`, "4000123412341234", "4000123412341234", "123456"), apierr.CodeRequired},
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
			{`{"name":1}`, apierr.CodeBadRequest},
		} {
			fails(t, s, tok.Token, "/user/setBankCard", c.body, c.code)
		}
		if after := counts(t, db); after != before {
			t.Fatalf("refused requests wrote: %s -> %s", before, after)
		}
		r := fails(t, s, tok.Token, "/user/setBankCard", card("Hana", "91", "4000123412341234", "4000123412341235", "123456"), apierr.CodeCardNumbersMismatch)
		if r.Message != "Bank card numbers do not match" {
			t.Fatalf("spec text: %q", r.Message)
		}

		// Bound by id, by id string and by name; spaces in the number ignored.
		var c1, c2 bankCardJSON
		ok(t, s, tok.Token, "/user/setBankCard", card("Hana Ito", "91", "4000 1234 1234 1234", "4000-1234-1234-1234", "123456"), &c1)
		ok(t, s, tok.Token, "/user/setBankCard", card("Hana Ito", `"Vietcombank"`, "9704000011112222", "9704000011112222", "123456"), &c2)
		if c1.CardNumber != "************1234" || c1.BankName != "BBVA" || c2.BankName != "Vietcombank" || c2.BankID != "50" {
			t.Fatalf("bound cards %+v %+v", c1, c2)
		}
		fails(t, s, tok.Token, "/user/setBankCard", card("Hana Ito", "91", "4000123412341234", "4000123412341234", "123456"), apierr.CodeCardAlreadyBound)
		var list struct{ List []bankCardJSON }
		ok(t, s, tok.Token, "/user/userBankList", `{}`, &list)
		if len(list.List) != 2 || list.List[0].ID != c1.ID || strings.Contains(string(post(t, s, tok.Token, "/user/userBankList", `{}`).Data), "4000123412341234") {
			t.Fatalf("list %+v", list)
		}
		for i := range 3 {
			n := fmt.Sprintf("62220000000000%02d", i)
			ok(t, s, tok.Token, "/user/setBankCard", card("Hana Ito", "1", n, n, "123456"), nil)
		}
		fails(t, s, tok.Token, "/user/setBankCard", card("Hana Ito", "1", "6222000000000099", "6222000000000099", "123456"), apierr.CodeTooManyCards)

		// Someone else's card: not found, nothing deleted.
		before = counts(t, db)
		fails(t, s, mallory.Token, "/user/userDelBank", fmt.Sprintf(`{"id":%q}`, c1.ID), apierr.CodeNotFound)
		fails(t, s, mallory.Token, "/user/userDelBank", `{"id":"abc"}`, apierr.CodeInvalid)
		fails(t, s, mallory.Token, "/user/userDelBank", `{}`, apierr.CodeRequired)
		if after := counts(t, db); after != before {
			t.Fatalf("mallory changed something: %s -> %s", before, after)
		}
		ok(t, s, mallory.Token, "/user/userBankList", `{}`, &list)
		if len(list.List) != 0 {
			t.Fatalf("mallory sees cards: %+v", list)
		}
		ok(t, s, tok.Token, "/user/userDelBank", fmt.Sprintf(`{"id":%s}`, c1.ID), nil)
		fails(t, s, tok.Token, "/user/userDelBank", fmt.Sprintf(`{"id":%q}`, c1.ID), apierr.CodeNotFound)

		// The bank list puts the caller's market first.
		var banks struct{ List []bankJSON }
		r = call(t, s.Handler(), "POST", "/api/user/getBankList", `{}`, "token", tok.Token, "Accept-Language", "vi-VN")
		json.Unmarshal(r.Data, &banks)
		if len(banks.List) < 50 || banks.List[0].Name != "Vietcombank" {
			t.Fatalf("vi-VN bank list starts with %+v", banks.List[0])
		}
		r = call(t, s.Handler(), "POST", "/api/user/getBankList", `{}`, "token", tok.Token, "Accept-Language", "zh-HANT")
		json.Unmarshal(r.Data, &banks)
		if banks.List[0].Country != "TW" {
			t.Fatalf("zh-HANT bank list starts with %+v", banks.List[0])
		}

		// Operators edit the list; users cannot.
		fails(t, s, tok.Token, "/admin/bank/add", `{"name":"Banco X","country":"ES"}`, apierr.CodeOperatorOnly)
		var added bankJSON
		ok(t, s, opTok.Token, "/admin/bank/add", `{"name":"Banco Nuevo","country":"es","sort":20}`, &added)
		if added.Country != "ES" || added.Enabled != 1 {
			t.Fatalf("added %+v", added)
		}
		fails(t, s, opTok.Token, "/admin/bank/add", `{"name":"BBVA","country":"ES"}`, apierr.CodeBankNameTaken)
		fails(t, s, opTok.Token, "/admin/bank/add", `{"name":"Banco","country":"ESP"}`, apierr.CodeInvalid)
		fails(t, s, opTok.Token, "/admin/bank/add", `{"country":"ES"}`, apierr.CodeRequired)
		fails(t, s, opTok.Token, "/admin/bank/update", `{"id":"123","name":"X","country":"ES"}`, apierr.CodeNotFound)
		ok(t, s, opTok.Token, "/admin/bank/update", fmt.Sprintf(`{"id":%q,"name":"Banco Nuevo SA","country":"ES","enabled":0}`, added.ID), nil)
		fails(t, s, tok.Token, "/user/setBankCard", card("Hana", added.ID, "5000123412341234", "5000123412341234", "123456"), apierr.CodeBankUnknown)
		var all struct{ List []bankJSON }
		ok(t, s, opTok.Token, "/admin/bank/list", `{}`, &all)
		found := false
		for _, b := range all.List {
			found = found || (b.ID == added.ID && b.Name == "Banco Nuevo SA" && b.Enabled == 0)
		}
		if !found {
			t.Fatal("the operator list lacks the disabled bank")
		}
		// Updating without "enabled" leaves it as it was.
		ok(t, s, opTok.Token, "/admin/bank/update", fmt.Sprintf(`{"id":%q,"name":"Banco Nuevo SA","country":"ES","sort":3}`, added.ID), &added)
		if added.Enabled != 0 {
			t.Fatal("update re-enabled the bank")
		}
		if r := checkLedger(t, db); r.Transfers != 0 {
			t.Fatalf("bank card routes moved money: %s", r)
		}
	})
}

func TestAmountsAreStrictlyPositiveWholeCents(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, _ := walletServer(t, db)
		_, tok := newUser(t, s, "ivan")
		setFundPassword(t, s, tok.Token)
		cardID := bindCard(t, s, tok.Token, "4000123412341234")
		before := counts(t, db)
		for _, c := range []struct {
			amount string
			code   int
		}{
			{`-100`, apierr.CodeAmountInvalid},
			{`0`, apierr.CodeAmountInvalid},
			{`-0`, apierr.CodeAmountInvalid},
			{`10.5`, apierr.CodeAmountInvalid},
			{`1000.0`, apierr.CodeAmountInvalid},
			{`1e3`, apierr.CodeAmountInvalid},
			{`1E5`, apierr.CodeAmountInvalid},
			{`"1000"`, apierr.CodeBadRequest},
			{`true`, apierr.CodeBadRequest},
			{`[1000]`, apierr.CodeBadRequest},
			{`{"v":1}`, apierr.CodeBadRequest},
			{`null`, apierr.CodeRequired},
			{`99999999999999999999`, apierr.CodeAmountTooLarge},
			{`9223372036854775808`, apierr.CodeAmountTooLarge},
			{`1000000000000001`, apierr.CodeAmountTooLarge},
		} {
			fails(t, s, tok.Token, "/user/rechargeOrder", fmt.Sprintf(`{"amount":%s,"protocol":"TRC20","txHash":%q}`, c.amount, tronHash), c.code)
			fails(t, s, tok.Token, "/user/exchange", fmt.Sprintf(`{"amount":%s,"bankCardId":%q,"fundPassword":"123456"}`, c.amount, cardID), c.code)
		}
		fails(t, s, tok.Token, "/user/rechargeOrder", fmt.Sprintf(`{"protocol":"TRC20","txHash":%q}`, tronHash), apierr.CodeRequired)
		r := fails(t, s, tok.Token, "/user/rechargeOrder", fmt.Sprintf(`{"amount":12.5,"protocol":"TRC20","txHash":%q}`, tronHash), apierr.CodeAmountInvalid)
		if r.Message != "amount must be a positive whole number of cents" {
			t.Fatalf("message %q", r.Message)
		}
		if after := counts(t, db); after != before {
			t.Fatalf("bad amounts wrote: %s -> %s", before, after)
		}
		checkLedger(t, db)
	})
}

func TestRechargeOrdersAndReview(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, clk := walletServer(t, db)
		u, tok := newUser(t, s, "jade")
		_, mallory := newUser(t, s, "mallory")
		_, opTok := newOperator(t, s, "otto")

		var chains struct {
			List    []wallet.Protocol
			MinDep  int64
			Service bool
		}
		ok(t, s, tok.Token, "/user/getChainTypes", `{}`, &chains)
		if len(chains.List) != 2 || chains.List[0].Protocol != "TRC20" || chains.List[0].Address != testTRC20 || chains.List[1].Address != testERC20 || chains.MinDep != 1000 || !chains.Service {
			t.Fatalf("chain types %+v (recharge through customer service is on by default)", chains)
		}
		s.Wallet.Config.RechargeViaService = false
		chains.Service = true
		ok(t, s, tok.Token, "/user/getChainTypes", `{}`, &chains)
		if chains.Service {
			t.Fatal("KJ_RECHARGE_VIA_SERVICE=false still offers recharge through customer service")
		}
		s.Wallet.Config.RechargeViaService = true

		before := counts(t, db)
		order := func(amount int64, protocol, hash string) string {
			return fmt.Sprintf(`{"amount":%d,"protocol":%q,"txHash":%q}`, amount, protocol, hash)
		}
		for _, c := range []struct {
			body string
			code int
		}{
			{order(999, "TRC20", tronHash), apierr.CodeBelowMinDeposit},
			{order(1000, "", tronHash), apierr.CodeRequired},
			{order(1000, "BEP20", tronHash), apierr.CodeProtocolUnknown},
			{order(1000, "TRC20", ""), apierr.CodeRequired},
			{order(1000, "TRC20", "0x"+tronHash), apierr.CodeTxHashInvalid},
			{order(1000, "ERC20", tronHash), apierr.CodeTxHashInvalid},
			{order(1000, "TRC20", tronHash[:63]), apierr.CodeTxHashInvalid},
			{order(1000, "TRC20", strings.Repeat("g", 64)), apierr.CodeTxHashInvalid},
		} {
			fails(t, s, tok.Token, "/user/rechargeOrder", c.body, c.code)
		}
		r := fails(t, s, tok.Token, "/user/rechargeOrder", order(999, "TRC20", tronHash), apierr.CodeBelowMinDeposit)
		if r.Message != "The minimum recharge is 10.00 USDT" {
			t.Fatalf("min message %q", r.Message)
		}
		if after := counts(t, db); after != before {
			t.Fatalf("refused orders wrote: %s -> %s", before, after)
		}

		var o1, again orderJSON
		ok(t, s, tok.Token, "/user/rechargeOrder", order(2500, "trc20", strings.ToUpper(tronHash)), &o1)
		if o1.Status != 0 || o1.Amount != 2500 || o1.Protocol != "TRC20" || o1.TxHash != tronHash || o1.Address != testTRC20 {
			t.Fatalf("order %+v", o1)
		}
		ok(t, s, tok.Token, "/user/rechargeOrder", order(2500, "TRC20", tronHash), &again)
		if again.ID != o1.ID {
			t.Fatal("a resubmitted order made a second one")
		}
		fails(t, s, tok.Token, "/user/rechargeOrder", order(2600, "TRC20", tronHash), apierr.CodeTxHashUsed)
		fails(t, s, mallory.Token, "/user/rechargeOrder", order(2500, "TRC20", tronHash), apierr.CodeTxHashUsed)
		ethHash := "0x" + strings.Repeat("ab", 32)
		var o2 orderJSON
		ok(t, s, tok.Token, "/user/rechargeOrder", order(1000, "ERC20", ethHash), &o2)

		// The review queue; users cannot reach it.
		fails(t, s, tok.Token, "/admin/recharge/list", `{}`, apierr.CodeOperatorOnly)
		fails(t, s, tok.Token, "/admin/recharge/confirm", fmt.Sprintf(`{"orderId":%q}`, o1.ID), apierr.CodeOperatorOnly)
		var queue struct {
			List  []orderJSON
			Total int
		}
		ok(t, s, opTok.Token, "/admin/recharge/list", `{"status":0}`, &queue)
		if queue.Total != 2 || queue.List[0].ID != o1.ID || queue.List[0].Account != "jade" || queue.List[0].UserID != u.IDString() {
			t.Fatalf("queue %+v", queue)
		}
		fails(t, s, opTok.Token, "/admin/recharge/list", `{"status":3}`, apierr.CodeInvalid)

		// Balance pushes reach the user's subject.
		pushes := make(chan bus.Notification, 10)
		sub, _ := s.Bus.Subscribe(bus.UserSubject(u.IDString()), func(_ string, data []byte) {
			var n bus.Notification
			json.Unmarshal(data, &n)
			pushes <- n
		})
		defer sub.Unsubscribe()

		clk.Advance(time.Minute)
		// Confirmed twice, concurrently and again later: credited once.
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var got orderJSON
				ok(t, s, opTok.Token, "/admin/recharge/confirm", fmt.Sprintf(`{"orderId":%q}`, o1.ID), &got)
				if got.Status != 1 || got.ReviewTime == 0 {
					t.Errorf("confirmed order %+v", got)
				}
			}()
		}
		wg.Wait()
		ok(t, s, opTok.Token, "/admin/recharge/confirm", fmt.Sprintf(`{"orderId":%s}`, o1.ID), nil)
		if got := walletBalance(t, db, u.ID); got != 2500 {
			t.Fatalf("balance %d after confirming twice", got)
		}
		select {
		case n := <-pushes:
			var p ledger.BalancePush
			json.Unmarshal([]byte(n.Data), &p)
			if n.Key != "balance" || p.Amount != 2500 || p.Change != 2500 {
				t.Fatalf("push %+v", n)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no balance push")
		}
		fails(t, s, opTok.Token, "/admin/recharge/fail", fmt.Sprintf(`{"orderId":%q,"remark":"late"}`, o1.ID), apierr.CodeOrderProcessed)
		fails(t, s, opTok.Token, "/admin/recharge/confirm", `{"orderId":"424242"}`, apierr.CodeNotFound)
		fails(t, s, opTok.Token, "/admin/recharge/fail", `{"orderId":"424242"}`, apierr.CodeNotFound)
		fails(t, s, opTok.Token, "/admin/recharge/fail", `{"orderId":-5}`, apierr.CodeInvalid)

		// Failing o2, twice, then confirming it: refused, nothing credited.
		var failed orderJSON
		ok(t, s, opTok.Token, "/admin/recharge/fail", fmt.Sprintf(`{"orderId":%q,"remark":"no such transaction"}`, o2.ID), &failed)
		ok(t, s, opTok.Token, "/admin/recharge/fail", fmt.Sprintf(`{"orderId":%q}`, o2.ID), nil)
		if failed.Status != 2 || failed.Remark != "no such transaction" {
			t.Fatalf("failed order %+v", failed)
		}
		fails(t, s, opTok.Token, "/admin/recharge/confirm", fmt.Sprintf(`{"orderId":%q}`, o2.ID), apierr.CodeOrderProcessed)
		if got := walletBalance(t, db, u.ID); got != 2500 {
			t.Fatalf("balance %d", got)
		}
		var amt amountReply
		ok(t, s, tok.Token, "/user/getUserAmount", `{}`, &amt)
		if amt.Amount != 2500 || !amt.IsRecharge || amt.ExchangeMin != 1000 {
			t.Fatalf("amount %+v", amt)
		}
		var info UserInfo
		ok(t, s, tok.Token, "/user/mine", `{}`, &info)
		if !info.IsRecharge {
			t.Fatal("/user/mine isRecharge after a credited recharge")
		}
		ok(t, s, mallory.Token, "/user/index", `{}`, &info)
		if info.IsRecharge {
			t.Fatal("/user/index isRecharge of a user who never recharged")
		}
		var recs struct {
			List  []pointsRecord
			Total int
		}
		ok(t, s, tok.Token, "/user/userCoinRecode", `{"tab":"income"}`, &recs)
		if recs.Total != 2 || recs.List[0].OrderNo != o2.OrderNo || recs.List[0].State != 2 || recs.List[1].State != 1 || recs.List[1].Amount != 2500 {
			t.Fatalf("records %+v", recs)
		}
		ok(t, s, mallory.Token, "/user/userCoinRecode", `{}`, &recs)
		if recs.Total != 0 {
			t.Fatalf("mallory sees jade's records: %+v", recs)
		}
		if r := checkLedger(t, db); r.Transfers != 1 {
			t.Fatalf("transfers %d, want 1", r.Transfers)
		}
	})
}

func TestExchangeAndReview(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, clk := walletServer(t, db)
		u, tok := newUser(t, s, "kira")
		_, mallory := newUser(t, s, "mallory")
		_, opTok := newOperator(t, s, "oona")
		ex := func(amount int64, card, pw string) string {
			return fmt.Sprintf(`{"amount":%d,"bankCardId":%q,"fundPassword":%q}`, amount, card, pw)
		}

		r := fails(t, s, tok.Token, "/user/exchange", ex(2000, "1", "123456"), apierr.CodeNoBankCard)
		if r.Message != "You have not bound a bank card" {
			t.Fatalf("spec text %q", r.Message)
		}
		setFundPassword(t, s, tok.Token)
		card := bindCard(t, s, tok.Token, "4000123412341234")
		setFundPassword(t, s, mallory.Token)
		malloryCard := bindCard(t, s, mallory.Token, "5000123412341234")
		recharge(t, s, tok.Token, opTok.Token, 10_000, hashN(1))
		recharge(t, s, mallory.Token, opTok.Token, 10_000, hashN(2))

		before := counts(t, db)
		for _, c := range []struct {
			body string
			code int
		}{
			{ex(999, card, "123456"), apierr.CodeExchangeBelowMin},
			{ex(500_001, card, "123456"), apierr.CodeExchangeAboveMax},
			{`{"amount":2000,"fundPassword":"123456"}`, apierr.CodeRequired},
			{ex(2000, malloryCard, "123456"), apierr.CodeNotFound}, // someone else's card
			{ex(2000, "777", "123456"), apierr.CodeNotFound},
			{ex(2000, card, ""), apierr.CodeRequired},
			{ex(2000, card, "000000"), apierr.CodeFundPasswordWrong},
			{ex(10_001, card, "123456"), apierr.CodeInsufficientBalance},
		} {
			fails(t, s, tok.Token, "/user/exchange", c.body, c.code)
		}
		if after := counts(t, db); after != before {
			t.Fatalf("refused exchanges wrote: %s -> %s", before, after)
		}
		r = fails(t, s, tok.Token, "/user/exchange", ex(10_001, card, "123456"), apierr.CodeInsufficientBalance)
		if r.Message != "Insufficient balance" {
			t.Fatalf("spec text %q", r.Message)
		}
		r = fails(t, s, tok.Token, "/user/exchange", ex(999, card, "123456"), apierr.CodeExchangeBelowMin)
		if r.Message != "The minimum exchange is 10.00" {
			t.Fatalf("min text %q", r.Message)
		}

		clk.Advance(20 * time.Minute)
		var e1, e1again orderJSON
		r = post(t, s, tok.Token, "/user/exchange", ex(3000, card, "123456"), "Idempotency-Key", "req-1")
		json.Unmarshal(r.Data, &e1)
		if r.Code != 0 || e1.Status != 0 || e1.Amount != 3000 || e1.CardNumber != "************1234" || e1.BankName != "BBVA" {
			t.Fatalf("exchange %+v %+v", r, e1)
		}
		r = post(t, s, tok.Token, "/user/exchange", ex(3000, card, "123456"), "Idempotency-Key", "req-1")
		json.Unmarshal(r.Data, &e1again)
		if r.Code != 0 || e1again.ID != e1.ID {
			t.Fatalf("a retried exchange made another order: %+v", e1again)
		}
		fails(t, s, tok.Token, "/user/exchange", ex(3001, card, "123456"), apierr.CodeRequestKeyReused, "Idempotency-Key", "req-1")
		fails(t, s, tok.Token, "/user/exchange", ex(3000, card, "123456"), apierr.CodeInvalid, "Idempotency-Key", "bad key!")
		// Mallory's key of the same name is hers.
		r = post(t, s, mallory.Token, "/user/exchange", ex(3000, malloryCard, "123456"), "Idempotency-Key", "req-1")
		if r.Code != 0 {
			t.Fatalf("mallory's own key: %+v", r)
		}
		var amt amountReply
		ok(t, s, tok.Token, "/user/amount", `{}`, &amt)
		if amt.Amount != 7000 || amt.FrozenAmount != 3000 || amt.BankCardCount != 1 {
			t.Fatalf("after the exchange %+v", amt)
		}

		clk.Advance(20 * time.Minute)
		var e2 orderJSON
		ok(t, s, tok.Token, "/user/exchange", ex(2000, card, "123456"), &e2)
		// Deleting the card later does not change the order.
		ok(t, s, tok.Token, "/user/userDelBank", fmt.Sprintf(`{"id":%q}`, card), nil)

		// Operators: complete e1, fail e2 (remark required), each once.
		var queue struct {
			List  []orderJSON
			Total int
		}
		ok(t, s, opTok.Token, "/admin/exchange/list", `{}`, &queue)
		if queue.Total != 3 || queue.List[0].CardNumber != "4000123412341234" || queue.List[0].Account != "kira" {
			t.Fatalf("exchange queue %+v", queue)
		}
		fails(t, s, mallory.Token, "/admin/exchange/complete", fmt.Sprintf(`{"orderId":%q}`, e1.ID), apierr.CodeOperatorOnly)
		var done orderJSON
		ok(t, s, opTok.Token, "/admin/exchange/complete", fmt.Sprintf(`{"orderId":%q}`, e1.ID), &done)
		ok(t, s, opTok.Token, "/admin/exchange/complete", fmt.Sprintf(`{"orderId":%q}`, e1.ID), nil)
		fails(t, s, opTok.Token, "/admin/exchange/fail", fmt.Sprintf(`{"orderId":%q,"remark":"x"}`, e1.ID), apierr.CodeOrderProcessed)
		fails(t, s, opTok.Token, "/admin/exchange/fail", fmt.Sprintf(`{"orderId":%q}`, e2.ID), apierr.CodeRequired)
		// Complete and fail e2 at the same time: exactly one wins.
		var wg sync.WaitGroup
		results := make(chan int, 6)
		for i := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				path, body := "/admin/exchange/fail", fmt.Sprintf(`{"orderId":%q,"remark":"card closed"}`, e2.ID)
				if i%2 == 0 {
					path, body = "/admin/exchange/complete", fmt.Sprintf(`{"orderId":%q}`, e2.ID)
				}
				results <- post(t, s, opTok.Token, path, body).Code
			}()
		}
		wg.Wait()
		close(results)
		var okCount, processed int
		for code := range results {
			switch code {
			case 0:
				okCount++
			case apierr.CodeOrderProcessed:
				processed++
			default:
				t.Fatalf("race reply %d", code)
			}
		}
		if okCount != 3 || processed != 3 {
			t.Fatalf("complete vs fail: %d ok, %d refused; want one side only", okCount, processed)
		}
		e2now, _ := storage.ExchangeOrderByID(context.Background(), db, mustWalletID(t, e2.ID))
		wantBalance := int64(5000)
		if e2now.Status == storage.OrderFailed {
			wantBalance = 7000
			if e2now.Remark != "card closed" {
				t.Fatalf("remark %q", e2now.Remark)
			}
		}
		if got := walletBalance(t, db, u.ID); got != wantBalance {
			t.Fatalf("balance %d, want %d (e2 %d)", got, wantBalance, e2now.Status)
		}
		withdrawn, _ := storage.AccountBalance(context.Background(), db, storage.Withdrawn)
		pending, _ := storage.AccountBalance(context.Background(), db, storage.WithdrawalPending)
		if pending != 3000 /* mallory's */ || withdrawn != 3000+map[bool]int64{true: 2000, false: 0}[e2now.Status == storage.OrderCompleted] {
			t.Fatalf("pending %d, withdrawn %d", pending, withdrawn)
		}

		// Records.
		var recs struct {
			List  []orderJSON
			Total int
		}
		ok(t, s, tok.Token, "/user/userExchangeRecode", `{"tab":"success"}`, &recs)
		if recs.Total != 1+map[bool]int{true: 1, false: 0}[e2now.Status == storage.OrderCompleted] || recs.List[0].Status != 1 {
			t.Fatalf("successful %+v", recs)
		}
		ok(t, s, tok.Token, "/user/userExchangeRecode", `{"tab":"all","days":0}`, &recs)
		if recs.Total != 2 || recs.List[0].ID != e2.ID || recs.List[0].CardNumber != "************1234" {
			t.Fatalf("today %+v", recs)
		}
		ok(t, s, tok.Token, "/user/userExchangeRecode", `{"tab":"review"}`, &recs)
		if recs.Total != 0 {
			t.Fatalf("under review %+v", recs)
		}
		ok(t, s, tok.Token, "/user/userExchangeRecode", `{"page":2,"pageSize":1}`, &recs)
		if recs.Total != 2 || len(recs.List) != 1 || recs.List[0].ID != e1.ID {
			t.Fatalf("page 2 %+v", recs)
		}
		fails(t, s, tok.Token, "/user/userExchangeRecode", `{"tab":"pending"}`, apierr.CodeInvalid)
		fails(t, s, tok.Token, "/user/userExchangeRecode", `{"days":3}`, apierr.CodeInvalid)
		fails(t, s, tok.Token, "/user/userExchangeRecode", `{"pageSize":101}`, apierr.CodeInvalid)
		fails(t, s, tok.Token, "/user/userExchangeRecode", `{"page":-1}`, apierr.CodeInvalid)
		var points struct {
			List  []pointsRecord
			Total int
		}
		ok(t, s, tok.Token, "/user/userCoinRecode", `{"tab":"expenditure"}`, &points)
		if points.Total != 2 || points.List[0].Type != "exchange" || points.List[0].Amount != -2000 || points.List[0].State != e2now.Status {
			t.Fatalf("expenditure %+v", points)
		}
		// Days filter: 8 days later only today's lines (none) and the
		// 15-day window still holds everything.
		clk.Advance(8 * 24 * time.Hour)
		tok = signIn(t, s, u.ID)
		ok(t, s, tok.Token, "/user/userCoinRecode", `{"days":0}`, &points)
		if points.Total != 0 {
			t.Fatalf("today %+v", points)
		}
		ok(t, s, tok.Token, "/user/userCoinRecode", `{"days":7}`, &points)
		if points.Total != 0 {
			t.Fatalf("7 days %+v", points)
		}
		ok(t, s, tok.Token, "/user/userCoinRecode", `{"days":15}`, &points)
		want := 3 + map[bool]int{true: 1, false: 0}[e2now.Status == storage.OrderFailed] // recharge, e1, e2 (+ refund)
		if points.Total != want {
			t.Fatalf("15 days: %d lines, want %d: %+v", points.Total, want, points)
		}
		fails(t, s, tok.Token, "/user/userCoinRecode", `{"tab":"both"}`, apierr.CodeInvalid)
		checkLedger(t, db)
	})
}

// signIn opens a new session for a user (after the clock moved past the
// token's lifetime).
func signIn(t *testing.T, s *Server, userID int64) auth.Tokens {
	t.Helper()
	ctx := context.Background()
	var tok auth.Tokens
	if err := s.DB.Tx(ctx, func(tx storage.Tx) error {
		var err error
		tok, _, err = s.Sessions.SignIn(ctx, tx, userID, 5)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return tok
}

func mustWalletID(t *testing.T, s string) int64 {
	t.Helper()
	id, err := wallet.ParseID(json.RawMessage(s), "id")
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestOperatorRoutesNeedOperators keeps every wallet admin route closed to users.
func TestOperatorRoutesNeedOperators(t *testing.T) {
	s, _ := walletServer(t, storagetest.SQLite(t))
	_, tok := newUser(t, s, "lena")
	for _, r := range s.Routes() {
		if r.Access != Operator || !strings.HasPrefix(r.Path, "/admin/") {
			continue
		}
		if got := post(t, s, tok.Token, r.Path, `{}`); got.Code != apierr.CodeOperatorOnly || got.Status != http.StatusForbidden {
			t.Errorf("%s as a user: %+v", r.Path, got)
		}
	}
}
