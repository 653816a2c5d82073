package httpapi

// Player protection (/api/protection/..., /api/admin/protection/...): the
// responsible-play page's limits, reality check and exclusions, and the
// operators' lists of exclusions and held recharges. The rules are
// kj/protection's; the bet routes ask it before placing (protectedBet),
// the wallet before taking and crediting a recharge (walletDeposits).
// Codes 1600-1699 (internal/apierr).

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"kj/internal/apierr"
	"kj/protection"
	"kj/storage"
	"kj/wallet"
)

func init() {
	registerArea(func(s *Server) {
		s.protect = protection.New(s.DB, s.Clock, s.Config.DayZone, s.Bus)
		if s.Wallet != nil && s.Wallet.Deposits == nil {
			s.Wallet.Deposits = walletDeposits{s.protect}
		}
		s.Post("/protection/status", User, s.protectionStatus)
		s.Post("/protection/limit", User, s.protectionLimit)
		s.Post("/protection/reality", User, s.protectionReality)
		s.Post("/protection/exclude", User, s.protectionExclude)
		s.Post("/admin/protection/exclusions", Operator, s.adminExclusions)
		s.Post("/admin/protection/holds", Operator, s.adminHolds)
		s.Post("/admin/protection/holds/release", Operator, s.adminHoldRelease)
	})
}

// ProtectedBet runs place (which places a bet, or a slip's bets) for
// userID's total stake once player protection allows it: a player in a
// cool-off or a self-exclusion, or whose loss limit the stake would pass,
// is refused with the translated reason (codes 1600-1602) and place is
// not run. The check is answered from the node's memory.
//
// betIDs are the ids the bet or slip is stored under: a resend of one
// already placed (its answer was lost on the way) is answered with what
// was placed, as it would be without a limit, even when the stake the
// first copy added now keeps a second one out. That costs a store read on
// the refusal path only.
func (s *Server) ProtectedBet(ctx context.Context, userID, stake int64, betIDs []string, place func() error) error {
	err := s.protect.Bet(ctx, userID, stake, place)
	if pe := protectionError(err); pe != nil {
		var le *protection.LimitError
		var xe *protection.ExcludedError
		if (errors.As(err, &le) || errors.As(err, &xe)) && s.alreadyPlaced(ctx, userID, betIDs) {
			return place()
		}
		return pe
	}
	return err
}

// alreadyPlaced reports whether the user has a bet stored under one of
// betIDs (the desk then answers a resend from the store, debiting nothing).
func (s *Server) alreadyPlaced(ctx context.Context, userID int64, betIDs []string) bool {
	if len(betIDs) == 0 {
		return false
	}
	bets, err := storage.BetsByBetIDs(ctx, s.DB, betIDs)
	if err != nil {
		return false
	}
	for _, b := range bets {
		if b.UserID == userID {
			return true
		}
	}
	return false
}

// protectionStatusReq: since is the play session's start (unix ms) for
// the reality check's net result; 0 for none.
type protectionStatusReq struct {
	Since int64 `json:"since"`
}

func (s *Server) protectionStatus(c *Call) (any, error) {
	var req protectionStatusReq
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.Since < 0 {
		return nil, apierr.Invalid("since")
	}
	return s.protect.Status(c.Ctx, c.User.ID, req.Since)
}

type protectionLimitReq struct {
	Kind   string          `json:"kind"`   // deposit, loss
	Period string          `json:"period"` // day, week, month
	Amount json.RawMessage `json:"amount"` // cents; 0: no limit
}

func (s *Server) protectionLimit(c *Call) (any, error) {
	var req protectionLimitReq
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if len(req.Amount) == 0 || string(req.Amount) == "null" {
		return nil, apierr.Required("amount")
	}
	amount, err := parseCents(req.Amount)
	if err != nil {
		return nil, limitInvalid()
	}
	l, err := s.protect.SetLimit(c.Ctx, c.User.ID, req.Kind, req.Period, amount)
	if pe := protectionError(err); pe != nil {
		return nil, pe
	}
	return l, err
}

func limitInvalid() error {
	return apierr.Fail(apierr.CodeLimitInvalid, "protection.limit.invalid", "max", wallet.FormatCents(storage.MaxAmount))
}

