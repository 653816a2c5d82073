// Package wallet owns the points wallet's rules: the balance summary, USDT
// recharge orders, exchanges of points to a bank card and their
// idempotency, the operators' review of both, the fund password and its
// lockout, bank cards and the bank list. It assembles every ledger
// operation that moves the wallet's money and hands it to the ledger
// writer (actors/ledger), which commits it and pushes the balance change
// to the owner's sockets.
//
// httpapi decodes a request into the wallet's request types, calls a
// Wallet method and encodes what it returns; the errors are the client's
// own (internal/apierr codes), so they pass through unchanged. Operator
// changes are written to the operator action log through an Audit that
// httpapi supplies, inside the transaction of the change itself.
package wallet

import (
	"context"
	"errors"
	"log/slog"

	"kj/actors/ledger"
	"kj/internal/apierr"
	"kj/internal/clock"
	"kj/internal/config"
	"kj/internal/counter"
	"kj/storage"
)

// Wallet is what the wallet's routes call. It holds no state of its own
// beyond its dependencies, so any node answers.
type Wallet struct {
	DB       storage.DB
	Ledger   *ledger.Writer   // moves the money; nil fails every operation that would
	Counters counter.Counters // the fund password's wrong tries and lock
	Clock    clock.Clock
	// Config gives the recharge and exchange limits, the deposit addresses
	// and whether recharge through customer service is offered
	// (KJ_RECHARGE_*, KJ_EXCHANGE_*, KJ_USDT_*).
	Config config.Config
	Log    *slog.Logger
	// Reads answers Summary from the node's copies (storage/userview);
	// nil reads the store.
	Reads interface {
		Wallet(ctx context.Context, userID int64) (storage.WalletSummary, error)
	}
	Deposits Deposits // player protection's holds and refusals of recharges (deposits.go); nil: none
}

func (w *Wallet) log() *slog.Logger {
	if w.Log == nil {
		return slog.Default()
	}
	return w.Log
}

func (w *Wallet) now() int64 { return w.Clock.Now().UnixMilli() }

// Summary is the points account of the mine page.
type Summary struct {
	storage.WalletSummary
	ExchangeMin, ExchangeMax int64 // the configured exchange limits, in cents
}

// Summary is a user's balance, frozen amount, cards and flags, read in one
// statement (or from the node's copy of it, Reads).
func (w *Wallet) Summary(ctx context.Context, userID int64) (Summary, error) {
	read := func(ctx context.Context, userID int64) (storage.WalletSummary, error) {
		return storage.WalletSummaryOf(ctx, w.DB, userID)
	}
	if w.Reads != nil {
		read = w.Reads.Wallet
	}
	s, err := read(ctx, userID)
	return Summary{WalletSummary: s, ExchangeMin: w.Config.ExchangeMin, ExchangeMax: w.Config.ExchangeMax}, err
}

// PointsRecords is a page of the user's points details: flow is one of
// storage's Flow values, since a time in Unix milliseconds (0: all time).
func (w *Wallet) PointsRecords(ctx context.Context, userID int64, flow int, since int64, limit, offset int) ([]storage.PointsRecord, int, error) {
	return storage.PointsRecords(ctx, w.DB, userID, flow, since, limit, offset)
}

// ExchangeRecords is a page of the user's exchange orders in one status
// (-1: every status).
func (w *Wallet) ExchangeRecords(ctx context.Context, userID int64, status int, since int64, limit, offset int) ([]storage.ExchangeOrder, int, error) {
	return storage.UserExchangeOrders(ctx, w.DB, userID, status, since, limit, offset)
}

// submit hands an operation to the ledger writer and turns its refusals
// into the client's errors.
func (w *Wallet) submit(ctx context.Context, op ledger.Op) error {
	if w.Ledger == nil {
		return errors.New("wallet: no ledger writer configured")
	}
	_, err := w.Ledger.SubmitOp(ctx, op)
	if errors.Is(err, ledger.ErrInsufficientBalance) {
		return apierr.Fail(apierr.CodeInsufficientBalance, "wallet.insufficient")
	}
	return err
}

// notFound answers a missing row as the client's "not found".
func notFound(err error) error {
	if errors.Is(err, storage.ErrNotFound) {
		return apierr.NotFound()
	}
	return err
}
