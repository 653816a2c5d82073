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
func winKey(betID string) string    { return "bet:" + betID + ":win" }
func refundKey(betID string) string { return "bet:" + betID + ":refund" }

// settleOps are the ledger operations of the bets one transaction
// settled (in row id order) and what they pay: first one transfer of all
// their stakes from bets-in-play to the house (KindStakesSettled, ref the
// round, key storage.StakesSettledKey of their first and last row ids),
// then, for each winner, one transfer of the whole payout from the house
// to the wallet (KindWin, ref the bet's row id, key bet:<betId>:win). A
// loser gets no transfer: the stake left the wallet when the bet was
// placed, and the bet row says lost. Two transfers per winner and one per
// loser before (stake back, gain; lost stake): ~65,000 ledger rows per
// 10,000 bets, ~3 × (1 + winners) now.
func settleOps(roundID int64, settled []storage.RoundBet) (ops []storage.Op, paid int64) {
	var stakes int64
	for _, b := range settled {
		stakes += b.Amount
	}
	ops = make([]storage.Op, 0, 1+len(settled)/2)
	ops = append(ops, storage.Op{Transfers: []storage.Transfer{{Debit: storage.BetsInPlay, Credit: storage.House,
		Amount: stakes, Kind: KindStakesSettled, Ref: strconv.FormatInt(roundID, 10),
		IdempotencyKey: storage.StakesSettledKey(roundID, settled[0].ID, settled[len(settled)-1].ID)}}})
	for _, b := range settled {
		if b.State != storage.BetWon {
			continue
		}
		paid += b.Payout
		if b.Payout <= 0 {
			continue
		}
		ops = append(ops, storage.Op{Transfers: []storage.Transfer{{Debit: storage.House, Credit: storage.Wallet(b.UserID),
			Amount: b.Payout, Kind: KindWin, Ref: strconv.FormatInt(b.ID, 10), IdempotencyKey: winKey(b.BetID)}}})
	}
	return ops, paid
}

// settleBatch settles up to c.limit open bets of the drawn round (refunds
// them, if it was voided) and answers them as settled. Each part (below)
// is one transaction: BEGIN; one round trip in which
// a single UPDATE picks the round's first open bets, gives each its result
// and returns them with their wallets; the transfers (COPY from 64); one
// round trip for the balances and the round's payouts; COMMIT. The stakes
// of all the bets it settled go from bets-in-play to the house in one
// transfer, and each winner gets the whole payout from the house in one
// (settleOps); a loser gets none. Only bets still open change, and exactly
// those are paid, in the same transaction; every transfer has a key of its
// own, so a batch that runs twice (a crash, two nodes) pays nothing twice.
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
		parts = cmp.Or(d.settleParts, settlePartsPG)
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
		// and changes them, and reads the winners' wallets) and reads the
		// house and bets in play.
		plan := storage.NewLedgerPlan(now, true)
		reads := storage.NewPipeline(tx.Dialect())
		storage.QueueSettleOpenBets(reads, plan, r.ID, part, limit, winners, r.OddsBP, now, func(b []storage.RoundBet) { settled = b })
		plan.QueueLoad(reads, nil, []storage.AccountRef{storage.House, storage.BetsInPlay})
		if err := reads.Run(ctx, tx); err != nil || len(settled) == 0 {
			return err
		}
		ops, paid := settleOps(r.ID, settled)
		res, err := d.ledger.Apply(ctx, tx, plan, ops)
		if err != nil {
			return err
		}
		for i, x := range res {
			if x.Err != nil {
				// Nothing here can legitimately fail (no wallet is debited);
				// rolling back keeps the ledger and the bets in step.
				return fmt.Errorf("window: settle %s: %s: %w", r.Issue, ops[i].Transfers[0].IdempotencyKey, x.Err)
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
