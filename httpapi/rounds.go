package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"

	"kj/actors/window"
	"kj/internal/apierr"
	"kj/storage"
)

// Activation windows (/activation/...) and the operators' window settings.
// Their error codes (1400-1499) are in internal/apierr.

func init() {
	registerArea(func(s *Server) {
		s.Post("/activation/lotteryList", Identified, s.lotteryList)
		s.Post("/activation/getNewLottery", Identified, s.getNewLottery)
		s.Post("/activation/getRuleList", Open, s.getRuleList)
		s.Post("/activation/betRequest", Identified, s.betRequest)
		s.Post("/activation/betSlip", Identified, s.betSlip) // rounds_slip.go
		s.Post("/activation/historyPrize", Open, s.historyPrize)
		s.Post("/activation/lotteryBettingRecord", Identified, s.lotteryBettingRecord)
		s.Post("/activation/trend", Identified, s.trend)
		s.Post("/activation/fairness", Identified, s.fairness)
		s.Post("/activation/roundBets", Identified, s.roundBets)
		s.Post("/admin/windows", Operator, s.adminWindows)
		s.Post("/admin/rounds/fairness", Operator, s.adminFairness)
		s.Post("/admin/windows/update", Operator, s.adminWindowsUpdate)
	})
}

// rounds is the windows' service; the engine always sets it.
func (s *Server) rounds() (*window.Rounds, error) {
	if s.Rounds == nil {
		return nil, errors.New("httpapi: activation windows are not wired")
	}
	return s.Rounds, nil
}

// roundsRequest opens every rounds handler that reads a body: the windows'
// service first, then the request decoded into a T.
func roundsRequest[T any](s *Server, c *Call) (*window.Rounds, T, error) {
	var req T
	rs, err := s.rounds()
	if err != nil {
		return nil, req, err
	}
	if err := c.Decode(&req); err != nil {
		return nil, req, err
	}
	return rs, req, nil
}

func (s *Server) lotteryList(c *Call) (any, error) {
	rs, err := s.rounds()
	if err != nil {
		return nil, err
	}
	return rs.Lobby(c.Ctx, c.User.ID)
}

type windowReq struct {
	WindowID int64 `json:"windowId"`
}

// windowRequest is roundsRequest for a request about one window: its
// windowId is required.
func windowRequest[T interface{ windowID() int64 }](s *Server, c *Call) (*window.Rounds, T, error) {
	rs, req, err := roundsRequest[T](s, c)
	if err == nil && req.windowID() == 0 {
		err = apierr.Required("windowId")
	}
	return rs, req, err
}

func (r windowReq) windowID() int64 { return r.WindowID }

// windowRead answers a players' read of one window: the windowId is
// required and checked, and a store error is translated for that window.
func (s *Server) windowRead(c *Call, read func(rs *window.Rounds, windowID int64) (any, error)) (any, error) {
	rs, req, err := windowRequest[windowReq](s, c)
	if err != nil {
		return nil, err
	}
	v, err := read(rs, req.WindowID)
	return v, roundsError(err, req.WindowID, "")
}

func (s *Server) getNewLottery(c *Call) (any, error) {
	return s.windowRead(c, func(rs *window.Rounds, windowID int64) (any, error) {
		return rs.CurrentAndComing(c.Ctx, windowID, c.User.ID)
	})
}

// ruleView is a window's rules with their text in the caller's language.
type ruleView struct {
	window.WindowRules
	Text string `json:"text"`
}

