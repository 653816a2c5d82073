package storage

import (
	"context"
	"strconv"
)

// Group roles, statuses and types as the protocol numbers them.
const (
	RoleMember = 20
	RoleAdmin  = 60
	RoleOwner  = 100

	GroupNormal    = 0
	GroupDismissed = 2
	GroupMuted     = 3

	GroupTypeGroup   = 2
	GroupTypeChannel = 3
)

// ChatGroup is a group or a channel.
type ChatGroup struct {
	ID                     int64
	Name                   string
	FaceURL                string
	Introduction           string
	Notification           string
	NotificationUserID     int64
	NotificationUpdateTime int64
	OwnerID                int64
	CreatorID              int64
	GroupType              int
	NeedVerification       int
	LookMemberInfo         int
	ApplyMemberFriend      int
	Status                 int
	MemberCount            int
	Ex                     string
	CreatedAt              int64
	UpdatedAt              int64
}

// ChatGroupMember is one member of a group.
type ChatGroupMember struct {
	GroupID    int64
	UserID     int64
	RoleLevel  int
	Nickname   string
	FaceURL    string
	MutedUntil int64
	JoinTime   int64
	JoinSource int
	InviterID  int64
	OperatorID int64
	Ex         string
}

// ChatGroupRequest is an application to join a group.
type ChatGroupRequest struct {
	GroupID      int64
	UserID       int64
	ReqMsg       string
	JoinSource   int
	InviterID    int64
	HandleResult int
	HandleMsg    string
	HandlerID    int64
	Ex           string
	CreatedAt    int64
	HandledAt    int64
}

const chatGroupColumns = `id, name, face_url, introduction, notification, notification_user_id,
	notification_update_time, owner_id, creator_id, group_type, need_verification, look_member_info,
	apply_member_friend, status, member_count, ex, created_at, updated_at`

func scanChatGroup(r Row) (ChatGroup, error) {
	var g ChatGroup
	err := r.Scan(&g.ID, &g.Name, &g.FaceURL, &g.Introduction, &g.Notification, &g.NotificationUserID,
		&g.NotificationUpdateTime, &g.OwnerID, &g.CreatorID, &g.GroupType, &g.NeedVerification, &g.LookMemberInfo,
		&g.ApplyMemberFriend, &g.Status, &g.MemberCount, &g.Ex, &g.CreatedAt, &g.UpdatedAt)
	return g, err
}

func scanChatGroups(r Rows) (ChatGroup, error) { return scanChatGroup(r) }

// CreateChatGroup inserts g.
func CreateChatGroup(ctx context.Context, q Querier, g ChatGroup) error {
	_, err := q.Exec(ctx, `INSERT INTO chat_groups (`+chatGroupColumns+`)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18)`,
		g.ID, g.Name, g.FaceURL, g.Introduction, g.Notification, g.NotificationUserID,
		g.NotificationUpdateTime, g.OwnerID, g.CreatorID, g.GroupType, g.NeedVerification, g.LookMemberInfo,
		g.ApplyMemberFriend, g.Status, g.MemberCount, g.Ex, g.CreatedAt, g.UpdatedAt)
	return err
}

// ChatGroupByID loads a group.
func ChatGroupByID(ctx context.Context, q Querier, id int64) (ChatGroup, error) {
	return scanChatGroup(q.QueryRow(ctx, `SELECT `+chatGroupColumns+` FROM chat_groups WHERE id = $1`, id))
}

// LockChatGroup loads a group and locks its row for the rest of tx, so
// changes to one group are serialised across nodes.
func LockChatGroup(ctx context.Context, tx Tx, id int64) (ChatGroup, error) {
	return scanChatGroup(tx.QueryRow(ctx, `SELECT `+chatGroupColumns+` FROM chat_groups WHERE id = $1`+tx.Dialect().ForUpdate(), id))
}

