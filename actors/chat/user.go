package chat

import (
	"encoding/json"
	"errors"
	"slices"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"

	"kj/auth"
	"kj/engine/bus"
	"kj/storage"
)

// Kinds of userEvent.
const (
	evMsgs   = "msgs"   // new stored messages of one conversation
	evPush   = "push"   // one callback to the user's sockets
	evConv   = "conv"   // the user's view of conversations changed: reload
	evRevoke = "revoke" // a message was revoked
)

// userEvent is something for one user's sockets. It is built once and
// shared by every recipient on the node (never modified after prepare),
// and crosses nodes as JSON.
type userEvent struct {
	Kind    string          `json:"kind"`
	Conv    string          `json:"conv,omitempty"`
	Msgs    []*Message      `json:"msgs,omitempty"`
	Skip    []int64         `json:"skip,omitempty"` // per message: the sending socket
	Event   string          `json:"event,omitempty"`
	Data    json.RawMessage `json:"data,omitempty"`
	Convs   []string        `json:"convs,omitempty"`
	Revoked *RevokedInfo    `json:"revoked,omitempty"`

	frames [][]byte // encoded once: a frame per message, or the push frame
}

// prepare encodes the frames every recipient writes.
func (ev *userEvent) prepare() {
	if ev.frames != nil {
		return
	}
	switch ev.Kind {
	case evMsgs:
		ev.frames = make([][]byte, len(ev.Msgs))
		for i, m := range ev.Msgs {
			if m.encoded == nil {
				m.encoded, _ = json.Marshal(m)
				m.encodedText = string(m.encoded)
				m.latestWire = jsonEscape(jsonEscape(m.encoded))
			}
			ev.frames[i] = encodeReply("OnRecvNewMessage", "", rawJSON(m.encoded), 0, "")
		}
		if len(ev.Skip) != len(ev.Msgs) {
			ev.Skip = make([]int64, len(ev.Msgs))
		}
	case evPush:
		ev.frames = [][]byte{encodeReply(ev.Event, "", rawJSON(ev.Data), 0, "")}
	case evRevoke:
		ev.frames = [][]byte{encodeReply("OnNewRecvMessageRevoked", "", ev.Revoked, 0, "")}
	default:
		ev.frames = [][]byte{}
	}
}

// kick ends the sockets of one sign-in session.
type kick struct {
	authSessionID int64
	reason        string
}

// bizNotice is a business notification for the user's sockets.
type bizNotice struct{ n bus.Notification }

func businessFrame(n bus.Notification) []byte {
	return encodeReply("OnRecvCustomBusinessMessage", "", n, 0, "")
}

// userEntry is an online user of this node: its sockets and its actor. It
// outlives actor restarts; sockets attach and detach under the registry
// lock, the actor only reads the list.
type userEntry struct {
	id    int64
	pid   *actor.PID
	conns atomic.Pointer[[]*session]
	n     int // attached sockets; guarded by the registry shard lock
}

func (u *userEntry) sockets() []*session {
	if p := u.conns.Load(); p != nil {
		return *p
	}
	return nil
}

// attach adds a logged-in socket to its user, starting the user actor when
// it is the user's first socket on this node.
func (e *Engine) attach(s *session) *userEntry {
	var entry *userEntry
	e.users.with(s.userID, func() *userEntry {
		u := &userEntry{id: s.userID}
		props := actor.PropsFromProducer(func() actor.Actor { return &userActor{e: e, u: u} },
			actor.WithGuardian(supervision))
		u.pid = e.root.Spawn(props)
		return u
	}, func(u *userEntry) {
		list := append(slices.Clone(u.sockets()), s)
		u.conns.Store(&list)
		u.n++
		entry = u
	})
	return entry
}

// detach removes a socket; the user actor stops with the last one.
func (e *Engine) detach(s *session) {
	e.users.removeIf(s.userID, func(u *userEntry) bool {
		list := slices.DeleteFunc(slices.Clone(u.sockets()), func(x *session) bool { return x == s })
		if len(list) == len(u.sockets()) {
			return false
		}
		u.conns.Store(&list)
		u.n--
		if u.n > 0 {
			return false
		}
		// Poison queues behind what was already sent, so nothing sent
		// before the removal is lost.
		e.root.Poison(u.pid)
		return true
	})
}

// convState is the cached view of one conversation for an online user,
// kept current from deliveries so a new message costs no store read.
type convState struct {
	row        storage.ChatUserConversation
	latest     *Message
	meta       convMeta
	metaLoaded bool
}