func (s *Server) getRuleList(c *Call) (any, error) {
	rs, err := s.rounds()
	if err != nil {
		return nil, err
	}
	list, err := rs.Rules(c.Ctx, false)
	if err != nil {
		return nil, err
	}
	out := make([]ruleView, 0, len(list))
	for _, w := range list {
		out = append(out, ruleView{WindowRules: w, Text: apierr.Translate(c.Lang, "rounds.rules.text", map[string]any{
			"odds": w.Odds, "min": window.FormatCents(w.MinBet), "max": window.FormatCents(w.MaxBet),
			"betting": seconds(w.BettingMs), "drawing": seconds(w.DrawingMs), "rest": seconds(w.RestMs),
		})})
	}
	// The fairness text says plainly whether the operator can foresee the
	// draw: it can unless a public beacon decides it (docs/ROUNDS.md).
	fair := apierr.Translate(c.Lang, "rounds.fair.text", nil) + " "
	beacon := rs.BeaconSettings()
	if beacon != nil {
		fair += apierr.Translate(c.Lang, "rounds.fair.beacon", map[string]any{"beacon": beacon.URL, "wait": seconds(beacon.WaitMs)})
	} else {
		fair += apierr.Translate(c.Lang, "rounds.fair.foreseeable", nil)
	}
	return map[string]any{
		"rules":    out,
		"contents": window.Contents,
		"fairness": fair,
		"beacon":   beacon, // null: no beacon, the draw is foreseeable by the operator
	}, nil
}

// seconds writes milliseconds as seconds: 60000 → "60", 1500 → "1.5".
func seconds(ms int64) string {
	return strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64)
}

type betReq struct {
	WindowID int64           `json:"windowId"`
	Issue    string          `json:"issue"`
	Content  string          `json:"content"`
	Amount   json.RawMessage `json:"amount"`
	BetID    string          `json:"betId"`
}

func (s *Server) betRequest(c *Call) (any, error) {
	arrived := s.Clock.Now() // the bet is judged by when it arrived
	rs, req, err := roundsRequest[betReq](s, c)
	if err != nil {
		return nil, err
	}
	if err := checkBetRound(req.WindowID, req.Issue); err != nil {
		return nil, err
	}
	if err := checkStake(req.Content, req.Amount); err != nil {
		return nil, err
	}
	if req.BetID == "" {
		return nil, apierr.Required("betId")
	}
	amount, err := parseCents(req.Amount)
	if err != nil {
		return nil, err
	}
	var bet window.BetView
	err = s.ProtectedBet(c.Ctx, c.User.ID, amount, []string{req.BetID}, func() (err error) { // player protection (protection.go)
		bet, err = rs.Bet(c.Ctx, window.BetRequest{UserID: c.User.ID, WindowID: req.WindowID, Issue: req.Issue,
			Content: window.Content(req.Content), Amount: amount, BetID: req.BetID, ArrivedAt: arrived})
		return err
	})
	if err != nil {
		return nil, roundsError(err, req.WindowID, req.Issue)
	}
	return bet, nil
}

// checkBetRound checks the round that a bet or a slip is placed on
// (betRequest, betSlip): its window and its issue are required.
func checkBetRound(windowID int64, issue string) error {
	switch {
	case windowID == 0:
		return apierr.Required("windowId")
	case strings.TrimSpace(issue) == "":
		return apierr.Required("issue")
	}
	return nil
}

// checkStake checks one stake, a single bet's or a slip selection's: its
// content and its amount are required (parseCents then reads the amount).
func checkStake(content string, amount json.RawMessage) error {
	switch {
	case content == "":
		return apierr.Required("content")
	case len(amount) == 0 || string(amount) == "null":
		return apierr.Required("amount")
	}
	return nil
}

// parseCents reads an amount of cents: a JSON integer (or a string holding
// one). Fractions, exponents and signs other than a leading minus are
// refused; a number too large for int64 becomes the largest, so the round's
// maximum refuses it with its limit in the message.
func parseCents(raw json.RawMessage) (int64, error) {
	s := strings.TrimSpace(string(raw))
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	digits := strings.TrimPrefix(s, "-")
	if digits == "" {
		return 0, apierr.Fail(apierr.CodeBetAmountInvalid, "rounds.amount.invalid")
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, apierr.Fail(apierr.CodeBetAmountInvalid, "rounds.amount.invalid")
		}
	}
	if s[0] == '-' {
		return 0, apierr.Fail(apierr.CodeBetAmountInvalid, "rounds.amount.invalid")
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return math.MaxInt64, nil // out of range: the round's maximum refuses it
	}
	return n, nil
}

