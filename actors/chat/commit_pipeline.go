package chat

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"kj/storage"
)

// sendItem is one message waiting to be committed to its conversation.
type sendItem struct {
	msg     *Message // validated; sender, session type and target filled in
	skip    int64    // the sending socket, which gets the reply instead of a push
	reply   replyTo
	waiters []replyTo // resends of the same clientMsgID while this one is pending
	started time.Time
}

// opItem is a change to a conversation or group (membership, roles, mute,
// revoke, friend acceptance) run alone in its own transaction, in order
// with the sends around it.
type opItem struct {
	run   func(ctx context.Context, tx storage.Tx, w *noticeWriter) (*outcome, error)
	reply replyTo
}

// outcome is what an op did, applied by the actor after its commit.
type outcome struct {
	data      any        // reply data
	pushes    []pushTo   // callbacks
	changed   []int64    // users whose view of this conversation changed
	extra     []int64    // users who also get the notices (members who just left)
	members   bool       // membership changed: reload the fan-out list
	mutes     []muteTime // unmute timers to arm (deadline 0 cancels)
	dismissed bool
	revoked   *RevokedInfo
}

// pushTo is a callback for users; members adds every member of the group
// (resolved by the group actor after the op, so new members are included).
type pushTo struct {
	users   []int64
	members bool
	event   string
	data    any
}

type muteTime struct {
	user     int64
	deadline int64
}

// pipeline is the group-commit queue of one conversation: while one batch
// is in its transaction, new sends queue up and go together in the next,
// so a busy conversation pays one transaction per batch, not per message.
type pipeline struct {
	queue    []any // *sendItem or *opItem, in arrival order
	inflight bool
	pending  map[string]*sendItem     // clientMsgID -> queued or committing send
	recent   [recentMessages]keptSend // committed lately, a ring: see recentMessages
	next     int                      // recent's slot for the next one kept
	held     []heldAck                // acknowledgements queued held by applySends, until releaseAcks
}

// enqueue adds what a committing actor (conversation or group) was asked
// to commit: a message send or an op, in arrival order.
func (p *pipeline) enqueue(e *Engine, m any, judge func(*sendItem) error) {
	switch m := m.(type) {
	case *sendRequest:
		p.addSend(e, m.item, judge)
	case *opRequest:
		p.queue = append(p.queue, m.item)
	}
}

// landed notes that a batch came back: when it was this actor's own (a
// restarted actor may hear its predecessor's), the next may start.
func (p *pipeline) landed(owner, self any) {
	if owner == self {
		p.inflight = false
	}
}

// recentMessages is how many committed messages a conversation or group
// actor keeps to answer a resend without the store. A client resends what
// it sent last (its acknowledgement was lost), and the SDK keeps few sends
// of a conversation in flight; an older resend is answered by the store's
// unique index on clientMsgID just the same, one round trip later.
//
// What is kept of a message is its acknowledgement's data, the escaped
// JSON, which lives in the message's OnRecvNewMessage frame: one block of
// bytes (~0.8 KB) the collector marks without scanning, holding none of
// the message's strings. Encode writes the frame once and nothing changes
// it after (it goes to sockets as it is), so the cache shares it: a copy
// was ~0.7 KB of garbage a send. The kept sends are most of what a busy
// conversation holds: W2's 5,000 pairs, at 32 copies of the Message a
// conversation, kept ~60 MB (~40 % of the node's live heap at 10,000
// msg/s). The collector's mark phase scanned them all, up to ~0.6 s a
// cycle, while the process ran a fraction of its goroutines: that was the
// 10,000 msg/s step's tail. A ring of a few, searched in order, needs no
// map either.
const recentMessages = 4

// keptSend is what a pipeline keeps of a committed send (recentMessages).
type keptSend struct {
	clientMsgID string
	escaped     []byte // the message's Message.escaped (shared, never written)
}

func newPipeline() pipeline {
	return pipeline{pending: map[string]*sendItem{}}
}

// addSend queues a send unless its clientMsgID was committed lately (the
// stored message is the answer) or is already pending (it shares that
// answer): a resend never makes a duplicate. A new send must pass judge
// (the rules, from the actor's state) or is answered with its verdict.
func (p *pipeline) addSend(e *Engine, it *sendItem, judge func(*sendItem) error) {
	id := it.msg.ClientMsgID
	if m := p.recentSend(id); m != nil {
		it.reply.send(e, m, nil)
		return
	}
	if first, ok := p.pending[id]; ok {
		first.waiters = append(first.waiters, it.reply)
		return
	}
	if err := judge(it); err != nil {
		it.reply.send(e, nil, err)
		return
	}
	p.pending[id] = it
	p.queue = append(p.queue, it)
}

