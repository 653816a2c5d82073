package httpapi

// Leaving with one's data: a player downloads everything kj holds about
// them (/user/data/export), sees what deleting their account would do with
// their money (/user/account/deletion), and deletes it
// (/user/account/delete). Both the export and the deletion ask for the
// login password again, so a token left on a shared phone can neither
// read the data out nor throw the account away; wrong passwords count
// with those of /user/changePwd. What a deletion erases, what it keeps
// (money records outlive the account) and for how long is
// docs/PRIVACY.md.

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"kj/actors/ledger"
	"kj/auth"
	"kj/internal/apierr"
	"kj/storage"
	"kj/wallet"
)

func init() {
	registerArea(func(s *Server) {
		s.Post("/user/data/export", User, s.exportData)
		s.Post("/user/account/deletion", User, s.accountDeletion)
		s.Post("/user/account/delete", User, s.deleteAccount)
	})
}

// The answers to the balance question of a deletion.
const (
	balanceExchange = "exchange" // the balance becomes an exchange to one of the user's cards; exchanges under review are paid
	balanceForfeit  = "forfeit"  // the balance and the exchanges under review go to the house
)

// checkPasswordAgain checks the login password asked again before an
// export or a deletion, counting wrong ones with /user/changePwd's (5 in
// 10 minutes lock both for 10 minutes).
func (s *Server) checkPasswordAgain(c *Call, password string) error {
	if password == "" {
		return apierr.Required("password")
	}
	failKey := "acct:pwd:fail:" + c.User.IDString()
	n, err := s.Counters.Incr(c.Ctx, failKey, 1, LoginLockTime)
	if err != nil {
		return err
	}
	if n > LoginMaxFailures {
		return apierr.Fail(apierr.CodePasswordLocked, "password.locked")
	}
	if !auth.CheckPassword(c.User.PasswordHash, password) {
		if n >= LoginMaxFailures {
			return apierr.Fail(apierr.CodePasswordLocked, "password.locked")
		}
		return apierr.Fail(apierr.CodePasswordWrong, "password.wrong")
	}
	_ = s.Counters.Delete(c.Ctx, failKey)
	return nil
}

type passwordRequest struct {
	Password string `json:"password"`
}

// accountExport is the file a player downloads: everything kj holds that
// is theirs, and nothing of anyone else (a message they received is the
// sender's, and stays out). Amounts are integer cents; times Unix ms.
type accountExport struct {
	Format     string            `json:"format"` // "kj-account-export/1"
	ExportedAt int64             `json:"exportedAt"`
	Profile    exportProfile     `json:"profile"`
	BankCards  []exportCard      `json:"bankCards"`
	Messages   []exportMessage   `json:"messagesSent"`
	Wallet     exportWallet      `json:"wallet"`
	Bets       []exportBet       `json:"bets"`
	Retention  exportRetention   `json:"afterDeletion"`
	Notes      map[string]string `json:"notes"`
}

type exportProfile struct {
	UserID       string `json:"userId"`
	Account      string `json:"account"`
	Nickname     string `json:"nickname"`
	Avatar       string `json:"avatar"`
	Phone        string `json:"phone"`
	InviteCode   string `json:"inviteCode"`
	SuperiorID   string `json:"superiorId"`
	IsActivation int    `json:"isActivation"`
	CreatedAt    int64  `json:"createdAt"`
	LastLoginAt  int64  `json:"lastLoginAt"`
	LastLoginIP  string `json:"lastLoginIp"`
}

type exportCard struct {
	ID         string `json:"id"`
	BankName   string `json:"bankName"`
	HolderName string `json:"holderName"`
	CardNumber string `json:"cardNumber"` // masked, as the app shows it
	CreatedAt  int64  `json:"createdAt"`
}

type exportMessage struct {
	ConversationID string `json:"conversationId"`
	Seq            int64  `json:"seq"`
	ClientMsgID    string `json:"clientMsgId"`
	RecvID         string `json:"recvId,omitempty"`
	GroupID        string `json:"groupId,omitempty"`
	ContentType    int    `json:"contentType"`
	Content        string `json:"content"` // the message's element as the chat protocol stores it (JSON)
	SendTime       int64  `json:"sendTime"`
}