// ChatGroupsByIDs loads the groups that exist among ids.
func ChatGroupsByIDs(ctx context.Context, q Querier, ids []int64) ([]ChatGroup, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := q.Query(ctx, `SELECT `+chatGroupColumns+` FROM chat_groups WHERE id IN (`+chatPlaceholders(1, len(ids))+`)`, chatInt64Args(nil, ids)...)
	return CollectRows(rows, err, scanChatGroups)
}

// UpdateChatGroup writes every mutable field of g.
func UpdateChatGroup(ctx context.Context, q Querier, g ChatGroup) error {
	return affected(q.Exec(ctx, `UPDATE chat_groups SET name = $1, face_url = $2, introduction = $3, notification = $4,
		notification_user_id = $5, notification_update_time = $6, owner_id = $7, need_verification = $8,
		look_member_info = $9, apply_member_friend = $10, status = $11, member_count = $12, ex = $13, updated_at = $14
		WHERE id = $15`,
		g.Name, g.FaceURL, g.Introduction, g.Notification, g.NotificationUserID, g.NotificationUpdateTime,
		g.OwnerID, g.NeedVerification, g.LookMemberInfo, g.ApplyMemberFriend, g.Status, g.MemberCount, g.Ex,
		g.UpdatedAt, g.ID))
}

// UserChatGroups lists the groups userID belongs to (dismissed ones
// excluded), of groupType when it is not 0, newest first.
func UserChatGroups(ctx context.Context, q Querier, userID int64, groupType int) ([]ChatGroup, error) {
	sql := `SELECT ` + prefixed("g.", chatGroupColumns) + ` FROM chat_groups g
		JOIN chat_group_members m ON m.group_id = g.id WHERE m.user_id = $1 AND g.status <> 2`
	args := []any{userID}
	if groupType != 0 {
		sql += ` AND g.group_type = $2`
		args = append(args, groupType)
	}
	rows, err := q.Query(ctx, sql+` ORDER BY g.created_at DESC`, args...)
	return CollectRows(rows, err, scanChatGroups)
}

// SearchChatGroupsByName finds live groups whose name contains name
// (case-insensitive).
func SearchChatGroupsByName(ctx context.Context, q Querier, name string, limit int) ([]ChatGroup, error) {
	rows, err := q.Query(ctx, `SELECT `+chatGroupColumns+` FROM chat_groups
		WHERE status <> 2 AND LOWER(name) LIKE LOWER($1) ESCAPE '\' ORDER BY member_count DESC, id LIMIT $2`,
		"%"+EscapeLike(name)+"%", limit)
	return CollectRows(rows, err, scanChatGroups)
}

const chatMemberColumns = `group_id, user_id, role_level, nickname, face_url, muted_until, join_time,
	join_source, inviter_id, operator_id, ex`

func scanChatMember(r Rows) (ChatGroupMember, error) {
	var m ChatGroupMember
	err := r.Scan(&m.GroupID, &m.UserID, &m.RoleLevel, &m.Nickname, &m.FaceURL, &m.MutedUntil, &m.JoinTime,
		&m.JoinSource, &m.InviterID, &m.OperatorID, &m.Ex)
	return m, err
}

// AddChatGroupMembers inserts members (ErrConflict when one is already in).
func AddChatGroupMembers(ctx context.Context, q Querier, ms ...ChatGroupMember) error {
	for _, m := range ms {
		if _, err := q.Exec(ctx, `INSERT INTO chat_group_members (`+chatMemberColumns+`)
			VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)`,
			m.GroupID, m.UserID, m.RoleLevel, m.Nickname, m.FaceURL, m.MutedUntil, m.JoinTime,
			m.JoinSource, m.InviterID, m.OperatorID, m.Ex); err != nil {
			return err
		}
	}
	return nil
}

// RemoveChatGroupMembers deletes members and returns how many were in.
func RemoveChatGroupMembers(ctx context.Context, q Querier, groupID int64, userIDs []int64) (int64, error) {
	if len(userIDs) == 0 {
		return 0, nil
	}
	return q.Exec(ctx, `DELETE FROM chat_group_members WHERE group_id = $1 AND user_id IN (`+chatPlaceholders(2, len(userIDs))+`)`,
		chatInt64Args([]any{groupID}, userIDs)...)
}

