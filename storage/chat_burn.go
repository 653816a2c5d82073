package storage

import (
	"context"
	"errors"
	"strings"
)

// Settings of the SDK's last calls: the user's do not disturb for
// everything, and private chat (burn after reading) of 1:1 conversations.
// Migration 0345_chat_burn.sql describes the tables.

// ChatGlobalRecvOpt is a user's do not disturb for everything (0 normal,
// 1 receive nothing, 2 receive without notification).
func ChatGlobalRecvOpt(ctx context.Context, q Querier, userID int64) (int, error) {
	var opt int
	err := q.QueryRow(ctx, `SELECT chat_recv_opt FROM users WHERE id = $1`, userID).Scan(&opt)
	return opt, err
}

// SetChatGlobalRecvOpt stores a user's do not disturb for everything.
func SetChatGlobalRecvOpt(ctx context.Context, q Querier, userID int64, opt int) error {
	return affected(q.Exec(ctx, `UPDATE users SET chat_recv_opt = $1 WHERE id = $2`, opt, userID))
}

// ResetChatAtType clears a group conversation's @mark for one user without
// reading it: the @messages sent so far no longer count (the SDK's
// ResetConversationGroupAtType).
func ResetChatAtType(ctx context.Context, q Querier, userID int64, convID string) error {
	return affected(q.Exec(ctx, `UPDATE chat_user_conversations SET at_seq =
		(SELECT max_seq FROM chat_conversations c WHERE c.id = chat_user_conversations.conversation_id)
		WHERE user_id = $1 AND conversation_id = $2`, userID, convID))
}

// ChatPrivateSetting is the private chat setting of a conversation.
type ChatPrivateSetting struct {
	Private      bool
	BurnDuration int64 // seconds a message lives once read
}

// ChatPrivateSettingOf loads a conversation's private chat setting;
// ErrNotFound when the conversation has no row yet (no message, never
// opened): private chat off, the default duration.
func ChatPrivateSettingOf(ctx context.Context, q Querier, convID string) (ChatPrivateSetting, error) {
	var s ChatPrivateSetting
	var on int
	err := q.QueryRow(ctx, `SELECT private_chat, burn_duration FROM chat_conversations WHERE id = $1`, convID).Scan(&on, &s.BurnDuration)
	s.Private = on == 1
	return s, err
}

// SetChatPrivateChat turns private chat of a 1:1 conversation on or off,
// under the conversation's row lock (the one a send takes for its seq), so
// the span it opens or closes starts or ends exactly between two sends.
// changed is false when it already was so.
func SetChatPrivateChat(ctx context.Context, tx Tx, c ChatConversation, on bool) (changed bool, err error) {
	maxSeq, err := LockChatConversation(ctx, tx, c)
	if err != nil {
		return false, err
	}
	cur, err := ChatPrivateSettingOf(ctx, tx, c.ID)
	if err != nil || cur.Private == on {
		return false, err
	}
	v := 0
	if on {
		v = 1
		if _, err := tx.Exec(ctx, `INSERT INTO chat_private_spans (conversation_id, from_seq, to_seq) VALUES ($1, $2, 0)
			ON CONFLICT (conversation_id, from_seq) DO UPDATE SET to_seq = 0`, c.ID, maxSeq); err != nil {
			return false, err
		}
	} else if _, err := tx.Exec(ctx, `UPDATE chat_private_spans SET to_seq = $1 WHERE conversation_id = $2 AND to_seq = 0`, maxSeq, c.ID); err != nil {
		return false, err
	}
	_, err = tx.Exec(ctx, `UPDATE chat_conversations SET private_chat = $1 WHERE id = $2`, v, c.ID)
	return err == nil, err
}

// SetChatBurnDuration sets how many seconds a private message lives once
// read (for reads from now on).
func SetChatBurnDuration(ctx context.Context, tx Tx, c ChatConversation, seconds int64) error {
	if _, err := LockChatConversation(ctx, tx, c); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `UPDATE chat_conversations SET burn_duration = $1 WHERE id = $2`, seconds, c.ID)
	return err
}

