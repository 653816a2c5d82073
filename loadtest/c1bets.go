package loadtest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"kj/storage"
)

// c1Bets places bets over HTTP through the load balancer in every window
// while it takes bets, and at the end checks them against the store.
type c1Bets struct {
	db      storage.DB
	apis    []*API // player i bets through apis[i % len]
	players []Account
	rec     *c1Recorder // hears every request's outcome (optional)
	rate    float64

	mu      sync.Mutex
	rounds  map[int64]storage.Round // window → its newest round
	acked   map[string]int64        // betId → round id
	refused map[int]int             // code → bets refused with it
	retried int
	failed  int // no answer after every attempt
	ack     *Histogram
}

func newC1Bets(db storage.DB, api *API, players []Account, rate float64) *c1Bets {
	return &c1Bets{db: db, apis: []*API{api}, players: players, rate: rate, rounds: map[int64]storage.Round{},
		acked: map[string]int64{}, refused: map[int]int{}, ack: NewHistogram()}
}

const c1Windows = 3

// run bets until stop closes: one lane per player, each betting in the
// windows in turn, while the window's round is open for at least another
// half second (a bet arriving after the close is refused, rightly).
func (b *c1Bets) run(ctx context.Context, start time.Time, stop <-chan struct{}) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); b.watchRounds(ctx, stop) }()
	period := time.Duration(float64(len(b.players)) / b.rate * float64(time.Second))
	for lane, p := range b.players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			offset := time.Duration(float64(period) * float64(lane) / float64(len(b.players)))
			for n := 0; ; n++ {
				sched := start.Add(offset + time.Duration(n)*period)
				if !waitUntil(ctx, stop, sched) {
					return
				}
				w := int64((lane+n)%c1Windows + 1)
				b.mu.Lock()
				r, ok := b.rounds[w]
				b.mu.Unlock()
				now := time.Now().UnixMilli()
				if !ok || now < r.StartsAt || now > r.BettingEndsAt-500 {
					continue
				}
				b.place(ctx, b.apis[lane%len(b.apis)], p, r, fmt.Sprintf("c1-%d-%d", lane, n), int64(100+(n%10)*10), []string{"BIG", "SMALL", "SINGLE", "DOUBLE"}[n%4])
			}
		}()
	}
	wg.Wait()
}

// openFor says whether some window takes bets for at least d from now.
func (b *c1Bets) openFor(d time.Duration) bool {
	now := time.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, r := range b.rounds {
		if now.UnixMilli() >= r.StartsAt && time.UnixMilli(r.BettingEndsAt).Sub(now) >= d {
			return true
		}
	}
	return false
}

