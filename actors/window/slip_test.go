package window

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"kj/storage"
	"kj/storage/storagetest"
)

// slip places a slip on round r for user, arriving now.
func (e *env) slip(user int64, r storage.Round, slipID string, sels ...Selection) (SlipView, error) {
	return e.rounds.BetSlip(context.Background(), SlipRequest{UserID: user, WindowID: r.WindowID, Issue: r.Issue,
		SlipID: slipID, Selections: sels, ArrivedAt: e.clock.Now()})
}

// A slip's selections are accepted together (one debit of the total, a
// bet each with its own id), resent as the same slip, and refused whole
// when any selection is refused or the wallet covers only part of the
// total: then nothing is written at all.
func TestBetSlipIsAcceptedOrRefusedWhole(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		e := newEnv(t, db, 1, testRules)
		r := e.firstRound()
		alice, bob, poor := e.player(100000), e.player(100000), e.player(1000)

		v, err := e.slip(alice, r, "s1", Selection{Big, 500}, Selection{Single, 700})
		if err != nil {
			t.Fatal(err)
		}
		if v.Total != 1200 || len(v.Bets) != 2 || v.Bets[0].BetID != "s1.1" || v.Bets[0].Content != Big ||
			v.Bets[1].BetID != "s1.2" || v.Bets[1].Amount != 700 || v.Bets[0].NoteNo == v.Bets[1].NoteNo {
			t.Fatalf("slip: %+v", v)
		}
		if e.balance(alice) != 100000-1200 || e.betCount() != 2 {
			t.Fatalf("after the slip: balance %d, %d bets", e.balance(alice), e.betCount())
		}
		if got := e.round(r.ID); got.BetsCount != 2 || got.Staked != 1200 {
			t.Fatalf("round totals after the slip: %d bets, %d staked", got.BetsCount, got.Staked)
		}
		bets, transfers := e.betCount(), e.transfers()

		// The same slip again is the same two bets.
		again, err := e.slip(alice, r, "s1", Selection{Big, 500}, Selection{Single, 700})
		if err != nil || again.Bets[0].NoteNo != v.Bets[0].NoteNo || again.Bets[1].NoteNo != v.Bets[1].NoteNo {
			t.Fatalf("resend: %+v %v", again, err)
		}
		// A single bet takes an id of the slip's next selection first.
		if _, err := e.bet(alice, r, Double, 300, "s2.2"); err != nil {
			t.Fatal(err)
		}
		bets, transfers = bets+1, transfers+1
		balance := e.balance(alice)

		var le *LimitError
		cases := []struct {
			name string
			user int64
			id   string
			sels []Selection
			want func(error) bool
		}{
			{"one selection below the minimum", alice, "x1", []Selection{{Big, 500}, {Single, 99}},
				func(err error) bool { return errors.As(err, &le) && le.Below() }},
			{"one selection above the maximum", alice, "x2", []Selection{{Big, 100001}, {Single, 500}},
				func(err error) bool { return errors.As(err, &le) && !le.Below() }},
			{"one selection of no content", alice, "x3", []Selection{{Big, 500}, {"TRIPLE", 500}}, is(ErrBadContent)},
			{"one selection of no amount", alice, "x4", []Selection{{Big, 500}, {Small, 0}}, is(ErrBadAmount)},
			{"the same content twice", alice, "x5", []Selection{{Big, 500}, {Big, 700}}, is(ErrSlipInvalid)},
			{"no selection", alice, "x6", nil, is(ErrSlipInvalid)},
			{"five selections", alice, "x7", []Selection{{Big, 100}, {Small, 100}, {Single, 100}, {Double, 100}, {Big, 100}}, is(ErrSlipInvalid)},
			{"slip id too long", alice, strings.Repeat("k", 63), []Selection{{Big, 500}}, is(ErrBadBetID)},
			{"slip id with spaces", alice, "a b", []Selection{{Big, 500}}, is(ErrBadBetID)},
			{"covers only part", poor, "x8", []Selection{{Big, 600}, {Small, 600}}, is(ErrInsufficientBalance)},
			{"someone else's slip id", bob, "s1", []Selection{{Big, 500}, {Single, 700}}, is(ErrBetIDTaken)},
			{"slip id reused for other amounts", alice, "s1", []Selection{{Big, 500}, {Single, 800}}, is(ErrBetIDReused)},
			{"slip id reused with more selections", alice, "s1", []Selection{{Big, 500}, {Single, 700}, {Small, 100}}, is(ErrBetIDReused)},
			{"an id taken by a single bet", alice, "s2", []Selection{{Big, 500}, {Double, 300}}, is(ErrBetIDReused)},
		}
		for _, c := range cases {
			if _, err := e.slip(c.user, r, c.id, c.sels...); !c.want(err) {
				t.Errorf("%s: got %v", c.name, err)
			}
		}
		if e.betCount() != bets || e.transfers() != transfers || e.balance(alice) != balance || e.balance(poor) != 1000 || e.balance(bob) != 100000 {
			t.Fatalf("refused slips wrote something: bets %d→%d transfers %d→%d", bets, e.betCount(), transfers, e.transfers())
		}
		// The poor player's wallet covers exactly the total: accepted.
		if v, err := e.slip(poor, r, "x9", Selection{Big, 600}, Selection{Small, 400}); err != nil || v.Total != 1000 || e.balance(poor) != 0 {
			t.Fatalf("a slip the wallet covers exactly: %+v %v (balance %d)", v, err, e.balance(poor))
		}

		// Copies of one slip racing each other in a batch: one slip.
		var wg sync.WaitGroup
		got := make([]SlipView, 8)
		errs := make([]error, len(got))
		for i := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i], errs[i] = e.slip(bob, r, "burst", Selection{Small, 300}, Selection{Double, 400}, Selection{Big, 500})
			}()
		}
		wg.Wait()
		for i, g := range got {
			if errs[i] != nil || len(g.Bets) != 3 || g.Bets[0].NoteNo != got[0].Bets[0].NoteNo || g.Bets[2].NoteNo != got[0].Bets[2].NoteNo {
				t.Fatalf("burst of slip resends: %+v %v", g, errs[i])
			}
		}
		if e.balance(bob) != 100000-1200 {
			t.Fatalf("burst debited %d", 100000-e.balance(bob))
		}
		e.ledgerOK()
	})
}

