package chat

import (
	"context"
	"errors"
	"sort"
	"strings"

	"kj/httpapi"
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
	list, err := storage.UsersByIDs(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	users := make(map[int64]storage.User, len(list))
	for _, u := range list {
		users[u.ID] = u
	}
	out := make([]*GroupMemberItem, len(ms))
	for i, m := range ms {
		out[i] = memberItem(m, users[m.UserID])
	}
	return out, nil
}

func memberItemOf(ctx context.Context, q storage.Querier, m storage.ChatGroupMember) (*GroupMemberItem, error) {
	items, err := memberItems(ctx, q, []storage.ChatGroupMember{m})
	if err != nil {
		return nil, err
	}
	return items[0], nil
}

func groupRequestItem(r storage.ChatGroupRequest, g storage.ChatGroup, u storage.User) GroupApplicationItem {
	return GroupApplicationItem{
		CreateTime: g.CreatedAt, CreatorUserID: storage.FormatID(g.CreatorID), Ex: r.Ex, GroupFaceURL: g.FaceURL,
		GroupID: storage.FormatID(g.ID), GroupName: g.Name, GroupType: g.GroupType, HandleResult: r.HandleResult,
		HandleUserID: idOrEmpty(r.HandlerID), HandledMsg: r.HandleMsg, HandledTime: r.HandledAt,
		Introduction: g.Introduction, MemberCount: g.MemberCount, Nickname: u.Nickname, Notification: g.Notification,
		OwnerUserID: storage.FormatID(g.OwnerID), ReqMsg: r.ReqMsg, ReqTime: r.CreatedAt, JoinSource: r.JoinSource,
		Status: g.Status, UserFaceURL: u.Avatar, UserID: storage.FormatID(r.UserID), InviterUserID: idOrEmpty(r.InviterID),
	}
}

func (c *call) groupIDArg(i int, name string) (int64, error) {
	s, err := c.args.String(i, name)
	if err != nil {
		return 0, err
	}
	id, err := parseUserID(s)
	if err != nil {
		return 0, badArg(name)
	}
	return id, nil
}

// liveGroup locks a group that exists and is not dismissed (a dismissed
// group refuses every change).
func liveGroup(ctx context.Context, tx storage.Tx, gid int64) (storage.ChatGroup, error) {
	g, err := storage.LockChatGroup(ctx, tx, gid)
	if err != nil {
		return g, storeErr(err, httpapi.CodeChatGroupNotFound)
	}
	if g.Status == storage.GroupDismissed {
		return g, httpapi.ChatError(httpapi.CodeChatGroupDismissed)
	}
	return g, nil
}

// acting loads the caller's membership; minRole is the least role the
// action needs.
func acting(ctx context.Context, tx storage.Tx, gid, uid int64, minRole int) (storage.ChatGroupMember, error) {
	m, err := storage.ChatGroupMemberOf(ctx, tx, gid, uid)
	if err != nil {
		return m, storeErr(err, httpapi.CodeChatNotMember)
	}
	if m.RoleLevel < minRole {
		return m, httpapi.ChatError(httpapi.CodeChatNoPermission)
	}
	return m, nil
}

// target loads a member acted upon, who must rank below the actor: nobody
// acts on an equal or higher role.
func target(ctx context.Context, tx storage.Tx, gid, uid int64, actor storage.ChatGroupMember) (storage.ChatGroupMember, error) {
	if uid == actor.UserID {
		return storage.ChatGroupMember{}, httpapi.ChatError(httpapi.CodeChatSelf)
	}
	m, err := storage.ChatGroupMemberOf(ctx, tx, gid, uid)
	if err != nil {
		return m, storeErr(err, httpapi.CodeChatTargetNotMember)
	}
	if m.RoleLevel >= actor.RoleLevel {
		return m, httpapi.ChatError(httpapi.CodeChatNoPermission)
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
		return nil, httpapi.ChatError(httpapi.CodeChatGroupFull)
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
				return nil, httpapi.ChatError(httpapi.CodeChatAlreadyMember)
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

// CreateGroupParams is a new group: the SDK's CreateGroupParams, also
// used by the HTTP route.
type CreateGroupParams struct {
	MemberUserIDs []string  `json:"memberUserIDs"`
	AdminUserIDs  []string  `json:"adminUserIDs"`
	OwnerUserID   string    `json:"ownerUserID"`
	GroupInfo     GroupInfo `json:"groupInfo"`
}

// GroupInfo are the settable fields of a group.
type GroupInfo struct {
	GroupName         *string `json:"groupName"`
	FaceURL           *string `json:"faceURL"`
	Introduction      *string `json:"introduction"`
	Notification      *string `json:"notification"`
	GroupType         *int    `json:"groupType"`
	NeedVerification  *int    `json:"needVerification"`
	LookMemberInfo    *int    `json:"lookMemberInfo"`
	ApplyMemberFriend *int    `json:"applyMemberFriend"`
	Ex                *string `json:"ex"`
}

// apply validates and sets the given fields on g.
func (gi GroupInfo) apply(g *storage.ChatGroup) error {
	str := func(p *string, max int, field string, dst *string) error {
		if p == nil {
			return nil
		}
		v := strings.TrimSpace(*p)
		if tooLong(v, max) {
			return badArg("groupInfo." + field)
		}
		*dst = v
		return nil
	}
	if gi.GroupName != nil && strings.TrimSpace(*gi.GroupName) == "" {
		return httpapi.ChatError(httpapi.CodeChatGroupNameRequired)
	}
	if err := str(gi.GroupName, 64, "groupName", &g.Name); err != nil {
		return err
	}
	if err := str(gi.FaceURL, 2048, "faceURL", &g.FaceURL); err != nil {
		return err
	}
	if err := str(gi.Introduction, maxSmallText, "introduction", &g.Introduction); err != nil {
		return err
	}
	if err := str(gi.Notification, maxSmallText, "notification", &g.Notification); err != nil {
		return err
	}
	if err := str(gi.Ex, maxSmallText, "ex", &g.Ex); err != nil {
		return err
	}
	flag := func(p *int, lo, hi int, field string, dst *int) error {
		if p == nil {
			return nil
		}
		if *p < lo || *p > hi {
			return badArg("groupInfo." + field)
		}
		*dst = *p
		return nil
	}
	if err := flag(gi.NeedVerification, 0, 2, "needVerification", &g.NeedVerification); err != nil {
		return err
	}
	if err := flag(gi.LookMemberInfo, 0, 1, "lookMemberInfo", &g.LookMemberInfo); err != nil {
		return err
	}
	return flag(gi.ApplyMemberFriend, 0, 1, "applyMemberFriend", &g.ApplyMemberFriend)
}

// CreateGroup creates a group or channel owned by owner with the given
// members, writes its "group created" notice and tells the members. The
// gateway's CreateGroup and the HTTP /user/createGroup both use it.
func (e *Engine) CreateGroup(ctx context.Context, owner int64, p CreateGroupParams) (*GroupItem, error) {
	if p.GroupInfo.GroupName == nil || strings.TrimSpace(*p.GroupInfo.GroupName) == "" {
		return nil, httpapi.ChatError(httpapi.CodeChatGroupNameRequired)
	}
	if p.OwnerUserID != "" && p.OwnerUserID != storage.FormatID(owner) {
		return nil, badArg("ownerUserID")
	}
	now := e.now()
	g := storage.ChatGroup{ID: storage.NewID(), OwnerID: owner, CreatorID: owner, GroupType: storage.GroupTypeGroup, CreatedAt: now, UpdatedAt: now}
	if t := p.GroupInfo.GroupType; t != nil && *t != 0 {
		if *t != storage.GroupTypeGroup && *t != storage.GroupTypeChannel {
			return nil, badArg("groupInfo.groupType")
		}
		g.GroupType = *t
	}
	if err := p.GroupInfo.apply(&g); err != nil {
		return nil, err
	}
	roles := map[int64]int{owner: storage.RoleOwner}
	order := []int64{owner}
	for _, list := range []struct {
		ids  []string
		role int
	}{{p.AdminUserIDs, storage.RoleAdmin}, {p.MemberUserIDs, storage.RoleMember}} {
		for _, s := range list.ids {
			id, err := parseUserID(s)
			if err != nil {
				return nil, badArg("memberUserIDs")
			}
			if _, ok := roles[id]; !ok {
				roles[id] = list.role
				order = append(order, id)
			}
		}
	}
	if len(order) > e.cfg.GroupMaxMembers {
		return nil, httpapi.ChatError(httpapi.CodeChatGroupFull)
	}
	g.MemberCount = len(order)
	spec := convSpec{id: groupConversationID(g.ID), kind: sessionGroup, groupID: g.ID}
	var wrote []*Message
	err := e.db.Tx(ctx, func(tx storage.Tx) error {
		users, err := storage.UsersByIDs(ctx, tx, order)
		if err != nil {
			return err
		}
		if len(users) != len(order) {
			return httpapi.ChatError(httpapi.CodeChatUserNotFound)
		}
		if err := storage.CreateChatGroup(ctx, tx, g); err != nil {
			return err
		}
		w := &noticeWriter{ctx: ctx, tx: tx, spec: spec, now: now}
		var members []storage.ChatGroupMember
		for _, id := range order {
			m := storage.ChatGroupMember{GroupID: g.ID, UserID: id, RoleLevel: roles[id], JoinTime: now, JoinSource: 2}
			if id != owner {
				m.InviterID, m.OperatorID = owner, owner
			}
			if err := storage.AddChatGroupMembers(ctx, tx, m); err != nil {
				return err
			}
			if err := storage.EnterChatGroupConversation(ctx, tx, id, spec.id, g.ID, 0, now); err != nil {
				return err
			}
			members = append(members, m)
		}
		items, err := memberItems(ctx, tx, members[:min(len(members), 100)])
		if err != nil {
			return err
		}
		if err := groupNotice(ctx, tx, w, NoticeGroupCreated, g, &members[0], map[string]any{
			"memberList": items, "groupOwnerUser": items[0],
		}); err != nil {
			return err
		}
		wrote = w.wrote
		return nil
	})
	if err != nil {
		return nil, err
	}
	messagesStored.Add(float64(len(wrote)))
	e.deliver(order, &userEvent{Kind: evMsgs, Conv: spec.id, Msgs: wrote, Skip: make([]int64, len(wrote))})
	e.push(order, "OnJoinedGroupAdded", groupItem(g))
	return groupItem(g), nil
}

func callCreateGroup(c *call) (any, error) {
	var p CreateGroupParams
	if err := c.args.Object(0, "params", &p); err != nil {
		return nil, err
	}
	return c.s.e.CreateGroup(c.ctx, c.me(), p)
}

// callJoinGroup joins a group that lets anyone in, or applies to one that
// wants approval: args groupID, reqMsg, joinSource, ex.
func callJoinGroup(c *call) (any, error) {
	gid, err := c.groupIDArg(0, "groupID")
	if err != nil {
		return nil, err
	}
	reqMsg, err := c.args.OptString(1, "reqMsg")
	if err != nil {
		return nil, err
	}
	source := int64(3)
	if c.args.hasValue(2) {
		if source, err = c.args.Int(2, "joinSource"); err != nil {
			return nil, err
		}
	}
	ex, err := c.args.OptString(3, "ex")
	if err != nil {
		return nil, err
	}
	if tooLong(reqMsg, 200) || tooLong(ex, maxSmallText) || source < 0 || source > 10 {
		return nil, badArg("reqMsg")
	}
	e, me := c.s.e, c.me()
	return c.groupOp(gid, func(ctx context.Context, tx storage.Tx, w *noticeWriter) (*outcome, error) {
		g, err := liveGroup(ctx, tx, gid)
		if err != nil {
			return nil, err
		}
		if _, err := storage.ChatGroupMemberOf(ctx, tx, gid, me); err == nil {
			return nil, httpapi.ChatError(httpapi.CodeChatAlreadyMember)
		} else if !errors.Is(err, storage.ErrNotFound) {
			return nil, err
		}
		if g.NeedVerification != verifyNone {
			r := storage.ChatGroupRequest{GroupID: gid, UserID: me, ReqMsg: strings.TrimSpace(reqMsg), JoinSource: int(source), Ex: ex, CreatedAt: w.now}
			if err := storage.PutChatGroupRequest(ctx, tx, r); err != nil {
				return nil, err
			}
			admins, err := adminIDs(ctx, tx, gid)
			if err != nil {
				return nil, err
			}
			u, err := storage.UserByID(ctx, tx, me)
			if err != nil {
				return nil, err
			}
			return &outcome{pushes: []pushTo{{users: append(admins, me), event: "OnGroupApplicationAdded", data: groupRequestItem(r, g, u)}}}, nil
		}
		added, err := addMembers(ctx, tx, w, &g, []int64{me}, storage.RoleMember, int(source), 0, int64(e.cfg.GroupMaxMembers))
		if err != nil {
			return nil, err
		}
		items, err := memberItems(ctx, tx, added)
		if err != nil {
			return nil, err
		}
		if err := groupNotice(ctx, tx, w, NoticeMemberEnter, g, nil, map[string]any{"entrantUser": items[0]}); err != nil {
			return nil, err
		}
		pushes, err := joinedPushes(ctx, tx, g, added)
		return &outcome{members: true, pushes: pushes}, err
	})
}

// callInvite adds users to a group; where invitations need approval
// (needVerification 1) a member's invitation becomes applications, while
// the owner's and admins' go straight in: args groupID, reason, userIDList.
func callInvite(c *call) (any, error) {
	gid, err := c.groupIDArg(0, "groupID")
	if err != nil {
		return nil, err
	}
	reason, err := c.args.OptString(1, "reason")
	if err != nil {
		return nil, err
	}
	ids, err := userIDsArg(c, 2, "userIDList")
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 || tooLong(reason, 200) {
		return nil, badArg("userIDList")
	}
	e, me := c.s.e, c.me()
	return c.groupOp(gid, func(ctx context.Context, tx storage.Tx, w *noticeWriter) (*outcome, error) {
		g, err := liveGroup(ctx, tx, gid)
		if err != nil {
			return nil, err
		}
		inviter, err := acting(ctx, tx, gid, me, storage.RoleMember)
		if err != nil {
			return nil, err
		}
		users, err := storage.UsersByIDs(ctx, tx, ids)
		if err != nil {
			return nil, err
		}
		if len(users) != len(ids) {
			return nil, httpapi.ChatError(httpapi.CodeChatUserNotFound)
		}
		existing, err := storage.ChatGroupMembersByIDs(ctx, tx, gid, ids)
		if err != nil {
			return nil, err
		}
		if len(existing) > 0 {
			return nil, httpapi.ChatError(httpapi.CodeChatAlreadyMember)
		}
		if g.NeedVerification == verifyAll && inviter.RoleLevel < storage.RoleAdmin {
			admins, err := adminIDs(ctx, tx, gid)
			if err != nil {
				return nil, err
			}
			var pushes []pushTo
			for _, u := range users {
				r := storage.ChatGroupRequest{GroupID: gid, UserID: u.ID, ReqMsg: reason, JoinSource: 2, InviterID: me, CreatedAt: w.now}
				if err := storage.PutChatGroupRequest(ctx, tx, r); err != nil {
					return nil, err
				}
				pushes = append(pushes, pushTo{users: append(admins, u.ID), event: "OnGroupApplicationAdded", data: groupRequestItem(r, g, u)})
			}
			return &outcome{pushes: pushes}, nil
		}
		added, err := addMembers(ctx, tx, w, &g, ids, storage.RoleMember, 2, me, int64(e.cfg.GroupMaxMembers))
		if err != nil {
			return nil, err
		}
		items, err := memberItems(ctx, tx, added)
		if err != nil {
			return nil, err
		}
		if err := groupNotice(ctx, tx, w, NoticeMemberInvited, g, &inviter, map[string]any{"invitedUserList": items, "reason": reason}); err != nil {
			return nil, err
		}
		pushes, err := joinedPushes(ctx, tx, g, added)
		return &outcome{members: true, pushes: pushes}, err
	})
}

// removeMembers takes users out of a group after the notice of their
// leaving was written (they see it, and nothing after it).
func removeMembers(ctx context.Context, tx storage.Tx, w *noticeWriter, g *storage.ChatGroup, gone []storage.ChatGroupMember) (*outcome, error) {
	ids := make([]int64, len(gone))
	for i, m := range gone {
		ids[i] = m.UserID
	}
	if _, err := storage.RemoveChatGroupMembers(ctx, tx, g.ID, ids); err != nil {
		return nil, err
	}
	if err := storage.EndChatGroupConversation(ctx, tx, ids, w.spec.id, w.maxSeq); err != nil {
		return nil, err
	}
	g.MemberCount -= len(gone)
	g.UpdatedAt = w.now
	if err := storage.UpdateChatGroup(ctx, tx, *g); err != nil {
		return nil, err
	}
	items, err := memberItems(ctx, tx, gone)
	if err != nil {
		return nil, err
	}
	out := &outcome{members: true, extra: ids, changed: ids,
		pushes: []pushTo{{users: ids, event: "OnJoinedGroupDeleted", data: groupItem(*g)}}}
	for _, it := range items {
		out.pushes = append(out.pushes, pushTo{members: true, event: "OnGroupMemberDeleted", data: it})
	}
	out.pushes = append(out.pushes, pushTo{members: true, event: "OnGroupInfoChanged", data: groupItem(*g)})
	return out, nil
}

// callQuitGroup leaves a group; the owner must transfer or dismiss first.
func callQuitGroup(c *call) (any, error) {
	gid, err := c.groupIDArg(0, "groupID")
	if err != nil {
		return nil, err
	}
	me := c.me()
	return c.groupOp(gid, func(ctx context.Context, tx storage.Tx, w *noticeWriter) (*outcome, error) {
		g, err := liveGroup(ctx, tx, gid)
		if err != nil {
			return nil, err
		}
		m, err := acting(ctx, tx, gid, me, storage.RoleMember)
		if err != nil {
			return nil, err
		}
		if m.RoleLevel == storage.RoleOwner {
			return nil, httpapi.ChatError(httpapi.CodeChatOwnerCannotQuit)
		}
		item, err := memberItemOf(ctx, tx, m)
		if err != nil {
			return nil, err
		}
		if err := groupNotice(ctx, tx, w, NoticeMemberQuit, g, nil, map[string]any{"quitUser": item}); err != nil {
			return nil, err
		}
		return removeMembers(ctx, tx, w, &g, []storage.ChatGroupMember{m})
	})
}

// DismissGroup ends a group; only its owner may. The gateway's
// DismissGroup and the HTTP /user/dismissGroup both use it; reply receives
// the answer.
func (e *Engine) DismissGroup(gid, owner int64, reply replyTo) {
	e.tellGroup(gid, &opRequest{item: &opItem{reply: reply, run: func(ctx context.Context, tx storage.Tx, w *noticeWriter) (*outcome, error) {
		g, err := liveGroup(ctx, tx, gid)
		if err != nil {
			return nil, err
		}
		m, err := acting(ctx, tx, gid, owner, storage.RoleOwner)
		if err != nil {
			return nil, err
		}
		g.Status, g.UpdatedAt = storage.GroupDismissed, w.now
		if err := storage.UpdateChatGroup(ctx, tx, g); err != nil {
			return nil, err
		}
		if err := groupNotice(ctx, tx, w, NoticeGroupDismissed, g, &m, nil); err != nil {
			return nil, err
		}
		return &outcome{dismissed: true, pushes: []pushTo{{members: true, event: "OnGroupDismissed", data: groupItem(g)}}}, nil
	}}})
}

func callDismissGroup(c *call) (any, error) {
	gid, err := c.groupIDArg(0, "groupID")
	if err != nil {
		return nil, err
	}
	c.s.e.DismissGroup(gid, c.me(), c.replyTo())
	return nil, errLater
}

// callKick removes members of lower role; owner and admins only: args
// groupID, reason, userIDList.
func callKick(c *call) (any, error) {
	gid, err := c.groupIDArg(0, "groupID")
	if err != nil {
		return nil, err
	}
	reason, err := c.args.OptString(1, "reason")
	if err != nil {
		return nil, err
	}
	ids, err := userIDsArg(c, 2, "userIDList")
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 || tooLong(reason, 200) {
		return nil, badArg("userIDList")
	}
	me := c.me()
	return c.groupOp(gid, func(ctx context.Context, tx storage.Tx, w *noticeWriter) (*outcome, error) {
		g, err := liveGroup(ctx, tx, gid)
		if err != nil {
			return nil, err
		}
		actor, err := acting(ctx, tx, gid, me, storage.RoleAdmin)
		if err != nil {
			return nil, err
		}
		var gone []storage.ChatGroupMember
		for _, id := range ids {
			m, err := target(ctx, tx, gid, id, actor)
			if err != nil {
				return nil, err
			}
			gone = append(gone, m)
		}
		items, err := memberItems(ctx, tx, gone)
		if err != nil {
			return nil, err
		}
		if err := groupNotice(ctx, tx, w, NoticeMemberKicked, g, &actor, map[string]any{"kickedUserList": items, "reason": reason}); err != nil {
			return nil, err
		}
		return removeMembers(ctx, tx, w, &g, gone)
	})
}

// callMuteMember mutes a member of lower role for mutedSeconds (0
// unmutes); owner and admins only. The unmute is announced when the time
// runs out: args groupID, userID, mutedSeconds.
func callMuteMember(c *call) (any, error) {
	gid, err := c.groupIDArg(0, "groupID")
	if err != nil {
		return nil, err
	}
	uid, err := userIDArg(c, 1, "userID")
	if err != nil {
		return nil, err
	}
	secs, err := c.args.Int(2, "mutedSeconds")
	if err != nil {
		return nil, err
	}
	e := c.s.e
	if secs < 0 || secs > e.cfg.MaxMuteSeconds {
		return nil, httpapi.ChatError(httpapi.CodeChatMuteRange, "max", e.cfg.MaxMuteSeconds)
	}
	me := c.me()
	return c.groupOp(gid, func(ctx context.Context, tx storage.Tx, w *noticeWriter) (*outcome, error) {
		g, err := liveGroup(ctx, tx, gid)
		if err != nil {
			return nil, err
		}
		actor, err := acting(ctx, tx, gid, me, storage.RoleAdmin)
		if err != nil {
			return nil, err
		}
		m, err := target(ctx, tx, gid, uid, actor)
		if err != nil {
			return nil, err
		}
		m.MutedUntil, m.OperatorID = 0, me
		kind := NoticeMemberUnmuted
		if secs > 0 {
			m.MutedUntil, kind = w.now+secs*1000, NoticeMemberMuted
		}
		if err := storage.UpdateChatGroupMember(ctx, tx, m); err != nil {
			return nil, err
		}
		item, err := memberItemOf(ctx, tx, m)
		if err != nil {
			return nil, err
		}
		fields := map[string]any{"mutedUser": item}
		if secs > 0 {
			fields["mutedSeconds"] = secs
		}
		if err := groupNotice(ctx, tx, w, kind, g, &actor, fields); err != nil {
			return nil, err
		}
		return &outcome{
			mutes:  []muteTime{{user: uid, deadline: m.MutedUntil}},
			pushes: []pushTo{{members: true, event: "OnGroupMemberInfoChanged", data: item}},
		}, nil
	})
}

// unmuteOp announces that a member's mute ran out. The store decides who
// announces (a node that restarted, or another node), so it happens once.
func (e *Engine) unmuteOp(gid, uid, deadline int64) *opItem {
	return &opItem{run: func(ctx context.Context, tx storage.Tx, w *noticeWriter) (*outcome, error) {
		ok, err := storage.ClearExpiredChatMute(ctx, tx, gid, uid, deadline, w.now)
		if err != nil || !ok {
			return &outcome{}, err
		}
		g, err := storage.ChatGroupByID(ctx, tx, gid)
		if err != nil {
			return nil, err
		}
		m, err := storage.ChatGroupMemberOf(ctx, tx, gid, uid)
		if err != nil {
			return nil, err
		}
		item, err := memberItemOf(ctx, tx, m)
		if err != nil {
			return nil, err
		}
		if err := groupNotice(ctx, tx, w, NoticeMemberUnmuted, g, nil, map[string]any{"mutedUser": item}); err != nil {
			return nil, err
		}
		return &outcome{pushes: []pushTo{{members: true, event: "OnGroupMemberInfoChanged", data: item}}}, nil
	}}
}

// callMuteGroup mutes or unmutes the whole group (only owner and admins
// speak while muted): args groupID, isMute.
func callMuteGroup(c *call) (any, error) {
	gid, err := c.groupIDArg(0, "groupID")
	if err != nil {
		return nil, err
	}
	mute, err := c.args.Bool(1, "isMute")
	if err != nil {
		return nil, err
	}
	me := c.me()
	return c.groupOp(gid, func(ctx context.Context, tx storage.Tx, w *noticeWriter) (*outcome, error) {
		g, err := liveGroup(ctx, tx, gid)
		if err != nil {
			return nil, err
		}
		actor, err := acting(ctx, tx, gid, me, storage.RoleAdmin)
		if err != nil {
			return nil, err
		}
		g.Status, g.UpdatedAt = storage.GroupNormal, w.now
		kind := NoticeGroupUnmuted
		if mute {
			g.Status, kind = storage.GroupMuted, NoticeGroupMuted
		}
		if err := storage.UpdateChatGroup(ctx, tx, g); err != nil {
			return nil, err
		}
		if err := groupNotice(ctx, tx, w, kind, g, &actor, nil); err != nil {
			return nil, err
		}
		return &outcome{pushes: []pushTo{{members: true, event: "OnGroupInfoChanged", data: groupItem(g)}}}, nil
	})
}

// callTransferOwner hands the group to another member; the old owner
// becomes a member. Owner only: args groupID, newOwnerUserID.
func callTransferOwner(c *call) (any, error) {
	gid, err := c.groupIDArg(0, "groupID")
	if err != nil {
		return nil, err
	}
	uid, err := userIDArg(c, 1, "newOwnerUserID")
	if err != nil {
		return nil, err
	}
	me := c.me()
	return c.groupOp(gid, func(ctx context.Context, tx storage.Tx, w *noticeWriter) (*outcome, error) {
		g, err := liveGroup(ctx, tx, gid)
		if err != nil {
			return nil, err
		}
		old, err := acting(ctx, tx, gid, me, storage.RoleOwner)
		if err != nil {
			return nil, err
		}
		next, err := target(ctx, tx, gid, uid, old)
		if err != nil {
			return nil, err
		}
		old.RoleLevel, next.RoleLevel, next.MutedUntil = storage.RoleMember, storage.RoleOwner, 0
		g.OwnerID, g.UpdatedAt = uid, w.now
		for _, m := range []storage.ChatGroupMember{old, next} {
			if err := storage.UpdateChatGroupMember(ctx, tx, m); err != nil {
				return nil, err
			}
		}
		if err := storage.UpdateChatGroup(ctx, tx, g); err != nil {
			return nil, err
		}
		items, err := memberItems(ctx, tx, []storage.ChatGroupMember{old, next})
		if err != nil {
			return nil, err
		}
		if err := groupNotice(ctx, tx, w, NoticeOwnerTransferred, g, &old, map[string]any{"newGroupOwner": items[1]}); err != nil {
			return nil, err
		}
		return &outcome{mutes: []muteTime{{user: uid}}, pushes: []pushTo{
			{members: true, event: "OnGroupMemberInfoChanged", data: items[0]},
			{members: true, event: "OnGroupMemberInfoChanged", data: items[1]},
			{members: true, event: "OnGroupInfoChanged", data: groupItem(g)},
		}}, nil
	})
}

// callSetMemberInfo sets a member's role (owner only: admin 60 or member
// 20) or group nickname, face and ex (the member, or owner and admins for
// members of lower role).
func callSetMemberInfo(c *call) (any, error) {
	var p struct {
		GroupID   string  `json:"groupID"`
		UserID    string  `json:"userID"`
		Nickname  *string `json:"nickname"`
		FaceURL   *string `json:"faceURL"`
		RoleLevel *int    `json:"roleLevel"`
		Ex        *string `json:"ex"`
	}
	if err := c.args.Object(0, "params", &p); err != nil {
		return nil, err
	}
	gid, err := parseUserID(p.GroupID)
	if err != nil {
		return nil, badArg("params.groupID")
	}
	uid, err := parseUserID(p.UserID)
	if err != nil {
		return nil, badArg("params.userID")
	}
	if p.RoleLevel != nil && *p.RoleLevel != storage.RoleMember && *p.RoleLevel != storage.RoleAdmin {
		return nil, badArg("params.roleLevel")
	}
	for _, f := range []*string{p.Nickname, p.FaceURL, p.Ex} {
		if f != nil && tooLong(*f, maxSmallText) {
			return nil, badArg("params")
		}
	}
	me := c.me()
	return c.groupOp(gid, func(ctx context.Context, tx storage.Tx, w *noticeWriter) (*outcome, error) {
		g, err := liveGroup(ctx, tx, gid)
		if err != nil {
			return nil, err
		}
		minRole := storage.RoleMember
		if p.RoleLevel != nil {
			minRole = storage.RoleOwner
		} else if uid != me {
			minRole = storage.RoleAdmin
		}
		actor, err := acting(ctx, tx, gid, me, minRole)
		if err != nil {
			return nil, err
		}
		m := actor
		if uid != me || p.RoleLevel != nil {
			if m, err = target(ctx, tx, gid, uid, actor); err != nil {
				return nil, err
			}
		}
		kind := NoticeMemberInfoSet
		if p.RoleLevel != nil && *p.RoleLevel != m.RoleLevel {
			m.RoleLevel, kind = *p.RoleLevel, NoticeMemberSetOrdinary
			if *p.RoleLevel == storage.RoleAdmin {
				kind = NoticeMemberSetAdmin
			}
		}
		if p.Nickname != nil {
			m.Nickname = strings.TrimSpace(*p.Nickname)
		}
		if p.FaceURL != nil {
			m.FaceURL = strings.TrimSpace(*p.FaceURL)
		}
		if p.Ex != nil {
			m.Ex = *p.Ex
		}
		m.OperatorID = me
		if err := storage.UpdateChatGroupMember(ctx, tx, m); err != nil {
			return nil, err
		}
		item, err := memberItemOf(ctx, tx, m)
		if err != nil {
			return nil, err
		}
		if err := groupNotice(ctx, tx, w, kind, g, &actor, map[string]any{"changedUser": item}); err != nil {
			return nil, err
		}
		return &outcome{pushes: []pushTo{{members: true, event: "OnGroupMemberInfoChanged", data: item}}}, nil
	})
}

// callSetGroupInfo changes name, announcement, introduction, face,
// verification and ex; owner and admins only.
func callSetGroupInfo(c *call) (any, error) {
	var p struct {
		GroupInfo
		GroupID string `json:"groupID"`
	}
	if err := c.args.Object(0, "params", &p); err != nil {
		return nil, err
	}
	gid, err := parseUserID(p.GroupID)
	if err != nil {
		return nil, badArg("params.groupID")
	}
	if p.GroupType != nil {
		return nil, badArg("params.groupType") // a group does not become a channel
	}
	me := c.me()
	return c.groupOp(gid, func(ctx context.Context, tx storage.Tx, w *noticeWriter) (*outcome, error) {
		g, err := liveGroup(ctx, tx, gid)
		if err != nil {
			return nil, err
		}
		actor, err := acting(ctx, tx, gid, me, storage.RoleAdmin)
		if err != nil {
			return nil, err
		}
		before := g
		if err := p.GroupInfo.apply(&g); err != nil {
			return nil, err
		}
		g.UpdatedAt = w.now
		if g.Notification != before.Notification {
			g.NotificationUserID, g.NotificationUpdateTime = me, w.now
		}
		if err := storage.UpdateChatGroup(ctx, tx, g); err != nil {
			return nil, err
		}
		kinds := []int{}
		if g.Name != before.Name {
			kinds = append(kinds, NoticeGroupNameSet)
		}
		if g.Notification != before.Notification {
			kinds = append(kinds, NoticeGroupAnnouncement)
		}
		if g.FaceURL != before.FaceURL || g.Introduction != before.Introduction || g.NeedVerification != before.NeedVerification ||
			g.LookMemberInfo != before.LookMemberInfo || g.ApplyMemberFriend != before.ApplyMemberFriend || g.Ex != before.Ex {
			kinds = append(kinds, NoticeGroupInfoSet)
		}
		for _, k := range kinds {
			if err := groupNotice(ctx, tx, w, k, g, &actor, nil); err != nil {
				return nil, err
			}
		}
		return &outcome{pushes: []pushTo{{members: true, event: "OnGroupInfoChanged", data: groupItem(g)}}}, nil
	})
}

func (c *call) groupRequestArgs() (int64, int64, string, error) {
	gid, err := c.groupIDArg(0, "groupID")
	if err != nil {
		return 0, 0, "", err
	}
	uid, err := userIDArg(c, 1, "fromUserID")
	if err != nil {
		return 0, 0, "", err
	}
	msg, err := c.args.OptString(2, "handleMsg")
	if err != nil || tooLong(msg, 200) {
		return 0, 0, "", badArg("handleMsg")
	}
	return gid, uid, strings.TrimSpace(msg), nil
}

// callAcceptGroupApplication lets an applicant in; owner and admins only.
func callAcceptGroupApplication(c *call) (any, error) {
	gid, uid, msg, err := c.groupRequestArgs()
	if err != nil {
		return nil, err
	}
	e, me := c.s.e, c.me()
	return c.groupOp(gid, func(ctx context.Context, tx storage.Tx, w *noticeWriter) (*outcome, error) {
		h, err := handleGroupApplication(ctx, tx, w, gid, uid, me, storage.FriendAccepted, msg)
		if err != nil {
			return nil, err
		}
		g := h.group
		added, err := addMembers(ctx, tx, w, &g, []int64{uid}, storage.RoleMember, h.request.JoinSource, h.request.InviterID, int64(e.cfg.GroupMaxMembers))
		if err != nil {
			return nil, err
		}
		items, err := memberItems(ctx, tx, added)
		if err != nil {
			return nil, err
		}
		if err := groupNotice(ctx, tx, w, NoticeMemberEnter, g, nil, map[string]any{"entrantUser": items[0]}); err != nil {
			return nil, err
		}
		pushes, err := joinedPushes(ctx, tx, g, added)
		if err != nil {
			return nil, err
		}
		pushes = append(pushes, h.push("OnGroupApplicationAccepted"))
		return &outcome{members: true, pushes: pushes}, nil
	})
}

func callRefuseGroupApplication(c *call) (any, error) {
	gid, uid, msg, err := c.groupRequestArgs()
	if err != nil {
		return nil, err
	}
	me := c.me()
	return c.groupOp(gid, func(ctx context.Context, tx storage.Tx, w *noticeWriter) (*outcome, error) {
		h, err := handleGroupApplication(ctx, tx, w, gid, uid, me, storage.FriendRefused, msg)
		if err != nil {
			return nil, err
		}
		return &outcome{pushes: []pushTo{h.push("OnGroupApplicationRejected")}}, nil
	})
}

// handledApplication is a group application just accepted or refused.
type handledApplication struct {
	group   storage.ChatGroup
	request storage.ChatGroupRequest
	user    storage.User
	admins  []int64
}

// push tells the owner, the admins and the applicant how it was handled.
func (h handledApplication) push(event string) pushTo {
	return pushTo{users: append(h.admins, h.user.ID), event: event, data: groupRequestItem(h.request, h.group, h.user)}
}

// handleGroupApplication records the answer (state) of owner or admin me
// to uid's application to group gid.
func handleGroupApplication(ctx context.Context, tx storage.Tx, w *noticeWriter, gid, uid, me int64, state int, msg string) (handledApplication, error) {
	var h handledApplication
	g, err := liveGroup(ctx, tx, gid)
	if err != nil {
		return h, err
	}
	if _, err := acting(ctx, tx, gid, me, storage.RoleAdmin); err != nil {
		return h, err
	}
	if err := storage.HandleChatGroupRequest(ctx, tx, gid, uid, state, msg, me, w.now); err != nil {
		return h, storeErr(err, httpapi.CodeChatNoApplication)
	}
	r, err := storage.ChatGroupRequestOf(ctx, tx, gid, uid)
	if err != nil {
		return h, err
	}
	u, err := existingUser(ctx, tx, uid)
	if err != nil {
		return h, err
	}
	admins, err := adminIDs(ctx, tx, gid)
	if err != nil {
		return h, err
	}
	return handledApplication{group: g, request: r, user: u, admins: admins}, nil
}

func groupItems(gs []storage.ChatGroup) []*GroupItem {
	out := make([]*GroupItem, len(gs))
	for i, g := range gs {
		out[i] = groupItem(g)
	}
	return out
}

func callJoinedGroups(c *call) (any, error) {
	gs, err := storage.UserChatGroups(c.ctx, c.s.e.db, c.me(), 0)
	if err != nil {
		return nil, err
	}
	return groupItems(gs), nil
}

// callGroupsInfo returns the public info of groups by id (dismissed ones
// show status 2).
func callGroupsInfo(c *call) (any, error) {
	ids, err := userIDsArg(c, 0, "groupIDList")
	if err != nil {
		return nil, err
	}
	gs, err := storage.ChatGroupsByIDs(c.ctx, c.s.e.db, ids)
	if err != nil {
		return nil, err
	}
	return groupItems(gs), nil
}

// callSearchGroups searches the caller's groups by id or name.
func callSearchGroups(c *call) (any, error) {
	var p struct {
		KeywordList       []string `json:"keywordList"`
		IsSearchGroupID   bool     `json:"isSearchGroupID"`
		IsSearchGroupName bool     `json:"isSearchGroupName"`
	}
	if err := c.args.Object(0, "params", &p); err != nil {
		return nil, err
	}
	if len(p.KeywordList) == 0 {
		return nil, badArg("params.keywordList")
	}
	gs, err := storage.UserChatGroups(c.ctx, c.s.e.db, c.me(), 0)
	if err != nil {
		return nil, err
	}
	out := []*GroupItem{}
	for _, g := range gs {
		for _, kw := range p.KeywordList {
			kw = strings.ToLower(strings.TrimSpace(kw))
			if kw != "" && ((p.IsSearchGroupID && strings.Contains(storage.FormatID(g.ID), kw)) ||
				(p.IsSearchGroupName && strings.Contains(strings.ToLower(g.Name), kw))) {
				out = append(out, groupItem(g))
				break
			}
		}
	}
	return out, nil
}

// readableMembers loads a group's members for a member of it.
func (c *call) readableMembers(gid int64) ([]storage.ChatGroupMember, error) {
	e := c.s.e
	g, err := storage.ChatGroupByID(c.ctx, e.db, gid)
	if err != nil {
		return nil, storeErr(err, httpapi.CodeChatGroupNotFound)
	}
	if g.Status == storage.GroupDismissed {
		return nil, httpapi.ChatError(httpapi.CodeChatGroupDismissed)
	}
	ms, err := storage.ChatGroupMembers(c.ctx, e.db, gid)
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		if m.UserID == c.me() {
			return ms, nil
		}
	}
	return nil, httpapi.ChatError(httpapi.CodeChatNotMember)
}

// callGroupMembers pages members: args groupID, filter (0 all, 1 owner,
// 2 admins, 3 members, 4 admins and members, 5 owner and admins), offset,
// count.
func callGroupMembers(c *call) (any, error) {
	gid, err := c.groupIDArg(0, "groupID")
	if err != nil {
		return nil, err
	}
	filter, err := c.args.Int(1, "filter")
	if err != nil || filter < 0 || filter > 5 {
		return nil, badArg("filter")
	}
	offset, err := c.args.Int(2, "offset")
	if err != nil || offset < 0 {
		return nil, badArg("offset")
	}
	count, err := c.args.Int(3, "count")
	if err != nil || count <= 0 || count > 2000 {
		return nil, badArg("count")
	}
	ms, err := c.readableMembers(gid)
	if err != nil {
		return nil, err
	}
	keep := func(role int) bool {
		switch filter {
		case 1:
			return role == storage.RoleOwner
		case 2:
			return role == storage.RoleAdmin
		case 3:
			return role == storage.RoleMember
		case 4:
			return role != storage.RoleOwner
		case 5:
			return role != storage.RoleMember
		}
		return true
	}
	sel := ms[:0]
	for _, m := range ms {
		if keep(m.RoleLevel) {
			sel = append(sel, m)
		}
	}
	if offset >= int64(len(sel)) {
		return []*GroupMemberItem{}, nil
	}
	return memberItems(c.ctx, c.s.e.db, sel[offset:min(int64(len(sel)), offset+count)])
}

func callGroupAdmins(c *call) (any, error) {
	gid, err := c.groupIDArg(0, "groupID")
	if err != nil {
		return nil, err
	}
	ms, err := c.readableMembers(gid)
	if err != nil {
		return nil, err
	}
	sel := ms[:0]
	for _, m := range ms {
		if m.RoleLevel >= storage.RoleAdmin {
			sel = append(sel, m)
		}
	}
	return memberItems(c.ctx, c.s.e.db, sel)
}

func callSpecifiedMembers(c *call) (any, error) {
	gid, err := c.groupIDArg(0, "groupID")
	if err != nil {
		return nil, err
	}
	ids, err := userIDsArg(c, 1, "userIDList")
	if err != nil {
		return nil, err
	}
	ms, err := c.readableMembers(gid)
	if err != nil {
		return nil, err
	}
	want := map[int64]bool{}
	for _, id := range ids {
		want[id] = true
	}
	sel := ms[:0]
	for _, m := range ms {
		if want[m.UserID] {
			sel = append(sel, m)
		}
	}
	return memberItems(c.ctx, c.s.e.db, sel)
}

func callSearchMembers(c *call) (any, error) {
	var p struct {
		GroupID                string   `json:"groupID"`
		KeywordList            []string `json:"keywordList"`
		IsSearchUserID         bool     `json:"isSearchUserID"`
		IsSearchMemberNickname bool     `json:"isSearchMemberNickname"`
		Offset                 int      `json:"offset"`
		Count                  int      `json:"count"`
	}
	if err := c.args.Object(0, "params", &p); err != nil {
		return nil, err
	}
	gid, err := parseUserID(p.GroupID)
	if err != nil {
		return nil, badArg("params.groupID")
	}
	if p.Count <= 0 || p.Count > 2000 || p.Offset < 0 {
		return nil, badArg("params.count")
	}
	ms, err := c.readableMembers(gid)
	if err != nil {
		return nil, err
	}
	items, err := memberItems(c.ctx, c.s.e.db, ms)
	if err != nil {
		return nil, err
	}
	out := []*GroupMemberItem{}
	for _, it := range items {
		for _, kw := range p.KeywordList {
			kw = strings.ToLower(strings.TrimSpace(kw))
			if kw != "" && ((p.IsSearchUserID && strings.Contains(it.UserID, kw)) ||
				(p.IsSearchMemberNickname && strings.Contains(strings.ToLower(it.Nickname), kw))) {
				out = append(out, it)
				break
			}
		}
	}
	if p.Offset >= len(out) {
		return []*GroupMemberItem{}, nil
	}
	return out[p.Offset:min(len(out), p.Offset+p.Count)], nil
}

// callMembersByJoinTime: args groupID, offset, count, joinTimeBegin,
// joinTimeEnd, filterUserIDList (excluded).
func callMembersByJoinTime(c *call) (any, error) {
	gid, err := c.groupIDArg(0, "groupID")
	if err != nil {
		return nil, err
	}
	offset, err := c.args.Int(1, "offset")
	if err != nil || offset < 0 {
		return nil, badArg("offset")
	}
	count, err := c.args.Int(2, "count")
	if err != nil || count <= 0 || count > 2000 {
		return nil, badArg("count")
	}
	begin, err := c.args.Int(3, "joinTimeBegin")
	if err != nil {
		return nil, err
	}
	end, err := c.args.Int(4, "joinTimeEnd")
	if err != nil {
		return nil, err
	}
	var exclude []int64
	if c.args.hasValue(5) {
		if exclude, err = userIDsArg(c, 5, "filterUserIDList"); err != nil {
			return nil, err
		}
	}
	ms, err := c.readableMembers(gid)
	if err != nil {
		return nil, err
	}
	skip := map[int64]bool{}
	for _, id := range exclude {
		skip[id] = true
	}
	sel := ms[:0]
	for _, m := range ms {
		if !skip[m.UserID] && m.JoinTime >= begin && (end <= 0 || m.JoinTime <= end) {
			sel = append(sel, m)
		}
	}
	sort.SliceStable(sel, func(i, j int) bool { return sel[i].JoinTime < sel[j].JoinTime })
	if offset >= int64(len(sel)) {
		return []*GroupMemberItem{}, nil
	}
	return memberItems(c.ctx, c.s.e.db, sel[offset:min(int64(len(sel)), offset+count)])
}

func (c *call) groupRequestItems(list []storage.ChatGroupRequest) ([]GroupApplicationItem, error) {
	e := c.s.e
	var gids, uids []int64
	for _, r := range list {
		gids = append(gids, r.GroupID)
		uids = append(uids, r.UserID)
	}
	gs, err := storage.ChatGroupsByIDs(c.ctx, e.db, gids)
	if err != nil {
		return nil, err
	}
	groups := map[int64]storage.ChatGroup{}
	for _, g := range gs {
		groups[g.ID] = g
	}
	users, err := e.userMap(c.ctx, e.db, uids)
	if err != nil {
		return nil, err
	}
	out := make([]GroupApplicationItem, 0, len(list))
	for _, r := range list {
		out = append(out, groupRequestItem(r, groups[r.GroupID], users[r.UserID]))
	}
	return out, nil
}

func callGroupRequestsToMe(c *call) (any, error) {
	list, err := storage.ChatGroupRequestsForAdmin(c.ctx, c.s.e.db, c.me())
	if err != nil {
		return nil, err
	}
	return c.groupRequestItems(list)
}

func callGroupRequestsByMe(c *call) (any, error) {
	list, err := storage.ChatGroupRequestsByUser(c.ctx, c.s.e.db, c.me())
	if err != nil {
		return nil, err
	}
	return c.groupRequestItems(list)
}
