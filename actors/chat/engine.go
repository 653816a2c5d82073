package chat

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/gorilla/websocket"

	"kj/auth"
	"kj/internal/apierr"
	"kj/internal/bus"
	"kj/internal/clock"
	"kj/internal/presence"
	"kj/storage"
)

// Config tunes the engine; zero values take the documented defaults.
type Config struct {
	NodeID string
	// Cluster sends deliveries to users on other nodes over the bus and
	// subscribes per online user; otherwise the node delivers in process.
	Cluster bool
	// GroupMaxMembers caps a group's size (KJ_GROUP_MAX_MEMBERS), 2000.
	GroupMaxMembers int
	// ReceiptGroupMax is the largest group whose members' reads are
	// reported to senders (KJ_CHAT_RECEIPT_GROUP_MAX), 100.
	ReceiptGroupMax int
	// RevokeWindow is how long a sender may revoke (KJ_REVOKE_WINDOW), 2m.
	RevokeWindow time.Duration
	// EditWindow is how long a sender may edit a text message
	// (KJ_CHAT_EDIT_WINDOW), 15m.
	EditWindow time.Duration
	// PingPeriod is the server ping interval, 25 s.
	PingPeriod time.Duration
	// IdleTimeout closes a socket silent this long (no frame, no pong), 60 s.
	IdleTimeout time.Duration
	// WriteTimeout bounds one frame write, 10 s.
	WriteTimeout time.Duration
	// MaxFrame is the largest request frame, 256 KiB; a bigger one closes
	// the socket (1009).
	MaxFrame int64
	// OutboundQueue is how many frames may wait for a socket before it is
	// disconnected as a slow consumer, 512.
	OutboundQueue int
	// RequestRate and RequestBurst limit requests per socket: 30/s, burst 60.
	RequestRate  float64
	RequestBurst float64
	// InboundQueue and InboundBytes bound the frames read from a socket
	// and not yet taken by its session actor, 256 frames and 2 MiB; past
	// either the socket is closed as too fast (session_limits.go).
	InboundQueue int
	InboundBytes int64
	// MaxSocketsPerUser caps one user's open sockets per platform on this
	// node (KJ_CHAT_MAX_SOCKETS_PER_USER), 5.
	MaxSocketsPerUser int
	// MaxBatch caps the messages of one conversation handed to the writer
	// at once, 128.
	MaxBatch int
	// Writers is the most chat writer transactions in flight at once
	// (KJ_CHAT_WRITERS), 2: one commits everything queued, a second starts
	// only when the queue outgrows it (commit_writer.go).
	Writers int
	// WriterBatch caps the messages of one writer transaction, 1024.
	WriterBatch int
	// ActorIdle retires an idle conversation or group actor, 2 min.
	ActorIdle time.Duration
	// MaxMuteSeconds caps ChangeGroupMemberMute, 30 days.
	MaxMuteSeconds int64
	// Coalesce is how long a user's conversation and unread-total pushes
	// wait to take in more changes (KJ_CHAT_COALESCE), 5 ms; negative
	// pushes after every change. The message frames fanned out meanwhile
	// wait with them, so they leave in one write. A user not flushed
	// within the last window is flushed at once (flusher.add).
	Coalesce time.Duration
	// PushInterval is the least time between two such pushes to one user
	// (KJ_CHAT_PUSH_INTERVAL): changes within it wait for its end and go
	// in one push. Zero or less than Coalesce: none.
	PushInterval time.Duration
	// SocketWriters is how many goroutines write sockets' queued frames, 128.
	SocketWriters int
	// BurnSweep is how often the node deletes private messages whose time
	// after reading is up (KJ_CHAT_BURN_SWEEP), 1 s (burn.go).
	BurnSweep time.Duration
}

