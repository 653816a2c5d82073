package window

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"time"

	"kj/engine/clock"
	"kj/storage"
)

// Errors a bet can be refused with (besides ErrInsufficientBalance and a
// *LimitError). The API maps each to its code and translated message.
var (
	ErrUnknownWindow  = errors.New("window: no such window")
	ErrUnknownIssue   = errors.New("window: no such round in this window")
	ErrBettingNotOpen = errors.New("window: betting has not opened for this round")
	ErrBettingClosed  = errors.New("window: betting has closed for this round")
	ErrBetIDTaken     = errors.New("window: bet id belongs to another player")
	ErrBetIDReused    = errors.New("window: bet id already used for a different bet")
	ErrBadContent     = errors.New("window: content must be BIG, SMALL, SINGLE or DOUBLE")
	ErrBadAmount      = errors.New("window: amount must be a positive whole number of cents")
	ErrBadBetID       = errors.New("window: bet id must be 1-64 letters, digits or . _ : -")
	ErrDeskClosed     = errors.New("window: the bet desk is shut")
)

// LimitError refuses an amount outside the round's limits; it carries them
// so the message can name them.
type LimitError struct {
	Amount, Min, Max int64
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("window: amount %d outside %d..%d", e.Amount, e.Min, e.Max)
}

// Below reports whether the amount was under the minimum.
func (e *LimitError) Below() bool { return e.Amount < e.Min }

// BetRequest is a player's bet as it arrived. ArrivedAt is the node's clock
// when the request arrived; it, not the moment the bet reaches the store,
// decides whether betting was open.
type BetRequest struct {
	UserID    int64
	WindowID  int64
	Issue     string
	Content   Content
	Amount    int64 // cents
	BetID     string
	ArrivedAt time.Time
}

// Check validates the request's own fields (the round decides the rest).
func (r BetRequest) Check() error {
	switch {
	case !r.Content.Valid():
		return ErrBadContent
	case r.Amount <= 0:
		return ErrBadAmount
	case r.Amount > MaxAmount:
		return &LimitError{Amount: r.Amount, Min: 1, Max: MaxAmount}
	case !ValidBetID(r.BetID):
		return ErrBadBetID
	}
	return nil
}

// ValidBetID: 1-64 characters of letters, digits and . _ : -
func ValidBetID(s string) bool {
	if len(s) < 1 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == ':' || c == '-') {
			return false
		}
	}
	return true
}

// StakeKey is the ledger idempotency key of a bet's stake.
func StakeKey(betID string) string { return "bet:" + betID + ":stake" }

// Desk accepts bets on this node. Bets from every caller queue up and are
// written in batches, one store transaction per batch (group commit): the
// rounds involved are locked, each bet is judged against its round's
// stored deadline and limits, the stakes go through the ledger in one call,
// the bet rows are inserted together and each round's totals updated once.
// Any node may run a Desk: the round's row, not the node running the
// window, decides whether betting is open, and closing the round takes the
// same row lock, so a bet either commits before the close or is refused.
type Desk struct {
	db       storage.DB
	ledger   Ledger
	clock    clock.Clock
	log      *slog.Logger
	maxBatch int

	in   chan *betCall
	quit chan struct{}
	done chan struct{}
}

type betCall struct {
	req BetRequest
	res chan betResult
}

type betResult struct {
	bet storage.RoundBet
	err error
}

// NewDesk starts a desk writing batches of up to maxBatch bets.
func NewDesk(db storage.DB, ledger Ledger, clk clock.Clock, log *slog.Logger, maxBatch int) *Desk {
	if maxBatch <= 0 {
		maxBatch = 1000
	}
	d := &Desk{db: db, ledger: ledger, clock: clk, log: log, maxBatch: maxBatch,
		in: make(chan *betCall, 4*maxBatch), quit: make(chan struct{}), done: make(chan struct{})}
	go d.run()
	return d
}

