// Package ledger is the ledger writer: the wallet's money (recharges,
// exchanges and their review) moves through it. Rounds post their stakes
// and payouts through the store in the bet desk's own transactions
// (docs/ARCHITECTURE.md, "How money moves"); both share storage's batch code.
//
// Every change of a balance is a Transfer from a debit account to a credit
// account, in integer cents, with an idempotency key. Accounts are a wallet
// per user (Wallet(userID)) and the system accounts House, RechargeClearing,
// WithdrawalPending, BetsInPlay and Withdrawn. A wallet, WithdrawalPending
// and BetsInPlay can never go below zero; the house and the two
// outside-facing accounts can. The store keeps every transfer as two
// append-only entries and moves the balances in the same transaction, so all
// balances always sum to zero (`kj ledger check` proves it).
//
// # Using it
//
//	res, err := w.Submit(ctx,
//		ledger.Transfer{Debit: ledger.Wallet(uid), Credit: ledger.BetsInPlay, Amount: 500,
//			Kind: "bet", Ref: betID, IdempotencyKey: "bet:" + betID})
//
// Submit returns after the transaction holding the transfers has committed
// (durable), with one Result per transfer (its id, time, and the two
// balances just after it). The transfers of one call are one operation:
// they commit together or not at all, and they are applied in order, so
// a settlement should pay out before it takes (each step must leave every
// wallet ≥ 0). Settling a round is one call per bet or one call with many
// transfers, e.g.
//
//	win:  BetsInPlay → Wallet (stake), House → Wallet (winnings)
//	loss: BetsInPlay → House (stake)
//
// Errors:
//   - ErrInsufficientBalance: a wallet (or holding account) would go negative;
//     nothing of the operation is written.
//   - ErrKeyReused: a key was used before for a different transfer.
//   - ErrInvalidTransfer, ErrUnknownAccount: a programming or input error.
//   - anything else (store down, ctx cancelled, ErrRestarted, ErrStopped):
//     the outcome is unknown — submit the same transfers with the same keys
//     again; a key that was written returns its original Result with
//     Replayed set and writes nothing.
//
// SubmitOp takes an Op whose Hook runs inside the same transaction, to
// write the caller's own rows atomically with the money (the wallet inserts
// an exchange order with its debit this way). A hook's error fails only its
// operation.
//
// # How it writes
//
// One writer actor (protoactor-go) per shard queues submissions while the
// previous transaction commits and writes everything queued as the next
// transaction (group commit), up to MaxBatch transfers. Each account
// touched gets one balance UPDATE per batch, however many transfers hit it,
// so the house and bets-in-play are not a row-lock queue. A failing
// operation never fails the others of its batch. Each committed change of a
// wallet is pushed to its owner's sockets as the business notification
// "balance" {amount, change}. Operations are routed to a shard by the first
// wallet they touch, so one user's operations keep their order. Shards (and
// the writers of other nodes) run concurrently: on PostgreSQL they read
// without locks, insert in parallel and queue only on the hot rows, at the
// end, in one lock order; a batch whose wallet moved under it, or whose
// shared holding account would go negative, is recomputed from fresh
// balances, never written.
package ledger

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"kj/internal/bus"
	"kj/internal/clock"
	"kj/storage"
)

// The ledger's vocabulary, shared with the store.
type (
	Transfer   = storage.Transfer
	AccountRef = storage.AccountRef
	Result     = storage.Result
	Op         = storage.Op
)

// The system accounts.
var (
	House             = storage.House
	RechargeClearing  = storage.RechargeClearing
	WithdrawalPending = storage.WithdrawalPending
	BetsInPlay        = storage.BetsInPlay
	Withdrawn         = storage.Withdrawn
)

// Wallet is the points account of a user.
func Wallet(userID int64) AccountRef { return storage.Wallet(userID) }

// Errors of an operation; see the package comment.
var (
	ErrInsufficientBalance = storage.ErrInsufficientBalance
	ErrKeyReused           = storage.ErrKeyReused
	ErrInvalidTransfer     = storage.ErrInvalidTransfer
	ErrUnknownAccount      = storage.ErrUnknownAccount
	// ErrStopped: the writer is shutting down or has stopped.
	ErrStopped = errors.New("ledger: writer stopped")
	// ErrRestarted: the shard's writer restarted before this operation was
	// written; it was not. Submit it again with the same keys.
	ErrRestarted = errors.New("ledger: writer restarted before the operation was written")
)

// BalanceKey is the business notification pushed after a wallet changed.
const BalanceKey = "balance"

// BalancePush is its data: the wallet's balance after the commit and the
// net change the commit made, in cents.
type BalancePush struct {
	Amount int64 `json:"amount"`
	Change int64 `json:"change"`
}

// Options tune a Writer; zero values take the defaults.
type Options struct {
	Shards   int          // writer actors; default 1
	MaxBatch int          // transfers per transaction; default 4096
	Bus      bus.Bus      // where balance changes are pushed; nil pushes nothing
	Clock    clock.Clock  // times of transfers; default the wall clock
	Log      *slog.Logger // default slog.Default()
	// CommitTimeout bounds one batch transaction; default 30s.
	CommitTimeout time.Duration

	onBatch func(transfers int, took time.Duration) // tests and benchmarks
}

