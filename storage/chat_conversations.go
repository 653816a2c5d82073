package storage

import (
	"context"
)

// ChatUserConversation is one user's view of one conversation: the shared
// counters joined with the user's own read position, range, pin and draft.
type ChatUserConversation struct {
	UserID         int64
	ConversationID string
	SessionType    int
	PeerID         int64
	GroupID        int64
	MaxSeq         int64 // the conversation's
	LatestTime     int64 // the conversation's
	ReadSeq        int64
	MinSeq         int64
	EndSeq         int64
	HideSeq        int64
	IsPinned       bool
	DraftText      string
	DraftTime      int64
	RecvOpt        int
	CreatedAt      int64
	Unread         int64 // messages from others, not notices, after ReadSeq
	// AtType says how the unread @messages of a group name this user:
	// ChatAtMe, ChatAtAll or both (ChatAtAllAtMe); 0 when none do.
	AtType int
	// PrivateChat and BurnDuration are the conversation's private chat
	// setting (chat_burn.go), shared by both users of a 1:1 chat.
	PrivateChat  bool
	BurnDuration int64
}

// VisibleMax is the last seq this user may see.
func (c ChatUserConversation) VisibleMax() int64 {
	if c.EndSeq > 0 && c.EndSeq < c.MaxSeq {
		return c.EndSeq
	}
	return c.MaxSeq
}

// Visible says whether the conversation shows in the user's list.
func (c ChatUserConversation) Visible() bool {
	return c.HideSeq < 0 || c.VisibleMax() > c.HideSeq
}

// CountsInTotal says whether the conversation's unread messages count in
// the user's unread total (the tab badge): visible and not set to do not
// disturb. A muted conversation keeps its own unread count in the list.
func (c ChatUserConversation) CountsInTotal() bool {
	return c.Visible() && c.Unread > 0 && c.RecvOpt == 0
}

// ChatNoticeFrom is the first content type of notices (friend and group
// notifications, revokes); notices never count as unread.
const ChatNoticeFrom = 1000

const chatUserConvSelect = `SELECT uc.user_id, uc.conversation_id, c.session_type, uc.peer_id, uc.group_id,
	c.max_seq, c.latest_time, uc.read_seq, uc.min_seq, uc.end_seq, uc.hide_seq, uc.is_pinned,
	uc.draft_text, uc.draft_time, uc.recv_opt, uc.created_at, c.private_chat, c.burn_duration,
	(SELECT COUNT(*) FROM chat_messages m WHERE m.conversation_id = uc.conversation_id
		AND m.seq > uc.read_seq
		AND m.seq <= CASE WHEN uc.end_seq > 0 AND uc.end_seq < c.max_seq THEN uc.end_seq ELSE c.max_seq END
		AND m.send_id <> uc.user_id AND m.content_type < 1000)
	FROM chat_user_conversations uc JOIN chat_conversations c ON c.id = uc.conversation_id`

func scanChatUserConv(r Rows) (ChatUserConversation, error) {
	var c ChatUserConversation
	var pinned, private int
	err := r.Scan(&c.UserID, &c.ConversationID, &c.SessionType, &c.PeerID, &c.GroupID,
		&c.MaxSeq, &c.LatestTime, &c.ReadSeq, &c.MinSeq, &c.EndSeq, &c.HideSeq, &pinned,
		&c.DraftText, &c.DraftTime, &c.RecvOpt, &c.CreatedAt, &private, &c.BurnDuration, &c.Unread)
	c.IsPinned = pinned == 1
	c.PrivateChat = private == 1
	return c, err
}

// ChatUserConversations lists every conversation row of userID (hidden
// ones included; callers filter with Visible).
func ChatUserConversations(ctx context.Context, q Querier, userID int64) ([]ChatUserConversation, error) {
	rows, err := q.Query(ctx, chatUserConvSelect+` WHERE uc.user_id = $1`, userID)
	list, err := CollectRows(rows, err, scanChatUserConv)
	if err != nil {
		return nil, err
	}
	return list, fillChatAtTypes(ctx, q, userID, "", list)
}