// recentSend is the acknowledgement's data kept for clientMsgID id, as
// the reply takes it (appendReplyData copies a message's escaped JSON), or
// nil.
func (p *pipeline) recentSend(id string) *Message {
	if i := p.kept(id); i >= 0 {
		return &Message{ClientMsgID: id, escaped: p.recent[i].escaped}
	}
	return nil
}

// kept is the index in recent of clientMsgID id, or -1.
func (p *pipeline) kept(id string) int {
	for i, k := range p.recent {
		if k.escaped != nil && k.clientMsgID == id {
			return i
		}
	}
	return -1
}

// remember keeps committed m's acknowledgement, in place of the oldest
// kept. m is encoded first if it was not: it is still this actor's, not
// yet handed to a reply or a fan-out.
func (p *pipeline) remember(m *Message) {
	if p.kept(m.ClientMsgID) >= 0 {
		return
	}
	m.encode()
	p.recent[p.next] = keptSend{clientMsgID: m.ClientMsgID, escaped: m.escaped}
	p.next = (p.next + 1) % recentMessages
}

// drop removes the first n of the queue, keeping its array for the next
// sends (slicing the front off made appends allocate a new one).
func (p *pipeline) drop(n int) {
	rest := copy(p.queue, p.queue[n:])
	clear(p.queue[rest:])
	p.queue = p.queue[:rest]
}

// failQueued answers everything still queued (an actor about to restart
// loses its queue; the clients retry, and dedupe makes that safe).
func (p *pipeline) failQueued(e *Engine, err error) {
	for _, q := range p.queue {
		switch it := q.(type) {
		case *sendItem:
			it.reply.send(e, nil, err)
			for _, w := range it.waiters {
				w.send(e, nil, err)
			}
		case *opItem:
			it.reply.send(e, nil, err)
		}
	}
	p.queue = nil
}

// convSpec is what a commit needs to know about its conversation; it is a
// copy, so the transaction goroutine never touches actor state.
type convSpec struct {
	id        string
	kind      int // sessionSingle or sessionGroup
	a, b      int64
	groupID   int64
	rowsReady bool // 1:1 rows of both users exist
}

func (s convSpec) conversation(now int64) storage.ChatConversation {
	return storage.ChatConversation{ID: s.id, SessionType: s.kind, GroupID: s.groupID, CreatedAt: now}
}

// sendsDone reports a committed (or failed) batch of sends to its actor.
type sendsDone struct {
	owner   any // the actor instance that started it
	items   []*sendItem
	results []sendResult
	job     *writeJob // the pooled job it is part of (free); nil outside the engine
}

type sendResult struct {
	msg *Message
	dup bool
	err error
}

// opDone reports an op's commit.
type opDone struct {
	owner any
	item  *opItem
	out   *outcome
	err   error
	wrote []*Message
}

// receiveTracked hands ctx's message to receive, keeping a message of the
// commit pipeline in *current while it is handled. current is cleared only
// on a normal return: after a panic the Restarting handler finds it and
// answers it (failCurrent).
func receiveTracked(current *any, ctx actor.Context, receive func(actor.Context)) {
	switch ctx.Message().(type) {
	case *sendRequest, *opRequest, *sendsDone, *opDone:
		*current = ctx.Message()
		receive(ctx)
		*current = nil
	default:
		receive(ctx)
	}
}

// startFlush commits the next batch: sends go to the writer, which
// commits them together with other conversations' sends; an op runs in a
// goroutine of its own (ops are rare). The result comes back as a message.
func (e *Engine) startFlush(actx actor.Context, owner any, p *pipeline, spec convSpec) {
	if p.inflight || len(p.queue) == 0 {
		return
	}
	if !e.begin() {
		p.failQueued(e, errBusy()) // the node is closing; clients resend elsewhere
		return
	}
	p.inflight = true
	self := actx.Self()
	if op, ok := p.queue[0].(*opItem); ok {
		p.drop(1)
		go func() {
			defer e.commits.wg.Done()
			e.root.Send(self, e.runOp(owner, spec, op))
		}()
		return
	}
	// The sends at the head of the queue, up to the first op.
	j := writeJobs.Get().(*writeJob)
	j.spec, j.e, j.owner, j.self = spec, e, owner, self
	n := 0
	for n < len(p.queue) && n < e.cfg.MaxBatch {
		it, ok := p.queue[n].(*sendItem)
		if !ok {
			break
		}
		j.items = append(j.items, it)
		n++
	}
	p.drop(n)
	e.commits.writer.submit(j)
}

