package storage

import (
	"context"
	"slices"
	"strconv"
)

// ChatReader is a group member's read position in the group's
// conversation, with when they joined (a member who joined after a
// message never saw it, whatever their read position says).
type ChatReader struct {
	UserID   int64
	ReadSeq  int64
	JoinTime int64
}

// ChatGroupReaders lists the current members of a group with their read
// position in its conversation (0 for a member without a row yet).
func ChatGroupReaders(ctx context.Context, q Querier, groupID int64, convID string) ([]ChatReader, error) {
	rows, err := q.Query(ctx, `SELECT m.user_id, COALESCE(uc.read_seq, 0), m.join_time
		FROM chat_group_members m
		LEFT JOIN chat_user_conversations uc ON uc.user_id = m.user_id AND uc.conversation_id = $2
		WHERE m.group_id = $1`, groupID, convID)
	return CollectRows(rows, err, func(r Rows) (ChatReader, error) {
		var c ChatReader
		err := r.Scan(&c.UserID, &c.ReadSeq, &c.JoinTime)
		return c, err
	})
}

// ChatReadSeqOf is one user's read position in a conversation, 0 when
// they have no row for it.
func ChatReadSeqOf(ctx context.Context, q Querier, userID int64, convID string) (int64, error) {
	rows, err := q.Query(ctx, `SELECT read_seq FROM chat_user_conversations
		WHERE user_id = $1 AND conversation_id = $2`, userID, convID)
	seqs, err := CollectRows(rows, err, func(r Rows) (int64, error) {
		var s int64
		return s, r.Scan(&s)
	})
	if err != nil || len(seqs) == 0 {
		return 0, err
	}
	return seqs[0], nil
}

// ChatMessageRef names a stored user message (not a notice).
type ChatMessageRef struct {
	Seq         int64
	ClientMsgID string
	SendID      int64
	SendTime    int64
}

// ChatUserMessageRefs lists the newest limit user messages (msg_from 100)
// of a conversation in seqs (after, upTo], ascending.
func ChatUserMessageRefs(ctx context.Context, q Querier, convID string, after, upTo int64, limit int) ([]ChatMessageRef, error) {
	rows, err := q.Query(ctx, `SELECT seq, client_msg_id, send_id, send_time FROM chat_messages
		WHERE conversation_id = $1 AND seq > $2 AND seq <= $3 AND msg_from = 100
		ORDER BY seq DESC LIMIT $4`, convID, after, upTo, limit)
	refs, err := CollectRows(rows, err, func(r Rows) (ChatMessageRef, error) {
		var m ChatMessageRef
		err := r.Scan(&m.Seq, &m.ClientMsgID, &m.SendID, &m.SendTime)
		return m, err
	})
	for i, j := 0, len(refs)-1; i < j; i, j = i+1, j-1 {
		refs[i], refs[j] = refs[j], refs[i]
	}
	return refs, err
}

// UserPresence is what a user lets others know of their presence.
type UserPresence struct {
	LastSeen int64 // unix ms their last chat socket closed, 0 never
	Hidden   bool
}

