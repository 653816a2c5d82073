package httpapi

// The operator console's routes beyond the areas' own (/api/admin/...):
// who is signed in, operator management, the dashboard's figures, a user's
// detail, freezing sign-in, resetting a fund password, one round's bets and
// handing a customer-service conversation to another agent. Which operator
// role may call which /api/admin route is the table in roles.go.

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"kj/actors/window"
	"kj/auth"
	"kj/customer"
	"kj/internal/apierr"
	"kj/storage"
)

func init() {
	registerArea(func(s *Server) {
		s.Post("/admin/me", Operator, s.adminMe)
		s.Post("/admin/operators/list", Operator, s.adminOperatorList)
		s.Post("/admin/operators/create", Operator, s.adminOperatorCreate)
		s.Post("/admin/operators/role", Operator, s.adminOperatorRole)
		s.Post("/admin/operators/disable", Operator, s.adminOperatorDisable)
		s.Post("/admin/operators/resetPassword", Operator, s.adminOperatorResetPassword)
		s.Post("/admin/dashboard", Operator, s.adminDashboard)
		s.Post("/admin/user/detail", Operator, s.adminUserDetail)
		s.Post("/admin/user/freeze", Operator, s.adminUserFreeze)
		s.Post("/admin/user/resetFundPassword", Operator, s.adminUserResetFundPassword)
		s.Post("/admin/round/bets", Operator, s.adminRoundBets)
		s.Post("/admin/customer/agents", Operator, s.adminCustomerAgents)
		s.Post("/admin/customer/handover", Operator, s.adminCustomerHandover)
	})
}

// operatorRoleOf is the role of the calling operator, read per call so a
// role change applies at once.
func (s *Server) operatorRoleOf(c *Call) (string, error) {
	role, err := storage.OperatorRole(c.Ctx, s.DB, c.User.ID)
	if errors.Is(err, storage.ErrNotFound) {
		return "", apierr.Fail(apierr.CodeTokenExpired, "token.expired")
	}
	return role, err
}

type adminMeView struct {
	UserID   string `json:"userId"`
	Account  string `json:"account"`
	NickName string `json:"nickName"`
	Role     string `json:"role"`
}

func (s *Server) adminMe(c *Call) (any, error) {
	role, err := s.operatorRoleOf(c)
	if err != nil {
		return nil, err
	}
	return adminMeView{UserID: c.User.IDString(), Account: c.User.Account, NickName: c.User.Nickname, Role: role}, nil
}

// ---- operators ----

type operatorView struct {
	UserID      string `json:"userId"`
	Account     string `json:"account"`
	NickName    string `json:"nickName"`
	Role        string `json:"role"`
	CreatedAt   int64  `json:"createdAt"`
	LastLoginAt int64  `json:"lastLoginAt"`
	DisabledAt  int64  `json:"disabledAt"` // unix ms; 0: can sign in
}

func operatorViews(list []storage.OperatorRow) []operatorView {
	out := make([]operatorView, 0, len(list))
	for _, o := range list {
		out = append(out, operatorView{UserID: strconv.FormatInt(o.ID, 10), Account: o.Account, NickName: o.Nickname,
			Role: o.Role, CreatedAt: o.CreatedAt, LastLoginAt: o.LastLoginAt})
	}
	return out
}

func (s *Server) adminOperatorList(c *Call) (any, error) {
	return s.operatorList(c)
}

// operatorList is every operator with whether they are disabled.
func (s *Server) operatorList(c *Call) ([]operatorView, error) {
	list, err := storage.ListOperators(c.Ctx, s.DB)
	if err != nil {
		return nil, err
	}
	disabled, err := storage.DisabledOperators(c.Ctx, s.DB)
	out := operatorViews(list)
	for i := range out {
		out[i].DisabledAt = disabled[list[i].ID]
	}
	return out, err
}