// userActor fans a user's events out to its sockets and keeps its unread
// counts.
type userActor struct {
	e      *Engine
	u      *userEntry
	convs  map[string]*convState // nil until first needed
	total  int64
	pushed int64 // last total pushed
	sub    bus.Subscription
}

func (a *userActor) Receive(ctx actor.Context) {
	if h := testHook.Load(); h != nil {
		(*h)("user", ctx.Message())
	}
	switch m := ctx.Message().(type) {
	case *actor.Started:
		a.subscribe(ctx)
	case *actor.Stopping, *actor.Restarting:
		if a.sub != nil {
			_ = a.sub.Unsubscribe()
			a.sub = nil
		}
	case *userEvent:
		switch m.Kind {
		case evMsgs:
			a.onMessages(m)
		case evPush:
			a.pushAll(m.frames[0], 0)
		case evConv:
			a.onChanged(m.Convs)
		case evRevoke:
			a.pushAll(m.frames[0], 0)
			a.onChanged([]string{m.Conv})
		}
	case *bizNotice:
		a.pushAll(businessFrame(m.n), 0)
	case *kick:
		for _, s := range a.u.sockets() {
			if s.authID == m.authSessionID {
				s.kick(m.reason)
			}
		}
	}
}

// subscribe listens on the user's bus subject in a cluster, where pushes
// and deliveries from other nodes arrive.
func (a *userActor) subscribe(ctx actor.Context) {
	if !a.e.cfg.Cluster || a.sub != nil {
		return
	}
	self := ctx.Self()
	id := a.u.id
	sub, err := a.e.bus.Subscribe(bus.UserSubject(storage.FormatID(id)), func(_ string, data []byte) {
		a.e.onUserDataTo(self, data)
	})
	if err != nil {
		a.e.log.Error("subscribe user subject", "user", id, "err", err)
		return
	}
	a.sub = sub
}

func (a *userActor) pushAll(frame []byte, skipConn int64) {
	for _, s := range a.u.sockets() {
		if s.id != skipConn {
			s.push(frame)
		}
	}
}

// load reads every conversation row of the user once.
func (a *userActor) load() bool {
	if a.convs != nil {
		return true
	}
	ctx, cancel := a.e.ctx()
	defer cancel()
	rows, err := storage.ChatUserConversations(ctx, a.e.db, a.u.id)
	if err != nil {
		a.e.log.Warn("load conversations", "user", a.u.id, "err", err)
		return false
	}
	a.convs = make(map[string]*convState, len(rows))
	for _, r := range rows {
		a.convs[r.ConversationID] = &convState{row: r}
	}
	a.total = a.sumUnread()
	a.pushed = -1 // what the client last heard is unknown: tell it on the next change
	return true
}

func (a *userActor) sumUnread() int64 {
	var n int64
	for _, c := range a.convs {
		if c.row.Visible() && c.row.Unread > 0 {
			n += c.row.Unread
		}
	}
	return n
}

// reload fetches one conversation row; nil when the user has none.
func (a *userActor) reload(convID string) *convState {
	ctx, cancel := a.e.ctx()
	defer cancel()
	r, err := storage.ChatUserConversationByID(ctx, a.e.db, a.u.id, convID)
	if err != nil {
		if !errors.Is(err, storage.ErrNotFound) {
			a.e.log.Warn("reload conversation", "user", a.u.id, "conv", convID, "err", err)
		}
		delete(a.convs, convID)
		return nil
	}
	st := a.convs[convID]
	if st == nil {
		st = &convState{}
		a.convs[convID] = st
	}
	st.row = r
	st.latest = nil
	st.metaLoaded = false
	return st
}

