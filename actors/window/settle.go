package window

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"sync"

	"kj/storage"
)

// Ledger idempotency keys of a bet's settlement.
func returnKey(betID string) string { return "bet:" + betID + ":return" }
func winKey(betID string) string    { return "bet:" + betID + ":win" }
func loseKey(betID string) string   { return "bet:" + betID + ":lose" }
func refundKey(betID string) string { return "bet:" + betID + ":refund" }

// settleBatch settles up to c.limit open bets of the drawn round (refunds
// them, if it was voided) and answers them as settled. Each part (below)
// is one transaction: BEGIN; one round trip in which
// a single UPDATE picks the round's first open bets, gives each its result
// and returns them with their wallets; the transfers (COPY from 64); one
// round trip for the balances and the round's payouts; COMMIT. A winner
// gets the stake back from bets-in-play and the gain (payout − stake) from
// the house, in one operation; a loser's stake goes from bets-in-play to
// the house. Only bets still open change, and exactly those are paid, in
// the same transaction; every transfer has a key of its own, so a batch
// that runs twice (a crash, two nodes) pays nothing twice.
//
// On PostgreSQL the batch is settlePartsPG transactions side by side, each
// over the bets of its part of the players (storage.BetPart), so that two
// backends do the rows' work at once: no wallet is in two of them, and
// the system accounts and the round's row they share are locked last, in
// a fixed order. A part that fails is left for the next call (the bets it
// picked stay open); the call fails only when no part settled a bet.
func (d *Desk) settleBatch(c *settleCall) {
	parts := 1
	if d.db.Dialect() == storage.Postgres {
		parts = settlePartsPG
	}
	limit := max(1, (c.limit+parts-1)/parts)
	res := make([]settleResult, parts)
	var wg sync.WaitGroup
	for i := range parts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			part := storage.BetPart{Of: parts, Is: i}
			if c.round.State == storage.RoundVoided {
				res[i] = d.refundPart(c.round, part, limit)
			} else {
				res[i] = d.settlePart(c.round, part, limit)
			}
		}()
	}
	wg.Wait()
	var out settleResult
	for _, r := range res {
		if r.err != nil {
			out.err = cmp.Or(out.err, r.err)
			continue
		}
		out.bets = append(out.bets, r.bets...)
	}
	if out.err != nil && len(out.bets) > 0 {
		d.log.Error("settlement part failed; the next batch takes its bets", "round", c.round.Issue, "err", out.err)
		out.err = nil
	}
	c.res <- out
}

// settlePartsPG is how many transactions settle a batch side by side on
// PostgreSQL: one per core of the 2-core box the targets are set on.
const settlePartsPG = 2

