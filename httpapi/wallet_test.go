package httpapi

// The wallet's routes as the client sees them: what each decodes, the
// JSON it answers, the headers it reads (Idempotency-Key, Accept-Language)
// and the translated messages of its refusals. The wallet's rules
// themselves are tested in kj/wallet.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"kj/actors/ledger"
	"kj/auth"
	"kj/internal/apierr"
	"kj/internal/bus"
	"kj/internal/clock"
	"kj/storage"
	"kj/storage/storagetest"
	"kj/wallet"
	"kj/wallet/wallettest"
)

// walletServer is testServer with a running ledger writer (on the fake
// clock) and the wallet configured: both USDT protocols, minDep 10.00,
// exchanges 10.00 .. 5,000.00.
func walletServer(t *testing.T, db storage.DB) (*Server, *clock.Fake) {
	t.Helper()
	s, c := testServer(t, db)
	s.Wallet.Ledger = wallettest.Ledger(t, db, s.Bus, c)
	cfg := &s.Wallet.Config
	cfg.USDTTRC20Address, cfg.USDTERC20Address = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7", "0xdAC17F958D2ee523a2206206994597C13D831ec7"
	cfg.RechargeMinDeposit, cfg.ExchangeMin, cfg.ExchangeMax = 1000, 1000, 500_000
	return s, c
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

// wantMessage fails the test unless the reply's message is want.
func wantMessage(t *testing.T, r reply, want string) {
	t.Helper()
	if r.Message != want {
		t.Fatalf("message %q, want %q", r.Message, want)
	}
}

func TestFundPasswordRoutes(t *testing.T) {
	t.Parallel()
	s, _ := walletServer(t, storagetest.SQLite(t))
	_, tok := newUser(t, s, "fiona")
	fails(t, s, tok.Token, "/user/setWalletPwd", `{"password":123456}`, apierr.CodeBadRequest)
	wantMessage(t, fails(t, s, tok.Token, "/user/setWalletPwd", `{"password":"12345"}`, apierr.CodeFundPasswordFormat),
		"The fund password must be exactly 6 digits")
	fails(t, s, tok.Token, "/user/changeWalletPwd", `{"oldPassword":"123456","password":"654321"}`, apierr.CodeFundPasswordNotSet)
	var set struct{ HasFundPassword bool }
	ok(t, s, tok.Token, "/user/setWalletPwd", `{"password":"123456"}`, &set)
	var amt amountReply
	ok(t, s, tok.Token, "/user/amount", `{}`, &amt)
	if !set.HasFundPassword || !amt.HasFundPassword {
		t.Fatalf("hasFundPassword: set %+v, amount %+v", set, amt)
	}
	fails(t, s, tok.Token, "/user/changeWalletPwd", `{"password":"654321"}`, apierr.CodeRequired)
	// The tries left and the lock's minutes are in the message.
	for left := 4; left >= 1; left-- {
		wantMessage(t, fails(t, s, tok.Token, "/user/changeWalletPwd", `{"oldPassword":"000000","password":"654321"}`, apierr.CodeFundPasswordWrong),
			fmt.Sprintf("Incorrect fund password, %d attempts left", left))
	}
	wantMessage(t, fails(t, s, tok.Token, "/user/changeWalletPwd", `{"oldPassword":"000000","password":"654321"}`, apierr.CodeFundPasswordLocked),
		"Too many wrong fund passwords, retry after 10 minutes")
}

func TestBankCardRoutes(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, _ := walletServer(t, db)
		_, tok := newUser(t, s, "hana")
		_, opTok := newOperator(t, s, "olga")
		setFundPassword(t, s, tok.Token)
		card := func(bank, number, confirm string) string {
			return fmt.Sprintf(`{"name":"Hana Ito","bank":%s,"cardNumber":%q,"confirmCardNumber":%q,"fundPassword":"123456"}`, bank, number, confirm)
		}
		fails(t, s, tok.Token, "/user/setBankCard", `{"name":1}`, apierr.CodeBadRequest)
		wantMessage(t, fails(t, s, tok.Token, "/user/setBankCard", card("91", "4000123412341234", "4000123412341235"), apierr.CodeCardNumbersMismatch),
			"Bank card numbers do not match")

		// Bound by id and by name; shown masked, ids as strings.
		var c1, c2 bankCardJSON
		ok(t, s, tok.Token, "/user/setBankCard", card("91", "4000 1234 1234 1234", "4000-1234-1234-1234"), &c1)
		ok(t, s, tok.Token, "/user/setBankCard", card(`"Vietcombank"`, "9704000011112222", "9704000011112222"), &c2)
		if c1.CardNumber != "************1234" || c1.BankName != "BBVA" || c1.BankID != "91" || c1.HolderName != "Hana Ito" || c2.BankID != "50" || c1.CreatedAt == 0 {
			t.Fatalf("bound cards %+v %+v", c1, c2)
		}
		var list struct{ List []bankCardJSON }
		r := post(t, s, tok.Token, "/user/userBankList", `{}`)
		json.Unmarshal(r.Data, &list)
		if len(list.List) != 2 || list.List[0] != c1 || strings.Contains(string(r.Data), "4000123412341234") {
			t.Fatalf("list %s", r.Data)
		}
		// The id as a number or a string.
		ok(t, s, tok.Token, "/user/userDelBank", fmt.Sprintf(`{"id":%s}`, c1.ID), nil)
		fails(t, s, tok.Token, "/user/userDelBank", fmt.Sprintf(`{"id":%q}`, c2.ID+"0"), apierr.CodeNotFound)
		fails(t, s, tok.Token, "/user/userDelBank", `{"id":"abc"}`, apierr.CodeInvalid)
		fails(t, s, tok.Token, "/user/userDelBank", `{}`, apierr.CodeRequired)
		ok(t, s, tok.Token, "/user/userDelBank", fmt.Sprintf(`{"id":%q}`, c2.ID), nil)

		// The bank list puts the caller's market first.
		for lang, first := range map[string]string{"vi-VN": "Vietcombank", "zh-HANT": "TW"} {
			var banks struct{ List []bankJSON }
			r := call(t, s.Handler(), "POST", "/api/user/getBankList", `{}`, "token", tok.Token, "Accept-Language", lang)
			json.Unmarshal(r.Data, &banks)
			if len(banks.List) < 50 || (banks.List[0].Name != first && banks.List[0].Country != first) {
				t.Fatalf("%s bank list starts with %+v", lang, banks.List[0])
			}
		}

		// Operators edit the list; users cannot.
		fails(t, s, tok.Token, "/admin/bank/add", `{"name":"Banco X","country":"ES"}`, apierr.CodeOperatorOnly)
		var added, updated bankJSON
		ok(t, s, opTok.Token, "/admin/bank/add", `{"name":"Banco Nuevo","country":"es","sort":20}`, &added)
		if added.ID == "" || added.Name != "Banco Nuevo" || added.Country != "ES" || added.Sort != 20 || added.Enabled != 1 {
			t.Fatalf("added %+v", added)
		}
		fails(t, s, opTok.Token, "/admin/bank/add", `{"name":"BBVA","country":"ES"}`, apierr.CodeBankNameTaken)
		fails(t, s, opTok.Token, "/admin/bank/add", `{"name":"Banco","sort":"1"}`, apierr.CodeBadRequest)
		fails(t, s, opTok.Token, "/admin/bank/update", `{"id":"123","name":"X","country":"ES"}`, apierr.CodeNotFound)
		ok(t, s, opTok.Token, "/admin/bank/update", fmt.Sprintf(`{"id":%q,"name":"Banco Nuevo SA","country":"ES","enabled":0}`, added.ID), &updated)
		if updated.ID != added.ID || updated.Name != "Banco Nuevo SA" || updated.Enabled != 0 {
			t.Fatalf("updated %+v", updated)
		}
		var all struct{ List []bankJSON }
		ok(t, s, opTok.Token, "/admin/bank/list", `{}`, &all)
		found := false
		for _, b := range all.List {
			found = found || b == updated
		}
		if !found {
			t.Fatal("the operator list lacks the disabled bank")
		}
	})
}

