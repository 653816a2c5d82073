package chat

import (
	"errors"
	"strings"
	"unicode/utf8"

	"kj/auth"
	"kj/internal/apierr"
	"kj/internal/names"
	"kj/storage"
)

// calls maps a reqFuncName to its handler. Names of the SDK that are not
// here (local-storage inserts, burn-after-reading, signalling) are answered
// with CodeChatUnknownCall.
var calls = map[string]handlerFunc{}

func register(m map[string]handlerFunc) {
	for k, v := range m {
		if _, dup := calls[k]; dup {
			panic("chat: call registered twice: " + k)
		}
		calls[k] = v
	}
}

func init() {
	register(map[string]handlerFunc{
		"Login":                  callLogin,
		"Logout":                 callLogout,
		"GetLoginStatus":         func(*call) (any, error) { return 3, nil }, // LoginStatus.Logged
		"GetLoginUserID":         func(c *call) (any, error) { return c.meStr(), nil },
		"GetSelfUserInfo":        callGetSelfUserInfo,
		"SetSelfInfo":            callSetSelfInfo,
		"GetUsersInfoWithCache":  callGetUsersInfo,
		"SetAppBackgroundStatus": callAppState,
		"NetworkStatusChanged":   callAppState,
	})
}

// callLogin completes the sign-in of a socket: the user id and chat token
// must be the ones it connected with and the sign-in must still be live.
// The reply is followed by OnConnectSuccess.
func callLogin(c *call) (any, error) {
	uid, err := c.args.String(0, "userID")
	if err != nil {
		return nil, err
	}
	tok, err := c.args.String(1, "token")
	if err != nil {
		return nil, err
	}
	s, e := c.s, c.s.e
	if uid != c.meStr() || tokenDigest(tok) != s.tokenHash {
		return nil, apierr.ChatError(apierr.CodeChatTokenExpired)
	}
	if s.loggedIn.Load() {
		return nil, nil
	}
	sess, err := e.auth.ChatSession(c.ctx, tok)
	switch {
	case errors.Is(err, auth.ErrReplaced):
		return nil, apierr.ChatError(apierr.CodeChatKicked)
	case errors.Is(err, auth.ErrExpired), errors.Is(err, auth.ErrNoToken):
		return nil, apierr.ChatError(apierr.CodeChatTokenExpired)
	case err != nil:
		return nil, err
	}
	u, err := storage.UserByID(c.ctx, e.db, s.userID)
	if err != nil {
		return nil, err
	}
	s.self = senderOf(u, int(s.platform))
	s.user = e.attach(s)
	s.loggedIn.Store(true)
	if err := e.presence.Add(c.ctx, c.meStr(), storage.FormatID(s.id), 3*e.cfg.PingPeriod); err == nil {
		s.presenceOn.Store(true)
		e.announcePresence(s.userID, false)
	}
	s.expiresAt.Store(sess.JWTExpiresAt) // checked by the wheel (wheel.go), not a timer per socket
	s.reply(c.name, c.opID, nil, nil)
	s.push(encodeReply("OnConnectSuccess", "", nil, 0, ""))
	return nil, errLater
}

// callLogout answers and closes the socket (the sign-in itself ends with
// the HTTP /logout).
func callLogout(c *call) (any, error) {
	c.s.reply(c.name, c.opID, nil, nil)
	c.s.closeNormally()
	return nil, errLater
}

// callAppState acknowledges the app's foreground/network hints; the
// server keeps no per-device state that depends on them.
func callAppState(*call) (any, error) { return nil, nil }

func selfInfo(u storage.User) SelfUserInfo {
	return SelfUserInfo{CreateTime: u.CreatedAt, FaceURL: u.Avatar, Nickname: u.Nickname, UserID: u.IDString()}
}

func publicInfo(u storage.User) *PublicUserItem {
	return &PublicUserItem{Nickname: u.Nickname, UserID: u.IDString(), FaceURL: u.Avatar}
}

func callGetSelfUserInfo(c *call) (any, error) {
	u, err := storage.UserByID(c.ctx, c.s.e.db, c.me())
	if err != nil {
		return nil, err
	}
	return selfInfo(u), nil
}

