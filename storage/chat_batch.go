package storage

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5/pgconn"
)

// ChatAppend is what one conversation adds in a chat batch: its messages,
// in order, with everything but the seq filled in.
type ChatAppend struct {
	// Conversation names the row (ID, SessionType, GroupID, CreatedAt).
	Conversation ChatConversation
	// Create: the conversation row, and the users' rows in Members, may be
	// missing (the first send of a chat); they are inserted when absent.
	Create  bool
	Members []ChatUserConvRow
	// Messages to append; the batch gives them their seqs.
	Messages []ChatMessage
}

// ChatAppendResult is the outcome of one ChatAppend: Messages as stored,
// in the order given, Dup[i] when message i was already stored under its
// clientMsgID (Messages[i] is then the stored one, written nothing), or
// Err when this conversation could not be written (the others were).
type ChatAppendResult struct {
	Messages []ChatMessage
	Dup      []bool
	Err      error
}

// CommitChatBatch appends the messages of many conversations in one
// transaction with set-based statements, whatever the number of
// conversations: one dedupe read by (conversation, clientMsgID), one
// UPDATE ... RETURNING that moves every conversation's max seq and locks
// its row until commit (so seqs are gapless and unique per conversation
// also when several nodes write the same one: the second waits for the
// first's commit and continues from its max), one multi-row insert of the
// messages, and one UPDATE of the senders' read positions.
//
// On PostgreSQL the allocation, the insert and the read positions are one
// statement (appendPG), and a batch first runs without the dedupe read,
// in one round trip (runFastPG): resends are answered by the actors from
// memory, so a stored clientMsgID is rare, and when there is one the
// unique index refuses the insert and the batch runs again with the read.
//
// A concurrent writer storing the same clientMsgID first, a deadlock or a
// serialization failure reruns the batch (the rerun's dedupe read finds
// the stored message). Any other failure of a batch of several
// conversations reruns each conversation alone, so a conversation whose
// rows the store refuses fails alone (its result's Err) and the others
// commit. The returned error means nothing is known to be written (the
// context ended); then every message must be resent.
func CommitChatBatch(ctx context.Context, db DB, now int64, batch []ChatAppend) ([]ChatAppendResult, error) {
	return CommitChatBatchTo(ctx, db, now, batch, nil)
}

// ChatResults is room for CommitChatBatchTo's results that a caller who
// commits batch after batch reuses: made afresh, the results' arrays
// were ~0.27 KB of garbage per message of BenchmarkSendPath (a
// ChatMessage per message, as stored, read only for its seq or a
// duplicate's fields before the next batch). The zero value is ready.
type ChatResults struct {
	out  []ChatAppendResult
	msgs []ChatMessage
	dups []bool
}

// maxKeptResults bounds the messages whose arrays a ChatResults keeps
// across Reset (a rare huge batch's are dropped).
const maxKeptResults = 1024

// Reset clears the results of the last batch, so that r holds none of
// its strings; what CommitChatBatchTo returned from r is void afterwards.
func (r *ChatResults) Reset() {
	if cap(r.msgs) > maxKeptResults || cap(r.out) > maxKeptResults {
		*r = ChatResults{}
		return
	}
	clear(r.out[:cap(r.out)])
	clear(r.msgs[:cap(r.msgs)])
	r.out, r.msgs, r.dups = r.out[:0], r.msgs[:0], r.dups[:0]
}

// results is a zeroed array of n append results, in r when r is not nil.
func (r *ChatResults) results(n int) []ChatAppendResult {
	if r == nil {
		return make([]ChatAppendResult, n)
	}
	r.out = append(r.out[:0], make([]ChatAppendResult, n)...)
	return r.out
}

// messages is zeroed arrays of total messages and flags, in r when r is
// not nil.
func (r *ChatResults) messages(total int) ([]ChatMessage, []bool) {
	if r == nil {
		return make([]ChatMessage, total), make([]bool, total)
	}
	r.msgs = append(r.msgs[:0], make([]ChatMessage, total)...)
	r.dups = append(r.dups[:0], make([]bool, total)...)
	return r.msgs, r.dups
}

