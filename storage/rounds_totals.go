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