// operatorTarget reads the operator another admin acts on: an operator
// other than the caller (an admin cannot lock themselves out).
func operatorTarget(c *Call, tx storage.Tx, id int64) (role string, err error) {
	if id == 0 {
		return "", apierr.Required("userId")
	}
	if id == c.User.ID {
		return "", apierr.Fail(apierr.CodeBadRequest, "operator.self")
	}
	role, err = storage.OperatorRole(c.Ctx, tx, id)
	if errors.Is(err, storage.ErrNotFound) {
		return "", apierr.Fail(apierr.CodeAccountUnknown, "account.unknown")
	}
	if err == nil && role == "" {
		return "", apierr.Invalid("userId") // a player: freeze them from their page
	}
	return role, err
}

// adminOperatorDisable disables (disabled 1) or enables (disabled 0) an
// operator's sign-in. Disabling ends every session of theirs at once; their
// sign-in is refused (account.frozen) until enabled. An admin cannot disable
// themselves, nor the last admin who can still sign in.
func (s *Server) adminOperatorDisable(c *Call) (any, error) {
	var req struct {
		UserID   UserIDParam `json:"userId"`
		Disabled *int        `json:"disabled"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.Disabled == nil {
		return nil, apierr.Required("disabled")
	}
	if *req.Disabled != 0 && *req.Disabled != 1 {
		return nil, apierr.Invalid("disabled")
	}
	disable := *req.Disabled == 1
	id := int64(req.UserID)
	now := s.Clock.Now().UnixMilli()
	at, action := int64(0), "operator.enable"
	if disable {
		at, action = now, "operator.disable"
	}
	var ended []int64
	err := s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		role, err := operatorTarget(c, tx, id)
		if err != nil {
			return err
		}
		if disable && role == storage.OperatorAdmin {
			if n, err := storage.EnabledAdmins(c.Ctx, tx, id); err != nil {
				return err
			} else if n == 0 {
				return apierr.Fail(apierr.CodeBadRequest, "operator.last.admin")
			}
		}
		ended, err = setFrozenAudited(c, tx, id, at, now, action, "")
		return err
	})
	if err != nil {
		return nil, err
	}
	s.Sessions.Announce(c.Ctx, id, auth.ReasonSignedOut, ended...)
	return s.operatorList(c)
}

// adminOperatorResetPassword sets a new sign-in password for another
// operator (by the rules of /register) and ends their sessions, so they
// sign in again with it. The audit row never holds the password.
func (s *Server) adminOperatorResetPassword(c *Call) (any, error) {
	var req struct {
		UserID   UserIDParam `json:"userId"`
		Password string      `json:"password"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.Password == "" {
		return nil, apierr.Required("password")
	}
	if err := ValidatePassword("password", req.Password); err != nil {
		return nil, err
	}
	hash, err := auth.HashPassword(req.Password)
	if err != nil {
		return nil, err
	}
	id := int64(req.UserID)
	var ended []int64
	err = s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		if _, err := operatorTarget(c, tx, id); err != nil {
			return err
		}
		if err := storage.SetPasswordHash(c.Ctx, tx, id, hash, s.Clock.Now().UnixMilli()); err != nil {
			return err
		}
		if ended, err = storage.EndUserSessions(c.Ctx, tx, id, 0, storage.SessionSignedOut); err != nil {
			return err
		}
		return RecordOperatorAction(c, tx, "operator.password.reset", id, auditChange{Before: map[string]bool{"passwordChanged": false},
			After: map[string]any{"passwordChanged": true, "sessionsEnded": len(ended)}})
	})
	if err != nil {
		return nil, err
	}
	s.Sessions.Announce(c.Ctx, id, auth.ReasonSignedOut, ended...)
	return s.operatorList(c)
}

func checkRole(role string) error {
	if role != storage.OperatorAdmin && role != storage.OperatorAgent {
		return apierr.Invalid("role")
	}
	return nil
}

