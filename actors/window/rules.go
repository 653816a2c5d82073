package window

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"kj/storage"
)

// Limits on what an operator (or the configuration) may set. They keep
// stake × odds far inside int64 and phases long enough to be usable.
const (
	MinOddsBP   = 10000         // 1.00: a win never pays less than the stake
	MaxOddsBP   = 1000000       // 100.00
	MaxAmount   = 1000000000000 // 10,000,000,000.00 points, in cents
	MinPhase    = time.Second
	MaxPhase    = 24 * time.Hour
	MaxWindows  = 9999 // the issue number has four digits for the window
	OddsDivisor = 10000
)

// Rules are a window's odds, bet limits and phase lengths.
type Rules struct {
	OddsBP  int64 // payout multiple in 1/10000: 19800 = 1.98
	MinBet  int64 // cents
	MaxBet  int64 // cents
	Betting time.Duration
	Drawing time.Duration
	Rest    time.Duration
}

// RuleError names the rule field that is out of range and the range.
type RuleError struct {
	Field string // odds, minBet, maxBet, bettingMs, drawingMs, restMs
	Range string // the allowed values, e.g. "1.00 - 100.00"
}

func (e *RuleError) Error() string { return "window: " + e.Field + " must be " + e.Range }

// Check validates r, naming the first field that breaks its limit.
func (r Rules) Check() error {
	switch {
	case r.OddsBP < MinOddsBP || r.OddsBP > MaxOddsBP:
		return &RuleError{"odds", FormatOdds(MinOddsBP) + " - " + FormatOdds(MaxOddsBP)}
	case r.MinBet < 1 || r.MinBet > MaxAmount:
		return &RuleError{"minBet", "1 - " + strconv.FormatInt(MaxAmount, 10)}
	case r.MaxBet < r.MinBet || r.MaxBet > MaxAmount:
		return &RuleError{"maxBet", strconv.FormatInt(r.MinBet, 10) + " - " + strconv.FormatInt(MaxAmount, 10)}
	}
	for _, p := range []struct {
		name string
		d    time.Duration
	}{{"bettingMs", r.Betting}, {"drawingMs", r.Drawing}, {"restMs", r.Rest}} {
		if p.d < MinPhase || p.d > MaxPhase || p.d%time.Millisecond != 0 {
			return &RuleError{p.name, strconv.FormatInt(MinPhase.Milliseconds(), 10) + " - " + strconv.FormatInt(MaxPhase.Milliseconds(), 10)}
		}
	}
	return nil
}

// Period is one round's whole length.
func (r Rules) Period() time.Duration { return r.Betting + r.Drawing + r.Rest }

// RulesOf reads a stored window's rules.
func RulesOf(w storage.RoundWindow) Rules {
	return Rules{OddsBP: w.OddsBP, MinBet: w.MinBet, MaxBet: w.MaxBet,
		Betting: time.Duration(w.BettingMs) * time.Millisecond,
		Drawing: time.Duration(w.DrawingMs) * time.Millisecond,
		Rest:    time.Duration(w.RestMs) * time.Millisecond}
}

// FormatOdds writes basis points as the decimal players see: 19800 → "1.98".
func FormatOdds(bp int64) string {
	s := strconv.FormatInt(bp/OddsDivisor, 10) + "." + fmt.Sprintf("%04d", bp%OddsDivisor)
	s = strings.TrimRight(s, "0")
	if strings.HasSuffix(s, ".") {
		s += "00"
	} else if len(s)-strings.IndexByte(s, '.') == 2 {
		s += "0"
	}
	return s
}

// ParseOdds reads a decimal with at most four places ("1.98") as basis
// points, exactly: no floating point touches the odds.
func ParseOdds(s string) (int64, error) {
	s = strings.TrimSpace(s)
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(frac) > 4 || !digits(whole) || !digits(frac) || len(whole) > 6 {
		return 0, errors.New("want a decimal with at most 4 places, e.g. 1.98")
	}
	w, _ := strconv.ParseInt(whole, 10, 64)
	f := int64(0)
	if frac != "" {
		f, _ = strconv.ParseInt(frac+strings.Repeat("0", 4-len(frac)), 10, 64)
	}
	return w*OddsDivisor + f, nil
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// FormatCents writes cents as points with two decimals: 150 → "1.50".
func FormatCents(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", sign, c/100, c%100)
}
