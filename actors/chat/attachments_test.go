package chat

import (
	"context"
	"slices"
	"strings"
	"testing"

	"kj/internal/apierr"
	"kj/storage"
	"kj/storage/storagetest"
)

// TestSendingAnAttachmentSharesItWithTheConversation: attachments are
// served to the conversations they were sent in (httpapi/chat_files.go),
// so sending one records that conversation, and only a file the sender may
// read can be sent — someone else's upload, never sent to them, is
// refused as if it did not exist; one sent to them may be forwarded.
func TestSendingAnAttachmentSharesItWithTheConversation(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		alice, bob, carol := h.user("alice"), h.user("bob"), h.user("carol")
		a, b, c := h.connect(alice), h.connect(bob), h.connect(carol)
		img, r := h.upload(t, alice, "image", "cat.png", png)
		if r.Code != 0 {
			t.Fatalf("upload %+v", r)
		}
		rel := strings.TrimPrefix(img, "/files/")
		f, err := storage.ChatFileByPath(context.Background(), db, rel)
		if err != nil {
			t.Fatal(err)
		}
		shares := func() []string {
			t.Helper()
			s, err := storage.ChatFileConversations(context.Background(), db, f.ID)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		// Carol knows the URL but was never sent it.
		c.fails(apierr.CodeChatBadMediaURL, "CreateImageMessageByURL", "", obj(Picture{URL: img}), nil, nil)
		stolen := &Message{ClientMsgID: "0123456789abcdef0123456789abcdef", ContentType: TypePicture, PictureElem: &PictureElem{SourcePicture: &Picture{URL: img}}}
		if rep := c.sendRaw(stolen, bob.id, ""); rep.ErrCode != apierr.CodeChatBadMediaURL {
			t.Fatalf("carol sent alice's attachment: %+v", rep)
		}
		if got := shares(); len(got) != 0 {
			t.Fatalf("a refused send shared the file with %v", got)
		}

		var m Message
		a.ok(&m, "CreateImageMessageByURL", "", obj(Picture{URL: img, Width: 4, Height: 4}), nil, nil)
		if rep := a.sendRaw(&m, bob.id, ""); rep.ErrCode != 0 {
			t.Fatalf("send %+v", rep)
		}
		b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, m.ClientMsgID) })
		ab := singleConversationID(alice.id, bob.id)
		if got := shares(); !slices.Equal(got, []string{ab}) {
			t.Fatalf("shares after alice → bob: %v, want %s", got, ab)
		}
		// Bob received it, so he may forward it to carol.
		var fwd Message
		b.ok(&fwd, "CreateImageMessageByURL", "", obj(Picture{URL: img, Width: 4, Height: 4}), nil, nil)
		if rep := b.sendRaw(&fwd, carol.id, ""); rep.ErrCode != 0 {
			t.Fatalf("forward %+v", rep)
		}
		if got, bc := shares(), singleConversationID(bob.id, carol.id); !slices.Contains(got, bc) || len(got) != 2 {
			t.Fatalf("shares after bob → carol: %v", got)
		}
	})
}
