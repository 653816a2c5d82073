package chat

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"

	"kj/internal/bus"
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
			m.encode()
			ev.frames[i] = m.frame // every recipient writes the message's own frame
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
	e     *Engine
	id    int64
	pid   *actor.PID
	conns atomic.Pointer[[]*session]
	n     int // attached sockets; guarded by the registry shard lock

	// Events whose effect on the user's own state (conversation rows,
	// unread total) waits for the user actor's next flush; their frames
	// were already written. flushDue says the actor has a flush coming.
	pmu      sync.Mutex
	pending  []*userEvent
	spare    []*userEvent // the previous flush's slice, reused
	flushDue bool

	// flushedAt is when the flusher last told the actor to flush, in
	// nanoseconds since the flusher's start (0: never). The flusher's
	// goroutine and flusher.add use it, never at once for one user: add
	// runs only when no flush is due (flushDue), run only while one is;
	// flushEarly may store it beside run (either time will do).
	flushedAt atomic.Int64
	// flushesTold counts the flushes the flusher told the actor of: an
	// acknowledgement queued held waits for the next (releaseAcks).
	flushesTold atomic.Uint64
	// flushesTaken is flushesTold as a flush read it when it started:
	// every flush told up to then is served by that one. Below
	// flushesTold, a flush told is still in the actor's mailbox, and it
	// releases the sockets after whatever is queued on them now.
	flushesTaken atomic.Uint64
}

// flushGathered says whether the user has events waiting for a flush
// that the flusher has not told the actor of yet (a coalescing window's).
func (u *userEntry) flushGathered() bool {
	u.pmu.Lock()
	defer u.pmu.Unlock()
	return u.flushDue
}

