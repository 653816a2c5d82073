package storage

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
)

// How a group's unread @messages name a user (the SDK's groupAtType).
const (
	ChatAtMe      = 1 // someone mentioned the user
	ChatAtAll     = 2 // someone mentioned everyone ("@all")
	ChatAtAllAtMe = 3 // both
)

// ChatAtAllTag is the member id an "@all" mention carries in atUserList.
const ChatAtAllTag = "AtAllTag"

// chatAtTextType is the content type of an @message (the SDK's AtText).
const chatAtTextType = 106

// ChatMentionType is how the atUserList of an @message names userID:
// ChatAtMe, ChatAtAll, ChatAtAllAtMe, or 0.
func ChatMentionType(atUserList []string, userID int64) int {
	me := strconv.FormatInt(userID, 10)
	t := 0
	for _, id := range atUserList {
		switch id {
		case me:
			t |= ChatAtMe
		case ChatAtAllTag:
			t |= ChatAtAll
		}
	}
	return t
}

// ChatContentMentionType is ChatMentionType for an @message's stored
// content (the atTextElem JSON); 0 when it cannot be read.
func ChatContentMentionType(content string, userID int64) int {
	var elem struct {
		AtUserList []string `json:"atUserList"`
	}
	if json.Unmarshal([]byte(content), &elem) != nil {
		return 0
	}
	return ChatMentionType(elem.AtUserList, userID)
}

// fillChatAtTypes sets AtType on the group rows of userID that have unread
// messages (convID: the one conversation the rows are of, "" for all). It
// reads only unread @messages from others that the user can see, so the
// mark stays until the user reads past them, and a revoked @message
// (stored again as a notice) no longer counts.
func fillChatAtTypes(ctx context.Context, q Querier, userID int64, convID string, rows []ChatUserConversation) error {
	need := false
	for _, r := range rows {
		if r.GroupID != 0 && r.Unread > 0 {
			need = true
			break
		}
	}
	if !need {
		return nil
	}
	args := []any{userID, chatAtTextType, `%"` + strconv.FormatInt(userID, 10) + `"%`, `%"` + ChatAtAllTag + `"%`}
	sql := `SELECT m.conversation_id, m.content FROM chat_user_conversations uc
		JOIN chat_conversations c ON c.id = uc.conversation_id
		JOIN chat_messages m ON m.conversation_id = uc.conversation_id
		WHERE uc.user_id = $1 AND uc.group_id <> 0
		AND m.seq > uc.read_seq AND m.seq > uc.min_seq AND m.seq > uc.at_seq
		AND m.seq <= CASE WHEN uc.end_seq > 0 AND uc.end_seq < c.max_seq THEN uc.end_seq ELSE c.max_seq END
		AND m.content_type = $2 AND m.send_id <> uc.user_id
		AND (m.content LIKE $3 OR m.content LIKE $4)
		AND NOT EXISTS (SELECT 1 FROM chat_message_deletions d
			WHERE d.user_id = uc.user_id AND d.conversation_id = m.conversation_id AND d.seq = m.seq)`
	if convID != "" {
		args = append(args, convID)
		sql += ` AND uc.conversation_id = $5`
	}
	rs, err := q.Query(ctx, sql, args...)
	type hit struct{ conv, content string }
	hits, err := CollectRows(rs, err, func(r Rows) (hit, error) {
		var h hit
		return h, r.Scan(&h.conv, &h.content)
	})
	if err != nil {
		return err
	}
	at := map[string]int{}
	for _, h := range hits {
		at[h.conv] |= ChatContentMentionType(h.content, userID)
	}
	for i := range rows {
		rows[i].AtType = at[rows[i].ConversationID]
	}
	return nil
}

// ChatSearch asks for messages of every conversation of one user whose
// content holds a keyword, newest first.
type ChatSearch struct {
	UserID       int64
	Keyword      string // matched without regard to case
	ContentTypes []int
	Offset       int
	Limit        int
}

// SearchUserChatMessages returns candidate messages for s from the
// conversations of s.UserID only, each within what the user may see there
// (after their cleared range, up to where they left a group, not deleted
// for them), newest first. The match is on the content JSON (the keyword is
// JSON-escaped the same way), so callers check the decoded text and page
// on with Offset.
func SearchUserChatMessages(ctx context.Context, q Querier, s ChatSearch) ([]ChatMessage, error) {
	kw, _ := json.Marshal(strings.ToLower(s.Keyword))
	pattern := "%" + EscapeLike(string(kw[1:len(kw)-1])) + "%"
	args := []any{s.UserID, pattern}
	sql := `SELECT ` + chatMessageColumnsM + ` FROM chat_user_conversations uc
		JOIN chat_conversations c ON c.id = uc.conversation_id
		JOIN chat_messages m ON m.conversation_id = uc.conversation_id
		WHERE uc.user_id = $1 AND m.seq > uc.min_seq
		AND m.seq <= CASE WHEN uc.end_seq > 0 AND uc.end_seq < c.max_seq THEN uc.end_seq ELSE c.max_seq END
		AND LOWER(m.content) LIKE $2 ESCAPE '\'
		AND NOT EXISTS (SELECT 1 FROM chat_message_deletions d
			WHERE d.user_id = uc.user_id AND d.conversation_id = m.conversation_id AND d.seq = m.seq)`
	if len(s.ContentTypes) > 0 {
		ph := make([]string, len(s.ContentTypes))
		for i, ct := range s.ContentTypes {
			args = append(args, ct)
			ph[i] = "$" + strconv.Itoa(len(args))
		}
		sql += ` AND m.content_type IN (` + strings.Join(ph, ",") + `)`
	}
	args = append(args, s.Limit, s.Offset)
	sql += ` ORDER BY m.send_time DESC, m.conversation_id, m.seq DESC LIMIT $` + strconv.Itoa(len(args)-1) + ` OFFSET $` + strconv.Itoa(len(args))
	rows, err := q.Query(ctx, sql, args...)
	return CollectRows(rows, err, scanChatMessages)
}

// chatMessageColumnsM is chatMessageColumns qualified by the alias m, for
// joins whose other tables share column names.
var chatMessageColumnsM = func() string {
	cols := strings.Split(chatMessageColumns, ",")
	for i, c := range cols {
		cols[i] = "m." + strings.TrimSpace(c)
	}
	return strings.Join(cols, ", ")
}()
