package window

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"kj/internal/bus"
	"kj/internal/clock"
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
	ErrSlipInvalid    = errors.New("window: a slip holds 1-4 selections of distinct contents and bet ids")
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

// Check validates the request's own fields (the round decides the rest,
// including an amount above its maximum, so the message names that limit).
func (r BetRequest) Check() error {
	switch {
	case !r.Content.Valid():
		return ErrBadContent
	case r.Amount <= 0:
		return ErrBadAmount
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

// StakeKey is the ledger idempotency key of a bet's stake, whose unique
// index keeps a bet id to one bet.
func StakeKey(betID string) string { return storage.StakeKey(betID) }

// Desk is this node's writer of round money: it accepts bets and settles
// rounds, each batch in one store transaction, posting through the ledger in
// the same transaction as the rows it changes.
//
// Bets from every caller queue up and are written in batches (group
// commit), up to `writers` batches at once: a batch judges each bet against
// its round as last committed (deadline, state, limits), posts the stakes
// through the ledger in one call, inserts the bet rows together, and only
// then updates each round's totals on condition that it is still open. So
// the locks two batches of one round share — the hot ledger rows and the
// round's row — are taken at the very end and held only through the
// commit: the next batch does its reads and writes while one commits, and a
// batch that stalls holds the bets queued behind it for at most its own
// commit. Closing a round takes the same row lock, so a bet either commits
// before the close (and is settled with the round) or finds the round closed
// at its final update and is judged again (refused). Any node may run a
// Desk: the round's row, not the node running the window, decides.
//
// Settlement batches go through the same queue but alone, with no bet batch
// in flight: they credit many wallets and the hot accounts, which the
// ledger guards optimistically, and would otherwise be redone again and
// again against a stream of bets.
type Desk struct {
	db       storage.DB
	ledger   Ledger
	clock    clock.Clock
	bus      bus.Bus
	log      *slog.Logger
	maxBatch int
	writers  int          // bet batches in flight at once
	linger   atomic.Int64 // the longest a batch waits for more bets after its first (SetLinger)
	arrivals arrivalRate  // the bets' recent arrival rate, which sets each batch's wait (gather)

	bets    chan *betCall
	settles chan *settleCall
	onBatch func(bets int, began time.Time, took time.Duration) // benchmarks: each batch written
	board   *Board                                              // this node's board, told each batch's totals at once (UseBoard)
	quit    chan struct{}
	done    chan struct{}

	// settleParts, when > 0, replaces settlePartsPG (benchmarks: how many
	// transactions settle a batch side by side on PostgreSQL).
	settleParts int
}

// betCall is one unit the desk accepts or refuses whole: a single bet, or
// a slip's selections (PlaceSlip), whose stakes post as one ledger
// operation so they are debited together or not at all.
type betCall struct {
	reqs []BetRequest
	res  chan betResult
}

type betResult struct {
	bets []storage.RoundBet // one per request of the call, in its order
	err  error
}

type settleCall struct {
	round storage.Round
	limit int
	res   chan settleResult
}

type settleResult struct {
	bets []storage.RoundBet
	err  error
}

// deskWriters is how many bet batches a desk has in flight: one committing,
// the next ones doing their work meanwhile.
const deskWriters = 2

// NewDesk starts a desk writing batches of up to maxBatch bets. b (may be
// nil) carries the balance pushes.
func NewDesk(db storage.DB, ledger Ledger, clk clock.Clock, b bus.Bus, log *slog.Logger, maxBatch int) *Desk {
	if maxBatch <= 0 {
		maxBatch = 1000
	}
	if log == nil {
		log = slog.Default()
	}
	d := &Desk{db: db, ledger: ledger, clock: clk, bus: b, log: log, maxBatch: maxBatch, writers: deskWriters,
		bets: make(chan *betCall, 4*maxBatch), settles: make(chan *settleCall, 64),
		quit: make(chan struct{}), done: make(chan struct{})}
	go d.run()
	return d
}

// UseBoard has the desk tell bd each committed batch's round totals as
// soon as it commits (the other nodes' boards hear it over the bus). Call
// it before the first bet.
func (d *Desk) UseBoard(bd *Board) { d.board = bd }

// Place submits a bet and waits until it is durable (or refused). If ctx
// ends first the bet may still be written: resending it with the same bet
// id returns the original.
func (d *Desk) Place(ctx context.Context, req BetRequest) (storage.RoundBet, error) {
	if err := req.Check(); err != nil {
		return storage.RoundBet{}, err
	}
	c := &betCall{reqs: []BetRequest{req}, res: make(chan betResult, 1)}
	r, err := deskCall(ctx, d, d.bets, c, c.res)
	if err != nil {
		return storage.RoundBet{}, err
	}
	if r.err != nil || len(r.bets) == 0 {
		return storage.RoundBet{}, r.err
	}
	return r.bets[0], nil
}

// PlaceSlip submits a slip's bets as one unit and waits until they are all
// durable or all refused: one batch judges every selection, and their
// stakes are one ledger operation, so the wallet is debited the total or
// nothing. Each bet keeps its own id and settles on its own. Resending the
// slip with the same bet ids returns the stored bets; ids of which only
// some are stored, or stored for different bets, are refused.
func (d *Desk) PlaceSlip(ctx context.Context, reqs []BetRequest) ([]storage.RoundBet, error) {
	if len(reqs) == 0 {
		return nil, ErrSlipInvalid
	}
	ids := make(map[string]bool, len(reqs))
	for _, q := range reqs {
		if err := q.Check(); err != nil {
			return nil, err
		}
		if ids[q.BetID] || q.UserID != reqs[0].UserID {
			return nil, ErrSlipInvalid
		}
		ids[q.BetID] = true
	}
	c := &betCall{reqs: reqs, res: make(chan betResult, 1)}
	r, err := deskCall(ctx, d, d.bets, c, c.res)
	if err != nil {
		return nil, err
	}
	if r.err != nil {
		return nil, r.err
	}
	return r.bets, nil
}

// settle pays up to limit open bets of the drawn round r and returns them
// settled (none when the round has no open bet left).
func (d *Desk) settle(ctx context.Context, r storage.Round, limit int) ([]storage.RoundBet, error) {
	c := &settleCall{round: r, limit: limit, res: make(chan settleResult, 1)}
	res, err := deskCall(ctx, d, d.settles, c, c.res)
	if err != nil {
		return nil, err
	}
	return res.bets, res.err
}

// deskCall queues call for the desk's loop and waits for its result: the
// result even if the desk stopped just after giving it, ErrDeskClosed if
// the desk stopped first, ctx's error if ctx ended first.
func deskCall[C, R any](ctx context.Context, d *Desk, queue chan<- C, call C, res <-chan R) (R, error) {
	var none R
	select {
	case queue <- call:
	case <-d.quit:
		return none, ErrDeskClosed
	case <-ctx.Done():
		return none, ctx.Err()
	}
	select {
	case r := <-res:
		return r, nil
	case <-d.done:
		select {
		case r := <-res:
			return r, nil
		default:
			return none, ErrDeskClosed
		}
	case <-ctx.Done():
		return none, ctx.Err()
	}
}

// Close stops taking work, finishes what is queued, and returns when done.
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
	free := make(chan struct{}, d.writers) // a token per writer in use
	var inflight sync.WaitGroup
	for {
		select {
		case c := <-d.settles:
			inflight.Wait()
			d.settleBatch(c)
		case first := <-d.bets:
			arrived := time.Now()
			// Wait for a free writer before forming the batch, so it takes
			// everything that queued while all writers were busy.
			free <- struct{}{}
			batch := []*betCall{first}
		fill:
			for len(batch) < d.maxBatch {
				select {
				case c := <-d.bets:
					batch = append(batch, c)
				default:
					break fill
				}
			}
			d.arrivals.note(time.Now(), betsIn(batch))
			batch = d.gather(batch, arrived)
			inflight.Add(1)
			go func() {
				defer inflight.Done()
				d.write(batch)
				<-free
			}()
		case <-d.quit:
			inflight.Wait()
			// Answer what is still queued so no caller waits forever.
			for {
				select {
				case c := <-d.settles:
					d.settleBatch(c)
				case c := <-d.bets:
					d.write([]*betCall{c})
				default:
					return
				}
			}
		}
	}
}

// gather lets a batch wait for more bets, from its first bet's arrival,
// for as long as the arrivals of the last ~100 ms say it takes to gather
// lingerTarget bets, and at most the linger (SetLinger). A transaction
// costs the store about the same for one bet as for thirty (W4: ~1.1 ms of
// PostgreSQL's CPU per batch, ~10 µs per bet in it), so at a moderate rate,
// where each bet would otherwise share a transaction with a few others,
// the wait is most of a bet's cost in the store. When fewer than
// lingerMinExpected bets would arrive within the linger (a quiet desk, a
// lone bet), a batch does not wait at all: the wait would buy the store
// little and cost the bet its latency; at a high rate the target fills in a
// few ms, or while the writers are busy, and a batch waits little or not
// at all.
func (d *Desk) gather(batch []*betCall, arrived time.Time) []*betCall {
	target, have := min(lingerTarget, d.maxBatch), betsIn(batch)
	wait := time.Until(arrived.Add(d.arrivals.wait(time.Duration(d.linger.Load()), have, target)))
	if wait <= 0 {
		return batch
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	n := 0 // bets taken while waiting
	defer func() { d.arrivals.note(time.Now(), n) }()
	for have+n < target && len(batch) < d.maxBatch {
		select {
		case c := <-d.bets:
			batch = append(batch, c)
			n += len(c.reqs)
		case <-t.C:
			return batch
		case <-d.quit:
			return batch
		}
	}
	return batch
}

// The adaptive linger's constants (gather). lingerTarget is the batch the
// wait aims for: enough bets that the transaction's fixed cost is a small
// part of each (PostgreSQL ~35 µs a bet at 32, against ~180 at 6).
// lingerMinExpected is the fewest bets the linger must be expected to
// gather for a batch to wait at all. lingerTau is how far back the
// arrival rate looks.
const (
	lingerTarget      = 32
	lingerMinExpected = 4
	lingerTau         = 100 * time.Millisecond
)

// arrivalRate is an exponentially decaying count of the bets the desk
// took (time constant lingerTau): a steady rate of r bets/s reads r, and an
// idle desk decays to 0 within a few lingerTau. Only the desk's loop
// touches it.
type arrivalRate struct {
	perSec float64
	at     time.Time
}

// note counts n bets taken at now.
func (a *arrivalRate) note(now time.Time, n int) {
	if !a.at.IsZero() {
		a.perSec *= math.Exp(-now.Sub(a.at).Seconds() / lingerTau.Seconds())
	}
	a.perSec += float64(n) / lingerTau.Seconds()
	a.at = now
}

// wait is how long a batch holding have bets should wait for the rest of
// target at the current rate: at most max, and 0 when fewer than
// lingerMinExpected bets would arrive within max (or within lingerTau, for
// a long max: a rate seen in one or two bets is no reason to wait).
func (a *arrivalRate) wait(max time.Duration, have, target int) time.Duration {
	if max <= 0 || have >= target || a.perSec*min(max, lingerTau).Seconds() < lingerMinExpected {
		return 0
	}
	return min(max, time.Duration(float64(target-have)/a.perSec*float64(time.Second)))
}

// betsIn counts the bets of a batch's calls (a slip is several).
func betsIn(batch []*betCall) int {
	n := 0
	for _, c := range batch {
		n += len(c.reqs)
	}
	return n
}

// SetLinger sets the longest a batch of bets waits for more after its first
// arrived (0: it is written as soon as a writer is free); gather decides
// each batch's wait up to it from the recent arrival rate.
func (d *Desk) SetLinger(linger time.Duration) { d.linger.Store(int64(linger)) }

// errRoundMoved: a round a batch judged its bets against closed before the
// batch's final update; the batch runs again and judges them anew.
var errRoundMoved = errors.New("window: the round closed while a batch was written")

// errBetIDRaced: a bet id of the batch was committed by another batch after
// the batch looked it up; the batch runs again and finds it.
var errBetIDRaced = errors.New("window: a bet id was written by another batch meanwhile")

// tx runs fn in a transaction, again when the failure is one a fresh
// attempt can get past (another writer moved a ledger balance, a deadlock,
// a duplicate key committed meanwhile by another node: the retry sees it).
func (d *Desk) tx(ctx context.Context, what string, fn func(tx storage.Tx) error) error {
	var err error
	for attempt := 1; attempt <= 8; attempt++ {
		err = d.db.Tx(ctx, fn)
		if err == nil || !(errors.Is(err, errRoundMoved) || errors.Is(err, errBetIDRaced) || d.ledger.Retryable(err)) || ctx.Err() != nil {
			return err
		}
		deskRetries.WithLabelValues(what).Inc()
		time.Sleep(time.Duration(attempt) * time.Millisecond)
	}
	return err
}

// write runs one batch of bets and answers each caller.
func (d *Desk) write(batch []*betCall) {
	start := time.Now()
	ctx := context.Background()
	var results []betResult
	var changes walletChanges
	var totals []roundTotals
	attempt := 0
	err := d.tx(ctx, "bets", func(tx storage.Tx) error {
		var terr error
		attempt++
		results, changes, totals, terr = d.accept(ctx, tx, batch, attempt > 1)
		return terr
	})
	if err != nil {
		d.log.Error("bet batch failed", "bets", len(batch), "err", err)
	}
	if err == nil && d.board != nil && len(totals) > 0 {
		// Before the answers, so a player's next lobby on this node shows
		// the bet.
		d.board.apply(boardEvent{Totals: totals})
	}
	for i, c := range batch {
		r := betResult{err: err}
		if err == nil {
			r = results[i]
		}
		betsTotal.WithLabelValues(betOutcome(r.err)).Add(float64(len(c.reqs)))
		c.res <- r
	}
	betBatchSize.Observe(float64(len(batch)))
	betBatchSeconds.Observe(time.Since(start).Seconds())
	if d.onBatch != nil {
		d.onBatch(len(batch), start, time.Since(start))
	}
	if err == nil {
		changes.push(ctx, d.bus, d.log)
		if len(totals) > 0 {
			publishBoard(ctx, d.bus, boardEvent{Totals: totals})
		}
	}
}

// accept judges and writes one batch inside tx, returning each call's result.
//
// A first attempt does not look up its bet ids: a resend is rare, and a
// stored bet id fails the batch's writes on the unique index of its
// stake's ledger key, with ErrConflict, which tx retries, or, where the
// first attempt refused it, is found by a lookup of the refused ids only
// (errBetIDRaced, retried); every later
// attempt (lookup) reads the stored bets first and answers resends from
// them. The lookup is left out of the common path because it is the one
// statement whose cost grows with the table: PostgreSQL caches a generic
// plan per connection, and one made while round_bets was small scans the
// table for as long as the connection lives unless an ANALYZE replans it
// (W4, autovacuum off: 664 of 667 batches).
func (d *Desk) accept(ctx context.Context, tx storage.Tx, batch []*betCall, lookup bool) ([]betResult, walletChanges, []roundTotals, error) {
	results := make([]betResult, len(batch))
	changes := walletChanges{}
	var totals []roundTotals // each round's bets and stake after this batch

	// The rounds as last committed; whether they are still open is settled
	// at the end (AddOpenRoundStakes), in a fixed order so that batches
	// never deadlock on them.
	keys := make([]roundKey, 0, 1)
	seen := map[roundKey]bool{}
	ids := make([]string, 0, len(batch))
	wallets := []storage.AccountRef{storage.BetsInPlay}
	players := map[int64]bool{}
	for _, c := range batch {
		for _, q := range c.reqs {
			k := roundKey{q.WindowID, q.Issue}
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
			ids = append(ids, q.BetID)
			if !players[q.UserID] {
				players[q.UserID] = true
				wallets = append(wallets, storage.Wallet(q.UserID))
			}
		}
	}
	slices.SortFunc(keys, func(a, b roundKey) int {
		return cmp.Or(cmp.Compare(a.window, b.window), cmp.Compare(a.issue, b.issue))
	})
	// One round trip reads the rounds, the bet ids already stored (on a
	// retry) and the wallets of the batch's players (with bets in play,
	// which every stake credits); the stakes' ledger keys are fresh unless
	// their bet ids are stored, as a stake is written only with its bet.
	rounds := map[roundKey]*storage.Round{}
	missing := map[roundKey]error{}
	var existing []storage.RoundBet
	reads := storage.NewPipeline(tx.Dialect())
	for _, k := range keys {
		storage.QueueRoundByIssue(reads, k.window, k.issue, func(r storage.Round, ok bool) {
			if ok {
				rounds[k] = &r
			}
		})
	}
	if lookup {
		storage.QueueBetsByBetIDs(reads, ids, func(bets []storage.RoundBet) { existing = append(existing, bets...) })
	}
	plan := storage.NewLedgerPlan(d.clock.Now().UnixMilli(), true)
	plan.QueueLoad(reads, nil, wallets)
	if err := reads.Run(ctx, tx); err != nil {
		return nil, nil, nil, err
	}
	for _, k := range keys {
		if rounds[k] != nil {
			continue
		}
		w, err := storage.RoundWindowByID(ctx, tx, k.window)
		switch {
		case errors.Is(err, storage.ErrNotFound) || err == nil && w.Enabled != 1:
			missing[k] = ErrUnknownWindow
		case err != nil:
			return nil, nil, nil, err
		default:
			missing[k] = ErrUnknownIssue
		}
	}

	byBetID := make(map[string]storage.RoundBet, len(existing))
	for _, b := range existing {
		byBetID[b.BetID] = b
	}

	var (
		ops     []storage.Op
		opBets  [][]storage.RoundBet // the new bets of each op
		owner   []int                // batch index of each op
		firstOf = map[string]int{}
		dupOf   = map[int]int{} // batch index → index of the earlier call with its first bet id
	)
	for i, c := range batch {
		if stored, ok, err := resent(c.reqs, byBetID); ok {
			results[i] = betResult{bets: stored, err: err}
			continue
		}
		if j, ok := firstOf[c.reqs[0].BetID]; ok {
			dupOf[i] = j
			continue
		}
		if slices.ContainsFunc(c.reqs, func(q BetRequest) bool { _, ok := firstOf[q.BetID]; return ok }) {
			// Part of its ids are an earlier call's of this batch: not a
			// copy of it, so a different use of those ids.
			results[i].err = ErrBetIDReused
			continue
		}
		for _, q := range c.reqs {
			firstOf[q.BetID] = i
		}
		bets, err := judge(c.reqs, rounds, missing)
		if err != nil {
			results[i].err = err
			continue
		}
		transfers := make([]storage.Transfer, len(bets))
		for n, b := range bets {
			transfers[n] = storage.Transfer{Debit: storage.Wallet(b.UserID), Credit: storage.BetsInPlay, Amount: b.Amount,
				Kind: KindStake, Ref: strconv.FormatInt(b.ID, 10), IdempotencyKey: StakeKey(b.BetID)}
		}
		ops = append(ops, storage.Op{Transfers: transfers})
		opBets = append(opBets, bets)
		owner = append(owner, i)
	}

	if len(ops) > 0 {
		res, err := d.ledger.Apply(ctx, tx, plan, ops)
		if err != nil {
			return nil, nil, nil, err
		}
		kept := make([]storage.RoundBet, 0, len(ops))
		stakes := map[int64][2]int64{} // round id → bets, staked
		for n, bets := range opBets {
			i := owner[n]
			if errors.Is(res[n].Err, storage.ErrKeyReused) {
				// The plan reads no stake keys (they are fresh unless their
				// bet is stored, which the unique index and the refused-ids
				// lookup below catch), so only a key the ledger finds used
				// is a bet stored meanwhile: judge the batch again, with
				// the lookup, which answers it as a resend.
				return nil, nil, nil, errBetIDRaced
			}
			if res[n].Err != nil {
				results[i].err = opError(res[n].Err)
				continue
			}
			changes.add(ops[n].Transfers, res[n].Results)
			results[i].bets = bets
			kept = append(kept, bets...)
			for _, b := range bets {
				s := stakes[b.RoundID]
				stakes[b.RoundID] = [2]int64{s[0] + 1, s[1] + b.Amount}
			}
		}
		// One round trip writes the stakes, the bets and each round's
		// totals; the rounds' rows are locked last (a fixed order), on
		// condition that they are still open.
		writes := storage.NewPipeline(tx.Dialect())
		plan.QueueWrite(writes)
		storage.QueueInsertRoundBets(writes, kept)
		moved := false
		for _, k := range keys {
			if r := rounds[k]; r != nil {
				if s := stakes[r.ID]; s[0] > 0 {
					storage.QueueAddOpenRoundStakesTotals(writes, r.ID, s[0], s[1], func(open bool, bets, staked int64) {
						if !open {
							moved = true
							return
						}
						totals = append(totals, roundTotals{WindowID: r.WindowID, RoundID: r.ID, Bets: bets, Staked: staked})
					})
				}
			}
		}
		if err := writes.Run(ctx, tx); err != nil {
			return nil, nil, nil, err
		}
		if moved {
			return nil, nil, nil, errRoundMoved
		}
	}

	// A first attempt judged resends as new bets. One that was accepted
	// failed the writes on the unique index of the stakes' keys; one that
	// was refused (the round closed since, the balance it spent, another
	// player's id) wrote nothing, so look those ids up: if one is stored,
	// the batch runs again with the lookup and answers it as a resend.
	if !lookup {
		var refused []string
		for i, c := range batch {
			if _, dup := dupOf[i]; !dup && results[i].err != nil {
				for _, q := range c.reqs {
					refused = append(refused, q.BetID)
				}
			}
		}
		if len(refused) > 0 {
			stored, err := storage.BetsByBetIDs(ctx, tx, refused)
			if err != nil {
				return nil, nil, nil, err
			}
			if len(stored) > 0 {
				return nil, nil, nil, errBetIDRaced
			}
		}
	}

	// A resend inside the same batch gets what the first copy got.
	for i, j := range dupOf {
		first := results[j]
		switch {
		case !sameIDs(batch[i].reqs, batch[j].reqs):
			results[i] = betResult{err: ErrBetIDReused}
		case first.err != nil:
			results[i] = first
		default:
			results[i] = betResult{bets: first.bets, err: sameBets(first.bets, batch[i].reqs)}
		}
	}
	return results, changes, totals, nil
}

type roundKey struct {
	window int64
	issue  string
}

// judge checks a call's requests against their rounds as last committed
// and returns the bets to write, or the first refusal: a slip is refused
// whole when any selection is.
func judge(reqs []BetRequest, rounds map[roundKey]*storage.Round, missing map[roundKey]error) ([]storage.RoundBet, error) {
	bets := make([]storage.RoundBet, 0, len(reqs))
	for _, q := range reqs {
		k := roundKey{q.WindowID, q.Issue}
		if err := missing[k]; err != nil {
			return nil, err
		}
		r := rounds[k]
		at := q.ArrivedAt.UnixMilli()
		switch {
		case at < r.StartsAt:
			return nil, ErrBettingNotOpen
		case r.State != storage.RoundOpen || at >= r.BettingEndsAt:
			return nil, ErrBettingClosed
		case q.Amount < r.MinBet || q.Amount > r.MaxBet:
			return nil, &LimitError{Amount: q.Amount, Min: r.MinBet, Max: r.MaxBet}
		}
		bets = append(bets, storage.RoundBet{ID: storage.NewID(), BetID: q.BetID, UserID: q.UserID, RoundID: r.ID,
			WindowID: r.WindowID, Issue: r.Issue, Content: string(q.Content), Amount: q.Amount,
			State: storage.BetOpen, PlacedAt: at})
	}
	return bets, nil
}

// resent answers a call whose bet ids are already stored (ok): the stored
// bets when they are the same player's same bets, else the refusal. A call
// of which only some ids are stored is refused too: its bets go in whole
// or not at all, and those ids already name other bets.
func resent(reqs []BetRequest, byBetID map[string]storage.RoundBet) (stored []storage.RoundBet, ok bool, err error) {
	if len(reqs) == 1 { // a single bet: no slice unless stored
		b, found := byBetID[reqs[0].BetID]
		if !found {
			return nil, false, nil
		}
		return []storage.RoundBet{b}, true, sameBet(b, reqs[0])
	}
	for _, q := range reqs {
		if b, found := byBetID[q.BetID]; found {
			stored = append(stored, b)
		}
	}
	switch {
	case len(stored) == 0:
		return nil, false, nil
	case len(stored) < len(reqs):
		for _, b := range stored {
			if b.UserID != reqs[0].UserID {
				return nil, true, ErrBetIDTaken
			}
		}
		return nil, true, ErrBetIDReused
	}
	return stored, true, sameBets(stored, reqs)
}

// sameIDs reports whether two calls name the same bet ids in the same order.
func sameIDs(a, b []BetRequest) bool {
	return slices.EqualFunc(a, b, func(x, y BetRequest) bool { return x.BetID == y.BetID })
}

// sameBets is sameBet over a call's requests and their stored bets.
func sameBets(bets []storage.RoundBet, reqs []BetRequest) error {
	if len(bets) != len(reqs) {
		return ErrBetIDReused
	}
	for n, q := range reqs {
		if err := sameBet(bets[n], q); err != nil {
			return err
		}
	}
	return nil
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
