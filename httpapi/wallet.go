package httpapi

// The points wallet: balance, USDT recharge
// orders, exchange to a bank card, and the records screens. Money moves
// only through the ledger writer (Deps.Ledger), which also pushes every
// committed balance change to the owner's sockets ("balance").

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"kj/actors/ledger"
	"kj/internal/apierr"
	"kj/storage"
)

func init() {
	registerArea(func(s *Server) {
		s.Post("/user/amount", Identified, s.userAmount)
		s.Post("/user/getUserAmount", User, s.userAmount)
		s.Post("/user/getChainTypes", User, s.chainTypes)
		s.Post("/user/rechargeOrder", User, s.rechargeOrder)
		s.Post("/user/exchange", User, s.exchange)
		s.Post("/user/userCoinRecode", User, s.pointsRecords)
		s.Post("/user/userExchangeRecode", User, s.exchangeRecords)
	})
}

// amountReply is the points account of the mine page, in cents.
type amountReply struct {
	UserID          string `json:"userId"`
	Amount          int64  `json:"amount"`       // spendable balance
	FrozenAmount    int64  `json:"frozenAmount"` // exchanges under review
	HasFundPassword bool   `json:"hasFundPassword"`
	BankCardCount   int    `json:"bankCardCount"`
	IsRecharge      bool   `json:"isRecharge"` // has had a recharge credited
	ExchangeMin     int64  `json:"exchangeMin"`
	ExchangeMax     int64  `json:"exchangeMax"`
}

func (s *Server) userAmount(c *Call) (any, error) {
	u := c.User
	w, err := storage.WalletSummaryOf(c.Ctx, s.DB, u.ID)
	if err != nil {
		return nil, err
	}
	return amountReply{UserID: u.IDString(), Amount: w.Balance, FrozenAmount: w.Frozen, HasFundPassword: w.HasFundPassword,
		BankCardCount: w.Cards, IsRecharge: w.IsRecharge, ExchangeMin: s.Config.ExchangeMin, ExchangeMax: s.Config.ExchangeMax}, nil
}

// A USDT protocol offered for recharge.
type chainType struct {
	Protocol string `json:"protocol"` // TRC20, ERC20: the value rechargeOrder takes
	Name     string `json:"name"`     // USDT-TRC20
	Network  string `json:"network"`  // TRON, Ethereum
	Address  string `json:"address"`  // where to send
	MinDep   int64  `json:"minDep"`   // cents
}

// protocols are the recharge protocols with a configured deposit address.
func (s *Server) protocols() []chainType {
	var out []chainType
	if a := s.Config.USDTTRC20Address; a != "" {
		out = append(out, chainType{Protocol: "TRC20", Name: "USDT-TRC20", Network: "TRON", Address: a, MinDep: s.Config.RechargeMinDeposit})
	}
	if a := s.Config.USDTERC20Address; a != "" {
		out = append(out, chainType{Protocol: "ERC20", Name: "USDT-ERC20", Network: "Ethereum", Address: a, MinDep: s.Config.RechargeMinDeposit})
	}
	return out
}

func (s *Server) chainTypes(c *Call) (any, error) {
	list := s.protocols()
	if list == nil {
		list = []chainType{}
	}
	// service: the app offers "recharge through customer service" beside (or,
	// with no deposit address, instead of) the USDT protocols.
	return map[string]any{"list": list, "minDep": s.Config.RechargeMinDeposit, "currency": "USDT", "service": s.Config.RechargeViaService}, nil
}

// txHashPattern: a TRON transaction id is 64 hex digits; an Ethereum
// transaction hash is 0x and 64 hex digits.
var txHashPattern = map[string]*regexp.Regexp{
	"TRC20": regexp.MustCompile(`^[0-9a-f]{64}$`),
	"ERC20": regexp.MustCompile(`^0x[0-9a-f]{64}$`),
}

