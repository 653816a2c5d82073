package chat

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"kj/internal/apierr"
	"kj/internal/bus"
	"kj/internal/clock"
	"kj/internal/presence"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

// clusterNode is a node of a two-node cluster: its own engine and NATS
// connection, a shared PostgreSQL schema and clock.
func clusterNode(t *testing.T, db storage.DB, clk *clock.Fake, name string, shared ...presence.Presence) *harness {
	t.Helper()
	nb, err := bus.NewNATS(testenv.NATSURL(), "kjtest-"+name)
	if err != nil {
		t.Fatalf("NATS is required (run `make services`): %v", err)
	}
	t.Cleanup(func() { nb.Close() })
	h := &harness{t: t, db: db, clock: clk, bus: nb, dataDir: t.TempDir()}
	if len(shared) > 0 {
		h.presence = shared[0]
	}
	return h.start(func(c *Config) { c.Cluster, c.NodeID = true, name })
}

func TestClusterDeliversAcrossNodesOverNATS(t *testing.T) {
	db := storagetest.Postgres(t)
	clk := clock.NewFake(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
	n1, n2 := clusterNode(t, db, clk, "n1"), clusterNode(t, db, clk, "n2")
	alice, bob, carol := n1.user("alice"), n1.user("bob"), n1.user("carol")
	a := n1.connect(alice)
	b := n2.connect(bob)
	c := n2.connect(carol)
	conv := singleConversationID(alice.id, bob.id)

	// A send accepted on node 1 reaches a socket on node 2.
	a.text(bob.id, "", "across the cluster")
	b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "across the cluster") })
	b.waitPush("OnNewConversation", nil)

	// Both nodes accept sends for one conversation at once: seqs stay
	// gapless and unique, each side receives all of the other's.
	var wg sync.WaitGroup
	for _, cl := range []*client{a, b} {
		peer := bob.id
		if cl == b {
			peer = alice.id
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			cl.sendBurst(20, peer, "", "%s %d")
		}()
	}
	wg.Wait()
	var res AdvancedMessages
	a.ok(&res, "GetAdvancedHistoryMessageListReverse", obj(map[string]any{"conversationID": conv, "count": 100, "lastMinSeq": 0}))
	if len(res.MessageList) != 41 {
		t.Fatalf("%d messages", len(res.MessageList))
	}
	for i, m := range res.MessageList {
		if m.Seq != int64(i+1) {
			t.Fatalf("seq %d at %d", m.Seq, i)
		}
	}
	for i := 0; i < 20; i++ {
		want := fmt.Sprintf("bob %d", i)
		a.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, want) })
	}

	// A group with members on both nodes.
	gid := a.group("both nodes", storage.GroupTypeGroup, nil, []*testUser{bob, carol}, verifyApply)
	c.waitPush("OnJoinedGroupAdded", nil)
	if r := c.sendGroup(gid, "from node 2"); r.ErrCode != 0 {
		t.Fatalf("%+v", r)
	}
	a.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "from node 2") })
	b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "from node 2") })

	// A mute set on node 1 ends once, though both nodes run the group.
	a.ok(nil, "ChangeGroupMemberMute", gid, carol.id, 30)
	c.waitPush("OnGroupMemberInfoChanged", nil)
	if r := c.sendGroup(gid, "muted?"); r.ErrCode == 0 {
		t.Fatal("muted member sent through node 2")
	}
	testenv.Eventually(t, waitFor, func() bool {
		n := 0
		for _, h := range []*harness{n1, n2} {
			if pid, ok := h.e.live.groups.get(mustID(t, gid)); ok && pid != nil {
				n++
			}
		}
		return n == 2
	}, "group actors on both nodes")
	clk.Advance(31 * time.Second)
	c.waitPush("OnRecvNewMessage", noticeOf(NoticeMemberUnmuted))
	gconv := groupConversationID(mustID(t, gid))
	testenv.Eventually(t, waitFor, func() bool { return c.sendGroup(gid, "free").ErrCode == 0 }, "still muted")
	if n := strings.Count(fmt.Sprint(texts(a.history(gconv, 100).MessageList)), fmt.Sprint(NoticeMemberUnmuted)); n != 1 {
		t.Fatalf("%d unmute notices across the cluster", n)
	}

	// A business push published anywhere reaches the socket's node.
	if err := bus.PushToUser(t.Context(), n1.bus, bob.id, "balance", map[string]int{"balance": 7}); err != nil {
		t.Fatal(err)
	}
	b.waitPush("OnRecvCustomBusinessMessage", func(d string) bool { return strings.Contains(d, `"key":"balance"`) })

	// Signing in again through node 1 kicks the socket on node 2.
	bob.tok = n1.signIn(bob.ID)
	b.waitPush("OnKickedOffline", nil)
	b.waitClosed()
}

// A block added on one node reaches the actor of the same chat on another
// node (kj.chat.rules), which judges sends from its own state: the blocked
// user's sends through the other node are refused once the event arrived,
// and accepted again after the block is removed.
func TestClusterBlockReachesTheOtherNodesActor(t *testing.T) {
	db := storagetest.Postgres(t)
	clk := clock.NewFake(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
	n1, n2 := clusterNode(t, db, clk, "r1"), clusterNode(t, db, clk, "r2")
	alice, bob := n1.user("alice"), n1.user("bob")
	a := n1.connect(alice)
	b := n2.connect(bob)
	b.text(alice.id, "", "before the block") // node 2's actor now holds the rules
	a.ok(nil, "AddBlack", bob.id, "")
	testenv.Eventually(t, waitFor, func() bool {
		m := newOutgoing(sender{idStr: bob.id}, TypeText, 1)
		m.TextElem = &TextElem{Content: "blocked?"}
		return b.sendRaw(m, alice.id, "").ErrCode == apierr.CodeChatBlacklisted
	}, "node 2 still accepts sends from a blocked user")
	a.ok(nil, "RemoveBlack", bob.id)
	testenv.Eventually(t, waitFor, func() bool {
		m := newOutgoing(sender{idStr: bob.id}, TypeText, 1)
		m.TextElem = &TextElem{Content: "unblocked"}
		return b.sendRaw(m, alice.id, "").ErrCode == 0
	}, "node 2 still refuses sends after the block was removed")
}
