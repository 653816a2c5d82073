package window

import (
	"math"
	"testing"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s = %.12g, want %.12g (±%g)", what, got, want, tol)
	}
}

func TestChiSquareSurvivalClosedForms(t *testing.T) {
	for _, x := range []float64{0.001, 0.1, 0.5, 1, 1.6, 2, 3.5, 8, 15, 40, 120} {
		// df 1: P(X ≥ x) = erfc(√(x/2)); df 2: e^(−x/2);
		// df 3: erfc(√(x/2)) + √(2x/π)·e^(−x/2); df 4: e^(−x/2)(1 + x/2).
		near(t, "df1", ChiSquareSurvival(x, 1), math.Erfc(math.Sqrt(x/2)), 1e-12)
		near(t, "df2", ChiSquareSurvival(x, 2), math.Exp(-x/2), 1e-12)
		near(t, "df3", ChiSquareSurvival(x, 3), math.Erfc(math.Sqrt(x/2))+math.Sqrt(2*x/math.Pi)*math.Exp(-x/2), 1e-12)
		near(t, "df4", ChiSquareSurvival(x, 4), math.Exp(-x/2)*(1+x/2), 1e-12)
	}
	// Critical values from the chi-square tables.
	near(t, "0.95 quantile df1", ChiSquareSurvival(3.841458820694124, 1), 0.05, 1e-9)
	near(t, "median df1", ChiSquareSurvival(0.454936423119572, 1), 0.5, 1e-9)
	near(t, "0.95 quantile df3", ChiSquareSurvival(7.814727903251178, 3), 0.05, 1e-9)
	near(t, "0.95 quantile df9", ChiSquareSurvival(16.918977604620448, 9), 0.05, 1e-9)
	near(t, "0.99 quantile df9", ChiSquareSurvival(21.665994333461924, 9), 0.01, 1e-9)
	near(t, "0.95 quantile df27", ChiSquareSurvival(40.11327206941359, 27), 0.05, 1e-9)
	if got := ChiSquareSurvival(0, 9); got != 1 {
		t.Errorf("Q(0) = %v, want 1", got)
	}
	if got := ChiSquareSurvival(5, 0); !math.IsNaN(got) {
		t.Errorf("df 0 = %v, want NaN", got)
	}
}

func testByGroup(t *testing.T, f Fairness, group string) FairnessTest {
	t.Helper()
	for _, x := range f.Tests {
		if x.Group == group {
			return x
		}
	}
	t.Fatalf("no %s test in %+v", group, f)
	return FairnessTest{}
}

func rowOf(t *testing.T, x FairnessTest, outcome string) FairnessRow {
	t.Helper()
	for _, r := range x.Rows {
		if r.Outcome == outcome {
			return r
		}
	}
	t.Fatalf("no row %s in %s", outcome, x.Group)
	return FairnessRow{}
}

// Every triple once is the fair draw itself: the exact expected shares,
// observed equal to expected, chi-square 0 and p-value 1.
func TestFairnessOfEveryTripleOnce(t *testing.T) {
	var c TripleCounts
	for i := range c {
		c[i] = 1
	}
	f := ComputeFairness(&c)
	if f.Rounds != 1000 {
		t.Fatalf("rounds = %d", f.Rounds)
	}
	want := map[string]map[string]int64{
		"size":        {"BIG": 500, "SMALL": 500},
		"parity":      {"SINGLE": 500, "DOUBLE": 500},
		"combination": {"BIG SINGLE": 231, "BIG DOUBLE": 269, "SMALL SINGLE": 269, "SMALL DOUBLE": 231},
		"digit":       {"0": 300, "5": 300, "9": 300},
	}
	for group, rows := range want {
		x := testByGroup(t, f, group)
		for outcome, n := range rows {
			r := rowOf(t, x, outcome)
			if r.Observed != n {
				t.Errorf("%s %s observed %d, want %d", group, outcome, r.Observed, n)
			}
			near(t, group+" "+outcome+" expected", r.Expected, float64(n), 1e-9)
		}
		near(t, group+" chi-square", x.ChiSq, 0, 1e-9)
		near(t, group+" p", x.PValue, 1, 1e-12)
	}
	if d := testByGroup(t, f, "digit"); d.Total != 3000 || d.DF != 9 {
		t.Errorf("digits total %d df %d, want 3000 and 9", d.Total, d.DF)
	}
}

// Seven rounds of 9 9 9 (27: BIG SINGLE) and three of 0 0 0 (0: SMALL
// DOUBLE), worked by hand.
func TestFairnessOfAKnownSequence(t *testing.T) {
	var c TripleCounts
	for i := 0; i < 7; i++ {
		c.Add([3]int{9, 9, 9})
	}
	for i := 0; i < 3; i++ {
		c.Add([3]int{0, 0, 0})
	}
	f := ComputeFairness(&c)
	if f.Rounds != 10 {
		t.Fatalf("rounds = %d", f.Rounds)
	}
	// size: (7−5)²/5 + (3−5)²/5 = 1.6 with 1 degree of freedom.
	size := testByGroup(t, f, "size")
	near(t, "size chi-square", size.ChiSq, 1.6, 1e-12)
	near(t, "size p", size.PValue, math.Erfc(math.Sqrt(0.8)), 1e-12)
	near(t, "size p (≈0.2059)", size.PValue, 0.2059, 1e-4)
	near(t, "BIG share", rowOf(t, size, "BIG").Share, 0.7, 1e-12)
	parity := testByGroup(t, f, "parity")
	if rowOf(t, parity, "SINGLE").Observed != 7 || rowOf(t, parity, "DOUBLE").Observed != 3 {
		t.Errorf("parity rows %+v", parity.Rows)
	}
	near(t, "parity chi-square", parity.ChiSq, 1.6, 1e-12)
	// combination: expected 2.31, 2.69, 2.69, 2.31 for 7, 0, 0, 3.
	comb := testByGroup(t, f, "combination")
	wantChi := 4.69*4.69/2.31 + 2.69 + 2.69 + 0.69*0.69/2.31
	near(t, "combination chi-square", comb.ChiSq, wantChi, 1e-9)
	near(t, "combination chi-square (≈15.108)", comb.ChiSq, 15.108225, 1e-6)
	if comb.DF != 3 {
		t.Errorf("combination df %d", comb.DF)
	}
	near(t, "combination p", comb.PValue,
		math.Erfc(math.Sqrt(wantChi/2))+math.Sqrt(2*wantChi/math.Pi)*math.Exp(-wantChi/2), 1e-12)
	// digits: 21 nines and 9 zeros of 30, 3 expected each:
	// (18² + 6²)/3 + 8·3²/3 = 120 + 24 = 144 with 9 degrees of freedom.
	digits := testByGroup(t, f, "digit")
	near(t, "digit chi-square", digits.ChiSq, 144, 1e-9)
	if digits.PValue <= 0 || digits.PValue > 1e-20 {
		t.Errorf("digit p = %g, want a tiny positive number", digits.PValue)
	}
	if rowOf(t, digits, "9").Observed != 21 || rowOf(t, digits, "0").Observed != 9 || rowOf(t, digits, "4").Observed != 0 {
		t.Errorf("digit rows %+v", digits.Rows)
	}
}

func TestFairnessOfNoRounds(t *testing.T) {
	var c TripleCounts
	f := ComputeFairness(&c)
	for _, x := range f.Tests {
		if x.ChiSq != 0 || x.PValue != 1 || x.Total != 0 {
			t.Errorf("%s: %+v", x.Group, x)
		}
	}
}
