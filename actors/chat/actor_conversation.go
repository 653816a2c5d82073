package chat

import (
	"github.com/asynkron/protoactor-go/actor"
)

// sendRequest asks a conversation or group actor to commit a message.
type sendRequest struct{ item *sendItem }

// opRequest asks a conversation or group actor to run a change in order
// with its sends.
type opRequest struct{ item *opItem }

// tellConversation sends msg to the actor of a 1:1 conversation, starting
// it when needed.
func (e *Engine) tellConversation(ref convRef, msg any) {
	e.live.convs.with(ref.ID, func() *actor.PID {
		props := actor.PropsFromProducer(func() actor.Actor {
			return &conversationActor{e: e, ref: ref, pipe: newPipeline()}
		}, actor.WithGuardian(supervision), actor.WithMailbox(newSmallMailbox), actor.WithDispatcher(chatDispatcher))
		return e.root.Spawn(props)
	}, func(pid *actor.PID) { e.root.Send(pid, msg) })
}

// conversationActor serialises the sends of one 1:1 chat: the rules (from
// its own state), dedupe, commit through the writer, fan-out to both users.
type conversationActor struct {
	e         *Engine
	ref       convRef
	pipe      pipeline
	rowsReady bool
	rules     pairRules
	retiring  bool
	current   any // the message being handled, answered if it crashes
}

func (a *conversationActor) spec() convSpec {
	return convSpec{id: a.ref.ID, kind: sessionSingle, a: a.ref.A, b: a.ref.B, rowsReady: a.rowsReady}
}

func (a *conversationActor) Receive(ctx actor.Context) { receiveTracked(&a.current, ctx, a.receive) }

func (a *conversationActor) receive(ctx actor.Context) {
	if h := testHook.Load(); h != nil {
		(*h)("conversation", ctx.Message())
	}
	e := a.e
	switch m := ctx.Message().(type) {
	case *actor.Started:
		ctx.SetReceiveTimeout(e.cfg.ActorIdle)
	case *actor.Restarting:
		e.failCurrent(a.current)
		a.pipe.failQueued(e, errBusy())
	case *sendRequest, *opRequest:
		if a.retiring {
			e.tellConversation(a.ref, m) // to the fresh actor
			return
		}
		a.pipe.enqueue(e, m, a.judge)
		e.startFlush(ctx, a, &a.pipe, a.spec())
	case *rulesChanged:
		a.rules = pairRules{}
	case *sendsDone:
		a.pipe.landed(m.owner, a)
		fresh, skip := e.applySends(&a.pipe, m)
		if len(fresh) > 0 {
			a.rowsReady = true
		}
		// The next batch first, so its commit overlaps this one's fan-out
		// (its report queues behind this message).
		e.startFlush(ctx, a, &a.pipe, a.spec())
		if len(fresh) > 0 {
			e.deliver([]int64{a.ref.A, a.ref.B}, &userEvent{Kind: evMsgs, Conv: a.ref.ID, Msgs: fresh, Skip: skip})
		}
		e.releaseAcks(&a.pipe)
		m.free()
	case *opDone:
		a.pipe.landed(m.owner, a)
		a.rules = pairRules{} // an op may have changed what the rules depend on
		users := []int64{a.ref.A, a.ref.B}
		if m.err == nil && len(m.wrote) > 0 {
			a.rowsReady = true
			e.deliver(users, &userEvent{Kind: evMsgs, Conv: a.ref.ID, Msgs: m.wrote, Skip: make([]int64, len(m.wrote))})
		}
		e.applyOutcome(m, a.ref.ID, nil)
		if m.err == nil && m.out.revoked != nil {
			e.deliver(users, &userEvent{Kind: evRevoke, Conv: a.ref.ID, Revoked: m.out.revoked})
		}
		e.startFlush(ctx, a, &a.pipe, a.spec())
	case *actor.ReceiveTimeout:
		a.retire(ctx)
		if !a.retiring {
			ctx.SetReceiveTimeout(e.cfg.ActorIdle) // a fired timeout is not re-armed by itself
		}
	}
}

// retire stops an idle actor. It leaves the registry first, so later
// sends start a fresh actor; anything already in its mailbox is forwarded.
func (a *conversationActor) retire(ctx actor.Context) {
	if a.pipe.inflight || len(a.pipe.queue) > 0 || a.retiring {
		return
	}
	self := ctx.Self()
	if a.e.live.convs.removeIf(a.ref.ID, func(pid *actor.PID) bool { return pid.Equal(self) }) {
		a.retiring = true
		ctx.Poison(self)
	}
}
