package chat

import (
	"context"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"kj/internal/bus"
	"kj/internal/clock"
	"kj/storage"
)

// wakeGroup starts a group actor (at node start, for pending unmutes).
type wakeGroup struct{}

// unmuteDue fires when a member's mute deadline passes.
type unmuteDue struct {
	user     int64
	deadline int64
}

// membersChanged tells a group actor that another node changed the
// membership or a mute: reload the fan-out list and re-arm unmute timers
// (every node's actor holds them; the store decides who announces).
type membersChanged struct{}

func groupSubject(groupID int64) string {
	return "kj.chat.group." + strconv.FormatInt(groupID, 10)
}

// tellGroup sends msg to the actor of a group or channel, starting it when
// needed.
func (e *Engine) tellGroup(groupID int64, msg any) {
	e.live.groups.with(groupID, func() *actor.PID {
		props := actor.PropsFromProducer(func() actor.Actor {
			return &groupActor{e: e, id: groupID, convID: groupConversationID(groupID), pipe: newPipeline()}
		}, actor.WithGuardian(supervision), actor.WithMailbox(newSmallMailbox), actor.WithDispatcher(chatDispatcher))
		return e.root.Spawn(props)
	}, func(pid *actor.PID) { e.root.Send(pid, msg) })
}

type muteTimer struct {
	deadline int64
	timer    clock.Timer
}

// groupActor serialises the sends and changes of one group or channel. The
// rules (membership, roles, mutes, dismissal) are judged from its own state
// (send_rules.go); it keeps the member list for fan-out and a timer per
// muted member that announces the unmute when the deadline passes.
type groupActor struct {
	e        *Engine
	id       int64
	convID   string
	pipe     pipeline
	members  []int64
	loaded   bool
	rules    groupRules
	ready    bool // the conversation row exists (a commit went through)
	timers   map[int64]*muteTimer
	retiring bool
	sub      bus.Subscription
	current  any // the message being handled, answered if it crashes
}

func (a *groupActor) spec() convSpec {
	return convSpec{id: a.convID, kind: sessionGroup, groupID: a.id, rowsReady: a.ready}
}

func (a *groupActor) Receive(ctx actor.Context) { receiveTracked(&a.current, ctx, a.receive) }

func (a *groupActor) receive(ctx actor.Context) {
	if h := testHook.Load(); h != nil {
		(*h)("group", ctx.Message())
	}
	e := a.e
	switch m := ctx.Message().(type) {
	case *actor.Started:
		ctx.SetReceiveTimeout(e.cfg.ActorIdle)
		a.timers = map[int64]*muteTimer{}
		a.subscribe(ctx)
		a.armMutes(ctx)
	case *actor.Restarting:
		e.failCurrent(a.current)
		a.pipe.failQueued(e, errBusy())
		a.stop()
	case *actor.Stopping:
		a.stop()
	case *wakeGroup:
	case *sendRequest, *opRequest:
		if a.retiring {
			e.tellGroup(a.id, m) // to the fresh actor
			return
		}
		a.pipe.enqueue(e, m, a.judge)
		e.startFlush(ctx, a, &a.pipe, a.spec())
	case *unmuteDue:
		if t, ok := a.timers[m.user]; ok && t.deadline == m.deadline {
			delete(a.timers, m.user)
		}
		a.pipe.queue = append(a.pipe.queue, e.unmuteOp(a.id, m.user, m.deadline))
		e.startFlush(ctx, a, &a.pipe, a.spec())
	case *membersChanged:
		a.loaded, a.rules = false, groupRules{}
		a.armMutes(ctx)
	case *sendsDone:
		a.pipe.landed(m.owner, a)
		fresh, skip := e.applySends(&a.pipe, m)
		if len(fresh) > 0 {
			a.ready = true
		}
		// The next batch goes to the writer before this one is fanned out,
		// so its commit overlaps the fan-out; its report queues behind
		// this message, so deliveries keep their order.
		e.startFlush(ctx, a, &a.pipe, a.spec())
		if len(fresh) > 0 {
			e.deliver(a.memberList(), &userEvent{Kind: evMsgs, Conv: a.convID, Msgs: fresh, Skip: skip})
		}
		e.releaseAcks(&a.pipe)
		m.free()
	case *opDone:
		a.pipe.landed(m.owner, a)
		a.rules = groupRules{} // reloaded on the next send
		a.applyOp(ctx, m)
		e.startFlush(ctx, a, &a.pipe, a.spec())
	case *actor.ReceiveTimeout:
		a.retire(ctx)
		if !a.retiring {
			ctx.SetReceiveTimeout(e.cfg.ActorIdle)
		}
	}
}

