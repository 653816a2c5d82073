package chat

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"kj/internal/apierr"
	"kj/storage"
)

func init() {
	register(map[string]handlerFunc{
		"AddFriend":                           callAddFriend,
		"AcceptFriendApplication":             callAcceptFriend,
		"RefuseFriendApplication":             callRefuseFriend,
		"GetFriendApplicationListAsRecipient": callFriendRequestsTo,
		"GetFriendApplicationListAsApplicant": callFriendRequestsFrom,
		"GetFriendList":                       callGetFriendList,
		"GetSpecifiedFriendsInfo":             callGetSpecifiedFriends,
		"CheckFriend":                         callCheckFriend,
		"DeleteFriend":                        callDeleteFriend,
		"SetFriendRemark":                     callSetFriendRemark,
		"SearchFriends":                       callSearchFriends,
		"AddBlack":                            callAddBlack,
		"RemoveBlack":                         callRemoveBlack,
		"GetBlackList":                        callGetBlackList,
	})
}

func friendItem(f storage.ChatFriend, u storage.User) *FriendUserItem {
	return &FriendUserItem{
		AddSource: f.AddSource, CreateTime: f.CreatedAt, Ex: f.Ex, FaceURL: u.Avatar, UserID: u.IDString(),
		Nickname: u.Nickname, OperatorUserID: idOrEmpty(f.OperatorID), OwnerUserID: storage.FormatID(f.OwnerID),
		Remark: f.Remark,
	}
}

func blackItem(b storage.ChatBlock, u storage.User) *BlackUserItem {
	return &BlackUserItem{
		UserID: u.IDString(), CreateTime: b.CreatedAt, Ex: b.Ex, FaceURL: u.Avatar, Nickname: u.Nickname,
		OperatorUserID: storage.FormatID(b.OwnerID), OwnerUserID: storage.FormatID(b.OwnerID),
	}
}

func friendRequestItem(r storage.ChatFriendRequest, from, to storage.User) FriendApplicationItem {
	return FriendApplicationItem{
		CreateTime: r.CreatedAt, Ex: r.Ex, FromFaceURL: from.Avatar, FromNickname: from.Nickname,
		FromUserID: storage.FormatID(r.FromID), HandleMsg: r.HandleMsg, HandleResult: r.HandleResult,
		HandleTime: r.HandledAt, HandlerUserID: idOrEmpty(r.HandlerID), ReqMsg: r.ReqMsg,
		ToFaceURL: to.Avatar, ToNickname: to.Nickname, ToUserID: storage.FormatID(r.ToID),
	}
}

func idOrEmpty(id int64) string {
	if id == 0 {
		return ""
	}
	return storage.FormatID(id)
}

// existingUser loads a user the caller named, or answers "no such user".
func existingUser(ctx context.Context, q storage.Querier, id int64) (storage.User, error) {
	u, err := storage.UserByID(ctx, q, id)
	return u, storeErr(err, apierr.CodeChatUserNotFound)
}

// friendArgs decodes the params of a friend call into p and parses
// toUser, its toUserID: the other user of the call.
func (c *call) friendArgs(p any, toUser *string) (int64, error) {
	if err := c.args.Object(0, "params", p); err != nil {
		return 0, err
	}
	return parseID(*toUser, "params.toUserID")
}