// TestAmountsOverHTTP: both routes that take an amount read it from the
// raw JSON, with the amount's own messages.
func TestAmountsOverHTTP(t *testing.T) {
	t.Parallel()
	s, _ := walletServer(t, storagetest.SQLite(t))
	_, tok := newUser(t, s, "ivan")
	setFundPassword(t, s, tok.Token)
	cardID := bindCard(t, s, tok.Token, "4000123412341234")
	for _, body := range []string{
		fmt.Sprintf(`{"amount":%%s,"protocol":"TRC20","txHash":%q}`, hashN(0)),
		fmt.Sprintf(`{"amount":%%s,"bankCardId":%q,"fundPassword":"123456"}`, cardID),
	} {
		path := map[bool]string{true: "/user/exchange", false: "/user/rechargeOrder"}[strings.Contains(body, "bankCardId")]
		wantMessage(t, fails(t, s, tok.Token, path, fmt.Sprintf(body, "12.5"), apierr.CodeAmountInvalid), "amount must be a positive whole number of cents")
		fails(t, s, tok.Token, path, fmt.Sprintf(body, `"1000"`), apierr.CodeBadRequest)
		fails(t, s, tok.Token, path, fmt.Sprintf(body, "1000000000000001"), apierr.CodeAmountTooLarge)
	}
}

