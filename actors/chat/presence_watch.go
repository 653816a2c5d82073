package chat

import (
	"context"
	"encoding/json"
	"sync"

	"kj/storage"
)

// Presence subscriptions. A socket watches users (SubscribeUsersStatus):
// only users related to its user (storage.ChatPresenceAllowed: friends,
// members of a group both are in, a one-to-one peer once a message was
// stored between them, and no block either way); asking for anyone else
// answers offline and watches nothing. When a user's sockets come or go on
// any node, that node publishes the user's id on presenceSubject; every
// node with watchers of the user works out the status (presence, last
// seen, the user's "hide" setting), then ends the watches of users no
// longer related (a block, an unfriending, a group left) and pushes
// OnUserStatusChanged to the rest when it changed. A hidden user is
// offline with no last seen to everyone. A block or an unfriending
// publishes both users at once, so their watches of each other end then.
//
// A node that dies without closing its sockets announces nothing: its
// users read as offline once their presence entries expire, and watchers
// learn it on their next SubscribeUsersStatus or GetSubscribeUsersStatus.
const presenceSubject = "kj.chat.presence"

// maxWatched caps the users one socket watches.
const maxWatched = 1000

// watchers is who watches whom on this node, and the status last told.
type watchers struct {
	mu     sync.Mutex
	byUser map[int64]*watched
}

type watched struct {
	socks map[*session]struct{}
	last  UserStatus
}

func newWatchers() *watchers { return &watchers{byUser: map[int64]*watched{}} }

// add makes s watch ids (their current statuses in st, by user) and
// reports false when that would pass maxWatched.
func (w *watchers) add(s *session, ids []int64, st map[int64]UserStatus) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(s.watching)
	for _, id := range ids {
		if _, ok := s.watching[id]; !ok {
			n++
		}
	}
	if n > maxWatched {
		return false
	}
	if s.watching == nil {
		s.watching = map[int64]struct{}{}
	}
	for _, id := range ids {
		s.watching[id] = struct{}{}
		x := w.byUser[id]
		if x == nil {
			x = &watched{socks: map[*session]struct{}{}}
			w.byUser[id] = x
		}
		x.socks[s] = struct{}{}
		x.last = st[id]
	}
	return true
}

// remove stops s watching ids (all it watches when ids is nil).
func (w *watchers) remove(s *session, ids []int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if ids == nil {
		for id := range s.watching {
			ids = append(ids, id)
		}
	}
	for _, id := range ids {
		delete(s.watching, id)
		if x := w.byUser[id]; x != nil {
			delete(x.socks, s)
			if len(x.socks) == 0 {
				delete(w.byUser, id)
			}
		}
	}
}

// list is what s watches.
func (w *watchers) list(s *session) []int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]int64, 0, len(s.watching))
	for id := range s.watching {
		out = append(out, id)
	}
	return out
}

// watchersOf is the sockets of this node that watch userID, by their user.
func (w *watchers) watchersOf(userID int64) map[int64][]*session {
	w.mu.Lock()
	defer w.mu.Unlock()
	x := w.byUser[userID]
	if x == nil {
		return nil
	}
	out := map[int64][]*session{}
	for s := range x.socks {
		out[s.userID] = append(out[s.userID], s)
	}
	return out
}

// watchedHere reports whether any socket of this node watches userID.
func (w *watchers) watchedHere(userID int64) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.byUser[userID] != nil
}

// changed records st as userID's status and returns the sockets to tell,
// none when it is what they were told last.
func (w *watchers) changed(userID int64, st UserStatus) []*session {
	w.mu.Lock()
	defer w.mu.Unlock()
	x := w.byUser[userID]
	if x == nil || (x.last.Status == st.Status && x.last.LastSeen == st.LastSeen) {
		return nil
	}
	x.last = st
	out := make([]*session, 0, len(x.socks))
	for s := range x.socks {
		out = append(out, s)
	}
	return out
}