// callAddFriend sends a friend application; the verification message is
// required. A repeat after a refusal starts a new pending application.
func callAddFriend(c *call) (any, error) {
	var p struct {
		ToUserID string `json:"toUserID"`
		ReqMsg   string `json:"reqMsg"`
		Ex       string `json:"ex"`
	}
	to, err := c.friendArgs(&p, &p.ToUserID)
	if err != nil {
		return nil, err
	}
	p.ReqMsg = strings.TrimSpace(p.ReqMsg)
	if p.ReqMsg == "" {
		return nil, apierr.ChatError(apierr.CodeChatVerifyRequired)
	}
	if tooLong(p.ReqMsg, 200) || tooLong(p.Ex, maxSmallText) {
		return nil, badArg("params.reqMsg")
	}
	if to == c.me() {
		return nil, apierr.ChatError(apierr.CodeChatSelf)
	}
	e := c.s.e
	var item FriendApplicationItem
	err = e.db.Tx(c.ctx(), func(tx storage.Tx) error {
		target, err := existingUser(c.ctx(), tx, to)
		if err != nil {
			return err
		}
		if _, err := storage.ChatFriendOf(c.ctx(), tx, c.me(), to); err == nil {
			return apierr.ChatError(apierr.CodeChatAlreadyFriends)
		} else if !errors.Is(err, storage.ErrNotFound) {
			return err
		}
		if blocked, err := storage.ChatBlocked(c.ctx(), tx, to, c.me()); err != nil {
			return err
		} else if blocked {
			return apierr.ChatError(apierr.CodeChatBlacklisted)
		}
		r := storage.ChatFriendRequest{FromID: c.me(), ToID: to, ReqMsg: p.ReqMsg, Ex: p.Ex, CreatedAt: e.now()}
		if err := storage.PutChatFriendRequest(c.ctx(), tx, r); err != nil {
			return err
		}
		me, err := storage.UserByID(c.ctx(), tx, c.me())
		if err != nil {
			return err
		}
		item = friendRequestItem(r, me, target)
		return nil
	})
	if err != nil {
		return nil, err
	}
	e.push([]int64{to, c.me()}, "OnFriendApplicationAdded", item)
	return nil, nil
}

func (c *call) friendHandleArgs() (int64, string, error) {
	var p handleFriendParams
	from, err := c.friendArgs(&p, &p.ToUserID)
	if err != nil {
		return 0, "", err
	}
	if tooLong(p.HandleMsg, 200) {
		return 0, "", badArg("params.handleMsg")
	}
	return from, strings.TrimSpace(p.HandleMsg), nil
}

// callAcceptFriend accepts a pending application: both become friends and
// the 1:1 conversation gets a "friend added" notice, in order with its
// messages (through the conversation actor).
func callAcceptFriend(c *call) (any, error) {
	from, msg, err := c.friendHandleArgs()
	if err != nil {
		return nil, err
	}
	if from == c.me() {
		return nil, apierr.ChatError(apierr.CodeChatSelf)
	}
	e := c.s.e
	me, peer := c.me(), from
	ref, _ := parseConversationID(singleConversationID(storage.FormatID(me), storage.FormatID(peer)))
	self := c.s.self
	op := &opItem{reply: c.replyTo(), run: func(ctx context.Context, tx storage.Tx, w *noticeWriter) (*outcome, error) {
		if err := storage.HandleChatFriendRequest(ctx, tx, peer, me, storage.FriendAccepted, msg, w.now); err != nil {
			return nil, storeErr(err, apierr.CodeChatNoApplication)
		}
		if err := storage.AddChatFriends(ctx, tx,
			storage.ChatFriend{OwnerID: me, FriendID: peer, OperatorID: me, CreatedAt: w.now},
			storage.ChatFriend{OwnerID: peer, FriendID: me, OperatorID: me, CreatedAt: w.now}); err != nil {
			return nil, err
		}
		start, err := w.seq()
		if err != nil {
			return nil, err
		}
		if err := storage.EnsureChatUserConversations(ctx, tx,
			storage.ChatUserConvRow{UserID: me, ConversationID: ref.ID, PeerID: peer, StartSeq: start, CreatedAt: w.now},
			storage.ChatUserConvRow{UserID: peer, ConversationID: ref.ID, PeerID: me, StartSeq: start, CreatedAt: w.now}); err != nil {
			return nil, err
		}
		for _, u := range []int64{me, peer} {
			if err := storage.ShowChatConversation(ctx, tx, u, ref.ID); err != nil {
				return nil, err
			}
		}
		n := notice(NoticeFriendAdded, self, map[string]any{
			"fromToUserID": map[string]string{"fromUserID": storage.FormatID(peer), "toUserID": storage.FormatID(me)},
			"handleMsg":    msg,
		}, w.now)
		n.RecvID = storage.FormatID(peer)
		if err := w.write(n); err != nil {
			return nil, err
		}
		users, err := userMap(ctx, tx, []int64{me, peer})
		if err != nil {
			return nil, err
		}
		r, err := storage.ChatFriendRequestOf(ctx, tx, peer, me)
		if err != nil {
			return nil, err
		}
		fMe, _ := storage.ChatFriendOf(ctx, tx, me, peer)
		fPeer, _ := storage.ChatFriendOf(ctx, tx, peer, me)
		return &outcome{pushes: []pushTo{
			{users: []int64{me, peer}, event: "OnFriendApplicationAccepted", data: friendRequestItem(r, users[peer], users[me])},
			{users: []int64{me}, event: "OnFriendAdded", data: friendItem(fMe, users[peer])},
			{users: []int64{peer}, event: "OnFriendAdded", data: friendItem(fPeer, users[me])},
		}}, nil
	}}
	e.tellConversation(ref, &opRequest{item: op})
	return nil, errLater
}

