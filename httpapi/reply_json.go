package httpapi

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"kj/actors/window"
)

// The hottest answers — the wallet summary (/user/amount,
// /user/getUserAmount), the profile (/user/mine, /user/index), a bet and
// the lobby — are written by hand instead of through encoding/json's
// reflection, which was the largest part of a small read's cost left after
// the envelope's opening (issue 38 #5, BenchmarkHTTPPathRead). The bytes
// are encoding/json's: the same field order and names, strings escaped the
// same way (TestHandWrittenRepliesMatchEncodingJSON fills every field,
// so a field added to one of these types and not here fails it).

// appendData appends data's JSON as json.Encoder writes it (without its
// newline) when data is of a type written by hand; ok is false otherwise.
func appendData(b []byte, data any) (_ []byte, ok bool) {
	switch d := data.(type) {
	case amountReply:
		return appendAmountReply(b, &d), true
	case UserInfo:
		return appendUserInfo(b, &d, nil), true
	case userIndexReply:
		return appendUserInfo(b, &d.UserInfo, &d), true
	case window.BetView:
		return appendBetView(b, &d), true
	case window.Lobby:
		return appendLobby(b, &d), true
	}
	return b, false
}

func appendAmountReply(b []byte, r *amountReply) []byte {
	b = append(b, `{"userId":`...)
	b = appendJSONString(b, r.UserID)
	b = append(b, `,"amount":`...)
	b = strconv.AppendInt(b, r.Amount, 10)
	b = append(b, `,"frozenAmount":`...)
	b = strconv.AppendInt(b, r.FrozenAmount, 10)
	b = append(b, `,"hasFundPassword":`...)
	b = strconv.AppendBool(b, r.HasFundPassword)
	b = append(b, `,"bankCardCount":`...)
	b = strconv.AppendInt(b, int64(r.BankCardCount), 10)
	b = append(b, `,"isRecharge":`...)
	b = strconv.AppendBool(b, r.IsRecharge)
	b = append(b, `,"exchangeMin":`...)
	b = strconv.AppendInt(b, r.ExchangeMin, 10)
	b = append(b, `,"exchangeMax":`...)
	b = strconv.AppendInt(b, r.ExchangeMax, 10)
	return append(b, '}')
}

// appendUserInfo writes u, and idx's own fields after it for /user/index
// (UserInfo is embedded there, so its fields come first).
func appendUserInfo(b []byte, u *UserInfo, idx *userIndexReply) []byte {
	b = append(b, `{"userId":`...)
	b = appendJSONString(b, u.UserID)
	b = append(b, `,"username":`...)
	b = appendJSONString(b, u.Username)
	b = append(b, `,"nickName":`...)
	b = appendJSONString(b, u.NickName)
	b = append(b, `,"avatar":`...)
	b = appendJSONString(b, u.Avatar)
	b = append(b, `,"phone":`...)
	b = appendJSONString(b, u.Phone)
	b = append(b, `,"notice":`...)
	b = strconv.AppendInt(b, u.Notice, 10)
	b = append(b, `,"isActivation":`...)
	b = strconv.AppendInt(b, int64(u.IsActivation), 10)
	b = append(b, `,"customerId":`...)
	b = appendJSONString(b, u.CustomerID)
	b = append(b, `,"isRecharge":`...)
	b = strconv.AppendBool(b, u.IsRecharge)
	b = append(b, `,"inviteCode":`...)
	b = appendJSONString(b, u.InviteCode)
	b = append(b, `,"hasFundPassword":`...)
	b = strconv.AppendBool(b, u.HasFundPassword)
	b = append(b, `,"isOperator":`...)
	b = strconv.AppendInt(b, int64(u.IsOperator), 10)
	if idx != nil {
		b = append(b, `,"createdAt":`...)
		b = strconv.AppendInt(b, idx.CreatedAt, 10)
		b = append(b, `,"superiorBound":`...)
		b = strconv.AppendBool(b, idx.SuperiorBound)
	}
	return append(b, '}')
}

func appendBetView(b []byte, v *window.BetView) []byte {
	b = append(b, `{"betId":`...)
	b = appendJSONString(b, v.BetID)
	b = append(b, `,"noteNo":`...)
	b = appendJSONString(b, v.NoteNo)
	b = append(b, `,"windowId":`...)
	b = strconv.AppendInt(b, v.WindowID, 10)
	b = append(b, `,"issue":`...)
	b = appendJSONString(b, v.Issue)
	b = append(b, `,"content":`...)
	b = appendJSONString(b, string(v.Content))
	b = append(b, `,"amount":`...)
	b = strconv.AppendInt(b, v.Amount, 10)
	b = append(b, `,"matched":`...)
	b = strconv.AppendBool(b, v.Matched)
	b = append(b, `,"result":`...)
	b = appendJSONString(b, v.Result)
	b = append(b, `,"payout":`...)
	b = strconv.AppendInt(b, v.Payout, 10)
	b = append(b, `,"placedAt":`...)
	b = strconv.AppendInt(b, v.PlacedAt, 10)
	b = append(b, `,"settledAt":`...)
	b = strconv.AppendInt(b, v.SettledAt, 10)
	return append(b, '}')
}

func appendLobby(b []byte, l *window.Lobby) []byte {
	b = append(b, `{"serverTime":`...)
	b = strconv.AppendInt(b, l.ServerTime, 10)
	b = append(b, `,"availablePoints":`...)
	b = strconv.AppendInt(b, l.AvailablePoints, 10)
	b = append(b, `,"windows":`...)
	if l.Windows == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range l.Windows {
			if i > 0 {
				b = append(b, ',')
			}
			w := &l.Windows[i]
			b = append(b, `{"windowId":`...)
			b = strconv.AppendInt(b, w.WindowID, 10)
			b = append(b, `,"index":`...)
			b = strconv.AppendInt(b, w.Index, 10)
			b = append(b, `,"issue":`...)
			b = appendJSONString(b, w.Issue)
			b = append(b, `,"phase":`...)
			b = appendJSONString(b, string(w.Phase))
			b = append(b, `,"deadline":`...)
			b = strconv.AppendInt(b, w.Deadline, 10)
			b = append(b, `,"seedHash":`...)
			b = appendJSONString(b, w.SeedHash)
			b = append(b, `,"roundsCount":`...)
			b = strconv.AppendInt(b, w.RoundsCount, 10)
			b = append(b, `,"ordersCount":`...)
			b = strconv.AppendInt(b, w.OrdersCount, 10)
			b = append(b, `,"totalPoints":`...)
			b = strconv.AppendInt(b, w.TotalPoints, 10)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendJSONString appends s quoted as encoding/json quotes it. Strings of
// printable ASCII with nothing to escape (ids, issues, hashes, most names)
// are copied; any other goes through encoding/json itself, so escapes,
// HTML-safe characters, U+2028/U+2029 and invalid UTF-8 come out exactly as
// it writes them.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always marshals
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
