package chat

// Group reads: answered from the store at once, checking that the caller
// may see the group.

import (
	"context"
	"errors"
	"math"
	"sort"
	"strings"

	"kj/internal/apierr"
	"kj/storage"
)

func callJoinedGroups(c *call) (any, error) {
	gs, err := storage.UserChatGroups(c.ctx(), c.s.e.db, c.me(), 0)
	if err != nil {
		return nil, err
	}
	return itemsOf(gs, groupItem), nil
}

// callGroupsInfo returns groups by id as the caller may see them
// (GroupsSeenBy); dismissed ones show status 2.
func callGroupsInfo(c *call) (any, error) {
	ids, err := userIDsArg(c, 0, "groupIDList")
	if err != nil {
		return nil, err
	}
	gs, err := storage.ChatGroupsByIDs(c.ctx(), c.s.e.db, ids)
	if err != nil {
		return nil, err
	}
	return GroupsSeenBy(c.ctx(), c.s.e.db, c.me(), gs)
}

// GroupsSeenBy shows groups as userID may see them: a member (also of a
// dismissed group) the whole group, anyone else only its public face
// (publicGroupItem). GetSpecifiedGroupsInfo and /openIm/getGroupByName
// answer with it.
func GroupsSeenBy(ctx context.Context, q storage.Querier, userID int64, gs []storage.ChatGroup) ([]*GroupItem, error) {
	out := make([]*GroupItem, 0, len(gs))
	if len(gs) == 0 {
		return out, nil
	}
	// One query for the live groups the user is in; a dismissed group is
	// asked for on its own (UserChatGroups leaves them out), which is rare.
	joined, err := storage.UserChatGroups(ctx, q, userID, 0)
	if err != nil {
		return nil, err
	}
	member := make(map[int64]bool, len(joined))
	for _, g := range joined {
		member[g.ID] = true
	}
	for _, g := range gs {
		in := member[g.ID]
		if !in && g.Status == storage.GroupDismissed {
			_, err := storage.ChatGroupMemberOf(ctx, q, g.ID, userID)
			if err != nil && !errors.Is(err, storage.ErrNotFound) {
				return nil, err
			}
			in = err == nil
		}
		if in {
			out = append(out, groupItem(g))
		} else {
			out = append(out, publicGroupItem(g))
		}
	}
	return out, nil
}

// publicGroupItem is what anyone may see of a group: what a search result
// shows (name, avatar, member count, group or channel) and what applying
// to join needs (its id, whether it is live, whether joining needs
// approval). The announcement and introduction, who owns and created it,
// when, its member settings, its ex and whether it is muted are the
// members' business.
func publicGroupItem(g storage.ChatGroup) *GroupItem {
	status := g.Status
	if status != storage.GroupDismissed {
		status = storage.GroupNormal
	}
	return &GroupItem{
		GroupID: storage.FormatID(g.ID), GroupName: g.Name, FaceURL: g.FaceURL, MemberCount: g.MemberCount,
		GroupType: g.GroupType, NeedVerification: g.NeedVerification, Status: status,
	}
}

// callSearchGroups searches the caller's groups by id or name.
func callSearchGroups(c *call) (any, error) {
	var p struct {
		KeywordList       []string `json:"keywordList"`
		IsSearchGroupID   bool     `json:"isSearchGroupID"`
		IsSearchGroupName bool     `json:"isSearchGroupName"`
	}
	if err := c.searchArgs(&p, &p.KeywordList); err != nil {
		return nil, err
	}
	gs, err := storage.UserChatGroups(c.ctx(), c.s.e.db, c.me(), 0)
	if err != nil {
		return nil, err
	}
	out := []*GroupItem{}
	for _, g := range gs {
		if keywordIn(p.KeywordList, searched{p.IsSearchGroupID, storage.FormatID(g.ID)}, searched{p.IsSearchGroupName, strings.ToLower(g.Name)}) {
			out = append(out, groupItem(g))
		}
	}
	return out, nil
}

// readableMembers loads the members of group gid for a member of it,
// once the arguments a read are good (the first bad one answers instead).
func (c *call) readableMembers(a *argReader, gid int64) ([]storage.ChatGroupMember, error) {
	if a.err != nil {
		return nil, a.err
	}
	e := c.s.e
	g, err := storage.ChatGroupByID(c.ctx(), e.db, gid)
	if err != nil {
		return nil, storeErr(err, apierr.CodeChatGroupNotFound)
	}
	if g.Status == storage.GroupDismissed {
		return nil, apierr.ChatError(apierr.CodeChatGroupDismissed)
	}
	ms, err := storage.ChatGroupMembers(c.ctx(), e.db, gid)
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		if m.UserID == c.me() {
			return ms, nil
		}
	}
	return nil, apierr.ChatError(apierr.CodeChatNotMember)
}