// ChatBurn is a burn due: the messages of SenderID in (FromSeq, ToSeq] of
// a conversation go at BurnAt (unix ms).
type ChatBurn struct {
	ID             int64
	ConversationID string
	SenderID       int64
	FromSeq        int64
	ToSeq          int64
	BurnAt         int64
}

type chatSpan struct{ from, to int64 }

// ChatHadPrivateChat says whether a conversation ever had private chat
// on: a read of one that never had needs no transaction.
func ChatHadPrivateChat(ctx context.Context, q Querier, convID string) (bool, error) {
	n, err := count(ctx, q, `SELECT COUNT(*) FROM chat_private_spans WHERE conversation_id = $1`, convID)
	return n > 0, err
}

// ScheduleChatBurns turns a read of readerID up to readSeq into burns of
// the peer's private messages it covers: what lies past the reader's last
// scheduled seq and inside a span sent while private chat was on burns at
// now + the conversation's burn duration. A conversation that never had
// private chat costs one indexed read that finds no span.
func ScheduleChatBurns(ctx context.Context, tx Tx, convID string, readerID, peerID, readSeq, now int64) ([]ChatBurn, error) {
	rows, err := tx.Query(ctx, `SELECT from_seq, to_seq FROM chat_private_spans WHERE conversation_id = $1 ORDER BY from_seq`, convID)
	spans, err := CollectRows(rows, err, func(r Rows) (chatSpan, error) {
		var s chatSpan
		return s, r.Scan(&s.from, &s.to)
	})
	if err != nil || len(spans) == 0 {
		return nil, err
	}
	var done int64
	err = tx.QueryRow(ctx, `SELECT seq FROM chat_burn_reads WHERE conversation_id = $1 AND reader_id = $2`, convID, readerID).Scan(&done)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, err
	}
	if readSeq <= done {
		return nil, nil
	}
	set, err := ChatPrivateSettingOf(ctx, tx, convID)
	if err != nil {
		return nil, err
	}
	var out []ChatBurn
	for _, s := range spans {
		to := s.to
		if to == 0 || to > readSeq {
			to = readSeq
		}
		from := max(s.from, done)
		if to <= from {
			continue
		}
		b := ChatBurn{ID: NewID(), ConversationID: convID, SenderID: peerID, FromSeq: from, ToSeq: to, BurnAt: now + set.BurnDuration*1000}
		if _, err := tx.Exec(ctx, `INSERT INTO chat_burns (id, conversation_id, sender_id, from_seq, to_seq, burn_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, b.ID, b.ConversationID, b.SenderID, b.FromSeq, b.ToSeq, b.BurnAt); err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	_, err = tx.Exec(ctx, `INSERT INTO chat_burn_reads (conversation_id, reader_id, seq) VALUES ($1, $2, $3)
		ON CONFLICT (conversation_id, reader_id) DO UPDATE SET seq = $3`, convID, readerID, readSeq)
	return out, err
}

// DueChatBurns lists at most limit burns due at now, the oldest first.
func DueChatBurns(ctx context.Context, q Querier, now int64, limit int) ([]ChatBurn, error) {
	rows, err := q.Query(ctx, `SELECT id, conversation_id, sender_id, from_seq, to_seq, burn_at FROM chat_burns
		WHERE burn_at <= $1 ORDER BY burn_at, id LIMIT $2`, now, limit)
	return CollectRows(rows, err, func(r Rows) (ChatBurn, error) {
		var b ChatBurn
		return b, r.Scan(&b.ID, &b.ConversationID, &b.SenderID, &b.FromSeq, &b.ToSeq, &b.BurnAt)
	})
}

// BurnedChatMessage names a message a burn deleted.
type BurnedChatMessage struct {
	Seq         int64
	ClientMsgID string
}

// BurnChatMessages carries out one burn: the sender's messages in its range
// (notices excepted: they belong to nobody) are deleted from the store,
// with the per-user deletions that named them, and the burn row goes. ok
// is false when the row was gone already (another node's sweep took it):
// the caller then tells nobody.
func BurnChatMessages(ctx context.Context, tx Tx, b ChatBurn) (burned []BurnedChatMessage, ok bool, err error) {
	n, err := tx.Exec(ctx, `DELETE FROM chat_burns WHERE id = $1`, b.ID)
	if err != nil || n == 0 {
		return nil, false, err
	}
	const where = ` WHERE conversation_id = $1 AND seq > $2 AND seq <= $3 AND send_id = $4 AND content_type < 1000`
	rows, err := tx.Query(ctx, `SELECT seq, client_msg_id FROM chat_messages`+where+` ORDER BY seq`, b.ConversationID, b.FromSeq, b.ToSeq, b.SenderID)
	burned, err = CollectRows(rows, err, func(r Rows) (BurnedChatMessage, error) {
		var m BurnedChatMessage
		return m, r.Scan(&m.Seq, &m.ClientMsgID)
	})
	if err != nil || len(burned) == 0 {
		return burned, true, err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM chat_message_deletions WHERE conversation_id = $1 AND seq > $2 AND seq <= $3
		AND seq IN (SELECT seq FROM chat_messages`+where+`)`, b.ConversationID, b.FromSeq, b.ToSeq, b.SenderID); err != nil {
		return nil, false, err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM chat_messages`+where, b.ConversationID, b.FromSeq, b.ToSeq, b.SenderID); err != nil {
		return nil, false, err
	}
	if err := burnMarks(ctx, tx, b.ConversationID, burned); err != nil {
		return nil, false, err
	}
	return burned, true, nil
}

// burnMarks deletes what reactions and edits kept of burned messages: their
// folded state, and the reaction and edit notices that name them (an edit
// notice carries the new text, which must go with the message). A notice
// names its message by client message id, which is unique, so finding it
// in the notice's text needs no knowledge of the notice's layout.
func burnMarks(ctx context.Context, tx Tx, convID string, burned []BurnedChatMessage) error {
	seqs := make([]int64, len(burned))
	for i, m := range burned {
		seqs[i] = m.Seq
	}
	for _, table := range []string{"chat_message_reactions", "chat_message_edits"} {
		if _, err := tx.Exec(ctx, `DELETE FROM `+table+` WHERE conversation_id = $1 AND seq IN (`+placeholders(len(seqs), 2)+`)`,
			append([]any{convID}, anySlice(seqs)...)...); err != nil {
			return err
		}
	}
	rows, err := tx.Query(ctx, `SELECT seq, content FROM chat_messages WHERE conversation_id = $1 AND seq > $2 AND content_type IN ($3, $4)`,
		convID, seqs[0], ChatNoticeReaction, ChatNoticeEdit)
	type notice struct {
		seq     int64
		content string
	}
	notices, err := CollectRows(rows, err, func(r Rows) (notice, error) {
		var n notice
		return n, r.Scan(&n.seq, &n.content)
	})
	if err != nil {
		return err
	}
	var naming []int64
	for _, n := range notices {
		for _, m := range burned {
			if m.ClientMsgID != "" && strings.Contains(n.content, m.ClientMsgID) {
				naming = append(naming, n.seq)
				break
			}
		}
	}
	if len(naming) == 0 {
		return nil
	}
	args := append([]any{convID}, anySlice(naming)...)
	if _, err := tx.Exec(ctx, `DELETE FROM chat_message_deletions WHERE conversation_id = $1 AND seq IN (`+placeholders(len(naming), 2)+`)`, args...); err != nil {
		return err
	}
	_, err = tx.Exec(ctx, `DELETE FROM chat_messages WHERE conversation_id = $1 AND seq IN (`+placeholders(len(naming), 2)+`)`, args...)
	return err
}