// noticeWriter appends notices to a conversation inside an op's
// transaction, taking the conversation lock on first use.
type noticeWriter struct {
	ctx    context.Context
	tx     storage.Tx
	spec   convSpec
	now    int64
	locked bool
	maxSeq int64
	wrote  []*Message
}

// write stores m with the next seq of the conversation.
func (w *noticeWriter) write(m *Message) error {
	if !w.locked {
		seq, err := storage.LockChatConversation(w.ctx, w.tx, w.spec.conversation(w.now))
		if err != nil {
			return err
		}
		w.maxSeq, w.locked = seq, true
	}
	w.maxSeq++
	m.Seq, m.ServerMsgID, m.SendTime, m.Status = w.maxSeq, storage.FormatID(storage.NewID()), w.now, statusSent
	m.SessionType = w.spec.kind
	if w.spec.kind == sessionGroup {
		m.GroupID = storage.FormatID(w.spec.groupID)
	}
	if err := storage.InsertChatMessages(w.ctx, w.tx, []storage.ChatMessage{toStored(m, w.spec.id)}); err != nil {
		return err
	}
	if err := storage.SetChatConversationSeq(w.ctx, w.tx, w.spec.id, w.maxSeq, w.now); err != nil {
		return err
	}
	w.wrote = append(w.wrote, m)
	return nil
}

// seq is the conversation's max seq inside the op (locking it when needed).
func (w *noticeWriter) seq() (int64, error) {
	if !w.locked {
		seq, err := storage.LockChatConversation(w.ctx, w.tx, w.spec.conversation(w.now))
		if err != nil {
			return 0, err
		}
		w.maxSeq, w.locked = seq, true
	}
	return w.maxSeq, nil
}

// runOp runs one op in its own transaction.
func (e *Engine) runOp(owner any, spec convSpec, op *opItem) (done *opDone) {
	done = &opDone{owner: owner, item: op}
	defer func() {
		if p := recover(); p != nil {
			e.log.Error("op panic", "conv", spec.id, "panic", p)
			done.out, done.err, done.wrote = nil, errBusy(), nil
		}
	}()
	ctx, cancel := e.ctx()
	defer cancel()
	start := time.Now()
	err := e.db.Tx(ctx, func(tx storage.Tx) error {
		w := &noticeWriter{ctx: ctx, tx: tx, spec: spec, now: e.now()}
		out, err := op.run(ctx, tx, w)
		if err != nil {
			return err
		}
		done.out, done.wrote = out, w.wrote
		return nil
	})
	commitSeconds.Observe(time.Since(start).Seconds())
	if err != nil {
		done.out, done.wrote, done.err = nil, nil, storeErr(err, 0)
		return done
	}
	messagesStored.Add(float64(len(done.wrote)))
	return done
}

// applySends answers the senders of a committed batch and returns the new
// messages to fan out, with the sockets to skip.
//
// A new message's acknowledgement is queued on its socket held, like the
// message frames fanOut queues (no writer woken), when the socket's user
// is online here: the fan-out that follows lists that user for a flush,
// which queues the user's conversation frame behind the acknowledgement
// and releases the socket, so the two leave in one write instead of two
// (W2: ~2.3 write calls a message, each ~20 µs of the server's CPU on a
// loopback socket). The caller calls releaseAcks after the fan-out:
// a socket whose user was not told to flush since its acknowledgement was
// queued (a flush already due, a deferred one) is released there, so no
// acknowledgement waits for a coalescing window.
func (e *Engine) applySends(p *pipeline, d *sendsDone) ([]*Message, []int64) {
	var fresh []*Message
	var skip []int64
	p.held = p.held[:0]
	for i, it := range d.items {
		r := d.results[i]
		if cur, ok := p.pending[it.msg.ClientMsgID]; ok && cur == it {
			delete(p.pending, it.msg.ClientMsgID)
		}
		held := false
		if r.err == nil && r.msg != nil {
			switch {
			case !r.dup:
				sendSeconds.Observe(time.Since(it.started).Seconds())
				fallthrough
			case !e.delivery.pushed.has(r.msg):
				// New, or stored by a node that may have died before
				// pushing it (see fannedOut).
				fresh = append(fresh, r.msg)
				skip = append(skip, it.skip)
				e.delivery.pushed.add(r.msg)
				// Encoded once, here, before the reply and the fan-out
				// take it: the acknowledgement and every push share its
				// escaped JSON (appendReplyData, userEvent.prepare).
				r.msg.encode()
				held = e.holdAck(p, it.reply, r.msg)
			}
			p.remember(r.msg)
		}
		if !held {
			it.reply.send(e, r.msg, r.err)
		}
		for _, w := range it.waiters {
			w.send(e, r.msg, r.err)
		}
	}
	return fresh, skip
}

