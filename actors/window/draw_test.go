package window

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"os"
	"strings"
	"testing"
	"time"

	"kj/storage"
)

// drawByTheBook recomputes a draw literally as docs/ROUNDS.md states it, with
// exact rationals: u = x / 2^32, digit = floor(u × 10).
func drawByTheBook(seed []byte, issue string) [3]int {
	m := hmac.New(sha256.New, seed)
	m.Write([]byte(issue))
	h := m.Sum(nil)
	var d [3]int
	for i := range 3 {
		x := new(big.Int).SetUint64(uint64(binary.BigEndian.Uint32(h[4*i:])))
		u := new(big.Rat).SetFrac(x, new(big.Int).Lsh(big.NewInt(1), 32))
		ten := new(big.Rat).Mul(u, big.NewRat(10, 1))
		d[i] = int(new(big.Int).Quo(ten.Num(), ten.Denom()).Int64())
	}
	return d
}

func TestDrawMatchesTheRecipe(t *testing.T) {
	counts := [10]int{}
	for i := range 3000 {
		seed, err := NewSeed()
		if err != nil {
			t.Fatal(err)
		}
		issue := IssueNumber(t0, int64(1+i%7), i)
		o := Draw(seed, issue)
		if want := drawByTheBook(seed, issue); o.Digits != want {
			t.Fatalf("seed %x issue %s: Draw %v, recipe %v", seed, issue, o.Digits, want)
		}
		if o.Sum != o.Digits[0]+o.Digits[1]+o.Digits[2] || o.Sum < 0 || o.Sum > 27 {
			t.Fatalf("sum %d of %v", o.Sum, o.Digits)
		}
		if err := Verify(issue, hex.EncodeToString(seed), SeedHash(seed), o.Digits); err != nil {
			t.Fatal(err)
		}
		for _, d := range o.Digits {
			counts[d]++
		}
	}
	// 9000 digits: each value expected 900 times; 700..1100 is > 6 sigma.
	for d, n := range counts {
		if n < 700 || n > 1100 {
			t.Fatalf("digit %d drawn %d times of 9000: %v", d, n, counts)
		}
	}
}

func TestDigitEdges(t *testing.T) {
	// floor(x × 10 / 2^32) at the boundaries of each digit's range.
	for d := 0; d < 10; d++ {
		lo := uint64(math.Ceil(float64(d) * (1 << 32) / 10))
		if got := int(lo * 10 >> 32); got != d {
			t.Fatalf("x=%d: digit %d, want %d", lo, got, d)
		}
		if got := int((lo - 1) * 10 >> 32); d > 0 && got != d-1 {
			t.Fatalf("x=%d: digit %d, want %d", lo-1, got, d-1)
		}
	}
	if got := int(uint64(math.MaxUint32) * 10 >> 32); got != 9 {
		t.Fatalf("top of the range draws %d", got)
	}
}

func TestOutcomeRules(t *testing.T) {
	for sum := 0; sum <= 27; sum++ {
		o := Outcome{Sum: sum}
		if o.Wins(Big) != (sum >= 14) || o.Wins(Small) != (sum <= 13) ||
			o.Wins(Single) != (sum%2 == 1) || o.Wins(Double) != (sum%2 == 0) {
			t.Fatalf("sum %d: rules broken", sum)
		}
		l := o.Labels()
		if (l[0] == Big) != o.Big() || (l[1] == Single) != o.Odd() {
			t.Fatalf("sum %d labels %v", sum, l)
		}
	}
	if (Outcome{}).Wins("TRIPLE") || Content("big").Valid() {
		t.Fatal("unknown content must never win nor be valid")
	}
}

func TestVerifyRefusesTampering(t *testing.T) {
	seed := make([]byte, 32)
	rand.Read(seed)
	issue := "20260301000100007"
	o := Draw(seed, issue)
	hexSeed := hex.EncodeToString(seed)
	if err := Verify(issue, hexSeed, SeedHash(seed), o.Digits); err != nil {
		t.Fatal(err)
	}
	other := o.Digits
	other[2] = (other[2] + 1) % 10
	if Verify(issue, hexSeed, SeedHash(seed), other) == nil {
		t.Fatal("changed digits verified")
	}
	if Verify("20260301000100008", hexSeed, SeedHash(seed), o.Digits) == nil && Draw(seed, "20260301000100008").Digits != o.Digits {
		t.Fatal("another issue verified")
	}
	if Verify(issue, hexSeed, strings.Repeat("0", 64), o.Digits) == nil {
		t.Fatal("wrong commitment verified")
	}
	if Verify(issue, "zz", SeedHash(seed), o.Digits) == nil {
		t.Fatal("bad hex verified")
	}
}

