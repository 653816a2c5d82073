package protection

import (
	"context"
	"errors"
	"strconv"
	"testing"
	"time"

	"kj/internal/bus"
	"kj/internal/clock"
	"kj/storage"
	"kj/storage/storagetest"
)

// shanghai is the day zone of the tests: days start at 16:00 UTC.
var shanghai = func() *time.Location {
	l, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		panic(err)
	}
	return l
}()

// start is a Wednesday, 10:00 in Shanghai.
var start = time.Date(2026, 3, 4, 10, 0, 0, 0, shanghai)

// eachStore runs test on each store (storagetest.Each) from what a test of
// one node's service starts with: the service on a fake clock at start, and
// a new player named account.
func eachStore(t *testing.T, account string, test func(t *testing.T, ctx context.Context, db storage.DB, s *Service, c *clock.Fake, u int64)) {
	t.Helper()
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		c := clock.NewFake(start)
		test(t, context.Background(), db, New(db, c, shanghai, nil), c, newPlayer(t, db, account))
	})
}

func newPlayer(t testing.TB, db storage.DB, account string) int64 {
	t.Helper()
	id := storage.NewID()
	u := storage.User{ID: id, Account: account, PasswordHash: "x", Nickname: account, InviteCode: "pro_" + account,
		CreatedAt: start.UnixMilli(), UpdatedAt: start.UnixMilli()}
	if err := storage.CreateUser(context.Background(), db, u); err != nil {
		t.Fatal(err)
	}
	return id
}

// storeBet writes a bet row as the desk would (settled when payout >= 0
// is given with settled true).
func storeBet(t *testing.T, db storage.DB, userID, amount, payout int64, at time.Time) {
	t.Helper()
	id := storage.NewID()
	state := storage.BetOpen
	if payout > 0 {
		state = storage.BetWon
	}
	err := storage.InsertRoundBets(context.Background(), db, []storage.RoundBet{{ID: id, BetID: "b" + strconv.FormatInt(id, 10),
		UserID: userID, RoundID: 1, WindowID: 1, Issue: "1", Content: "BIG", Amount: amount, State: state, Payout: payout,
		PlacedAt: at.UnixMilli()}})
	if err != nil {
		t.Fatal(err)
	}
}

func placed() error { return nil }

func TestPeriodsFollowTheDayZone(t *testing.T) {
	s := New(nil, clock.NewFake(start), shanghai, nil)
	at := time.Date(2026, 3, 4, 23, 59, 0, 0, shanghai) // Wednesday
	cases := []struct {
		period     string
		start, end time.Time
	}{
		{Day, time.Date(2026, 3, 4, 0, 0, 0, 0, shanghai), time.Date(2026, 3, 5, 0, 0, 0, 0, shanghai)},
		{Week, time.Date(2026, 3, 2, 0, 0, 0, 0, shanghai), time.Date(2026, 3, 9, 0, 0, 0, 0, shanghai)},
		{Month, time.Date(2026, 3, 1, 0, 0, 0, 0, shanghai), time.Date(2026, 4, 1, 0, 0, 0, 0, shanghai)},
	}
	for _, c := range cases {
		if got := s.PeriodStart(at, c.period); !got.Equal(c.start) {
			t.Errorf("%s start: %v, want %v", c.period, got, c.start)
		}
		if got := s.PeriodEnd(at, c.period); !got.Equal(c.end) {
			t.Errorf("%s end: %v, want %v", c.period, got, c.end)
		}
	}
	// A Sunday belongs to the week that began the Monday before.
	sunday := time.Date(2026, 3, 8, 12, 0, 0, 0, shanghai)
	if got := s.PeriodStart(sunday, Week); !got.Equal(time.Date(2026, 3, 2, 0, 0, 0, 0, shanghai)) {
		t.Errorf("Sunday's week starts %v", got)
	}
}