// orderJSON is a recharge or exchange order as the client sees it.
type orderJSON struct {
	ID         string `json:"id"`
	OrderNo    string `json:"orderNo"`
	Amount     int64  `json:"amount"`
	Status     int    `json:"status"` // 0 under review, 1 completed, 2 failed
	Remark     string `json:"remark"`
	CreatedAt  int64  `json:"createdAt"`
	ReviewTime int64  `json:"reviewTime"` // 0 until reviewed
	// recharge
	Protocol string `json:"protocol,omitempty"`
	Address  string `json:"address,omitempty"`
	TxHash   string `json:"txHash,omitempty"`
	// exchange
	BankName   string `json:"bankName,omitempty"`
	HolderName string `json:"holderName,omitempty"`
	CardNumber string `json:"cardNumber,omitempty"` // masked, except for operators
	// operator listings
	UserID  string `json:"userId,omitempty"`
	Account string `json:"account,omitempty"`
}

func rechargeJSON(o storage.RechargeOrder) orderJSON {
	return orderJSON{ID: strconv.FormatInt(o.ID, 10), OrderNo: o.OrderNo, Amount: o.Amount, Status: o.Status, Remark: o.Remark,
		CreatedAt: o.CreatedAt, ReviewTime: o.ReviewedAt, Protocol: o.Protocol, Address: o.Address, TxHash: o.TxHash}
}

func exchangeJSON(o storage.ExchangeOrder, fullCard bool) orderJSON {
	card := maskCard(o.CardNumber)
	if fullCard {
		card = o.CardNumber
	}
	return orderJSON{ID: strconv.FormatInt(o.ID, 10), OrderNo: o.OrderNo, Amount: o.Amount, Status: o.Status, Remark: o.Remark,
		CreatedAt: o.CreatedAt, ReviewTime: o.ReviewedAt, BankName: o.BankName, HolderName: o.HolderName, CardNumber: card}
}

