package chat

import (
	"context"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"kj/httpapi"
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
	pending  map[string]*sendItem // clientMsgID -> queued or committing send
	recent   map[string]*Message  // clientMsgID -> committed message
	order    []string             // recent, oldest first
}

const recentMessages = 256

func newPipeline() pipeline {
	return pipeline{pending: map[string]*sendItem{}, recent: map[string]*Message{}}
}

// addSend queues a send unless its clientMsgID was committed lately (the
// stored message is the answer) or is already pending (it shares that
// answer): a resend never makes a duplicate.
func (p *pipeline) addSend(e *Engine, it *sendItem) {
	id := it.msg.ClientMsgID
	if m, ok := p.recent[id]; ok {
		it.reply.send(e, m, nil)
		return
	}
	if first, ok := p.pending[id]; ok {
		first.waiters = append(first.waiters, it.reply)
		return
	}
	p.pending[id] = it
	p.queue = append(p.queue, it)
}

func (p *pipeline) remember(m *Message) {
	if _, ok := p.recent[m.ClientMsgID]; ok {
		return
	}
	p.recent[m.ClientMsgID] = m
	p.order = append(p.order, m.ClientMsgID)
	if len(p.order) > recentMessages {
		delete(p.recent, p.order[0])
		p.order = p.order[1:]
	}
}

