package chat

// The group calls of the SDK: what changes and what reads share — the
// registry of names, the item builders, argument helpers and the checks on
// the group and the acting member. The changes are in
// calls_group_changes.go, the reads in calls_group_reads.go.

import (
	"context"
	"errors"

	"kj/internal/apierr"
	"kj/storage"
)

func init() {
	register(map[string]handlerFunc{
		"CreateGroup":                        callCreateGroup,
		"JoinGroup":                          callJoinGroup,
		"InviteUserToGroup":                  callInvite,
		"QuitGroup":                          callQuitGroup,
		"DismissGroup":                       callDismissGroup,
		"KickGroupMember":                    callKick,
		"ChangeGroupMemberMute":              callMuteMember,
		"ChangeGroupMute":                    callMuteGroup,
		"TransferGroupOwner":                 callTransferOwner,
		"SetGroupMemberInfo":                 callSetMemberInfo,
		"SetGroupInfo":                       callSetGroupInfo,
		"AcceptGroupApplication":             callAcceptGroupApplication,
		"RefuseGroupApplication":             callRefuseGroupApplication,
		"GetJoinedGroupList":                 callJoinedGroups,
		"GetSpecifiedGroupsInfo":             callGroupsInfo,
		"SearchGroups":                       callSearchGroups,
		"GetGroupMemberList":                 callGroupMembers,
		"GetGroupMemberOwnerAndAdmin":        callGroupAdmins,
		"GetSpecifiedGroupMembersInfo":       callSpecifiedMembers,
		"SearchGroupMembers":                 callSearchMembers,
		"GetGroupMemberListByJoinTimeFilter": callMembersByJoinTime,
		"GetGroupApplicationListAsRecipient": callGroupRequestsToMe,
		"GetGroupApplicationListAsApplicant": callGroupRequestsByMe,
	})
}

// Group verification settings (needVerification).
const (
	verifyApply = 0 // applying needs approval, invitations do not
	verifyAll   = 1 // both need approval
	verifyNone  = 2 // anyone may join
)

func groupItem(g storage.ChatGroup) *GroupItem {
	return &GroupItem{
		GroupID: storage.FormatID(g.ID), GroupName: g.Name, Notification: g.Notification,
		NotificationUserID: idOrEmpty(g.NotificationUserID), NotificationUpdateTime: g.NotificationUpdateTime,
		Introduction: g.Introduction, FaceURL: g.FaceURL, OwnerUserID: storage.FormatID(g.OwnerID),
		CreateTime: g.CreatedAt, MemberCount: g.MemberCount, Status: g.Status, CreatorUserID: storage.FormatID(g.CreatorID),
		GroupType: g.GroupType, NeedVerification: g.NeedVerification, Ex: g.Ex,
		ApplyMemberFriend: g.ApplyMemberFriend, LookMemberInfo: g.LookMemberInfo,
	}
}

// memberItem shows a member with the group nickname, or the user's own.
func memberItem(m storage.ChatGroupMember, u storage.User) *GroupMemberItem {
	it := &GroupMemberItem{
		GroupID: storage.FormatID(m.GroupID), UserID: storage.FormatID(m.UserID), Nickname: m.Nickname,
		FaceURL: m.FaceURL, RoleLevel: m.RoleLevel, MuteEndTime: m.MutedUntil, JoinTime: m.JoinTime,
		JoinSource: m.JoinSource, InviterUserID: idOrEmpty(m.InviterID), OperatorUserID: idOrEmpty(m.OperatorID), Ex: m.Ex,
	}
	if it.Nickname == "" {
		it.Nickname = u.Nickname
	}
	if it.FaceURL == "" {
		it.FaceURL = u.Avatar
	}
	return it
}

