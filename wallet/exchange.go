package wallet

// Exchanges of points to a bank card: the amount leaves the wallet for
// withdrawal-pending at once, in the transaction that writes the order;
// an operator then pays it out or refunds it (review.go).

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"

	"kj/actors/ledger"
	"kj/internal/apierr"
	"kj/storage"
)

// ExchangeRequest is a user's exchange as the client sends it. The amount
// and the card are read in the order the rules ask for them, after the
// user is known to have a card at all.
type ExchangeRequest struct {
	Amount       json.RawMessage `json:"amount"`     // cents, read by ParseAmount
	BankCardID   json.RawMessage `json:"bankCardId"` // read by ParseID
	FundPassword string          `json:"fundPassword"`
	// RequestKey, when the client names its request (the Idempotency-Key
	// header), makes a retry after a lost reply return the first order
	// instead of paying twice. Empty: every request is a new exchange.
	RequestKey string `json:"-"`
}

// requestKeyPattern bounds a client's RequestKey.
var requestKeyPattern = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,64}$`)

// Exchange debits the amount to withdrawal-pending together with a new
// order under review, after the limits, the card and the fund password
// are checked.
func (w *Wallet) Exchange(ctx context.Context, u storage.User, req ExchangeRequest) (storage.ExchangeOrder, error) {
	var none storage.ExchangeOrder
	cards, err := storage.CountBankCards(ctx, w.DB, u.ID)
	if err != nil {
		return none, err
	}
	if cards == 0 {
		return none, apierr.Fail(apierr.CodeNoBankCard, "wallet.no.card")
	}
	amount, err := ParseAmount(req.Amount, "amount")
	if err != nil {
		return none, err
	}
	if amount < w.Config.ExchangeMin {
		return none, apierr.Fail(apierr.CodeExchangeBelowMin, "wallet.exchange.min", "min", FormatCents(w.Config.ExchangeMin))
	}
	if amount > w.Config.ExchangeMax {
		return none, apierr.Fail(apierr.CodeExchangeAboveMax, "wallet.exchange.max", "max", FormatCents(w.Config.ExchangeMax))
	}
	cardID, err := ParseID(req.BankCardID, "bankCardId")
	if err != nil {
		return none, err
	}
	card, err := storage.BankCardOf(ctx, w.DB, u.ID, cardID)
	if err != nil {
		return none, notFound(err)
	}
	if err := w.VerifyFundPassword(ctx, u, req.FundPassword); err != nil {
		return none, err
	}

	id := storage.NewID()
	requestKey := "exchange:" + strconv.FormatInt(id, 10)
	if k := req.RequestKey; k != "" {
		if !requestKeyPattern.MatchString(k) {
			return none, apierr.Invalid("Idempotency-Key")
		}
		requestKey = "exchange:" + u.IDString() + ":" + k
		if prev, ok, err := w.previousExchange(ctx, requestKey, amount, cardID); ok || err != nil {
			return prev, err
		}
	}
	o := storage.ExchangeOrder{ID: id, OrderNo: "E" + strconv.FormatInt(id, 10), UserID: u.ID, Amount: amount,
		BankCardID: card.ID, BankName: card.BankName, HolderName: card.HolderName, CardNumber: card.CardNumber,
		Status: storage.OrderUnderReview, RequestKey: requestKey, CreatedAt: w.now()}
	err = w.submit(ctx, ledger.Op{
		Transfers: []ledger.Transfer{{Debit: ledger.Wallet(u.ID), Credit: ledger.WithdrawalPending, Amount: amount,
			Kind: storage.KindExchange, Ref: o.OrderNo, IdempotencyKey: requestKey}},
		Hook: func(ctx context.Context, tx storage.Tx) error { return storage.CreateExchangeOrder(ctx, tx, o) },
	})
	if errors.Is(err, ledger.ErrKeyReused) || errors.Is(err, storage.ErrConflict) {
		// A concurrent request with the same key won the race.
		if prev, ok, lerr := w.previousExchange(ctx, requestKey, amount, cardID); ok || lerr != nil {
			return prev, lerr
		}
		return none, apierr.Fail(apierr.CodeRequestKeyReused, "request.key.reused")
	}
	if err != nil {
		return none, err
	}
	return storage.ExchangeOrderByRequestKey(ctx, w.DB, requestKey)
}

// previousExchange answers a request whose key created an order before: the
// same order when the request is the same, CodeRequestKeyReused otherwise.
func (w *Wallet) previousExchange(ctx context.Context, key string, amount, cardID int64) (storage.ExchangeOrder, bool, error) {
	prev, err := storage.ExchangeOrderByRequestKey(ctx, w.DB, key)
	if errors.Is(err, storage.ErrNotFound) {
		return prev, false, nil
	}
	if err != nil {
		return prev, false, err
	}
	if prev.Amount != amount || prev.BankCardID != cardID {
		return storage.ExchangeOrder{}, true, apierr.Fail(apierr.CodeRequestKeyReused, "request.key.reused")
	}
	return prev, true, nil
}
