package storage

import (
	"context"
	"strconv"
	"strings"
)

// Session types as stored (and as the v3 protocol carries them).
const (
	SessionSingle = 1
	SessionGroup  = 3
)

// ChatConversation is the shared row of one conversation.
type ChatConversation struct {
	ID          string
	SessionType int
	GroupID     int64
	MaxSeq      int64
	LatestTime  int64
	CreatedAt   int64
}

// ChatMessage is one stored message. Content is the JSON of its typed
// element.
type ChatMessage struct {
	ConversationID   string
	Seq              int64
	ServerMsgID      string
	ClientMsgID      string
	SendID           int64
	RecvID           int64
	GroupID          int64
	SessionType      int
	MsgFrom          int
	ContentType      int
	Content          string
	SenderNickname   string
	SenderFaceURL    string
	SenderPlatformID int
	CreateTime       int64
	SendTime         int64
	Ex               string
}

const chatMessageColumns = `conversation_id, seq, server_msg_id, client_msg_id, send_id, recv_id,
	group_id, session_type, msg_from, content_type, content, sender_nickname, sender_face_url,
	sender_platform_id, create_time, send_time, ex`

const chatMessageColumnCount = 17

func scanChatMessage(r Row) (ChatMessage, error) {
	var m ChatMessage
	err := r.Scan(&m.ConversationID, &m.Seq, &m.ServerMsgID, &m.ClientMsgID, &m.SendID, &m.RecvID,
		&m.GroupID, &m.SessionType, &m.MsgFrom, &m.ContentType, &m.Content, &m.SenderNickname,
		&m.SenderFaceURL, &m.SenderPlatformID, &m.CreateTime, &m.SendTime, &m.Ex)
	return m, err
}

func scanChatMessages(r Rows) (ChatMessage, error) { return scanChatMessage(r) }

// LockChatConversation creates the conversation row when it is missing and
// locks it for the rest of tx, returning its current max seq. Every append
// to a conversation goes through this lock, so seqs are gapless and ordered
// even when several nodes accept sends for the same conversation.
func LockChatConversation(ctx context.Context, tx Tx, c ChatConversation) (int64, error) {
	if _, err := tx.Exec(ctx, `INSERT INTO chat_conversations (id, session_type, group_id, max_seq, latest_time, created_at)
		VALUES ($1, $2, $3, 0, 0, $4) ON CONFLICT (id) DO NOTHING`,
		c.ID, c.SessionType, c.GroupID, c.CreatedAt); err != nil {
		return 0, err
	}
	var maxSeq int64
	err := tx.QueryRow(ctx, `SELECT max_seq FROM chat_conversations WHERE id = $1`+tx.Dialect().ForUpdate(), c.ID).Scan(&maxSeq)
	return maxSeq, err
}

// ChatConversationByID loads one conversation row.
func ChatConversationByID(ctx context.Context, q Querier, id string) (ChatConversation, error) {
	var c ChatConversation
	err := q.QueryRow(ctx, `SELECT id, session_type, group_id, max_seq, latest_time, created_at
		FROM chat_conversations WHERE id = $1`, id).
		Scan(&c.ID, &c.SessionType, &c.GroupID, &c.MaxSeq, &c.LatestTime, &c.CreatedAt)
	return c, err
}

// SetChatConversationSeq records the new max seq and the latest send time
// after an append (the row must be locked by LockChatConversation).
func SetChatConversationSeq(ctx context.Context, tx Tx, id string, maxSeq, latestTime int64) error {
	_, err := tx.Exec(ctx, `UPDATE chat_conversations SET max_seq = $1, latest_time = $2 WHERE id = $3`,
		maxSeq, latestTime, id)
	return err
}

