package storage

import "context"

// The notices of a reaction and of an edit (actors/chat/reactions.go):
// they change another message and are never a conversation's latest.
const (
	ChatNoticeReaction = 2901
	ChatNoticeEdit     = 2902
)

// ChatReaction is one user's reaction with one emoji to one message.
type ChatReaction struct {
	Seq       int64
	Emoji     string
	UserID    int64
	CreatedAt int64
}

// ChatMessageMarks is what happened to the messages of a seq range after
// they were sent: reactions (oldest first, per message) and edit times.
type ChatMessageMarks struct {
	Reactions map[int64][]ChatReaction // seq -> reactions
	Edited    map[int64]int64          // seq -> time of the last edit (ms)
}

// AddChatReaction records userID's reaction; false when it was there.
func AddChatReaction(ctx context.Context, q Querier, convID string, r ChatReaction) (bool, error) {
	n, err := q.Exec(ctx, `INSERT INTO chat_message_reactions (conversation_id, seq, emoji, user_id, created_at)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`, convID, r.Seq, r.Emoji, r.UserID, r.CreatedAt)
	return n > 0, err
}

// RemoveChatReaction drops userID's reaction; false when there was none.
func RemoveChatReaction(ctx context.Context, q Querier, convID string, seq int64, emoji string, userID int64) (bool, error) {
	n, err := q.Exec(ctx, `DELETE FROM chat_message_reactions
		WHERE conversation_id = $1 AND seq = $2 AND emoji = $3 AND user_id = $4`, convID, seq, emoji, userID)
	return n > 0, err
}

// ChatReactionsOf lists the reactions to one message, oldest first.
func ChatReactionsOf(ctx context.Context, q Querier, convID string, seq int64) ([]ChatReaction, error) {
	rows, err := q.Query(ctx, `SELECT seq, emoji, user_id, created_at FROM chat_message_reactions
		WHERE conversation_id = $1 AND seq = $2 ORDER BY created_at, user_id, emoji`, convID, seq)
	return CollectRows(rows, err, func(r Rows) (ChatReaction, error) {
		var x ChatReaction
		err := r.Scan(&x.Seq, &x.Emoji, &x.UserID, &x.CreatedAt)
		return x, err
	})
}

// MarkChatMessageEdited records an edit of a message at now.
func MarkChatMessageEdited(ctx context.Context, q Querier, convID string, seq, now int64) error {
	_, err := q.Exec(ctx, `INSERT INTO chat_message_edits (conversation_id, seq, edited_at, edit_count)
		VALUES ($1, $2, $3, 1) ON CONFLICT (conversation_id, seq)
		DO UPDATE SET edited_at = excluded.edited_at, edit_count = chat_message_edits.edit_count + 1`, convID, seq, now)
	return err
}

// ChatMessageMarksBetween reads the reactions and edits of the messages
// of a conversation with seqs in [from, to], in one query (a history page
// is folded with them).
func ChatMessageMarksBetween(ctx context.Context, q Querier, convID string, from, to int64) (ChatMessageMarks, error) {
	marks := ChatMessageMarks{}
	if from > to {
		return marks, nil
	}
	// An edit comes as a row with no emoji (an emoji is never empty).
	rows, err := q.Query(ctx, `SELECT seq, emoji, user_id, created_at FROM chat_message_reactions
			WHERE conversation_id = $1 AND seq >= $2 AND seq <= $3
		UNION ALL
		SELECT seq, '', 0, edited_at FROM chat_message_edits
			WHERE conversation_id = $1 AND seq >= $2 AND seq <= $3
		ORDER BY 1, 4, 3, 2`, convID, from, to)
	list, err := CollectRows(rows, err, func(r Rows) (ChatReaction, error) {
		var x ChatReaction
		err := r.Scan(&x.Seq, &x.Emoji, &x.UserID, &x.CreatedAt)
		return x, err
	})
	if err != nil {
		return marks, err
	}
	for _, x := range list {
		if x.Emoji == "" {
			if marks.Edited == nil {
				marks.Edited = map[int64]int64{}
			}
			marks.Edited[x.Seq] = x.CreatedAt
			continue
		}
		if marks.Reactions == nil {
			marks.Reactions = map[int64][]ChatReaction{}
		}
		marks.Reactions[x.Seq] = append(marks.Reactions[x.Seq], x)
	}
	return marks, nil
}