// Writer submits transfers to the shard writers.
type Writer struct {
	db      storage.DB
	sys     *actor.ActorSystem
	opts    Options
	shards  []*shard
	closing atomic.Bool
	stopMu  sync.Mutex
}

// Start spawns the shard writers on sys.
func Start(sys *actor.ActorSystem, db storage.DB, opts Options) (*Writer, error) {
	if opts.Shards <= 0 {
		opts.Shards = 1
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = 4096
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real{}
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.CommitTimeout <= 0 {
		opts.CommitTimeout = 30 * time.Second
	}
	w := &Writer{db: db, sys: sys, opts: opts}
	for i := range opts.Shards {
		sh := &shard{w: w, idx: i, label: strconv.Itoa(i), stopped: make(chan struct{})}
		props := actor.PropsFromProducer(func() actor.Actor { return &writerActor{sh: sh} },
			actor.WithGuardian(supervisor(opts.Log)))
		pid, err := sys.Root.SpawnNamed(props, "ledger-writer-"+strconv.Itoa(i)+"-"+strconv.FormatInt(storage.NewID(), 36))
		if err != nil {
			w.Stop(context.Background())
			return nil, err
		}
		sh.pid = pid
		w.shards = append(w.shards, sh)
	}
	return w, nil
}

// supervisor restarts a failed writer (its queue is answered ErrRestarted;
// a batch already committing finishes and answers for itself), and gives up
// after 10 failures within a minute, when something is persistently wrong.
func supervisor(log *slog.Logger) actor.SupervisorStrategy {
	return actor.NewOneForOneStrategy(10, time.Minute, func(reason any) actor.Directive {
		log.Error("ledger writer failed; restarting", "reason", reason)
		return actor.RestartDirective
	})
}

// Submit writes transfers as one operation; see the package comment.
func (w *Writer) Submit(ctx context.Context, transfers ...Transfer) ([]Result, error) {
	return w.SubmitOp(ctx, Op{Transfers: transfers})
}

// SubmitOp writes one operation, with its hook, and waits for the commit.
func (w *Writer) SubmitOp(ctx context.Context, op Op) ([]Result, error) {
	if w.closing.Load() {
		return nil, ErrStopped
	}
	if err := storage.ValidateOp(op, w.opts.MaxBatch); err != nil {
		return nil, err
	}
	sh := w.shardFor(op)
	sub := &submission{op: op, reply: make(chan storage.OpResult, 1), at: time.Now()}
	w.sys.Root.Send(sh.pid, sub)
	select {
	case r := <-sub.reply:
		return r.Results, r.Err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-sh.stopped:
		select {
		case r := <-sub.reply:
			return r.Results, r.Err
		default:
			return nil, ErrStopped
		}
	}
}

// shardFor routes an operation by the first wallet it touches, so one
// user's operations queue on one shard in submission order.
func (w *Writer) shardFor(op Op) *shard {
	if len(w.shards) == 1 {
		return w.shards[0]
	}
	for _, t := range op.Transfers {
		for _, a := range []AccountRef{t.Debit, t.Credit} {
			if a.Kind == storage.AccountWallet {
				return w.shards[uint64(a.UserID)%uint64(len(w.shards))]
			}
		}
	}
	return w.shards[0]
}

// Restarts is how many times the shard writers were restarted by their
// supervisor.
func (w *Writer) Restarts() int64 {
	var n int64
	for _, sh := range w.shards {
		n += sh.restarts.Load()
	}
	return n
}

// Stop refuses new submissions, lets every queued one commit, then stops
// the writers. It returns ctx's error if that takes too long.
func (w *Writer) Stop(ctx context.Context) error {
	w.stopMu.Lock()
	defer w.stopMu.Unlock()
	w.closing.Store(true)
	var err error
	for _, sh := range w.shards {
		done := make(chan struct{})
		w.sys.Root.Send(sh.pid, &drain{done: done})
		select {
		case <-done:
		case <-sh.stopped:
		case <-ctx.Done():
			err = ctx.Err()
		}
		w.sys.Root.Stop(sh.pid)
		select {
		case <-sh.stopped:
		case <-ctx.Done():
			err = ctx.Err()
		}
	}
	return err
}

// shard is the state of one writer that outlives its actor's restarts.
type shard struct {
	w        *Writer
	idx      int
	label    string
	pid      *actor.PID
	busy     bool          // a batch is committing (touched by the actor only)
	drainReq chan struct{} // closed when queue and batch are done
	stopped  chan struct{} // closed when the actor stopped for good
	restarts atomic.Int64
}

type submission struct {
	op    storage.Op
	reply chan storage.OpResult
	at    time.Time
}

// Actor messages.
type (
	batchDone  struct{}
	drain      struct{ done chan struct{} }
	crash      struct{} // tests: make the actor fail
	queueProbe struct{} // answered with the queue length
)

// writerActor queues submissions and starts the next group commit when the
// previous one is done. Its queue is volatile: on a restart it is answered
// with ErrRestarted (the submitters retry with the same keys).
type writerActor struct {
	sh    *shard
	queue []*submission
}

func (a *writerActor) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *submission:
		a.queue = append(a.queue, m)
		queueDepth.WithLabelValues(a.sh.label).Set(float64(len(a.queue)))
		a.next()
	case batchDone:
		a.sh.busy = false
		a.next()
	case *drain:
		a.sh.drainReq = m.done
		a.next()
	case queueProbe:
		ctx.Respond(len(a.queue))
	case crash:
		panic("ledger writer: failure requested")
	case *actor.Restarting:
		a.sh.restarts.Add(1)
		writerRestarts.Inc()
		a.fail(ErrRestarted)
	case *actor.Stopped:
		a.fail(ErrStopped)
		close(a.sh.stopped)
	}
}