type exportWallet struct {
	BalanceCents   int64            `json:"balanceCents"`
	Entries        []exportEntry    `json:"entries"`
	RechargeOrders []exportRecharge `json:"rechargeOrders"`
	ExchangeOrders []exportExchange `json:"exchangeOrders"`
}

type exportEntry struct {
	TransferID  string `json:"transferId"`
	Kind        string `json:"kind"`
	AmountCents int64  `json:"amountCents"` // signed: credit > 0, debit < 0
	Ref         string `json:"ref"`
	At          int64  `json:"at"`
}

type exportRecharge struct {
	OrderNo     string `json:"orderNo"`
	AmountCents int64  `json:"amountCents"`
	Protocol    string `json:"protocol"`
	Address     string `json:"address"`
	TxHash      string `json:"txHash"`
	Status      int    `json:"status"` // 0 under review, 1 completed, 2 failed
	Remark      string `json:"remark"`
	CreatedAt   int64  `json:"createdAt"`
	ReviewedAt  int64  `json:"reviewedAt"`
}

type exportExchange struct {
	OrderNo     string `json:"orderNo"`
	AmountCents int64  `json:"amountCents"`
	BankName    string `json:"bankName"`
	CardNumber  string `json:"cardNumber"` // masked
	Status      int    `json:"status"`
	Remark      string `json:"remark"`
	CreatedAt   int64  `json:"createdAt"`
	ReviewedAt  int64  `json:"reviewedAt"`
}

type exportBet struct {
	BetID       string `json:"betId"`
	Issue       string `json:"issue"`
	WindowID    int64  `json:"windowId"`
	Content     string `json:"content"`
	AmountCents int64  `json:"amountCents"`
	State       int    `json:"state"`       // 0 open, 1 won, 2 lost
	PayoutCents int64  `json:"payoutCents"` // stake included
	PlacedAt    int64  `json:"placedAt"`
	SettledAt   int64  `json:"settledAt"`
}

// exportRetention says in the file itself what a deletion would keep.
type exportRetention struct {
	RetentionDays int `json:"retentionDays"`
}

type exportReply struct {
	FileName string        `json:"fileName"`
	Data     accountExport `json:"data"`
}

// exportData answers the user's own data as one JSON document the app
// saves as a file.
func (s *Server) exportData(c *Call) (any, error) {
	var req passwordRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if err := s.checkPasswordAgain(c, req.Password); err != nil {
		return nil, err
	}
	e, err := s.collectExport(c.Ctx, c.User.ID)
	if err != nil {
		return nil, err
	}
	now := s.Clock.Now()
	s.Log.Info("data exported", "userId", c.User.ID, "messages", len(e.Messages), "entries", len(e.Wallet.Entries), "bets", len(e.Bets))
	return exportReply{FileName: "kj-data-" + c.User.IDString() + "-" + now.UTC().Format("20060102-150405") + ".json", Data: e}, nil
}