func (a *userActor) onMessages(ev *userEvent) {
	for i := range ev.Msgs {
		a.pushAll(ev.frames[i], ev.Skip[i])
	}
	if !a.load() {
		return
	}
	st, known := a.convs[ev.Conv]
	if !known {
		// A conversation new to this user: its row was written with (or
		// before) the messages, so the store already counts them.
		if st = a.reload(ev.Conv); st == nil {
			return
		}
	}
	wasVisible := st.row.Visible()
	if first := ev.Msgs[0]; st.row.MaxSeq >= first.Seq {
		// The row was read after these messages were committed: judge
		// what the client knew before them. A row created with the first
		// message, or hidden until it, is a new conversation to the client.
		wasVisible = st.row.CreatedAt < first.SendTime && (st.row.HideSeq < 0 || st.row.HideSeq < first.Seq-1)
	}
	me := storage.FormatID(a.u.id)
	for _, m := range ev.Msgs {
		if m.Seq <= st.row.MaxSeq {
			// Already counted (the row was read after this commit).
			if m.Seq <= st.row.VisibleMax() && m.Seq > st.row.MinSeq && (st.latest == nil || m.Seq >= st.latest.Seq) {
				st.latest = m
			}
			continue
		}
		st.row.MaxSeq = m.Seq
		st.row.LatestTime = m.SendTime
		if m.Seq > st.row.VisibleMax() || m.Seq <= st.row.MinSeq {
			continue
		}
		st.latest = m
		switch {
		case m.SendID == me && m.ContentType < storage.ChatNoticeFrom:
			st.row.ReadSeq = m.Seq
			st.row.Unread = 0
		case m.Seq > st.row.ReadSeq && m.ContentType < storage.ChatNoticeFrom:
			st.row.Unread++
		}
		if m.ContentType >= NoticeGroupCreated && m.ContentType <= NoticeGroupNameSet {
			st.metaLoaded = false // name, face or membership may have changed
		}
	}
	if st.row.Visible() {
		event := "OnConversationChanged"
		if !wasVisible {
			event = "OnNewConversation"
		}
		a.pushConversations(event, st)
	}
	a.pushTotal()
}

// onChanged reloads conversations whose row changed elsewhere (mark read
// on another device or node, pin, draft, membership).
func (a *userActor) onChanged(convIDs []string) {
	if len(convIDs) == 0 {
		a.convs = nil // every conversation changed (hide all, clear all)
	}
	if !a.load() {
		return
	}
	var changed []*convState
	for _, id := range convIDs {
		if st := a.reload(id); st != nil && st.row.Visible() {
			changed = append(changed, st)
		}
	}
	if len(changed) > 0 {
		a.pushConversations("OnConversationChanged", changed...)
	}
	a.pushTotal()
}

func (a *userActor) pushConversations(event string, states ...*convState) {
	// The store context is made only if a name or latest message must be
	// read: in steady traffic both are cached, and a timeout context (a
	// runtime timer armed and stopped) per recipient per message was 12 %
	// of the server's CPU under W3's group fanout.
	store := lazyContext{e: a.e}
	defer store.release()
	var need []storage.ChatUserConversation
	for _, st := range states {
		if !st.metaLoaded {
			need = append(need, st.row)
		}
	}
	if len(need) > 0 {
		metas, err := a.e.convMetas(store.get(), a.u.id, need)
		if err != nil {
			a.e.log.Warn("conversation names", "user", a.u.id, "err", err)
		}
		for _, st := range states {
			if m, ok := metas[st.row.ConversationID]; ok {
				st.meta, st.metaLoaded = m, true
			}
		}
	}
	items := make([]*ConversationItem, 0, len(states))
	latest := make([]*Message, 0, len(states))
	for _, st := range states {
		if st.latest == nil && st.row.VisibleMax() > st.row.MinSeq {
			if m, err := storage.LatestVisibleChatMessage(store.get(), a.e.db, a.u.id, st.row.ConversationID, st.row.MinSeq, st.row.VisibleMax()); err == nil {
				st.latest = fromStored(m)
			}
		}
		items = append(items, conversationItem(st.row, st.meta, st.latest))
		latest = append(latest, st.latest)
	}
	a.pushAll(encodeConversationPush(event, items, latest), 0)
}

func (a *userActor) pushTotal() {
	a.total = a.sumUnread()
	if a.total == a.pushed {
		return
	}
	a.pushed = a.total
	a.pushAll(encodeReply("OnTotalUnreadMessageCountChanged", "", a.total, 0, ""), 0)
}

// onUserDataTo is onUserData for a subscription of one user actor
// (cluster mode): events go to that actor only.
func (e *Engine) onUserDataTo(pid *actor.PID, data []byte) {
	var env struct {
		Key  string     `json:"key"`
		Data string     `json:"data"`
		Chat *userEvent `json:"chat"`
		Node string     `json:"node"`
	}
	if json.Unmarshal(data, &env) != nil {
		return
	}
	switch {
	case env.Chat != nil:
		if env.Node == e.cfg.NodeID {
			return
		}
		env.Chat.prepare()
		e.root.Send(pid, env.Chat)
	case env.Key != "":
		e.root.Send(pid, &bizNotice{n: bus.Notification{Key: env.Key, Data: env.Data}})
	}
}

// kickReasonCode maps a session-ended reason onto the callback and code.
func kickReasonCode(reason string) (event string, replaced bool) {
	if reason == auth.ReasonReplaced {
		return "OnKickedOffline", true
	}
	return "OnUserTokenExpired", false
}