type historyReq struct {
	WindowID int64 `json:"windowId"`
	Page     int   `json:"page"`
	PageSize int   `json:"pageSize"`
}

func (r historyReq) windowID() int64 { return r.WindowID }

func (s *Server) historyPrize(c *Call) (any, error) {
	rs, req, err := windowRequest[historyReq](s, c)
	if err != nil {
		return nil, err
	}
	limit, offset, err := paging(req.Page, req.PageSize)
	if err != nil {
		return nil, err
	}
	list, total, err := rs.History(c.Ctx, req.WindowID, limit, offset)
	if err != nil {
		return nil, roundsError(err, req.WindowID, "")
	}
	return replyList(list, total, limit, offset), nil
}

// lotteryBettingRecord is the click-record screen. Its days filter and
// paging are the wallet's records' (listRequest): days absent = all time,
// 0 = since local midnight, 7/15/30 = the last so many days.
func (s *Server) lotteryBettingRecord(c *Call) (any, error) {
	rs, req, err := roundsRequest[listRequest](s, c)
	if err != nil {
		return nil, err
	}
	var filter int
	switch req.Tab {
	case "", "all":
		filter = storage.BetsAll
	case "unmatched":
		filter = storage.BetsUnmatched
	case "matched":
		filter = storage.BetsMatched
	default:
		return nil, apierr.Invalid("tab")
	}
	since, limit, offset, err := s.window(req)
	if err != nil {
		return nil, err
	}
	list, total, err := rs.Records(c.Ctx, c.User.ID, filter, since, limit, offset)
	if err != nil {
		return nil, err
	}
	return replyList(list, total, limit, offset), nil
}

// trend is a window's trend board over its newest 100 rounds, served from
// the per-window cache the draws keep current.
func (s *Server) trend(c *Call) (any, error) {
	return s.windowRead(c, func(rs *window.Rounds, windowID int64) (any, error) {
		return rs.Trend(c.Ctx, windowID)
	})
}

// fairness is the players' fairness report over a window's newest 1,000
// rounds.
func (s *Server) fairness(c *Call) (any, error) {
	return s.windowRead(c, func(rs *window.Rounds, windowID int64) (any, error) {
		return rs.FairnessOf(c.Ctx, windowID)
	})
}

type roundBetsReq struct {
	WindowID int64  `json:"windowId"`
	Issue    string `json:"issue"`
}

func (r roundBetsReq) windowID() int64 { return r.WindowID }

// roundBets is a closed round's committed bet list (note number, content,
// amount; no player), so anyone can recompute its betsHash, an input of
// the draw, and find their own bets in it.
func (s *Server) roundBets(c *Call) (any, error) {
	rs, req, err := windowRequest[roundBetsReq](s, c)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(req.Issue) == "" {
		return nil, apierr.Required("issue")
	}
	list, err := rs.BetList(c.Ctx, req.WindowID, req.Issue)
	return list, roundsError(err, req.WindowID, req.Issue)
}

// adminFairness is the fairness report over every drawn round of a window,
// or of all windows when windowId is absent or 0.
func (s *Server) adminFairness(c *Call) (any, error) {
	rs, req, err := roundsRequest[windowReq](s, c)
	if err != nil {
		return nil, err
	}
	f, err := rs.FairnessAll(c.Ctx, req.WindowID)
	return f, roundsError(err, req.WindowID, "")
}

func (s *Server) adminWindows(c *Call) (any, error) {
	rs, err := s.rounds()
	if err != nil {
		return nil, err
	}
	return rs.RulesInEffect(c.Ctx) // with the current round's odds and limits
}

type windowUpdateReq struct {
	WindowID  int64            `json:"windowId"`
	Odds      *json.RawMessage `json:"odds"` // "1.98" or 1.98: exact decimal, at most 4 places
	MinBet    *int64           `json:"minBet"`
	MaxBet    *int64           `json:"maxBet"`
	BettingMs *int64           `json:"bettingMs"`
	DrawingMs *int64           `json:"drawingMs"`
	RestMs    *int64           `json:"restMs"`
}

