package storage

import (
	"context"
)

// Friend application results.
const (
	FriendPending  = 0
	FriendAccepted = 1
	FriendRefused  = -1
)

// ChatFriend is one side of a friendship.
type ChatFriend struct {
	OwnerID    int64
	FriendID   int64
	Remark     string
	AddSource  int
	OperatorID int64
	Ex         string
	CreatedAt  int64
}

// ChatFriendRequest is an application from one user to another.
type ChatFriendRequest struct {
	FromID       int64
	ToID         int64
	ReqMsg       string
	HandleResult int
	HandleMsg    string
	HandlerID    int64
	Ex           string
	CreatedAt    int64
	HandledAt    int64
}

// ChatBlock is one blacklist entry: OwnerID blocked BlockedID.
type ChatBlock struct {
	OwnerID   int64
	BlockedID int64
	Ex        string
	CreatedAt int64
}

const chatFriendColumns = `owner_id, friend_id, remark, add_source, operator_id, ex, created_at`

func scanChatFriend(r Rows) (ChatFriend, error) {
	var f ChatFriend
	err := r.Scan(&f.OwnerID, &f.FriendID, &f.Remark, &f.AddSource, &f.OperatorID, &f.Ex, &f.CreatedAt)
	return f, err
}

// AddChatFriends stores friendships (ErrConflict-free: existing rows stay).
func AddChatFriends(ctx context.Context, q Querier, fs ...ChatFriend) error {
	for _, f := range fs {
		if _, err := q.Exec(ctx, `INSERT INTO chat_friends (`+chatFriendColumns+`) VALUES ($1,$2,$3,$4,$5,$6,$7)
			ON CONFLICT (owner_id, friend_id) DO NOTHING`,
			f.OwnerID, f.FriendID, f.Remark, f.AddSource, f.OperatorID, f.Ex, f.CreatedAt); err != nil {
			return err
		}
	}
	return nil
}

// DeleteChatFriendship removes a friendship in both directions and reports
// whether there was one.
func DeleteChatFriendship(ctx context.Context, q Querier, a, b int64) (bool, error) {
	n, err := q.Exec(ctx, `DELETE FROM chat_friends WHERE (owner_id = $1 AND friend_id = $2) OR (owner_id = $2 AND friend_id = $1)`, a, b)
	return n > 0, err
}

// ChatFriendOf loads ownerID's friend entry for friendID.
func ChatFriendOf(ctx context.Context, q Querier, ownerID, friendID int64) (ChatFriend, error) {
	rows, err := q.Query(ctx, `SELECT `+chatFriendColumns+` FROM chat_friends WHERE owner_id = $1 AND friend_id = $2`, ownerID, friendID)
	return firstOf(CollectRows(rows, err, scanChatFriend))
}

// ChatFriends lists ownerID's friends, oldest first.
func ChatFriends(ctx context.Context, q Querier, ownerID int64) ([]ChatFriend, error) {
	rows, err := q.Query(ctx, `SELECT `+chatFriendColumns+` FROM chat_friends WHERE owner_id = $1 ORDER BY created_at, friend_id`, ownerID)
	return CollectRows(rows, err, scanChatFriend)
}

// SetChatFriendRemark sets the remark ownerID keeps for friendID.
func SetChatFriendRemark(ctx context.Context, q Querier, ownerID, friendID int64, remark string) error {
	return affected(q.Exec(ctx, `UPDATE chat_friends SET remark = $1 WHERE owner_id = $2 AND friend_id = $3`, remark, ownerID, friendID))
}

const chatFriendReqColumns = `from_id, to_id, req_msg, handle_result, handle_msg, handler_id, ex, created_at, handled_at`

func scanChatFriendReq(r Rows) (ChatFriendRequest, error) {
	var f ChatFriendRequest
	err := r.Scan(&f.FromID, &f.ToID, &f.ReqMsg, &f.HandleResult, &f.HandleMsg, &f.HandlerID, &f.Ex, &f.CreatedAt, &f.HandledAt)
	return f, err
}

// PutChatFriendRequest records a (new or repeated) pending application;
// a repeat after a refusal starts over.
func PutChatFriendRequest(ctx context.Context, q Querier, r ChatFriendRequest) error {
	_, err := q.Exec(ctx, `INSERT INTO chat_friend_requests (`+chatFriendReqColumns+`) VALUES ($1,$2,$3,0,'',0,$4,$5,0)
		ON CONFLICT (from_id, to_id) DO UPDATE SET req_msg = excluded.req_msg, handle_result = 0, handle_msg = '',
		handler_id = 0, ex = excluded.ex, created_at = excluded.created_at, handled_at = 0`,
		r.FromID, r.ToID, r.ReqMsg, r.Ex, r.CreatedAt)
	return err
}

