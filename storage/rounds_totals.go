package storage

import (
	"context"
	"errors"
)

// AddOpenRoundStakesTotals is AddOpenRoundStakes answering the round's
// totals as the update left them, for the lobbies of every node (the
// window's board): open is false, and the totals zero, when the round was
// no longer open and nothing changed.
func AddOpenRoundStakesTotals(ctx context.Context, q Querier, id, bets, staked int64) (open bool, betsCount, stakedTotal int64, err error) {
	err = q.QueryRow(ctx, `UPDATE rounds SET bets_count = bets_count + $1, staked = staked + $2
		WHERE id = $3 AND state = $4 RETURNING bets_count, staked`, bets, staked, id, RoundOpen).Scan(&betsCount, &stakedTotal)
	if errors.Is(err, ErrNotFound) {
		return false, 0, 0, nil
	}
	return err == nil, betsCount, stakedTotal, err
}

// QueueRoundByIssue queues RoundByIssue (no lock); found gets the round,
// or ok false when the window has no such issue.
func QueueRoundByIssue(pl *Pipeline, windowID int64, issue string, found func(r Round, ok bool)) {
	pl.Query(`SELECT `+roundColumns+` FROM rounds WHERE window_id = $1 AND issue = $2`, []any{windowID, issue},
		func(rows Rows) error {
			if !rows.Next() {
				found(Round{}, false)
				return nil
			}
			r, err := scanRound(rows)
			if err == nil {
				found(r, true)
			}
			return err
		})
}

// QueueAddOpenRoundStakesTotals queues AddOpenRoundStakesTotals; done gets
// its answer.
func QueueAddOpenRoundStakesTotals(pl *Pipeline, id, bets, staked int64, done func(open bool, betsCount, stakedTotal int64)) {
	pl.Query(`UPDATE rounds SET bets_count = bets_count + $1, staked = staked + $2
		WHERE id = $3 AND state = $4 RETURNING bets_count, staked`, []any{bets, staked, id, RoundOpen},
		func(rows Rows) error {
			if !rows.Next() {
				done(false, 0, 0)
				return nil
			}
			var n, s int64
			if err := rows.Scan(&n, &s); err != nil {
				return err
			}
			done(true, n, s)
			return nil
		})
}

// QueueAddRoundPayouts queues AddRoundPayouts.
func QueueAddRoundPayouts(pl *Pipeline, id, settled, paid int64) {
	pl.Exec(`UPDATE rounds SET settled_count = settled_count + $1, paid = paid + $2
		WHERE id = $3`, []any{settled, paid, id}, nil)
}