func callRefuseFriend(c *call) (any, error) {
	from, msg, err := c.friendHandleArgs()
	if err != nil {
		return nil, err
	}
	e := c.s.e
	var item FriendApplicationItem
	err = e.db.Tx(c.ctx(), func(tx storage.Tx) error {
		if err := storage.HandleChatFriendRequest(c.ctx(), tx, from, c.me(), storage.FriendRefused, msg, e.now()); err != nil {
			return storeErr(err, apierr.CodeChatNoApplication)
		}
		r, err := storage.ChatFriendRequestOf(c.ctx(), tx, from, c.me())
		if err != nil {
			return err
		}
		users, err := userMap(c.ctx(), tx, []int64{from, c.me()})
		if err != nil {
			return err
		}
		item = friendRequestItem(r, users[from], users[c.me()])
		return nil
	})
	if err != nil {
		return nil, err
	}
	e.push([]int64{from, c.me()}, "OnFriendApplicationRejected", item)
	return nil, nil
}

func callFriendRequestsTo(c *call) (any, error) {
	list, err := storage.ChatFriendRequestsTo(c.ctx(), c.s.e.db, c.me())
	if err != nil {
		return nil, err
	}
	return c.s.e.friendRequestItems(c.ctx(), list)
}

func callFriendRequestsFrom(c *call) (any, error) {
	list, err := storage.ChatFriendRequestsFrom(c.ctx(), c.s.e.db, c.me())
	if err != nil {
		return nil, err
	}
	return c.s.e.friendRequestItems(c.ctx(), list)
}

func (e *Engine) friendRequestItems(ctx context.Context, list []storage.ChatFriendRequest) ([]FriendApplicationItem, error) {
	var ids []int64
	for _, r := range list {
		ids = append(ids, r.FromID, r.ToID)
	}
	users, err := userMap(ctx, e.db, ids)
	if err != nil {
		return nil, err
	}
	return itemsOf(list, func(r storage.ChatFriendRequest) FriendApplicationItem {
		return friendRequestItem(r, users[r.FromID], users[r.ToID])
	}), nil
}

// friends renders the caller's friends (all, or those among only).
func (c *call) friends(only []int64) ([]FullUserItem, error) {
	list, _, err := c.friendsAndUsers(only)
	return list, err
}

