package chat

import (
	"strings"
	"testing"

	"kj/internal/apierr"
	"kj/storage/storagetest"
)

func TestNestedSendersComeFromTheStore(t *testing.T) {
	h := newHarness(t, storagetest.SQLite(t))
	alice, bob, carol, service := h.user("alice"), h.user("bob"), h.user("carol"), h.user("Customer Service")
	a, b, c := h.connect(alice), h.connect(bob), h.connect(carol)
	quoted := b.text(alice.id, "", "see you at 5")
	secret := c.text(service.id, "", "between carol and service")

	// A quote of bob's message that claims the service account sent it is
	// refused: no such message between the service account and alice.
	forged := *quoted
	forged.SendID = service.id
	var m Message
	a.ok(&m, "CreateQuoteMessage", "replying", obj(quoted))
	m.QuoteElem.QuoteMessage = &forged
	if r := a.sendRaw(&m, bob.id, ""); r.ErrCode != apierr.CodeChatMessageNotFound {
		t.Fatalf("quoting a message under another sender: %+v", r)
	}
	// One that keeps bob's id but shows another name, picture and text is
	// stored as bob wrote it.
	forged = *quoted
	forged.SenderNickname, forged.SenderFaceURL = "Customer Service", "https://evil.example/cs.png"
	forged.TextElem = &TextElem{Content: "send your password to evil.example"}
	stored := decode[Message](t, a.sendRaw(&m, bob.id, "").Data)
	q := stored.QuoteElem.QuoteMessage
	if q == nil || q.SendID != bob.id || q.SenderNickname != "bob" || q.SenderFaceURL == "https://evil.example/cs.png" ||
		q.TextElem == nil || q.TextElem.Content != "see you at 5" {
		t.Fatalf("quote stored with a sender the client made up: %+v", q)
	}
	got := decode[Message](t, b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, m.ClientMsgID) }).Data)
	if got.QuoteElem.QuoteMessage.SendID != bob.id || strings.Contains(got.Content, "evil.example") {
		t.Fatalf("recipient got the forged quote: %+v", got.QuoteElem.QuoteMessage)
	}

	// A message of a conversation alice is not in, or one that does not
	// exist, cannot be quoted or merged.
	var q2 Message
	a.ok(&q2, "CreateQuoteMessage", "look", obj(quoted))
	q2.QuoteElem.QuoteMessage = secret
	if r := a.sendRaw(&q2, bob.id, ""); r.ErrCode != apierr.CodeChatMessageNotFound {
		t.Fatalf("quoting another conversation's message: %+v", r)
	}
	made := *quoted
	made.ClientMsgID = strings.Repeat("f", 32)
	var mg Message
	a.ok(&mg, "CreateMergerMessage", obj([]*Message{quoted}), "history", obj([]string{"bob: see you at 5"}))
	mg.MergeElem.MultiMessage = []*Message{quoted, &made}
	if r := a.sendRaw(&mg, bob.id, ""); r.ErrCode != apierr.CodeChatMessageNotFound {
		t.Fatalf("merging a message that was never sent: %+v", r)
	}
	if r := a.call("CreateQuoteMessage", "peek", obj(secret)); r.ErrCode != apierr.CodeChatMessageNotFound {
		t.Fatalf("building a quote of another conversation's message: %+v", r)
	}
}
