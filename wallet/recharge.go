package wallet

// USDT recharge orders: the user says how much they sent, over which
// protocol, in which transaction; an operator checks the chain and credits
// it (review.go).

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"kj/internal/apierr"
	"kj/storage"
)

// Protocol is a USDT protocol offered for recharge.
type Protocol struct {
	Protocol string `json:"protocol"` // TRC20, ERC20: the value a recharge order names
	Name     string `json:"name"`     // USDT-TRC20
	Network  string `json:"network"`  // TRON, Ethereum
	Address  string `json:"address"`  // where to send
	MinDep   int64  `json:"minDep"`   // cents
	// MaxDep is the largest order one operator credits (cents); an order
	// above it is taken and waits for a second operator's approval.
	MaxDep int64 `json:"maxDep"`
}

// RechargeOptions is what the recharge screen offers.
type RechargeOptions struct {
	Protocols  []Protocol // those with a configured deposit address; never nil
	MinDeposit int64      // cents
	MaxDeposit int64      // cents: above it an order needs two operators' approval
	// ViaService: the app offers "recharge through customer service"
	// beside (or, with no deposit address, instead of) the protocols.
	ViaService bool
}

// RechargeOptions lists the recharge protocols with a configured deposit
// address and the recharge limits.
func (w *Wallet) RechargeOptions() RechargeOptions {
	min, max := w.Config.RechargeMinDeposit, w.maxDeposit()
	out := []Protocol{}
	if a := w.Config.USDTTRC20Address; a != "" {
		out = append(out, Protocol{Protocol: "TRC20", Name: "USDT-TRC20", Network: "TRON", Address: a, MinDep: min, MaxDep: max})
	}
	if a := w.Config.USDTERC20Address; a != "" {
		out = append(out, Protocol{Protocol: "ERC20", Name: "USDT-ERC20", Network: "Ethereum", Address: a, MinDep: min, MaxDep: max})
	}
	return RechargeOptions{Protocols: out, MinDeposit: min, MaxDeposit: max, ViaService: w.Config.RechargeViaService}
}

// maxDeposit is KJ_RECHARGE_MAX, or the ledger's largest amount when it is
// not configured (a Wallet built without a configuration).
func (w *Wallet) maxDeposit() int64 {
	if w.Config.RechargeMax > 0 {
		return w.Config.RechargeMax
	}
	return storage.MaxAmount
}

// txHashPattern: a TRON transaction id is 64 hex digits; an Ethereum
// transaction hash is 0x and 64 hex digits.
var txHashPattern = map[string]*regexp.Regexp{
	"TRC20": regexp.MustCompile(`^[0-9a-f]{64}$`),
	"ERC20": regexp.MustCompile(`^0x[0-9a-f]{64}$`),
}

// RechargeRequest is a user's recharge order as the client sends it.
type RechargeRequest struct {
	Amount   json.RawMessage `json:"amount"` // cents, read by ParseAmount
	Protocol string          `json:"protocol"`
	TxHash   string          `json:"txHash"`
}

// Recharge places a recharge order under review. A transaction claims one
// order: the same request again answers the order it made; any other
// claim of the transaction is refused. An order above the maximum is taken
// all the same (its funds may already be on chain) and marked as needing
// a second operator's approval (ConfirmRecharge).
func (w *Wallet) Recharge(ctx context.Context, userID int64, req RechargeRequest) (storage.RechargeOrder, error) {
	var none storage.RechargeOrder
	amount, err := ParseAmount(req.Amount, "amount")
	if err != nil {
		return none, err
	}
	opts := w.RechargeOptions()
	if amount < opts.MinDeposit {
		return none, apierr.Fail(apierr.CodeBelowMinDeposit, "wallet.recharge.min", "min", FormatCents(opts.MinDeposit))
	}
	protocol := strings.ToUpper(strings.TrimSpace(req.Protocol))
	if protocol == "" {
		return none, apierr.Required("protocol")
	}
	var chain *Protocol
	for _, p := range opts.Protocols {
		if p.Protocol == protocol {
			chain = &p
		}
	}
	if chain == nil {
		return none, apierr.Fail(apierr.CodeProtocolUnknown, "wallet.protocol.unknown")
	}
	hash := strings.ToLower(strings.TrimSpace(req.TxHash))
	if hash == "" {
		return none, apierr.Required("txHash")
	}
	if !txHashPattern[protocol].MatchString(hash) {
		return none, apierr.Fail(apierr.CodeTxHashInvalid, "wallet.txhash.invalid", "protocol", protocol)
	}
	if err := w.deposits().Placing(ctx, userID); err != nil {
		return none, err
	}
	id := storage.NewID()
	o := storage.RechargeOrder{ID: id, OrderNo: "R" + strconv.FormatInt(id, 10), UserID: userID, Amount: amount,
		Protocol: protocol, Address: chain.Address, TxHash: hash, Status: storage.OrderUnderReview, CreatedAt: w.now()}
	err = w.DB.Tx(ctx, func(tx storage.Tx) error {
		if err := storage.CreateRechargeOrder(ctx, tx, o); err != nil {
			return err
		}
		// A hold beyond the deposit limit is recorded here; the order stays.
		if err := w.deposits().Placed(ctx, tx, o); err != nil && !w.deposits().Held(err) {
			return err
		}
		if amount > opts.MaxDeposit {
			return storage.CreateRechargeApproval(ctx, tx, o.ID)
		}
		return nil
	})
	if errors.Is(err, storage.ErrConflict) {
		// The hash was claimed: a resubmission of the same order answers
		// that order; anything else is a second claim of one deposit.
		prev, lerr := storage.RechargeOrderByTxHash(ctx, w.DB, hash)
		if lerr != nil {
			return none, lerr
		}
		if prev.UserID == userID && prev.Amount == amount && prev.Protocol == protocol {
			return prev, nil
		}
		return none, apierr.Fail(apierr.CodeTxHashUsed, "wallet.txhash.used")
	}
	if err != nil {
		return none, err
	}
	return o, nil
}
