package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"kj/internal/apierr"
	"kj/storage"
	"kj/storage/storagetest"
)

// chatBetween stores a 1:1 conversation of a and b with one message from
// each (text as the content), as the chat writer would.
func chatBetween(t *testing.T, db storage.DB, conv string, a, b storage.User, fromA, fromB string) {
	t.Helper()
	ctx := context.Background()
	if err := storage.EnsureChatUserConversations(ctx, db,
		storage.ChatUserConvRow{UserID: a.ID, ConversationID: conv, PeerID: b.ID, CreatedAt: 1},
		storage.ChatUserConvRow{UserID: b.ID, ConversationID: conv, PeerID: a.ID, CreatedAt: 1}); err != nil {
		t.Fatal(err)
	}
	err := db.Tx(ctx, func(tx storage.Tx) error {
		if _, err := storage.LockChatConversation(ctx, tx, storage.ChatConversation{ID: conv, SessionType: 1, CreatedAt: 1}); err != nil {
			return err
		}
		return storage.InsertChatMessages(ctx, tx, []storage.ChatMessage{
			{ConversationID: conv, Seq: 1, ServerMsgID: conv + "s1", ClientMsgID: conv + "c1", SendID: a.ID, RecvID: b.ID, SessionType: 1, MsgFrom: 100,
				ContentType: 101, Content: fmt.Sprintf(`{"content":%q}`, fromA), SenderNickname: a.Nickname, CreateTime: 2, SendTime: 2},
			{ConversationID: conv, Seq: 2, ServerMsgID: conv + "s2", ClientMsgID: conv + "c2", SendID: b.ID, RecvID: a.ID, SessionType: 1, MsgFrom: 100,
				ContentType: 101, Content: fmt.Sprintf(`{"content":%q}`, fromB), SenderNickname: b.Nickname, CreateTime: 3, SendTime: 3},
		})
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestExportHoldsTheUsersOwnDataOnly: the export asks for the password
// again, and holds the caller's profile, cards (masked), the messages they
// sent (not those they received), wallet postings, orders and bets, and
// nothing of the other player they chatted with.
func TestExportHoldsTheUsersOwnDataOnly(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, _ := walletServer(t, db)
		ctx := context.Background()
		_, opTok := newOperator(t, s, "exp_op")
		ann, annTok := newUser(t, s, "exp_ann")
		bob, bobTok := newUser(t, s, "exp_bob")
		for _, tok := range []string{annTok.Token, bobTok.Token} {
			setFundPassword(t, s, tok)
		}
		bindCard(t, s, annTok.Token, "4000123412341234")
		bindCard(t, s, bobTok.Token, "4000999999995678")
		recharge(t, s, annTok.Token, opTok.Token, 5000, hashN(1))
		recharge(t, s, bobTok.Token, opTok.Token, 7000, hashN(2))
		chatBetween(t, db, "si_exp", ann, bob, "hello from ann", "hello from bob")
		if err := storage.InsertRoundBets(ctx, db, []storage.RoundBet{
			{ID: storage.NewID(), BetID: "ann-bet", UserID: ann.ID, RoundID: 1, WindowID: 1, Issue: "1", Content: "BIG", Amount: 100, PlacedAt: 5},
			{ID: storage.NewID(), BetID: "bob-bet", UserID: bob.ID, RoundID: 1, WindowID: 1, Issue: "1", Content: "SMALL", Amount: 100, PlacedAt: 5},
		}); err != nil {
			t.Fatal(err)
		}

		r := fails(t, s, annTok.Token, "/user/data/export", `{"password":"wrong1"}`, apierr.CodePasswordWrong)
		if len(r.Data) > 0 && string(r.Data) != "null" {
			t.Errorf("a wrong password exported %s", r.Data)
		}
		fails(t, s, annTok.Token, "/user/data/export", `{}`, apierr.CodeRequired)

		var got exportReply
		ok(t, s, annTok.Token, "/user/data/export", `{"password":"abc123"}`, &got)
		e := got.Data
		if !strings.HasSuffix(got.FileName, ".json") || !strings.Contains(got.FileName, ann.IDString()) {
			t.Errorf("file name %q", got.FileName)
		}
		if e.Profile.UserID != ann.IDString() || e.Profile.Account != "exp_ann" {
			t.Errorf("profile %+v", e.Profile)
		}
		if len(e.BankCards) != 1 || !strings.HasSuffix(e.BankCards[0].CardNumber, "1234") || strings.Contains(e.BankCards[0].CardNumber, "40001234") {
			t.Errorf("cards %+v, want ann's one card, masked", e.BankCards)
		}
		if len(e.Messages) != 1 || !strings.Contains(e.Messages[0].Content, "hello from ann") || e.Messages[0].RecvID != bob.IDString() {
			t.Errorf("messages %+v, want the one ann sent", e.Messages)
		}
		if len(e.Wallet.RechargeOrders) != 1 || e.Wallet.RechargeOrders[0].AmountCents != 5000 || e.Wallet.BalanceCents != 5000 {
			t.Errorf("wallet %+v", e.Wallet)
		}
		if len(e.Wallet.Entries) != 1 || e.Wallet.Entries[0].AmountCents != 5000 || e.Wallet.Entries[0].Kind != storage.KindRecharge {
			t.Errorf("entries %+v", e.Wallet.Entries)
		}
		if len(e.Bets) != 1 || e.Bets[0].BetID != "ann-bet" {
			t.Errorf("bets %+v", e.Bets)
		}
		raw, _ := json.Marshal(got)
		for _, other := range []string{"exp_bob", "hello from bob", "5678", "bob-bet", hashN(2)} {
			if strings.Contains(string(raw), other) {
				t.Errorf("ann's export holds %q of bob's", other)
			}
		}
	})
}

// TestDeleteAccount plays every answer to the balance question on both
// stores: what stops a deletion, forfeiting (the balance and an exchange
// under review go to the house) and exchanging (the balance becomes an
// exchange an operator can still pay). After each: the profile, phone,
// cards and secrets are gone, sign-in and the old token fail, the ledger
// rows stay under the id, the ledger check holds, the messages sent read
// "deleted account" in the other's history, and the audit log shows the
// request in words in every locale.
func TestDeleteAccount(t *testing.T) {
	t.Parallel()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, clk := walletServer(t, db)
		ctx := context.Background()
		s.Config.DataDir = t.TempDir()
		_, opTok := newOperator(t, s, "del_op")

		// prepare makes a player with 200.00 points, a card, a phone, and
		// an exchange of 10.00 under review; it returns the card's id.
		prepare := func(account string) (storage.User, string, string) {
			u, tok := newUser(t, s, account)
			setFundPassword(t, s, tok.Token)
			card := bindCard(t, s, tok.Token, "4000123412344321")
			recharge(t, s, tok.Token, opTok.Token, 21000, hashN(int(u.ID%1_000_000)))
			var o orderJSON
			ok(t, s, tok.Token, "/user/exchange", fmt.Sprintf(`{"amount":1000,"bankCardId":%q,"fundPassword":"123456"}`, card), &o)
			if err := storage.SetUserPhone(ctx, db, u.ID, "34612345678", true, 1); err != nil {
				t.Fatal(err)
			}
			return u, tok.Token, card
		}
		peer, _ := newUser(t, s, "del_peer")

		// gone checks what a deletion leaves of u.
		gone := func(u storage.User, tok string) {
			t.Helper()
			r := login(t, s, u.Account, "abc123", 5)
			if r.Code != apierr.CodeLoginCredential {
				t.Errorf("sign-in after deletion: %d %s", r.Code, r.Message)
			}
			if r := post(t, s, tok, "/user/mine", `{}`); r.Code == 0 {
				t.Errorf("the deleted account's token still works")
			}
			row, err := storage.UserByID(ctx, db, u.ID)
			if err != nil {
				t.Fatal(err)
			}
			if row.Phone != "" || row.Avatar != "" || row.PasswordHash != "" || row.FundPasswordHash != "" || row.Nickname != storage.DeletedNickname || row.Account == u.Account {
				t.Errorf("tombstone %+v", row)
			}
			if n, _ := storage.CountBankCards(ctx, db, u.ID); n != 0 {
				t.Errorf("%d cards left", n)
			}
			entries, err := storage.WalletEntriesOf(ctx, db, u.ID)
			if err != nil || len(entries) < 2 {
				t.Errorf("ledger rows of the id: %d, %v", len(entries), err)
			}
			storagetest.CheckLedger(t, db)
			es, err := storage.ListAudit(ctx, db, storage.AuditFilter{Action: "user.delete"}, 10, 0)
			if err != nil {
				t.Fatal(err)
			}
			var row0 *storage.AuditEntry
			for i := range es {
				if es[i].Target == u.IDString() {
					row0 = &es[i]
				}
			}
			if row0 == nil {
				t.Fatalf("no audit row for %d", u.ID)
			}
			auditRowShape(t, *row0, u.ID, "192.0.2.1", u.IDString(), false, true)
			if strings.Contains(row0.Detail, u.Account) || strings.Contains(row0.Detail, "34612345678") {
				t.Errorf("the audit row names the person: %s", row0.Detail)
			}
			for _, l := range apierr.Langs {
				rd := readAudit(l, *row0)
				if rd.Text == "" || strings.ContainsAny(rd.Text, "{}") || !strings.Contains(rd.Text, u.IDString()) || rd.UserID != u.IDString() {
					t.Errorf("%s reads %+v", l, rd)
				}
			}
		}

		// What stops a deletion changes nothing.
		ann, annTok, annCard := prepare("del_ann")
		chatBetween(t, db, "si_del_ann", ann, peer, "ann says hi", "peer says hi")
		fails(t, s, annTok, "/user/account/delete", `{"password":"nope12","balance":"forfeit"}`, apierr.CodePasswordWrong)
		r := fails(t, s, annTok, "/user/account/delete", `{"password":"abc123"}`, apierr.CodeDeleteChoice)
		wantMessage(t, r, "Your account still holds 210.00 points: choose to exchange them to a bank card or to give them up before deleting it")
		fails(t, s, annTok, "/user/account/delete", `{"password":"abc123","balance":"keep"}`, apierr.CodeDeleteChoice)
		if err := storage.InsertRoundBets(ctx, db, []storage.RoundBet{{ID: storage.NewID(), BetID: "open-bet", UserID: ann.ID, RoundID: 1, WindowID: 1,
			Issue: "1", Content: "BIG", Amount: 100, PlacedAt: 5}}); err != nil {
			t.Fatal(err)
		}
		fails(t, s, annTok, "/user/account/delete", `{"password":"abc123","balance":"forfeit"}`, apierr.CodeDeleteNotReady)
		if _, err := db.Exec(ctx, `UPDATE round_bets SET state = 2 WHERE bet_id = 'open-bet'`); err != nil {
			t.Fatal(err)
		}
		var facts deletionFacts
		ok(t, s, annTok, "/user/account/deletion", `{}`, &facts)
		if facts.Balance != 20000 || facts.PendingExchanges != 1 || facts.PendingAmount != 1000 || len(facts.Cards) != 1 || facts.Cards[0].ID != annCard {
			t.Fatalf("deletion facts %+v", facts)
		}
		if u, _ := storage.UserByID(ctx, db, ann.ID); u.Account != "del_ann" {
			t.Fatalf("a refused deletion changed the account: %+v", u)
		}

		// Forfeit: the balance and the exchange under review go to the house.
		house := func() int64 {
			var b int64
			if err := db.QueryRow(ctx, `SELECT balance FROM ledger_accounts WHERE id = 2`).Scan(&b); err != nil {
				t.Fatal(err)
			}
			return b
		}
		h0 := house()
		r = post(t, s, annTok, "/user/account/delete", `{"password":"abc123","balance":"forfeit"}`, "X-Forwarded-For", "192.0.2.1")
		if r.Code != 0 {
			t.Fatalf("delete: %d %s", r.Code, r.Message)
		}
		if got := house() - h0; got != 21000 {
			t.Errorf("house gained %d, want the balance and the pending exchange (21000)", got)
		}
		orders, _ := storage.AllExchangeOrdersOf(ctx, db, ann.ID)
		if len(orders) != 1 || orders[0].Status != storage.OrderFailed {
			t.Errorf("pending exchange after forfeit: %+v", orders)
		}
		sum, _ := storage.WalletSummaryOf(ctx, db, ann.ID)
		if sum.Balance != 0 || sum.Frozen != 0 {
			t.Errorf("wallet after forfeit %+v", sum)
		}
		gone(ann, annTok)
		m, _ := storage.ChatMessageBySeq(ctx, db, "si_del_ann", 1)
		if m.SenderNickname != storage.DeletedNickname || !strings.Contains(m.Content, "ann says hi") {
			t.Errorf("ann's message in the peer's chat %+v", m)
		}
		if m, _ := storage.ChatMessageBySeq(ctx, db, "si_del_ann", 2); m.SenderNickname != "del_peer" {
			t.Errorf("the peer's own message renamed: %+v", m)
		}

		// Exchange: the balance becomes an exchange to the card, which an
		// operator pays after the account is gone, like the one pending.
		cy, cyTok, cyCard := prepare("del_cy")
		fails(t, s, cyTok, "/user/account/delete", `{"password":"abc123","balance":"exchange","bankCardId":"`+cyCard+`","fundPassword":"000000"}`, apierr.CodeFundPasswordWrong)
		r = post(t, s, cyTok, "/user/account/delete", `{"password":"abc123","balance":"exchange","bankCardId":"`+cyCard+`","fundPassword":"123456"}`, "X-Forwarded-For", "192.0.2.1")
		if r.Code != 0 {
			t.Fatalf("delete: %d %s", r.Code, r.Message)
		}
		orders, _ = storage.AllExchangeOrdersOf(ctx, db, cy.ID)
		if len(orders) != 2 || orders[0].Status != storage.OrderUnderReview || orders[1].Status != storage.OrderUnderReview || orders[1].Amount != 20000 ||
			orders[1].CardNumber != "4000123412344321" {
			t.Fatalf("orders after an exchange deletion %+v", orders)
		}
		gone(cy, cyTok)
		for _, o := range orders {
			ok(t, s, opTok.Token, "/admin/exchange/complete", fmt.Sprintf(`{"orderId":"%d","remark":"paid"}`, o.ID), nil)
		}
		storagetest.CheckLedger(t, db)

		// An account without money needs no answer; the retention sweep
		// then cuts the cards of the settled orders of cy.
		dee, deeTok := newUser(t, s, "del_dee")
		ok(t, s, deeTok.Token, "/user/account/delete", `{"password":"abc123"}`, nil)
		if deleted, _ := storage.UserDeleted(ctx, db, dee.ID); !deleted {
			t.Error("dee is not deleted")
		}
		if n, err := s.SweepDeletedAccounts(ctx); err != nil || n != 0 {
			t.Errorf("sweep before retention: %d, %v", n, err)
		}
		clk.Advance(s.Config.DeletedAccountRetention)
		if n, err := s.SweepDeletedAccounts(ctx); err != nil || n != 3 {
			t.Errorf("sweep after retention: %d, %v", n, err)
		}
		orders, _ = storage.AllExchangeOrdersOf(ctx, db, cy.ID)
		for _, o := range orders {
			if o.CardNumber != "4321" || o.HolderName != "" {
				t.Errorf("order after the sweep %+v", o)
			}
		}
		storagetest.CheckLedger(t, db)
	})
}