func TestLossLimitRefusesTheBetBeyondItAndSaysWhichAndWhen(t *testing.T) {
	eachStore(t, "alice", func(t *testing.T, ctx context.Context, db storage.DB, s *Service, c *clock.Fake, u int64) {
		if _, err := s.SetLimit(ctx, u, Loss, Day, 1000); err != nil {
			t.Fatal(err)
		}
		// Yesterday's losses do not count today.
		storeBet(t, db, u, 5000, 0, start.AddDate(0, 0, -1))
		storeBet(t, db, u, 400, 0, start.Add(-time.Hour))
		if err := s.Bet(ctx, u, 600, placed); err != nil {
			t.Fatalf("bet up to the limit: %v", err)
		}
		ran := false
		err := s.Bet(ctx, u, 1, func() error { ran = true; return nil })
		var le *LimitError
		if !errors.As(err, &le) || le.Kind != Loss || le.Period != Day || le.Limit != 1000 ||
			!le.ResetsAt.Equal(time.Date(2026, 3, 5, 0, 0, 0, 0, shanghai)) || ran {
			t.Fatalf("bet past the limit: %v ran=%v", err, ran)
		}
		// A bet the desk refuses gives its stake back.
		// (The store holds 400 of today's loss: the 600 above never reached it.)
		if _, err := s.SetLimit(ctx, u, Loss, Day, 400); err != nil { // lower: at once
			t.Fatal(err)
		}
		if err := s.Bet(ctx, u, 100, placed); !errors.As(err, &le) || le.Limit != 400 {
			t.Fatalf("lowered limit not in force at once: %v", err)
		}
		// Returns lower the loss: a win of 1,000 on a settled bet leaves
		// room again once the node's copy reloads.
		storeBet(t, db, u, 100, 1100, start.Add(-time.Minute))
		c.Advance(MaxAge)
		if err := s.Bet(ctx, u, 400, placed); err != nil {
			t.Fatalf("after a win: %v", err)
		}
		// The next day starts with nothing lost.
		c.Set(time.Date(2026, 3, 5, 0, 0, 1, 0, shanghai))
		if err := s.Bet(ctx, u, 400, placed); err != nil {
			t.Fatalf("next day: %v", err)
		}
	})
}

func TestWeeklyAndMonthlyLossLimits(t *testing.T) {
	eachStore(t, "bob", func(t *testing.T, ctx context.Context, db storage.DB, s *Service, c *clock.Fake, u int64) {
		for _, p := range []struct {
			period string
			amount int64
		}{{Week, 2000}, {Month, 3000}} {
			if _, err := s.SetLimit(ctx, u, Loss, p.period, p.amount); err != nil {
				t.Fatal(err)
			}
		}
		storeBet(t, db, u, 1500, 0, time.Date(2026, 3, 2, 9, 0, 0, 0, shanghai)) // Monday: this week
		var le *LimitError
		if err := s.Bet(ctx, u, 600, placed); !errors.As(err, &le) || le.Period != Week ||
			!le.ResetsAt.Equal(time.Date(2026, 3, 9, 0, 0, 0, 0, shanghai)) {
			t.Fatalf("weekly: %v", err)
		}
		storeBet(t, db, u, 1400, 0, time.Date(2026, 3, 1, 9, 0, 0, 0, shanghai)) // Sunday: last week, this month
		c.Advance(MaxAge)                                                        // the node's copy reloads
		if err := s.Bet(ctx, u, 200, placed); !errors.As(err, &le) || le.Period != Month ||
			!le.ResetsAt.Equal(time.Date(2026, 4, 1, 0, 0, 0, 0, shanghai)) {
			t.Fatalf("monthly: %v", err)
		}
	})
}

func TestRaisingALimitWaits24Hours(t *testing.T) {
	eachStore(t, "carol", func(t *testing.T, ctx context.Context, db storage.DB, s *Service, c *clock.Fake, u int64) {
		if _, err := s.SetLimit(ctx, u, Loss, Day, 1000); err != nil {
			t.Fatal(err)
		}
		l, err := s.SetLimit(ctx, u, Loss, Day, 5000)
		if err != nil || l.Amount != 1000 || !l.Pending || l.NextAmount != 5000 ||
			l.NextAt != start.Add(24*time.Hour).UnixMilli() {
			t.Fatalf("raise: %+v %v", l, err)
		}
		var le *LimitError
		if err := s.Bet(ctx, u, 2000, placed); !errors.As(err, &le) || le.Limit != 1000 {
			t.Fatalf("raise in force before its time: %v", err)
		}
		// Asking again does not restart the wait.
		c.Advance(23 * time.Hour)
		if l, _ := s.SetLimit(ctx, u, Loss, Day, 5000); l.NextAt != start.Add(24*time.Hour).UnixMilli() {
			t.Fatalf("the wait restarted: %+v", l)
		}
		if err := s.Bet(ctx, u, 2000, placed); !errors.As(err, &le) || le.Limit != 1000 {
			t.Fatalf("at 23 h: %v", err)
		}
		c.Advance(time.Hour)
		if err := s.Bet(ctx, u, 2000, placed); err != nil {
			t.Fatalf("at 24 h the raise holds: %v", err)
		}
		// Removing a limit is a raise too.
		l, err = s.SetLimit(ctx, u, Loss, Day, 0)
		if err != nil || l.Amount != 5000 || !l.Pending || l.NextAmount != 0 {
			t.Fatalf("removal: %+v %v", l, err)
		}
		// Lowering cancels a raise waiting.
		l, err = s.SetLimit(ctx, u, Loss, Day, 3000)
		if err != nil || l.Amount != 3000 || l.Pending {
			t.Fatalf("lower after a raise: %+v %v", l, err)
		}
		for _, bad := range []struct {
			kind, period string
			amount       int64
			want         error
		}{{"win", Day, 1, ErrBadKind}, {Loss, "year", 1, ErrBadPeriod}, {Loss, Day, -1, ErrBadAmount},
			{Deposit, Day, storage.MaxAmount + 1, ErrBadAmount}} {
			if _, err := s.SetLimit(ctx, u, bad.kind, bad.period, bad.amount); !errors.Is(err, bad.want) {
				t.Errorf("%+v: %v", bad, err)
			}
		}
		st, err := s.Status(ctx, u, 0)
		if err != nil || len(st.Limits) != 6 || st.Limits[3].Kind != Loss || st.Limits[3].Amount != 3000 {
			t.Fatalf("status after bad input: %+v %v", st, err)
		}
	})
}