// take removes the next batch: one op alone, or consecutive sends.
func (p *pipeline) take(max int) []any {
	if op, ok := p.queue[0].(*opItem); ok {
		p.queue = p.queue[1:]
		return []any{op}
	}
	n := 0
	for n < len(p.queue) && n < max {
		if _, ok := p.queue[n].(*sendItem); !ok {
			break
		}
		n++
	}
	batch := append([]any(nil), p.queue[:n]...)
	p.queue = p.queue[n:]
	return batch
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

// startFlush commits the next batch in a goroutine of its own (one per
// batch, never per message); the result comes back as a message.
func (e *Engine) startFlush(actx actor.Context, owner any, p *pipeline, spec convSpec) {
	if p.inflight || len(p.queue) == 0 {
		return
	}
	if !e.begin() {
		p.failQueued(e, errBusy()) // the node is closing; clients resend elsewhere
		return
	}
	batch := p.take(e.cfg.MaxBatch)
	p.inflight = true
	self := actx.Self()
	go func() {
		defer e.wg.Done()
		var res any
		if op, ok := batch[0].(*opItem); ok {
			res = e.runOp(owner, spec, op)
		} else {
			items := make([]*sendItem, len(batch))
			for i, b := range batch {
				items[i] = b.(*sendItem)
			}
			res = e.commitSends(owner, spec, items)
		}
		e.root.Send(self, res)
	}()
}

// commitSends writes a batch of sends in one transaction: lock the
// conversation, drop resends already stored, check the rules, assign seqs,
// insert, and move each sender's read position to its own message.
func (e *Engine) commitSends(owner any, spec convSpec, items []*sendItem) (done *sendsDone) {
	done = &sendsDone{owner: owner, items: items, results: make([]sendResult, len(items))}
	defer func() {
		if p := recover(); p != nil {
			e.log.Error("commit panic", "conv", spec.id, "panic", p)
			for i := range done.results {
				done.results[i] = sendResult{err: errBusy()}
			}
		}
	}()
	ctx, cancel := e.ctx()
	defer cancel()
	now := e.now()
	start := time.Now()
	var stored int
	err := e.db.Tx(ctx, func(tx storage.Tx) error {
		for i := range done.results {
			done.results[i] = sendResult{}
		}
		maxSeq, err := storage.LockChatConversation(ctx, tx, spec.conversation(now))
		if err != nil {
			return err
		}
		ids := make([]string, len(items))
		for i, it := range items {
			ids[i] = it.msg.ClientMsgID
		}
		dups, err := storage.ChatMessagesByClientIDs(ctx, tx, spec.id, ids)
		if err != nil {
			return err
		}
		dup := make(map[string]storage.ChatMessage, len(dups))
		for _, d := range dups {
			dup[d.ClientMsgID] = d
		}
		verdicts, err := e.checkRules(ctx, tx, spec, items, now)
		if err != nil {
			return err
		}
		rows := make([]storage.ChatMessage, 0, len(items))
		readUp := map[int64]int64{}
		for i, it := range items {
			if d, ok := dup[it.msg.ClientMsgID]; ok {
				done.results[i] = sendResult{msg: fromStored(d), dup: true}
				continue
			}
			if verdicts[i] != nil {
				done.results[i] = sendResult{err: verdicts[i]}
				continue
			}
			m := *it.msg
			maxSeq++
			m.Seq, m.ServerMsgID, m.SendTime, m.Status = maxSeq, storage.FormatID(storage.NewID()), now, statusSent
			row := toStored(&m, spec.id)
			rows = append(rows, row)
			dup[m.ClientMsgID] = row
			readUp[row.SendID] = m.Seq
			done.results[i] = sendResult{msg: &m}
		}
		if len(rows) == 0 {
			return nil
		}
		if spec.kind == sessionSingle && !spec.rowsReady {
			if err := storage.EnsureChatUserConversations(ctx, tx,
				storage.ChatUserConvRow{UserID: spec.a, ConversationID: spec.id, PeerID: spec.b, CreatedAt: now},
				storage.ChatUserConvRow{UserID: spec.b, ConversationID: spec.id, PeerID: spec.a, CreatedAt: now}); err != nil {
				return err
			}
		}
		if err := storage.InsertChatMessages(ctx, tx, rows); err != nil {
			return err
		}
		if err := storage.SetChatConversationSeq(ctx, tx, spec.id, maxSeq, now); err != nil {
			return err
		}
		for user, seq := range readUp {
			if err := storage.RaiseChatReadSeq(ctx, tx, user, spec.id, seq); err != nil {
				return err
			}
		}
		stored = len(rows)
		return nil
	})
	commitSeconds.Observe(time.Since(start).Seconds())
	commitBatch.Observe(float64(len(items)))
	if err != nil {
		e.log.Error("commit messages", "conv", spec.id, "n", len(items), "err", err)
		for i := range done.results {
			done.results[i] = sendResult{err: errBusy()}
		}
		return done
	}
	messagesStored.Add(float64(stored))
	return done
}

// checkRules judges each send inside the transaction, after the
// conversation lock, so it sees every committed change (a kick, a mute, a
// blacklist entry) made on any node before it.
func (e *Engine) checkRules(ctx context.Context, tx storage.Tx, spec convSpec, items []*sendItem, now int64) ([]error, error) {
	verdicts := make([]error, len(items))
	if spec.kind == sessionSingle {
		if !spec.rowsReady {
			users, err := storage.UsersByIDs(ctx, tx, []int64{spec.a, spec.b})
			if err != nil {
				return nil, err
			}
			if len(users) != 2 {
				for i := range verdicts {
					verdicts[i] = httpapi.ChatError(httpapi.CodeChatUserNotFound)
				}
				return verdicts, nil
			}
		}
		blocked, err := storage.ChatBlocksBetween(ctx, tx, spec.a, spec.b)
		if err != nil {
			return nil, err
		}
		for i, it := range items {
			from, _ := parseUserID(it.msg.SendID)
			peer := spec.a
			if from == spec.a {
				peer = spec.b
			}
			if blocked[peer] {
				verdicts[i] = httpapi.ChatError(httpapi.CodeChatBlacklisted)
			}
		}
		return verdicts, nil
	}
	g, err := storage.ChatGroupByID(ctx, tx, spec.groupID)
	if err != nil {
		return nil, storeErr(err, httpapi.CodeChatGroupNotFound)
	}
	senders := make([]int64, 0, len(items))
	for _, it := range items {
		id, _ := parseUserID(it.msg.SendID)
		senders = append(senders, id)
	}
	members, err := storage.ChatGroupMembersByIDs(ctx, tx, spec.groupID, senders)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]storage.ChatGroupMember, len(members))
	for _, m := range members {
		byID[m.UserID] = m
	}
	for i, id := range senders {
		m, ok := byID[id]
		switch {
		case g.Status == storage.GroupDismissed:
			verdicts[i] = httpapi.ChatError(httpapi.CodeChatGroupDismissed)
		case !ok:
			verdicts[i] = httpapi.ChatError(httpapi.CodeChatNotMember)
		case g.GroupType == storage.GroupTypeChannel && m.RoleLevel < storage.RoleAdmin:
			verdicts[i] = httpapi.ChatError(httpapi.CodeChatChannelReadOnly)
		case g.Status == storage.GroupMuted && m.RoleLevel < storage.RoleAdmin:
			verdicts[i] = httpapi.ChatError(httpapi.CodeChatGroupMuted)
		case m.MutedUntil > now:
			verdicts[i] = httpapi.ChatError(httpapi.CodeChatMuted)
		}
	}
	return verdicts, nil
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
func (e *Engine) applySends(p *pipeline, d *sendsDone) ([]*Message, []int64) {
	var fresh []*Message
	var skip []int64
	for i, it := range d.items {
		r := d.results[i]
		if cur, ok := p.pending[it.msg.ClientMsgID]; ok && cur == it {
			delete(p.pending, it.msg.ClientMsgID)
		}
		if r.err == nil && r.msg != nil {
			p.remember(r.msg)
			if !r.dup {
				fresh = append(fresh, r.msg)
				skip = append(skip, it.skip)
				sendSeconds.Observe(time.Since(it.started).Seconds())
			}
		}
		it.reply.send(e, r.msg, r.err)
		for _, w := range it.waiters {
			w.send(e, r.msg, r.err)
		}
	}
	return fresh, skip
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