func (c *Config) defaults() {
	orDefault(&c.RevokeWindow, 2*time.Minute)
	orDefault(&c.EditWindow, 15*time.Minute)
	orDefault(&c.PingPeriod, 25*time.Second)
	orDefault(&c.IdleTimeout, 60*time.Second)
	orDefault(&c.WriteTimeout, 10*time.Second)
	orDefault(&c.ActorIdle, 2*time.Minute)
	orDefault(&c.GroupMaxMembers, 2000)
	orDefault(&c.ReceiptGroupMax, 100)
	orDefault(&c.MaxFrame, 256<<10)
	orDefault(&c.OutboundQueue, 512)
	orDefault(&c.RequestRate, 30)
	orDefault(&c.RequestBurst, 60)
	orDefault(&c.InboundQueue, 256)
	orDefault(&c.InboundBytes, 2<<20)
	orDefault(&c.MaxSocketsPerUser, 5)
	orDefault(&c.MaxBatch, 128)
	if c.Coalesce == 0 { // not orDefault: a negative Coalesce (push after every change) is kept
		c.Coalesce = 5 * time.Millisecond
	}
	orDefault(&c.SocketWriters, 128)
	orDefault(&c.Writers, 2)
	orDefault(&c.WriterBatch, 1024)
	orDefault(&c.MaxMuteSeconds, 30*24*3600)
	orDefault(&c.BurnSweep, time.Second)
	if c.NodeID == "" {
		c.NodeID = "node-" + strconv.FormatInt(storage.NewID(), 36)
	}
}

// orDefault sets a setting that is not positive to its default d.
func orDefault[T int | int64 | float64 | time.Duration](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}

// Deps are the node services the engine works with.
type Deps struct {
	DB       storage.DB
	Bus      bus.Bus
	Clock    clock.Clock
	Sessions *auth.Sessions
	Presence presence.Presence
	Actors   *actor.ActorSystem
	Log      *slog.Logger
}

// Engine is the chat engine of one node. Beside the node services it
// works with, its state comes in parts named for what they serve; doc.go
// says which actor or goroutine touches each.
type Engine struct {
	cfg    Config
	db     storage.DB
	clock  clock.Clock
	auth   *auth.Sessions
	log    *slog.Logger
	system *actor.ActorSystem
	root   *actor.RootContext

	gateway  gateway      // the sockets: handshake, reading, heartbeat, writing
	live     registries   // which socket or actor serves what on this node
	commits  commitState  // the chat writer and the commits in flight
	delivery delivery     // fan-out to this node's users
	cluster  clusterState // what the node tells other nodes and hears from them
	burns    *burnSweep   // deletes private messages read long enough ago (burn.go)
}

// gateway is the socket side of the node.
type gateway struct {
	upgrader      websocket.Upgrader
	poller        *poller     // the epoll readers (poller_linux.go)
	wheel         *wheel      // pings, idle timeouts, sign-in expiry (wheel.go)
	socketWriters *writerPool // write sockets' queued frames (fanout.go)
	caps          socketCaps  // open sockets per user and platform (session_limits.go)
	draining      atomic.Bool // Drain began: new sockets are refused
}

// registries map ids to the live sockets and actors of this node
// (registry.go): a sender enqueues under the shard lock, an actor retires
// under it.
type registries struct {
	sockets *registry[int64, *session]    // by socket id
	users   *registry[int64, *userEntry]  // online users: their sockets and user actor
	convs   *registry[string, *actor.PID] // 1:1 conversation actors, by conversation id
	groups  *registry[int64, *actor.PID]  // group actors, by group id
}

// commitState is the chat writer and the count of commits in flight,
// which Close waits for before it stops the writer.
type commitState struct {
	writer  *writer        // the chat writer workers (commit_writer.go)
	wg      sync.WaitGroup // commits in flight (writer jobs and op goroutines)
	closeMu sync.RWMutex   // orders begin (RLock) before Close (Lock)
	closed  atomic.Bool    // Close began: begin refuses
}

// delivery is what fanning events out to this node's users keeps.
type delivery struct {
	flushes *flusher   // tells user actors to flush, once per coalescing window (fanout.go)
	pushed  *fannedOut // messages fanned out lately (fanned_out.go)
	webPush pushHook   // offered the committed messages, for devices with the app closed (push_hook.go)
}

// clusterState is how the node hears other nodes: the bus (in process on
// a single node) and presence, with the engine's own subscriptions and
// the presence watches of its sockets. User and group actors hold their
// own subscriptions.
type clusterState struct {
	bus      bus.Bus
	presence presence.Presence
	subs     []bus.Subscription // made by Start, ended by Close
	watchers *watchers          // presence subscriptions of this node's sockets (presence_watch.go)
}

