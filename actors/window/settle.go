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

// settleBatch settles up to limit open bets of the drawn round r in one
// transaction and returns them as settled. Winners get their stake back from
// bets-in-play and the gain (payout − stake) from the house; a loser's stake
// goes from bets-in-play to the house. The bets' rows are locked and only
// open ones change, and every transfer has a key of its own, so a batch
// that runs twice (a crash, two nodes) pays nothing twice.
func settleBatch(ctx context.Context, db storage.DB, ledger Ledger, r storage.Round, limit int, now int64) ([]storage.RoundBet, error) {
	o := Outcome{Digits: [3]int{r.D0, r.D1, r.D2}, Sum: r.D0 + r.D1 + r.D2}
	var settled []storage.RoundBet
	err := db.Tx(ctx, func(tx storage.Tx) error {
		settled = settled[:0]
		bets, err := storage.OpenBets(ctx, tx, r.ID, limit)
		if err != nil || len(bets) == 0 {
			return err
		}
		var won, lost []int64
		var paid int64
		transfers := make([]Transfer, 0, len(bets)*2)
		for _, b := range bets {
			ref := strconv.FormatInt(b.ID, 10)
			if o.Wins(Content(b.Content)) {
				pay := Payout(b.Amount, r.OddsBP)
				won = append(won, b.ID)
				paid += pay
				b.State, b.Payout = storage.BetWon, pay
				transfers = append(transfers, Transfer{Key: returnKey(b.BetID), From: Account{Kind: BetsInPlay},
					To: WalletOf(b.UserID), Amount: b.Amount, Kind: KindReturn, Ref: ref})
				if gain := pay - b.Amount; gain > 0 {
					transfers = append(transfers, Transfer{Key: winKey(b.BetID), From: Account{Kind: House},
						To: WalletOf(b.UserID), Amount: gain, Kind: KindWin, Ref: ref})
				}
			} else {
				lost = append(lost, b.ID)
				b.State, b.Payout = storage.BetLost, 0
				transfers = append(transfers, Transfer{Key: loseKey(b.BetID), From: Account{Kind: BetsInPlay},
					To: Account{Kind: House}, Amount: b.Amount, Kind: KindLose, Ref: ref})
			}
			b.SettledAt = now
			settled = append(settled, b)
		}
		errs, err := ledger.Post(ctx, tx, transfers)
		if err != nil {
			return err
		}
		for i, e := range errs {
			if e != nil {
				return fmt.Errorf("window: settle %s: transfer %s: %w", r.Issue, transfers[i].Key, e)
			}
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
			// The rows were locked and open; anything else means a bug, and
			// rolling back keeps the ledger and the bets in step.
			return fmt.Errorf("window: settle %s: %d of %d bets changed", r.Issue, nw+nl, len(bets))
		}
		return storage.AddRoundPayouts(ctx, tx, r.ID, int64(len(bets)), paid)
	})
	if err != nil {
		return nil, err
	}
	return settled, nil
}