// ChatGroupMembers lists members of a group, owner and admins first.
func ChatGroupMembers(ctx context.Context, q Querier, groupID int64) ([]ChatGroupMember, error) {
	rows, err := q.Query(ctx, `SELECT `+chatMemberColumns+` FROM chat_group_members WHERE group_id = $1
		ORDER BY role_level DESC, join_time, user_id`, groupID)
	return CollectRows(rows, err, scanChatMember)
}

// ChatGroupMemberIDs lists the user ids of a group's members.
func ChatGroupMemberIDs(ctx context.Context, q Querier, groupID int64) ([]int64, error) {
	rows, err := q.Query(ctx, `SELECT user_id FROM chat_group_members WHERE group_id = $1`, groupID)
	return CollectRows(rows, err, func(r Rows) (int64, error) {
		var id int64
		return id, r.Scan(&id)
	})
}

// ChatGroupMembersByIDs loads the members among userIDs.
func ChatGroupMembersByIDs(ctx context.Context, q Querier, groupID int64, userIDs []int64) ([]ChatGroupMember, error) {
	if len(userIDs) == 0 {
		return nil, nil
	}
	rows, err := q.Query(ctx, `SELECT `+chatMemberColumns+` FROM chat_group_members WHERE group_id = $1 AND user_id IN (`+
		chatPlaceholders(2, len(userIDs))+`)`, chatInt64Args([]any{groupID}, userIDs)...)
	return CollectRows(rows, err, scanChatMember)
}

// ChatGroupMemberOf loads one member; ErrNotFound when not in the group.
func ChatGroupMemberOf(ctx context.Context, q Querier, groupID, userID int64) (ChatGroupMember, error) {
	return firstOf(ChatGroupMembersByIDs(ctx, q, groupID, []int64{userID}))
}

// UpdateChatGroupMember writes the mutable fields of m.
func UpdateChatGroupMember(ctx context.Context, q Querier, m ChatGroupMember) error {
	return affected(q.Exec(ctx, `UPDATE chat_group_members SET role_level = $1, nickname = $2, face_url = $3,
		muted_until = $4, operator_id = $5, ex = $6 WHERE group_id = $7 AND user_id = $8`,
		m.RoleLevel, m.Nickname, m.FaceURL, m.MutedUntil, m.OperatorID, m.Ex, m.GroupID, m.UserID))
}

// ClearExpiredChatMute resets a member's mute that ran out at mutedUntil
// (not later than now). It reports false when another node, or a newer
// mute, got there first, so the unmute is announced once.
func ClearExpiredChatMute(ctx context.Context, q Querier, groupID, userID, mutedUntil, now int64) (bool, error) {
	n, err := q.Exec(ctx, `UPDATE chat_group_members SET muted_until = 0
		WHERE group_id = $1 AND user_id = $2 AND muted_until = $3 AND muted_until > 0 AND muted_until <= $4`,
		groupID, userID, mutedUntil, now)
	return n == 1, err
}

// ChatMutes lists members with a mute deadline set (due or not), for
// re-arming unmute timers at start.
func ChatMutes(ctx context.Context, q Querier) ([]ChatGroupMember, error) {
	rows, err := q.Query(ctx, `SELECT `+chatMemberColumns+` FROM chat_group_members WHERE muted_until > 0`)
	return CollectRows(rows, err, scanChatMember)
}

// ChatGroupMutes lists members of one group with a mute deadline set.
func ChatGroupMutes(ctx context.Context, q Querier, groupID int64) ([]ChatGroupMember, error) {
	rows, err := q.Query(ctx, `SELECT `+chatMemberColumns+` FROM chat_group_members WHERE group_id = $1 AND muted_until > 0`, groupID)
	return CollectRows(rows, err, scanChatMember)
}

const chatGroupReqColumns = `group_id, user_id, req_msg, join_source, inviter_id, handle_result, handle_msg,
	handler_id, ex, created_at, handled_at`