func TestExclusionsStopBetsAndRechargesAndCannotBeShortened(t *testing.T) {
	eachStore(t, "dave", func(t *testing.T, ctx context.Context, db storage.DB, s *Service, c *clock.Fake, u int64) {
		for _, bad := range []ExclusionRequest{{Kind: CoolOff, Days: 0}, {Kind: CoolOff, Days: 43},
			{Kind: CoolOff, Days: 3, Permanent: true}, {Kind: SelfExclusion, Months: 5}, {Kind: SelfExclusion, Months: 61}} {
			var re *RangeError
			if _, err := s.Exclude(ctx, u, bad); !errors.As(err, &re) || re.Kind != bad.Kind {
				t.Errorf("%+v: %v", bad, err)
			}
		}
		if _, err := s.Exclude(ctx, u, ExclusionRequest{Kind: "nap"}); !errors.Is(err, ErrBadExclusion) {
			t.Errorf("unknown kind: %v", err)
		}
		if err := s.Bet(ctx, u, 100, placed); err != nil { // loads the node's copy
			t.Fatal(err)
		}
		e, err := s.Exclude(ctx, u, ExclusionRequest{Kind: CoolOff, Days: 2})
		if err != nil || e.EndsAt != start.Add(48*time.Hour).UnixMilli() {
			t.Fatalf("cool-off: %+v %v", e, err)
		}
		var xe *ExcludedError
		if err := s.Bet(ctx, u, 100, placed); !errors.As(err, &xe) || xe.Kind != CoolOff ||
			!xe.Until.Equal(start.Add(48*time.Hour)) {
			t.Fatalf("bet in a cool-off (at once, through the node's copy): %v", err)
		}
		if err := s.Placing(ctx, u); !errors.As(err, &xe) || xe.Kind != CoolOff {
			t.Fatalf("recharge in a cool-off: %v", err)
		}
		var se *ShorterError
		if _, err := s.Exclude(ctx, u, ExclusionRequest{Kind: CoolOff, Days: 1}); !errors.As(err, &se) ||
			!se.Until.Equal(start.Add(48*time.Hour)) {
			t.Fatalf("shortening: %v", err)
		}
		// Lengthening is allowed: a self-exclusion of six months.
		e, err = s.Exclude(ctx, u, ExclusionRequest{Kind: SelfExclusion, Months: 6})
		if err != nil || e.EndsAt != start.AddDate(0, 6, 0).UnixMilli() {
			t.Fatalf("self-exclusion: %+v %v", e, err)
		}
		c.Advance(72 * time.Hour) // the cool-off is over, the self-exclusion is not
		if err := s.Bet(ctx, u, 100, placed); !errors.As(err, &xe) || xe.Kind != SelfExclusion || xe.Permanent() {
			t.Fatalf("bet in a self-exclusion: %v", err)
		}
		if _, err := s.Exclude(ctx, u, ExclusionRequest{Kind: SelfExclusion, Permanent: true}); err != nil {
			t.Fatal(err)
		}
		if err := s.Bet(ctx, u, 100, placed); !errors.As(err, &xe) || !xe.Permanent() {
			t.Fatalf("permanent: %v", err)
		}
		if _, err := s.Exclude(ctx, u, ExclusionRequest{Kind: SelfExclusion, Months: 60}); !errors.As(err, &se) || !se.Until.IsZero() {
			t.Fatalf("after permanent: %v", err)
		}
		st, err := s.Status(ctx, u, 0)
		if err != nil || st.Exclusion == nil || st.Exclusion.EndsAt != 0 || st.Exclusion.Kind != SelfExclusion {
			t.Fatalf("status: %+v %v", st.Exclusion, err)
		}
		// Every operator's list shows it.
		list, total, err := storage.ProtectionExclusionsFind(ctx, db, true, c.Now().UnixMilli(), "", 10, 0)
		if err != nil || total != 2 || list[0].Account != "dave" || list[0].EndsAt != 0 {
			t.Fatalf("operators' list: %+v %d %v", list, total, err)
		}
	})
}

