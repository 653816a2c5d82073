package window

// The trend board: the last rounds' outcomes laid out the way players of
// such games read them. Two boards, one per pair of bets — size (BIG or
// SMALL) and parity (SINGLE or DOUBLE) — each as a bead grid (one cell per
// round, columns of six filled top to bottom) and a big road (a column per
// streak; a streak longer than the column turns right along its last free
// row, the "dragon tail").

// TrendRows is the height of both grids.
const TrendRows = 6

// TrendSize is how many of the newest rounds the board shows.
const TrendSize = 100

// TrendCell is one round on a grid.
type TrendCell struct {
	Col   int     `json:"col"`
	Row   int     `json:"row"`
	Value Content `json:"value"`
	Issue string  `json:"issue"`
	Sum   int     `json:"sum"`
}

// Streak is a run of the same outcome.
type Streak struct {
	Value  Content `json:"value"`
	Length int     `json:"length"`
	From   string  `json:"from"` // first issue of the run
}

// TrendBoard is one pair of outcomes over the rounds.
type TrendBoard struct {
	Kind        string             `json:"kind"` // size or parity
	Values      [2]Content         `json:"values"`
	Bead        []TrendCell        `json:"bead"`
	BeadColumns int                `json:"beadColumns"`
	Road        []TrendCell        `json:"road"`
	RoadColumns int                `json:"roadColumns"`
	Counts      map[Content]int    `json:"counts"`
	Longest     map[Content]Streak `json:"longest"`
	Current     *Streak            `json:"current"` // nil with no rounds
}

// Trend is both boards over a window's newest rounds.
type Trend struct {
	WindowID    int64        `json:"windowId"`
	Rounds      int          `json:"rounds"`
	LatestIssue string       `json:"latestIssue"` // "" with no rounds
	Rows        int          `json:"rows"`
	Boards      []TrendBoard `json:"boards"`
	Results     []ResultView `json:"results"` // the rounds shown, oldest first
}

// ComputeTrend lays out results (oldest first; only the last TrendSize
// are used).
func ComputeTrend(windowID int64, results []ResultView) Trend {
	if len(results) > TrendSize {
		results = results[len(results)-TrendSize:]
	}
	t := Trend{WindowID: windowID, Rounds: len(results), Rows: TrendRows, Results: results}
	if len(results) > 0 {
		t.LatestIssue = results[len(results)-1].Issue
	}
	t.Boards = []TrendBoard{
		trendBoard("size", [2]Content{Big, Small}, results, func(r ResultView) Content {
			if r.Sum >= 14 {
				return Big
			}
			return Small
		}),
		trendBoard("parity", [2]Content{Single, Double}, results, func(r ResultView) Content {
			if r.Sum%2 == 1 {
				return Single
			}
			return Double
		}),
	}
	return t
}

func trendBoard(kind string, values [2]Content, results []ResultView, classify func(ResultView) Content) TrendBoard {
	b := TrendBoard{Kind: kind, Values: values, Bead: make([]TrendCell, 0, len(results)),
		Road:   make([]TrendCell, 0, len(results)),
		Counts: map[Content]int{values[0]: 0, values[1]: 0}, Longest: map[Content]Streak{}}
	for _, v := range values {
		b.Longest[v] = Streak{Value: v}
	}
	occupied := map[[2]int]bool{}
	var cur Streak
	var col, row, streakCol int
	turned := false
	for i, r := range results {
		v := classify(r)
		b.Counts[v]++
		b.Bead = append(b.Bead, TrendCell{Col: i / TrendRows, Row: i % TrendRows, Value: v, Issue: r.Issue, Sum: r.Sum})
		switch {
		case i == 0:
			col, row, streakCol = 0, 0, 0
			cur = Streak{Value: v, From: r.Issue}
		case v == cur.Value:
			// Down while the column has room; then along the row.
			if !turned && row+1 < TrendRows && !occupied[[2]int{col, row + 1}] {
				row++
			} else {
				col++
				turned = true
			}
		default:
			streakCol++
			col, row, turned = streakCol, 0, false
			// A dragon tail may already sit on the top row here.
			for occupied[[2]int{col, row}] {
				col++
				streakCol = col
			}
			cur = Streak{Value: v, From: r.Issue}
		}
		cur.Length++
		occupied[[2]int{col, row}] = true
		b.Road = append(b.Road, TrendCell{Col: col, Row: row, Value: v, Issue: r.Issue, Sum: r.Sum})
		if cur.Length > b.Longest[v].Length {
			b.Longest[v] = cur
		}
		if col+1 > b.RoadColumns {
			b.RoadColumns = col + 1
		}
	}
	b.BeadColumns = (len(results) + TrendRows - 1) / TrendRows
	if len(results) > 0 {
		c := cur
		b.Current = &c
	}
	return b
}