// New builds the engine; Start subscribes it to the bus.
func New(d Deps, cfg Config) *Engine {
	cfg.defaults()
	if d.Log == nil {
		d.Log = slog.Default()
	}
	e := &Engine{
		cfg: cfg, db: d.DB, clock: d.Clock, auth: d.Sessions,
		log: d.Log.With("area", "chat"), system: d.Actors, root: d.Actors.Root,
		live: registries{sockets: newRegistry[int64, *session](), users: newRegistry[int64, *userEntry](),
			convs: newRegistry[string, *actor.PID](), groups: newRegistry[int64, *actor.PID]()},
		delivery: delivery{pushed: newFannedOut()},
		cluster:  clusterState{bus: d.Bus, presence: d.Presence, watchers: newWatchers()},
	}
	e.commits.writer = newWriter(e, cfg.Writers)
	e.delivery.flushes = newFlusher(e, cfg.Coalesce, cfg.PushInterval)
	e.gateway.socketWriters = newWriterPool(cfg.SocketWriters)
	e.gateway.poller = newPoller(e, max(2, runtime.GOMAXPROCS(0)))
	e.gateway.wheel = newWheel(e)
	// Small buffers and a shared write buffer pool keep an idle socket
	// cheap: the write buffer is held only while a frame is written.
	e.gateway.upgrader = websocket.Upgrader{
		// The Conn that Upgrade returns is dropped after the handshake
		// (the node reads and writes the frames itself) but comes with a
		// read buffer: the smallest gorilla allows.
		ReadBufferSize:  125,
		WriteBufferSize: 512,
		WriteBufferPool: &sync.Pool{},
		CheckOrigin:     func(*http.Request) bool { return true },
	}
	return e
}

// Start subscribes to session ends, broadcasts and (single node) user
// pushes, and re-arms the unmute timers of muted members so an unmute is
// announced even when its deadline passed while no node was running.
func (e *Engine) Start(ctx context.Context) error {
	sub, err := e.cluster.bus.Subscribe(auth.SessionEndedSubject, e.onSessionEnded)
	if err != nil {
		return err
	}
	e.cluster.subs = append(e.cluster.subs, sub)
	if sub, err = e.cluster.bus.Subscribe(bus.BroadcastSubject, e.onBroadcast); err != nil {
		return err
	}
	e.cluster.subs = append(e.cluster.subs, sub)
	if sub, err = e.cluster.bus.Subscribe(presenceSubject, e.onPresence); err != nil {
		return err
	}
	e.cluster.subs = append(e.cluster.subs, sub)
	if e.cfg.Cluster {
		if sub, err = e.cluster.bus.Subscribe(rulesSubject, e.onRulesChanged); err != nil {
			return err
		}
		e.cluster.subs = append(e.cluster.subs, sub)
	}
	if !e.cfg.Cluster {
		// One subscription for every user of this node: the in-process bus
		// matches each publish against every subscription, so per-user
		// subscriptions would cost O(online users) per push.
		if sub, err = e.cluster.bus.Subscribe(bus.UserSubjects, e.onUserSubject); err != nil {
			return err
		}
		e.cluster.subs = append(e.cluster.subs, sub)
	}
	bus.OnResume(e.cluster.bus, e.onBusResumed)
	e.burns = e.startBurnSweep()
	mutes, err := storage.ChatMutes(ctx, e.db)
	if err != nil {
		return err
	}
	seen := map[int64]bool{}
	for _, m := range mutes {
		if !seen[m.GroupID] {
			seen[m.GroupID] = true
			e.tellGroup(m.GroupID, &wakeGroup{})
		}
	}
	return nil
}

// onBusResumed runs when the node's bus connection is back after an
// outage. Whatever other nodes published meanwhile never reached this one:
// pushes for its sockets, blocks (the 1:1 rules) and group changes. So
// every actor drops its rules and member list (reloaded from the store on
// the next send), and every socket is closed as at a restart (1012, reason
// 1337), so each client reconnects and resyncs by seq from the store —
// the push channel is best effort, the store is not.
func (e *Engine) onBusResumed() {
	if e.gateway.draining.Load() {
		return
	}
	e.log.Warn("bus connection back: dropping cached rules and closing sockets so clients resync", "sockets", e.live.sockets.count())
	e.live.convs.each(func(id string, _ *actor.PID) { e.dropRules(id) })
	e.live.groups.each(func(id int64, _ *actor.PID) {
		e.live.groups.with(id, nil, func(pid *actor.PID) { e.root.Send(pid, &membersChanged{}) })
	})
	e.live.sockets.each(func(_ int64, s *session) {
		s.closeWith(websocket.CloseServiceRestart, apierr.CodeChatDraining)
	})
}

