package window

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

func TestBadBetsAreRefusedAndWriteNothing(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		e := newEnv(t, db, 2, testRules)
		r := e.firstRound()
		alice, bob, poor := e.player(100000), e.player(100000), e.player(150)
		orig, err := e.bet(alice, r, Big, 500, "alice-1")
		if err != nil {
			t.Fatal(err)
		}
		bets, transfers, bal := e.betCount(), e.transfers(), e.balance(alice)

		stale := r
		stale.Issue = "20260228000100007"
		other := r
		other.WindowID = 99
		var le *LimitError
		cases := []struct {
			name string
			user int64
			r    storage.Round
			c    Content
			amt  int64
			id   string
			want func(error) bool
		}{
			{"unknown window", alice, other, Big, 500, "x1", is(ErrUnknownWindow)},
			{"window beyond the count", alice, storage.Round{WindowID: 3, Issue: r.Issue}, Big, 500, "x1b", is(ErrUnknownWindow)},
			{"unknown issue", alice, stale, Big, 500, "x2", is(ErrUnknownIssue)},
			{"issue of another window", alice, storage.Round{WindowID: 2, Issue: r.Issue}, Big, 500, "x3", is(ErrUnknownIssue)},
			{"wrong content", alice, r, "TRIPLE", 500, "x4", is(ErrBadContent)},
			{"lower-case content", alice, r, "big", 500, "x5", is(ErrBadContent)},
			{"zero", alice, r, Big, 0, "x6", is(ErrBadAmount)},
			{"negative", alice, r, Big, -500, "x7", is(ErrBadAmount)},
			{"below min", alice, r, Big, 99, "x8", func(err error) bool { return errors.As(err, &le) && le.Below() && le.Min == 100 }},
			{"above max", alice, r, Big, 100001, "x9", func(err error) bool { return errors.As(err, &le) && !le.Below() && le.Max == 100000 }},
			{"overflowing", alice, r, Big, 1 << 62, "x10", func(err error) bool { return errors.As(err, &le) && !le.Below() }},
			{"no bet id", alice, r, Big, 500, "", is(ErrBadBetID)},
			{"bet id too long", alice, r, Big, 500, strings.Repeat("k", 65), is(ErrBadBetID)},
			{"bet id with spaces", alice, r, Big, 500, "a b", is(ErrBadBetID)},
			{"someone else's bet id", bob, r, Big, 500, "alice-1", is(ErrBetIDTaken)},
			{"bet id reused for another bet", alice, r, Small, 500, "alice-1", is(ErrBetIDReused)},
			{"insufficient balance", poor, r, Big, 200, "x11", is(ErrInsufficientBalance)},
		}
		for _, c := range cases {
			_, err := e.bet(c.user, c.r, c.c, c.amt, c.id)
			if !c.want(err) {
				t.Errorf("%s: got %v", c.name, err)
			}
		}
		if e.betCount() != bets || e.transfers() != transfers || e.balance(alice) != bal || e.balance(poor) != 150 {
			t.Fatalf("refused bets wrote something: bets %d→%d transfers %d→%d", bets, e.betCount(), transfers, e.transfers())
		}
		// The same bet sent again is the same bet, not a second one.
		again, err := e.bet(alice, r, Big, 500, "alice-1")
		if err != nil || again.ID != orig.ID || e.betCount() != bets || e.balance(alice) != bal {
			t.Fatalf("resend: %+v %v", again, err)
		}
		// Resends racing each other in one batch: one bet.
		var wg sync.WaitGroup
		got := make([]storage.RoundBet, 8)
		for i := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i], _ = e.bet(bob, r, Single, 700, "bob-burst")
			}()
		}
		wg.Wait()
		for _, b := range got {
			if b.ID != got[0].ID || b.ID == 0 {
				t.Fatalf("burst of resends: %+v", got)
			}
		}
		if e.balance(bob) != 100000-700 || e.betCount() != bets+1 {
			t.Fatalf("burst wrote more than one bet: balance %d bets %d", e.balance(bob), e.betCount())
		}
		e.ledgerOK()
	})
}

func is(target error) func(error) bool { return func(err error) bool { return errors.Is(err, target) } }

