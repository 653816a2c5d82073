package chat

import (
	"sync"
	"time"

	"kj/storage"

	"github.com/asynkron/protoactor-go/actor"
)

// writer commits the sends of many conversations together, each
// transaction taking everything queued (storage.CommitChatBatch: one
// round trip of set-based statements). With 1:1 traffic a conversation
// rarely has more than one message waiting, so batching per conversation
// gave one transaction per message; batching across conversations gives
// one per round trip.
//
// Batches grow with load because the writer keeps one transaction in
// flight: what arrives while it commits waits and goes in the next, so at
// a low rate a send is committed at once (the writer is idle) and at a
// high rate a transaction carries whatever a round trip's worth of
// traffic is. Two shards committing side by side, as before, halved the
// batches at every rate and PostgreSQL paid a transaction for every
// message or two at 2,000 msg/s (W2: 342 µs of its CPU per message, most
// of it the transaction's own cost, not the rows'). A further transaction
// starts beside the first (up to Config.Writers) only when the queue holds
// more than the transactions in flight carry (and at least spillMin): the
// store is falling behind and one round trip at a time no longer keeps up.
//
// When sends arrive faster than lingerMinRate the writer also waits up to
// lingerMax before it starts a transaction that would carry fewer than
// lingerBatch messages, for the next few to share it. Below that rate
// (W2's 250 and 500 msg/s steps) it never waits: a send is committed as
// soon as nothing else is.
//
// A conversation's actor sends its next batch only after the previous one
// came back, so a conversation's messages keep their order and two
// transactions of one node never hold the same conversation.
type writer struct {
	e    *Engine
	max  int // most transactions in flight
	stop chan struct{}
	done sync.WaitGroup
	wake chan struct{} // one token: work was queued

	mu       sync.Mutex
	queue    []*writeJob
	queued   int // messages in queue
	running  int // transactions in flight, and a worker lingering before one
	carrying int // messages in them

	// The arrival rate (msgs/s) of the last window of at least
	// rateWindow, and the messages submitted since the current one began.
	arrived  int
	winStart time.Time
	rate     float64

	// onBatch sees each transaction's conversations and messages (tests
	// and the benchmark).
	onBatch func(convs, msgs int)
}

// The linger: a transaction about to start with fewer than lingerBatch
// messages waits up to lingerMax for more when the rate says at least two
// more will come in that time (lingerMinRate: 1,000 msg/s).
const (
	lingerBatch   = 16
	lingerMax     = 2 * time.Millisecond
	lingerMinRate = 2 / (float64(lingerMax) / float64(time.Second))
)

// rateWindow is the least time the arrival rate is counted over: long
// enough that at W2's 250 msg/s (5 a window) a burst of a few sends does
// not read as 1,000 msg/s and make sends wait, short enough that the rate
// follows a ramp's steps.
const rateWindow = 20 * time.Millisecond

// spillMin is the least backlog that starts a transaction beside one in
// flight: below it the next round trip takes the backlog at little cost
// in latency, and fewer, larger transactions cost PostgreSQL less.
const spillMin = 64

// writeJob is one conversation's batch of sends; report gets the result
// (the actor's mailbox in the engine, a channel in benchmarks): done,
// which lives in the job, and whose results are one in the job too when
// the batch is one send (the usual 1:1 batch). The actor keeps the job
// alive until it has read done; nothing else reads the job after report.
//
// The engine's jobs come from writeJobs and go back once the actor has
// applied their report (sendsDone.free): a job, its items' array and a
// closure to report it were ~250 bytes of garbage a 1:1 message.
type writeJob struct {
	spec   convSpec
	items  []*sendItem
	report func(*sendsDone)
	done   sendsDone
	one    [1]sendResult

	// Where toActor reports (a pooled job's report).
	e     *Engine
	owner any // the actor instance that started the batch
	self  *actor.PID
}

var writeJobs = sync.Pool{New: func() any {
	j := new(writeJob)
	j.report = j.toActor // made once for the job's every use
	return j
}}

// toActor reports the job to the actor that started it, and ends the
// engine's count of commits in flight.
func (j *writeJob) toActor(d *sendsDone) {
	d.owner, d.job = j.owner, j
	e := j.e // the actor may free j as soon as it has d
	e.root.Send(j.self, d)
	e.commits.wg.Done()
}