// collectExport reads every part of userID's data.
func (s *Server) collectExport(ctx context.Context, userID int64) (accountExport, error) {
	var e accountExport
	u, err := storage.UserSummaryByID(ctx, s.DB, userID)
	if err != nil {
		return e, err
	}
	e = accountExport{Format: "kj-account-export/1", ExportedAt: s.Clock.Now().UnixMilli(),
		Profile: exportProfile{UserID: u.IDString(), Account: u.Account, Nickname: u.Nickname, Avatar: u.Avatar, Phone: u.Phone,
			InviteCode: u.InviteCode, IsActivation: u.IsActivation, CreatedAt: u.CreatedAt, LastLoginAt: u.LastLoginAt, LastLoginIP: u.LastLoginIP},
		BankCards: []exportCard{}, Messages: []exportMessage{}, Bets: []exportBet{},
		Wallet:    exportWallet{Entries: []exportEntry{}, RechargeOrders: []exportRecharge{}, ExchangeOrders: []exportExchange{}},
		Retention: exportRetention{RetentionDays: int(s.Config.DeletedAccountRetention / (24 * time.Hour))},
		Notes: map[string]string{
			"amounts": "integer cents of points; one point is 100 cents",
			"times":   "Unix milliseconds",
			"cards":   "card numbers are masked, as the app shows them",
		}}
	if u.SuperiorID != 0 {
		e.Profile.SuperiorID = storage.FormatID(u.SuperiorID)
	}
	cards, err := storage.BankCardsOf(ctx, s.DB, userID)
	if err != nil {
		return e, err
	}
	for _, k := range cards {
		e.BankCards = append(e.BankCards, exportCard{ID: storage.FormatID(k.ID), BankName: k.BankName, HolderName: k.HolderName,
			CardNumber: wallet.MaskCard(k.CardNumber), CreatedAt: k.CreatedAt})
	}
	msgs, err := storage.MessagesSentBy(ctx, s.DB, userID)
	if err != nil {
		return e, err
	}
	for _, m := range msgs {
		x := exportMessage{ConversationID: m.ConversationID, Seq: m.Seq, ClientMsgID: m.ClientMsgID, ContentType: m.ContentType,
			Content: m.Content, SendTime: m.SendTime}
		if m.RecvID != 0 {
			x.RecvID = storage.FormatID(m.RecvID)
		}
		if m.GroupID != 0 {
			x.GroupID = storage.FormatID(m.GroupID)
		}
		e.Messages = append(e.Messages, x)
	}
	sum, err := storage.WalletSummaryOf(ctx, s.DB, userID)
	if err != nil {
		return e, err
	}
	e.Wallet.BalanceCents = sum.Balance
	entries, err := storage.WalletEntriesOf(ctx, s.DB, userID)
	if err != nil {
		return e, err
	}
	for _, w := range entries {
		e.Wallet.Entries = append(e.Wallet.Entries, exportEntry{TransferID: storage.FormatID(w.TransferID), Kind: w.Kind,
			AmountCents: w.Amount, Ref: w.Ref, At: w.At})
	}
	recharges, err := storage.AllRechargeOrdersOf(ctx, s.DB, userID)
	if err != nil {
		return e, err
	}
	for _, o := range recharges {
		e.Wallet.RechargeOrders = append(e.Wallet.RechargeOrders, exportRecharge{OrderNo: o.OrderNo, AmountCents: o.Amount,
			Protocol: o.Protocol, Address: o.Address, TxHash: o.TxHash, Status: o.Status, Remark: o.Remark, CreatedAt: o.CreatedAt, ReviewedAt: o.ReviewedAt})
	}
	exchanges, err := storage.AllExchangeOrdersOf(ctx, s.DB, userID)
	if err != nil {
		return e, err
	}
	for _, o := range exchanges {
		e.Wallet.ExchangeOrders = append(e.Wallet.ExchangeOrders, exportExchange{OrderNo: o.OrderNo, AmountCents: o.Amount,
			BankName: o.BankName, CardNumber: wallet.MaskCard(o.CardNumber), Status: o.Status, Remark: o.Remark, CreatedAt: o.CreatedAt, ReviewedAt: o.ReviewedAt})
	}
	bets, err := storage.AllBetsOf(ctx, s.DB, userID)
	if err != nil {
		return e, err
	}
	for _, b := range bets {
		e.Bets = append(e.Bets, exportBet{BetID: b.BetID, Issue: b.Issue, WindowID: b.WindowID, Content: b.Content, AmountCents: b.Amount,
			State: b.State, PayoutCents: b.Payout, PlacedAt: b.PlacedAt, SettledAt: b.SettledAt})
	}
	return e, nil
}

// deletionCard is a card the balance can be exchanged to, masked.
type deletionCard struct {
	ID         string `json:"id"`
	BankName   string `json:"bankName"`
	CardNumber string `json:"cardNumber"`
}