// TestRandomisedRoundsBalanceTheLedger: many players bet at random on two
// windows over many rounds — in time and late, within and outside the
// limits, beyond their balance, resent. Afterwards the ledger check passes,
// every bet is settled by the rules, each wallet equals the model, the
// house holds the difference, nothing is left in play, and every result
// verifies from its revealed seed.
func TestRandomisedRoundsBalanceTheLedger(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		rules := Rules{OddsBP: 19800, MinBet: 100, MaxBet: 5000, Betting: 5 * time.Second, Drawing: 2 * time.Second, Rest: 3 * time.Second}
		e := newEnv(t, db, 2, rules)
		e.node("a")
		const players, rounds = 30, 6
		rng := rand.New(rand.NewPCG(1, uint64(time.Now().UnixNano())))
		funded := map[int64]int64{}
		var ids []int64
		for range players {
			amt := 2000 + rng.Int64N(40000)
			id := e.player(amt)
			funded[id] = amt
			ids = append(ids, id)
		}
		for _, w := range []int64{1, 2} {
			e.waitArmed(w, t0.Add(rules.Betting))
		}
		var mu sync.Mutex
		accepted := map[string]storage.RoundBet{}
		refused := map[string]int{}
		for round := range rounds {
			var wg sync.WaitGroup
			for _, w := range []int64{1, 2} {
				r := e.latest(w)
				for p, uid := range ids {
					seed := rng.Uint64()
					wg.Add(1)
					go func() {
						defer wg.Done()
						rr := rand.New(rand.NewPCG(seed, 2))
						for k := range 1 + rr.IntN(4) {
							id := fmt.Sprintf("r%d-w%d-p%d-%d", round, w, p, k)
							c := Contents[rr.IntN(4)]
							amt := 50 + rr.Int64N(5500)
							arrive := at(r.StartsAt - 300 + rr.Int64N(r.BettingEndsAt-r.StartsAt+600))
							for send := 0; send < 1+rr.IntN(2); send++ { // sometimes resent
								b, err := e.betAt(uid, r, c, amt, id, arrive)
								mu.Lock()
								switch {
								case err == nil:
									if prev, ok := accepted[id]; ok && prev.ID != b.ID {
										t.Errorf("resend of %s made a second bet", id)
									}
									accepted[id] = b
									if arrive.UnixMilli() < r.StartsAt || arrive.UnixMilli() >= r.BettingEndsAt || amt < rules.MinBet || amt > rules.MaxBet {
										t.Errorf("bet %s accepted: arrived %d (open %d..%d), amount %d", id, arrive.UnixMilli(), r.StartsAt, r.BettingEndsAt, amt)
									}
								case errors.Is(err, ErrBettingNotOpen):
									if arrive.UnixMilli() >= r.StartsAt {
										t.Errorf("bet %s refused as early at %d", id, arrive.UnixMilli())
									}
									refused["early"]++
								case errors.Is(err, ErrBettingClosed):
									if arrive.UnixMilli() < r.BettingEndsAt {
										t.Errorf("bet %s refused as late at %d", id, arrive.UnixMilli())
									}
									refused["late"]++
								case errors.Is(err, ErrInsufficientBalance):
									refused["balance"]++
								default:
									var le *LimitError
									if !errors.As(err, &le) || amt >= rules.MinBet && amt <= rules.MaxBet {
										t.Errorf("bet %s: %v", id, err)
									}
									refused["limits"]++
								}
								mu.Unlock()
							}
						}
					}()
				}
			}
			wg.Wait()
			// Run both windows through drawing and rest into the next round.
			r := e.latest(1)
			for _, step := range []struct{ now, next int64 }{
				{r.BettingEndsAt, r.BettingEndsAt + 500},
				{r.BettingEndsAt + 500, r.DrawingEndsAt},
				{r.DrawingEndsAt, r.RestEndsAt},
				{r.RestEndsAt, r.RestEndsAt + rules.Betting.Milliseconds()},
			} {
				e.clock.Set(at(step.now))
				e.waitArmed(1, at(step.next))
				e.waitArmed(2, at(step.next))
			}
		}
		if len(accepted) < 100 || refused["late"] == 0 || refused["early"] == 0 || refused["limits"] == 0 {
			t.Fatalf("the random mix missed cases: %d accepted, refused %v", len(accepted), refused)
		}

		ctx := context.Background()
		want := map[int64]int64{}
		for id, amt := range funded {
			want[id] = amt
		}
		var staked, paid int64
		drawn, err := storage.AllDrawnRounds(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		if len(drawn) != 2*rounds {
			t.Fatalf("%d rounds drawn, want %d", len(drawn), 2*rounds)
		}
		settledBets := 0
		for _, r := range drawn {
			if err := Verify(r.Issue, r.Seed, r.SeedHash, [3]int{r.D0, r.D1, r.D2}); err != nil {
				t.Fatal(err)
			}
			if r.State != storage.RoundSettled {
				t.Fatalf("round %s not settled", r.Issue)
			}
			o := Outcome{Digits: [3]int{r.D0, r.D1, r.D2}, Sum: r.D0 + r.D1 + r.D2}
			bets, _ := storage.BetsOfRound(ctx, db, r.ID)
			var roundPaid int64
			for _, b := range bets {
				settledBets++
				if accepted[b.BetID].ID != b.ID {
					t.Fatalf("stored bet %s was never acknowledged", b.BetID)
				}
				wantPay, wantState := int64(0), storage.BetLost
				if o.Wins(Content(b.Content)) {
					wantPay, wantState = b.Amount*r.OddsBP/10000, storage.BetWon
				}
				if b.State != wantState || b.Payout != wantPay {
					t.Fatalf("bet %s on %s, sum %d: state %d payout %d, want %d %d", b.BetID, b.Content, o.Sum, b.State, b.Payout, wantState, wantPay)
				}
				want[b.UserID] += b.Payout - b.Amount
				staked += b.Amount
				paid += b.Payout
				roundPaid += b.Payout
			}
			if r.Paid != roundPaid || r.SettledCount != int64(len(bets)) || r.BetsCount != int64(len(bets)) {
				t.Fatalf("round %s totals %+v, bets paid %d of %d", r.Issue, r, roundPaid, len(bets))
			}
		}
		if settledBets != len(accepted) {
			t.Fatalf("%d bets stored, %d acknowledged", settledBets, len(accepted))
		}
		for id, w := range want {
			if got := e.balance(id); got != w {
				t.Fatalf("player %d: balance %d, model %d", id, got, w)
			}
		}
		if got := e.system(storage.House); got != staked-paid {
			t.Fatalf("house %d, want stakes %d − payouts %d", got, staked, paid)
		}
		if got := e.system(storage.BetsInPlay); got != 0 {
			t.Fatalf("%d left in play", got)
		}
		paidTo := map[int64]int64{}
		for _, r := range drawn {
			bets, _ := storage.BetsOfRound(ctx, db, r.ID)
			for _, b := range bets {
				paidTo[b.UserID] += b.Payout
			}
		}
		for _, id := range ids {
			testenv.Eventually(t, 5*time.Second, func() bool {
				var sum int64
				for _, p := range e.pushes.settled(id) {
					sum += p.Payout
				}
				return sum == paidTo[id]
			}, "settlement pushes of player %d do not add up to %d", id, paidTo[id])
		}
		// One round.outcome per player and round bet in, with the round's
		// result, the player's stakes and payout in it.
		type key struct {
			user  int64
			issue string
		}
		wantOutcome := map[key]OutcomePush{}
		for _, r := range drawn {
			bets, _ := storage.BetsOfRound(ctx, db, r.ID)
			for _, b := range bets {
				k := key{b.UserID, r.Issue}
				o := wantOutcome[k]
				o.Result = ViewResult(r)
				o.Bets++
				o.Staked += b.Amount
				o.Payout += b.Payout
				wantOutcome[k] = o
			}
		}
		for _, id := range ids {
			want := 0
			for k := range wantOutcome {
				if k.user == id {
					want++
				}
			}
			testenv.Eventually(t, 5*time.Second, func() bool { return len(e.pushes.outcomes(id)) == want },
				"player %d: %d round.outcome pushes, want %d", id, len(e.pushes.outcomes(id)), want)
			for _, p := range e.pushes.outcomes(id) {
				w := wantOutcome[key{id, p.Result.Issue}]
				if p.Bets != w.Bets || p.Staked != w.Staked || p.Payout != w.Payout ||
					p.Result.Digits != w.Result.Digits || p.Result.Outcome != w.Result.Outcome || p.Result.ServerSeed == "" {
					t.Fatalf("player %d round %s: push %+v, want %+v", id, p.Result.Issue, p, w)
				}
			}
		}
		rep := e.ledgerOK()
		t.Logf("%d bets (%v refused), %d rounds, house %+d; ledger: %s", len(accepted), refused, len(drawn), staked-paid, rep)
	})
}