// Place submits a bet and waits until it is durable (or refused). If ctx
// ends first the bet may still be written: resending it with the same bet
// id returns the original.
func (d *Desk) Place(ctx context.Context, req BetRequest) (storage.RoundBet, error) {
	if err := req.Check(); err != nil {
		return storage.RoundBet{}, err
	}
	c := &betCall{req: req, res: make(chan betResult, 1)}
	select {
	case d.in <- c:
	case <-d.quit:
		return storage.RoundBet{}, ErrDeskClosed
	case <-ctx.Done():
		return storage.RoundBet{}, ctx.Err()
	}
	select {
	case r := <-c.res:
		return r.bet, r.err
	case <-d.done:
		select {
		case r := <-c.res:
			return r.bet, r.err
		default:
			return storage.RoundBet{}, ErrDeskClosed
		}
	case <-ctx.Done():
		return storage.RoundBet{}, ctx.Err()
	}
}

// Close stops taking bets, finishes those queued, and returns when done.
func (d *Desk) Close() {
	select {
	case <-d.quit:
	default:
		close(d.quit)
	}
	<-d.done
}

func (d *Desk) run() {
	defer close(d.done)
	for {
		var first *betCall
		select {
		case first = <-d.in:
		case <-d.quit:
			// Answer what is still queued so no caller waits forever.
			for {
				select {
				case c := <-d.in:
					d.write([]*betCall{c})
				default:
					return
				}
			}
		}
		batch := []*betCall{first}
	fill:
		for len(batch) < d.maxBatch {
			select {
			case c := <-d.in:
				batch = append(batch, c)
			default:
				break fill
			}
		}
		d.write(batch)
	}
}

// write runs one batch, retrying the transaction when it fails as a whole
// (a deadlock, or a duplicate bet id committed by another node meanwhile:
// the retry sees it and answers idempotently).
func (d *Desk) write(batch []*betCall) {
	start := time.Now()
	ctx := context.Background()
	var results []betResult
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		err = d.db.Tx(ctx, func(tx storage.Tx) error {
			var terr error
			results, terr = d.accept(ctx, tx, batch)
			return terr
		})
		if err == nil {
			break
		}
		d.log.Warn("bet batch failed", "bets", len(batch), "attempt", attempt+1, "err", err)
	}
	accepted := 0
	for i, c := range batch {
		r := betResult{err: err}
		if err == nil {
			r = results[i]
		}
		if r.err == nil {
			accepted++
		}
		betsTotal.WithLabelValues(betOutcome(r.err)).Inc()
		c.res <- r
	}
	betBatchSize.Observe(float64(len(batch)))
	betBatchSeconds.Observe(time.Since(start).Seconds())
}

