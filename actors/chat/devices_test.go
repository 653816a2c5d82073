package chat

import (
	"context"
	"strings"
	"testing"

	"kj/auth"
	"kj/internal/apierr"
	"kj/storage"
	"kj/storage/storagetest"
)

// signInDevice starts one more sign-in of u under the harness's login
// policy and announces what it ended, as /accountLogin does; the returned
// user holds the new sign-in's tokens.
func (h *harness) signInDevice(u *testUser) *testUser {
	h.t.Helper()
	ctx := context.Background()
	var tok auth.Tokens
	var ended auth.Ended
	err := h.db.Tx(ctx, func(tx storage.Tx) error {
		var err error
		tok, ended, err = h.sessions.SignInDevice(ctx, tx, u.ID, 5, "")
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	h.sessions.AnnounceEnded(ctx, u.ID, ended)
	other := *u
	other.tok = tok
	return &other
}

func TestDevicesPolicyTwoSocketsOfOneUserAndTheLimitKick(t *testing.T) {
	h := newHarness(t, storagetest.SQLite(t))
	h.sessions.Policy, h.sessions.MaxDevices = auth.PolicyDevices, 2
	alice, bob := h.user("alice"), h.user("bob")
	phone := h.connect(alice)
	laptopUser := h.signInDevice(alice)
	laptop := h.connect(laptopUser)
	bobC := h.connect(bob)

	// The second sign-in on the same platform left the first connected;
	// what one sends reaches the other as the user's own.
	sent := phone.text(bob.id, "", "from the phone")
	echo := decode[Message](t, laptop.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, sent.ClientMsgID) }).Data)
	if echo.SendID != alice.id || echo.Seq != sent.Seq {
		t.Fatalf("the other device's copy: sendID %s seq %d, want %s %d", echo.SendID, echo.Seq, alice.id, sent.Seq)
	}
	bobC.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, sent.ClientMsgID) })
	if phone.isClosed() {
		t.Fatal("the first device was closed by the second sign-in")
	}

	// A third sign-in is one too many: the oldest (the phone) is kicked
	// with the device limit's code and words, not "logged in elsewhere".
	h.signInDevice(alice)
	kick := phone.waitPush("OnKickedOffline", nil)
	want := apierr.Translate("en-US", "chat.device.limit", nil)
	if kick.ErrCode != apierr.CodeChatDeviceLimit || kick.ErrMsg != want {
		t.Fatalf("kick %+v, want %d %q", kick, apierr.CodeChatDeviceLimit, want)
	}
	if err := phone.waitClosed(); closeCode(err) != closeKicked || !strings.Contains(err.Error(), want[:20]) {
		t.Fatalf("phone socket: %v", err)
	}
	if laptop.isClosed() {
		t.Fatal("a device within the limit was closed")
	}
	// Its chat token is refused with the same code.
	c := h.dial(alice, alice.tok.ChatToken)
	if r, _ := c.wait(func(r Reply) bool { return r.Event == "Login" }, true); r.ErrCode != apierr.CodeChatDeviceLimit {
		t.Fatalf("signed-out device's token: %+v", r)
	}
	c.waitPush("OnKickedOffline", nil)
	if err := c.waitClosed(); closeCode(err) != closeKicked {
		t.Fatalf("refused socket: %v", err)
	}
}
