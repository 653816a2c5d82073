package chat

import (
	"context"
	"testing"

	"github.com/gorilla/websocket"

	"kj/internal/apierr"
	"kj/internal/bus"
	"kj/storage"
	"kj/storage/storagetest"
)

// While a node is cut off from NATS, what other nodes publish never
// reaches it: pushes for its sockets, and the block that should drop a
// conversation actor's rules. When the connection comes back, the node
// must not go on as if nothing was missed: the actors reload their rules
// from the store, and every socket is closed as at a restart (1012) so
// its client reconnects and resyncs by seq.
func TestBusResumeDropsRulesAndResyncsSockets(t *testing.T) {
	db := storagetest.Postgres(t)
	h := newHarness(t, db)
	alice, bob := h.user("alice"), h.user("bob")
	a, b := h.connect(alice), h.connect(bob)
	b.text(alice.id, "", "before the block") // the 1:1 actor now holds the rules
	// Alice blocks Bob on another node; its bus event is lost in the outage.
	if _, err := storage.AddChatBlock(context.Background(), db, storage.ChatBlock{OwnerID: alice.ID, BlockedID: bob.ID, CreatedAt: h.clock.Now().UnixMilli()}); err != nil {
		t.Fatal(err)
	}
	m := newOutgoing(sender{idStr: bob.id}, TypeText, 1)
	m.TextElem = &TextElem{Content: "judged by the old rules"}
	if r := b.sendRaw(m, alice.id, ""); r.ErrCode != 0 {
		t.Fatalf("before the bus came back the cached rules should still let Bob send: %+v", r)
	}

	h.bus.(*bus.Memory).Resume()

	for _, c := range []*client{a, b} {
		if code := closeCode(c.waitClosed()); code != websocket.CloseServiceRestart {
			t.Fatalf("%s: socket closed with %d, want %d so the client resyncs", c.u.Nickname, code, websocket.CloseServiceRestart)
		}
	}
	b2 := h.connect(bob)
	m = newOutgoing(sender{idStr: bob.id}, TypeText, 1)
	m.TextElem = &TextElem{Content: "after the block"}
	if r := b2.sendRaw(m, alice.id, ""); r.ErrCode != apierr.CodeChatBlacklisted {
		t.Fatalf("after the bus came back a send from a blocked user got %+v, want code %d", r, apierr.CodeChatBlacklisted)
	}
}
