package chat

import (
	"strings"
	"testing"
	"time"

	"kj/internal/apierr"
	"kj/storage"
	"kj/storage/storagetest"
)

// conversationIn finds one conversation in an OnConversationChanged
// push's list, or nil.
func conversationIn(t *testing.T, data, id string) *ConversationItem {
	t.Helper()
	for _, it := range decode[[]ConversationItem](t, data) {
		if it.ConversationID == id {
			return &it
		}
	}
	return nil
}

// A draft saved on one socket (as the web app saves it while typing)
// reaches the user's other sockets, is there after a reconnect (a reload or
// another device), orders the list by its time, stays the user's own, and
// clearing it (on sending) reaches the other sockets too.
func TestDraftReachesOtherSocketsAndSurvivesReconnect(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		alice, bob, carol := h.user("alice"), h.user("bob"), h.user("carol")
		a1, a2 := h.connect(alice), h.connect(alice)
		b := h.connect(bob)
		withBob := singleConversationID(alice.id, bob.id)
		withCarol := singleConversationID(alice.id, carol.id)
		a1.text(bob.id, "", "hello bob")
		h.clock.Advance(time.Minute)
		a1.text(carol.id, "", "hello carol")
		a2.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "hello carol") })
		if l := a2.conversations(); l[0].ConversationID != withCarol {
			t.Fatalf("the newest message's conversation is not first: %+v", l)
		}

		h.clock.Advance(time.Minute)
		a1.ok(nil, "SetConversationDraft", withBob, "half a thought")
		pushed := a2.waitPush("OnConversationChanged", func(d string) bool {
			it := conversationIn(t, d, withBob)
			return it != nil && it.DraftText == "half a thought"
		})
		if it := conversationIn(t, pushed.Data, withBob); it.DraftTextTime != h.clock.Now().UnixMilli() {
			t.Fatalf("draft time %d, want the server's now %d", it.DraftTextTime, h.clock.Now().UnixMilli())
		}

		// A new socket (the page reloaded, or another device) lists it, first: the draft is
		// newer than the last message of the other chat.
		a3 := h.connect(alice)
		l := a3.conversations()
		if l[0].ConversationID != withBob || l[0].DraftText != "half a thought" || l[0].DraftTextTime == 0 {
			t.Fatalf("after reconnecting: %+v", l)
		}
		if bl := b.conversations(); len(bl) != 1 || bl[0].DraftText != "" || bl[0].DraftTextTime != 0 {
			t.Fatalf("bob sees alice's draft: %+v", bl)
		}
		if b.hasPush("OnConversationChanged", func(d string) bool { return strings.Contains(d, "half a thought") }) {
			t.Fatal("bob was told alice's draft")
		}

		// Saved again as typing goes on: the newest text wins everywhere.
		a2.ok(nil, "SetConversationDraft", withBob, "half a thought, finished")
		a1.waitPush("OnConversationChanged", func(d string) bool {
			it := conversationIn(t, d, withBob)
			return it != nil && it.DraftText == "half a thought, finished"
		})

		// Sending clears it: blank (spaces too) is no draft, on every socket.
		a1.text(bob.id, "", "half a thought, finished")
		a1.ok(nil, "SetConversationDraft", withBob, "  ")
		for _, c := range []*client{a2, a3} {
			c.waitPush("OnConversationChanged", func(d string) bool {
				it := conversationIn(t, d, withBob)
				return it != nil && it.DraftText == "" && it.DraftTextTime == 0
			})
		}
		if l := h.connect(alice).conversations(); l[0].ConversationID != withBob || l[0].DraftText != "" {
			t.Fatalf("after clearing: %+v", l)
		}

		// Too long for a message is too long for a draft; someone else's chat is not found.
		a1.fails(apierr.CodeChatBadArgument, "SetConversationDraft", withBob, strings.Repeat("x", maxTextRunes+1))
		carolSocket := h.connect(carol)
		carolSocket.fails(apierr.CodeChatConvNotFound, "SetConversationDraft", withBob, "peeking")
	})
}