// operatorState is an operator's account as the audit log shows it.
type operatorState struct {
	Account string `json:"account,omitempty"`
	Role    string `json:"role"`
}

// ErrOperatorExists refuses an operator account name that is taken.
var ErrOperatorExists = errors.New("account already exists")

// CreateOperator makes an operator account with a role (activated, its own
// invite code), checking the account and password by the rules of
// /register, and records the audit row of by (an operator, or
// CommandLineActor) in the same transaction. An existing account is never
// overwritten.
func CreateOperator(ctx context.Context, db storage.DB, now time.Time, account, password, role string, by AuditActor) (storage.User, error) {
	if err := ValidateAccount(account); err != nil {
		return storage.User{}, err
	}
	if err := ValidatePassword("password", password); err != nil {
		return storage.User{}, err
	}
	if err := checkRole(role); err != nil {
		return storage.User{}, err
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return storage.User{}, err
	}
	u := storage.User{ID: storage.NewID(), Account: account, PasswordHash: hash, Nickname: account,
		IsActivation: 1, IsOperator: 1, CreatedAt: now.UnixMilli(), UpdatedAt: now.UnixMilli()}
	err = createAccount(ctx, db, &u, ErrOperatorExists, nil, func(tx storage.Tx) error {
		if err := storage.SetOperatorRole(ctx, tx, u.ID, role, now.UnixMilli()); err != nil {
			return err
		}
		return recordAudit(ctx, tx, by, "operator.create", u.ID, auditChange{After: operatorState{Account: account, Role: role}}, now.UnixMilli())
	})
	return u, err
}

func (s *Server) adminOperatorCreate(c *Call) (any, error) {
	var req struct {
		Account  string `json:"account"`
		Password string `json:"password"`
		Role     string `json:"role"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.Account == "" {
		return nil, apierr.Required("account")
	}
	if req.Password == "" {
		return nil, apierr.Required("password")
	}
	if req.Role == "" {
		return nil, apierr.Required("role")
	}
	u, err := CreateOperator(c.Ctx, s.DB, s.Clock.Now(), strings.TrimSpace(req.Account), req.Password, req.Role, c.operatorActor())
	if errors.Is(err, ErrOperatorExists) {
		return nil, apierr.Fail(apierr.CodeAccountExists, "account.exists")
	}
	if err != nil {
		return nil, err
	}
	return operatorView{UserID: u.IDString(), Account: u.Account, NickName: u.Nickname, Role: req.Role, CreatedAt: u.CreatedAt}, nil
}

func (s *Server) adminOperatorRole(c *Call) (any, error) {
	var req struct {
		UserID UserIDParam `json:"userId"`
		Role   string      `json:"role"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.UserID == 0 {
		return nil, apierr.Required("userId")
	}
	if err := checkRole(req.Role); err != nil {
		return nil, err
	}
	id := int64(req.UserID)
	if id == c.User.ID {
		// An admin demoting themselves could leave nobody to manage operators.
		return nil, apierr.Invalid("userId")
	}
	err := s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		old, err := storage.OperatorRole(c.Ctx, tx, id)
		if err != nil {
			return err
		}
		if old == "" {
			return apierr.Invalid("userId") // players become operators only through create
		}
		if err := storage.SetOperatorRole(c.Ctx, tx, id, req.Role, s.Clock.Now().UnixMilli()); err != nil {
			return err
		}
		return RecordOperatorAction(c, tx, "operator.role", id, auditChange{Before: operatorState{Role: old}, After: operatorState{Role: req.Role}})
	})
	if errors.Is(err, storage.ErrNotFound) {
		return nil, apierr.Fail(apierr.CodeAccountUnknown, "account.unknown")
	}
	if err != nil {
		return nil, err
	}
	list, err := storage.ListOperators(c.Ctx, s.DB)
	return operatorViews(list), err
}

// ---- dashboard ----