// Close stops the engine's subscriptions; Drain closes the sockets first.
func (e *Engine) Close() {
	e.commits.closeMu.Lock()
	already := e.commits.closed.Swap(true)
	e.commits.closeMu.Unlock()
	if already {
		return
	}
	for _, s := range e.cluster.subs {
		_ = s.Unsubscribe()
	}
	e.burns.stop()
	e.commits.wg.Wait()
	e.commits.writer.close()
	// Stop the actors (and with them their timers) so a node that closed
	// announces nothing more.
	var futures []*actor.Future
	stop := func(pid *actor.PID) { futures = append(futures, e.root.StopFuture(pid)) }
	e.live.groups.each(func(_ int64, pid *actor.PID) { stop(pid) })
	e.live.convs.each(func(_ string, pid *actor.PID) { stop(pid) })
	e.live.users.each(func(_ int64, u *userEntry) { stop(u.pid) })
	for _, f := range futures {
		_ = f.Wait()
	}
	e.delivery.flushes.stop()
	e.gateway.socketWriters.stop()
	e.gateway.wheel.stop()
	e.gateway.poller.stop()
}

// Drain refuses new sockets and closes the open ones with a reason so the
// clients reconnect elsewhere, waiting (until ctx ends) for them to go.
func (e *Engine) Drain(ctx context.Context) {
	e.gateway.draining.Store(true)
	e.live.sockets.each(func(_ int64, s *session) {
		s.closeWith(websocket.CloseServiceRestart, apierr.CodeChatDraining)
	})
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for e.live.sockets.count() > 0 {
		select {
		case <-ctx.Done():
			e.live.sockets.each(func(_ int64, s *session) { s.abort() })
			return
		case <-t.C:
		}
	}
}

// begin counts a commit (a writer batch or an op) Close must wait for; it refuses once the
// engine is closing.
func (e *Engine) begin() bool {
	e.commits.closeMu.RLock()
	defer e.commits.closeMu.RUnlock()
	if e.commits.closed.Load() {
		return false
	}
	e.commits.wg.Add(1)
	return true
}

// Connections is the number of open sockets on this node.
func (e *Engine) Connections() int { return e.live.sockets.count() }

func (e *Engine) now() int64 { return e.clock.Now().UnixMilli() }

// ctx is the context of work the engine does on its own behalf.
func (e *Engine) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 30*time.Second)
}

// lazyContext is e.ctx() made on first use, for paths that reach the store
// only now and then.
type lazyContext struct {
	e      *Engine
	ctx    context.Context
	cancel context.CancelFunc
}

func (l *lazyContext) get() context.Context {
	if l.ctx == nil {
		l.ctx, l.cancel = l.e.ctx()
	}
	return l.ctx
}

func (l *lazyContext) release() {
	if l.cancel != nil {
		l.cancel()
	}
}

// onSessionEnded kicks the sockets of a replaced or signed-out sign-in.
func (e *Engine) onSessionEnded(_ string, data []byte) {
	var ev auth.SessionEnded
	if json.Unmarshal(data, &ev) != nil || ev.UserID == 0 {
		return
	}
	e.tellUser(ev.UserID, &kick{authSessionID: ev.SessionID, reason: ev.Reason})
}

// onBroadcast hands a business notification to every socket of the node.
func (e *Engine) onBroadcast(_ string, data []byte) {
	var n bus.Notification
	if json.Unmarshal(data, &n) != nil || n.Key == "" {
		return
	}
	frame := businessFrame(n)
	e.live.sockets.each(func(_ int64, s *session) {
		if s.isLoggedIn() {
			s.push(frame)
		}
	})
}

// onUserSubject routes a push to one user (single-node mode).
func (e *Engine) onUserSubject(subject string, data []byte) {
	id, ok := bus.UserFromSubject(subject)
	if !ok {
		return
	}
	uid, err := parseUserID(id)
	if err != nil {
		return
	}
	e.onUserData(uid, data)
}

// onUserData decodes what arrived on a user's subject: a business
// notification ({"key","data"}) or a chat event from another node.
func (e *Engine) onUserData(userID int64, data []byte) {
	if msg := e.userDataMessage(data); msg != nil {
		e.tellUser(userID, msg)
	}
}

