package window

import "math"

// Fairness: how the drawn outcomes compare with what a fair draw promises.
// A fair draw makes every one of the 1,000 digit triples equally likely, so
// the expected share of each outcome is exact and computed here by counting
// triples, never typed in. Pearson's chi-square test says how surprising
// the observed counts are: a p-value near 0 over many rounds would mean the
// draw is biased; over a few rounds any figure is normal.

// FairnessRow is one outcome: how often it came and how often it should.
type FairnessRow struct {
	Outcome  string  `json:"outcome"`  // BIG, SMALL, SINGLE, DOUBLE, BIG SINGLE..., or a digit "0".."9"
	Observed int64   `json:"observed"` // count
	Expected float64 `json:"expected"` // count a fair draw expects
	Share    float64 `json:"share"`    // observed / total
	Fair     float64 `json:"fair"`     // the share a fair draw expects
	// Latest is the newest of the rounds with this outcome, for "verify
	// any round" (the players' report only).
	Latest *ResultView `json:"latest,omitempty"`
}

// FairnessTest is one chi-square test over a group of outcomes that
// together cover every round (or, for digits, every digit drawn).
type FairnessTest struct {
	Group  string        `json:"group"` // size, parity, combination, digit
	Total  int64         `json:"total"`
	Rows   []FairnessRow `json:"rows"`
	ChiSq  float64       `json:"chiSquare"`
	DF     int           `json:"df"`
	PValue float64       `json:"pValue"`
}

// Fairness is the report over some rounds.
type Fairness struct {
	Rounds int64          `json:"rounds"`
	Tests  []FairnessTest `json:"tests"`
}

// TripleCounts counts drawn rounds by their digits: index d0*100+d1*10+d2.
type TripleCounts [1000]int64

// Add counts one round.
func (c *TripleCounts) Add(d [3]int) { c[d[0]*100+d[1]*10+d[2]]++ }

// fairnessGroup classifies a triple (by its index) into a group's category.
type fairnessGroup struct {
	name       string
	categories []string
	perDigit   bool // counts the three digits of a round, not the round
	classify   func(d0, d1, d2 int) int
}

func sizeOf(sum int) int {
	if sum >= 14 {
		return 0
	}
	return 1
}

func parityOf(sum int) int {
	if sum%2 == 1 {
		return 0
	}
	return 1
}

var fairnessGroups = []fairnessGroup{
	{name: "size", categories: []string{string(Big), string(Small)},
		classify: func(a, b, c int) int { return sizeOf(a + b + c) }},
	{name: "parity", categories: []string{string(Single), string(Double)},
		classify: func(a, b, c int) int { return parityOf(a + b + c) }},
	{name: "combination", categories: []string{"BIG SINGLE", "BIG DOUBLE", "SMALL SINGLE", "SMALL DOUBLE"},
		classify: func(a, b, c int) int { return 2*sizeOf(a+b+c) + parityOf(a+b+c) }},
	{name: "digit", categories: []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}, perDigit: true},
}

// ComputeFairness tests the rounds counted in counts.
func ComputeFairness(counts *TripleCounts) Fairness {
	var rounds int64
	for _, n := range counts {
		rounds += n
	}
	out := Fairness{Rounds: rounds, Tests: make([]FairnessTest, 0, len(fairnessGroups))}
	for _, g := range fairnessGroups {
		k := len(g.categories)
		observed := make([]int64, k)
		fair := make([]float64, k) // probability under a fair draw
		var total int64
		for i, n := range counts {
			d0, d1, d2 := i/100, i/10%10, i%10
			if g.perDigit {
				for _, d := range [3]int{d0, d1, d2} {
					observed[d] += n
					fair[d] += 1.0 / 3000
				}
				total += 3 * n
				continue
			}
			cat := g.classify(d0, d1, d2)
			observed[cat] += n
			fair[cat] += 1.0 / 1000
			total += n
		}
		t := FairnessTest{Group: g.name, Total: total, DF: k - 1, Rows: make([]FairnessRow, k)}
		for i := range g.categories {
			exp := fair[i] * float64(total)
			row := FairnessRow{Outcome: g.categories[i], Observed: observed[i], Expected: exp, Fair: fair[i]}
			if total > 0 {
				row.Share = float64(observed[i]) / float64(total)
				d := float64(observed[i]) - exp
				t.ChiSq += d * d / exp
			}
			t.Rows[i] = row
		}
		t.PValue = 1
		if total > 0 {
			t.PValue = ChiSquareSurvival(t.ChiSq, t.DF)
		}
		out.Tests = append(out.Tests, t)
	}
	return out
}

// ChiSquareSurvival is P(X ≥ x) for X chi-square distributed with df
// degrees of freedom: the regularized upper incomplete gamma function
// Q(df/2, x/2). Written here rather than imported: the module has no
// statistics library (gonum's stat is not a dependency), and this one
// function is a short series and continued fraction whose results the
// tests pin against closed forms (df 1: erfc(√(x/2)); df 2: e^(−x/2)) and
// published table values.
func ChiSquareSurvival(x float64, df int) float64 {
	if df <= 0 || math.IsNaN(x) {
		return math.NaN()
	}
	if x <= 0 {
		return 1
	}
	return upperGammaQ(float64(df)/2, x/2)
}

// upperGammaQ is Q(a, x) = Γ(a, x) / Γ(a) for a > 0, x > 0: by the series
// of P = 1 − Q when x < a+1 (where it converges fast), else by Legendre's
// continued fraction for Q evaluated with the modified Lentz method.
func upperGammaQ(a, x float64) float64 {
	lgA, _ := math.Lgamma(a)
	prefix := math.Exp(-x + a*math.Log(x) - lgA) // e^-x x^a / Γ(a)
	const eps = 1e-15
	if x < a+1 {
		// P(a, x) = e^-x x^a / Γ(a+1) · Σ x^n / ((a+1)...(a+n))
		term := 1 / a
		sum := term
		for n := 1; n < 1000; n++ {
			term *= x / (a + float64(n))
			sum += term
			if math.Abs(term) < math.Abs(sum)*eps {
				break
			}
		}
		return math.Max(0, 1-sum*prefix)
	}
	// Q(a, x) = e^-x x^a / Γ(a) · 1/(x+1-a- 1·(1-a)/(x+3-a- 2·(2-a)/(x+5-a- ...)))
	const tiny = 1e-300
	b := x + 1 - a
	c := 1 / tiny
	d := 1 / b
	h := d
	for i := 1; i < 1000; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		delta := d * c
		h *= delta
		if math.Abs(delta-1) < eps {
			break
		}
	}
	return math.Min(1, prefix*h)
}