func (r windowUpdateReq) windowID() int64 { return r.WindowID }

func (s *Server) adminWindowsUpdate(c *Call) (any, error) {
	rs, req, err := windowRequest[windowUpdateReq](s, c)
	if err != nil {
		return nil, err
	}
	ch := window.RulesChange{MinBet: req.MinBet, MaxBet: req.MaxBet, BettingMs: req.BettingMs,
		DrawingMs: req.DrawingMs, RestMs: req.RestMs}
	if req.Odds != nil {
		// The decimal's text is read as written, never through a float.
		text := strings.Trim(strings.TrimSpace(string(*req.Odds)), `"`)
		bp, err := window.ParseOdds(text)
		if err != nil {
			return nil, apierr.Fail(apierr.CodeWindowRulesInvalid, "rounds.rules.invalid", "field", "odds",
				"range", window.FormatOdds(window.MinOddsBP)+" - "+window.FormatOdds(window.MaxOddsBP))
		}
		ch.OddsBP = &bp
	}
	ch.Audit = func(ctx context.Context, tx storage.Tx, before, after window.WindowRules) error {
		return RecordOperatorAction(c, tx, "window.rules", req.WindowID, auditChange{Before: before, After: after})
	}
	w, err := rs.UpdateRules(c.Ctx, req.WindowID, ch)
	if err != nil {
		return nil, roundsError(err, req.WindowID, "")
	}
	return w, nil
}

// roundsError turns the windows' errors into the client's codes and
// translated messages; anything else passes through (system busy).
func roundsError(err error, windowID int64, issue string) error {
	if err == nil {
		return nil
	}
	var le *window.LimitError
	var re *window.RuleError
	switch {
	case errors.Is(err, window.ErrUnknownWindow):
		return apierr.Fail(apierr.CodeWindowUnknown, "rounds.window.unknown", "windowId", windowID)
	case errors.Is(err, window.ErrUnknownIssue):
		return apierr.Fail(apierr.CodeIssueUnknown, "rounds.issue.unknown", "issue", issue)
	case errors.Is(err, window.ErrBettingNotOpen):
		return apierr.Fail(apierr.CodeBettingNotOpen, "rounds.betting.notopen", "issue", issue)
	case errors.Is(err, window.ErrBettingClosed):
		return apierr.Fail(apierr.CodeBettingClosed, "rounds.betting.closed", "issue", issue)
	case errors.Is(err, window.ErrBadContent):
		return apierr.Fail(apierr.CodeBetContentInvalid, "rounds.content.invalid")
	case errors.Is(err, window.ErrBadAmount):
		return apierr.Fail(apierr.CodeBetAmountInvalid, "rounds.amount.invalid")
	case errors.As(err, &le) && le.Below():
		return apierr.Fail(apierr.CodeBetBelowMin, "rounds.amount.min", "min", window.FormatCents(le.Min))
	case errors.As(err, &le):
		return apierr.Fail(apierr.CodeBetAboveMax, "rounds.amount.max", "max", window.FormatCents(le.Max))
	case errors.Is(err, window.ErrInsufficientBalance):
		// The wallet's code: the same refusal wherever points run short.
		return apierr.Fail(apierr.CodeInsufficientBalance, "wallet.insufficient")
	case errors.Is(err, window.ErrBadBetID):
		return apierr.Fail(apierr.CodeBetIDInvalid, "rounds.betid.invalid")
	case errors.Is(err, window.ErrBetIDTaken):
		return apierr.Fail(apierr.CodeBetIDTaken, "rounds.betid.taken")
	case errors.Is(err, window.ErrBetIDReused):
		return apierr.Fail(apierr.CodeBetIDReused, "rounds.betid.reused")
	case errors.As(err, &re):
		return apierr.Fail(apierr.CodeWindowRulesInvalid, "rounds.rules.invalid", "field", re.Field, "range", re.Range)
	case errors.Is(err, window.ErrDeskClosed):
		return apierr.Fail(apierr.CodeSystemBusy, "system.busy").WithStatus(503)
	}
	return err
}