// ChatMessagesByClientIDs returns the stored messages of conversation
// convID among clientIDs (the dedupe check of a batch).
func ChatMessagesByClientIDs(ctx context.Context, q Querier, convID string, clientIDs []string) ([]ChatMessage, error) {
	if len(clientIDs) == 0 {
		return nil, nil
	}
	args := make([]any, 0, len(clientIDs)+1)
	args = append(args, convID)
	for _, id := range clientIDs {
		args = append(args, id)
	}
	rows, err := q.Query(ctx, `SELECT `+chatMessageColumns+` FROM chat_messages
		WHERE conversation_id = $1 AND client_msg_id IN (`+chatPlaceholders(2, len(clientIDs))+`)`, args...)
	return CollectRows(rows, err, scanChatMessages)
}

// ChatMessageByClientID loads one message of a conversation.
func ChatMessageByClientID(ctx context.Context, q Querier, convID, clientID string) (ChatMessage, error) {
	return scanChatMessage(q.QueryRow(ctx, `SELECT `+chatMessageColumns+` FROM chat_messages
		WHERE conversation_id = $1 AND client_msg_id = $2`, convID, clientID))
}

// ChatMessageBySeq loads one message of a conversation.
func ChatMessageBySeq(ctx context.Context, q Querier, convID string, seq int64) (ChatMessage, error) {
	return scanChatMessage(q.QueryRow(ctx, `SELECT `+chatMessageColumns+` FROM chat_messages
		WHERE conversation_id = $1 AND seq = $2`, convID, seq))
}

// InsertChatMessages writes a batch of messages in one statement (their
// seqs already assigned under the conversation lock).
func InsertChatMessages(ctx context.Context, tx Tx, msgs []ChatMessage) error {
	if len(msgs) == 0 {
		return nil
	}
	args := make([]any, 0, len(msgs)*chatMessageColumnCount)
	var b strings.Builder
	b.WriteString(`INSERT INTO chat_messages (` + chatMessageColumns + `) VALUES `)
	for i, m := range msgs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('(')
		b.WriteString(chatPlaceholders(len(args)+1, chatMessageColumnCount))
		b.WriteByte(')')
		args = append(args, m.ConversationID, m.Seq, m.ServerMsgID, m.ClientMsgID, m.SendID, m.RecvID,
			m.GroupID, m.SessionType, m.MsgFrom, m.ContentType, m.Content, m.SenderNickname,
			m.SenderFaceURL, m.SenderPlatformID, m.CreateTime, m.SendTime, m.Ex)
	}
	_, err := tx.Exec(ctx, b.String(), args...)
	return err
}

// ReplaceChatMessageContent rewrites a message's type and content (revoke
// turns it into a 2101 notice carrying who revoked it).
func ReplaceChatMessageContent(ctx context.Context, q Querier, convID string, seq int64, contentType int, content string) error {
	return affected(q.Exec(ctx, `UPDATE chat_messages SET content_type = $1, content = $2
		WHERE conversation_id = $3 AND seq = $4`, contentType, content, convID, seq))
}

// ChatPage asks for messages of one conversation as seen by one user:
// seqs strictly between After and Before (0 = unbounded), skipping the ones
// the user deleted. Newest picks the newest Limit of the range (paging back
// in history); otherwise the oldest Limit (catching up after a seq).
type ChatPage struct {
	UserID         int64
	ConversationID string
	After, Before  int64
	Limit          int
	Newest         bool
}

// ChatMessagesPage returns the page in ascending seq order, and whether
// more messages exist beyond it in the paging direction.
func ChatMessagesPage(ctx context.Context, q Querier, p ChatPage) ([]ChatMessage, bool, error) {
	before := p.Before
	if before <= 0 {
		before = 1<<62 - 1
	}
	order := "ASC"
	if p.Newest {
		order = "DESC"
	}
	rows, err := q.Query(ctx, `SELECT `+chatMessageColumns+` FROM chat_messages m
		WHERE m.conversation_id = $1 AND m.seq > $2 AND m.seq < $3
		AND NOT EXISTS (SELECT 1 FROM chat_message_deletions d
			WHERE d.user_id = $4 AND d.conversation_id = m.conversation_id AND d.seq = m.seq)
		ORDER BY m.seq `+order+` LIMIT $5`, p.ConversationID, p.After, before, p.UserID, p.Limit+1)
	msgs, err := CollectRows(rows, err, scanChatMessages)
	if err != nil {
		return nil, false, err
	}
	more := len(msgs) > p.Limit
	if more {
		msgs = msgs[:p.Limit]
	}
	if p.Newest {
		for i, j := 0, len(msgs)-1; i < j; i, j = i+1, j-1 {
			msgs[i], msgs[j] = msgs[j], msgs[i]
		}
	}
	return msgs, more, nil
}

