package window

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

// settlementTransfer is a row of ledger_transfers as the settlement tests
// read it.
type settlementTransfer struct {
	key, kind, ref        string
	debit, credit, amount int64
}

// TestSettlementRowsAndARepeatedBatch: a drawn round with winners and
// losers is settled by two desks at once (two nodes running the same
// batch), then once more. Each bet is settled once; each settlement
// transaction posts one transfer of the stakes of the bets it settled,
// bets-in-play → house (kind bet_stakes_settled, ref the round, key of its
// first and last bet), and each winner one transfer of the whole payout,
// house → wallet (kind bet_win, key bet:<betId>:win); a loser none. The
// wallets, the house, bets-in-play and the round's payouts come out exact,
// and the ledger check passes.
func TestSettlementRowsAndARepeatedBatch(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		e := newEnv(t, db, 1, testRules)
		now := t0.UnixMilli()
		r := storage.Round{ID: storage.NewID(), WindowID: 1, Seq: 1, Issue: "settle-1", State: storage.RoundOpen,
			StartsAt: now, BettingEndsAt: now + 60_000, DrawingEndsAt: now + 70_000, RestEndsAt: now + 90_000,
			OddsBP: testRules.OddsBP, MinBet: testRules.MinBet, MaxBet: testRules.MaxBet}
		if err := storage.CreateRound(ctx, db, r); err != nil {
			t.Fatal(err)
		}
		const n = 12
		players := make([]int64, n)
		var staked int64
		for i := range n {
			players[i] = e.player(50_000)
			amount := int64(100 * (i + 1))
			if _, err := e.bet(players[i], r, Contents[i%4], amount, fmt.Sprintf("s%d", i)); err != nil {
				t.Fatal(err)
			}
			staked += amount
		}
		if bip := e.system(storage.BetsInPlay); bip != staked {
			t.Fatalf("bets in play %d, want the stakes %d", bip, staked)
		}
		if ok, err := storage.CloseRound(ctx, db, r.ID, now+60_000); !ok || err != nil {
			t.Fatalf("close: %v %v", ok, err)
		}
		// 1+2+3 = 6: SMALL and DOUBLE win, BIG and SINGLE lose.
		if err := db.Tx(ctx, func(tx storage.Tx) error {
			_, err := storage.DrawRound(ctx, tx, r, 1, 2, 3, "", now+70_000)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		r = e.round(r.ID)
		o := Outcome{Digits: [3]int{1, 2, 3}, Sum: 6}
		before := e.transfers()
		house := e.system(storage.House)

		other := NewDesk(db, StoreLedger{}, e.clock, e.bus, e.log, 500)
		t.Cleanup(other.Close)
		var wg sync.WaitGroup
		got := make([][]storage.RoundBet, 2)
		errs := make([]error, 2)
		for i, d := range []*Desk{e.desk, other} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i], errs[i] = d.settle(ctx, r, 1000)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			// A desk that found every bet settled by the other settles none.
			if err != nil {
				t.Fatalf("desk %d: %v", i, err)
			}
		}
		again, err := e.desk.settle(ctx, r, 1000)
		if err != nil || len(again) != 0 {
			t.Fatalf("the batch run again settled %d bets: %v", len(again), err)
		}
		seen := map[string]bool{}
		for _, bets := range got {
			for _, b := range bets {
				if seen[b.BetID] {
					t.Fatalf("bet %s settled twice", b.BetID)
				}
				seen[b.BetID] = true
			}
		}
		if len(seen) != n {
			t.Fatalf("%d bets settled, want %d", len(seen), n)
		}

		bets, err := storage.BetsOfRound(ctx, db, r.ID)
		if err != nil || len(bets) != n {
			t.Fatalf("%d bets: %v", len(bets), err)
		}
		byID := map[int64]storage.RoundBet{}
		var paid int64
		winners := 0
		for _, b := range bets {
			byID[b.ID] = b
			if o.Wins(Content(b.Content)) {
				winners++
				paid += b.Payout
				if b.State != storage.BetWon || b.Payout != Payout(b.Amount, r.OddsBP) {
					t.Fatalf("bet %s: state %d payout %d", b.BetID, b.State, b.Payout)
				}
			} else if b.State != storage.BetLost || b.Payout != 0 {
				t.Fatalf("bet %s: state %d payout %d", b.BetID, b.State, b.Payout)
			}
		}

		rows, err := db.Query(ctx, `SELECT idempotency_key, kind, ref, debit_account, credit_account, amount
			FROM ledger_transfers WHERE kind NOT IN ($1, $2) ORDER BY id`, storage.KindRecharge, KindStake)
		ts, err := storage.CollectRows(rows, err, func(r storage.Rows) (settlementTransfer, error) {
			var x settlementTransfer
			return x, r.Scan(&x.key, &x.kind, &x.ref, &x.debit, &x.credit, &x.amount)
		})
		if err != nil {
			t.Fatal(err)
		}
		var stakes int64
		stakeTransfers, wins := 0, map[string]bool{}
		for _, x := range ts {
			switch x.kind {
			case KindStakesSettled:
				stakeTransfers++
				stakes += x.amount
				if x.debit != storage.BetsInPlay.ID() || x.credit != storage.House.ID() || x.ref != strconv.FormatInt(r.ID, 10) {
					t.Fatalf("stakes transfer %+v", x)
				}
			case KindWin:
				id, _ := strconv.ParseInt(x.ref, 10, 64)
				b, ok := byID[id]
				if !ok || b.State != storage.BetWon || wins[b.BetID] || x.key != winKey(b.BetID) ||
					x.debit != storage.House.ID() || x.credit != storage.Wallet(b.UserID).ID() || x.amount != b.Payout {
					t.Fatalf("win transfer %+v of bet %+v", x, b)
				}
				wins[b.BetID] = true
			default:
				t.Fatalf("settlement posted %+v", x)
			}
		}
		// One stakes transfer per settlement transaction: a part of the
		// players (two on PostgreSQL) settled by one of the desks.
		parts := 1
		if db.Dialect() == storage.Postgres {
			parts = settlePartsPG
		}
		if stakeTransfers < 1 || stakeTransfers > parts || stakes != staked || len(wins) != winners {
			t.Fatalf("%d stakes transfers of %d (want 1..%d of %d), %d win transfers (want %d)",
				stakeTransfers, stakes, parts, staked, len(wins), winners)
		}
		if d := e.transfers() - before; d != stakeTransfers+winners {
			t.Fatalf("%d settlement transfers, want %d", d, stakeTransfers+winners)
		}
		// Each stakes key names the first and last bet of its transaction.
		for _, bets := range got {
			if len(bets) == 0 {
				continue
			}
			var part []storage.RoundBet
			for p := range parts {
				part = part[:0]
				for _, b := range bets {
					if int(b.UserID%int64(parts)) == p {
						part = append(part, b)
					}
				}
				if len(part) == 0 {
					continue
				}
				key := storage.StakesSettledKey(r.ID, part[0].ID, part[len(part)-1].ID)
				found := false
				for _, x := range ts {
					found = found || (x.kind == KindStakesSettled && x.key == key)
				}
				if !found {
					t.Fatalf("no stakes transfer with key %s", key)
				}
			}
		}

		if h := e.system(storage.House); h != house+staked-paid {
			t.Fatalf("house %d, want %d + %d staked − %d paid", h, house, staked, paid)
		}
		if bip := e.system(storage.BetsInPlay); bip != 0 {
			t.Fatalf("bets in play %d after settlement", bip)
		}
		for i, p := range players {
			want := int64(50_000 - 100*(i+1))
			if o.Wins(Contents[i%4]) {
				want += Payout(int64(100*(i+1)), r.OddsBP)
			}
			if b := e.balance(p); b != want {
				t.Fatalf("player %d: balance %d, want %d", i, b, want)
			}
		}
		if x := e.round(r.ID); x.Paid != paid || x.SettledCount != n {
			t.Fatalf("round paid %d settled %d, want %d %d", x.Paid, x.SettledCount, paid, n)
		}
		e.ledgerOK()
	})
}
