package chat

// Group changes: each runs on the group's actor, in the transaction of its
// batch, and answers the call when committed.

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"kj/internal/apierr"
	"kj/internal/names"
	"kj/storage"
)

// apply validates and sets on g the given fields, set by the user by (a
// new face must be one they uploaded).
func (gi GroupInfo) apply(g *storage.ChatGroup, by int64) error {
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
		return apierr.ChatError(apierr.CodeChatGroupNameRequired)
	}
	if gi.GroupName != nil && names.Hidden(*gi.GroupName) {
		return badArg("groupInfo.groupName")
	}
	if err := str(gi.GroupName, 64, "groupName", &g.Name); err != nil {
		return err
	}
	if gi.FaceURL != nil {
		if err := checkAvatar(strings.TrimSpace(*gi.FaceURL), g.FaceURL, by); err != nil {
			return err
		}
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
		return nil, apierr.ChatError(apierr.CodeChatGroupNameRequired)
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
	if err := p.GroupInfo.apply(&g, owner); err != nil {
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
		return nil, apierr.ChatError(apierr.CodeChatGroupFull)
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
			return apierr.ChatError(apierr.CodeChatUserNotFound)
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
	return c.s.e.CreateGroup(c.ctx(), c.me(), p)
}

// callJoinGroup joins a group that lets anyone in, or applies to one that
// wants approval: args groupID, reqMsg, joinSource, ex.
func callJoinGroup(c *call) (any, error) {
	a := c.argReader()
	gid, reqMsg := a.ID(0, "groupID"), a.OptString(1, "reqMsg")
	source := int64(3)
	if a.has(2) {
		source = a.Int(2, "joinSource")
	}
	ex := a.OptString(3, "ex")
	a.check(!tooLong(reqMsg, 200) && !tooLong(ex, maxSmallText) && source >= 0 && source <= 10, "reqMsg")
	if a.err != nil {
		return nil, a.err
	}
	e, me := c.s.e, c.me()
	return c.groupOp(gid, func(ctx context.Context, tx storage.Tx, w *noticeWriter) (*outcome, error) {
		g, err := liveGroup(ctx, tx, gid)
		if err != nil {
			return nil, err
		}
		if _, err := storage.ChatGroupMemberOf(ctx, tx, gid, me); err == nil {
			return nil, apierr.ChatError(apierr.CodeChatAlreadyMember)
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
		pushes, err := e.enterGroup(ctx, tx, w, &g, me, int(source), 0)
		return &outcome{members: true, pushes: pushes}, err
	})
}

// groupUsersArgs reads the arguments invite and kick share: groupID,
// reason (200 characters at most) and a non-empty userIDList.
func groupUsersArgs(c *call) (gid int64, reason string, ids []int64, err error) {
	a := c.argReader()
	gid, reason, ids = a.ID(0, "groupID"), a.OptString(1, "reason"), a.IDs(2, "userIDList")
	a.check(len(ids) > 0 && !tooLong(reason, 200), "userIDList")
	return gid, reason, ids, a.err
}

// callInvite adds users to a group; where invitations need approval
// (needVerification 1) a member's invitation becomes applications, while
// the owner's and admins' go straight in: args groupID, reason, userIDList.
func callInvite(c *call) (any, error) {
	gid, reason, ids, err := groupUsersArgs(c)
	if err != nil {
		return nil, err
	}
	e, me := c.s.e, c.me()
	return c.groupAction(gid, storage.RoleMember, func(ctx context.Context, tx storage.Tx, w *noticeWriter, g storage.ChatGroup, inviter storage.ChatGroupMember) (*outcome, error) {
		users, err := storage.UsersByIDs(ctx, tx, ids)
		if err != nil {
			return nil, err
		}
		if len(users) != len(ids) {
			return nil, apierr.ChatError(apierr.CodeChatUserNotFound)
		}
		existing, err := storage.ChatGroupMembersByIDs(ctx, tx, gid, ids)
		if err != nil {
			return nil, err
		}
		if len(existing) > 0 {
			return nil, apierr.ChatError(apierr.CodeChatAlreadyMember)
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
	gid, err := c.idArg(0, "groupID")
	if err != nil {
		return nil, err
	}
	return c.groupAction(gid, storage.RoleMember, func(ctx context.Context, tx storage.Tx, w *noticeWriter, g storage.ChatGroup, m storage.ChatGroupMember) (*outcome, error) {
		if m.RoleLevel == storage.RoleOwner {
			return nil, apierr.ChatError(apierr.CodeChatOwnerCannotQuit)
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

// DismissGroupAndWait dismisses a group through its actor and waits for the
// answer, for the HTTP route /user/dismissGroup (the socket's call answers
// asynchronously instead).
func (e *Engine) DismissGroupAndWait(ctx context.Context, owner int64, groupID string) error {
	gid, err := parseUserID(groupID)
	if err != nil {
		return apierr.Invalid("groupID")
	}
	timeout := 15 * time.Second
	if dl, ok := ctx.Deadline(); ok {
		timeout = time.Until(dl)
	}
	f := actor.NewFuture(e.system, timeout)
	e.DismissGroup(gid, owner, replyTo{pid: f.PID(), name: "DismissGroup"})
	res, err := f.Result()
	if err != nil {
		return errBusy()
	}
	if r, ok := res.(*asyncReply); ok {
		return r.err
	}
	return errBusy()
}

func callDismissGroup(c *call) (any, error) {
	gid, err := c.idArg(0, "groupID")
	if err != nil {
		return nil, err
	}
	c.s.e.DismissGroup(gid, c.me(), c.replyTo())
	return nil, errLater
}

// callKick removes members of lower role; owner and admins only: args
// groupID, reason, userIDList.
func callKick(c *call) (any, error) {
	gid, reason, ids, err := groupUsersArgs(c)
	if err != nil {
		return nil, err
	}
	return c.groupAction(gid, storage.RoleAdmin, func(ctx context.Context, tx storage.Tx, w *noticeWriter, g storage.ChatGroup, actor storage.ChatGroupMember) (*outcome, error) {
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
	a := c.argReader()
	gid, uid, secs := a.ID(0, "groupID"), a.ID(1, "userID"), a.Int(2, "mutedSeconds")
	if a.err != nil {
		return nil, a.err
	}
	e := c.s.e
	if secs < 0 || secs > e.cfg.MaxMuteSeconds {
		return nil, apierr.ChatError(apierr.CodeChatMuteRange, "max", e.cfg.MaxMuteSeconds)
	}
	me := c.me()
	return c.groupAction(gid, storage.RoleAdmin, func(ctx context.Context, tx storage.Tx, w *noticeWriter, g storage.ChatGroup, actor storage.ChatGroupMember) (*outcome, error) {
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
	a := c.argReader()
	gid, mute := a.ID(0, "groupID"), a.Bool(1, "isMute")
	if a.err != nil {
		return nil, a.err
	}
	return c.groupAction(gid, storage.RoleAdmin, func(ctx context.Context, tx storage.Tx, w *noticeWriter, g storage.ChatGroup, actor storage.ChatGroupMember) (*outcome, error) {
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
	a := c.argReader()
	gid, uid := a.ID(0, "groupID"), a.ID(1, "newOwnerUserID")
	if a.err != nil {
		return nil, a.err
	}
	return c.groupAction(gid, storage.RoleOwner, func(ctx context.Context, tx storage.Tx, w *noticeWriter, g storage.ChatGroup, old storage.ChatGroupMember) (*outcome, error) {
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
	a := c.argReader()
	a.Object(0, "params", &p)
	gid, uid := a.parseID(p.GroupID, "params.groupID"), a.parseID(p.UserID, "params.userID")
	if a.err != nil {
		return nil, a.err
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
			// The member's own upload, or the acting admin's.
			f := strings.TrimSpace(*p.FaceURL)
			if err := checkAvatar(f, m.FaceURL, uid, me); err != nil {
				return nil, err
			}
			m.FaceURL = f
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
	a := c.argReader()
	a.Object(0, "params", &p)
	gid := a.parseID(p.GroupID, "params.groupID")
	if a.err != nil {
		return nil, a.err
	}
	if p.GroupType != nil {
		return nil, badArg("params.groupType") // a group does not become a channel
	}
	me := c.me()
	return c.groupAction(gid, storage.RoleAdmin, func(ctx context.Context, tx storage.Tx, w *noticeWriter, g storage.ChatGroup, actor storage.ChatGroupMember) (*outcome, error) {
		before := g
		if err := p.GroupInfo.apply(&g, me); err != nil {
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
	a := c.argReader()
	gid, uid, msg := a.ID(0, "groupID"), a.ID(1, "fromUserID"), a.OptString(2, "handleMsg")
	a.check(!tooLong(msg, 200), "handleMsg")
	return gid, uid, strings.TrimSpace(msg), a.err
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
		g := h.group // the application's push shows the group before the entry
		pushes, err := e.enterGroup(ctx, tx, w, &g, uid, h.request.JoinSource, h.request.InviterID)
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
		return h, storeErr(err, apierr.CodeChatNoApplication)
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