// offlineStatus is the status that tells nothing: what a hidden user, or
// one the caller may not watch, reads as.
func offlineStatus(userID int64) UserStatus {
	return UserStatus{UserID: storage.FormatID(userID), Status: statusOffline, PlatformIDs: []int{}}
}

// statuses works out the status of users as the world may see it.
func (e *Engine) statuses(ctx context.Context, ids []int64) (map[int64]UserStatus, error) {
	settings, err := storage.UserPresences(ctx, e.db, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]UserStatus, len(ids))
	for _, id := range ids {
		st := offlineStatus(id)
		p, ok := settings[id]
		if ok && !p.Hidden {
			online, err := e.cluster.presence.Online(ctx, st.UserID)
			if err != nil {
				return nil, err
			}
			if online {
				st.Status = statusOnline
			} else {
				st.LastSeen = p.LastSeen
			}
		}
		out[id] = st
	}
	return out, nil
}

// announcePresence tells every node that userID's presence may have
// changed (a socket came or went, or the "hide" setting changed). A
// leaving socket first records the user's last seen if it was their last.
func (e *Engine) announcePresence(userID int64, leaving bool) {
	if !e.begin() {
		return
	}
	go func() {
		defer e.commits.wg.Done()
		ctx, cancel := e.ctx()
		defer cancel()
		if leaving {
			online, err := e.cluster.presence.Online(ctx, storage.FormatID(userID))
			if err != nil || online {
				return
			}
			if err := storage.SetUserLastSeen(ctx, e.db, userID, e.now()); err != nil {
				e.log.Warn("record last seen", "user", userID, "err", err)
			}
		}
		b, _ := json.Marshal(userID)
		if err := e.cluster.bus.Publish(ctx, presenceSubject, b); err != nil {
			e.log.Warn("publish presence", "user", userID, "err", err)
		}
	}()
}

// onPresence pushes a user's new status to this node's watchers of them
// who may still watch them.
func (e *Engine) onPresence(_ string, data []byte) {
	var userID int64
	if json.Unmarshal(data, &userID) != nil || !e.cluster.watchers.watchedHere(userID) {
		return
	}
	ctx, cancel := e.ctx()
	defer cancel()
	// The status is read before the relations are checked, never after: a
	// status read after a check could be one the user showed only once the
	// relation had ended (a watcher who left a group between the two reads
	// would be told the last seen of someone no longer related to them).
	// Read this way, what is pushed was the user's status while the watcher
	// was still related.
	st, err := e.statuses(ctx, []int64{userID})
	if err != nil {
		e.log.Warn("presence status", "user", userID, "err", err)
		return
	}
	if err := e.dropUnrelated(ctx, userID); err != nil {
		e.log.Warn("presence watchers", "user", userID, "err", err)
		return
	}
	socks := e.cluster.watchers.changed(userID, st[userID])
	if len(socks) == 0 {
		return
	}
	frame := encodeReply("OnUserStatusChanged", "", st[userID], 0, "")
	for _, s := range socks {
		s.push(frame)
	}
}

// dropUnrelated ends the watches of userID by sockets whose users are no
// longer related to them (the relation was checked at subscription, and a
// block, an unfriending or a group left may have ended it since), before
// anything more is pushed. Each such socket is told a last status that
// tells nothing, so its screen does not keep showing what it was told.
func (e *Engine) dropUnrelated(ctx context.Context, userID int64) error {
	byUser := e.cluster.watchers.watchersOf(userID)
	ids := make([]int64, 0, len(byUser))
	for id := range byUser {
		ids = append(ids, id)
	}
	allowed, err := storage.ChatPresenceAllowed(ctx, e.db, userID, ids)
	if err != nil {
		return err
	}
	var frame []byte
	for id, socks := range byUser {
		if allowed[id] {
			continue
		}
		if frame == nil {
			frame = encodeReply("OnUserStatusChanged", "", offlineStatus(userID), 0, "")
		}
		for _, s := range socks {
			e.cluster.watchers.remove(s, []int64{userID})
			s.push(frame)
		}
	}
	return nil
}

