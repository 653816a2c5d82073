package storage

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The PostgreSQL side of the chat batch binds whole columns as arrays
// (unnest), so each statement has one text whatever the batch's size —
// prepared once per connection — and the three writes go to the server
// as one pipelined round trip.

func (c *chatBatch) writePG(ctx context.Context, tx pgx.Tx, members []ChatUserConvRow) error {
	var batch pgx.Batch
	c.queueWritesPG(&batch, members)
	return pgErr(tx.SendBatch(ctx, &batch).Close())
}

// queueWritesPG queues the insert of the messages, the users' rows of new
// conversations and the move of the senders' read positions.
func (c *chatBatch) queueWritesPG(batch *pgx.Batch, members []ChatUserConvRow) {
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
	batch.Queue(`INSERT INTO chat_messages (`+chatMessageColumns+`)
		SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::bigint[], $6::bigint[],
			$7::bigint[], $8::smallint[], $9::smallint[], $10::integer[], $11::text[], $12::text[], $13::text[],
			$14::smallint[], $15::bigint[], $16::bigint[], $17::text[])`,
		conv, seq, server, client, send, recv, group, kind, from, ctype, content, nick, face, platform, created, sent, ex)
	if len(members) > 0 {
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
	batch.Queue(`UPDATE chat_user_conversations AS u SET read_seq = v.seq
		FROM unnest($1::bigint[], $2::text[], $3::bigint[]) AS v(user_id, conv, seq)
		WHERE u.user_id = v.user_id AND u.conversation_id = v.conv AND u.read_seq < v.seq`,
		c.readUser, c.readConv, c.readSeq)
}

// runFastPG is the batch in two round trips, for when no message is
// expected to be stored already (the actors answer resends they remember;
// the store sees a resend only after a restart, or from another node):
// BEGIN, the new conversations' rows and the seq allocation in one; the
// writes and COMMIT in the other. A clientMsgID that was stored after all
// makes the insert fail on the unique index (ErrConflict): the
// transaction is rolled back and the batch runs again with its dedupe
// read (run).
func (c *chatBatch) runFastPG(ctx context.Context, pool *pgxpool.Pool) error {
	c.dedupe(nil)
	p := c.plan()
	if len(p.ids) == 0 {
		return nil
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return pgErr(err)
	}
	// A connection left inside a transaction (an error below) is closed by
	// the pool on release rather than reused.
	defer conn.Release()
	var first pgx.Batch
	first.Queue(`BEGIN`)
	if len(p.newIDs) > 0 {
		first.Queue(createConversationsPG, p.newIDs, p.newKind, p.newGrp, c.now)
	}
	first.Queue(allocateSeqsPG, p.ids, p.counts, c.now)
	br := conn.SendBatch(ctx, &first)
	maxSeqs, err := func() (map[string]int64, error) {
		defer br.Close()
		for range len(first.QueuedQueries) - 1 {
			if _, err := br.Exec(); err != nil {
				return nil, err
			}
		}
		rows, err := br.Query()
		if err != nil {
			return nil, err
		}
		return scanMaxSeqs(pgRows{rows})
	}()
	if err == nil {
		err = br.Close()
	}
	if err != nil {
		rollbackPG(conn.Conn())
		return pgErr(err)
	}
	if err := c.assign(maxSeqs, p); err != nil {
		rollbackPG(conn.Conn())
		return err
	}
	var second pgx.Batch
	c.queueWritesPG(&second, p.members)
	second.Queue(`COMMIT`)
	if err := conn.SendBatch(ctx, &second).Close(); err != nil {
		rollbackPG(conn.Conn())
		return pgErr(err)
	}
	return nil
}

func rollbackPG(conn *pgx.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, _ = conn.Exec(ctx, `ROLLBACK`)
}