// CommitChatBatchTo is CommitChatBatch with the results' arrays in res
// (nil: made afresh). They are valid until res is used again or Reset:
// the caller copies what it keeps of them before.
func CommitChatBatchTo(ctx context.Context, db DB, now int64, batch []ChatAppend, res *ChatResults) ([]ChatAppendResult, error) {
	out, err := commitChatBatch(ctx, db, now, batch, res)
	if err == nil || len(batch) == 1 || ctx.Err() != nil {
		if err != nil && len(batch) == 1 && ctx.Err() == nil {
			return []ChatAppendResult{{Err: err}}, nil
		}
		return out, err
	}
	out = make([]ChatAppendResult, len(batch))
	for i := range batch {
		// Fresh arrays for each: out keeps every conversation's results.
		r, err := commitChatBatch(ctx, db, now, batch[i:i+1], nil)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			out[i].Err = err
			continue
		}
		out[i] = r[0]
	}
	return out, nil
}

func commitChatBatch(ctx context.Context, db DB, now int64, batch []ChatAppend, res *ChatResults) ([]ChatAppendResult, error) {
	pg, fast := db.(*PG)
	for attempt := 1; ; attempt++ {
		c := newChatBatch(batch, now, res)
		var err error
		if fast {
			err = c.runFastPG(ctx, pg.generic)
		} else {
			err = db.Tx(ctx, func(tx Tx) error { return c.run(ctx, tx) })
		}
		out := c.out
		c.release()
		if err == nil {
			return out, nil
		}
		if errors.Is(err, ErrConflict) {
			fast = false // a clientMsgID is stored already: read them first
		}
		if attempt < 5 && retryableChatError(err) && ctx.Err() == nil {
			continue
		}
		return nil, err
	}
}

func retryableChatError(err error) bool {
	if errors.Is(err, ErrConflict) || liteBusy(err) {
		return true
	}
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001")
}

type chatKey struct{ conv, client string }

// chatBatch is one attempt at a batch.
type chatBatch struct {
	in  []ChatAppend
	now int64
	out []ChatAppendResult
	res *ChatResults // where out and its arrays are, nil: made afresh

	fresh   []int             // per append: messages to write
	repeats map[msgRef]msgRef // a clientMsgID seen earlier in the batch -> its first
	rows    []ChatMessage
	// read positions to raise: user, conversation, seq
	readUser []int64
	readConv []string
	readSeq  []int64

	// The attempt's own maps and lists, kept with the batch in
	// chatBatchPool and cleared for the next (dedupe, plan, assign,
	// countsByID, the bases read back).
	first     map[chatKey]msgRef
	at        map[string]int
	next      map[string]int64
	counts    map[string]int64
	bases     map[string]int64
	readUp    map[readKey]int64
	readOrder []readKey
	ids       []string
	idCounts  []int64
}

// chatBatchPool keeps the scratch of finished attempts: made afresh, the
// maps and lists of a batch were ~0.6 KB of garbage per message of
// BenchmarkSendPath. Only out and the results' arrays (dedupe) leave an
// attempt (made afresh, or the caller's ChatResults); everything else is
// the attempt's alone and dropped by release.
var chatBatchPool = sync.Pool{New: func() any {
	return &chatBatch{first: map[chatKey]msgRef{}, at: map[string]int{}, next: map[string]int64{},
		counts: map[string]int64{}, bases: map[string]int64{}, readUp: map[readKey]int64{}}
}}

// maxPooledBatch bounds the messages of a batch whose scratch is pooled:
// a cleared map keeps its size, and clearing it costs that size.
const maxPooledBatch = 1024

func newChatBatch(in []ChatAppend, now int64, res *ChatResults) *chatBatch {
	c := chatBatchPool.Get().(*chatBatch)
	c.in, c.now, c.res, c.out = in, now, res, res.results(len(in))
	c.fresh = append(c.fresh[:0], make([]int, len(in))...)
	return c
}