// free gives the pooled job d came in back, once its actor has applied d
// (nothing keeps d, its items or results after that). A report of a job
// not from the pool (a benchmark's) is left alone.
func (d *sendsDone) free() {
	j := d.job
	if j == nil {
		return
	}
	items, report := j.items, j.report
	clear(items)
	*j = writeJob{items: items[:0], report: report}
	writeJobs.Put(j)
}

func newWriter(e *Engine, max int) *writer {
	if e.db.Dialect() == storage.SQLite {
		max = 1 // SQLite has one writer at a time: more would only queue on its lock
	}
	w := &writer{e: e, max: max, stop: make(chan struct{}), wake: make(chan struct{}, 1)}
	for range max {
		w.done.Add(1)
		go w.run()
	}
	return w
}

// submit queues a job and wakes a worker.
func (w *writer) submit(j *writeJob) {
	w.mu.Lock()
	w.queue = append(w.queue, j)
	w.queued += len(j.items)
	w.arrived += len(j.items)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// close stops the workers once their queues are empty (the engine waits
// for every submitted job first).
func (w *writer) close() {
	close(w.stop)
	w.done.Wait()
}

func (w *writer) run() {
	defer w.done.Done()
	for {
		select {
		case <-w.wake:
		case <-w.stop:
			return
		}
		finished, lingered := 0, false
		for {
			jobs, n, linger := w.take(finished, lingered)
			if linger > 0 {
				time.Sleep(linger)
				finished, lingered = 0, true
				continue
			}
			if len(jobs) == 0 {
				break
			}
			w.commit(jobs)
			finished, lingered = n, false
		}
	}
}

// take ends the caller's transaction of finished messages (0: none) or
// its linger, and removes the next batch when one should start now: whole
// jobs up to the batch cap (at least one job), when no transaction is in
// flight or the queue has outgrown the ones in flight. Otherwise the
// worker in flight takes the queue when its commit ends, here. It returns
// the batch and its messages, or how long to linger first (the caller then
// calls again with lingered).
func (w *writer) take(finished int, lingered bool) ([]*writeJob, int, time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if finished > 0 || lingered {
		w.running--
		w.carrying -= finished
	}
	if len(w.queue) == 0 || (w.running > 0 && (w.running >= w.max || w.queued < max(spillMin, w.carrying))) {
		return nil, 0, 0
	}
	if now := time.Now(); w.winStart.IsZero() {
		w.winStart = now
	} else if dt := now.Sub(w.winStart); dt >= rateWindow {
		w.rate = float64(w.arrived) / dt.Seconds()
		w.arrived, w.winStart = 0, now
	}
	if !lingered && w.running == 0 && w.queued < lingerBatch && w.rate >= lingerMinRate {
		// Counted as running, so that a send arriving meanwhile does not
		// start a transaction of its own on another worker.
		w.running++
		return nil, 0, min(lingerMax, time.Duration(float64(lingerBatch-w.queued)/w.rate*float64(time.Second)))
	}
	limit := w.e.cfg.WriterBatch
	n, msgs := 0, 0
	for n < len(w.queue) && (n == 0 || msgs+len(w.queue[n].items) <= limit) {
		msgs += len(w.queue[n].items)
		n++
	}
	jobs := make([]*writeJob, n)
	copy(jobs, w.queue)
	rest := copy(w.queue, w.queue[n:])
	clear(w.queue[rest:])
	w.queue = w.queue[:rest]
	w.queued -= msgs
	w.running++
	w.carrying += msgs
	if len(w.queue) > 0 && w.running < w.max && w.queued >= max(spillMin, w.carrying) {
		// More than this batch is left behind: another worker starts one.
		select {
		case w.wake <- struct{}{}:
		default:
		}
	}
	return jobs, msgs, 0
}

// commit writes one batch and reports each job. Nothing is answered
// before the commit; a job the store refused (or a batch that failed as a
// whole) is answered "busy" and its client resends with the same
// clientMsgID, which dedupe makes safe.
func (w *writer) commit(jobs []*writeJob) {
	e := w.e
	for _, j := range jobs {
		j.done = sendsDone{items: j.items}
		if len(j.items) == 1 {
			j.one = [1]sendResult{}
			j.done.results = j.one[:]
		} else {
			j.done.results = make([]sendResult, len(j.items))
		}
	}
	defer func() {
		if p := recover(); p != nil {
			e.log.Error("chat writer panic", "panic", p)
			for _, j := range jobs {
				for i := range j.done.results {
					j.done.results[i] = sendResult{err: errBusy()}
				}
			}
		}
		for _, j := range jobs {
			j.report(&j.done)
		}
	}()
	now := e.now()
	total := 0
	for _, j := range jobs {
		total += len(j.items)
	}
	// The messages are completed in place: a job's items are the
	// writer's until it reports them (the actor touches a batch in flight
	// only when it comes back), and a copy was ~0.5 KB per message. One
	// array holds the stored rows of every job, and it and the batch are
	// a pooled scratch: the store only reads them during the commit
	// (~0.3 KB a message of BenchmarkSendPath when made afresh). The
	// results' arrays are in the scratch too: they are read, and what is
	// kept of them copied (fromStored, a seq), before it is released.
	sc := commitScratchPool.Get().(*commitScratch)
	batch := append(sc.batch[:0], make([]storage.ChatAppend, len(jobs))...)
	rows := append(sc.rows[:0], make([]storage.ChatMessage, total)...)
	sc.batch, sc.rows = batch, rows
	for i, j := range jobs {
		a := storage.ChatAppend{Conversation: j.spec.conversation(now), Create: !j.spec.rowsReady,
			Messages: rows[:len(j.items):len(j.items)]}
		rows = rows[len(j.items):]
		if a.Create && j.spec.kind == sessionSingle {
			a.Members = []storage.ChatUserConvRow{
				{UserID: j.spec.a, ConversationID: j.spec.id, PeerID: j.spec.b, CreatedAt: now},
				{UserID: j.spec.b, ConversationID: j.spec.id, PeerID: j.spec.a, CreatedAt: now}}
		}
		for k, it := range j.items {
			m := it.msg
			m.ServerMsgID, m.SendTime, m.Status = storage.FormatID(storage.NewID()), now, statusSent
			a.Messages[k] = toStored(m, j.spec.id)
		}
		batch[i] = a
	}
	ctx, cancel := e.ctx()
	defer cancel()
	start := time.Now()
	res, err := storage.CommitChatBatchTo(ctx, e.db, now, batch, &sc.results)
	commitSeconds.Observe(time.Since(start).Seconds())
	commitBatch.Observe(float64(total))
	if w.onBatch != nil {
		w.onBatch(len(jobs), total)
	}
	stored := 0
	for i, j := range jobs {
		var jerr error
		switch {
		case err != nil:
			jerr = err
		case res[i].Err != nil:
			jerr = res[i].Err
		}
		if jerr != nil {
			e.log.Error("commit messages", "conv", j.spec.id, "n", len(j.items), "err", jerr)
			for k := range j.done.results {
				j.done.results[k] = sendResult{err: errBusy()}
			}
			continue
		}
		for k := range j.items {
			if res[i].Dup[k] {
				j.done.results[k] = sendResult{msg: fromStored(res[i].Messages[k]), dup: true}
				continue
			}
			m := j.items[k].msg
			m.Seq = res[i].Messages[k].Seq
			j.done.results[k] = sendResult{msg: m}
			stored++
		}
	}
	messagesStored.Add(float64(stored))
	sc.release()
}

// commitScratch is the arrays of a commit the store reads and the writer
// drops once it returns (see commit).
type commitScratch struct {
	batch   []storage.ChatAppend
	rows    []storage.ChatMessage
	results storage.ChatResults
}

var commitScratchPool = sync.Pool{New: func() any { return new(commitScratch) }}

// release clears the scratch, so that it holds no message, and pools it
// unless a large batch grew it.
func (sc *commitScratch) release() {
	if cap(sc.rows) > 1024 {
		return
	}
	clear(sc.batch)
	clear(sc.rows)
	sc.results.Reset()
	sc.batch, sc.rows = sc.batch[:0], sc.rows[:0]
	commitScratchPool.Put(sc)
}