// friendsAndUsers is friends with the users they were made from (by id),
// for what the items do not carry (the account a search matches).
func (c *call) friendsAndUsers(only []int64) ([]FullUserItem, map[int64]storage.User, error) {
	e := c.s.e
	friends, blocks, err := e.relations(c, c.me())
	if err != nil {
		return nil, nil, err
	}
	var ids []int64
	if only != nil {
		for _, id := range only {
			if _, ok := friends[id]; ok {
				ids = append(ids, id)
			}
		}
	} else {
		list, err := storage.ChatFriends(c.ctx(), e.db, c.me())
		if err != nil {
			return nil, nil, err
		}
		for _, f := range list {
			ids = append(ids, f.FriendID)
		}
	}
	users, err := userMap(c.ctx(), e.db, ids)
	if err != nil {
		return nil, nil, err
	}
	out := make([]FullUserItem, 0, len(ids))
	for _, id := range ids {
		u, ok := users[id]
		if !ok {
			continue
		}
		it := FullUserItem{PublicInfo: publicInfo(u), FriendInfo: friendItem(friends[id], u)}
		if b, ok := blocks[id]; ok {
			it.BlackInfo = blackItem(b, u)
		}
		out = append(out, it)
	}
	return out, users, nil
}

func callGetFriendList(c *call) (any, error) { return c.friends(nil) }

func callGetSpecifiedFriends(c *call) (any, error) {
	ids, err := userIDsArg(c, 0, "userIDList")
	if err != nil {
		return nil, err
	}
	if ids == nil {
		ids = []int64{}
	}
	return c.friends(ids)
}

func callCheckFriend(c *call) (any, error) {
	ids, err := userIDsArg(c, 0, "userIDList")
	if err != nil {
		return nil, err
	}
	friends, _, err := c.s.e.relations(c, c.me())
	if err != nil {
		return nil, err
	}
	out := make([]FriendshipInfo, 0, len(ids))
	for _, id := range ids {
		r := 0
		if _, ok := friends[id]; ok {
			r = 1
		}
		out = append(out, FriendshipInfo{UserID: storage.FormatID(id), Result: r})
	}
	return out, nil
}

// callDeleteFriend ends a friendship on both sides.
func callDeleteFriend(c *call) (any, error) {
	peer, err := c.idArg(0, "userID")
	if err != nil {
		return nil, err
	}
	e := c.s.e
	var fMe, fPeer storage.ChatFriend
	var users map[int64]storage.User
	err = e.db.Tx(c.ctx(), func(tx storage.Tx) error {
		var err error
		if fMe, err = storage.ChatFriendOf(c.ctx(), tx, c.me(), peer); err != nil {
			return storeErr(err, apierr.CodeChatNotFriends)
		}
		fPeer, _ = storage.ChatFriendOf(c.ctx(), tx, peer, c.me())
		if _, err := storage.DeleteChatFriendship(c.ctx(), tx, c.me(), peer); err != nil {
			return err
		}
		users, err = userMap(c.ctx(), tx, []int64{c.me(), peer})
		return err
	})
	if err != nil {
		return nil, err
	}
	e.relationEnded(c.me(), peer)
	e.push([]int64{c.me()}, "OnFriendDeleted", friendItem(fMe, users[peer]))
	if fPeer.OwnerID != 0 {
		e.push([]int64{peer}, "OnFriendDeleted", friendItem(fPeer, users[c.me()]))
	}
	return nil, nil
}

func callSetFriendRemark(c *call) (any, error) {
	var p struct {
		ToUserID string `json:"toUserID"`
		Remark   string `json:"remark"`
	}
	peer, err := c.friendArgs(&p, &p.ToUserID)
	if err != nil {
		return nil, err
	}
	p.Remark = strings.TrimSpace(p.Remark)
	if tooLong(p.Remark, 64) {
		return nil, badArg("params.remark")
	}
	e := c.s.e
	if err := storage.SetChatFriendRemark(c.ctx(), e.db, c.me(), peer, p.Remark); err != nil {
		return nil, storeErr(err, apierr.CodeChatNotFriends)
	}
	f, err := storage.ChatFriendOf(c.ctx(), e.db, c.me(), peer)
	if err != nil {
		return nil, err
	}
	u, err := storage.UserByID(c.ctx(), e.db, peer)
	if err != nil {
		return nil, err
	}
	e.push([]int64{c.me()}, "OnFriendInfoChanged", friendItem(f, u))
	e.changed([]int64{c.me()}, singleConversationID(c.meStr(), storage.FormatID(peer)))
	return nil, nil
}