// release gives the attempt's scratch back to the pool, holding no string
// or message of the batch; c is not used afterwards.
func (c *chatBatch) release() {
	if cap(c.rows) > maxPooledBatch || len(c.in) > maxPooledBatch {
		return
	}
	clear(c.first)
	clear(c.at)
	clear(c.next)
	clear(c.counts)
	clear(c.bases)
	clear(c.readUp)
	clear(c.rows[:cap(c.rows)])
	clear(c.readConv[:cap(c.readConv)])
	clear(c.readOrder[:cap(c.readOrder)])
	clear(c.ids[:cap(c.ids)])
	*c = chatBatch{first: c.first, at: c.at, next: c.next, counts: c.counts, bases: c.bases, readUp: c.readUp,
		fresh: c.fresh[:0], rows: c.rows[:0], readUser: c.readUser[:0], readConv: c.readConv[:0], readSeq: c.readSeq[:0],
		readOrder: c.readOrder[:0], ids: c.ids[:0], idCounts: c.idCounts[:0]}
	chatBatchPool.Put(c)
}

func (c *chatBatch) run(ctx context.Context, tx Tx) error {
	convs, clients := c.keys()
	stored, err := c.storedMessages(ctx, tx, convs, clients)
	if err != nil {
		return err
	}
	c.dedupe(stored)
	p := c.plan()
	if len(p.ids) == 0 {
		return nil
	}
	if pg, ok := PgxTx(tx); ok {
		return c.appendInTxPG(ctx, pg, p)
	}
	if err := c.createConversations(ctx, tx, p); err != nil {
		return err
	}
	maxSeqs, err := c.allocateSeqs(ctx, tx, p.ids, p.counts)
	if err != nil {
		return err
	}
	if err := c.assign(maxSeqs, p); err != nil {
		return err
	}
	return c.write(ctx, tx, p.members)
}

func (c *chatBatch) keys() (convs, clients []string) {
	n := 0
	for _, a := range c.in {
		n += len(a.Messages)
	}
	// Sized once: grown by append they were ~80 B a message (SQLite).
	convs, clients = make([]string, 0, n), make([]string, 0, n)
	for _, a := range c.in {
		for _, m := range a.Messages {
			convs = append(convs, a.Conversation.ID)
			clients = append(clients, m.ClientMsgID)
		}
	}
	return convs, clients
}

// msgRef is a message of the batch: append i, message j.
type msgRef struct{ i, j int }

// dedupe fills the results of messages already stored, marks the repeats
// of a clientMsgID within the batch (answered with the first's result)
// and counts the rest.
func (c *chatBatch) dedupe(stored map[chatKey]ChatMessage) {
	total := 0
	for _, a := range c.in {
		total += len(a.Messages)
	}
	// One array each for the results' messages and flags, sized once
	// (a batch of many small appends made two allocations per append).
	msgs, dups := c.res.messages(total)
	first := c.first
	c.repeats = nil // made at the first repeat, which is rare
	for i, a := range c.in {
		r := &c.out[i]
		n := len(a.Messages)
		r.Messages, r.Dup = msgs[:n:n], dups[:n:n]
		msgs, dups = msgs[n:], dups[n:]
		for j, m := range a.Messages {
			k := chatKey{a.Conversation.ID, m.ClientMsgID}
			if s, ok := stored[k]; ok {
				r.Messages[j], r.Dup[j] = s, true
				continue
			}
			if f, ok := first[k]; ok {
				r.Dup[j] = true
				if c.repeats == nil {
					c.repeats = map[msgRef]msgRef{}
				}
				c.repeats[msgRef{i, j}] = f
				continue
			}
			first[k] = msgRef{i, j}
			c.fresh[i]++
		}
	}
}

// batchPlan is what a batch writes per conversation, each conversation
// once even when several appends name it.
type batchPlan struct {
	ids     []string // conversations with fresh messages, in order of appearance
	counts  []int64  // their fresh messages
	newIDs  []string // of those, the ones that may be missing
	newKind []int64
	newGrp  []int64
	members []ChatUserConvRow
}