// deletionFacts are what the app shows before a deletion: the balance
// question and what stops a deletion for now.
type deletionFacts struct {
	Balance          int64          `json:"balance"`          // cents in the wallet
	PendingExchanges int            `json:"pendingExchanges"` // exchange orders under review
	PendingAmount    int64          `json:"pendingAmount"`    // their total, cents
	Cards            []deletionCard `json:"cards"`
	HasFundPassword  bool           `json:"hasFundPassword"`
	ExchangeMin      int64          `json:"exchangeMin"`
	ExchangeMax      int64          `json:"exchangeMax"`
	OpenBets         int            `json:"openBets"`         // bets not yet settled: the deletion waits for them
	PendingRecharges int            `json:"pendingRecharges"` // recharges under review: the deletion waits for them
	OwnedGroups      int            `json:"ownedGroups"`      // groups with other members the user owns: transferred or dismissed first
	RetentionDays    int            `json:"retentionDays"`    // KJ_DELETED_ACCOUNT_RETENTION in days
}

func (s *Server) deletionFactsOf(ctx context.Context, userID int64) (deletionFacts, []storage.ExchangeOrder, error) {
	f := deletionFacts{Cards: []deletionCard{}, ExchangeMin: s.Config.ExchangeMin, ExchangeMax: s.Config.ExchangeMax,
		RetentionDays: int(s.Config.DeletedAccountRetention / (24 * time.Hour))}
	sum, err := storage.WalletSummaryOf(ctx, s.DB, userID)
	if err != nil {
		return f, nil, err
	}
	f.Balance, f.HasFundPassword = sum.Balance, sum.HasFundPassword
	pending, err := storage.PendingExchangesOf(ctx, s.DB, userID)
	if err != nil {
		return f, nil, err
	}
	for _, o := range pending {
		f.PendingExchanges++
		f.PendingAmount += o.Amount
	}
	cards, err := storage.BankCardsOf(ctx, s.DB, userID)
	if err != nil {
		return f, nil, err
	}
	for _, k := range cards {
		f.Cards = append(f.Cards, deletionCard{ID: storage.FormatID(k.ID), BankName: k.BankName, CardNumber: wallet.MaskCard(k.CardNumber)})
	}
	if f.OpenBets, f.PendingRecharges, f.OwnedGroups, err = storage.AccountBusy(ctx, s.DB, userID); err != nil {
		return f, nil, err
	}
	return f, pending, nil
}

// accountDeletion answers what deleting the account would do with its
// money, and whether anything stops it for now.
func (s *Server) accountDeletion(c *Call) (any, error) {
	f, _, err := s.deletionFactsOf(c.Ctx, c.User.ID)
	return f, err
}

type deleteAccountRequest struct {
	Password     string          `json:"password"`
	Balance      string          `json:"balance"`    // "exchange" or "forfeit"; needed when there is money
	BankCardID   json.RawMessage `json:"bankCardId"` // for "exchange" of a balance
	FundPassword string          `json:"fundPassword"`
}

