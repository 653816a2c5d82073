package window

import (
	"context"
	"errors"
	"strconv"

	"kj/actors/ledger"
	"kj/internal/bus"
	"kj/storage"
)

// Transfer kinds a round posts (shown in the points details).
const (
	KindStake = storage.KindBetStake // wallet → bets-in-play when a bet is accepted
	// bets-in-play → wallet: a voided round's stake back (key
	// bet:<betId>:refund); rounds settled before the one-transfer
	// settlement also gave a winner's stake back with it (key
	// bet:<betId>:return).
	KindReturn = "bet_return"
	// house → wallet: a winner's whole payout (key bet:<betId>:win); in
	// rounds settled before the one-transfer settlement, only the gain
	// (payout − stake), beside a bet_return of the stake.
	KindWin = "bet_win"
	// bets-in-play → house: the stakes of every bet one settlement
	// transaction settled, won or lost, in one transfer (ref the round's
	// id, key stakesSettledKey), so that a loser costs no ledger row.
	KindStakesSettled = storage.KindBetStakesSettled
	// bets-in-play → house: one loser's stake (key bet:<betId>:lose), only
	// in rounds settled before the one-transfer settlement; still read by
	// the console's figures (storage.WindowFiguresBetween).
	KindLose = "bet_lose"
)

// ErrInsufficientBalance refuses a bet the wallet cannot cover.
var ErrInsufficientBalance = storage.ErrInsufficientBalance

// Ledger is what the windows need from the double-entry ledger: apply
// operations inside the caller's transaction, so a batch of bet rows and
// their stakes (or of settled bets and their payouts) commit together —
// Apply runs them against the balances a plan read in the desk's read
// round trip, and the plan's writes go out with the desk's own
// (storage.LedgerPlan); read a wallet; and tell a transaction worth running
// again from a real failure.
type Ledger interface {
	Apply(ctx context.Context, tx storage.Tx, plan *storage.LedgerPlan, ops []storage.Op) ([]storage.OpResult, error)
	Balance(ctx context.Context, q storage.Querier, userID int64) (int64, error)
	Retryable(err error) bool
}

// StoreLedger is the ledger of package storage (the wallet's double-entry
// ledger), used inside the rounds' own transactions.
type StoreLedger struct{}

func (StoreLedger) Apply(ctx context.Context, tx storage.Tx, plan *storage.LedgerPlan, ops []storage.Op) ([]storage.OpResult, error) {
	return plan.Apply(ctx, tx, ops)
}

func (StoreLedger) Balance(ctx context.Context, q storage.Querier, userID int64) (int64, error) {
	return storage.AccountBalance(ctx, q, storage.Wallet(userID))
}

func (StoreLedger) Retryable(err error) bool { return storage.LedgerRetryable(err) }

// walletChanges gathers, per user, the last balance and the net change of
// committed transfers, to push after the commit as the ledger writer does
// (ledger.BalanceKey), so the app's balance follows bets and payouts too.
type walletChanges map[int64]*ledger.BalancePush

func (w walletChanges) add(ts []storage.Transfer, rs []storage.Result) {
	for i, t := range ts {
		if i >= len(rs) || rs[i].Replayed {
			continue
		}
		if t.Debit.Kind == storage.AccountWallet {
			w.note(t.Debit.UserID, rs[i].DebitBalance, -t.Amount)
		}
		if t.Credit.Kind == storage.AccountWallet {
			w.note(t.Credit.UserID, rs[i].CreditBalance, t.Amount)
		}
	}
}

func (w walletChanges) note(user, balance, delta int64) {
	p := w[user]
	if p == nil {
		p = &ledger.BalancePush{}
		w[user] = p
	}
	p.Amount, p.Change = balance, p.Change+delta
}

func (w walletChanges) push(ctx context.Context, b bus.Bus, log interface {
	Warn(msg string, args ...any)
}) {
	if b == nil {
		return
	}
	for uid, p := range w {
		if p.Change == 0 {
			continue
		}
		if err := bus.PushToUser(ctx, b, strconv.FormatInt(uid, 10), ledger.BalanceKey, p); err != nil {
			log.Warn("balance push failed", "user", uid, "err", err)
		}
	}
}

// opError is the error of a failed op as the windows report it.
func opError(err error) error {
	if errors.Is(err, storage.ErrInsufficientBalance) {
		return ErrInsufficientBalance
	}
	return err
}
