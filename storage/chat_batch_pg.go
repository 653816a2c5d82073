package storage

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The PostgreSQL side of the chat batch binds whole columns as arrays
// (unnest), so each statement has one text whatever the batch's size —
// prepared once per connection — and a batch goes to the server as one
// pipelined round trip.

// messageArraysPG binds the 17 columns of chat_messages, in their order,
// from $1.
const messageArraysPG = `$1::text[], $2::bigint[], $3::text[], $4::text[], $5::bigint[], $6::bigint[],
	$7::bigint[], $8::smallint[], $9::smallint[], $10::integer[], $11::text[], $12::text[], $13::text[],
	$14::smallint[], $15::bigint[], $16::bigint[], $17::text[]`

// messageArrays is the batch's rows as one array per column of
// chat_messages (messageArraysPG's order).
func (c *chatBatch) messageArrays() []any {
	n := len(c.rows)
	conv, server, client, content, nick, face, ex := make([]string, n), make([]string, n), make([]string, n),
		make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	seq, send, recv, group, created, sent := make([]int64, n), make([]int64, n), make([]int64, n),
		make([]int64, n), make([]int64, n), make([]int64, n)
	kind, from, ctype, platform := make([]int32, n), make([]int32, n), make([]int32, n), make([]int32, n)
	for i, m := range c.rows {
		conv[i], seq[i], server[i], client[i] = m.ConversationID, m.Seq, m.ServerMsgID, m.ClientMsgID
		send[i], recv[i], group[i], kind[i] = m.SendID, m.RecvID, m.GroupID, int32(m.SessionType)
		from[i], ctype[i], content[i], nick[i] = int32(m.MsgFrom), int32(m.ContentType), m.Content, m.SenderNickname
		face[i], platform[i], created[i], sent[i], ex[i] = m.SenderFaceURL, int32(m.SenderPlatformID), m.CreateTime, m.SendTime, m.Ex
	}
	return []any{conv, seq, server, client, send, recv, group, kind, from, ctype, content, nick, face, platform, created, sent, ex}
}

// queueMembersPG queues the users' rows of new conversations.
func queueMembersPG(batch *pgx.Batch, members []ChatUserConvRow) {
	if len(members) == 0 {
		return
	}
	m := len(members)
	users, peers, groups, starts, at := make([]int64, m), make([]int64, m), make([]int64, m), make([]int64, m), make([]int64, m)
	convs := make([]string, m)
	for i, r := range members {
		users[i], convs[i], peers[i], groups[i], starts[i], at[i] = r.UserID, r.ConversationID, r.PeerID, r.GroupID, r.StartSeq, r.CreatedAt
	}
	batch.Queue(`INSERT INTO chat_user_conversations
		(user_id, conversation_id, peer_id, group_id, read_seq, min_seq, created_at)
		SELECT u, c, p, g, s, s, t FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[])
			AS v(u, c, p, g, s, t)
		ORDER BY u, c ON CONFLICT (user_id, conversation_id) DO NOTHING`, users, convs, peers, groups, starts, at)
}

// appendPG is the whole of a batch in one statement: the seq allocation
// (rows locked until commit), the messages and the senders' read
// positions. The messages carry seqs relative to their conversation's
// first fresh message (1, 2 ...); the statement adds each conversation's
// base (its max seq before the batch) and returns the bases. A message
// whose conversation has no row gets no base, so a NULL seq, which the
// table refuses: the transaction fails rather than lose it.
//
// Each sender's read position moves to their last message of the batch
// in its conversation, read from the rows the insert returns. The
// statement runs with its one generic plan (PG.generic), made for arrays
// of unknown length, so every join in it must stay cheap however many
// rows the batch has: alloc is joined once, hashed, to the messages, and
// the read positions are found by their primary key from the grouped
// rows. Joining alloc to a second array of read positions instead made
// the generic plan a nested loop over alloc for every read position: 12
// of a 128-message batch's 25 ms.
const appendPG = `WITH alloc AS (
		UPDATE chat_conversations AS c SET max_seq = c.max_seq + v.n, latest_time = $18
		FROM unnest($19::text[], $20::bigint[]) AS v(id, n)
		WHERE c.id = v.id RETURNING c.id, c.max_seq - v.n AS base
	), stored AS (
		INSERT INTO chat_messages (` + chatMessageColumns + `)
		SELECT m.conv, a.base + m.seq, m.server, m.client, m.send, m.recv, m.grp, m.kind, m.src, m.ctype,
			m.content, m.nick, m.face, m.platform, m.created, m.sent, m.ex
		FROM unnest(` + messageArraysPG + `)
			AS m(conv, seq, server, client, send, recv, grp, kind, src, ctype, content, nick, face, platform, created, sent, ex)
		LEFT JOIN alloc a ON a.id = m.conv
		RETURNING conversation_id, send_id, seq
	), reads AS (
		UPDATE chat_user_conversations AS u SET read_seq = s.seq
		FROM (SELECT conversation_id, send_id, max(seq) AS seq FROM stored GROUP BY conversation_id, send_id) AS s
		WHERE u.user_id = s.send_id AND u.conversation_id = s.conversation_id AND u.read_seq < s.seq
	)
	SELECT id, base FROM alloc`

