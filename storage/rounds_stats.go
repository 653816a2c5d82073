package storage

import "context"

// TripleCount is how many drawn rounds came out as one digit triple.
type TripleCount struct {
	D0, D1, D2 int
	Rounds     int64
}

// DrawnTripleCounts counts the drawn rounds of a window (windowID 0: of
// every window) by their digits, in the store: at most 1,000 rows come back
// however many rounds there are, which is all the fairness report needs.
func DrawnTripleCounts(ctx context.Context, q Querier, windowID int64) ([]TripleCount, error) {
	query := `SELECT d0, d1, d2, COUNT(*) FROM rounds WHERE ` + withResult + ` GROUP BY d0, d1, d2`
	var args []any
	if windowID != 0 {
		query = `SELECT d0, d1, d2, COUNT(*) FROM rounds WHERE ` + withResult + ` AND window_id = $1 GROUP BY d0, d1, d2`
		args = append(args, windowID)
	}
	rows, err := q.Query(ctx, query, args...)
	return CollectRows(rows, err, func(r Rows) (TripleCount, error) {
		var t TripleCount
		err := r.Scan(&t.D0, &t.D1, &t.D2, &t.Rounds)
		return t, err
	})
}