func (a *writerActor) fail(err error) {
	for _, s := range a.queue {
		s.reply <- storage.OpResult{Err: err}
	}
	a.queue = nil
	queueDepth.WithLabelValues(a.sh.label).Set(0)
}

// next starts a batch with everything queued (up to MaxBatch transfers)
// unless one is committing; a drain request is answered once both are empty.
func (a *writerActor) next() {
	if a.sh.busy {
		return
	}
	if len(a.queue) == 0 {
		if a.sh.drainReq != nil {
			close(a.sh.drainReq)
			a.sh.drainReq = nil
		}
		return
	}
	n, transfers := 0, 0
	for n < len(a.queue) && (n == 0 || transfers+len(a.queue[n].op.Transfers) <= a.sh.w.opts.MaxBatch) {
		transfers += len(a.queue[n].op.Transfers)
		n++
	}
	batch := make([]*submission, n)
	copy(batch, a.queue)
	a.queue = append(a.queue[:0], a.queue[n:]...)
	queueDepth.WithLabelValues(a.sh.label).Set(float64(len(a.queue)))
	a.sh.busy = true
	go a.sh.commit(batch)
}

// commit writes one batch, answers each submitter, pushes balance changes,
// and tells the actor it may start the next batch.
func (sh *shard) commit(batch []*submission) {
	w := sh.w
	replied := 0
	defer func() {
		if p := recover(); p != nil {
			w.opts.Log.Error("ledger batch panicked", "panic", p)
			for _, s := range batch[replied:] {
				s.reply <- storage.OpResult{Err: errors.New("ledger: batch failed")}
			}
		}
		w.sys.Root.Send(sh.pid, batchDone{})
	}()
	ops := make([]storage.Op, len(batch))
	transfers := 0
	for i, s := range batch {
		ops[i] = s.op
		transfers += len(s.op.Transfers)
	}
	ctx, cancel := context.WithTimeout(context.Background(), w.opts.CommitTimeout)
	defer cancel()
	start := time.Now()
	res, err := storage.CommitLedgerBatch(ctx, w.db, w.opts.Clock.Now().UnixMilli(), ops, w.opts.MaxBatch)
	took := time.Since(start)
	commitSeconds.Observe(took.Seconds())
	batchTransfers.Observe(float64(transfers))
	if w.opts.onBatch != nil {
		w.opts.onBatch(transfers, took)
	}
	if err != nil {
		w.opts.Log.Error("ledger batch failed", "operations", len(batch), "transfers", transfers, "err", err)
		transfersTotal.WithLabelValues("error").Add(float64(transfers))
		for _, s := range batch {
			s.reply <- storage.OpResult{Err: err}
			replied++
		}
		return
	}
	type change struct{ balance, delta int64 }
	wallets := map[int64]*change{}
	for i, s := range batch {
		r := res[i]
		outcome := "written"
		switch {
		case r.Err != nil:
			outcome = "failed"
		case len(r.Results) > 0 && r.Results[0].Replayed:
			outcome = "replayed"
		default:
			for j, t := range s.op.Transfers {
				for _, side := range []struct {
					a   AccountRef
					bal int64
					d   int64
				}{{t.Debit, r.Results[j].DebitBalance, -t.Amount}, {t.Credit, r.Results[j].CreditBalance, t.Amount}} {
					if side.a.Kind != storage.AccountWallet {
						continue
					}
					c := wallets[side.a.UserID]
					if c == nil {
						c = &change{}
						wallets[side.a.UserID] = c
					}
					c.balance, c.delta = side.bal, c.delta+side.d
				}
			}
		}
		transfersTotal.WithLabelValues(outcome).Add(float64(len(s.op.Transfers)))
		ackSeconds.Observe(time.Since(s.at).Seconds())
		s.reply <- r
		replied++
	}
	if w.opts.Bus != nil {
		for uid, c := range wallets {
			if c.delta == 0 {
				continue
			}
			if err := bus.PushToUser(ctx, w.opts.Bus, strconv.FormatInt(uid, 10), BalanceKey, BalancePush{Amount: c.balance, Change: c.delta}); err != nil {
				w.opts.Log.Warn("balance push failed", "user", uid, "err", err)
			}
		}
	}
}