func TestRechargeRoutes(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, clk := walletServer(t, db)
		u, tok := newUser(t, s, "jade")
		_, mallory := newUser(t, s, "mallory")
		_, opTok := newOperator(t, s, "otto")

		cfg := s.Wallet.Config
		trc20, erc20 := cfg.USDTTRC20Address, cfg.USDTERC20Address
		tronHash := hashN(7)
		var chains struct {
			List     []wallet.Protocol
			MinDep   int64
			Currency string
			Service  bool
		}
		ok(t, s, tok.Token, "/user/getChainTypes", `{}`, &chains)
		if len(chains.List) != 2 || chains.List[0] != (wallet.Protocol{Protocol: "TRC20", Name: "USDT-TRC20", Network: "TRON", Address: trc20, MinDep: 1000, MaxDep: 10_000_000}) ||
			chains.List[1].Address != erc20 || chains.MinDep != 1000 || chains.Currency != "USDT" || !chains.Service {
			t.Fatalf("chain types %+v (recharge through customer service is on by default)", chains)
		}
		s.Wallet.Config.RechargeViaService = false
		s.Wallet.Config.USDTTRC20Address, s.Wallet.Config.USDTERC20Address = "", ""
		r := post(t, s, tok.Token, "/user/getChainTypes", `{}`)
		if !strings.Contains(string(r.Data), `"list":[]`) || !strings.Contains(string(r.Data), `"service":false`) {
			t.Fatalf("no protocols and no service: %s", r.Data)
		}
		s.Wallet.Config = cfg

		order := func(amount int64, protocol, hash string) string {
			return fmt.Sprintf(`{"amount":%d,"protocol":%q,"txHash":%q}`, amount, protocol, hash)
		}
		wantMessage(t, fails(t, s, tok.Token, "/user/rechargeOrder", order(999, "TRC20", tronHash), apierr.CodeBelowMinDeposit),
			"The minimum recharge is 10.00 USDT")
		fails(t, s, tok.Token, "/user/rechargeOrder", `{"amount":1000,"protocol":1}`, apierr.CodeBadRequest)
		var o1, again orderJSON
		ok(t, s, tok.Token, "/user/rechargeOrder", order(2500, "trc20", strings.ToUpper(tronHash)), &o1)
		if o1.ID == "" || o1.OrderNo != "R"+o1.ID || o1.Status != 0 || o1.Amount != 2500 || o1.Protocol != "TRC20" || o1.TxHash != tronHash ||
			o1.Address != trc20 || o1.CreatedAt == 0 || o1.ReviewTime != 0 || o1.BankName != "" || o1.UserID != "" {
			t.Fatalf("order %+v", o1)
		}
		ok(t, s, tok.Token, "/user/rechargeOrder", order(2500, "TRC20", tronHash), &again)
		if again != o1 {
			t.Fatalf("a resubmitted order answers %+v, not %+v", again, o1)
		}
		fails(t, s, mallory.Token, "/user/rechargeOrder", order(2500, "TRC20", tronHash), apierr.CodeTxHashUsed)
		var o2 orderJSON
		ok(t, s, tok.Token, "/user/rechargeOrder", order(1000, "ERC20", "0x"+strings.Repeat("ab", 32)), &o2)

		// The review queue shows each order with its user.
		var queue struct {
			List     []orderJSON
			Total    int
			Page     int
			PageSize int
		}
		ok(t, s, opTok.Token, "/admin/recharge/list", `{"status":0,"pageSize":1}`, &queue)
		if queue.Total != 2 || len(queue.List) != 1 || queue.Page != 1 || queue.PageSize != 1 || queue.List[0].ID != o1.ID ||
			queue.List[0].Account != "jade" || queue.List[0].UserID != u.IDString() {
			t.Fatalf("queue %+v", queue)
		}
		fails(t, s, opTok.Token, "/admin/recharge/list", `{"status":3}`, apierr.CodeInvalid)
		fails(t, s, opTok.Token, "/admin/recharge/list", fmt.Sprintf(`{"keyword":%q}`, strings.Repeat("k", 65)), apierr.CodeInvalid)

		// The confirmation's balance push reaches the user's subject.
		pushes := make(chan bus.Notification, 10)
		sub, _ := s.Bus.Subscribe(bus.UserSubject(u.IDString()), func(_ string, data []byte) {
			var n bus.Notification
			json.Unmarshal(data, &n)
			pushes <- n
		})
		defer sub.Unsubscribe()
		clk.Advance(time.Minute)
		var confirmed orderJSON
		ok(t, s, opTok.Token, "/admin/recharge/confirm", fmt.Sprintf(`{"orderId":%s}`, o1.ID), &confirmed)
		if confirmed.ID != o1.ID || confirmed.Status != 1 || confirmed.ReviewTime != clk.Now().UnixMilli() {
			t.Fatalf("confirmed %+v", confirmed)
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
		wantMessage(t, fails(t, s, opTok.Token, "/admin/recharge/fail", fmt.Sprintf(`{"orderId":%q,"remark":"late"}`, o1.ID), apierr.CodeOrderProcessed),
			"This order has already been processed")
		fails(t, s, opTok.Token, "/admin/recharge/confirm", `{"orderId":"424242"}`, apierr.CodeNotFound)
		fails(t, s, opTok.Token, "/admin/recharge/fail", `{"orderId":-5}`, apierr.CodeInvalid)
		fails(t, s, opTok.Token, "/admin/recharge/fail", `{}`, apierr.CodeRequired)
		var failed orderJSON
		ok(t, s, opTok.Token, "/admin/recharge/fail", fmt.Sprintf(`{"orderId":%q,"remark":"no such transaction"}`, o2.ID), &failed)
		if failed.Status != 2 || failed.Remark != "no such transaction" || failed.Protocol != "ERC20" {
			t.Fatalf("failed order %+v", failed)
		}

		var amt amountReply
		ok(t, s, tok.Token, "/user/getUserAmount", `{}`, &amt)
		if amt != (amountReply{UserID: u.IDString(), Amount: 2500, IsRecharge: true, ExchangeMin: 1000, ExchangeMax: 500_000}) {
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
		if recs.Total != 2 || recs.List[0].OrderNo != o2.OrderNo || recs.List[0].State != 2 || recs.List[1].State != 1 ||
			recs.List[1].Amount != 2500 || recs.List[1].Type != "recharge" || recs.List[1].ID == "" || recs.List[1].Time == 0 {
			t.Fatalf("records %+v", recs)
		}
		ok(t, s, tok.Token, "/user/userCoinRecode", `{"tab":"expenditure"}`, &recs)
		if recs.Total != 0 {
			t.Fatalf("expenditure %+v", recs)
		}
		fails(t, s, tok.Token, "/user/userCoinRecode", `{"tab":"both"}`, apierr.CodeInvalid)
	})
}

