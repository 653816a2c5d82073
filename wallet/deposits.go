package wallet

import (
	"context"

	"kj/storage"
)

// Deposits is player protection's say over recharges (kj/protection): a
// player who has stopped themselves places no recharge order; an order
// beyond their deposit limit is taken (its funds are already sent) but
// held, and an order is credited only when protection lets it through.
type Deposits interface {
	// Placing refuses a new order of userID (a cool-off or a
	// self-exclusion in force).
	Placing(ctx context.Context, userID int64) error
	// Placed runs in the transaction creating o; an error rolls it back,
	// except the hold it reports with HeldError (the order is kept, held).
	Placed(ctx context.Context, tx storage.Tx, o storage.RechargeOrder) error
	// Crediting refuses to credit o while it is held.
	Crediting(ctx context.Context, o storage.RechargeOrder) error
	// Held reports whether err is Placed's report of a hold.
	Held(err error) bool
}

// deposits is w.Deposits, or none.
func (w *Wallet) deposits() Deposits {
	if w.Deposits == nil {
		return noDeposits{}
	}
	return w.Deposits
}

type noDeposits struct{}

func (noDeposits) Placing(context.Context, int64) error                            { return nil }
func (noDeposits) Placed(context.Context, storage.Tx, storage.RechargeOrder) error { return nil }
func (noDeposits) Crediting(context.Context, storage.RechargeOrder) error          { return nil }
func (noDeposits) Held(error) bool                                                 { return false }