// userDataMessage turns what arrived on a user's subject into the message
// for the user actor: a chat event from another node (nil when it came
// from this one: delivered in process already), or a business
// notification; nil for anything else.
func (e *Engine) userDataMessage(data []byte) any {
	var env struct {
		Key  string     `json:"key"`
		Data string     `json:"data"`
		Chat *userEvent `json:"chat"`
		Node string     `json:"node"`
	}
	if json.Unmarshal(data, &env) != nil {
		return nil
	}
	switch {
	case env.Chat != nil:
		if env.Node == e.cfg.NodeID {
			return nil
		}
		env.Chat.prepare()
		return env.Chat
	case env.Key != "":
		return &bizNotice{n: bus.Notification{Key: env.Key, Data: env.Data}}
	}
	return nil
}

// tellUser sends msg to the user actor of userID on this node, if online.
func (e *Engine) tellUser(userID int64, msg any) bool {
	return e.live.users.with(userID, nil, func(u *userEntry) { e.root.Send(u.pid, &userTell{u: u, msg: msg}) })
}

// deliver hands an event to the users on this node and, in a cluster, to
// their sockets on other nodes. On this node its frames (encoded once,
// shared by every recipient) go straight onto each recipient's sockets in
// one loop; what the event changes in a recipient's own state waits for
// its user actor's next flush (fanOut).
func (e *Engine) deliver(userIDs []int64, ev *userEvent) {
	ev.prepare()
	for _, id := range userIDs {
		if u, ok := e.live.users.get(id); ok {
			e.fanOut(u, ev)
		}
	}
	if ev.Kind == evMsgs {
		e.offerPush(userIDs, ev)
	}
	if !e.cfg.Cluster || len(userIDs) == 0 {
		return
	}
	payload, err := json.Marshal(struct {
		Chat *userEvent `json:"chat"`
		Node string     `json:"node"`
	}{ev, e.cfg.NodeID})
	if err != nil {
		e.log.Error("encode delivery", "err", err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, id := range userIDs {
		if err := e.cluster.bus.Publish(ctx, bus.UserSubject(storage.FormatID(id)), payload); err != nil {
			e.log.Warn("publish delivery", "user", id, "err", err)
		}
	}
}

// fanOut writes an event's frames to the sockets of one user of this node
// (each message's sending socket excepted: it had the reply) and queues
// its state change for the user actor, which is told to flush once per
// coalescing window however many events arrive meanwhile. Nothing here
// allocates per recipient: the frames are shared, the socket queues and
// the pending list reuse their slices.
func (e *Engine) fanOut(u *userEntry, ev *userEvent) {
	socks := u.sockets()
	switch ev.Kind {
	case evMsgs:
		// Held for the flush this event is pending for (below), which
		// releases the sockets once the conversation frames are queued.
		for i, f := range ev.frames {
			skip := ev.Skip[i]
			for _, s := range socks {
				if s.id != skip {
					s.pushHeld(f)
				}
			}
		}
	case evPush, evRevoke:
		for _, s := range socks {
			s.push(ev.frames[0])
		}
		if ev.Kind == evPush {
			return
		}
	}
	u.pmu.Lock()
	u.pending = append(u.pending, ev)
	due := u.flushDue
	u.flushDue = true
	u.pmu.Unlock()
	if !due {
		e.delivery.flushes.add(u)
	}
}

// push delivers one callback (event name and data) to users.
func (e *Engine) push(userIDs []int64, event string, data any) {
	if len(userIDs) == 0 {
		return
	}
	b, err := json.Marshal(data)
	if err != nil {
		e.log.Error("encode push", "event", event, "err", err)
		return
	}
	e.deliver(userIDs, &userEvent{Kind: evPush, Event: event, Data: b})
}

// changed tells users that their view of conversations changed (read,
// pinned, draft, membership ...): their user actors reload and push.
func (e *Engine) changed(userIDs []int64, convIDs ...string) {
	if len(userIDs) == 0 || len(convIDs) == 0 {
		return
	}
	e.deliver(userIDs, &userEvent{Kind: evConv, Convs: convIDs})
}

// errBusy is what a client sees when the store fails.
func errBusy() error { return apierr.ChatError(apierr.CodeChatBusy) }

// storeErr maps a store error onto the client's view.
func storeErr(err error, notFound int) error {
	if err == nil {
		return nil
	}
	var he *apierr.Error
	if errors.As(err, &he) {
		return err
	}
	if errors.Is(err, storage.ErrNotFound) && notFound != 0 {
		return apierr.ChatError(notFound)
	}
	return err
}