// Each of a slip's bets settles on its own by its content, and the ledger
// balances after.
func TestBetSlipSelectionsSettleOnTheirOwn(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		e := newEnv(t, db, 1, testRules)
		r := e.firstRound()
		alice := e.player(10000)
		if _, err := e.slip(alice, r, "all", Selection{Big, 1000}, Selection{Small, 1000}, Selection{Single, 500}, Selection{Double, 500}); err != nil {
			t.Fatal(err)
		}
		e.to(at(r.BettingEndsAt), 1, at(r.BettingEndsAt+500))
		e.to(at(r.BettingEndsAt+500), 1, at(r.DrawingEndsAt))
		e.clock.Set(at(r.DrawingEndsAt))
		drawn := e.waitRound(r.ID, storage.RoundSettled)
		o := Outcome{Digits: [3]int{drawn.D0, drawn.D1, drawn.D2}, Sum: drawn.D0 + drawn.D1 + drawn.D2}
		bets, err := storage.BetsOfRound(context.Background(), db, r.ID)
		if err != nil || len(bets) != 4 {
			t.Fatalf("%d bets, %v", len(bets), err)
		}
		var paid int64
		for _, b := range bets {
			want, state := int64(0), storage.BetLost
			if o.Wins(Content(b.Content)) {
				want, state = b.Amount*drawn.OddsBP/10000, storage.BetWon
			}
			if b.State != state || b.Payout != want {
				t.Fatalf("bet %s on %s, sum %d: state %d payout %d, want %d %d", b.BetID, b.Content, o.Sum, b.State, b.Payout, state, want)
			}
			paid += b.Payout
		}
		// Exactly one of BIG/SMALL and one of SINGLE/DOUBLE win.
		if want := int64(1000+500) * drawn.OddsBP / 10000; paid != want {
			t.Fatalf("paid %d, want %d", paid, want)
		}
		if e.balance(alice) != 10000-3000+paid {
			t.Fatalf("balance %d, want %d", e.balance(alice), 10000-3000+paid)
		}
		e.ledgerOK()
	})
}
