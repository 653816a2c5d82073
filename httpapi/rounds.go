package httpapi

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"

	"kj/actors/window"
	"kj/storage"
)

// Activation windows (spec section 7, /activation/...) and the operators'
// window settings. Error codes 1400-1499, listed in the README.
const (
	CodeWindowUnknown      = 1400 // no such (enabled) window
	CodeIssueUnknown       = 1401 // the window has no round with that issue number
	CodeBettingNotOpen     = 1402 // the round's betting has not started
	CodeBettingClosed      = 1403 // the round's betting is over (judged by arrival time)
	CodeBetContentInvalid  = 1404 // content is not BIG, SMALL, SINGLE or DOUBLE
	CodeBetAmountInvalid   = 1405 // amount not a positive whole number of cents
	CodeBetBelowMin        = 1406 // amount under the round's minBet
	CodeBetAboveMax        = 1407 // amount over the round's maxBet
	CodeBetIDInvalid       = 1409 // betId is not 1-64 of A-Z a-z 0-9 . _ : -
	CodeBetIDTaken         = 1410 // betId belongs to another player's bet
	CodeBetIDReused        = 1411 // betId already names a different bet of the caller
	CodeWindowRulesInvalid = 1412 // an operator's odds, limits or phase lengths out of range
)

func init() {
	registerArea(func(s *Server) {
		s.Post("/activation/lotteryList", User, s.lotteryList)
		s.Post("/activation/getNewLottery", User, s.getNewLottery)
		s.Post("/activation/getRuleList", Open, s.getRuleList)
		s.Post("/activation/betRequest", User, s.betRequest)
		s.Post("/activation/historyPrize", Open, s.historyPrize)
		s.Post("/activation/lotteryBettingRecord", User, s.lotteryBettingRecord)
		s.Post("/admin/windows", Operator, s.adminWindows)
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

func (r windowReq) check() error {
	if r.WindowID == 0 {
		return Required("windowId")
	}
	return nil
}

func (s *Server) getNewLottery(c *Call) (any, error) {
	rs, err := s.rounds()
	if err != nil {
		return nil, err
	}
	var req windowReq
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if err := req.check(); err != nil {
		return nil, err
	}
	cur, err := rs.Current(c.Ctx, req.WindowID, c.User.ID)
	return cur, roundsError(err, req.WindowID, "")
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
		out = append(out, ruleView{WindowRules: w, Text: Translate(c.Lang, "rounds.rules.text", map[string]any{
			"odds": w.Odds, "min": window.FormatCents(w.MinBet), "max": window.FormatCents(w.MaxBet),
			"betting": seconds(w.BettingMs), "drawing": seconds(w.DrawingMs), "rest": seconds(w.RestMs),
		})})
	}
	return map[string]any{
		"rules":    out,
		"contents": window.Contents,
		"fairness": Translate(c.Lang, "rounds.fair.text", nil),
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
	rs, err := s.rounds()
	if err != nil {
		return nil, err
	}
	var req betReq
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	switch {
	case req.WindowID == 0:
		return nil, Required("windowId")
	case strings.TrimSpace(req.Issue) == "":
		return nil, Required("issue")
	case req.Content == "":
		return nil, Required("content")
	case len(req.Amount) == 0 || string(req.Amount) == "null":
		return nil, Required("amount")
	case req.BetID == "":
		return nil, Required("betId")
	}
	amount, err := parseCents(req.Amount)
	if err != nil {
		return nil, err
	}
	bet, err := rs.Bet(c.Ctx, window.BetRequest{UserID: c.User.ID, WindowID: req.WindowID, Issue: req.Issue,
		Content: window.Content(req.Content), Amount: amount, BetID: req.BetID, ArrivedAt: arrived})
	if err != nil {
		return nil, roundsError(err, req.WindowID, req.Issue)
	}
	return bet, nil
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
		return 0, Fail(CodeBetAmountInvalid, "rounds.amount.invalid")
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, Fail(CodeBetAmountInvalid, "rounds.amount.invalid")
		}
	}
	if s[0] == '-' {
		return 0, Fail(CodeBetAmountInvalid, "rounds.amount.invalid")
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

func (s *Server) historyPrize(c *Call) (any, error) {
	rs, err := s.rounds()
	if err != nil {
		return nil, err
	}
	var req historyReq
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.WindowID == 0 {
		return nil, Required("windowId")
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
	rs, err := s.rounds()
	if err != nil {
		return nil, err
	}
	var req listRequest
	if err := c.Decode(&req); err != nil {
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
		return nil, Invalid("tab")
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

func (s *Server) adminWindows(c *Call) (any, error) {
	rs, err := s.rounds()
	if err != nil {
		return nil, err
	}
	return rs.Rules(c.Ctx, true)
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

func (s *Server) adminWindowsUpdate(c *Call) (any, error) {
	rs, err := s.rounds()
	if err != nil {
		return nil, err
	}
	var req windowUpdateReq
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.WindowID == 0 {
		return nil, Required("windowId")
	}
	ch := window.RulesChange{MinBet: req.MinBet, MaxBet: req.MaxBet, BettingMs: req.BettingMs,
		DrawingMs: req.DrawingMs, RestMs: req.RestMs}
	if req.Odds != nil {
		// The decimal's text is read as written, never through a float.
		text := strings.Trim(strings.TrimSpace(string(*req.Odds)), `"`)
		bp, err := window.ParseOdds(text)
		if err != nil {
			return nil, Fail(CodeWindowRulesInvalid, "rounds.rules.invalid", "field", "odds",
				"range", window.FormatOdds(window.MinOddsBP)+" - "+window.FormatOdds(window.MaxOddsBP))
		}
		ch.OddsBP = &bp
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
		return Fail(CodeWindowUnknown, "rounds.window.unknown", "windowId", windowID)
	case errors.Is(err, window.ErrUnknownIssue):
		return Fail(CodeIssueUnknown, "rounds.issue.unknown", "issue", issue)
	case errors.Is(err, window.ErrBettingNotOpen):
		return Fail(CodeBettingNotOpen, "rounds.betting.notopen", "issue", issue)
	case errors.Is(err, window.ErrBettingClosed):
		return Fail(CodeBettingClosed, "rounds.betting.closed", "issue", issue)
	case errors.Is(err, window.ErrBadContent):
		return Fail(CodeBetContentInvalid, "rounds.content.invalid")
	case errors.Is(err, window.ErrBadAmount):
		return Fail(CodeBetAmountInvalid, "rounds.amount.invalid")
	case errors.As(err, &le) && le.Below():
		return Fail(CodeBetBelowMin, "rounds.amount.min", "min", window.FormatCents(le.Min))
	case errors.As(err, &le):
		return Fail(CodeBetAboveMax, "rounds.amount.max", "max", window.FormatCents(le.Max))
	case errors.Is(err, window.ErrInsufficientBalance):
		// The wallet's code: the same refusal wherever points run short.
		return Fail(CodeInsufficientBalance, "wallet.insufficient")
	case errors.Is(err, window.ErrBadBetID):
		return Fail(CodeBetIDInvalid, "rounds.betid.invalid")
	case errors.Is(err, window.ErrBetIDTaken):
		return Fail(CodeBetIDTaken, "rounds.betid.taken")
	case errors.Is(err, window.ErrBetIDReused):
		return Fail(CodeBetIDReused, "rounds.betid.reused")
	case errors.As(err, &re):
		return Fail(CodeWindowRulesInvalid, "rounds.rules.invalid", "field", re.Field, "range", re.Range)
	case errors.Is(err, window.ErrDeskClosed):
		return Fail(CodeSystemBusy, "system.busy").WithStatus(503)
	}
	return err
}

func init() {
	AddMessages(Messages{
		"rounds.window.unknown": {
			"en-US": "Activation window {windowId} does not exist", "es-ES": "La ventana de activación {windowId} no existe",
			"ms-MY": "Tetingkap pengaktifan {windowId} tidak wujud", "vi-VN": "Cửa sổ kích hoạt {windowId} không tồn tại",
			"zh-CN": "激活窗口 {windowId} 不存在", "zh-HANT": "激活視窗 {windowId} 不存在",
		},
		"rounds.issue.unknown": {
			"en-US": "Round {issue} does not exist in this window", "es-ES": "La ronda {issue} no existe en esta ventana",
			"ms-MY": "Pusingan {issue} tidak wujud dalam tetingkap ini", "vi-VN": "Kỳ {issue} không tồn tại trong cửa sổ này",
			"zh-CN": "本窗口不存在第 {issue} 期", "zh-HANT": "本視窗不存在第 {issue} 期",
		},
		"rounds.betting.notopen": {
			"en-US": "Betting for round {issue} has not opened yet", "es-ES": "Las apuestas de la ronda {issue} aún no se han abierto",
			"ms-MY": "Pertaruhan untuk pusingan {issue} belum dibuka", "vi-VN": "Kỳ {issue} chưa mở đặt cược",
			"zh-CN": "第 {issue} 期尚未开始投注", "zh-HANT": "第 {issue} 期尚未開始投注",
		},
		"rounds.betting.closed": {
			"en-US": "Betting for round {issue} has closed", "es-ES": "Las apuestas de la ronda {issue} están cerradas",
			"ms-MY": "Pertaruhan untuk pusingan {issue} telah ditutup", "vi-VN": "Kỳ {issue} đã ngừng đặt cược",
			"zh-CN": "第 {issue} 期已停止投注", "zh-HANT": "第 {issue} 期已停止投注",
		},
		"rounds.content.invalid": {
			"en-US": "Bet content must be BIG, SMALL, SINGLE or DOUBLE", "es-ES": "El contenido de la apuesta debe ser BIG, SMALL, SINGLE o DOUBLE",
			"ms-MY": "Kandungan pertaruhan mestilah BIG, SMALL, SINGLE atau DOUBLE", "vi-VN": "Nội dung cược phải là BIG, SMALL, SINGLE hoặc DOUBLE",
			"zh-CN": "投注内容必须是 BIG、SMALL、SINGLE 或 DOUBLE", "zh-HANT": "投注內容必須是 BIG、SMALL、SINGLE 或 DOUBLE",
		},
		"rounds.amount.invalid": {
			"en-US": "Bet amount must be a positive whole number of cents", "es-ES": "El importe de la apuesta debe ser un número entero positivo de céntimos",
			"ms-MY": "Jumlah pertaruhan mestilah nombor bulat sen yang positif", "vi-VN": "Số tiền cược phải là số xu nguyên dương",
			"zh-CN": "投注金额必须是以分为单位的正整数", "zh-HANT": "投注金額必須是以分為單位的正整數",
		},
		"rounds.amount.min": {
			"en-US": "The minimum bet is {min}", "es-ES": "La apuesta mínima es {min}", "ms-MY": "Pertaruhan minimum ialah {min}",
			"vi-VN": "Mức cược tối thiểu là {min}", "zh-CN": "最低投注额为 {min}", "zh-HANT": "最低投注額為 {min}",
		},
		"rounds.amount.max": {
			"en-US": "The maximum bet is {max}", "es-ES": "La apuesta máxima es {max}", "ms-MY": "Pertaruhan maksimum ialah {max}",
			"vi-VN": "Mức cược tối đa là {max}", "zh-CN": "最高投注额为 {max}", "zh-HANT": "最高投注額為 {max}",
		},
		"rounds.betid.invalid": {
			"en-US": "betId must be 1-64 letters, digits or . _ : -", "es-ES": "betId debe tener de 1 a 64 letras, dígitos o . _ : -",
			"ms-MY": "betId mestilah 1-64 huruf, digit atau . _ : -", "vi-VN": "betId phải gồm 1-64 chữ cái, chữ số hoặc . _ : -",
			"zh-CN": "betId 须为 1-64 位字母、数字或 . _ : -", "zh-HANT": "betId 須為 1-64 位字母、數字或 . _ : -",
		},
		"rounds.betid.taken": {
			"en-US": "This bet id is already used by another player", "es-ES": "Este identificador de apuesta ya lo usa otro jugador",
			"ms-MY": "ID pertaruhan ini telah digunakan oleh pemain lain", "vi-VN": "Mã cược này đã được người chơi khác sử dụng",
			"zh-CN": "该投注编号已被其他玩家使用", "zh-HANT": "該投注編號已被其他玩家使用",
		},
		"rounds.betid.reused": {
			"en-US": "This bet id was already used for a different bet", "es-ES": "Este identificador de apuesta ya se usó para otra apuesta",
			"ms-MY": "ID pertaruhan ini telah digunakan untuk pertaruhan lain", "vi-VN": "Mã cược này đã được dùng cho một lần cược khác",
			"zh-CN": "该投注编号已用于另一笔投注", "zh-HANT": "該投注編號已用於另一筆投注",
		},
		"rounds.rules.invalid": {
			"en-US": "{field} must be within {range}", "es-ES": "{field} debe estar entre {range}",
			"ms-MY": "{field} mestilah dalam julat {range}", "vi-VN": "{field} phải trong khoảng {range}",
			"zh-CN": "{field} 必须在 {range} 范围内", "zh-HANT": "{field} 必須在 {range} 範圍內",
		},
		"rounds.rules.text": {
			"en-US":   "Each round draws three digits from 0 to 9; their sum (0-27) decides: BIG 14-27, SMALL 0-13, SINGLE odd, DOUBLE even. A winning bet returns {odds} times the stake; bets from {min} to {max}. Betting {betting} s, drawing {drawing} s, rest {rest} s.",
			"es-ES":   "Cada ronda sortea tres dígitos del 0 al 9; su suma (0-27) decide: BIG 14-27, SMALL 0-13, SINGLE impar, DOUBLE par. Una apuesta ganadora devuelve {odds} veces lo apostado; apuestas de {min} a {max}. Apuestas {betting} s, sorteo {drawing} s, descanso {rest} s.",
			"ms-MY":   "Setiap pusingan mencabut tiga digit dari 0 hingga 9; jumlahnya (0-27) menentukan: BIG 14-27, SMALL 0-13, SINGLE ganjil, DOUBLE genap. Pertaruhan yang menang memulangkan {odds} kali ganda taruhan; pertaruhan dari {min} hingga {max}. Pertaruhan {betting} s, cabutan {drawing} s, rehat {rest} s.",
			"vi-VN":   "Mỗi kỳ quay ba chữ số từ 0 đến 9; tổng của chúng (0-27) quyết định: BIG 14-27, SMALL 0-13, SINGLE lẻ, DOUBLE chẵn. Cược thắng được trả {odds} lần tiền cược; mức cược từ {min} đến {max}. Đặt cược {betting} giây, quay số {drawing} giây, nghỉ {rest} giây.",
			"zh-CN":   "每期开出三个 0 到 9 的数字，以三数之和（0-27）定输赢：大 BIG 14-27，小 SMALL 0-13，单 SINGLE 为奇数，双 DOUBLE 为偶数。中奖返还投注额的 {odds} 倍；投注额 {min} 至 {max}。投注 {betting} 秒，开奖 {drawing} 秒，休息 {rest} 秒。",
			"zh-HANT": "每期開出三個 0 到 9 的數字，以三數之和（0-27）定輸贏：大 BIG 14-27，小 SMALL 0-13，單 SINGLE 為奇數，雙 DOUBLE 為偶數。中獎返還投注額的 {odds} 倍；投注額 {min} 至 {max}。投注 {betting} 秒，開獎 {drawing} 秒，休息 {rest} 秒。",
		},
		"rounds.fair.text": {
			"en-US":   "Provably fair: before betting opens, each round publishes seedHash, the SHA-256 of a secret server seed. The digits come from HMAC-SHA256(seed, issue number); after the draw the seed is revealed so anyone can recompute the result.",
			"es-ES":   "Demostrablemente justo: antes de abrir las apuestas, cada ronda publica seedHash, el SHA-256 de una semilla secreta del servidor. Los dígitos salen de HMAC-SHA256(semilla, número de ronda); tras el sorteo se revela la semilla y cualquiera puede recalcular el resultado.",
			"ms-MY":   "Adil yang boleh dibuktikan: sebelum pertaruhan dibuka, setiap pusingan menerbitkan seedHash, iaitu SHA-256 bagi benih rahsia pelayan. Digit diperoleh daripada HMAC-SHA256(benih, nombor pusingan); selepas cabutan benih didedahkan supaya sesiapa sahaja boleh mengira semula keputusan.",
			"vi-VN":   "Công bằng có thể kiểm chứng: trước khi mở cược, mỗi kỳ công bố seedHash, tức SHA-256 của hạt giống bí mật trên máy chủ. Các chữ số được tính từ HMAC-SHA256(hạt giống, số kỳ); sau khi quay, hạt giống được công bố để ai cũng có thể tính lại kết quả.",
			"zh-CN":   "可证明公平：每期开放投注前公布 seedHash，即服务器秘密种子的 SHA-256 值。号码由 HMAC-SHA256(种子, 期号) 得出；开奖后公开种子，任何人都可以重新计算结果。",
			"zh-HANT": "可證明公平：每期開放投注前公布 seedHash，即伺服器秘密種子的 SHA-256 值。號碼由 HMAC-SHA256(種子, 期號) 得出；開獎後公開種子，任何人都可以重新計算結果。",
		},
	})
}