func (a *groupActor) applyOp(ctx actor.Context, m *opDone) {
	e := a.e
	if m.err != nil {
		e.applyOutcome(m, a.convID, nil)
		return
	}
	if m.out.members {
		a.loaded = false
	}
	if len(m.wrote) > 0 {
		a.ready = true
	}
	if e.cfg.Cluster {
		// Other nodes' actors of this group reload their rules, members and
		// mutes: any change of a group may change who may send.
		pctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = e.cluster.bus.Publish(pctx, groupSubject(a.id), []byte("{}"))
		cancel()
	}
	// Timers first: once the caller has its answer, the unmute is armed.
	for _, mt := range m.out.mutes {
		a.setTimer(ctx, mt.user, mt.deadline)
	}
	if m.out.dismissed {
		for u := range a.timers {
			a.setTimer(ctx, u, 0)
		}
	}
	members := a.memberList()
	if len(m.wrote) > 0 {
		e.deliver(union(m.out.extra, members), &userEvent{Kind: evMsgs, Conv: a.convID, Msgs: m.wrote, Skip: make([]int64, len(m.wrote))})
	}
	e.applyOutcome(m, a.convID, members)
	if m.out.revoked != nil {
		e.deliver(members, &userEvent{Kind: evRevoke, Conv: a.convID, Revoked: m.out.revoked})
	}
}

// memberList is the fan-out list, reloaded after membership changes.
func (a *groupActor) memberList() []int64 {
	if a.loaded {
		return a.members
	}
	ctx, cancel := a.e.ctx()
	defer cancel()
	ids, err := storage.ChatGroupMemberIDs(ctx, a.e.db, a.id)
	if err != nil {
		a.e.log.Warn("load group members", "group", a.id, "err", err)
		return a.members
	}
	a.members, a.loaded = ids, true
	return ids
}

// armMutes sets a timer for every pending mute of the group; mutes whose
// deadline passed while no actor ran are announced now.
func (a *groupActor) armMutes(ctx actor.Context) {
	qctx, cancel := a.e.ctx()
	defer cancel()
	mutes, err := storage.ChatGroupMutes(qctx, a.e.db, a.id)
	if err != nil {
		a.e.log.Warn("load mutes", "group", a.id, "err", err)
		return
	}
	for _, m := range mutes {
		a.setTimer(ctx, m.UserID, m.MutedUntil)
	}
}

// setTimer arms (or with deadline 0 cancels) a member's unmute timer.
func (a *groupActor) setTimer(ctx actor.Context, user, deadline int64) {
	if t, ok := a.timers[user]; ok {
		t.timer.Stop()
		delete(a.timers, user)
	}
	if deadline <= 0 {
		return
	}
	self := ctx.Self()
	due := &unmuteDue{user: user, deadline: deadline}
	d := time.Duration(deadline-a.e.now()) * time.Millisecond
	if d <= 0 {
		ctx.Send(self, due) // ran out while no actor was watching
		return
	}
	e := a.e
	t := e.clock.AfterFunc(d, func() {
		if !e.commits.closed.Load() {
			e.root.Send(self, due)
		}
	})
	a.timers[user] = &muteTimer{deadline: deadline, timer: t}
}

func (a *groupActor) stop() {
	for u, t := range a.timers {
		t.timer.Stop()
		delete(a.timers, u)
	}
	if a.sub != nil {
		_ = a.sub.Unsubscribe()
		a.sub = nil
	}
}

// subscribe listens for membership changes made on other nodes.
func (a *groupActor) subscribe(ctx actor.Context) {
	if !a.e.cfg.Cluster {
		return
	}
	self := ctx.Self()
	sub, err := a.e.cluster.bus.Subscribe(groupSubject(a.id), func(string, []byte) { a.e.root.Send(self, &membersChanged{}) })
	if err != nil {
		a.e.log.Warn("subscribe group", "group", a.id, "err", err)
		return
	}
	a.sub = sub
}

// retire stops an idle actor with no pending unmute.
func (a *groupActor) retire(ctx actor.Context) {
	if a.pipe.inflight || len(a.pipe.queue) > 0 || len(a.timers) > 0 || a.retiring {
		return
	}
	self := ctx.Self()
	if a.e.live.groups.removeIf(a.id, func(pid *actor.PID) bool { return pid.Equal(self) }) {
		a.retiring = true
		a.stop()
		ctx.Poison(self)
	}
}