// runFastPG is the batch in one round trip, for when no message is
// expected to be stored already (the actors answer resends they remember;
// the store sees a resend only after a restart, or from another node):
// the new conversations' rows and their users' rows, then appendPG,
// pipelined with one Sync at the end. Statements pipelined before one Sync
// run in one implicit transaction, committed at the Sync (with the flush,
// as any commit) or rolled back as a whole when one fails, so the batch
// needs no BEGIN and COMMIT of its own: two statements fewer for
// PostgreSQL to run per transaction, which at W2's rates carries a
// handful of messages. A clientMsgID that was stored after all makes the
// insert fail on the unique index (ErrConflict): nothing is written and
// the batch runs again with its dedupe read (run). A batch without new
// conversations, the usual one, is sent with parameters encoded here
// (runWirePG, chat_batch_wire.go); the rest through pgx.
func (c *chatBatch) runFastPG(ctx context.Context, pool *pgxpool.Pool) error {
	c.dedupe(nil)
	p := c.plan()
	if len(p.ids) == 0 {
		return nil
	}
	// Seqs relative to each conversation's base: as if every conversation
	// had held no message before.
	if err := c.assign(c.countsByID(p), p); err != nil {
		return err
	}
	if err := c.runWirePG(ctx, pool, p); !errors.Is(err, errWireUnfit) {
		return err
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return pgErr(err)
	}
	defer conn.Release()
	var b pgx.Batch
	c.queueAppendPG(&b, p)
	br := conn.SendBatch(ctx, &b)
	bases, err := readBasesPG(br, len(b.QueuedQueries)-1)
	if cerr := br.Close(); err == nil {
		err = cerr // the implicit commit's failure comes with the Sync
	}
	if err != nil {
		return pgErr(err)
	}
	c.rebase(bases)
	return nil
}

// appendInTxPG writes a batch whose dedupe read is done inside tx: its
// statements in one round trip, then the seqs made absolute.
func (c *chatBatch) appendInTxPG(ctx context.Context, tx pgx.Tx, p batchPlan) error {
	if err := c.assign(c.countsByID(p), p); err != nil {
		return err
	}
	var b pgx.Batch
	c.queueAppendPG(&b, p)
	br := tx.SendBatch(ctx, &b)
	bases, err := readBasesPG(br, len(b.QueuedQueries)-1)
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return pgErr(err)
	}
	c.rebase(bases)
	return nil
}

// queueAppendPG queues a planned batch whose seqs are relative (assign
// with countsByID): the new conversations' rows, their users' rows and
// appendPG, which comes last.
func (c *chatBatch) queueAppendPG(b *pgx.Batch, p batchPlan) {
	if len(p.newIDs) > 0 {
		b.Queue(createConversationsPG, p.newIDs, p.newKind, p.newGrp, c.now)
	}
	queueMembersPG(b, p.members)
	args := append(c.messageArrays(), c.now, p.ids, p.counts)
	b.Queue(appendPG, args...)
}

// readBasesPG reads the results of a batch's statements up to appendPG:
// execs statements without rows, then appendPG's bases.
func readBasesPG(br pgx.BatchResults, execs int) (map[string]int64, error) {
	for range execs {
		if _, err := br.Exec(); err != nil {
			return nil, err
		}
	}
	rows, err := br.Query()
	if err != nil {
		return nil, err
	}
	return scanMaxSeqs(pgRows{rows})
}

// rebase makes the relative seqs of the results absolute by adding each
// conversation's base: the messages written and their repeats within the
// batch, not the ones found stored, whose seqs are absolute already.
func (c *chatBatch) rebase(bases map[string]int64) {
	for i, a := range c.in {
		base := bases[a.Conversation.ID]
		r := &c.out[i]
		for j := range r.Messages {
			if _, repeat := c.repeats[msgRef{i, j}]; r.Dup[j] && !repeat {
				continue
			}
			r.Messages[j].Seq += base
		}
	}
}

// countsByID is p's fresh messages per conversation, in the batch's
// own map.
func (c *chatBatch) countsByID(p batchPlan) map[string]int64 {
	m := c.counts
	for k, id := range p.ids {
		m[id] = p.counts[k]
	}
	return m
}