// heldAck is an acknowledgement queued held on its socket, how many
// flushes its user had been told of once it was queued, and whether one
// of them had not started then.
type heldAck struct {
	s       *session
	u       *userEntry
	flush   uint64
	waiting bool
}

// holdAck queues r's acknowledgement of m held when r is a socket whose
// user is online here with that socket attached (the user the fan-out
// will flush), and notes it in p.held; false when it was not queued.
func (e *Engine) holdAck(p *pipeline, r replyTo, m *Message) bool {
	s := r.s
	if s == nil {
		return false
	}
	u, ok := e.live.users.get(s.userID)
	if !ok || !slices.Contains(u.sockets(), s) {
		return false
	}
	s.replyHeld(r.name, r.opID, m)
	// Read after the queueing: a flush told from here on, or one told
	// before and not started yet, releases it. (In W2 a pair's two sends
	// meet: the peer's message has often just told the sender's flush,
	// and releasing the acknowledgement here wrote it alone.)
	p.held = append(p.held, heldAck{s: s, u: u, flush: u.flushesTold.Load(), waiting: u.flushWaiting()})
	return true
}

// releaseAcks releases the sockets of p.held whose user was told of no
// flush since, and had none waiting to start then (see applySends); the
// others go out with that flush. A user whose flush is gathered for a
// coalescing window is told to flush now instead (unless the push
// interval holds it): the acknowledgement does not wait for the window,
// and it leaves with the conversation frame rather than alone before it.
// (In W2 a pair's two sends often come within a window of each other: the
// second sender's flush was gathered, and its acknowledgement and
// conversation frame took a write each.)
func (e *Engine) releaseAcks(p *pipeline) {
	for i, h := range p.held {
		switch {
		case h.waiting || h.u.flushesTold.Load() != h.flush:
		case h.u.flushGathered() && e.delivery.flushes.flushEarly(h.u):
		default:
			h.s.release()
		}
		p.held[i] = heldAck{}
	}
	p.held = p.held[:0]
}

// applyOutcome answers an op and sends its callbacks (members = the
// group's members, nil in a 1:1 chat); notices are fanned out by the
// caller, who knows the recipients.
func (e *Engine) applyOutcome(d *opDone, convID string, members []int64) {
	if d.err != nil {
		d.item.reply.send(e, nil, d.err)
		return
	}
	d.item.reply.send(e, d.out.data, nil)
	for _, p := range d.out.pushes {
		users := p.users
		if p.members {
			users = union(users, members)
		}
		e.push(users, p.event, p.data)
	}
	if len(d.out.changed) > 0 {
		e.changed(d.out.changed, convID)
	}
}

func (s convSpec) String() string { return fmt.Sprintf("%s(%d)", s.id, s.kind) }

// union merges id lists without duplicates.
func union(a, b []int64) []int64 {
	if len(a) == 0 {
		return b
	}
	seen := make(map[int64]bool, len(a)+len(b))
	out := make([]int64, 0, len(a)+len(b))
	for _, list := range [][]int64{a, b} {
		for _, id := range list {
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	return out
}

// failCurrent answers the message an actor was handling when it crashed:
// the clients hear "busy" instead of waiting forever, and their resend is
// safe (a committed message is found by its clientMsgID).
func (e *Engine) failCurrent(current any) {
	err := errBusy()
	switch m := current.(type) {
	case *sendRequest:
		m.item.reply.send(e, nil, err)
		for _, w := range m.item.waiters {
			w.send(e, nil, err)
		}
	case *opRequest:
		m.item.reply.send(e, nil, err)
	case *sendsDone:
		for _, it := range m.items {
			it.reply.send(e, nil, err)
			for _, w := range it.waiters {
				w.send(e, nil, err)
			}
		}
	case *opDone:
		m.item.reply.send(e, nil, err)
	}
}