// flushWaiting says whether a flush told to the actor has not started
// yet (it will release the user's sockets when it ends).
func (u *userEntry) flushWaiting() bool {
	told := u.flushesTold.Load() // first: a flush that starts after this read stores at least told
	return u.flushesTaken.Load() < told
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
	e.live.users.with(s.userID, func() *userEntry {
		u := &userEntry{e: e, id: s.userID}
		u.pid = e.root.Spawn(userProps)
		// The actor learns its user from its first message.
		e.root.Send(u.pid, u)
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
	e.live.users.removeIf(s.userID, func(u *userEntry) bool {
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
	party      string // the peer's or group's id as text, made at the first push
}

// userActor keeps an online user's conversation rows and unread counts
// and pushes their changes to the user's sockets. The frames of messages
// and pushes themselves do not pass through it: fanOut writes them to the
// sockets directly and leaves the actor the state to update, which it
// does once per coalescing window (flush), so a member of a busy group
// gets one conversation frame per burst, not one per post.
//
// Every message names the user (the flush is the *userEntry itself, other
// tells come as userTell), so all user actors share one Props: a Props and
// its producer per user were ~0.3 KB of an idle socket. An actor knows its
// user from its first message on; a restarted one from the next.
type userActor struct {
	e      *Engine
	u      *userEntry            // nil until the first message
	convs  map[string]*convState // nil until first needed
	total  int64
	pushed int64 // last total pushed

	// Conversations changed since the last push, in order of first change,
	// and whether each was new to the client (OnNewConversation).
	touched []touchedConv

	sub bus.Subscription
}

// touchedConv is a conversation changed since the last push, and whether
// it was new to the client (OnNewConversation).
type touchedConv struct {
	id    string
	isNew bool
}

// userProps spawns every user actor.
var userProps = actor.PropsFromProducer(func() actor.Actor { return &userActor{} },
	actor.WithGuardian(supervision), actor.WithMailbox(newSmallMailbox), actor.WithDispatcher(chatDispatcher))

// userTell is a message for a user actor other than the flush.
type userTell struct {
	u   *userEntry
	msg any
}

func (a *userActor) Receive(ctx actor.Context) {
	msg := ctx.Message()
	if t, ok := msg.(*userTell); ok {
		a.learn(t.u)
		msg = t.msg
	}
	if h := testHook.Load(); h != nil {
		(*h)("user", msg)
	}
	switch m := msg.(type) {
	case *userEntry: // the flush (and the first message)
		a.learn(m)
		a.flush()
	case *actor.Stopping:
		a.unsubscribe()
	case *actor.Restarting:
		a.unsubscribe()
		if a.u != nil {
			// The next instance learns its user (and subscribes) at once.
			ctx.Send(ctx.Self(), a.u)
		}
	case *userEvent:
		// From another node (cluster mode): written and queued like the
		// node's own deliveries.
		a.e.fanOut(a.u, m)
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

// learn sets the actor's user from a message, subscribing to its subject
// the first time.
func (a *userActor) learn(u *userEntry) {
	if a.u != nil {
		return
	}
	a.u, a.e = u, u.e
	a.subscribe()
}

func (a *userActor) unsubscribe() {
	if a.sub != nil {
		_ = a.sub.Unsubscribe()
		a.sub = nil
	}
}

// subscribe listens on the user's bus subject in a cluster, where pushes
// and deliveries from other nodes arrive.
func (a *userActor) subscribe() {
	if !a.e.cfg.Cluster || a.sub != nil {
		return
	}
	u := a.u
	sub, err := a.e.cluster.bus.Subscribe(bus.UserSubject(storage.FormatID(u.id)), func(_ string, data []byte) {
		a.e.onUserDataTo(u, data)
	})
	if err != nil {
		a.e.log.Error("subscribe user subject", "user", u.id, "err", err)
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
		if c.row.CountsInTotal() {
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

// flush applies every pending event to the cached rows, then pushes each
// changed conversation once and the unread total once.
func (a *userActor) flush() {
	u := a.u
	u.flushesTaken.Store(u.flushesTold.Load())
	// Message frames fanned out since the last flush wait on the sockets
	// for this one (Engine.fanOut); they go out whatever happens here,
	// with the next flush when one is told already: frames queued held
	// since this one started (an acknowledgement, the next message) wait
	// for that flush's frames instead of leaving alone.
	defer func() {
		if u.flushWaiting() {
			return
		}
		for _, s := range u.sockets() {
			s.release()
		}
	}()
	u.pmu.Lock()
	evs := u.pending
	u.pending, u.spare = u.spare, nil
	u.flushDue = false
	u.pmu.Unlock()
	for _, ev := range evs {
		switch ev.Kind {
		case evMsgs:
			a.onMessages(ev)
		case evConv:
			a.onChanged(ev.Convs)
		case evRevoke:
			a.onChanged([]string{ev.Conv})
		}
	}
	clear(evs)
	if cap(evs) <= maxSpareEvents {
		u.pmu.Lock()
		u.spare = evs[:0]
		u.pmu.Unlock()
	}
	a.pushTouched()
	if a.convs != nil {
		a.pushTotal()
	}
}

// maxSpareEvents bounds the pending slice a user keeps between flushes.
const maxSpareEvents = 64

// touch notes that a conversation changed for the next push.
func (a *userActor) touch(convID string, isNew bool) {
	for i := range a.touched {
		if t := &a.touched[i]; t.id == convID {
			t.isNew = t.isNew || isNew
			return
		}
	}
	a.touched = append(a.touched, touchedConv{convID, isNew})
}

// pushTouched pushes the touched conversations that are visible: the new
// ones in one OnNewConversation, the others in one OnConversationChanged.
func (a *userActor) pushTouched() {
	if len(a.touched) == 0 {
		return
	}
	// Room on the stack for the usual few, so a push allocates no lists.
	var freshBuf, changedBuf [4]*convState
	fresh, changed := freshBuf[:0], changedBuf[:0]
	for _, t := range a.touched {
		st := a.convs[t.id]
		if st == nil || !st.row.Visible() {
			continue
		}
		if t.isNew {
			fresh = append(fresh, st)
		} else {
			changed = append(changed, st)
		}
	}
	clear(a.touched)
	a.touched = a.touched[:0]
	if len(fresh) > 0 {
		a.pushConversations("OnNewConversation", fresh...)
	}
	if len(changed) > 0 {
		a.pushConversations("OnConversationChanged", changed...)
	}
}

func (a *userActor) onMessages(ev *userEvent) {
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
	for _, m := range ev.Msgs {
		if m.Seq <= st.row.MaxSeq {
			// Already counted (the row was read after this commit).
			if m.Seq <= st.row.VisibleMax() && m.Seq > st.row.MinSeq && (st.latest == nil || m.Seq >= st.latest.Seq) && !isMarkNotice(m.ContentType) {
				st.latest = m
			}
			continue
		}
		st.row.MaxSeq = m.Seq
		st.row.LatestTime = m.SendTime
		if m.Seq > st.row.VisibleMax() || m.Seq <= st.row.MinSeq {
			continue
		}
		if isMarkNotice(m.ContentType) {
			markedLatest(st, m) // a reaction or an edit is never the latest message
			continue
		}
		st.latest = m
		switch {
		case isID(m.SendID, a.u.id) && m.ContentType < storage.ChatNoticeFrom:
			st.row.ReadSeq = m.Seq
			st.row.Unread = 0
			st.row.AtType = 0
		case m.Seq > st.row.ReadSeq && m.ContentType < storage.ChatNoticeFrom:
			st.row.Unread++
			if m.ContentType == TypeAtText && st.row.GroupID != 0 {
				st.row.AtType |= mentionType(m, a.u.id)
			}
		}
		if m.ContentType >= NoticeGroupCreated && m.ContentType <= NoticeGroupNameSet {
			st.metaLoaded = false // name, face or membership may have changed
		}
	}
	if st.row.Visible() {
		a.touch(ev.Conv, !wasVisible)
	}
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
	for _, id := range convIDs {
		if st := a.reload(id); st != nil && st.row.Visible() {
			a.touch(id, false)
		}
	}
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
	// The usual one or two items are rendered on the stack and the frame
	// into a pooled buffer: a member's push in steady traffic allocates
	// nothing.
	var itemBuf [2]ConversationItem
	var itemPtrs [2]*ConversationItem
	var latestBuf [2]*Message
	var items []*ConversationItem
	var latest []*Message
	if n := len(states); n <= len(itemBuf) {
		for i, st := range states {
			a.renderItem(&store, st, &itemBuf[i])
			itemPtrs[i], latestBuf[i] = &itemBuf[i], st.latest
		}
		items, latest = itemPtrs[:n], latestBuf[:n]
	} else {
		items, latest = make([]*ConversationItem, n), make([]*Message, n)
		for i, st := range states {
			it := new(ConversationItem)
			a.renderItem(&store, st, it)
			items[i], latest[i] = it, st.latest
		}
	}
	p := getFrame()
	*p = appendConversationPush(*p, event, items, latest)
	a.pushOwned(p)
}

// renderItem renders a conversation into it, reading its latest message
// from the store when it is not cached.
func (a *userActor) renderItem(store *lazyContext, st *convState, it *ConversationItem) {
	if st.latest == nil && st.row.VisibleMax() > st.row.MinSeq {
		if m, err := storage.LatestVisibleChatMessage(store.get(), a.e.db, a.u.id, st.row.ConversationID, st.row.MinSeq, st.row.VisibleMax()); err == nil {
			st.latest = fromStored(m)
		}
	}
	if st.party == "" {
		st.party = storage.FormatID(convPartyID(st.row))
	}
	fillConversationItem(it, st.row, st.meta, st.latest, st.party, true)
}

// pushOwned queues a framePool buffer on the user's sockets, held: the
// flush calling it releases the sockets once it has queued every frame, so
// the message, its conversation and the total leave in one write (woken
// here, a writer could take the first before the last was queued). The
// buffer is handed to the only socket (which gives it back once written),
// or shared by several (then never given back: none knows when the others
// are done with it).
func (a *userActor) pushOwned(p *[]byte) {
	socks := a.u.sockets()
	switch len(socks) {
	case 0:
		putFrame(p)
	case 1:
		socks[0].pushOwnedHeld(p)
	default:
		for _, s := range socks {
			s.pushHeld(*p)
		}
	}
}

// isID says whether s is id in decimal, without making the string.
func isID(s string, id int64) bool {
	var buf [20]byte
	return string(strconv.AppendInt(buf[:0], id, 10)) == s
}

func (a *userActor) pushTotal() {
	a.total = a.sumUnread()
	if a.total == a.pushed {
		return
	}
	a.pushed = a.total
	p := getFrame()
	*p = appendTotalPush(*p, a.total)
	a.pushOwned(p)
}

// onUserDataTo is onUserData for a subscription of one user actor
// (cluster mode): events go to that actor only.
func (e *Engine) onUserDataTo(u *userEntry, data []byte) {
	if msg := e.userDataMessage(data); msg != nil {
		e.root.Send(u.pid, &userTell{u: u, msg: msg})
	}
}