// callSearchFriends matches the caller's friends by id, nickname or
// remark (any keyword, case-insensitive); searching by id matches the
// account a friend signs in with too (what people tell each other).
func callSearchFriends(c *call) (any, error) {
	var p struct {
		KeywordList      []string `json:"keywordList"`
		IsSearchUserID   bool     `json:"isSearchUserID"`
		IsSearchNickname bool     `json:"isSearchNickname"`
		IsSearchRemark   bool     `json:"isSearchRemark"`
	}
	if err := c.searchArgs(&p, &p.KeywordList); err != nil {
		return nil, err
	}
	list, users, err := c.friendsAndUsers(nil)
	if err != nil {
		return nil, err
	}
	out := []SearchedFriend{}
	for _, it := range list {
		f := it.FriendInfo
		id, _ := strconv.ParseInt(f.UserID, 10, 64)
		if keywordIn(p.KeywordList, searched{p.IsSearchUserID, f.UserID}, searched{p.IsSearchUserID, strings.ToLower(users[id].Account)},
			searched{p.IsSearchNickname, strings.ToLower(f.Nickname)}, searched{p.IsSearchRemark, strings.ToLower(f.Remark)}) {
			out = append(out, SearchedFriend{FriendUserItem: *f, Relationship: 1})
		}
	}
	return out, nil
}

// callAddBlack puts a user on the caller's blacklist; their messages to the
// caller then fail with "peer added you to blacklist".
func callAddBlack(c *call) (any, error) {
	a := c.argReader()
	peer, ex := a.ID(0, "toUserID"), a.OptString(1, "ex")
	if a.err != nil {
		return nil, a.err
	}
	if peer == c.me() {
		return nil, apierr.ChatError(apierr.CodeChatSelf)
	}
	if tooLong(ex, maxSmallText) {
		return nil, badArg("ex")
	}
	e := c.s.e
	u, err := existingUser(c.ctx(), e.db, peer)
	if err != nil {
		return nil, err
	}
	b := storage.ChatBlock{OwnerID: c.me(), BlockedID: peer, Ex: ex, CreatedAt: e.now()}
	added, err := storage.AddChatBlock(c.ctx(), e.db, b)
	if err != nil {
		return nil, err
	}
	if added {
		e.pairRulesChanged(c.me(), peer)
		e.relationEnded(c.me(), peer)
		e.push([]int64{c.me()}, "OnBlackAdded", blackItem(b, u))
	}
	return nil, nil
}

func callRemoveBlack(c *call) (any, error) {
	peer, err := c.idArg(0, "userID")
	if err != nil {
		return nil, err
	}
	e := c.s.e
	bl, err := storage.ChatBlacklist(c.ctx(), e.db, c.me())
	if err != nil {
		return nil, err
	}
	for _, b := range bl {
		if b.BlockedID != peer {
			continue
		}
		if err := storage.RemoveChatBlock(c.ctx(), e.db, c.me(), peer); err != nil && !errors.Is(err, storage.ErrNotFound) {
			return nil, err
		}
		e.pairRulesChanged(c.me(), peer)
		u, err := storage.UserByID(c.ctx(), e.db, peer)
		if err == nil {
			e.push([]int64{c.me()}, "OnBlackDeleted", blackItem(b, u))
		}
	}
	return nil, nil
}

func callGetBlackList(c *call) (any, error) {
	e := c.s.e
	bl, err := storage.ChatBlacklist(c.ctx(), e.db, c.me())
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(bl))
	for i, b := range bl {
		ids[i] = b.BlockedID
	}
	users, err := userMap(c.ctx(), e.db, ids)
	if err != nil {
		return nil, err
	}
	out := make([]*BlackUserItem, 0, len(bl))
	for _, b := range bl {
		if u, ok := users[b.BlockedID]; ok {
			out = append(out, blackItem(b, u))
		}
	}
	return out, nil
}
