package window

import (
	"context"
	"errors"

	"kj/storage"
)

// AccountKind names the ledger accounts a round touches.
type AccountKind int

const (
	Wallet     AccountKind = iota // a player's points (UserID set)
	House                         // the operator's side of every bet
	BetsInPlay                    // stakes of unsettled bets
)

// Account is one ledger account.
type Account struct {
	Kind   AccountKind
	UserID int64 // for Wallet
}

// WalletOf is a player's wallet.
func WalletOf(userID int64) Account { return Account{Kind: Wallet, UserID: userID} }

// Transfer kinds a round posts.
const (
	KindStake  = "bet.stake"  // wallet → bets-in-play when a bet is accepted
	KindReturn = "bet.return" // bets-in-play → wallet: a winner's stake back
	KindWin    = "bet.win"    // house → wallet: a winner's gain (payout − stake)
	KindLose   = "bet.lose"   // bets-in-play → house: a loser's stake
)

// Transfer moves Amount cents (> 0) From one account To another. Key makes
// it idempotent: a replay with the same key changes nothing.
type Transfer struct {
	Key    string
	From   Account
	To     Account
	Amount int64
	Kind   string
	Ref    string // the bet's note number
}

// ErrInsufficientBalance refuses a transfer that would take a wallet below
// zero.
var ErrInsufficientBalance = errors.New("window: insufficient balance")

// Ledger is what the windows need from the double-entry ledger: post
// transfers inside the caller's transaction (so a bet row and its stake
// commit together) and read a wallet. Post posts every transfer it can and
// answers one error per transfer — ErrInsufficientBalance for a transfer a
// wallet cannot cover, which leaves the others standing — and a second
// error when the transaction itself failed. It must aggregate hot accounts
// (house, bets-in-play) per call rather than update them per transfer.
type Ledger interface {
	Post(ctx context.Context, tx storage.Tx, ts []Transfer) ([]error, error)
	Balance(ctx context.Context, q storage.Querier, userID int64) (int64, error)
}