// settlePart settles up to limit open bets of part's players in one
// transaction (settleBatch).
func (d *Desk) settlePart(r storage.Round, part storage.BetPart, limit int) settleResult {
	ctx := context.Background()
	o := Outcome{Digits: [3]int{r.D0, r.D1, r.D2}, Sum: r.D0 + r.D1 + r.D2}
	var settled []storage.RoundBet
	var changes walletChanges
	var winners []string
	for _, c := range []Content{Big, Small, Single, Double} {
		if o.Wins(c) {
			winners = append(winners, string(c))
		}
	}
	err := d.tx(ctx, "settle", func(tx storage.Tx) error {
		settled, changes = nil, walletChanges{}
		now := d.clock.Now().UnixMilli()
		// One round trip settles the first open bets (the statement picks
		// and changes them, and reads their wallets) and reads the house
		// and bets in play.
		plan := storage.NewLedgerPlan(now, true)
		reads := storage.NewPipeline(tx.Dialect())
		storage.QueueSettleOpenBets(reads, plan, r.ID, part, limit, winners, r.OddsBP, now, func(b []storage.RoundBet) { settled = b })
		plan.QueueLoad(reads, nil, []storage.AccountRef{storage.House, storage.BetsInPlay})
		if err := reads.Run(ctx, tx); err != nil || len(settled) == 0 {
			return err
		}
		var paid int64
		ops := make([]storage.Op, 0, len(settled))
		for _, b := range settled {
			ref := strconv.FormatInt(b.ID, 10)
			var ts []storage.Transfer
			if b.State == storage.BetWon {
				paid += b.Payout
				ts = append(ts, storage.Transfer{Debit: storage.BetsInPlay, Credit: storage.Wallet(b.UserID),
					Amount: b.Amount, Kind: KindReturn, Ref: ref, IdempotencyKey: returnKey(b.BetID)})
				if gain := b.Payout - b.Amount; gain > 0 {
					ts = append(ts, storage.Transfer{Debit: storage.House, Credit: storage.Wallet(b.UserID),
						Amount: gain, Kind: KindWin, Ref: ref, IdempotencyKey: winKey(b.BetID)})
				}
			} else {
				ts = append(ts, storage.Transfer{Debit: storage.BetsInPlay, Credit: storage.House,
					Amount: b.Amount, Kind: KindLose, Ref: ref, IdempotencyKey: loseKey(b.BetID)})
			}
			ops = append(ops, storage.Op{Transfers: ts})
		}
		res, err := d.ledger.Apply(ctx, tx, plan, ops)
		if err != nil {
			return err
		}
		for i, x := range res {
			if x.Err != nil {
				// Nothing here can legitimately fail (no wallet is debited);
				// rolling back keeps the ledger and the bets in step.
				return fmt.Errorf("window: settle %s: bet %s: %w", r.Issue, settled[i].BetID, x.Err)
			}
			changes.add(ops[i].Transfers, x.Results)
		}
		// The transfers (COPY), then one round trip: the balances and the
		// round's payouts.
		writes := storage.NewPipeline(tx.Dialect())
		plan.QueueWrite(writes)
		storage.QueueAddRoundPayouts(writes, r.ID, int64(len(settled)), paid)
		return writes.Run(ctx, tx)
	})
	if err != nil {
		return settleResult{err: err}
	}
	changes.push(ctx, d.bus, d.log)
	return settleResult{bets: settled}
}

// refundPart refunds up to limit open bets of part's players of a voided
// round in one transaction: each stake goes back from bets-in-play to its
// wallet (a stake back, kind bet_return, key bet:<betId>:refund), the bet
// becomes refunded with payout = stake, and the round counts them as paid.
// The same guards as settlePart's make a batch that runs twice refund
// nothing twice.
func (d *Desk) refundPart(r storage.Round, part storage.BetPart, limit int) settleResult {
	ctx := context.Background()
	var refunded []storage.RoundBet
	var changes walletChanges
	err := d.tx(ctx, "refund", func(tx storage.Tx) error {
		refunded, changes = nil, walletChanges{}
		now := d.clock.Now().UnixMilli()
		plan := storage.NewLedgerPlan(now, true)
		reads := storage.NewPipeline(tx.Dialect())
		storage.QueueRefundOpenBets(reads, plan, r.ID, part, limit, now, func(b []storage.RoundBet) { refunded = b })
		plan.QueueLoad(reads, nil, []storage.AccountRef{storage.BetsInPlay})
		if err := reads.Run(ctx, tx); err != nil || len(refunded) == 0 {
			return err
		}
		ops := make([]storage.Op, 0, len(refunded))
		var paid int64
		for _, b := range refunded {
			paid += b.Amount
			ops = append(ops, storage.Op{Transfers: []storage.Transfer{{Debit: storage.BetsInPlay,
				Credit: storage.Wallet(b.UserID), Amount: b.Amount, Kind: KindReturn,
				Ref: strconv.FormatInt(b.ID, 10), IdempotencyKey: refundKey(b.BetID)}}})
		}
		res, err := d.ledger.Apply(ctx, tx, plan, ops)
		if err != nil {
			return err
		}
		for i, x := range res {
			if x.Err != nil {
				return fmt.Errorf("window: refund %s: bet %s: %w", r.Issue, refunded[i].BetID, x.Err)
			}
			changes.add(ops[i].Transfers, x.Results)
		}
		writes := storage.NewPipeline(tx.Dialect())
		plan.QueueWrite(writes)
		storage.QueueAddRoundPayouts(writes, r.ID, int64(len(refunded)), paid)
		return writes.Run(ctx, tx)
	})
	if err != nil {
		return settleResult{err: err}
	}
	changes.push(ctx, d.bus, d.log)
	return settleResult{bets: refunded}
}