// accept judges and writes one batch inside tx, returning each call's result.
func (d *Desk) accept(ctx context.Context, tx storage.Tx, batch []*betCall) ([]betResult, error) {
	results := make([]betResult, len(batch))

	// Lock the rounds in a fixed order so two desks never deadlock.
	type roundKey struct {
		window int64
		issue  string
	}
	keys := make([]roundKey, 0, 1)
	seen := map[roundKey]bool{}
	ids := make([]string, 0, len(batch))
	for _, c := range batch {
		k := roundKey{c.req.WindowID, c.req.Issue}
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
		ids = append(ids, c.req.BetID)
	}
	slices.SortFunc(keys, func(a, b roundKey) int {
		return cmp.Or(cmp.Compare(a.window, b.window), cmp.Compare(a.issue, b.issue))
	})
	rounds := map[roundKey]*storage.Round{}
	missing := map[roundKey]error{}
	for _, k := range keys {
		r, err := storage.RoundByIssue(ctx, tx, k.window, k.issue, true)
		switch {
		case err == nil:
			rounds[k] = &r
		case errors.Is(err, storage.ErrNotFound):
			if _, err := storage.RoundWindowByID(ctx, tx, k.window); errors.Is(err, storage.ErrNotFound) {
				missing[k] = ErrUnknownWindow
			} else if err != nil {
				return nil, err
			} else {
				missing[k] = ErrUnknownIssue
			}
		default:
			return nil, err
		}
	}

	existing, err := storage.BetsByBetIDs(ctx, tx, ids)
	if err != nil {
		return nil, err
	}
	byBetID := make(map[string]storage.RoundBet, len(existing))
	for _, b := range existing {
		byBetID[b.BetID] = b
	}

	var (
		newBets   []storage.RoundBet
		transfers []Transfer
		owner     []int // batch index of each new bet
		firstOf   = map[string]int{}
		dupOf     = map[int]int{} // batch index → index of the earlier call with that bet id
	)
	for i, c := range batch {
		q := c.req
		if b, ok := byBetID[q.BetID]; ok {
			results[i] = betResult{bet: b, err: sameBet(b, q)}
			continue
		}
		if j, ok := firstOf[q.BetID]; ok {
			dupOf[i] = j
			continue
		}
		firstOf[q.BetID] = i
		k := roundKey{q.WindowID, q.Issue}
		if err := missing[k]; err != nil {
			results[i].err = err
			continue
		}
		r := rounds[k]
		at := q.ArrivedAt.UnixMilli()
		switch {
		case at < r.StartsAt:
			results[i].err = ErrBettingNotOpen
			continue
		case r.State != storage.RoundOpen || at >= r.BettingEndsAt:
			results[i].err = ErrBettingClosed
			continue
		case q.Amount < r.MinBet || q.Amount > r.MaxBet:
			results[i].err = &LimitError{Amount: q.Amount, Min: r.MinBet, Max: r.MaxBet}
			continue
		}
		b := storage.RoundBet{ID: storage.NewID(), BetID: q.BetID, UserID: q.UserID, RoundID: r.ID,
			WindowID: r.WindowID, Issue: r.Issue, Content: string(q.Content), Amount: q.Amount,
			State: storage.BetOpen, PlacedAt: at}
		newBets = append(newBets, b)
		owner = append(owner, i)
		transfers = append(transfers, Transfer{Key: StakeKey(q.BetID), From: WalletOf(q.UserID),
			To: Account{Kind: BetsInPlay}, Amount: q.Amount, Kind: KindStake, Ref: strconv.FormatInt(b.ID, 10)})
	}

	if len(transfers) > 0 {
		errs, err := d.ledger.Post(ctx, tx, transfers)
		if err != nil {
			return nil, err
		}
		kept := newBets[:0]
		stakes := map[int64][2]int64{} // round id → bets, staked
		for n, b := range newBets {
			i := owner[n]
			if errs[n] != nil {
				results[i].err = errs[n]
				continue
			}
			results[i].bet = b
			kept = append(kept, b)
			s := stakes[b.RoundID]
			stakes[b.RoundID] = [2]int64{s[0] + 1, s[1] + b.Amount}
		}
		if err := storage.InsertRoundBets(ctx, tx, kept); err != nil {
			return nil, err
		}
		for _, k := range keys {
			if r := rounds[k]; r != nil {
				if s := stakes[r.ID]; s[0] > 0 {
					if err := storage.AddRoundStakes(ctx, tx, r.ID, s[0], s[1]); err != nil {
						return nil, err
					}
				}
			}
		}
	}

	// A resend inside the same batch gets what the first copy got.
	for i, j := range dupOf {
		first := results[j]
		if first.err != nil {
			results[i] = first
			continue
		}
		results[i] = betResult{bet: first.bet, err: sameBet(first.bet, batch[i].req)}
	}
	return results, nil
}

// sameBet decides a resend: the same player and the same bet get the stored
// bet back; anything else is refused.
func sameBet(b storage.RoundBet, q BetRequest) error {
	switch {
	case b.UserID != q.UserID:
		return ErrBetIDTaken
	case b.WindowID != q.WindowID || b.Issue != q.Issue || b.Content != string(q.Content) || b.Amount != q.Amount:
		return ErrBetIDReused
	}
	return nil
}

func betOutcome(err error) string {
	var le *LimitError
	switch {
	case err == nil:
		return "accepted"
	case errors.Is(err, ErrBettingClosed), errors.Is(err, ErrBettingNotOpen):
		return "late"
	case errors.Is(err, ErrInsufficientBalance):
		return "balance"
	case errors.As(err, &le), errors.Is(err, ErrUnknownIssue), errors.Is(err, ErrUnknownWindow),
		errors.Is(err, ErrBetIDReused), errors.Is(err, ErrBetIDTaken):
		return "refused"
	}
	return "error"
}
