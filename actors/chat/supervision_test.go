package chat

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"kj/internal/apierr"
	"kj/internal/bus"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

// crashOnce installs a test hook that panics once, in an actor of kind,
// on the first message that matches.
func crashOnce(t *testing.T, kind string, match func(msg any) bool) *atomic.Bool {
	t.Helper()
	var fired atomic.Bool
	hook := func(k string, msg any) {
		if k == kind && match(msg) && fired.CompareAndSwap(false, true) {
			panic("test crash in " + kind)
		}
	}
	testHook.Store(&hook)
	t.Cleanup(func() { testHook.Store(nil) })
	return &fired
}

// restarts is the number of actor restarts so far.
func restarts() float64 {
	var m dto.Metric
	_ = actorRestarts.Write(&m)
	return m.GetCounter().GetValue()
}

// TestConversationActorRestartKeepsAcknowledgedMessages crashes the actor
// after a commit and before its answer: the message is durable, the
// restarted actor carries on from the store, and the client's resend finds
// the stored message instead of making a second one.
func TestConversationActorRestartKeepsAcknowledgedMessages(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		fired := crashOnce(t, "conversation", func(msg any) bool {
			d, ok := msg.(*sendsDone)
			return ok && d.results[0].msg != nil && d.results[0].msg.TextElem != nil && d.results[0].msg.TextElem.Content == "crash"
		})
		h := newHarness(t, db)
		alice, bob := h.user("alice"), h.user("bob")
		a, b := h.connect(alice), h.connect(bob)
		conv := singleConversationID(alice.id, bob.id)
		before := restarts()
		a.text(bob.id, "", "one")
		a.text(bob.id, "", "two")
		pid, _ := h.e.live.convs.get(conv)
		var crash Message
		a.ok(&crash, "CreateTextMessage", "crash")
		op := a.send("SendMessageNotOss", obj(crash), bob.id, "", "", false)
		waitTrue(t, fired.Load, "the actor did not crash")
		waitTrue(t, func() bool { return restarts() > before }, "no restart")
		// The client hears "busy" and resends the same message.
		if r := a.waitReply(op); r.ErrCode != apierr.CodeChatBusy {
			t.Fatalf("crashed send answered %+v", r)
		}
		got := decode[Message](t, a.sendRaw(&crash, bob.id, "").Data)
		if got.Seq != 3 {
			t.Fatalf("resend after the restart: seq %d, want 3", got.Seq)
		}
		// The crash came between the commit and the fan-out, as a node that
		// dies there: bob, whose socket stayed open, hears of the message
		// when the resend finds it stored, once.
		isCrash := func(d string) bool { return strings.Contains(d, `\"crash\"`) || strings.Contains(d, `"crash"`) }
		b.waitPush("OnRecvNewMessage", isCrash)
		a.text(bob.id, "", "four")
		b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "four") })
		if b.hasPush("OnRecvNewMessage", isCrash) {
			t.Fatal("the resent message was pushed twice")
		}
		if p2, _ := h.e.live.convs.get(conv); !p2.Equal(pid) {
			t.Fatal("the actor was replaced, not restarted")
		}
		res := b.history(conv, 10)
		if fmt.Sprint(texts(res.MessageList)) != "[one two crash four]" {
			t.Fatalf("history %v", texts(res.MessageList))
		}
		for i, m := range res.MessageList {
			if m.Seq != int64(i+1) {
				t.Fatalf("seqs %v", res.MessageList)
			}
		}
	})
}

func waitTrue(t *testing.T, cond func() bool, msg string) {
	t.Helper()
	testenv.Eventually(t, waitFor, cond, "%s", msg)
}

// TestGroupActorRestartRearmsMutes crashes a group actor holding an
// unmute timer: the restarted actor re-arms it from the store.
func TestGroupActorRestartRearmsMutes(t *testing.T) {
	fired := crashOnce(t, "group", func(msg any) bool { _, ok := msg.(*wakeGroup); return ok })
	h := newHarness(t, storagetest.SQLite(t))
	owner, member := h.user("owner"), h.user("member")
	o, m := h.connect(owner), h.connect(member)
	gid := o.group("g", storage.GroupTypeGroup, nil, []*testUser{member}, verifyApply)
	o.ok(nil, "ChangeGroupMemberMute", gid, member.id, 60)
	before := restarts()
	h.e.tellGroup(mustID(t, gid), &wakeGroup{})
	waitTrue(t, fired.Load, "no crash")
	waitTrue(t, func() bool { return restarts() > before }, "no restart")
	// The restarted actor still works and still owns the timer.
	if r := o.sendGroup(gid, "after the crash"); r.ErrCode != 0 {
		t.Fatalf("send after restart: %+v", r)
	}
	h.clock.Advance(60 * time.Second)
	m.waitPush("OnRecvNewMessage", noticeOf(NoticeMemberUnmuted))
	if r := m.sendGroup(gid, "unmuted"); r.ErrCode != 0 {
		t.Fatalf("after the unmute: %+v", r)
	}
	conv := groupConversationID(mustID(t, gid))
	if n := strings.Count(fmt.Sprint(texts(o.history(conv, 50).MessageList)), fmt.Sprint(NoticeMemberUnmuted)); n != 1 {
		t.Fatalf("%d unmute notices", n)
	}
}

// TestUserAndSessionActorsRestart crashes the user actor and the session
// actor; pushes and calls carry on on the same socket.
func TestUserAndSessionActorsRestart(t *testing.T) {
	fired := crashOnce(t, "user", func(msg any) bool {
		n, ok := msg.(*bizNotice)
		return ok && n.n.Key == "crash"
	})
	h := newHarness(t, storagetest.SQLite(t))
	alice, bob := h.user("alice"), h.user("bob")
	a, b := h.connect(alice), h.connect(bob)
	a.text(bob.id, "", "before")
	b.waitPush("OnTotalUnreadMessageCountChanged", func(d string) bool { return d == "1" })
	ctx := context.Background()
	before := restarts()
	bus.PushToUser(ctx, h.bus, bob.id, "crash", 1)
	waitTrue(t, fired.Load, "no crash")
	waitTrue(t, func() bool { return restarts() > before }, "no restart")
	bus.PushToUser(ctx, h.bus, bob.id, "balance", 5)
	b.waitPush("OnRecvCustomBusinessMessage", func(d string) bool { return strings.Contains(d, "balance") })
	a.text(bob.id, "", "after")
	b.waitPush("OnTotalUnreadMessageCountChanged", func(d string) bool { return d == "2" })

	sfired := crashOnce(t, "session", func(msg any) bool {
		in, ok := msg.(*inbound)
		return ok && in.req.ReqFuncName == "GetSelfUserInfo"
	})
	before = restarts()
	op := b.send("GetSelfUserInfo")
	waitTrue(t, sfired.Load, "no session crash")
	waitTrue(t, func() bool { return restarts() > before }, "no session restart")
	if r := b.waitReply(op); r.ErrCode != apierr.CodeChatBusy {
		t.Fatalf("crashed request answered %+v", r)
	}
	var self SelfUserInfo
	b.ok(&self, "GetSelfUserInfo")
	if self.UserID != bob.id {
		t.Fatalf("self %+v", self)
	}
	a.text(bob.id, "", "still pushed")
	b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "still pushed") })
}