// ChatFriendRequestOf loads the application from fromID to toID, locked for
// the rest of the transaction when q is one.
func ChatFriendRequestOf(ctx context.Context, q Querier, fromID, toID int64) (ChatFriendRequest, error) {
	rows, err := q.Query(ctx, `SELECT `+chatFriendReqColumns+` FROM chat_friend_requests WHERE from_id = $1 AND to_id = $2`+q.Dialect().ForUpdate(), fromID, toID)
	return firstOf(CollectRows(rows, err, scanChatFriendReq))
}

// HandleChatFriendRequest answers a pending application; ErrNotFound when
// there is no pending one.
func HandleChatFriendRequest(ctx context.Context, q Querier, fromID, toID int64, result int, msg string, at int64) error {
	return affected(q.Exec(ctx, `UPDATE chat_friend_requests SET handle_result = $1, handle_msg = $2, handler_id = $3, handled_at = $4
		WHERE from_id = $5 AND to_id = $3 AND handle_result = 0`, result, msg, toID, at, fromID))
}

// ChatFriendRequestsTo lists applications received by userID, newest first.
func ChatFriendRequestsTo(ctx context.Context, q Querier, userID int64) ([]ChatFriendRequest, error) {
	rows, err := q.Query(ctx, `SELECT `+chatFriendReqColumns+` FROM chat_friend_requests WHERE to_id = $1 ORDER BY created_at DESC`, userID)
	return CollectRows(rows, err, scanChatFriendReq)
}

// ChatFriendRequestsFrom lists applications sent by userID, newest first.
func ChatFriendRequestsFrom(ctx context.Context, q Querier, userID int64) ([]ChatFriendRequest, error) {
	rows, err := q.Query(ctx, `SELECT `+chatFriendReqColumns+` FROM chat_friend_requests WHERE from_id = $1 ORDER BY created_at DESC`, userID)
	return CollectRows(rows, err, scanChatFriendReq)
}

// AddChatBlock puts blockedID on ownerID's blacklist; false when already
// there.
func AddChatBlock(ctx context.Context, q Querier, b ChatBlock) (bool, error) {
	n, err := q.Exec(ctx, `INSERT INTO chat_blacklist (owner_id, blocked_id, ex, created_at) VALUES ($1,$2,$3,$4)
		ON CONFLICT (owner_id, blocked_id) DO NOTHING`, b.OwnerID, b.BlockedID, b.Ex, b.CreatedAt)
	return n > 0, err
}

// RemoveChatBlock takes blockedID off ownerID's blacklist; ErrNotFound when
// absent.
func RemoveChatBlock(ctx context.Context, q Querier, ownerID, blockedID int64) error {
	return affected(q.Exec(ctx, `DELETE FROM chat_blacklist WHERE owner_id = $1 AND blocked_id = $2`, ownerID, blockedID))
}

// ChatBlacklist lists ownerID's blacklist, oldest first.
func ChatBlacklist(ctx context.Context, q Querier, ownerID int64) ([]ChatBlock, error) {
	rows, err := q.Query(ctx, `SELECT owner_id, blocked_id, ex, created_at FROM chat_blacklist WHERE owner_id = $1 ORDER BY created_at, blocked_id`, ownerID)
	return CollectRows(rows, err, func(r Rows) (ChatBlock, error) {
		var b ChatBlock
		return b, r.Scan(&b.OwnerID, &b.BlockedID, &b.Ex, &b.CreatedAt)
	})
}

// ChatBlocked reports whether ownerID has blocked blockedID.
func ChatBlocked(ctx context.Context, q Querier, ownerID, blockedID int64) (bool, error) {
	var n int
	err := q.QueryRow(ctx, `SELECT COUNT(*) FROM chat_blacklist WHERE owner_id = $1 AND blocked_id = $2`, ownerID, blockedID).Scan(&n)
	return n > 0, err
}

// ChatBlocksBetween reports who blocked whom between a and b: the result
// holds the owner ids of the blacklist entries (a when a blocked b).
func ChatBlocksBetween(ctx context.Context, q Querier, a, b int64) (map[int64]bool, error) {
	rows, err := q.Query(ctx, `SELECT owner_id FROM chat_blacklist
		WHERE (owner_id = $1 AND blocked_id = $2) OR (owner_id = $2 AND blocked_id = $1)`, a, b)
	owners, err := CollectRows(rows, err, func(r Rows) (int64, error) {
		var id int64
		return id, r.Scan(&id)
	})
	if err != nil {
		return nil, err
	}
	out := make(map[int64]bool, len(owners))
	for _, o := range owners {
		out[o] = true
	}
	return out, nil
}