type protectionRealityReq struct {
	Minutes *int `json:"minutes"` // 0: off
}

func (s *Server) protectionReality(c *Call) (any, error) {
	var req protectionRealityReq
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.Minutes == nil {
		return nil, apierr.Required("minutes")
	}
	if err := s.protect.SetReality(c.Ctx, c.User.ID, *req.Minutes); err != nil {
		if pe := protectionError(err); pe != nil {
			return nil, pe
		}
		return nil, err
	}
	return map[string]int{"realityMinutes": *req.Minutes}, nil
}

type protectionExcludeReq struct {
	Kind      string `json:"kind"`   // cooloff, selfexclusion
	Days      int    `json:"days"`   // a cool-off's length
	Months    int    `json:"months"` // a self-exclusion's length, unless permanent
	Permanent bool   `json:"permanent"`
}

func (s *Server) protectionExclude(c *Call) (any, error) {
	var req protectionExcludeReq
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.Kind == "" {
		return nil, apierr.Required("kind")
	}
	e, err := s.protect.Exclude(c.Ctx, c.User.ID, protection.ExclusionRequest{Kind: req.Kind, Days: req.Days,
		Months: req.Months, Permanent: req.Permanent})
	if pe := protectionError(err); pe != nil {
		return nil, pe
	}
	return e, err
}

// protectionTime writes a moment as players read it: in KJ_DAY_TIMEZONE,
// with its offset, to the minute.
func protectionTime(t time.Time) string {
	return t.Format("2006-01-02 15:04") + " (UTC" + t.Format("-07:00") + ")"
}

// protectionError turns player protection's errors into the client's
// codes and translated messages; nil for any other error (nil too).
func protectionError(err error) error {
	if err == nil {
		return nil
	}
	var (
		le *protection.LimitError
		xe *protection.ExcludedError
		re *protection.RangeError
		se *protection.ShorterError
		he *protection.HeldError
	)
	switch {
	case errors.As(err, &le):
		limit, resets := wallet.FormatCents(le.Limit), protectionTime(le.ResetsAt)
		switch le.Period {
		case protection.Week:
			return apierr.Fail(apierr.CodeLossLimit, "protection.loss.week", "limit", limit, "resets", resets)
		case protection.Month:
			return apierr.Fail(apierr.CodeLossLimit, "protection.loss.month", "limit", limit, "resets", resets)
		}
		return apierr.Fail(apierr.CodeLossLimit, "protection.loss.day", "limit", limit, "resets", resets)
	case errors.As(err, &xe):
		switch {
		case xe.Kind == protection.CoolOff:
			return apierr.Fail(apierr.CodeCoolingOff, "protection.cooloff", "until", protectionTime(xe.Until))
		case xe.Permanent():
			return apierr.Fail(apierr.CodeSelfExcluded, "protection.excluded.permanent")
		}
		return apierr.Fail(apierr.CodeSelfExcluded, "protection.excluded", "until", protectionTime(xe.Until))
	case errors.As(err, &re):
		if re.Kind == protection.CoolOff {
			return apierr.Fail(apierr.CodeExclusionRange, "protection.cooloff.range")
		}
		return apierr.Fail(apierr.CodeExclusionRange, "protection.selfexclusion.range")
	case errors.As(err, &se):
		if se.Until.IsZero() {
			return apierr.Fail(apierr.CodeExclusionShorter, "protection.exclusion.shorter.permanent")
		}
		return apierr.Fail(apierr.CodeExclusionShorter, "protection.exclusion.shorter", "until", protectionTime(se.Until))
	case errors.As(err, &he):
		return heldError(he)
	case errors.Is(err, protection.ErrBadKind):
		return apierr.Invalid("kind")
	case errors.Is(err, protection.ErrBadPeriod):
		return apierr.Invalid("period")
	case errors.Is(err, protection.ErrBadExclusion):
		return apierr.Invalid("kind")
	case errors.Is(err, protection.ErrBadAmount):
		return limitInvalid()
	case errors.Is(err, protection.ErrBadReality):
		return apierr.Fail(apierr.CodeRealityInvalid, "protection.reality.invalid")
	}
	return nil
}