func TestCoolOffEndsAndBetsResume(t *testing.T) {
	eachStore(t, "erin", func(t *testing.T, ctx context.Context, db storage.DB, s *Service, c *clock.Fake, u int64) {
		if _, err := s.Exclude(ctx, u, ExclusionRequest{Kind: CoolOff, Days: 1}); err != nil {
			t.Fatal(err)
		}
		c.Advance(24*time.Hour - time.Millisecond)
		var xe *ExcludedError
		if err := s.Bet(ctx, u, 100, placed); !errors.As(err, &xe) {
			t.Fatalf("before its end: %v", err)
		}
		c.Advance(time.Millisecond)
		if err := s.Bet(ctx, u, 100, placed); err != nil {
			t.Fatalf("at its end: %v", err)
		}
		if err := s.Placing(ctx, u); err != nil {
			t.Fatalf("recharge at its end: %v", err)
		}
	})
}

func TestPlaceErrorGivesTheStakeBack(t *testing.T) {
	eachStore(t, "fay", func(t *testing.T, ctx context.Context, db storage.DB, s *Service, _ *clock.Fake, u int64) {
		if _, err := s.SetLimit(ctx, u, Loss, Day, 1000); err != nil {
			t.Fatal(err)
		}
		refused := errors.New("betting closed")
		if err := s.Bet(ctx, u, 1000, func() error { return refused }); !errors.Is(err, refused) {
			t.Fatalf("place's error: %v", err)
		}
		if err := s.Bet(ctx, u, 1000, placed); err != nil {
			t.Fatalf("the refused stake still counted: %v", err)
		}
	})
}

func TestAChangeOnOneNodeReachesTheOthersAtOnce(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		b := bus.NewMemory()
		t.Cleanup(func() { b.Close() })
		c := clock.NewFake(start)
		a, other := New(db, c, shanghai, b), New(db, c, shanghai, b)
		u := newPlayer(t, db, "gus")
		if err := other.Bet(ctx, u, 100, placed); err != nil { // other keeps a copy
			t.Fatal(err)
		}
		if _, err := a.Exclude(ctx, u, ExclusionRequest{Kind: CoolOff, Days: 1}); err != nil {
			t.Fatal(err)
		}
		var xe *ExcludedError
		deadline := time.Now().Add(5 * time.Second)
		for {
			err := other.Bet(ctx, u, 100, placed)
			if errors.As(err, &xe) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the other node still takes bets: %v", err)
			}
			time.Sleep(5 * time.Millisecond) // the bus delivers on its own goroutine
		}
	})
}

// recharge creates an order as the wallet does, with Placed in its
// transaction, and reports the hold.
func recharge(t *testing.T, s *Service, db storage.DB, userID, amount int64, at time.Time) (storage.RechargeOrder, error) {
	t.Helper()
	id := storage.NewID()
	o := storage.RechargeOrder{ID: id, OrderNo: "R" + strconv.FormatInt(id, 10), UserID: userID, Amount: amount,
		Protocol: "TRC20", Address: "T", TxHash: strconv.FormatInt(id, 16), Status: storage.OrderUnderReview, CreatedAt: at.UnixMilli()}
	var held error
	err := db.Tx(context.Background(), func(tx storage.Tx) error {
		if err := storage.CreateRechargeOrder(context.Background(), tx, o); err != nil {
			return err
		}
		held = s.Placed(context.Background(), tx, o)
		if s.Held(held) {
			return nil
		}
		return held
	})
	if err != nil {
		t.Fatal(err)
	}
	return o, held
}

