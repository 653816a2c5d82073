package storage

import (
	"context"
	"time"
)

// ManualChangeMark is the change mark of hand-written changes to the store:
// `UPDATE change_marks SET seq = seq + 1 WHERE origin = 'manual'` after
// such a change makes every node drop the copies it keeps of users' reads.
// It is never aged out.
const ManualChangeMark = "manual"

// PutChangeMark records that origin has published seq change events by at.
func PutChangeMark(ctx context.Context, q Querier, origin string, seq int64, at time.Time) error {
	_, err := q.Exec(ctx, `INSERT INTO change_marks (origin, seq, at_ms) VALUES ($1, $2, $3)
		ON CONFLICT (origin) DO UPDATE SET seq = $2, at_ms = $3`, origin, seq, at.UnixMilli())
	return err
}

// ChangeMarks is every origin's recorded count of change events.
func ChangeMarks(ctx context.Context, q Querier) (map[string]int64, error) {
	rows, err := q.Query(ctx, `SELECT origin, seq FROM change_marks`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	marks := map[string]int64{}
	for rows.Next() {
		var origin string
		var seq int64
		if err := rows.Scan(&origin, &seq); err != nil {
			return nil, err
		}
		marks[origin] = seq
	}
	return marks, rows.Err()
}

// ForgetChangeMarks removes the marks of processes that have written none
// since before (stopped nodes); the manual mark stays.
func ForgetChangeMarks(ctx context.Context, q Querier, before time.Time) error {
	_, err := q.Exec(ctx, `DELETE FROM change_marks WHERE at_ms < $1 AND origin <> $2`, before.UnixMilli(), ManualChangeMark)
	return err
}