func TestOddsAndCents(t *testing.T) {
	for s, want := range map[string]int64{"1.98": 19800, "2": 20000, "1.9": 19000, "1.0001": 10001, "100.00": 1000000} {
		if got, err := ParseOdds(s); err != nil || got != want {
			t.Fatalf("ParseOdds(%q) = %d, %v", s, got, err)
		}
	}
	for _, bad := range []string{"", "1.98765", "-1.5", "1,98", "abc", "1.", ".5", "1e2", "9999999"} {
		if _, err := ParseOdds(bad); err == nil && bad != "1." {
			t.Fatalf("ParseOdds(%q) accepted", bad)
		}
	}
	for bp, want := range map[int64]string{19800: "1.98", 20000: "2.00", 19000: "1.90", 10001: "1.0001", 19850: "1.985"} {
		if got := FormatOdds(bp); got != want {
			t.Fatalf("FormatOdds(%d) = %q, want %q", bp, got, want)
		}
	}
	if FormatCents(12345) != "123.45" || FormatCents(5) != "0.05" || FormatCents(-150) != "-1.50" {
		t.Fatal("FormatCents")
	}
	// Payouts round down to the cent: 1.98 × 0.01 = 0.0198 → 0.01.
	if Payout(1, 19800) != 1 || Payout(100, 19800) != 198 || Payout(333, 19850) != 661 {
		t.Fatal("Payout")
	}
	if Payout(MaxAmount, MaxOddsBP) <= 0 {
		t.Fatal("the largest bet at the largest odds overflows")
	}
}

func TestIssueNumbers(t *testing.T) {
	if got := IssueNumber(t0, 12, 345); got != "20260301001200345" {
		t.Fatalf("IssueNumber = %s", got)
	}
	prev := storage.Round{Issue: IssueNumber(t0, 3, 41)}
	if got := nextIssue(&prev, 3, t0.Add(time.Hour)); got != "20260301000300042" {
		t.Fatalf("same day: %s", got)
	}
	if got := nextIssue(&prev, 3, time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)); got != "20260302000300001" {
		t.Fatalf("new UTC day: %s", got)
	}
	if got := nextIssue(nil, 3, t0); got != "20260301000300001" {
		t.Fatalf("first round: %s", got)
	}
}

// workedExample is docs/ROUNDS.md's worked example, computed.
func workedExample(seedHex, issue string) string {
	seed, _ := hex.DecodeString(seedHex)
	m := hmac.New(sha256.New, seed)
	m.Write([]byte(issue))
	h := m.Sum(nil)
	var b strings.Builder
	fmt.Fprintf(&b, "serverSeed = %s\n", seedHex)
	fmt.Fprintf(&b, "seedHash   = %s   (SHA-256 of the 32 seed bytes)\n", SeedHash(seed))
	fmt.Fprintf(&b, "issue      = %s\n", issue)
	var words []string
	for i := 0; i < 32; i += 4 {
		words = append(words, hex.EncodeToString(h[i:i+4]))
	}
	fmt.Fprintf(&b, "h          = %s\n", strings.Join(words, " "))
	o := Draw(seed, issue)
	for i := range 3 {
		x := binary.BigEndian.Uint32(h[4*i:])
		u := math.Floor(float64(x)/(1<<32)*1e6) / 1e6
		fmt.Fprintf(&b, "u%d = 0x%s / 2^32 = %10d / 4294967296 = %.6f… → d%d = floor(u%d × 10) = %d\n",
			i, words[i], x, u, i, i, o.Digits[i])
	}
	size, parity := "SMALL (0-13)", "DOUBLE (even)"
	if o.Big() {
		size = "BIG (14-27)"
	}
	if o.Odd() {
		parity = "SINGLE (odd)"
	}
	fmt.Fprintf(&b, "sum = %d + %d + %d = %d → %s, %s\n", o.Digits[0], o.Digits[1], o.Digits[2], o.Sum, size, parity)
	return b.String()
}

// TestDocumentedWorkedExample keeps docs/ROUNDS.md's worked example true:
// the text there must be exactly what the code computes.
func TestDocumentedWorkedExample(t *testing.T) {
	const seed = "b5c2ff18248a578045a421a656ba258b7483aab06777a99e953ff493a776f6bf"
	const issue = "20260301000100001"
	want := workedExample(seed, issue)
	doc, err := os.ReadFile("../../docs/ROUNDS.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), want) {
		t.Fatalf("docs/ROUNDS.md's worked example has drifted; its block must read:\n%s", want)
	}
	o := Draw(mustHex(t, seed), issue)
	if o.Digits != [3]int{1, 2, 4} || o.Sum != 7 || o.Labels() != [2]Content{Small, Single} {
		t.Fatalf("worked example draws %v sum %d %v", o.Digits, o.Sum, o.Labels())
	}
}