// UserPresences loads the presence settings of users; users that do not
// exist are missing from the map.
func UserPresences(ctx context.Context, q Querier, ids []int64) (map[int64]UserPresence, error) {
	out := make(map[int64]UserPresence, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := q.Query(ctx, `SELECT id, last_seen_at, presence_hidden FROM users
		WHERE id IN (`+chatPlaceholders(1, len(ids))+`)`, chatInt64Args(nil, ids)...)
	type row struct {
		id int64
		p  UserPresence
	}
	list, err := CollectRows(rows, err, func(r Rows) (row, error) {
		var x row
		var hidden int
		err := r.Scan(&x.id, &x.p.LastSeen, &hidden)
		x.p.Hidden = hidden != 0
		return x, err
	})
	for _, x := range list {
		out[x.id] = x.p
	}
	return out, err
}

// SetUserLastSeen records when a user's last chat socket closed.
func SetUserLastSeen(ctx context.Context, q Querier, userID, at int64) error {
	_, err := q.Exec(ctx, `UPDATE users SET last_seen_at = $1 WHERE id = $2 AND last_seen_at < $1`, at, userID)
	return err
}

// SetUserPresenceHidden hides (or shows again) a user's presence.
func SetUserPresenceHidden(ctx context.Context, q Querier, userID int64, hidden bool) error {
	v := 0
	if hidden {
		v = 1
	}
	return affected(q.Exec(ctx, `UPDATE users SET presence_hidden = $1 WHERE id = $2`, v, userID))
}

// ChatPresenceAllowed returns which of ids are related to userID closely
// enough to see each other's presence; the relation is symmetric, so the
// same answer says whom userID may watch and who may watch userID. Two
// users are related when they are friends, are both members of a group
// (not a channel, whose members are an audience; not a dismissed group),
// or have stored at least one user message in their one-to-one chat,
// either way (a conversation row alone, as GetOneConversation opens it, is
// not a relation). A block either way ends the relation.
func ChatPresenceAllowed(ctx context.Context, q Querier, userID int64, ids []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	var others []int64
	seen := map[int64]bool{userID: true}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			others = append(others, id)
		}
	}
	if len(others) == 0 {
		return out, nil
	}
	args := chatInt64Args([]any{userID}, others)
	in := chatPlaceholders(2, len(others))
	rows, err := q.Query(ctx, `SELECT owner_id, blocked_id FROM chat_blacklist
		WHERE (owner_id = $1 AND blocked_id IN (`+in+`)) OR (blocked_id = $1 AND owner_id IN (`+in+`))`, args...)
	blocks, err := CollectRows(rows, err, func(r Rows) ([2]int64, error) {
		var b [2]int64
		return b, r.Scan(&b[0], &b[1])
	})
	if err != nil {
		return nil, err
	}
	blocked := map[int64]bool{}
	for _, b := range blocks {
		blocked[b[0]], blocked[b[1]] = true, true
	}
	others = slices.DeleteFunc(others, func(id int64) bool { return blocked[id] })
	if len(others) == 0 {
		return out, nil
	}
	in = chatPlaceholders(2, len(others))
	rows, err = q.Query(ctx, `SELECT friend_id FROM chat_friends WHERE owner_id = $1 AND friend_id IN (`+in+`)
		UNION
		SELECT m2.user_id FROM chat_group_members m1
			JOIN chat_groups g ON g.id = m1.group_id
			JOIN chat_group_members m2 ON m2.group_id = m1.group_id
		WHERE m1.user_id = $1 AND m2.user_id IN (`+in+`)
			AND g.group_type = `+strconv.Itoa(GroupTypeGroup)+` AND g.status <> `+strconv.Itoa(GroupDismissed),
		chatInt64Args([]any{userID}, others)...)
	related, err := CollectRows(rows, err, func(r Rows) (int64, error) {
		var id int64
		return id, r.Scan(&id)
	})
	if err != nil {
		return nil, err
	}
	for _, id := range related {
		out[id] = true
	}
	// The rest: a one-to-one chat with a user message in it (msg_from
	// 100; a notice such as "you are now friends" is not an exchange).
	me := FormatID(userID)
	peerOf := map[string]int64{}
	var convArgs []any
	for _, id := range others {
		if out[id] {
			continue
		}
		a, b := me, FormatID(id)
		if a > b {
			a, b = b, a
		}
		conv := "si_" + a + "_" + b
		peerOf[conv] = id
		convArgs = append(convArgs, conv)
	}
	if len(convArgs) == 0 {
		return out, nil
	}
	rows, err = q.Query(ctx, `SELECT c.id FROM chat_conversations c
		WHERE c.id IN (`+chatPlaceholders(1, len(convArgs))+`)
			AND EXISTS (SELECT 1 FROM chat_messages m WHERE m.conversation_id = c.id AND m.msg_from = 100)`, convArgs...)
	convs, err := CollectRows(rows, err, func(r Rows) (string, error) {
		var id string
		return id, r.Scan(&id)
	})
	for _, c := range convs {
		out[peerOf[c]] = true
	}
	return out, err
}
