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
// transaction and answers them as settled. A winner gets the stake back
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
		bets, err := storage.OpenBets(ctx, tx, r.ID, c.limit)
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
		res, err := d.ledger.Post(ctx, tx, now, ops)
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
		nw, err := storage.SettleBets(ctx, tx, won, true, r.OddsBP, now)
		if err != nil {
			return err
		}
		nl, err := storage.SettleBets(ctx, tx, lost, false, r.OddsBP, now)
		if err != nil {
			return err
		}
		if nw+nl != int64(len(bets)) {
			return fmt.Errorf("window: settle %s: %d of %d bets changed", r.Issue, nw+nl, len(bets))
		}
		return storage.AddRoundPayouts(ctx, tx, r.ID, int64(len(bets)), paid)
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
		bets, err := storage.OpenBets(ctx, tx, r.ID, c.limit)
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
		res, err := d.ledger.Post(ctx, tx, now, ops)
		if err != nil {
			return err
		}
		for i, x := range res {
			if x.Err != nil {
				return fmt.Errorf("window: refund %s: bet %s: %w", r.Issue, bets[i].BetID, x.Err)
			}
			changes.add(ops[i].Transfers, x.Results)
		}
		n, err := storage.RefundBets(ctx, tx, ids, now)
		if err != nil {
			return err
		}
		if n != int64(len(bets)) {
			return fmt.Errorf("window: refund %s: %d of %d bets changed", r.Issue, n, len(bets))
		}
		return storage.AddRoundPayouts(ctx, tx, r.ID, int64(len(bets)), paid)
	})
	if err != nil {
		refunded = nil
	} else {
		changes.push(ctx, d.bus, d.log)
	}
	c.res <- settleResult{bets: refunded, err: err}
}