func (s *Server) rechargeOrder(c *Call) (any, error) {
	var req struct {
		Amount   json.RawMessage `json:"amount"`
		Protocol string          `json:"protocol"`
		TxHash   string          `json:"txHash"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	amount, err := parseAmount(req.Amount, "amount")
	if err != nil {
		return nil, err
	}
	if amount < s.Config.RechargeMinDeposit {
		return nil, apierr.Fail(apierr.CodeBelowMinDeposit, "wallet.recharge.min", "min", formatCents(s.Config.RechargeMinDeposit))
	}
	protocol := strings.ToUpper(strings.TrimSpace(req.Protocol))
	if protocol == "" {
		return nil, apierr.Required("protocol")
	}
	var chain *chainType
	for _, p := range s.protocols() {
		if p.Protocol == protocol {
			chain = &p
		}
	}
	if chain == nil {
		return nil, apierr.Fail(apierr.CodeProtocolUnknown, "wallet.protocol.unknown")
	}
	hash := strings.ToLower(strings.TrimSpace(req.TxHash))
	if hash == "" {
		return nil, apierr.Required("txHash")
	}
	if !txHashPattern[protocol].MatchString(hash) {
		return nil, apierr.Fail(apierr.CodeTxHashInvalid, "wallet.txhash.invalid", "protocol", protocol)
	}
	id := storage.NewID()
	o := storage.RechargeOrder{ID: id, OrderNo: "R" + strconv.FormatInt(id, 10), UserID: c.User.ID, Amount: amount,
		Protocol: protocol, Address: chain.Address, TxHash: hash, Status: storage.OrderUnderReview, CreatedAt: s.Clock.Now().UnixMilli()}
	err = storage.CreateRechargeOrder(c.Ctx, s.DB, o)
	if errors.Is(err, storage.ErrConflict) {
		// The hash was claimed: a resubmission of the same order answers
		// that order; anything else is a second claim of one deposit.
		prev, lerr := storage.RechargeOrderByTxHash(c.Ctx, s.DB, hash)
		if lerr != nil {
			return nil, lerr
		}
		if prev.UserID == c.User.ID && prev.Amount == amount && prev.Protocol == protocol {
			return rechargeJSON(prev), nil
		}
		return nil, apierr.Fail(apierr.CodeTxHashUsed, "wallet.txhash.used")
	}
	if err != nil {
		return nil, err
	}
	return rechargeJSON(o), nil
}

// maxRequestKey bounds the Idempotency-Key header of /user/exchange.
var requestKeyPattern = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,64}$`)

// errNotPending fails a ledger hook whose order left "under review"
// meanwhile (another operator, or a concurrent request, got there first).
var errNotPending = errors.New("order is no longer under review")

func (s *Server) exchange(c *Call) (any, error) {
	var req struct {
		Amount       json.RawMessage `json:"amount"`
		BankCardID   json.RawMessage `json:"bankCardId"`
		FundPassword string          `json:"fundPassword"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	u := c.User
	cards, err := storage.CountBankCards(c.Ctx, s.DB, u.ID)
	if err != nil {
		return nil, err
	}
	if cards == 0 {
		return nil, apierr.Fail(apierr.CodeNoBankCard, "wallet.no.card")
	}
	amount, err := parseAmount(req.Amount, "amount")
	if err != nil {
		return nil, err
	}
	if amount < s.Config.ExchangeMin {
		return nil, apierr.Fail(apierr.CodeExchangeBelowMin, "wallet.exchange.min", "min", formatCents(s.Config.ExchangeMin))
	}
	if amount > s.Config.ExchangeMax {
		return nil, apierr.Fail(apierr.CodeExchangeAboveMax, "wallet.exchange.max", "max", formatCents(s.Config.ExchangeMax))
	}
	cardID, err := parseID(req.BankCardID, "bankCardId")
	if err != nil {
		return nil, err
	}
	card, err := storage.BankCardOf(c.Ctx, s.DB, u.ID, cardID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, apierr.NotFound()
	}
	if err != nil {
		return nil, err
	}
	if err := s.verifyFundPassword(c.Ctx, u, req.FundPassword); err != nil {
		return nil, err
	}

	// A client may name its request (Idempotency-Key header) so that a
	// retry after a lost reply returns the first order instead of paying
	// twice. Without one, every request is a new exchange.
	id := storage.NewID()
	requestKey := "exchange:" + strconv.FormatInt(id, 10)
	if k := c.R.Header.Get("Idempotency-Key"); k != "" {
		if !requestKeyPattern.MatchString(k) {
			return nil, apierr.Invalid("Idempotency-Key")
		}
		requestKey = "exchange:" + u.IDString() + ":" + k
		if prev, ok, err := s.previousExchange(c.Ctx, requestKey, amount, cardID); ok || err != nil {
			return prev, err
		}
	}
	o := storage.ExchangeOrder{ID: id, OrderNo: "E" + strconv.FormatInt(id, 10), UserID: u.ID, Amount: amount,
		BankCardID: card.ID, BankName: card.BankName, HolderName: card.HolderName, CardNumber: card.CardNumber,
		Status: storage.OrderUnderReview, RequestKey: requestKey, CreatedAt: s.Clock.Now().UnixMilli()}
	err = s.submit(c.Ctx, ledger.Op{
		Transfers: []ledger.Transfer{{Debit: ledger.Wallet(u.ID), Credit: ledger.WithdrawalPending, Amount: amount,
			Kind: storage.KindExchange, Ref: o.OrderNo, IdempotencyKey: requestKey}},
		Hook: func(ctx context.Context, tx storage.Tx) error { return storage.CreateExchangeOrder(ctx, tx, o) },
	})
	if errors.Is(err, ledger.ErrKeyReused) || errors.Is(err, storage.ErrConflict) {
		// A concurrent request with the same key won the race.
		if prev, ok, lerr := s.previousExchange(c.Ctx, requestKey, amount, cardID); ok || lerr != nil {
			return prev, lerr
		}
		return nil, apierr.Fail(apierr.CodeRequestKeyReused, "request.key.reused")
	}
	if err != nil {
		return nil, err
	}
	stored, err := storage.ExchangeOrderByRequestKey(c.Ctx, s.DB, requestKey)
	if err != nil {
		return nil, err
	}
	return exchangeJSON(stored, false), nil
}

// previousExchange answers a request whose key created an order before: the
// same order when the request is the same, CodeRequestKeyReused otherwise.
func (s *Server) previousExchange(ctx context.Context, key string, amount, cardID int64) (any, bool, error) {
	prev, err := storage.ExchangeOrderByRequestKey(ctx, s.DB, key)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if prev.Amount != amount || prev.BankCardID != cardID {
		return nil, true, apierr.Fail(apierr.CodeRequestKeyReused, "request.key.reused")
	}
	return exchangeJSON(prev, false), true, nil
}

// submit hands an operation to the ledger writer and turns its refusals
// into the client's errors.
func (s *Server) submit(ctx context.Context, op ledger.Op) error {
	if s.Ledger == nil {
		return errors.New("httpapi: no ledger writer configured")
	}
	_, err := s.Ledger.SubmitOp(ctx, op)
	if errors.Is(err, ledger.ErrInsufficientBalance) {
		return apierr.Fail(apierr.CodeInsufficientBalance, "wallet.insufficient")
	}
	return err
}

// listRequest is the body of the records screens.
type listRequest struct {
	Tab      string `json:"tab"`
	Days     *int   `json:"days"` // 0 today, 7, 15, 30; absent: all time
	Page     int    `json:"page"`
	PageSize int    `json:"pageSize"`
}

// window turns days and paging into a start time, limit and offset.
func (s *Server) window(r listRequest) (since int64, limit, offset int, err error) {
	if r.Days != nil {
		now := s.Clock.Now().In(time.Local)
		switch *r.Days {
		case 0: // today, from local midnight
			y, m, d := now.Date()
			since = time.Date(y, m, d, 0, 0, 0, 0, time.Local).UnixMilli()
		case 7, 15, 30:
			since = now.Add(-time.Duration(*r.Days) * 24 * time.Hour).UnixMilli()
		default:
			return 0, 0, 0, apierr.Invalid("days")
		}
	}
	limit, offset, err = paging(r.Page, r.PageSize)
	return since, limit, offset, err
}

// paging validates page (from 1) and pageSize (1-100, default 20).
func paging(page, size int) (limit, offset int, err error) {
	if page == 0 {
		page = 1
	}
	if size == 0 {
		size = 20
	}
	if page < 1 || page > 100_000 {
		return 0, 0, apierr.Invalid("page")
	}
	if size < 1 || size > 100 {
		return 0, 0, apierr.Invalid("pageSize")
	}
	return size, (page - 1) * size, nil
}

type listReply struct {
	List     any `json:"list"`
	Total    int `json:"total"`
	Page     int `json:"page"`
	PageSize int `json:"pageSize"`
}

func replyList(list any, total, limit, offset int) listReply {
	return listReply{List: list, Total: total, Page: offset/limit + 1, PageSize: limit}
}

// pointsRecord is one line of the points details screen.
type pointsRecord struct {
	ID      string `json:"id"`
	Type    string `json:"type"`   // recharge, exchange, exchange_refund, bet, win ...
	Amount  int64  `json:"amount"` // signed cents: income > 0, expenditure < 0
	State   int    `json:"state"`  // 0 under review, 1 completed, 2 failed
	OrderNo string `json:"orderNo"`
	Time    int64  `json:"time"`
}

func (s *Server) pointsRecords(c *Call) (any, error) {
	flows := map[string]int{"": storage.FlowAll, "all": storage.FlowAll, "income": storage.FlowIncome, "expenditure": storage.FlowExpenditure}
	return recordsPage(s, c, flows, storage.PointsRecords, func(r storage.PointsRecord) pointsRecord {
		return pointsRecord{ID: strconv.FormatInt(r.ID, 10), Type: r.Type, Amount: r.Amount, State: r.State, OrderNo: r.OrderNo, Time: r.Time}
	})
}

func (s *Server) exchangeRecords(c *Call) (any, error) {
	statuses := map[string]int{"": -1, "all": -1, "review": storage.OrderUnderReview, "success": storage.OrderCompleted, "failed": storage.OrderFailed}
	return recordsPage(s, c, statuses, storage.UserExchangeOrders, func(o storage.ExchangeOrder) orderJSON {
		return exchangeJSON(o, false)
	})
}

// recordsPage answers a page of one of the user's records screens: the
// request's tab picks the filter find is asked with (tabs lists the tabs
// the screen has), within the request's window of days.
func recordsPage[R, V any](s *Server, c *Call, tabs map[string]int,
	find func(ctx context.Context, q storage.Querier, userID int64, filter int, since int64, limit, offset int) ([]R, int, error),
	view func(R) V) (any, error) {
	var req listRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	filter, ok := tabs[req.Tab]
	if !ok {
		return nil, apierr.Invalid("tab")
	}
	since, limit, offset, err := s.window(req)
	if err != nil {
		return nil, err
	}
	recs, total, err := find(c.Ctx, s.DB, c.User.ID, filter, since, limit, offset)
	if err != nil {
		return nil, err
	}
	return replyList(contentMap(recs, view), total, limit, offset), nil
}

// parseAmount reads an amount in cents from its raw JSON: a positive whole
// number. Strings and other types are a type error; a fraction, an
// exponent, a sign, zero, or more than the ledger takes are refused with
// their own message.
func parseAmount(raw json.RawMessage, field string) (int64, error) {
	v := strings.TrimSpace(string(raw))
	if v == "" || v == "null" {
		return 0, apierr.Required(field)
	}
	if c := v[0]; c != '-' && (c < '0' || c > '9') {
		return 0, apierr.Fail(apierr.CodeBadRequest, "bad.field.type", "field", field)
	}
	if v[0] == '-' || strings.ContainsAny(v, ".eE") {
		return 0, apierr.Fail(apierr.CodeAmountInvalid, "wallet.amount.invalid", "field", field)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return 0, apierr.Fail(apierr.CodeAmountTooLarge, "wallet.amount.too.large", "field", field)
		}
		return 0, apierr.Fail(apierr.CodeBadRequest, "bad.field.type", "field", field)
	}
	if n == 0 {
		return 0, apierr.Fail(apierr.CodeAmountInvalid, "wallet.amount.invalid", "field", field)
	}
	if n > storage.MaxAmount {
		return 0, apierr.Fail(apierr.CodeAmountTooLarge, "wallet.amount.too.large", "field", field)
	}
	return n, nil
}

// parseID reads an id given as a JSON number or a string of digits (ids
// pass 2^53, so the API writes them as strings).
func parseID(raw json.RawMessage, field string) (int64, error) {
	v := strings.TrimSpace(string(raw))
	if v == "" || v == "null" || v == `""` {
		return 0, apierr.Required(field)
	}
	v = strings.Trim(v, `"`)
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, apierr.Invalid(field)
	}
	return n, nil
}

// formatCents writes cents as points with two decimals, for messages.
func formatCents(n int64) string {
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	}
	return fmt.Sprintf("%s%d.%02d", sign, n/100, n%100)
}

// maskCard shows the last four digits of a card number.
func maskCard(n string) string {
	if len(n) <= 4 {
		return n
	}
	return strings.Repeat("*", len(n)-4) + n[len(n)-4:]
}
