package window

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
)

// Content is what a bet is on.
type Content string

// The four bet options of the default game.
const (
	Big    Content = "BIG"    // sum 14-27
	Small  Content = "SMALL"  // sum 0-13
	Single Content = "SINGLE" // odd sum
	Double Content = "DOUBLE" // even sum
)

// Contents lists the bet options in the order the rules show them.
var Contents = []Content{Big, Small, Single, Double}

// Valid reports whether c is one of the four options.
func (c Content) Valid() bool {
	switch c {
	case Big, Small, Single, Double:
		return true
	}
	return false
}

// SeedSize is the server seed's length in bytes.
const SeedSize = 32

// NewSeed returns a fresh server seed from the operating system's CSPRNG.
func NewSeed() ([]byte, error) {
	seed := make([]byte, SeedSize)
	if _, err := rand.Read(seed); err != nil {
		return nil, fmt.Errorf("window: server seed: %w", err)
	}
	return seed, nil
}

// SeedHash is the commitment published before betting opens:
// hex(SHA-256(seed bytes)).
func SeedHash(seed []byte) string {
	h := sha256.Sum256(seed)
	return hex.EncodeToString(h[:])
}

// Outcome is a round's result.
type Outcome struct {
	Digits [3]int
	Sum    int
}

// Draw derives a round's digits from its server seed and issue number, the
// recipe anyone can repeat to verify a result:
//
//	h       = HMAC-SHA256(key = seed bytes, message = issue as ASCII)
//	u_i     = big-endian uint32(h[4i : 4i+4]) / 2^32     for i = 0, 1, 2
//	digit_i = floor(u_i × 10)
//	sum     = digit_0 + digit_1 + digit_2
//
// floor(u × 10) with u = x / 2^32 is exactly (x × 10) >> 32 in integers, so
// no floating point is involved and no digit is favoured the way x mod 10
// would favour the low ones.
func Draw(seed []byte, issue string) Outcome {
	mac := hmac.New(sha256.New, seed)
	mac.Write([]byte(issue))
	h := mac.Sum(nil)
	var o Outcome
	for i := range 3 {
		x := uint64(binary.BigEndian.Uint32(h[4*i : 4*i+4]))
		o.Digits[i] = int(x * 10 >> 32)
		o.Sum += o.Digits[i]
	}
	return o
}

// Big reports a sum of 14-27 (otherwise SMALL, 0-13).
func (o Outcome) Big() bool { return o.Sum >= 14 }

// Odd reports an odd sum (SINGLE; an even sum is DOUBLE).
func (o Outcome) Odd() bool { return o.Sum%2 == 1 }

// Wins reports whether a bet on c wins.
func (o Outcome) Wins(c Content) bool {
	switch c {
	case Big:
		return o.Big()
	case Small:
		return !o.Big()
	case Single:
		return o.Odd()
	case Double:
		return !o.Odd()
	}
	return false
}

// Labels is the outcome as the product shows it: [BIG|SMALL, SINGLE|DOUBLE].
func (o Outcome) Labels() [2]Content {
	l := [2]Content{Small, Double}
	if o.Big() {
		l[0] = Big
	}
	if o.Odd() {
		l[1] = Single
	}
	return l
}

// Verify recomputes a published result from its revealed seed (hex): the
// seed must hash to seedHash and draw the given digits for issue.
func Verify(issue, seedHex, seedHash string, digits [3]int) error {
	seed, err := hex.DecodeString(seedHex)
	if err != nil || len(seed) != SeedSize {
		return fmt.Errorf("window: seed %q is not %d bytes of hex", seedHex, SeedSize)
	}
	if got := SeedHash(seed); got != seedHash {
		return fmt.Errorf("window: issue %s: SHA-256(seed) = %s, published %s", issue, got, seedHash)
	}
	if got := Draw(seed, issue).Digits; got != digits {
		return fmt.Errorf("window: issue %s: seed draws %v, published %v", issue, got, digits)
	}
	return nil
}

// Payout is what a winning stake returns, stake included: amount × oddsBP /
// 10000 cents, rounded down (the fraction of a cent stays with the house).
// Limits keep the product far from overflow: amount ≤ MaxAmount and
// oddsBP ≤ MaxOddsBP.
func Payout(amount, oddsBP int64) int64 { return amount * oddsBP / 10000 }