// heldError says why a recharge is held, and until when.
func heldError(h *protection.HeldError) *apierr.Error {
	limit, until := wallet.FormatCents(h.Limit), ""
	if !h.Until.IsZero() {
		until = protectionTime(h.Until)
	}
	switch h.Reason {
	case protection.Deposit + "." + protection.Day:
		return apierr.Fail(apierr.CodeRechargeHeld, "protection.held.deposit.day", "limit", limit, "until", until)
	case protection.Deposit + "." + protection.Week:
		return apierr.Fail(apierr.CodeRechargeHeld, "protection.held.deposit.week", "limit", limit, "until", until)
	case protection.Deposit + "." + protection.Month:
		return apierr.Fail(apierr.CodeRechargeHeld, "protection.held.deposit.month", "limit", limit, "until", until)
	case protection.CoolOff:
		return apierr.Fail(apierr.CodeRechargeHeld, "protection.held.cooloff", "until", until)
	}
	return apierr.Fail(apierr.CodeRechargeHeld, "protection.held.selfexclusion")
}

// walletDeposits is player protection as the wallet asks it, its refusals
// in the client's codes.
type walletDeposits struct{ p *protection.Service }

func (d walletDeposits) Placing(ctx context.Context, userID int64) error {
	err := d.p.Placing(ctx, userID)
	var xe *protection.ExcludedError
	if errors.As(err, &xe) {
		return protectionError(err)
	}
	return err
}

func (d walletDeposits) Placed(ctx context.Context, tx storage.Tx, o storage.RechargeOrder) error {
	return d.p.Placed(ctx, tx, o)
}

func (d walletDeposits) Crediting(ctx context.Context, o storage.RechargeOrder) error {
	err := d.p.Crediting(ctx, o)
	var he *protection.HeldError
	if errors.As(err, &he) {
		return heldError(he)
	}
	return err
}

func (d walletDeposits) Held(err error) bool { return d.p.Held(err) }

// rechargeHeldJSON is a recharge order as its player sees it after
// placing it: held (not credited) by their deposit limit, with the
// reason in their language.
type rechargeHeldJSON struct {
	orderJSON
	Held        bool   `json:"held"`
	HeldMessage string `json:"heldMessage,omitempty"`
}

// rechargeView shows a new recharge order with its hold, if any.
func (s *Server) rechargeView(c *Call, o storage.RechargeOrder) (any, error) {
	out := rechargeHeldJSON{orderJSON: rechargeJSON(o)}
	h, err := s.protect.HoldOf(c.Ctx, o.ID)
	if err != nil || h == nil {
		return out, err
	}
	out.Held = true
	e := heldError(s.heldOf(*h))
	out.HeldMessage = apierr.Translate(c.Lang, e.Key, e.Args)
	return out, nil
}

// heldOf is a stored hold as the error that explains it.
func (s *Server) heldOf(h storage.ProtectionHold) *protection.HeldError {
	out := &protection.HeldError{Reason: h.Reason}
	if h.UntilAt > 0 {
		out.Until = time.UnixMilli(h.UntilAt).In(s.protect.Zone)
	}
	if kind, period, ok := strings.Cut(h.Reason, "."); ok && kind == protection.Deposit {
		// The limit as it stands (the one that held the order may have
		// been lowered since; the message names the one in force).
		if st, err := s.protect.Status(context.Background(), h.UserID, 0); err == nil {
			for _, l := range st.Limits {
				if l.Kind == kind && l.Period == period {
					out.Limit = l.Amount
				}
			}
		}
	}
	return out
}

// Operators' lists.

type exclusionListReq struct {
	Current  *bool  `json:"current"` // default true: only those in force
	Account  string `json:"account"` // exact; empty: every player
	Page     int    `json:"page"`
	PageSize int    `json:"pageSize"`
}

type exclusionJSON struct {
	ID        string `json:"id"`
	UserID    string `json:"userId"`
	Account   string `json:"account"`
	Kind      string `json:"kind"`
	StartsAt  int64  `json:"startsAt"`
	EndsAt    int64  `json:"endsAt"` // 0: permanent
	InForce   bool   `json:"inForce"`
	CreatedAt int64  `json:"createdAt"`
}