func TestARechargeBeyondTheDepositLimitIsHeldUntilTheLimitAllowsOrAnOperatorDecides(t *testing.T) {
	eachStore(t, "hal", func(t *testing.T, ctx context.Context, db storage.DB, s *Service, c *clock.Fake, u int64) {
		if _, err := s.SetLimit(ctx, u, Deposit, Day, 10000); err != nil {
			t.Fatal(err)
		}
		first, err := recharge(t, s, db, u, 8000, c.Now())
		if err != nil {
			t.Fatalf("within the limit: %v", err)
		}
		second, err := recharge(t, s, db, u, 3000, c.Now())
		var he *HeldError
		if !errors.As(err, &he) || he.Reason != "deposit.day" || he.Limit != 10000 ||
			!he.Until.Equal(time.Date(2026, 3, 5, 0, 0, 0, 0, shanghai)) {
			t.Fatalf("beyond the limit: %v", err)
		}
		if h, err := s.HoldOf(ctx, second.ID); err != nil || h == nil {
			t.Fatalf("hold not recorded: %v %v", h, err)
		}
		if err := s.Crediting(ctx, first); err != nil {
			t.Fatalf("crediting the first: %v", err)
		}
		if err := s.Crediting(ctx, second); !errors.As(err, &he) {
			t.Fatalf("crediting the held order today: %v", err)
		}
		// The operators' list shows it.
		list, total, err := storage.ProtectionHoldsOpen(ctx, db, 10, 0)
		if err != nil || total != 1 || list[0].OrderID != second.ID || list[0].Account != "hal" {
			t.Fatalf("holds: %+v %d %v", list, total, err)
		}
		// Tomorrow the limit allows it: crediting lets it go.
		c.Set(time.Date(2026, 3, 5, 0, 0, 0, 0, shanghai))
		if err := s.Crediting(ctx, second); err != nil {
			t.Fatalf("next day: %v", err)
		}
		if h, _ := s.HoldOf(ctx, second.ID); h != nil {
			t.Fatalf("still held: %+v", h)
		}
		// Another held one, let through by an operator the same day.
		if _, err := recharge(t, s, db, u, 7000, c.Now()); err != nil {
			t.Fatal(err)
		}
		third, err := recharge(t, s, db, u, 7000, c.Now())
		if !errors.As(err, &he) {
			t.Fatalf("third: %v", err)
		}
		err = db.Tx(ctx, func(tx storage.Tx) error {
			ok, err := s.Release(ctx, tx, third.ID, 42)
			if !ok && err == nil {
				err = errors.New("not released")
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Crediting(ctx, third); err != nil {
			t.Fatalf("released by an operator: %v", err)
		}
	})
}

func TestAnOrderOfAnExcludedPlayerIsHeldAtCrediting(t *testing.T) {
	eachStore(t, "ida", func(t *testing.T, ctx context.Context, db storage.DB, s *Service, c *clock.Fake, u int64) {
		o, err := recharge(t, s, db, u, 5000, c.Now()) // placed before the self-exclusion
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Exclude(ctx, u, ExclusionRequest{Kind: SelfExclusion, Permanent: true}); err != nil {
			t.Fatal(err)
		}
		var he *HeldError
		if err := s.Crediting(ctx, o); !errors.As(err, &he) || he.Reason != SelfExclusion || !he.Until.IsZero() {
			t.Fatalf("crediting during a self-exclusion: %v", err)
		}
	})
}

func TestStatusShowsTodaysNetAndTheSessionsNet(t *testing.T) {
	eachStore(t, "jo", func(t *testing.T, ctx context.Context, db storage.DB, s *Service, c *clock.Fake, u int64) {
		storeBet(t, db, u, 1000, 0, start.AddDate(0, 0, -1)) // yesterday
		storeBet(t, db, u, 500, 0, start.Add(-2*time.Hour))  // today, before the session
		session := start.Add(-time.Hour)
		storeBet(t, db, u, 200, 396, start.Add(-30*time.Minute)) // won: +196
		storeBet(t, db, u, 300, 0, start.Add(-10*time.Minute))   // lost
		if err := s.SetReality(ctx, u, 15); err != nil {
			t.Fatal(err)
		}
		if err := s.SetReality(ctx, u, 241); !errors.Is(err, ErrBadReality) {
			t.Fatalf("241 minutes: %v", err)
		}
		st, err := s.Status(ctx, u, session.UnixMilli())
		if err != nil || st.TodayNet != -604 || st.SinceNet != -104 || st.RealityMinutes != 15 || st.Now != c.Now().UnixMilli() {
			t.Fatalf("status: %+v %v", st, err)
		}
		if st.Limits[3].Used != 604 || st.Limits[3].ResetsAt != time.Date(2026, 3, 5, 0, 0, 0, 0, shanghai).UnixMilli() {
			t.Fatalf("daily loss used: %+v", st.Limits[3])
		}
	})
}
