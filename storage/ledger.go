package storage

import (
	"context"
	"errors"
	"fmt"
	"strconv"
)

// The points ledger: double-entry bookkeeping in integer cents.
//
// Every change of money is a Transfer from a debit account to a credit
// account, written as two append-only entries (debit negative, credit
// positive) while the two balances move in the same transaction; so the
// balances of all accounts always sum to zero and each balance equals the
// sum of its entries. A correction is a reversing transfer (Reversal), never
// an edit. Each transfer carries an idempotency key: submitting the same key
// again returns the original result and writes nothing; the same key with a
// different body is ErrKeyReused.
//
// CommitLedgerBatch writes many operations in one transaction (the group
// commit of the ledger writer actor, actors/ledger); an operation is one or
// more transfers that succeed or fail together, and one failing operation
// never fails the others of its batch.

// AccountKind is the kind of a ledger account.
type AccountKind int16

const (
	AccountWallet            AccountKind = 1 // a user's points
	AccountHouse             AccountKind = 2 // the operator's side of bets
	AccountRechargeClearing  AccountKind = 3 // money in from outside (goes negative as users recharge)
	AccountWithdrawalPending AccountKind = 4 // exchanges under review
	AccountBetsInPlay        AccountKind = 5 // stakes of open bets
	AccountWithdrawn         AccountKind = 6 // exchanges paid out to bank cards
)

// String names the kind for reports and logs.
func (k AccountKind) String() string {
	switch k {
	case AccountWallet:
		return "wallet"
	case AccountHouse:
		return "house"
	case AccountRechargeClearing:
		return "recharge-clearing"
	case AccountWithdrawalPending:
		return "withdrawal-pending"
	case AccountBetsInPlay:
		return "bets-in-play"
	case AccountWithdrawn:
		return "withdrawn"
	}
	return "kind-" + strconv.Itoa(int(k))
}

// NoOverdraft reports whether accounts of this kind may never go below
// zero: wallets (the client's 'Insufficient balance'), and the two holding accounts,
// which only ever hold what was moved into them. The house and the two
// outside-facing accounts may be negative.
func (k AccountKind) NoOverdraft() bool {
	return k == AccountWallet || k == AccountWithdrawalPending || k == AccountBetsInPlay
}

// AccountRef names one account: a user's wallet (Kind AccountWallet and the
// user's id) or a system account (UserID 0).
type AccountRef struct {
	Kind   AccountKind
	UserID int64
}

// The system accounts.
var (
	House             = AccountRef{Kind: AccountHouse}
	RechargeClearing  = AccountRef{Kind: AccountRechargeClearing}
	WithdrawalPending = AccountRef{Kind: AccountWithdrawalPending}
	BetsInPlay        = AccountRef{Kind: AccountBetsInPlay}
	Withdrawn         = AccountRef{Kind: AccountWithdrawn}
)

// Wallet is the points account of a user.
func Wallet(userID int64) AccountRef { return AccountRef{Kind: AccountWallet, UserID: userID} }

// ID is the account's row id: the user id for a wallet, the kind for a
// system account.
func (a AccountRef) ID() int64 {
	if a.Kind == AccountWallet {
		return a.UserID
	}
	return int64(a.Kind)
}

func (a AccountRef) valid() bool {
	switch a.Kind {
	case AccountWallet:
		return a.UserID > maxSystemAccount
	case AccountHouse, AccountRechargeClearing, AccountWithdrawalPending, AccountBetsInPlay, AccountWithdrawn:
		return a.UserID == 0
	}
	return false
}

func (a AccountRef) String() string {
	if a.Kind == AccountWallet {
		return "wallet:" + strconv.FormatInt(a.UserID, 10)
	}
	return a.Kind.String()
}

// maxSystemAccount bounds the ids reserved for system accounts.
const maxSystemAccount = 100

// accountRefByID is the inverse of AccountRef.ID.
func accountRefByID(id int64) AccountRef {
	if id > maxSystemAccount {
		return Wallet(id)
	}
	return AccountRef{Kind: AccountKind(id)}
}

// MaxAmount bounds a single transfer (10^15 cents, 10 trillion points), so
// that no sum of a batch can overflow int64.
const MaxAmount int64 = 1_000_000_000_000_000

// Transfer kinds used by the wallet; the rounds area adds its own (bet, win,
// ...). A kind is free text up to 32 bytes, shown in the points details.
const (
	KindRecharge       = "recharge"
	KindExchange       = "exchange"
	KindExchangeRefund = "exchange_refund"
	KindExchangePaid   = "exchange_paid"
	KindReversal       = "reversal"
)

// Transfer moves Amount cents from Debit to Credit.
type Transfer struct {
	Debit, Credit  AccountRef
	Amount         int64  // cents, > 0
	Kind           string // what the movement is: recharge, exchange, bet ...
	Ref            string // business reference: order number, bet id ...
	IdempotencyKey string // unique per intended transfer; a retry reuses it
}

// Reversal is the correcting transfer of t: the same amount back from
// t.Credit to t.Debit, under its own idempotency key.
func Reversal(t Transfer, key string) Transfer {
	return Transfer{Debit: t.Credit, Credit: t.Debit, Amount: t.Amount, Kind: KindReversal,
		Ref: t.IdempotencyKey, IdempotencyKey: key}
}

