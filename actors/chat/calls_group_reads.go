package chat

// Group reads: answered from the store at once, checking that the caller
// may see the group.

import (
	"sort"
	"strings"

	"kj/internal/apierr"
	"kj/storage"
)

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
		return nil, storeErr(err, apierr.CodeChatGroupNotFound)
	}
	if g.Status == storage.GroupDismissed {
		return nil, apierr.ChatError(apierr.CodeChatGroupDismissed)
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
	return nil, apierr.ChatError(apierr.CodeChatNotMember)
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