// ChatUserConversationByID loads one row; ErrNotFound when the user has no
// such conversation.
func ChatUserConversationByID(ctx context.Context, q Querier, userID int64, convID string) (ChatUserConversation, error) {
	rows, err := q.Query(ctx, chatUserConvSelect+` WHERE uc.user_id = $1 AND uc.conversation_id = $2`, userID, convID)
	c, err := firstOf(CollectRows(rows, err, scanChatUserConv))
	if err != nil {
		return c, err
	}
	one := []ChatUserConversation{c}
	err = fillChatAtTypes(ctx, q, userID, convID, one)
	return one[0], err
}

// ChatUserConvRow is what EnsureChatUserConversations writes for a user
// entering a conversation.
type ChatUserConvRow struct {
	UserID         int64
	ConversationID string
	PeerID         int64
	GroupID        int64
	StartSeq       int64 // read_seq and min_seq: what the user starts from
	CreatedAt      int64
}

// EnsureChatUserConversations creates missing rows and leaves existing ones
// alone.
func EnsureChatUserConversations(ctx context.Context, q Querier, rows ...ChatUserConvRow) error {
	for _, r := range rows {
		if _, err := q.Exec(ctx, `INSERT INTO chat_user_conversations
			(user_id, conversation_id, peer_id, group_id, read_seq, min_seq, created_at)
			VALUES ($1, $2, $3, $4, $5, $5, $6) ON CONFLICT (user_id, conversation_id) DO NOTHING`,
			r.UserID, r.ConversationID, r.PeerID, r.GroupID, r.StartSeq, r.CreatedAt); err != nil {
			return err
		}
	}
	return nil
}

// EnterChatGroupConversation gives a (re)joining member a fresh view that
// starts after startSeq: no history from before, nothing hidden, no end.
func EnterChatGroupConversation(ctx context.Context, q Querier, userID int64, convID string, groupID, startSeq, now int64) error {
	n, err := q.Exec(ctx, `UPDATE chat_user_conversations SET read_seq = $1, min_seq = $1, end_seq = 0, hide_seq = -1
		WHERE user_id = $2 AND conversation_id = $3`, startSeq, userID, convID)
	if err != nil || n > 0 {
		return err
	}
	return EnsureChatUserConversations(ctx, q, ChatUserConvRow{UserID: userID, ConversationID: convID, GroupID: groupID, StartSeq: startSeq, CreatedAt: now})
}

// EndChatGroupConversation stops a leaving member's view at endSeq (their
// own leave notice stays visible).
func EndChatGroupConversation(ctx context.Context, q Querier, userIDs []int64, convID string, endSeq int64) error {
	if len(userIDs) == 0 {
		return nil
	}
	args := chatInt64Args([]any{endSeq, convID}, userIDs)
	_, err := q.Exec(ctx, `UPDATE chat_user_conversations SET end_seq = $1
		WHERE conversation_id = $2 AND user_id IN (`+chatPlaceholders(3, len(userIDs))+`)`, args...)
	return err
}

// RaiseChatReadSeq moves a user's read position forward to seq (never
// back): sending a message marks the conversation read up to it.
func RaiseChatReadSeq(ctx context.Context, q Querier, userID int64, convID string, seq int64) error {
	_, err := q.Exec(ctx, `UPDATE chat_user_conversations SET read_seq = $1
		WHERE user_id = $2 AND conversation_id = $3 AND read_seq < $1`, seq, userID, convID)
	return err
}

// MarkChatConversationRead sets the read position to the visible end.
func MarkChatConversationRead(ctx context.Context, q Querier, userID int64, convID string) error {
	return affected(q.Exec(ctx, `UPDATE chat_user_conversations SET read_seq =
		(SELECT CASE WHEN chat_user_conversations.end_seq > 0 AND chat_user_conversations.end_seq < c.max_seq
			THEN chat_user_conversations.end_seq ELSE c.max_seq END
			FROM chat_conversations c WHERE c.id = chat_user_conversations.conversation_id)
		WHERE user_id = $1 AND conversation_id = $2`, userID, convID))
}