func (s *Server) adminExclusions(c *Call) (any, error) {
	var req exclusionListReq
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	current := req.Current == nil || *req.Current
	if req.Account = strings.TrimSpace(req.Account); len(req.Account) > 64 {
		return nil, apierr.Invalid("account")
	}
	limit, offset, err := paging(req.Page, req.PageSize)
	if err != nil {
		return nil, err
	}
	now := s.Clock.Now().UnixMilli()
	list, total, err := storage.ProtectionExclusionsFind(c.Ctx, s.DB, current, now, req.Account, limit, offset)
	if err != nil {
		return nil, err
	}
	out := make([]exclusionJSON, len(list))
	for i, e := range list {
		out[i] = exclusionJSON{ID: strconv.FormatInt(e.ID, 10), UserID: strconv.FormatInt(e.UserID, 10), Account: e.Account,
			Kind: e.Kind, StartsAt: e.StartsAt, EndsAt: e.EndsAt, CreatedAt: e.CreatedAt,
			InForce: e.StartsAt <= now && (e.EndsAt == 0 || e.EndsAt > now)}
	}
	return replyList(out, total, limit, offset), nil
}

type holdJSON struct {
	OrderID   string `json:"orderId"`
	OrderNo   string `json:"orderNo"`
	UserID    string `json:"userId"`
	Account   string `json:"account"`
	Amount    int64  `json:"amount"`
	Reason    string `json:"reason"`  // deposit.day, deposit.week, deposit.month, cooloff, selfexclusion
	Until     int64  `json:"until"`   // when the limit allows it at the earliest; 0: an operator decides
	Message   string `json:"message"` // the reason in the operator's language
	CreatedAt int64  `json:"createdAt"`
}

func (s *Server) adminHolds(c *Call) (any, error) {
	var req struct {
		Page     int `json:"page"`
		PageSize int `json:"pageSize"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	limit, offset, err := paging(req.Page, req.PageSize)
	if err != nil {
		return nil, err
	}
	list, total, err := storage.ProtectionHoldsOpen(c.Ctx, s.DB, limit, offset)
	if err != nil {
		return nil, err
	}
	out := make([]holdJSON, len(list))
	for i, h := range list {
		e := heldError(s.heldOf(h))
		out[i] = holdJSON{OrderID: strconv.FormatInt(h.OrderID, 10), OrderNo: h.OrderNo, UserID: strconv.FormatInt(h.UserID, 10),
			Account: h.Account, Amount: h.Amount, Reason: h.Reason, Until: h.UntilAt, CreatedAt: h.CreatedAt,
			Message: apierr.Translate(c.Lang, e.Key, e.Args)}
	}
	return replyList(out, total, limit, offset), nil
}

// adminHoldRelease is an operator's decision to let a held recharge be
// credited despite the player's limit or exclusion (audited as
// recharge.release). Crediting it stays the review queue's confirm.
func (s *Server) adminHoldRelease(c *Call) (any, error) {
	var req struct {
		OrderID json.RawMessage `json:"orderId"`
		Remark  string          `json:"remark"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	id, err := wallet.ParseID(req.OrderID, "orderId")
	if err != nil {
		return nil, err
	}
	if req.Remark = strings.TrimSpace(req.Remark); len([]rune(req.Remark)) > 200 {
		return nil, apierr.Invalid("remark")
	}
	h, err := storage.ProtectionHoldOf(c.Ctx, s.DB, id)
	if errors.Is(err, storage.ErrNotFound) || (err == nil && h.ReleasedAt != 0) {
		return nil, apierr.NotFound()
	}
	if err != nil {
		return nil, err
	}
	err = s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		released, err := s.protect.Release(c.Ctx, tx, id, c.User.ID)
		if err != nil {
			return err
		}
		if !released {
			return apierr.NotFound() // released meanwhile
		}
		return RecordOperatorAction(c, tx, "recharge.release", id, auditChange{
			Before: map[string]any{"held": true, "reason": h.Reason, "until": h.UntilAt},
			After:  map[string]any{"held": false}, Remark: req.Remark})
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"orderId": strconv.FormatInt(id, 10), "released": true}, nil
}
