package chat

import (
	"slices"
	"sync"
	"testing"

	"kj/internal/testenv"
	"kj/push"
	"kj/storage"
	"kj/storage/storagetest"
)

// offers records what the engine offers for Web Push.
type offers struct {
	mu  sync.Mutex
	got []push.Notice
}

func (o *offers) Offer(n push.Notice) {
	o.mu.Lock()
	o.got = append(o.got, n)
	o.mu.Unlock()
}

func (o *offers) wait(t *testing.T, n int) []push.Notice {
	t.Helper()
	testenv.Eventually(t, waitFor, func() bool {
		o.mu.Lock()
		defer o.mu.Unlock()
		return len(o.got) >= n
	}, "want %d offers", n)
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.got)
}

// Every committed message a person wrote is offered once, with its
// conversation's members and what a notification may show; notices
// (group changes) are not.
func TestCommittedMessagesAreOfferedForWebPush(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		rec := &offers{}
		h.e.UsePush(rec)
		alice, bob, carol := h.user("alice"), h.user("bob"), h.user("carol")
		a := h.connect(alice)
		a.text(bob.id, "", "hello bob")
		got := rec.wait(t, 1)
		n := got[0]
		if n.ConversationID != singleConversationID(alice.id, bob.id) || n.Group || n.SenderID != alice.ID || n.SenderName != "alice" ||
			n.Kind != 101 || n.Text != "hello bob" || !slices.Contains(n.Recipients, bob.ID) {
			t.Fatalf("offer %+v", n)
		}

		gid := a.group("pals", 2, nil, []*testUser{bob, carol}, 0)
		if r := a.sendGroup(gid, "hi all"); r.ErrCode != 0 {
			t.Fatalf("group send %+v", r)
		}
		var g push.Notice
		testenv.Eventually(t, waitFor, func() bool {
			for _, o := range rec.wait(t, 2) {
				if o.Group {
					g = o
					return o.Text == "hi all"
				}
			}
			return false
		}, "the group message's offer")
		if g.ConversationID != "sg_"+gid || len(g.Recipients) != 3 || !slices.Contains(g.Recipients, carol.ID) {
			t.Fatalf("group offer %+v", g)
		}
		// The group's creation notice (delivered before the message that
		// follows it) was not offered: only the two messages people wrote.
		if all := rec.wait(t, 2); len(all) != 2 {
			t.Fatalf("offers %+v", all)
		}
	})
}