func scanChatGroupReq(r Rows) (ChatGroupRequest, error) {
	var g ChatGroupRequest
	err := r.Scan(&g.GroupID, &g.UserID, &g.ReqMsg, &g.JoinSource, &g.InviterID, &g.HandleResult, &g.HandleMsg,
		&g.HandlerID, &g.Ex, &g.CreatedAt, &g.HandledAt)
	return g, err
}

// PutChatGroupRequest records a pending application (a repeat starts over).
func PutChatGroupRequest(ctx context.Context, q Querier, r ChatGroupRequest) error {
	_, err := q.Exec(ctx, `INSERT INTO chat_group_requests (`+chatGroupReqColumns+`) VALUES ($1,$2,$3,$4,$5,0,'',0,$6,$7,0)
		ON CONFLICT (group_id, user_id) DO UPDATE SET req_msg = excluded.req_msg, join_source = excluded.join_source,
		inviter_id = excluded.inviter_id, handle_result = 0, handle_msg = '', handler_id = 0, ex = excluded.ex,
		created_at = excluded.created_at, handled_at = 0`,
		r.GroupID, r.UserID, r.ReqMsg, r.JoinSource, r.InviterID, r.Ex, r.CreatedAt)
	return err
}

// ChatGroupRequestOf loads one application.
func ChatGroupRequestOf(ctx context.Context, q Querier, groupID, userID int64) (ChatGroupRequest, error) {
	rows, err := q.Query(ctx, `SELECT `+chatGroupReqColumns+` FROM chat_group_requests WHERE group_id = $1 AND user_id = $2`, groupID, userID)
	return firstOf(CollectRows(rows, err, scanChatGroupReq))
}

// HandleChatGroupRequest answers a pending application; ErrNotFound when
// none is pending.
func HandleChatGroupRequest(ctx context.Context, q Querier, groupID, userID int64, result int, msg string, handler, at int64) error {
	return affected(q.Exec(ctx, `UPDATE chat_group_requests SET handle_result = $1, handle_msg = $2, handler_id = $3, handled_at = $4
		WHERE group_id = $5 AND user_id = $6 AND handle_result = 0`, result, msg, handler, at, groupID, userID))
}

// ChatGroupRequestsForAdmin lists applications to the groups where userID
// is owner or admin, newest first.
func ChatGroupRequestsForAdmin(ctx context.Context, q Querier, userID int64) ([]ChatGroupRequest, error) {
	rows, err := q.Query(ctx, `SELECT `+prefixed("r.", chatGroupReqColumns)+` FROM chat_group_requests r
		JOIN chat_group_members m ON m.group_id = r.group_id AND m.user_id = $1 AND m.role_level >= 60
		ORDER BY r.created_at DESC`, userID)
	return CollectRows(rows, err, scanChatGroupReq)
}

// ChatGroupRequestsByUser lists userID's own applications, newest first.
func ChatGroupRequestsByUser(ctx context.Context, q Querier, userID int64) ([]ChatGroupRequest, error) {
	rows, err := q.Query(ctx, `SELECT `+chatGroupReqColumns+` FROM chat_group_requests WHERE user_id = $1 ORDER BY created_at DESC`, userID)
	return CollectRows(rows, err, scanChatGroupReq)
}

// SearchUsersByNickname finds users whose nickname contains nick
// (case-insensitive), an exact match first.
func SearchUsersByNickname(ctx context.Context, q Querier, nick string, limit int) ([]User, error) {
	rows, err := q.Query(ctx, `SELECT `+userColumns+` FROM users WHERE LOWER(nickname) LIKE LOWER($1) ESCAPE '\'
		ORDER BY CASE WHEN nickname = $2 THEN 0 ELSE 1 END, id LIMIT $3`, "%"+EscapeLike(nick)+"%", nick, limit)
	return CollectRows(rows, err, func(r Rows) (User, error) { return scanUser(r) })
}

// FormatID is an id as the chat protocol carries it.
func FormatID(id int64) string { return strconv.FormatInt(id, 10) }
