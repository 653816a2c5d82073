package chat

import (
	"log/slog"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"kj/storage"
)

// BenchmarkFanOutThousandMembers is the node's side of one group post to
// 1,000 online members, each with one socket: Engine.deliver puts the
// post's frame (encoded once) on every member's socket queue and queues
// the member's state change for its user actor's next flush. The writers
// and actors are left out (each socket is marked as being written, each
// user as having a flush due), so what is measured is the per-member work
// of the fan-out loop itself; allocs/op must be 0: nothing is allocated
// per member.
func BenchmarkFanOutThousandMembers(b *testing.B) {
	const members = 1000
	e := &Engine{live: registries{users: newRegistry[int64, *userEntry]()}}
	e.delivery.flushes = makeFlusher(time.Hour, 0, nil)
	ids := make([]int64, members)
	sessions := make([]*session, members)
	entries := make([]*userEntry, members)
	for i := range members {
		id := int64(1000 + i)
		ids[i] = id
		s := &session{e: e, id: id * 10, userID: id, writing: true}
		sessions[i] = s
		u := &userEntry{id: id}
		list := []*session{s}
		u.conns.Store(&list)
		u.n = 1
		u.pending = make([]*userEvent, 0, 8)
		entries[i] = u
		e.live.users.with(id, func() *userEntry { return u }, func(*userEntry) {})
	}
	e.cfg.OutboundQueue = 512
	ev := &userEvent{Kind: evMsgs, Conv: "sg_1", Msgs: []*Message{{ClientMsgID: "c1", ServerMsgID: "s1", SendID: "1000",
		GroupID: "1", SessionType: 3, ContentType: 101, Seq: 7, SendTime: 1, TextElem: &TextElem{Content: "hello"}}}}
	ev.prepare()
	ev.Skip[0] = sessions[0].id // the sender's own socket had the reply
	e.delivery.flushes.due = make([]*userEntry, 0, members)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		e.deliver(ids, ev)
		// Undo what the writers and actors would have taken.
		for i, s := range sessions {
			if list := s.queue.take(); list != nil {
				recycleFrames(list)
			}
			u := entries[i]
			u.pending = u.pending[:0]
			u.flushDue = false
		}
		e.delivery.flushes.due = e.delivery.flushes.due[:0]
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/members, "ns/member")
}

// BenchmarkConversationPush is one member's OnConversationChanged frame
// for a group message just fanned out (its latest message spliced in),
// against encoding/json rendering the same frame (ReferenceJSON).
func BenchmarkConversationPush(b *testing.B) {
	m := &Message{ClientMsgID: "c1", ServerMsgID: "s1", SendID: "7", GroupID: "9", SenderNickname: "poster",
		ContentType: 101, TextElem: &TextElem{Content: "a message of an ordinary length, with some words in it"}, Seq: 3, SendTime: 1700000000000}
	ev := &userEvent{Kind: evMsgs, Msgs: []*Message{m}}
	ev.prepare()
	row := storage.ChatUserConversation{ConversationID: "sg_9", SessionType: sessionGroup, GroupID: 9, MaxSeq: 3, Unread: 2}
	items := []*ConversationItem{conversationItem(row, convMeta{showName: "the group", faceURL: "/files/g.png"}, m)}
	latest := []*Message{m}
	b.Run("Spliced", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			_ = encodeConversationPush("OnConversationChanged", items, latest)
		}
	})
	b.Run("ReferenceJSON", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			_ = encodeReply("OnConversationChanged", "", items, 0, "")
		}
	})
}

// BenchmarkMemberFlush is what a member's user actor does for a group
// post once its coalescing window ends (flush): the post counted in the
// cached conversation row, the member's OnConversationChanged frame and
// its unread total, both queued on its one socket. The row, the group's
// name and the latest message are cached, as in steady traffic; the
// socket is marked as being written, so no writer runs. allocs/op is the
// allocations per member per flush.
func BenchmarkMemberFlush(b *testing.B) {
	e := &Engine{}
	e.cfg.OutboundQueue = 512
	s := &session{e: e, id: 10, userID: 1001, writing: true}
	u := &userEntry{e: e, id: 1001}
	list := []*session{s}
	u.conns.Store(&list)
	u.n = 1
	u.pending = make([]*userEvent, 0, 8)
	m := &Message{ClientMsgID: "c1", ServerMsgID: "s1", SendID: "1000", GroupID: "9", SenderNickname: "poster",
		SessionType: 3, ContentType: 101, Seq: 8, SendTime: 1700000000000,
		TextElem: &TextElem{Content: "a message of an ordinary length, with some words in it"}}
	ev := &userEvent{Kind: evMsgs, Conv: "sg_9", Msgs: []*Message{m}}
	ev.prepare()
	row := storage.ChatUserConversation{ConversationID: "sg_9", SessionType: sessionGroup, GroupID: 9, MaxSeq: 7, ReadSeq: 5, Unread: 2}
	st := &convState{row: row, meta: convMeta{showName: "the group", faceURL: "/files/g.png"}, metaLoaded: true}
	a := &userActor{e: e, u: u, convs: map[string]*convState{"sg_9": st}, total: 2, pushed: 2}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		u.pending = append(u.pending, ev)
		a.flush()
		n := s.queue.len()
		list := s.queue.take()
		if n != 2 {
			b.Fatalf("%d frames queued, want the conversation and the total", n)
		}
		for _, f := range *list { // as the socket's writer does once written
			putFrame(f.pool)
		}
		recycleFrames(list)
		st.row, st.latest, a.pushed = row, nil, 2
	}
}

// BenchmarkActorWake is one message to an idle actor, waited for: what a
// member's flush costs in its user actor's mailbox (the actor is idle
// between coalescing windows, so each flush schedules it anew).
// protoactor's unbounded mailbox allocates a closure per schedule;
// smallMailbox allocates nothing.
func BenchmarkActorWake(b *testing.B) {
	for _, c := range []struct {
		name string
		opts []actor.PropsOption
	}{
		{"Unbounded", nil},
		{"Small", []actor.PropsOption{actor.WithMailbox(newSmallMailbox)}},
	} {
		b.Run(c.name, func(b *testing.B) {
			system := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
				return slog.New(slog.DiscardHandler)
			}))
			done := make(chan struct{})
			pid := system.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
				if _, ok := ctx.Message().(*userEntry); ok {
					done <- struct{}{}
				}
			}, c.opts...))
			msg := &userEntry{}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				system.Root.Send(pid, msg)
				<-done
			}
			b.StopTimer()
			system.Root.Stop(pid)
		})
	}
}