// SetChatConversationDraft stores a draft (and shows a hidden
// conversation again).
func SetChatConversationDraft(ctx context.Context, q Querier, userID int64, convID, text string, at int64) error {
	return updateUserConv(ctx, q, `draft_text = $3, draft_time = $4, hide_seq = -1`, userID, convID, text, at)
}

// SetChatConversationPinned pins or unpins.
func SetChatConversationPinned(ctx context.Context, q Querier, userID int64, convID string, pinned bool) error {
	v := 0
	if pinned {
		v = 1
	}
	return updateUserConv(ctx, q, `is_pinned = $3, hide_seq = -1`, userID, convID, v)
}

// SetChatConversationRecvOpt stores the receive option (0 normal, 1 do not
// receive, 2 receive without notification).
func SetChatConversationRecvOpt(ctx context.Context, q Querier, userID int64, convID string, opt int) error {
	return updateUserConv(ctx, q, `recv_opt = $3`, userID, convID, opt)
}

// ShowChatConversation un-hides a conversation.
func ShowChatConversation(ctx context.Context, q Querier, userID int64, convID string) error {
	return updateUserConv(ctx, q, `hide_seq = -1`, userID, convID)
}

// HideChatConversation hides a conversation until a newer message arrives.
func HideChatConversation(ctx context.Context, q Querier, userID int64, convID string) error {
	return updateUserConv(ctx, q, `hide_seq = (SELECT max_seq FROM chat_conversations c WHERE c.id = chat_user_conversations.conversation_id),
		is_pinned = 0, draft_text = '', draft_time = 0`, userID, convID)
}

// ClearChatConversation drops the history of a conversation for one user
// (everything up to the current max seq) and marks it read. With hide it is
// also removed from the list until a newer message arrives (delete
// conversation); otherwise it stays, empty (clear history).
func ClearChatConversation(ctx context.Context, q Querier, userID int64, convID string, hide bool) error {
	set := `min_seq = (SELECT max_seq FROM chat_conversations c WHERE c.id = chat_user_conversations.conversation_id),
		read_seq = (SELECT max_seq FROM chat_conversations c WHERE c.id = chat_user_conversations.conversation_id)`
	if hide {
		set += `, hide_seq = (SELECT max_seq FROM chat_conversations c WHERE c.id = chat_user_conversations.conversation_id),
		is_pinned = 0, draft_text = '', draft_time = 0`
	}
	return updateUserConv(ctx, q, set, userID, convID)
}

// ClearAllChatConversations clears the history of every conversation of a
// user.
func ClearAllChatConversations(ctx context.Context, q Querier, userID int64) error {
	_, err := q.Exec(ctx, `UPDATE chat_user_conversations SET
		min_seq = (SELECT max_seq FROM chat_conversations c WHERE c.id = chat_user_conversations.conversation_id),
		read_seq = (SELECT max_seq FROM chat_conversations c WHERE c.id = chat_user_conversations.conversation_id)
		WHERE user_id = $1`, userID)
	return err
}

// HideAllChatConversations hides every conversation of a user.
func HideAllChatConversations(ctx context.Context, q Querier, userID int64) error {
	_, err := q.Exec(ctx, `UPDATE chat_user_conversations SET
		hide_seq = (SELECT max_seq FROM chat_conversations c WHERE c.id = chat_user_conversations.conversation_id),
		is_pinned = 0, draft_text = '', draft_time = 0
		WHERE user_id = $1`, userID)
	return err
}

func updateUserConv(ctx context.Context, q Querier, set string, userID int64, convID string, args ...any) error {
	all := append([]any{userID, convID}, args...)
	return affected(q.Exec(ctx, `UPDATE chat_user_conversations SET `+set+` WHERE user_id = $1 AND conversation_id = $2`, all...))
}