// callGroupMembers pages members: args groupID, filter (0 all, 1 owner,
// 2 admins, 3 members, 4 admins and members, 5 owner and admins), offset,
// count.
func callGroupMembers(c *call) (any, error) {
	a := c.argReader()
	gid, filter := a.ID(0, "groupID"), a.IntIn(1, "filter", 0, 5)
	offset, count := a.IntIn(2, "offset", 0, math.MaxInt64), a.IntIn(3, "count", 1, 2000)
	ms, err := c.readableMembers(a, gid)
	if err != nil {
		return nil, err
	}
	keep := func(m storage.ChatGroupMember) bool {
		switch filter {
		case 1:
			return m.RoleLevel == storage.RoleOwner
		case 2:
			return m.RoleLevel == storage.RoleAdmin
		case 3:
			return m.RoleLevel == storage.RoleMember
		case 4:
			return m.RoleLevel != storage.RoleOwner
		case 5:
			return m.RoleLevel != storage.RoleMember
		}
		return true
	}
	return c.memberPage(filterMembers(ms, keep), offset, count)
}

func callGroupAdmins(c *call) (any, error) {
	a := c.argReader()
	ms, err := c.readableMembers(a, a.ID(0, "groupID"))
	if err != nil {
		return nil, err
	}
	return memberItems(c.ctx(), c.s.e.db, filterMembers(ms, func(m storage.ChatGroupMember) bool { return m.RoleLevel >= storage.RoleAdmin }))
}

func callSpecifiedMembers(c *call) (any, error) {
	a := c.argReader()
	gid, ids := a.ID(0, "groupID"), a.IDs(1, "userIDList")
	ms, err := c.readableMembers(a, gid)
	if err != nil {
		return nil, err
	}
	want := setOf(ids)
	return memberItems(c.ctx(), c.s.e.db, filterMembers(ms, func(m storage.ChatGroupMember) bool { return want[m.UserID] }))
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
	a := c.argReader()
	a.Object(0, "params", &p)
	gid := a.parseID(p.GroupID, "params.groupID")
	a.check(p.Count > 0 && p.Count <= 2000 && p.Offset >= 0, "params.count")
	ms, err := c.readableMembers(a, gid)
	if err != nil {
		return nil, err
	}
	items, err := memberItems(c.ctx(), c.s.e.db, ms)
	if err != nil {
		return nil, err
	}
	out := []*GroupMemberItem{}
	for _, it := range items {
		if keywordIn(p.KeywordList, searched{p.IsSearchUserID, it.UserID}, searched{p.IsSearchMemberNickname, strings.ToLower(it.Nickname)}) {
			out = append(out, it)
		}
	}
	return pageOf(out, int64(p.Offset), int64(p.Count)), nil
}

// callMembersByJoinTime: args groupID, offset, count, joinTimeBegin,
// joinTimeEnd, filterUserIDList (excluded).
func callMembersByJoinTime(c *call) (any, error) {
	a := c.argReader()
	gid, offset, count := a.ID(0, "groupID"), a.IntIn(1, "offset", 0, math.MaxInt64), a.IntIn(2, "count", 1, 2000)
	begin, end := a.Int(3, "joinTimeBegin"), a.Int(4, "joinTimeEnd")
	var exclude []int64
	if a.has(5) {
		exclude = a.IDs(5, "filterUserIDList")
	}
	ms, err := c.readableMembers(a, gid)
	if err != nil {
		return nil, err
	}
	skip := setOf(exclude)
	sel := filterMembers(ms, func(m storage.ChatGroupMember) bool {
		return !skip[m.UserID] && m.JoinTime >= begin && (end <= 0 || m.JoinTime <= end)
	})
	sort.SliceStable(sel, func(i, j int) bool { return sel[i].JoinTime < sel[j].JoinTime })
	return c.memberPage(sel, offset, count)
}

// filterMembers keeps the members ms that keep says, in place.
func filterMembers(ms []storage.ChatGroupMember, keep func(storage.ChatGroupMember) bool) []storage.ChatGroupMember {
	sel := ms[:0]
	for _, m := range ms {
		if keep(m) {
			sel = append(sel, m)
		}
	}
	return sel
}

// memberPage renders a page of members (see pageOf).
func (c *call) memberPage(ms []storage.ChatGroupMember, offset, count int64) ([]*GroupMemberItem, error) {
	return memberItems(c.ctx(), c.s.e.db, pageOf(ms, offset, count))
}

func (c *call) groupRequestItems(list []storage.ChatGroupRequest) ([]GroupApplicationItem, error) {
	e := c.s.e
	var gids, uids []int64
	for _, r := range list {
		gids = append(gids, r.GroupID)
		uids = append(uids, r.UserID)
	}
	groups, err := groupMap(c.ctx(), e.db, gids)
	if err != nil {
		return nil, err
	}
	users, err := userMap(c.ctx(), e.db, uids)
	if err != nil {
		return nil, err
	}
	return itemsOf(list, func(r storage.ChatGroupRequest) GroupApplicationItem {
		return groupRequestItem(r, groups[r.GroupID], users[r.UserID])
	}), nil
}

func callGroupRequestsToMe(c *call) (any, error) {
	list, err := storage.ChatGroupRequestsForAdmin(c.ctx(), c.s.e.db, c.me())
	if err != nil {
		return nil, err
	}
	return c.groupRequestItems(list)
}

func callGroupRequestsByMe(c *call) (any, error) {
	list, err := storage.ChatGroupRequestsByUser(c.ctx(), c.s.e.db, c.me())
	if err != nil {
		return nil, err
	}
	return c.groupRequestItems(list)
}