// callSetSelfInfo changes the nickname (1-10 characters) and avatar.
func callSetSelfInfo(c *call) (any, error) {
	var p struct {
		Nickname *string `json:"nickname"`
		FaceURL  *string `json:"faceURL"`
	}
	if err := c.args.Object(0, "userInfo", &p); err != nil {
		return nil, err
	}
	fields := map[string]any{}
	if p.Nickname != nil {
		n := strings.TrimSpace(*p.Nickname)
		if n == "" || utf8.RuneCountInString(n) > 10 || names.Hidden(n) {
			return nil, apierr.ChatError(apierr.CodeChatNicknameInvalid)
		}
		fields["nickname"] = n
	}
	if p.FaceURL != nil {
		f := strings.TrimSpace(*p.FaceURL)
		if len(f) > 2048 || (f != "" && !strings.HasPrefix(f, "/") && !strings.HasPrefix(f, "http://") && !strings.HasPrefix(f, "https://")) {
			return nil, badArg("userInfo.faceURL")
		}
		fields["avatar"] = f
	}
	e := c.s.e
	if len(fields) > 0 {
		if err := storage.UpdateUserFields(c.ctx, e.db, c.me(), e.now(), fields); err != nil {
			return nil, err
		}
	}
	u, err := storage.UserByID(c.ctx, e.db, c.me())
	if err != nil {
		return nil, err
	}
	c.s.self = senderOf(u, int(c.s.platform))
	e.push([]int64{c.me()}, "OnSelfInfoUpdated", selfInfo(u))
	return nil, nil
}

// callGetUsersInfo returns public info of users plus what the caller knows
// of them: friendship, blacklist, and membership of a group.
func callGetUsersInfo(c *call) (any, error) {
	ids, err := userIDsArg(c, 0, "userIDList")
	if err != nil {
		return nil, err
	}
	groupArg, err := c.args.OptString(1, "groupID")
	if err != nil {
		return nil, err
	}
	e := c.s.e
	users, err := storage.UsersByIDs(c.ctx, e.db, ids)
	if err != nil {
		return nil, err
	}
	friends, blocks, err := e.relations(c, c.me())
	if err != nil {
		return nil, err
	}
	members := map[int64]storage.ChatGroupMember{}
	if groupArg != "" {
		gid, err := parseUserID(groupArg)
		if err != nil {
			return nil, badArg("groupID")
		}
		if _, err := storage.ChatGroupMemberOf(c.ctx, e.db, gid, c.me()); err == nil {
			list, err := storage.ChatGroupMembersByIDs(c.ctx, e.db, gid, ids)
			if err != nil {
				return nil, err
			}
			for _, m := range list {
				members[m.UserID] = m
			}
		}
	}
	out := make([]FullUserItem, 0, len(users))
	for _, u := range users {
		it := FullUserItem{PublicInfo: publicInfo(u)}
		if f, ok := friends[u.ID]; ok {
			it.FriendInfo = friendItem(f, u)
		}
		if b, ok := blocks[u.ID]; ok {
			it.BlackInfo = blackItem(b, u)
		}
		if m, ok := members[u.ID]; ok {
			it.GroupMemberInfo = memberItem(m, u)
		}
		out = append(out, it)
	}
	return out, nil
}

// relations loads a user's friends and blacklist keyed by the other user.
func (e *Engine) relations(c *call, userID int64) (map[int64]storage.ChatFriend, map[int64]storage.ChatBlock, error) {
	fl, err := storage.ChatFriends(c.ctx, e.db, userID)
	if err != nil {
		return nil, nil, err
	}
	bl, err := storage.ChatBlacklist(c.ctx, e.db, userID)
	if err != nil {
		return nil, nil, err
	}
	friends := make(map[int64]storage.ChatFriend, len(fl))
	for _, f := range fl {
		friends[f.FriendID] = f
	}
	blocks := make(map[int64]storage.ChatBlock, len(bl))
	for _, b := range bl {
		blocks[b.BlockedID] = b
	}
	return friends, blocks, nil
}

// userIDsArg reads a list of user ids.
func userIDsArg(c *call, i int, name string) ([]int64, error) {
	list, err := c.args.StringList(i, name)
	if err != nil {
		return nil, err
	}
	if len(list) > 2000 {
		return nil, badArg(name)
	}
	ids := make([]int64, 0, len(list))
	seen := map[int64]bool{}
	for _, s := range list {
		id, err := parseUserID(s)
		if err != nil {
			return nil, badArg(name)
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// userIDArg reads one user id.
func userIDArg(c *call, i int, name string) (int64, error) {
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