// LatestVisibleChatMessage is the newest message of a conversation in
// (after, upTo] that userID has not deleted, reactions and edits aside
// (they change another message); ErrNotFound when none.
func LatestVisibleChatMessage(ctx context.Context, q Querier, userID int64, convID string, after, upTo int64) (ChatMessage, error) {
	return scanChatMessage(q.QueryRow(ctx, `SELECT `+chatMessageColumns+` FROM chat_messages m
		WHERE m.conversation_id = $1 AND m.seq > $2 AND m.seq <= $3
		AND m.content_type NOT IN ($5, $6)
		AND NOT EXISTS (SELECT 1 FROM chat_message_deletions d
			WHERE d.user_id = $4 AND d.conversation_id = m.conversation_id AND d.seq = m.seq)
		ORDER BY m.seq DESC LIMIT 1`, convID, after, upTo, userID, ChatNoticeReaction, ChatNoticeEdit))
}

// DeleteChatMessageForUser hides one message from one user.
func DeleteChatMessageForUser(ctx context.Context, q Querier, userID int64, convID string, seq int64) error {
	_, err := q.Exec(ctx, `INSERT INTO chat_message_deletions (user_id, conversation_id, seq)
		VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, userID, convID, seq)
	return err
}

// SearchChatMessages finds candidate messages of a conversation, visible
// to userID in (after, upTo], whose content JSON contains every keyword,
// newest first. The match is on the JSON, so callers check the decoded
// text.
func SearchChatMessages(ctx context.Context, q Querier, userID int64, convID string, after, upTo int64, contentTypes []int, keywords []string, limit int) ([]ChatMessage, error) {
	args := []any{convID, after, upTo, userID}
	sql := `SELECT ` + chatMessageColumns + ` FROM chat_messages m
		WHERE m.conversation_id = $1 AND m.seq > $2 AND m.seq <= $3
		AND NOT EXISTS (SELECT 1 FROM chat_message_deletions d
			WHERE d.user_id = $4 AND d.conversation_id = m.conversation_id AND d.seq = m.seq)`
	if len(contentTypes) > 0 {
		ph := make([]string, len(contentTypes))
		for i, ct := range contentTypes {
			args = append(args, ct)
			ph[i] = "$" + strconv.Itoa(len(args))
		}
		sql += ` AND m.content_type IN (` + strings.Join(ph, ",") + `)`
	}
	for _, kw := range keywords {
		args = append(args, "%"+EscapeLike(kw)+"%")
		sql += ` AND m.content LIKE $` + strconv.Itoa(len(args)) + ` ESCAPE '\'`
	}
	args = append(args, limit)
	sql += ` ORDER BY m.seq DESC LIMIT $` + strconv.Itoa(len(args))
	rows, err := q.Query(ctx, sql, args...)
	return CollectRows(rows, err, scanChatMessages)
}

// EscapeLike escapes the LIKE wildcards of s (the escape character is \).
func EscapeLike(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s)
}

// chatPlaceholders returns "$from,$from+1,..." for n parameters.
func chatPlaceholders(from, n int) string {
	b := make([]byte, 0, n*4)
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '$')
		b = strconv.AppendInt(b, int64(from+i), 10)
	}
	return string(b)
}

// chatInt64Args appends ids to prefix as query arguments.
func chatInt64Args(prefix []any, ids []int64) []any {
	args := make([]any, 0, len(prefix)+len(ids))
	args = append(args, prefix...)
	for _, id := range ids {
		args = append(args, id)
	}
	return args
}