func (b *c1Bets) watchRounds(ctx context.Context, stop <-chan struct{}) {
	for {
		for w := int64(1); w <= c1Windows; w++ {
			if r, err := storage.LatestRound(ctx, b.db, w); err == nil {
				b.mu.Lock()
				b.rounds[w] = r
				b.mu.Unlock()
			}
		}
		select {
		case <-stop:
			return
		case <-ctx.Done():
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// place sends one bet; a request that gets no envelope back (the node
// behind the balancer died mid-request) is sent again with the same betId,
// which the server takes once.
func (b *c1Bets) place(ctx context.Context, api *API, p Account, r storage.Round, betID string, amount int64, content string) {
	t0 := time.Now()
	for attempt := 0; attempt < 5; attempt++ {
		if attempt > 0 {
			b.mu.Lock()
			b.retried++
			b.mu.Unlock()
			c1Sleep(ctx, 300*time.Millisecond)
		}
		sent := time.Now()
		err := api.Call(ctx, "/activation/betRequest", p.Token, map[string]any{"windowId": r.WindowID, "issue": r.Issue,
			"content": content, "amount": amount, "betId": betID}, nil)
		var apiErr *APIError
		if b.rec != nil && ctx.Err() == nil {
			switch {
			case err == nil:
				b.rec.request("bet", sent, 0, "")
			case errors.As(err, &apiErr):
				b.rec.request("bet", sent, int64(apiErr.Code), fmt.Sprintf("HTTP %d", apiErr.Status))
			default:
				b.rec.request("bet", sent, 0, err.Error())
			}
		}
		switch {
		case err == nil:
			b.mu.Lock()
			b.acked[betID] = r.ID
			b.ack.Record(time.Since(t0))
			b.mu.Unlock()
			return
		case errors.As(err, &apiErr) && apiErr.Status == 200:
			b.mu.Lock()
			b.refused[apiErr.Code]++
			b.mu.Unlock()
			return
		}
	}
	b.mu.Lock()
	b.failed++
	b.mu.Unlock()
}

// C1Bets is the end-of-run count of the bets.
type C1Bets struct {
	Acked      int         `json:"acked"`
	Lost       int         `json:"lost"`       // acknowledged, but not stored or never settled
	Missettled int         `json:"missettled"` // rounds whose counts, settlements or payouts disagree with their bets
	DrawnTwice int         `json:"drawnTwice"` // draws counted beyond the rounds drawn
	Rounds     int         `json:"rounds"`     // rounds with acknowledged bets
	Refused    map[int]int `json:"refused"`
	Retried    int         `json:"retried"`
	NoAnswer   int         `json:"noAnswer"`
	AckP99Ms   float64     `json:"ackP99Ms"`
	Examples   []string    `json:"examples,omitempty"`
}

// check waits until every round with an acknowledged bet is settled, then
// compares the bets with the store.
func (b *c1Bets) check(ctx context.Context) (C1Bets, error) {
	b.mu.Lock()
	res := C1Bets{Acked: len(b.acked), Refused: b.refused, Retried: b.retried, NoAnswer: b.failed, AckP99Ms: b.ack.Summary().P99}
	ids := make([]string, 0, len(b.acked))
	rounds := map[int64]bool{}
	for id, r := range b.acked {
		ids = append(ids, id)
		rounds[r] = true
	}
	b.mu.Unlock()
	res.Rounds = len(rounds)
	example := func(format string, args ...any) {
		if len(res.Examples) < 10 {
			res.Examples = append(res.Examples, fmt.Sprintf(format, args...))
		}
	}
	for id := range rounds {
		r, err := storage.RoundByID(ctx, b.db, id)
		if err != nil {
			return res, err
		}
		if _, err := waitSettled(ctx, b.db, id, time.UnixMilli(r.DrawingEndsAt).Add(60*time.Second)); err != nil {
			return res, err
		}
	}
	stored, err := storage.BetsByBetIDs(ctx, b.db, ids)
	if err != nil {
		return res, err
	}
	byID := map[string]storage.RoundBet{}
	for _, s := range stored {
		byID[s.BetID] = s
	}
	for _, id := range ids {
		s, ok := byID[id]
		switch {
		case !ok:
			res.Lost++
			example("bet %s acknowledged but not stored", id)
		case s.State == storage.BetOpen:
			res.Lost++
			example("bet %s never settled", id)
		}
	}
	// Each round with bets: its counters agree with its bets, each bet
	// settled once (settled_count would exceed the bets otherwise).
	for id := range rounds {
		var bets, settled, staked, paid, storedBets, sumStake, sumPayout, open int64
		if err := b.db.QueryRow(ctx, `SELECT r.bets_count, r.settled_count, r.staked, r.paid,
			(SELECT COUNT(*) FROM round_bets WHERE round_id = r.id),
			(SELECT COALESCE(SUM(amount), 0) FROM round_bets WHERE round_id = r.id),
			(SELECT COALESCE(SUM(payout), 0) FROM round_bets WHERE round_id = r.id),
			(SELECT COUNT(*) FROM round_bets WHERE round_id = r.id AND state = 0)
			FROM rounds r WHERE r.id = $1`, id).Scan(&bets, &settled, &staked, &paid, &storedBets, &sumStake, &sumPayout, &open); err != nil {
			return res, err
		}
		if bets != storedBets || settled != storedBets || staked != sumStake || paid != sumPayout || open != 0 {
			res.Missettled++
			example("round %d: %d bets counted, %d stored, %d settled, %d open; staked %d of %d; paid %d of %d",
				id, bets, storedBets, settled, open, staked, sumStake, paid, sumPayout)
		}
	}
	// No round drawn twice: every draw counts once in its window.
	rows, err := b.db.Query(ctx, `SELECT w.id, w.rounds_count, (SELECT COUNT(*) FROM rounds r WHERE r.window_id = w.id AND r.state >= $1)
		FROM round_windows w`, storage.RoundDrawn)
	if err != nil {
		return res, err
	}
	defer rows.Close()
	for rows.Next() {
		var w, counted, drawn int64
		if err := rows.Scan(&w, &counted, &drawn); err != nil {
			return res, err
		}
		if counted != drawn {
			res.DrawnTwice += int(max(counted-drawn, drawn-counted))
			example("window %d: %d draws counted, %d rounds drawn", w, counted, drawn)
		}
	}
	return res, rows.Err()
}