type dayFiguresView struct {
	Day           string `json:"day"` // yyyy-mm-dd in KJ_DAY_TIMEZONE
	Registrations int64  `json:"registrations"`
	ActiveUsers   int64  `json:"activeUsers"`
	RechargeCount int64  `json:"rechargeCount"`
	RechargeTotal int64  `json:"rechargeTotal"`
	ExchangeCount int64  `json:"exchangeCount"`
	ExchangeTotal int64  `json:"exchangeTotal"`
}

type windowFiguresView struct {
	WindowID    int64 `json:"windowId"`
	Bets        int64 `json:"bets"`
	Staked      int64 `json:"staked"`
	PaidOut     int64 `json:"paidOut"`
	HouseResult int64 `json:"houseResult"`
}

type dashboardView struct {
	From             string              `json:"from"`
	To               string              `json:"to"`
	Days             []dayFiguresView    `json:"days"`
	WindowsToday     []windowFiguresView `json:"windowsToday"`
	WindowsWeek      []windowFiguresView `json:"windowsWeek"`
	ChatSockets      int64               `json:"chatSockets"`
	CustomerSockets  int64               `json:"customerSockets"`
	PendingRecharges int64               `json:"pendingRecharges"`
	PendingExchanges int64               `json:"pendingExchanges"`
	// UnclaimedEnquiries: customer-service enquiries waiting longer than
	// KJ_CUSTOMER_UNCLAIMED_AFTER for an answer.
	UnclaimedEnquiries int `json:"unclaimedEnquiries"`
}

// decodeDays reads the {"days": n} of the operators' figure screens: absent
// or 0 means the last 7 days, otherwise 1 to max.
func decodeDays(c *Call, max int) (int, error) {
	var req struct {
		Days int `json:"days"`
	}
	if err := c.Decode(&req); err != nil {
		return 0, err
	}
	if req.Days == 0 {
		return 7, nil
	}
	if req.Days < 1 || req.Days > max {
		return 0, apierr.Invalid("days")
	}
	return req.Days, nil
}

// adminDashboard answers the figures of the last `days` days (1-31,
// default 7) up to today, days starting at midnight in KJ_DAY_TIMEZONE; the
// windows' figures are today's and the whole range's.
func (s *Server) adminDashboard(c *Call) (any, error) {
	days, err := decodeDays(c, 31)
	if err != nil {
		return nil, err
	}
	_, tomorrow := s.contentDay(s.Clock.Now())
	out := dashboardView{Days: make([]dayFiguresView, 0, days)}
	for i := days - 1; i >= 0; i-- {
		start, end := tomorrow.AddDate(0, 0, -i-1), tomorrow.AddDate(0, 0, -i)
		f, err := storage.DayFiguresBetween(c.Ctx, s.DB, start.UnixMilli(), end.UnixMilli())
		if err != nil {
			return nil, err
		}
		out.Days = append(out.Days, dayFiguresView{Day: start.Format("2006-01-02"), Registrations: f.Registrations,
			ActiveUsers: f.ActiveUsers, RechargeCount: f.RechargeCount, RechargeTotal: f.RechargeTotal,
			ExchangeCount: f.ExchangeCount, ExchangeTotal: f.ExchangeTotal})
	}
	out.From, out.To = out.Days[0].Day, out.Days[len(out.Days)-1].Day
	windows, err := storage.RoundWindows(c.Ctx, s.DB, false)
	if err != nil {
		return nil, err
	}
	today := tomorrow.AddDate(0, 0, -1)
	first := tomorrow.AddDate(0, 0, -days)
	if out.WindowsToday, err = s.windowFigures(c.Ctx, windows, today, tomorrow); err != nil {
		return nil, err
	}
	if out.WindowsWeek, err = s.windowFigures(c.Ctx, windows, first, tomorrow); err != nil {
		return nil, err
	}
	if out.PendingRecharges, out.PendingExchanges, err = storage.PendingOrders(c.Ctx, s.DB); err != nil {
		return nil, err
	}
	if out.UnclaimedEnquiries, err = s.Customer.CountUnclaimed(c.Ctx); err != nil {
		return nil, err
	}
	out.ChatSockets, out.CustomerSockets = socketsOnThisNode()
	return out, nil
}