// sameBody reports whether a replayed transfer asks for what was written.
func (t Transfer) sameBody(o Transfer) bool {
	return t.Debit == o.Debit && t.Credit == o.Credit && t.Amount == o.Amount && t.Kind == o.Kind && t.Ref == o.Ref
}

// Result is the outcome of one committed transfer.
type Result struct {
	TransferID int64
	CreatedAt  int64 // unix ms
	// Replayed is true when the idempotency key had been used before with
	// the same body: nothing was written and TransferID is the original's.
	Replayed bool
	// DebitBalance and CreditBalance are the two balances just after this
	// transfer (zero on a replay, whose moment has passed).
	DebitBalance, CreditBalance int64
}

// Op is one operation: transfers that commit together or not at all.
//
// Hook, when set, runs inside the batch transaction after the transfers
// passed their checks and before they are written, under a savepoint: an
// error from it fails only this operation (returned to its submitter) and
// rolls back what it wrote. It lets an area change its own rows atomically
// with the money (an exchange order inserted with its debit, a recharge
// order marked confirmed with its credit). It must touch only its own
// tables, never the ledger's, and is skipped when the operation is a replay.
type Op struct {
	Transfers []Transfer
	Hook      func(ctx context.Context, tx Tx) error
}

// OpResult is the outcome of one Op: a Result per transfer, or Err.
type OpResult struct {
	Results []Result
	Err     error
}

// Errors of a transfer or operation.
var (
	// ErrInsufficientBalance: a wallet (or holding account) would go below zero.
	ErrInsufficientBalance = errors.New("ledger: insufficient balance")
	// ErrKeyReused: an idempotency key was used before for a different transfer.
	ErrKeyReused = errors.New("ledger: idempotency key reused with a different transfer")
	// ErrInvalidTransfer: a transfer breaks a static rule (amount, accounts, key).
	ErrInvalidTransfer = errors.New("ledger: invalid transfer")
	// ErrUnknownAccount: a wallet of a user that does not exist.
	ErrUnknownAccount = errors.New("ledger: unknown account")
)

// ValidateOp checks the rules of an operation that need no store: a
// positive amount within MaxAmount, two distinct valid accounts, a kind, a
// key, keys distinct within the operation.
func ValidateOp(op Op, maxTransfers int) error {
	if len(op.Transfers) == 0 {
		return fmt.Errorf("%w: no transfers", ErrInvalidTransfer)
	}
	if maxTransfers > 0 && len(op.Transfers) > maxTransfers {
		return fmt.Errorf("%w: %d transfers in one operation, at most %d", ErrInvalidTransfer, len(op.Transfers), maxTransfers)
	}
	keys := make(map[string]bool, len(op.Transfers))
	for _, t := range op.Transfers {
		switch {
		case t.Amount <= 0 || t.Amount > MaxAmount:
			return fmt.Errorf("%w: amount %d outside 1..%d", ErrInvalidTransfer, t.Amount, MaxAmount)
		case !t.Debit.valid() || !t.Credit.valid():
			return fmt.Errorf("%w: account %v -> %v", ErrInvalidTransfer, t.Debit, t.Credit)
		case t.Debit == t.Credit:
			return fmt.Errorf("%w: %v to itself", ErrInvalidTransfer, t.Debit)
		case t.Kind == "" || len(t.Kind) > 32:
			return fmt.Errorf("%w: kind %q", ErrInvalidTransfer, t.Kind)
		case len(t.Ref) > 128:
			return fmt.Errorf("%w: ref longer than 128 bytes", ErrInvalidTransfer)
		case t.IdempotencyKey == "" || len(t.IdempotencyKey) > 200:
			return fmt.Errorf("%w: idempotency key must be 1-200 bytes", ErrInvalidTransfer)
		case keys[t.IdempotencyKey]:
			return fmt.Errorf("%w: key %q twice in one operation", ErrInvalidTransfer, t.IdempotencyKey)
		}
		keys[t.IdempotencyKey] = true
	}
	return nil
}

// Account is one ledger account as stored.
type Account struct {
	ID        int64
	Kind      AccountKind
	OwnerID   int64
	Balance   int64
	CreatedAt int64
	UpdatedAt int64
}

// AccountBalance returns the balance of an account; an account that has
// never been used (a new user's wallet) has balance 0.
func AccountBalance(ctx context.Context, q Querier, a AccountRef) (int64, error) {
	var b int64
	err := q.QueryRow(ctx, `SELECT balance FROM ledger_accounts WHERE id = $1`, a.ID()).Scan(&b)
	if errors.Is(err, ErrNotFound) {
		return 0, nil
	}
	return b, err
}

// StoredTransfer is a transfer as written.
type StoredTransfer struct {
	ID int64
	Transfer
	CreatedAt int64
}

// TransferByKey finds the transfer written under an idempotency key.
func TransferByKey(ctx context.Context, q Querier, key string) (StoredTransfer, error) {
	var s StoredTransfer
	var debit, credit int64
	err := q.QueryRow(ctx, `SELECT id, idempotency_key, debit_account, credit_account, amount, kind, ref, created_at
		FROM ledger_transfers WHERE idempotency_key = $1`, key).
		Scan(&s.ID, &s.IdempotencyKey, &debit, &credit, &s.Amount, &s.Kind, &s.Ref, &s.CreatedAt)
	s.Debit, s.Credit = accountRefByID(debit), accountRefByID(credit)
	return s, err
}