func (c *chatBatch) plan() batchPlan {
	p := batchPlan{ids: c.ids[:0], counts: c.idCounts[:0]}
	defer func() { c.ids, c.idCounts = p.ids, p.counts }()
	at := c.at
	for i, a := range c.in {
		if c.fresh[i] == 0 {
			continue
		}
		id := a.Conversation.ID
		k, ok := at[id]
		if !ok {
			k = len(p.ids)
			at[id] = k
			p.ids = append(p.ids, id)
			p.counts = append(p.counts, 0)
		}
		p.counts[k] += int64(c.fresh[i])
		if a.Create {
			if !ok {
				p.newIDs = append(p.newIDs, id)
				p.newKind = append(p.newKind, int64(a.Conversation.SessionType))
				p.newGrp = append(p.newGrp, a.Conversation.GroupID)
			}
			p.members = append(p.members, a.Members...)
		}
	}
	return p
}

type readKey struct {
	conv string
	user int64
}

// assign gives the fresh messages their seqs from each conversation's new
// max seq (in the order of the batch) and collects the rows and read
// positions to write.
func (c *chatBatch) assign(maxSeqs map[string]int64, p batchPlan) error {
	next := c.next
	for k, id := range p.ids {
		max, ok := maxSeqs[id]
		if !ok {
			return ErrNotFound // the conversation row vanished: fail the batch
		}
		next[id] = max - p.counts[k] + 1
	}
	fresh := 0
	for _, n := range c.fresh {
		fresh += n
	}
	c.rows = slices.Grow(c.rows[:0], fresh)
	readUp := c.readUp
	readOrder := slices.Grow(c.readOrder[:0], fresh)
	defer func() { c.readOrder = readOrder }()
	for i, a := range c.in {
		if c.fresh[i] == 0 {
			continue
		}
		r := &c.out[i]
		id := a.Conversation.ID
		for j, m := range a.Messages {
			if r.Dup[j] {
				continue
			}
			m.ConversationID, m.Seq = id, next[id]
			next[id]++
			r.Messages[j] = m
			c.rows = append(c.rows, m)
			k := readKey{id, m.SendID}
			if _, ok := readUp[k]; !ok {
				readOrder = append(readOrder, k)
			}
			readUp[k] = m.Seq
		}
	}
	for rep, f := range c.repeats {
		c.out[rep.i].Messages[rep.j] = c.out[f.i].Messages[f.j]
	}
	c.readUser = slices.Grow(c.readUser[:0], len(readOrder))
	c.readConv = slices.Grow(c.readConv[:0], len(readOrder))
	c.readSeq = slices.Grow(c.readSeq[:0], len(readOrder))
	for _, k := range readOrder {
		c.readUser = append(c.readUser, k.user)
		c.readConv = append(c.readConv, k.conv)
		c.readSeq = append(c.readSeq, readUp[k])
	}
	return nil
}

func (c *chatBatch) storedMessages(ctx context.Context, tx Tx, convs, clients []string) (map[chatKey]ChatMessage, error) {
	var rows Rows
	var err error
	if pg, ok := PgxTx(tx); ok {
		rows, err = pgQuery(ctx, pg, `SELECT `+prefixed("m.", chatMessageColumns)+` FROM chat_messages m
			JOIN unnest($1::text[], $2::text[]) AS k(conv, client)
			ON m.conversation_id = k.conv AND m.client_msg_id = k.client`, []any{convs, clients})
	} else {
		args := make([]any, 0, 2*len(convs))
		for i := range convs {
			args = append(args, convs[i], clients[i])
		}
		rows, err = tx.Query(ctx, `SELECT `+chatMessageColumns+` FROM chat_messages
			WHERE (conversation_id, client_msg_id) IN (VALUES `+valueRows(1, len(convs), 2)+`)`, args...)
	}
	list, err := CollectRows(rows, err, scanChatMessages)
	if err != nil {
		return nil, err
	}
	out := make(map[chatKey]ChatMessage, len(list))
	for _, m := range list {
		out[chatKey{m.ConversationID, m.ClientMsgID}] = m
	}
	return out, nil
}