// windowFigures lists every window (enabled or not) with its figures in
// [from, to), zero for a window without bets.
func (s *Server) windowFigures(ctx context.Context, windows []storage.RoundWindow, from, to time.Time) ([]windowFiguresView, error) {
	figures, err := storage.WindowFiguresBetween(ctx, s.DB, from.UnixMilli(), to.UnixMilli())
	if err != nil {
		return nil, err
	}
	byID := map[int64]storage.WindowFigures{}
	for _, f := range figures {
		byID[f.WindowID] = f
	}
	out := make([]windowFiguresView, 0, len(windows))
	for _, w := range windows {
		f := byID[w.ID]
		delete(byID, w.ID)
		out = append(out, windowFiguresView{WindowID: w.ID, Bets: f.Bets, Staked: f.Staked, PaidOut: f.PaidOut, HouseResult: f.House})
	}
	for _, f := range figures {
		if _, left := byID[f.WindowID]; left { // a window row removed since: its money still counts
			out = append(out, windowFiguresView{WindowID: f.WindowID, Bets: f.Bets, Staked: f.Staked, PaidOut: f.PaidOut, HouseResult: f.House})
		}
	}
	return out, nil
}

// socketsOnThisNode reads the open chat and customer-service sockets from
// this node's gauges (the store does not know sockets; in a cluster each
// node answers for itself).
func socketsOnThisNode() (chat, customer int64) {
	families, err := prometheus.DefaultGatherer.Gather()
	if err != nil {
		return 0, 0
	}
	sum := func(ms []*dto.Metric) int64 {
		var n float64
		for _, m := range ms {
			n += m.GetGauge().GetValue()
		}
		return int64(n)
	}
	for _, f := range families {
		switch f.GetName() {
		case "kj_chat_connections":
			chat = sum(f.GetMetric())
		case "kj_content_customer_sockets":
			customer = sum(f.GetMetric())
		}
	}
	return chat, customer
}

// ---- users ----

type walletLineView struct {
	TransferID   string `json:"transferId"`
	Kind         string `json:"kind"`
	Ref          string `json:"ref"`
	Amount       int64  `json:"amount"`
	BalanceAfter int64  `json:"balanceAfter"`
	CreatedAt    int64  `json:"createdAt"`
}

type bankCardView struct {
	ID         string `json:"id"`
	BankName   string `json:"bankName"`
	HolderName string `json:"holderName"`
	CardNumber string `json:"cardNumber"`
	CreatedAt  int64  `json:"createdAt"`
}

type signInView struct {
	Platform  int   `json:"platform"`
	CreatedAt int64 `json:"createdAt"`
	State     int   `json:"state"` // 0 active, 1 signed out, 2 replaced by a newer sign-in
}

type userDetailView struct {
	User            AdminUser        `json:"user"`
	Role            string           `json:"role"`
	Frozen          bool             `json:"frozen"`
	FrozenAt        int64            `json:"frozenAt"`
	HasFundPassword bool             `json:"hasFundPassword"`
	Balance         int64            `json:"balance"`
	PendingExchange int64            `json:"pendingExchange"`
	Entries         []walletLineView `json:"entries"`
	Bets            []window.BetView `json:"bets"`
	Recharges       []orderJSON      `json:"recharges"`
	Exchanges       []orderJSON      `json:"exchanges"`
	BankCards       []bankCardView   `json:"bankCards"`
	SignIns         []signInView     `json:"signIns"`
}

// consoleRecent is how many of each kind of line the user detail shows.
const consoleRecent = 50

