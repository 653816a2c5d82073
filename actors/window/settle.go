package window

import (
	"context"
	"fmt"
	"strconv"

	"kj/storage"
)

// Ledger idempotency keys of a bet's settlement.
func returnKey(betID string) string { return "bet:" + betID + ":return" }
func winKey(betID string) string    { return "bet:" + betID + ":win" }
func loseKey(betID string) string   { return "bet:" + betID + ":lose" }
func refundKey(betID string) string { return "bet:" + betID + ":refund" }

// settleBatch settles up to c.limit open bets of the drawn round in one
// transaction (BEGIN, one round trip of reads, the transfers' COPY, one
// round trip of writes, COMMIT) and answers them as settled. A winner gets the stake back
// from bets-in-play and the gain (payout − stake) from the house, in one
// operation; a loser's stake goes from bets-in-play to the house. The bets'
// rows are locked and only open ones change, and every transfer has a key
// of its own, so a batch that runs twice (a crash, two nodes) pays nothing
// twice.
func (d *Desk) settleBatch(c *settleCall) {
	if c.round.State == storage.RoundVoided {
		d.refundBatch(c)
		return
	}
	ctx := context.Background()
	r := c.round
	o := Outcome{Digits: [3]int{r.D0, r.D1, r.D2}, Sum: r.D0 + r.D1 + r.D2}
	var settled []storage.RoundBet
	var changes walletChanges
	err := d.tx(ctx, "settle", func(tx storage.Tx) error {
		settled, changes = nil, walletChanges{}
		now := d.clock.Now().UnixMilli()
		bets, plan, err := openBetsAndWallets(ctx, tx, r.ID, c.limit, now, storage.House)
		if err != nil || len(bets) == 0 {
			return err
		}
		var won, lost []int64
		var paid int64
		ops := make([]storage.Op, 0, len(bets))
		for _, b := range bets {
			ref := strconv.FormatInt(b.ID, 10)
			var ts []storage.Transfer
			if o.Wins(Content(b.Content)) {
				pay := Payout(b.Amount, r.OddsBP)
				won = append(won, b.ID)
				paid += pay
				b.State, b.Payout = storage.BetWon, pay
				ts = append(ts, storage.Transfer{Debit: storage.BetsInPlay, Credit: storage.Wallet(b.UserID),
					Amount: b.Amount, Kind: KindReturn, Ref: ref, IdempotencyKey: returnKey(b.BetID)})
				if gain := pay - b.Amount; gain > 0 {
					ts = append(ts, storage.Transfer{Debit: storage.House, Credit: storage.Wallet(b.UserID),
						Amount: gain, Kind: KindWin, Ref: ref, IdempotencyKey: winKey(b.BetID)})
				}
			} else {
				lost = append(lost, b.ID)
				b.State, b.Payout = storage.BetLost, 0
				ts = append(ts, storage.Transfer{Debit: storage.BetsInPlay, Credit: storage.House,
					Amount: b.Amount, Kind: KindLose, Ref: ref, IdempotencyKey: loseKey(b.BetID)})
			}
			b.SettledAt = now
			settled = append(settled, b)
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
				return fmt.Errorf("window: settle %s: bet %s: %w", r.Issue, bets[i].BetID, x.Err)
			}
			changes.add(ops[i].Transfers, x.Results)
		}
		// The transfers (COPY), then one round trip: the balances, the
		// bets' results and the round's payouts.
		writes := storage.NewPipeline(tx.Dialect())
		plan.QueueWrite(writes)
		var changed int64
		storage.QueueSettleBets(writes, won, lost, r.OddsBP, now, func(n int64) { changed += n })
		storage.QueueAddRoundPayouts(writes, r.ID, int64(len(bets)), paid)
		if err := writes.Run(ctx, tx); err != nil {
			return err
		}
		if changed != int64(len(bets)) {
			return fmt.Errorf("window: settle %s: %d of %d bets changed", r.Issue, changed, len(bets))
		}
		return nil
	})
	if err != nil {
		settled = nil
	} else {
		changes.push(ctx, d.bus, d.log)
	}
	c.res <- settleResult{bets: settled, err: err}
}

// refundBatch refunds up to c.limit open bets of a voided round in one
// transaction: each stake goes back from bets-in-play to its wallet (a
// stake back, kind bet_return, key bet:<betId>:refund), the bet becomes
// refunded with payout = stake, and the round counts them as paid. The same
// guards as settleBatch's make a batch that runs twice refund nothing twice.
func (d *Desk) refundBatch(c *settleCall) {
	ctx := context.Background()
	r := c.round
	var refunded []storage.RoundBet
	var changes walletChanges
	err := d.tx(ctx, "refund", func(tx storage.Tx) error {
		refunded, changes = nil, walletChanges{}
		now := d.clock.Now().UnixMilli()
		bets, plan, err := openBetsAndWallets(ctx, tx, r.ID, c.limit, now)
		if err != nil || len(bets) == 0 {
			return err
		}
		ids := make([]int64, 0, len(bets))
		ops := make([]storage.Op, 0, len(bets))
		var paid int64
		for _, b := range bets {
			ids = append(ids, b.ID)
			paid += b.Amount
			b.State, b.Payout, b.SettledAt = storage.BetRefunded, b.Amount, now
			refunded = append(refunded, b)
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
				return fmt.Errorf("window: refund %s: bet %s: %w", r.Issue, bets[i].BetID, x.Err)
			}
			changes.add(ops[i].Transfers, x.Results)
		}
		writes := storage.NewPipeline(tx.Dialect())
		plan.QueueWrite(writes)
		var n int64
		storage.QueueRefundBets(writes, ids, now, func(c int64) { n += c })
		storage.QueueAddRoundPayouts(writes, r.ID, int64(len(bets)), paid)
		if err := writes.Run(ctx, tx); err != nil {
			return err
		}
		if n != int64(len(bets)) {
			return fmt.Errorf("window: refund %s: %d of %d bets changed", r.Issue, n, len(bets))
		}
		return nil
	})
	if err != nil {
		refunded = nil
	} else {
		changes.push(ctx, d.bus, d.log)
	}
	c.res <- settleResult{bets: refunded, err: err}
}

// openBetsAndWallets reads, in one round trip, up to limit open bets of the
// round (locked until the transaction ends) and the balances of their
// wallets, bets in play and the other system accounts named, for a ledger
// plan of the bets' settlement. The settlement's ledger keys are fresh: a
// bet's are written only with its leaving the open state, and the bets are
// open and locked.
func openBetsAndWallets(ctx context.Context, tx storage.Tx, roundID int64, limit int, now int64, system ...storage.AccountRef) ([]storage.RoundBet, *storage.LedgerPlan, error) {
	var bets []storage.RoundBet
	reads := storage.NewPipeline(tx.Dialect())
	storage.QueueOpenBets(reads, roundID, limit, func(b []storage.RoundBet) { bets = b })
	plan := storage.NewLedgerPlan(now, true)
	plan.QueueLoadOfBets(reads, roundID, limit, append(system, storage.BetsInPlay)...)
	if err := reads.Run(ctx, tx); err != nil {
		return nil, nil, err
	}
	return bets, plan, nil
}