// deleteAccount deletes the caller's account after the password and the
// balance question: the money moves as the user chose, in the same
// transaction that erases the account and writes the audit row; then
// every session and socket of the user ends.
func (s *Server) deleteAccount(c *Call) (any, error) {
	var req deleteAccountRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if c.User.IsOperator == 1 {
		// Operators' accounts are the console's (kj admin, the operators
		// page): their actions name them in the audit log.
		return nil, apierr.Fail(apierr.CodeRoleRefused, "operator.account.admin.only").WithStatus(http.StatusForbidden)
	}
	if err := s.checkPasswordAgain(c, req.Password); err != nil {
		return nil, err
	}
	f, pending, err := s.deletionFactsOf(c.Ctx, c.User.ID)
	if err != nil {
		return nil, err
	}
	switch {
	case f.OpenBets > 0:
		return nil, apierr.Fail(apierr.CodeDeleteNotReady, "account.delete.bets")
	case f.PendingRecharges > 0:
		return nil, apierr.Fail(apierr.CodeDeleteNotReady, "account.delete.recharge")
	case f.OwnedGroups > 0:
		return nil, apierr.Fail(apierr.CodeDeleteNotReady, "account.delete.groups")
	}
	hasMoney := f.Balance > 0 || len(pending) > 0
	if hasMoney && req.Balance != balanceExchange && req.Balance != balanceForfeit {
		return nil, apierr.Fail(apierr.CodeDeleteChoice, "account.delete.choice", "amount", wallet.FormatCents(f.Balance+f.PendingAmount))
	}
	now := s.Clock.Now().UnixMilli()
	uid := c.User.ID
	var transfers []ledger.Transfer
	var exchange *storage.ExchangeOrder
	choice := "none"
	if hasMoney {
		choice = req.Balance
	}
	switch {
	case hasMoney && req.Balance == balanceExchange && f.Balance > 0:
		o, err := s.deletionExchange(c, req, f)
		if err != nil {
			return nil, err
		}
		exchange = &o
		transfers = append(transfers, ledger.Transfer{Debit: ledger.Wallet(uid), Credit: ledger.WithdrawalPending, Amount: o.Amount,
			Kind: storage.KindExchange, Ref: o.OrderNo, IdempotencyKey: o.RequestKey})
	case hasMoney && req.Balance == balanceForfeit:
		if f.Balance > 0 {
			transfers = append(transfers, ledger.Transfer{Debit: ledger.Wallet(uid), Credit: ledger.House, Amount: f.Balance,
				Kind: storage.KindForfeit, Ref: "account:" + c.User.IDString(), IdempotencyKey: "forfeit:account:" + c.User.IDString()})
		}
		for _, o := range pending {
			transfers = append(transfers, ledger.Transfer{Debit: ledger.WithdrawalPending, Credit: ledger.House, Amount: o.Amount,
				Kind: storage.KindForfeit, Ref: o.OrderNo, IdempotencyKey: "forfeit:" + o.OrderNo})
		}
	}
	type auditedDeletion struct {
		Balance          int64  `json:"balance"`
		PendingExchanges int64  `json:"pendingExchanges"`
		BalanceChoice    string `json:"balanceChoice"`
		ExchangeOrder    string `json:"exchangeOrder,omitempty"`
	}
	before := auditedDeletion{Balance: f.Balance, PendingExchanges: f.PendingAmount, BalanceChoice: choice}
	if exchange != nil {
		before.ExchangeOrder = exchange.OrderNo
	}
	var ended []int64
	erase := func(ctx context.Context, tx storage.Tx) error {
		if exchange != nil {
			if err := storage.CreateExchangeOrder(ctx, tx, *exchange); err != nil {
				return err
			}
		}
		if req.Balance == balanceForfeit {
			for _, o := range pending {
				done, err := storage.SetExchangeStatus(ctx, tx, o.ID, storage.OrderUnderReview, storage.OrderFailed, 0, "forfeited: account deleted", now)
				if err != nil {
					return err
				}
				if !done {
					return apierr.Fail(apierr.CodeOrderProcessed, "order.processed")
				}
			}
		}
		var err error
		if ended, err = storage.DeleteAccount(ctx, tx, uid, now); err != nil {
			return err
		}
		return recordAudit(ctx, tx, AuditActor{OperatorID: uid, Address: c.ClientIP()}, "user.delete", uid,
			auditChange{Before: before, After: nil}, now)
	}
	if len(transfers) == 0 {
		err = s.DB.Tx(c.Ctx, func(tx storage.Tx) error { return erase(c.Ctx, tx) })
	} else {
		err = s.submitDeletion(c.Ctx, ledger.Op{Transfers: transfers, Hook: erase})
	}
	if errors.Is(err, storage.ErrNotFound) {
		return nil, apierr.Fail(apierr.CodeTokenExpired, "token.expired") // deleted meanwhile, by another of its sessions
	}
	if err != nil {
		return nil, err
	}
	s.Sessions.Announce(c.Ctx, uid, auth.ReasonSignedOut, ended...)
	s.removeAvatarFile(c.User.Avatar)
	_ = s.Counters.Delete(c.Ctx, "acct:login:fail:"+c.User.Account)
	s.Log.Info("account deleted", "userId", uid, "balanceChoice", choice, "balance", f.Balance, "pendingExchanges", len(pending), "sessionsEnded", len(ended))
	return nil, nil
}