func (s *Server) adminUserDetail(c *Call) (any, error) {
	id, err := decodeUserID(c, nil)
	if err != nil {
		return nil, err
	}
	u, err := storage.UserSummaryByID(c.Ctx, s.DB, id)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, apierr.Fail(apierr.CodeAccountUnknown, "account.unknown")
	}
	if err != nil {
		return nil, err
	}
	out := userDetailView{User: adminUserOf(u), HasFundPassword: u.FundPasswordHash != ""}
	if out.Role, err = storage.OperatorRole(c.Ctx, s.DB, id); err != nil {
		return nil, err
	}
	if out.FrozenAt, err = storage.FrozenAt(c.Ctx, s.DB, id); err != nil {
		return nil, err
	}
	out.Frozen = out.FrozenAt > 0
	balance, lines, err := storage.WalletLines(c.Ctx, s.DB, id, consoleRecent)
	if err != nil {
		return nil, err
	}
	out.Balance = balance
	out.Entries = make([]walletLineView, 0, len(lines))
	for _, l := range lines {
		out.Entries = append(out.Entries, walletLineView{TransferID: strconv.FormatInt(l.TransferID, 10), Kind: l.Kind, Ref: l.Ref,
			Amount: l.Amount, BalanceAfter: l.BalanceAfter, CreatedAt: l.CreatedAt})
	}
	if out.PendingExchange, err = storage.PendingExchangeTotal(c.Ctx, s.DB, id); err != nil {
		return nil, err
	}
	bets, _, err := storage.BetsOfUser(c.Ctx, s.DB, id, storage.BetsAll, 0, consoleRecent, 0)
	if err != nil {
		return nil, err
	}
	out.Bets = window.ViewBets(bets)
	recharges, err := storage.RechargeOrdersOf(c.Ctx, s.DB, id, consoleRecent)
	if err != nil {
		return nil, err
	}
	out.Recharges = make([]orderJSON, 0, len(recharges))
	for _, o := range recharges {
		out.Recharges = append(out.Recharges, rechargeJSON(o))
	}
	exchanges, _, err := storage.UserExchangeOrders(c.Ctx, s.DB, id, -1, 0, consoleRecent, 0)
	if err != nil {
		return nil, err
	}
	out.Exchanges = make([]orderJSON, 0, len(exchanges))
	for _, o := range exchanges {
		out.Exchanges = append(out.Exchanges, exchangeJSON(o, true))
	}
	cards, err := storage.BankCardsOf(c.Ctx, s.DB, id)
	if err != nil {
		return nil, err
	}
	out.BankCards = make([]bankCardView, 0, len(cards))
	for _, k := range cards {
		out.BankCards = append(out.BankCards, bankCardView{ID: strconv.FormatInt(k.ID, 10), BankName: k.BankName,
			HolderName: k.HolderName, CardNumber: k.CardNumber, CreatedAt: k.CreatedAt})
	}
	sessions, err := storage.SessionsOfUser(c.Ctx, s.DB, id, consoleRecent)
	if err != nil {
		return nil, err
	}
	out.SignIns = make([]signInView, 0, len(sessions))
	for _, ss := range sessions {
		out.SignIns = append(out.SignIns, signInView{Platform: ss.Platform, CreatedAt: ss.CreatedAt, State: ss.State})
	}
	return out, nil
}

// userActionRequest is a change to one user with the operator's reason.
type userActionRequest struct {
	UserID UserIDParam `json:"userId"`
	Frozen *int        `json:"frozen"`
	Reason string      `json:"reason"`
}

// decodeUserID reads {userId, ...} into req (or a bare userId) and checks
// the id and the reason's length.
func decodeUserID(c *Call, req *userActionRequest) (int64, error) {
	if req == nil {
		req = &userActionRequest{}
	}
	if err := c.Decode(req); err != nil {
		return 0, err
	}
	if req.UserID == 0 {
		return 0, apierr.Required("userId")
	}
	req.Reason = strings.TrimSpace(req.Reason)
	if utf8.RuneCountInString(req.Reason) > 200 {
		return 0, apierr.Invalid("reason")
	}
	return int64(req.UserID), nil
}

