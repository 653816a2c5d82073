package chat

import (
	"context"
	"errors"
	"strings"
	"unicode/utf8"

	"kj/auth"
	"kj/internal/apierr"
	"kj/internal/names"
	"kj/storage"
)

// calls maps a reqFuncName to its handler. Every name of the SDK's
// RequestApi is here; those the app does on its own are answered
// CodeChatNotSupported (calls_settings.go), any other name (signalling,
// a typo) CodeChatUnknownCall.
var calls = map[string]handlerFunc{}

func register(m map[string]handlerFunc) {
	for k, v := range m {
		if _, dup := calls[k]; dup {
			panic("chat: call registered twice: " + k)
		}
		calls[k] = v
		callNames[k] = k
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
	a := c.argReader()
	uid, tok := a.String(0, "userID"), a.String(1, "token")
	if a.err != nil {
		return nil, a.err
	}
	s, e := c.s, c.s.e
	if uid != c.meStr() || tokenDigest(tok) != s.tokenHash {
		return nil, apierr.ChatError(apierr.CodeChatTokenExpired)
	}
	if s.loggedIn.Load() {
		return nil, nil
	}
	sess, err := e.auth.ChatSession(c.ctx(), tok)
	switch {
	case errors.Is(err, auth.ErrReplaced):
		return nil, apierr.ChatError(apierr.CodeChatKicked)
	case errors.Is(err, auth.ErrDeviceLimit):
		return nil, apierr.ChatError(apierr.CodeChatDeviceLimit)
	case errors.Is(err, auth.ErrExpired), errors.Is(err, auth.ErrNoToken):
		return nil, apierr.ChatError(apierr.CodeChatTokenExpired)
	case err != nil:
		return nil, err
	}
	u, err := storage.UserByID(c.ctx(), e.db, s.userID)
	if err != nil {
		return nil, err
	}
	s.self = senderOf(u, int(s.platform))
	s.user = e.attach(s)
	s.loggedIn.Store(true)
	if err := e.cluster.presence.Add(c.ctx(), c.meStr(), storage.FormatID(s.id), 3*e.cfg.PingPeriod); err == nil {
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
	u, err := storage.UserByID(c.ctx(), c.s.e.db, c.me())
	if err != nil {
		return nil, err
	}
	return c.s.e.selfInfoOf(c.ctx(), u)
}

// callSetSelfInfo changes the nickname (1-10 characters) and avatar (one
// the caller uploaded, or none: checkAvatar); a bad field changes nothing.
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
	e := c.s.e
	if p.FaceURL != nil {
		f := strings.TrimSpace(*p.FaceURL)
		if len(f) > 2048 {
			return nil, badArg("userInfo.faceURL")
		}
		if f != "" && !uploadedAvatarOf(f, c.me()) {
			// Only the avatar in place may be sent back unchanged.
			u, err := storage.UserByID(c.ctx(), e.db, c.me())
			if err != nil {
				return nil, err
			}
			if err := checkAvatar(f, u.Avatar, c.me()); err != nil {
				return nil, err
			}
		}
		fields["avatar"] = f
	}
	if len(fields) > 0 {
		if err := storage.UpdateUserFields(c.ctx(), e.db, c.me(), e.now(), fields); err != nil {
			return nil, err
		}
	}
	u, err := storage.UserByID(c.ctx(), e.db, c.me())
	if err != nil {
		return nil, err
	}
	c.s.self = senderOf(u, int(c.s.platform))
	info, err := e.selfInfoOf(c.ctx(), u)
	if err != nil {
		return nil, err
	}
	e.push([]int64{c.me()}, "OnSelfInfoUpdated", info)
	return nil, nil
}

// callGetUsersInfo returns public info of users plus what the caller knows
// of them: friendship, blacklist, and membership of a group.
func callGetUsersInfo(c *call) (any, error) {
	a := c.argReader()
	ids, groupArg := a.IDs(0, "userIDList"), a.OptString(1, "groupID")
	if a.err != nil {
		return nil, a.err
	}
	e := c.s.e
	users, err := storage.UsersByIDs(c.ctx(), e.db, ids)
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
		if _, err := storage.ChatGroupMemberOf(c.ctx(), e.db, gid, c.me()); err == nil {
			list, err := storage.ChatGroupMembersByIDs(c.ctx(), e.db, gid, ids)
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
	fl, err := storage.ChatFriends(c.ctx(), e.db, userID)
	if err != nil {
		return nil, nil, err
	}
	bl, err := storage.ChatBlacklist(c.ctx(), e.db, userID)
	if err != nil {
		return nil, nil, err
	}
	friends := keyBy(fl, func(f storage.ChatFriend) int64 { return f.FriendID })
	blocks := keyBy(bl, func(b storage.ChatBlock) int64 { return b.BlockedID })
	return friends, blocks, nil
}

// userMap loads users by id.
func userMap(ctx context.Context, q storage.Querier, ids []int64) (map[int64]storage.User, error) {
	list, err := storage.UsersByIDs(ctx, q, ids)
	return keyBy(list, func(u storage.User) int64 { return u.ID }), err
}

// groupMap loads groups by id.
func groupMap(ctx context.Context, q storage.Querier, ids []int64) (map[int64]storage.ChatGroup, error) {
	list, err := storage.ChatGroupsByIDs(ctx, q, ids)
	return keyBy(list, func(g storage.ChatGroup) int64 { return g.ID }), err
}

// keyBy indexes list by key.
func keyBy[T any](list []T, key func(T) int64) map[int64]T {
	m := make(map[int64]T, len(list))
	for _, v := range list {
		m[key(v)] = v
	}
	return m
}

// setOf is the set of the values in list.
func setOf[K comparable](list []K) map[K]bool {
	set := make(map[K]bool, len(list))
	for _, k := range list {
		set[k] = true
	}
	return set
}

// itemsOf renders each of list with item.
func itemsOf[T, I any](list []T, item func(T) I) []I {
	out := make([]I, 0, len(list))
	for _, v := range list {
		out = append(out, item(v))
	}
	return out
}

// searchArgs decodes the params of a search of friends or groups into p;
// keywords (p's keywordList) must name one at least.
func (c *call) searchArgs(p any, keywords *[]string) error {
	if err := c.args.Object(0, "params", p); err != nil {
		return err
	}
	if len(*keywords) == 0 {
		return badArg("params.keywordList")
	}
	return nil
}

// searched is one text a search of the caller's friends, groups or
// members may look in, when the search asks for it (on).
type searched struct {
	on   bool
	text string
}

// keywordIn says whether any keyword (trimmed and lowercased; blank ones
// are skipped) is in one of the texts searched.
func keywordIn(keywords []string, texts ...searched) bool {
	for _, kw := range keywords {
		kw = strings.ToLower(strings.TrimSpace(kw))
		if kw == "" {
			continue
		}
		for _, t := range texts {
			if t.on && strings.Contains(t.text, kw) {
				return true
			}
		}
	}
	return false
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

// idArg reads one id, of a user or a group.
func (c *call) idArg(i int, name string) (int64, error) {
	s, err := c.args.String(i, name)
	if err != nil {
		return 0, err
	}
	return parseID(s, name)
}

// parseID reads an id given as a string; a bad one is a bad argument name.
func parseID(s, name string) (int64, error) {
	id, err := parseUserID(s)
	if err != nil {
		return 0, badArg(name)
	}
	return id, nil
}

// argReader reads a call's arguments one after another and keeps the
// first error, so that a handler reads all it takes and checks once: a
// read after an error does nothing and returns the zero value. The error
// is the one the first bad argument gives on its own.
type argReader struct {
	c   *call
	err error
}

func (c *call) argReader() *argReader { return &argReader{c: c} }

// readArg runs one read unless an earlier one failed.
func readArg[T any](a *argReader, read func(i int, name string) (T, error), i int, name string) T {
	var v T
	if a.err == nil {
		v, a.err = read(i, name)
	}
	return v
}

func (a *argReader) String(i int, name string) string {
	return readArg(a, a.c.args.String, i, name)
}

func (a *argReader) OptString(i int, name string) string {
	return readArg(a, a.c.args.OptString, i, name)
}

func (a *argReader) Int(i int, name string) int64 { return readArg(a, a.c.args.Int, i, name) }

func (a *argReader) Float(i int, name string) float64 { return readArg(a, a.c.args.Float, i, name) }

func (a *argReader) Bool(i int, name string) bool { return readArg(a, a.c.args.Bool, i, name) }

func (a *argReader) OptBool(i int, name string) bool { return readArg(a, a.c.args.OptBool, i, name) }

func (a *argReader) StringList(i int, name string) []string {
	return readArg(a, a.c.args.StringList, i, name)
}

// ID reads one id, of a user or a group.
func (a *argReader) ID(i int, name string) int64 { return readArg(a, a.c.idArg, i, name) }

// IDs reads a list of user (or group) ids.
func (a *argReader) IDs(i int, name string) []int64 {
	return readArg(a, func(i int, name string) ([]int64, error) { return userIDsArg(a.c, i, name) }, i, name)
}

// Conversation reads the id of a conversation the caller takes part in.
func (a *argReader) Conversation(i int, name string) convRef {
	return readArg(a, a.c.conversationArg, i, name)
}

// IntIn reads a whole number from lo to hi; one outside is a bad argument.
func (a *argReader) IntIn(i int, name string, lo, hi int64) int64 {
	n := a.Int(i, name)
	a.check(n >= lo && n <= hi, name)
	return n
}

// check fails the reading with a bad argument name unless ok: for the
// limits a handler puts on what it read.
func (a *argReader) check(ok bool, name string) {
	if a.err == nil && !ok {
		a.err = badArg(name)
	}
}

// Object decodes an object argument into dst.
func (a *argReader) Object(i int, name string, dst any) {
	if a.err == nil {
		a.err = a.c.args.Object(i, name, dst)
	}
}

// ObjectList decodes an array of objects into dst.
func (a *argReader) ObjectList(i int, name string, dst any) {
	if a.err == nil {
		a.err = a.c.args.ObjectList(i, name, dst)
	}
}

// has says whether argument i is given (and nothing failed before it), for
// the optional arguments read only when present.
func (a *argReader) has(i int) bool { return a.err == nil && a.c.args.hasValue(i) }

// parseID reads an id given inside an argument (a field of params): a bad
// one is a bad argument name.
func (a *argReader) parseID(s, name string) int64 {
	return readArg(a, func(_ int, name string) (int64, error) { return parseID(s, name) }, 0, name)
}