// createConversations inserts the missing rows of conversations that may
// be new (SQLite).
func (c *chatBatch) createConversations(ctx context.Context, tx Tx, p batchPlan) error {
	if len(p.newIDs) == 0 {
		return nil
	}
	args := make([]any, 0, 3*len(p.newIDs)+1)
	args = append(args, c.now)
	for i := range p.newIDs {
		args = append(args, p.newIDs[i], p.newKind[i], p.newGrp[i])
	}
	_, err := tx.Exec(ctx, `INSERT INTO chat_conversations (id, session_type, group_id, max_seq, latest_time, created_at)
		SELECT column1, column2, column3, 0, 0, $1 FROM (VALUES `+valueRows(2, len(p.newIDs), 3)+`) AS v
		WHERE true ON CONFLICT (id) DO NOTHING`, args...)
	return err
}

// allocateSeqs moves each conversation's max seq by its count of fresh
// messages and returns the new max seqs (SQLite; on PostgreSQL appendPG
// does this within its statement). The UPDATE holds the database's write
// lock until commit.
func (c *chatBatch) allocateSeqs(ctx context.Context, tx Tx, ids []string, counts []int64) (map[string]int64, error) {
	args := make([]any, 0, 2*len(ids)+1)
	args = append(args, c.now)
	for i := range ids {
		args = append(args, ids[i], counts[i])
	}
	rows, err := tx.Query(ctx, `UPDATE chat_conversations SET max_seq = chat_conversations.max_seq + v.column2, latest_time = $1
		FROM (VALUES `+valueRows(2, len(ids), 2)+`) AS v
		WHERE chat_conversations.id = v.column1 RETURNING chat_conversations.id, chat_conversations.max_seq`, args...)
	if err != nil {
		return nil, err
	}
	return scanMaxSeqs(rows)
}

const createConversationsPG = `INSERT INTO chat_conversations (id, session_type, group_id, max_seq, latest_time, created_at)
	SELECT id, kind, grp, 0, 0, $4 FROM unnest($1::text[], $2::smallint[], $3::bigint[]) AS v(id, kind, grp)
	ORDER BY id ON CONFLICT (id) DO NOTHING`

// scanMaxSeqs reads (id, max_seq) rows and closes them.
func scanMaxSeqs(rows Rows) (map[string]int64, error) {
	type idSeq struct {
		id  string
		seq int64
	}
	list, err := CollectRows(rows, nil, func(r Rows) (idSeq, error) {
		var v idSeq
		return v, r.Scan(&v.id, &v.seq)
	})
	if err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(list))
	for _, v := range list {
		out[v.id] = v.seq
	}
	return out, nil
}

// write inserts the messages, the users' rows of new conversations and
// moves the senders' read positions (SQLite).
func (c *chatBatch) write(ctx context.Context, tx Tx, members []ChatUserConvRow) error {
	if err := InsertChatMessages(ctx, tx, c.rows); err != nil {
		return err
	}
	if len(members) > 0 {
		args := make([]any, 0, 6*len(members))
		for _, r := range members {
			args = append(args, r.UserID, r.ConversationID, r.PeerID, r.GroupID, r.StartSeq, r.CreatedAt)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO chat_user_conversations
			(user_id, conversation_id, peer_id, group_id, read_seq, min_seq, created_at)
			SELECT column1, column2, column3, column4, column5, column5, column6 FROM (VALUES `+valueRows(1, len(members), 6)+`) AS v
			WHERE true ON CONFLICT (user_id, conversation_id) DO NOTHING`, args...); err != nil {
			return err
		}
	}
	args := make([]any, 0, 3*len(c.readUser))
	for i := range c.readUser {
		args = append(args, c.readUser[i], c.readConv[i], c.readSeq[i])
	}
	_, err := tx.Exec(ctx, `UPDATE chat_user_conversations SET read_seq = v.column3
		FROM (VALUES `+valueRows(1, len(c.readUser), 3)+`) AS v
		WHERE chat_user_conversations.user_id = v.column1 AND chat_user_conversations.conversation_id = v.column2
		AND chat_user_conversations.read_seq < v.column3`, args...)
	return err
}

// valueRows writes n rows of width placeholders for a VALUES list, from
// $first: ($1, $2), ($3, $4) ...
func valueRows(first, n, width int) string {
	var b strings.Builder
	p := first
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('(')
		for j := 0; j < width; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(p))
			p++
		}
		b.WriteByte(')')
	}
	return b.String()
}