// playerOnly refuses a change meant for players (activation, freezing, a
// fund password's reset) when the target is an operator, whoever asks:
// operators' accounts change only through /admin/operators, which only
// admins may call, so an agent cannot lock out an admin.
func playerOnly(ctx context.Context, q storage.Querier, id int64) error {
	role, err := storage.OperatorRole(ctx, q, id)
	if errors.Is(err, storage.ErrNotFound) {
		return apierr.Fail(apierr.CodeAccountUnknown, "account.unknown")
	}
	if err != nil {
		return err
	}
	if role != "" {
		return apierr.Fail(apierr.CodeRoleRefused, "operator.account.admin.only").WithStatus(http.StatusForbidden)
	}
	return nil
}

// frozenState is a player's sign-in as the audit log shows it: frozen
// since frozenAt (0: not frozen), and the sessions a freeze ended.
type frozenState struct {
	FrozenAt      int64 `json:"frozenAt"`
	SessionsEnded int   `json:"sessionsEnded,omitempty"`
}

// setFrozenAudited sets a user's frozen time (0: not frozen) inside tx,
// ends their sessions when it freezes, and records action with the state
// before and after; nothing is recorded when the state was already so. It
// returns the sessions ended, for the caller to announce after the commit.
func setFrozenAudited(c *Call, tx storage.Tx, id, at, now int64, action, reason string) ([]int64, error) {
	before, err := storage.FrozenAt(c.Ctx, tx, id)
	if err != nil {
		return nil, err
	}
	changed, err := storage.SetFrozen(c.Ctx, tx, id, at, now)
	if err != nil || !changed {
		return nil, err // already so: nothing to record
	}
	var ended []int64
	if at != 0 {
		if ended, err = storage.EndUserSessions(c.Ctx, tx, id, 0, storage.SessionSignedOut); err != nil {
			return nil, err
		}
	}
	return ended, RecordOperatorAction(c, tx, action, id, auditChange{Before: frozenState{FrozenAt: before},
		After: frozenState{FrozenAt: at, SessionsEnded: len(ended)}, Reason: reason})
}

// adminUserFreeze freezes (frozen 1, a reason required) or unfreezes
// (frozen 0) a player's sign-in. Freezing ends every session at once and
// kicks the player's sockets; sign-in answers apierr.CodeAccountFrozen until
// unfrozen.
func (s *Server) adminUserFreeze(c *Call) (any, error) {
	var req userActionRequest
	id, err := decodeUserID(c, &req)
	if err != nil {
		return nil, err
	}
	if req.Frozen == nil {
		return nil, apierr.Required("frozen")
	}
	freeze := *req.Frozen == 1
	if *req.Frozen != 0 && !freeze {
		return nil, apierr.Invalid("frozen")
	}
	if freeze && req.Reason == "" {
		return nil, apierr.Required("reason")
	}
	now := s.Clock.Now().UnixMilli()
	at, action := int64(0), "user.unfreeze"
	if freeze {
		at, action = now, "user.freeze"
	}
	var ended []int64
	err = s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		if err := playerOnly(c.Ctx, tx, id); err != nil {
			return err
		}
		ended, err = setFrozenAudited(c, tx, id, at, now, action, req.Reason)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.Sessions.Announce(c.Ctx, id, auth.ReasonSignedOut, ended...)
	return map[string]any{"userId": strconv.FormatInt(id, 10), "frozen": freeze, "sessionsEnded": len(ended)}, nil
}