func memberItems(ctx context.Context, q storage.Querier, ms []storage.ChatGroupMember) ([]*GroupMemberItem, error) {
	ids := make([]int64, len(ms))
	for i, m := range ms {
		ids[i] = m.UserID
	}
	users, err := userMap(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	return itemsOf(ms, func(m storage.ChatGroupMember) *GroupMemberItem { return memberItem(m, users[m.UserID]) }), nil
}

func memberItemOf(ctx context.Context, q storage.Querier, m storage.ChatGroupMember) (*GroupMemberItem, error) {
	items, err := memberItems(ctx, q, []storage.ChatGroupMember{m})
	if err != nil {
		return nil, err
	}
	return items[0], nil
}

// groupRequestItem shows an application to join g. It goes to the
// applicant, an outsider until accepted, so it carries only the group's
// public face (publicGroupItem); the admins it also goes to have the rest.
func groupRequestItem(r storage.ChatGroupRequest, g storage.ChatGroup, u storage.User) GroupApplicationItem {
	p := publicGroupItem(g)
	return GroupApplicationItem{
		Ex: r.Ex, GroupFaceURL: p.FaceURL, GroupID: p.GroupID, GroupName: p.GroupName, GroupType: p.GroupType,
		HandleResult: r.HandleResult, HandleUserID: idOrEmpty(r.HandlerID), HandledMsg: r.HandleMsg, HandledTime: r.HandledAt,
		MemberCount: p.MemberCount, Nickname: u.Nickname, ReqMsg: r.ReqMsg, ReqTime: r.CreatedAt, JoinSource: r.JoinSource,
		Status: p.Status, UserFaceURL: u.Avatar, UserID: storage.FormatID(r.UserID), InviterUserID: idOrEmpty(r.InviterID),
	}
}

// liveGroup locks a group that exists and is not dismissed (a dismissed
// group refuses every change).
func liveGroup(ctx context.Context, tx storage.Tx, gid int64) (storage.ChatGroup, error) {
	g, err := storage.LockChatGroup(ctx, tx, gid)
	if err != nil {
		return g, storeErr(err, apierr.CodeChatGroupNotFound)
	}
	if g.Status == storage.GroupDismissed {
		return g, apierr.ChatError(apierr.CodeChatGroupDismissed)
	}
	return g, nil
}

// acting loads the caller's membership; minRole is the least role the
// action needs.
func acting(ctx context.Context, tx storage.Tx, gid, uid int64, minRole int) (storage.ChatGroupMember, error) {
	m, err := storage.ChatGroupMemberOf(ctx, tx, gid, uid)
	if err != nil {
		return m, storeErr(err, apierr.CodeChatNotMember)
	}
	if m.RoleLevel < minRole {
		return m, apierr.ChatError(apierr.CodeChatNoPermission)
	}
	return m, nil
}

// target loads a member acted upon, who must rank below the actor: nobody
// acts on an equal or higher role.
func target(ctx context.Context, tx storage.Tx, gid, uid int64, actor storage.ChatGroupMember) (storage.ChatGroupMember, error) {
	if uid == actor.UserID {
		return storage.ChatGroupMember{}, apierr.ChatError(apierr.CodeChatSelf)
	}
	m, err := storage.ChatGroupMemberOf(ctx, tx, gid, uid)
	if err != nil {
		return m, storeErr(err, apierr.CodeChatTargetNotMember)
	}
	if m.RoleLevel >= actor.RoleLevel {
		return m, apierr.ChatError(apierr.CodeChatNoPermission)
	}
	return m, nil
}

// adminIDs lists the owner and admins of a group.
func adminIDs(ctx context.Context, q storage.Querier, gid int64) ([]int64, error) {
	ms, err := storage.ChatGroupMembers(ctx, q, gid)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, m := range ms {
		if m.RoleLevel >= storage.RoleAdmin {
			ids = append(ids, m.UserID)
		}
	}
	return ids, nil
}

// groupNotice writes a 15xx notice whose detail carries the group and the
// acting member, plus fields of the change.
func groupNotice(ctx context.Context, tx storage.Tx, w *noticeWriter, contentType int, g storage.ChatGroup, by *storage.ChatGroupMember, fields map[string]any) error {
	detail := map[string]any{"group": groupItem(g)}
	from := sender{}
	if by != nil {
		u, err := storage.UserByID(ctx, tx, by.UserID)
		if err != nil {
			return err
		}
		detail["opUser"] = memberItem(*by, u)
		from = senderOf(u, 0)
	}
	for k, v := range fields {
		detail[k] = v
	}
	return w.write(notice(contentType, from, detail, w.now))
}

// addMembers puts users into a group (cap checked) and starts their view
// of its conversation after the current seq.
func addMembers(ctx context.Context, tx storage.Tx, w *noticeWriter, g *storage.ChatGroup, ids []int64, role, source int, inviter, max int64) ([]storage.ChatGroupMember, error) {
	if int64(g.MemberCount+len(ids)) > max {
		return nil, apierr.ChatError(apierr.CodeChatGroupFull)
	}
	start, err := w.seq()
	if err != nil {
		return nil, err
	}
	var added []storage.ChatGroupMember
	for _, id := range ids {
		m := storage.ChatGroupMember{GroupID: g.ID, UserID: id, RoleLevel: role, JoinTime: w.now, JoinSource: source, InviterID: inviter, OperatorID: inviter}
		if err := storage.AddChatGroupMembers(ctx, tx, m); err != nil {
			if errors.Is(err, storage.ErrConflict) {
				return nil, apierr.ChatError(apierr.CodeChatAlreadyMember)
			}
			return nil, err
		}
		if err := storage.EnterChatGroupConversation(ctx, tx, id, w.spec.id, g.ID, start, w.now); err != nil {
			return nil, err
		}
		added = append(added, m)
	}
	g.MemberCount += len(ids)
	g.UpdatedAt = w.now
	return added, storage.UpdateChatGroup(ctx, tx, *g)
}

// enterGroup lets one user into group g (as a member; cap checked), with
// the notice of their entry, and answers the callbacks of their joining.
func (e *Engine) enterGroup(ctx context.Context, tx storage.Tx, w *noticeWriter, g *storage.ChatGroup, uid int64, source int, inviter int64) ([]pushTo, error) {
	added, err := addMembers(ctx, tx, w, g, []int64{uid}, storage.RoleMember, source, inviter, int64(e.cfg.GroupMaxMembers))
	if err != nil {
		return nil, err
	}
	items, err := memberItems(ctx, tx, added)
	if err != nil {
		return nil, err
	}
	if err := groupNotice(ctx, tx, w, NoticeMemberEnter, *g, nil, map[string]any{"entrantUser": items[0]}); err != nil {
		return nil, err
	}
	return joinedPushes(ctx, tx, *g, added)
}

// joinedPushes are the callbacks of members joining.
func joinedPushes(ctx context.Context, tx storage.Tx, g storage.ChatGroup, added []storage.ChatGroupMember) ([]pushTo, error) {
	items, err := memberItems(ctx, tx, added)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(added))
	for i, m := range added {
		ids[i] = m.UserID
	}
	out := []pushTo{{users: ids, event: "OnJoinedGroupAdded", data: groupItem(g)}}
	for _, it := range items {
		out = append(out, pushTo{members: true, event: "OnGroupMemberAdded", data: it})
	}
	return append(out, pushTo{members: true, event: "OnGroupInfoChanged", data: groupItem(g)}), nil
}

// groupOp queues an op on a group's actor and answers the call later.
func (c *call) groupOp(gid int64, run func(ctx context.Context, tx storage.Tx, w *noticeWriter) (*outcome, error)) (any, error) {
	c.s.e.tellGroup(gid, &opRequest{item: &opItem{reply: c.replyTo(), run: run}})
	return nil, errLater
}

// groupAction queues a change on a group's actor that needs the group
// live (not dismissed) and the caller a member of at least minRole; run
// gets the locked group and the caller's membership, in the transaction of
// the actor's batch.
func (c *call) groupAction(gid int64, minRole int, run func(ctx context.Context, tx storage.Tx, w *noticeWriter, g storage.ChatGroup, actor storage.ChatGroupMember) (*outcome, error)) (any, error) {
	me := c.me()
	return c.groupOp(gid, func(ctx context.Context, tx storage.Tx, w *noticeWriter) (*outcome, error) {
		g, err := liveGroup(ctx, tx, gid)
		if err != nil {
			return nil, err
		}
		actor, err := acting(ctx, tx, gid, me, minRole)
		if err != nil {
			return nil, err
		}
		return run(ctx, tx, w, g, actor)
	})
}
