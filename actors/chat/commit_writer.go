package chat

import (
	"hash/fnv"
	"sync"
	"time"

	"kj/storage"
)

// writer commits the sends of many conversations together: a few
// long-lived workers (shards, by conversation id), each taking everything
// queued for it as one transaction of set-based statements
// (storage.CommitChatBatch). With 1:1 traffic a conversation rarely has
// more than one message waiting, so batching per conversation gave one
// transaction per message; batching across conversations gives one per
// burst. A conversation's actor still sends its next batch only after the
// previous one came back, so a conversation's messages keep their order,
// and a conversation always lands on the same shard, so on one node two
// shards never contend for a conversation row.
type writer struct {
	e      *Engine
	shards []*writerShard
	stop   chan struct{}
	done   sync.WaitGroup
	// onBatch sees each transaction's conversations and messages (tests
	// and the benchmark).
	onBatch func(convs, msgs int)
}

type writerShard struct {
	w     *writer
	mu    sync.Mutex
	queue []*writeJob
	wake  chan struct{} // one token: work was queued
}

// writeJob is one conversation's batch of sends; report gets the result
// (the actor's mailbox in the engine, a channel in benchmarks).
type writeJob struct {
	spec   convSpec
	items  []*sendItem
	report func(*sendsDone)
	done   *sendsDone
}

func newWriter(e *Engine, shards int) *writer {
	if e.db.Dialect() == storage.SQLite {
		shards = 1 // SQLite has one writer at a time: more would only queue on its lock
	}
	w := &writer{e: e, stop: make(chan struct{})}
	for range shards {
		sh := &writerShard{w: w, wake: make(chan struct{}, 1)}
		w.shards = append(w.shards, sh)
		w.done.Add(1)
		go sh.run()
	}
	return w
}

// submit queues a job on its conversation's shard.
func (w *writer) submit(j *writeJob) {
	h := fnv.New32a()
	_, _ = h.Write([]byte(j.spec.id))
	sh := w.shards[h.Sum32()%uint32(len(w.shards))]
	sh.mu.Lock()
	sh.queue = append(sh.queue, j)
	sh.mu.Unlock()
	select {
	case sh.wake <- struct{}{}:
	default:
	}
}

// close stops the workers once their queues are empty (the engine waits
// for every submitted job first).
func (w *writer) close() {
	close(w.stop)
	w.done.Wait()
}

func (sh *writerShard) run() {
	defer sh.w.done.Done()
	for {
		select {
		case <-sh.wake:
		case <-sh.w.stop:
			return
		}
		for {
			jobs := sh.take()
			if len(jobs) == 0 {
				break
			}
			sh.w.commit(jobs)
		}
	}
}

// take removes the next batch: whole jobs up to the batch cap (at least
// one job).
func (sh *writerShard) take() []*writeJob {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	max := sh.w.e.cfg.WriterBatch
	n, msgs := 0, 0
	for n < len(sh.queue) && (n == 0 || msgs+len(sh.queue[n].items) <= max) {
		msgs += len(sh.queue[n].items)
		n++
	}
	jobs := make([]*writeJob, n)
	copy(jobs, sh.queue)
	rest := copy(sh.queue, sh.queue[n:])
	clear(sh.queue[rest:])
	sh.queue = sh.queue[:rest]
	return jobs
}

// commit writes one batch and reports each job. Nothing is answered
// before the commit; a job the store refused (or a batch that failed as a
// whole) is answered "busy" and its client resends with the same
// clientMsgID, which dedupe makes safe.
func (w *writer) commit(jobs []*writeJob) {
	e := w.e
	for _, j := range jobs {
		j.done = &sendsDone{items: j.items, results: make([]sendResult, len(j.items))}
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
			j.report(j.done)
		}
	}()
	now := e.now()
	batch := make([]storage.ChatAppend, len(jobs))
	total := 0
	for _, j := range jobs {
		total += len(j.items)
	}
	// The messages are completed in place: a job's items are the
	// writer's until it reports them (the actor touches a batch in flight
	// only when it comes back), and a copy was ~0.5 KB per message. One
	// array holds the stored rows of every job.
	rows := make([]storage.ChatMessage, total)
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
	res, err := storage.CommitChatBatch(ctx, e.db, now, batch)
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
}