// adminUserResetFundPassword clears a player's fund password; the player
// sets a new one (without the old) before the next exchange.
func (s *Server) adminUserResetFundPassword(c *Call) (any, error) {
	var req userActionRequest
	id, err := decodeUserID(c, &req)
	if err != nil {
		return nil, err
	}
	var had bool
	err = s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		if err := playerOnly(c.Ctx, tx, id); err != nil {
			return err
		}
		if had, err = storage.ClearFundPassword(c.Ctx, tx, id, s.Clock.Now().UnixMilli()); err != nil || !had {
			return err
		}
		return RecordOperatorAction(c, tx, "user.fundPassword.reset", id, auditChange{Before: map[string]bool{"hasFundPassword": true},
			After: map[string]bool{"hasFundPassword": false}, Reason: req.Reason})
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"userId": strconv.FormatInt(id, 10), "reset": had}, nil
}

// ---- rounds ----

type roundBetView struct {
	window.BetView
	UserID  string `json:"userId"`
	Account string `json:"account"`
}

type roundBetsView struct {
	WindowID int64              `json:"windowId"`
	Issue    string             `json:"issue"`
	Odds     string             `json:"odds"`
	Result   *window.ResultView `json:"result"` // nil until drawn
	Staked   int64              `json:"staked"`
	PaidOut  int64              `json:"paidOut"`
	Bets     []roundBetView     `json:"bets"`
}

func (s *Server) adminRoundBets(c *Call) (any, error) {
	var req struct {
		WindowID int64  `json:"windowId"`
		Issue    string `json:"issue"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.WindowID == 0 {
		return nil, apierr.Required("windowId")
	}
	if req.Issue == "" {
		return nil, apierr.Required("issue")
	}
	r, err := storage.RoundByIssue(c.Ctx, s.DB, req.WindowID, req.Issue, false)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, apierr.Fail(apierr.CodeIssueUnknown, "rounds.issue.unknown", "issue", req.Issue)
	}
	if err != nil {
		return nil, err
	}
	bets, err := storage.BetsOfRoundWithAccounts(c.Ctx, s.DB, r.ID)
	if err != nil {
		return nil, err
	}
	out := roundBetsView{WindowID: r.WindowID, Issue: r.Issue, Odds: window.FormatOdds(r.OddsBP), Bets: make([]roundBetView, 0, len(bets))}
	if r.HasResult() { // a voided round has no digits
		v := window.ViewResult(r)
		out.Result = &v
	}
	for _, b := range bets {
		out.Staked += b.Amount
		out.PaidOut += b.Payout
		out.Bets = append(out.Bets, roundBetView{BetView: window.ViewBet(b.RoundBet), UserID: strconv.FormatInt(b.UserID, 10), Account: b.Account})
	}
	return out, nil
}

// ---- customer service ----

func (s *Server) adminCustomerAgents(c *Call) (any, error) {
	list, err := storage.ListOperators(c.Ctx, s.DB)
	return operatorViews(list), err
}

// adminCustomerHandover gives a visitor's conversation to another agent
// (any operator); both agents' inboxes and the visitor hear "assigned".
func (s *Server) adminCustomerHandover(c *Call) (any, error) {
	var req struct {
		VisitorNo contentID   `json:"visitorNo"`
		ServiceID UserIDParam `json:"serviceId"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	by := c.operatorActor()
	to, err := s.Customer.Handover(c.Ctx, customer.Actor{OperatorID: by.OperatorID, Address: by.Address}, int64(req.VisitorNo), int64(req.ServiceID))
	if err != nil {
		return nil, err
	}
	return map[string]string{"visitorNo": strconv.FormatInt(int64(req.VisitorNo), 10), "serviceId": to.IDString(), "serviceName": customer.ServiceName(to)}, nil
}

// frozenSignIn refuses a sign-in to an account an operator froze.
func frozenSignIn(ctx context.Context, q storage.Querier, userID int64) error {
	at, err := storage.FrozenAt(ctx, q, userID)
	if err != nil {
		return err
	}
	if at > 0 {
		return apierr.Fail(apierr.CodeAccountFrozen, "account.frozen")
	}
	return nil
}