// relationEnded publishes both users' presence after a block or an
// unfriending, so each node ends their watches of each other now rather
// than at the next time either comes or goes.
func (e *Engine) relationEnded(a, b int64) {
	e.announcePresence(a, false)
	e.announcePresence(b, false)
}

func init() {
	register(map[string]handlerFunc{
		"SubscribeUsersStatus":    callSubscribeStatus,
		"UnsubscribeUsersStatus":  callUnsubscribeStatus,
		"GetSubscribeUsersStatus": callSubscribedStatus,
		"GetUserStatus":           callUserStatus,
		"SetPresenceHidden":       callSetPresenceHidden,
		"GetPresenceHidden":       callGetPresenceHidden,
	})
}

// visibleStatuses answers the status of ids as the caller may see it:
// users they may not watch read as offline with no last seen (as a hidden
// user does, so the answer does not tell which of the two it is).
func (c *call) visibleStatuses(ids []int64) ([]UserStatus, map[int64]UserStatus, []int64, error) {
	e := c.s.e
	allowed, err := storage.ChatPresenceAllowed(c.ctx(), e.db, c.me(), ids)
	if err != nil {
		return nil, nil, nil, err
	}
	var may []int64
	for _, id := range ids {
		if allowed[id] {
			may = append(may, id)
		}
	}
	st, err := e.statuses(c.ctx(), may)
	if err != nil {
		return nil, nil, nil, err
	}
	out := make([]UserStatus, 0, len(ids))
	for _, id := range ids {
		s, ok := st[id]
		if !ok {
			s = offlineStatus(id)
		}
		out = append(out, s)
	}
	return out, st, may, nil
}

// callSubscribeStatus watches users and answers their statuses.
func callSubscribeStatus(c *call) (any, error) {
	ids, err := userIDsArg(c, 0, "userIDs")
	if err != nil {
		return nil, err
	}
	out, st, may, err := c.visibleStatuses(ids)
	if err != nil {
		return nil, err
	}
	if !c.s.e.cluster.watchers.add(c.s, may, st) {
		return nil, badArg("userIDs")
	}
	return out, nil
}

// callUserStatus answers statuses without watching.
func callUserStatus(c *call) (any, error) {
	ids, err := userIDsArg(c, 0, "userIDs")
	if err != nil {
		return nil, err
	}
	out, _, _, err := c.visibleStatuses(ids)
	return out, err
}

func callUnsubscribeStatus(c *call) (any, error) {
	ids, err := userIDsArg(c, 0, "userIDs")
	if err != nil {
		return nil, err
	}
	c.s.e.cluster.watchers.remove(c.s, ids)
	return nil, nil
}

// callSubscribedStatus answers the statuses of the users the socket
// watches.
func callSubscribedStatus(c *call) (any, error) {
	ids := c.s.e.cluster.watchers.list(c.s)
	out, _, _, err := c.visibleStatuses(ids)
	return out, err
}

// callSetPresenceHidden hides (true) or shows the caller's presence; the
// watchers of the caller hear of it at once.
func callSetPresenceHidden(c *call) (any, error) {
	hidden, err := c.args.Bool(0, "hidden")
	if err != nil {
		return nil, err
	}
	if err := storage.SetUserPresenceHidden(c.ctx(), c.s.e.db, c.me(), hidden); err != nil {
		return nil, err
	}
	c.s.e.announcePresence(c.me(), false)
	return nil, nil
}

func callGetPresenceHidden(c *call) (any, error) {
	p, err := storage.UserPresences(c.ctx(), c.s.e.db, []int64{c.me()})
	if err != nil {
		return nil, err
	}
	return p[c.me()].Hidden, nil
}