func TestExchangeRoutes(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, clk := walletServer(t, db)
		u, tok := newUser(t, s, "kira")
		_, mallory := newUser(t, s, "mallory")
		_, opTok := newOperator(t, s, "oona")
		ex := func(amount int64, card, pw string) string {
			return fmt.Sprintf(`{"amount":%d,"bankCardId":%q,"fundPassword":%q}`, amount, card, pw)
		}
		wantMessage(t, fails(t, s, tok.Token, "/user/exchange", ex(2000, "1", "123456"), apierr.CodeNoBankCard), "You have not bound a bank card")
		setFundPassword(t, s, tok.Token)
		card := bindCard(t, s, tok.Token, "4000123412341234")
		setFundPassword(t, s, mallory.Token)
		malloryCard := bindCard(t, s, mallory.Token, "5000123412341234")
		recharge(t, s, tok.Token, opTok.Token, 10_000, hashN(1))
		recharge(t, s, mallory.Token, opTok.Token, 10_000, hashN(2))
		wantMessage(t, fails(t, s, tok.Token, "/user/exchange", ex(10_001, card, "123456"), apierr.CodeInsufficientBalance), "Insufficient balance")
		wantMessage(t, fails(t, s, tok.Token, "/user/exchange", ex(999, card, "123456"), apierr.CodeExchangeBelowMin), "The minimum exchange is 10.00")
		fails(t, s, tok.Token, "/user/exchange", `{"amount":2000,"bankCardId":true}`, apierr.CodeInvalid)

		// The Idempotency-Key header names the request: a retry answers
		// the first order, the key with another request is refused.
		clk.Advance(20 * time.Minute)
		var e1, e1again orderJSON
		r := post(t, s, tok.Token, "/user/exchange", ex(3000, card, "123456"), "Idempotency-Key", "req-1")
		json.Unmarshal(r.Data, &e1)
		if r.Code != 0 || e1.OrderNo != "E"+e1.ID || e1.Status != 0 || e1.Amount != 3000 || e1.CardNumber != "************1234" ||
			e1.BankName != "BBVA" || e1.HolderName != "Ana Pérez" || e1.CreatedAt != clk.Now().UnixMilli() || e1.Protocol != "" {
			t.Fatalf("exchange %+v %+v", r, e1)
		}
		r = post(t, s, tok.Token, "/user/exchange", ex(3000, card, "123456"), "Idempotency-Key", "req-1")
		json.Unmarshal(r.Data, &e1again)
		if r.Code != 0 || e1again != e1 {
			t.Fatalf("a retried exchange answers %+v", e1again)
		}
		fails(t, s, tok.Token, "/user/exchange", ex(3001, card, "123456"), apierr.CodeRequestKeyReused, "Idempotency-Key", "req-1")
		wantMessage(t, fails(t, s, tok.Token, "/user/exchange", ex(3000, card, "123456"), apierr.CodeInvalid, "Idempotency-Key", "bad key!"),
			"Idempotency-Key is invalid")
		if r := post(t, s, mallory.Token, "/user/exchange", ex(3000, malloryCard, "123456"), "Idempotency-Key", "req-1"); r.Code != 0 {
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

		// Operators see the full number and the user; they pay e1 and
		// refund e2 (with a reason).
		var queue struct {
			List  []orderJSON
			Total int
		}
		ok(t, s, opTok.Token, "/admin/exchange/list", `{"keyword":"kira"}`, &queue)
		if queue.Total != 2 || queue.List[0].CardNumber != "4000123412341234" || queue.List[0].Account != "kira" || queue.List[0].UserID != u.IDString() {
			t.Fatalf("exchange queue %+v", queue)
		}
		fails(t, s, mallory.Token, "/admin/exchange/complete", fmt.Sprintf(`{"orderId":%q}`, e1.ID), apierr.CodeOperatorOnly)
		var done, refunded orderJSON
		ok(t, s, opTok.Token, "/admin/exchange/complete", fmt.Sprintf(`{"orderId":%q}`, e1.ID), &done)
		if done.Status != 1 || done.CardNumber != "4000123412341234" || done.UserID != u.IDString() || done.Account != "" {
			t.Fatalf("completed %+v", done)
		}
		fails(t, s, opTok.Token, "/admin/exchange/fail", fmt.Sprintf(`{"orderId":%q}`, e2.ID), apierr.CodeRequired)
		fails(t, s, opTok.Token, "/admin/exchange/fail", fmt.Sprintf(`{"orderId":%q,"remark":%q}`, e2.ID, strings.Repeat("r", 201)), apierr.CodeInvalid)
		ok(t, s, opTok.Token, "/admin/exchange/fail", fmt.Sprintf(`{"orderId":%q,"remark":"card closed"}`, e2.ID), &refunded)
		if refunded.Status != 2 || refunded.Remark != "card closed" || refunded.ReviewTime != clk.Now().UnixMilli() {
			t.Fatalf("refunded %+v", refunded)
		}
		if got, _ := storage.AccountBalance(context.Background(), db, storage.Wallet(u.ID)); got != 7000 {
			t.Fatalf("balance %d, want 7000", got)
		}

		// Records: the tabs, the days and the paging.
		var recs struct {
			List     []orderJSON
			Total    int
			Page     int
			PageSize int
		}
		ok(t, s, tok.Token, "/user/userExchangeRecode", `{"tab":"success"}`, &recs)
		if recs.Total != 1 || recs.List[0].ID != e1.ID || recs.List[0].CardNumber != "************1234" {
			t.Fatalf("successful %+v", recs)
		}
		ok(t, s, tok.Token, "/user/userExchangeRecode", `{"tab":"failed","days":0}`, &recs)
		if recs.Total != 1 || recs.List[0].ID != e2.ID {
			t.Fatalf("failed today %+v", recs)
		}
		ok(t, s, tok.Token, "/user/userExchangeRecode", `{"tab":"review"}`, &recs)
		if recs.Total != 0 {
			t.Fatalf("under review %+v", recs)
		}
		ok(t, s, tok.Token, "/user/userExchangeRecode", `{"page":2,"pageSize":1}`, &recs)
		if recs.Total != 2 || len(recs.List) != 1 || recs.List[0].ID != e1.ID || recs.Page != 2 || recs.PageSize != 1 {
			t.Fatalf("page 2 %+v", recs)
		}
		for _, body := range []string{`{"tab":"pending"}`, `{"days":3}`, `{"pageSize":101}`, `{"page":-1}`} {
			fails(t, s, tok.Token, "/user/userExchangeRecode", body, apierr.CodeInvalid)
		}
		var points struct {
			List  []pointsRecord
			Total int
		}
		ok(t, s, tok.Token, "/user/userCoinRecode", `{"tab":"expenditure"}`, &points)
		if points.Total != 2 || points.List[0].Type != "exchange" || points.List[0].Amount != -2000 || points.List[0].State != 2 {
			t.Fatalf("expenditure %+v", points)
		}
		// Days: 8 days later nothing is from today or the last 7 days;
		// the 15-day window holds the recharge, e1, e2 and e2's refund.
		clk.Advance(8 * 24 * time.Hour)
		tok = signIn(t, s, u.ID)
		for days, want := range map[int]int{0: 0, 7: 0, 15: 4, 30: 4} {
			ok(t, s, tok.Token, "/user/userCoinRecode", fmt.Sprintf(`{"days":%d}`, days), &points)
			if points.Total != want {
				t.Fatalf("%d days: %d lines, want %d: %+v", days, points.Total, want, points)
			}
		}
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

// TestOperatorRoutesNeedOperators keeps every wallet admin route closed to users.
func TestOperatorRoutesNeedOperators(t *testing.T) {
	t.Parallel()
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