// deletionExchange checks the exchange of the whole balance to one of the
// user's cards as /user/exchange would (limits, the card, the fund
// password) and returns its order, not yet written.
func (s *Server) deletionExchange(c *Call, req deleteAccountRequest, f deletionFacts) (storage.ExchangeOrder, error) {
	var none storage.ExchangeOrder
	if len(f.Cards) == 0 {
		return none, apierr.Fail(apierr.CodeNoBankCard, "wallet.no.card")
	}
	if f.Balance < s.Config.ExchangeMin {
		return none, apierr.Fail(apierr.CodeExchangeBelowMin, "wallet.exchange.min", "min", wallet.FormatCents(s.Config.ExchangeMin))
	}
	if f.Balance > s.Config.ExchangeMax {
		return none, apierr.Fail(apierr.CodeExchangeAboveMax, "wallet.exchange.max", "max", wallet.FormatCents(s.Config.ExchangeMax))
	}
	cardID, err := wallet.ParseID(req.BankCardID, "bankCardId")
	if err != nil {
		return none, err
	}
	card, err := storage.BankCardOf(c.Ctx, s.DB, c.User.ID, cardID)
	if errors.Is(err, storage.ErrNotFound) {
		return none, apierr.NotFound()
	}
	if err != nil {
		return none, err
	}
	if err := s.Wallet.VerifyFundPassword(c.Ctx, c.User, req.FundPassword); err != nil {
		return none, err
	}
	id := storage.NewID()
	return storage.ExchangeOrder{ID: id, OrderNo: "E" + strconv.FormatInt(id, 10), UserID: c.User.ID, Amount: f.Balance,
		BankCardID: card.ID, BankName: card.BankName, HolderName: card.HolderName, CardNumber: card.CardNumber,
		Status: storage.OrderUnderReview, RequestKey: "exchange:" + strconv.FormatInt(id, 10), CreatedAt: s.Clock.Now().UnixMilli()}, nil
}

// submitDeletion hands the deletion's money to the ledger writer, the
// erasure running in its transaction (Hook).
func (s *Server) submitDeletion(ctx context.Context, op ledger.Op) error {
	if s.Wallet == nil || s.Wallet.Ledger == nil {
		return errors.New("account deletion: no ledger writer configured")
	}
	_, err := s.Wallet.Ledger.SubmitOp(ctx, op)
	switch {
	case errors.Is(err, ledger.ErrInsufficientBalance):
		// The balance moved between the question and the answer (a bet
		// from another device): nothing was done; ask again.
		return apierr.Fail(apierr.CodeInsufficientBalance, "wallet.insufficient")
	case errors.Is(err, ledger.ErrKeyReused):
		return storage.ErrNotFound // a forfeit of this account was written: it is deleted already
	}
	return err
}

// removeAvatarFile deletes the uploaded picture that was the account's
// avatar (the row no longer names it).
func (s *Server) removeAvatarFile(avatar string) {
	rel, ok := strings.CutPrefix(avatar, "/files/avatars/")
	if !ok || strings.Contains(rel, "..") {
		return
	}
	file := filepath.Join(s.Config.DataDir, "files", "avatars", filepath.FromSlash(rel))
	if err := os.Remove(file); err != nil && !errors.Is(err, os.ErrNotExist) {
		s.Log.Warn("account deletion: removing the avatar file failed", "err", err)
	}
}

// SweepDeletedAccounts ends the retention of every deleted account whose
// deletion is older than KJ_DELETED_ACCOUNT_RETENTION
// (storage.PurgeDeletedAccount), in batches, and returns how many it
// purged. The node runs it periodically (engine); any node may, as often
// as it likes: a purged account is not purged again.
func (s *Server) SweepDeletedAccounts(ctx context.Context) (int, error) {
	before := s.Clock.Now().Add(-s.Config.DeletedAccountRetention).UnixMilli()
	purged := 0
	for {
		ids, err := storage.DeletedAccountsToPurge(ctx, s.DB, before, 100)
		if err != nil || len(ids) == 0 {
			return purged, err
		}
		for _, id := range ids {
			err := s.DB.Tx(ctx, func(tx storage.Tx) error { return storage.PurgeDeletedAccount(ctx, tx, id, s.Clock.Now().UnixMilli()) })
			if err != nil && !errors.Is(err, storage.ErrNotFound) { // another node purged it meanwhile
				return purged, err
			}
			purged++
		}
		if len(ids) < 100 {
			return purged, nil
		}
	}
}
