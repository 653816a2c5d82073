package chat

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"kj/internal/apierr"
	"kj/internal/bus"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

func closeCode(err error) int {
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		return ce.Code
	}
	return 0
}

func TestUpgradeRefusesMissingAndBadTokens(t *testing.T) {
	h := newHarness(t, storagetest.SQLite(t))
	alice := h.user("alice")
	// Missing sendID or token: no upgrade at all.
	for _, q := range []string{"/ws?token=x", "/ws?sendID=1", "/ws"} {
		_, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(h.srv.URL, "http")+q, nil)
		if err == nil || resp == nil || resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("%s: want 400, got %v %v", q, resp, err)
		}
	}
	// A bad token: the Login promise is rejected, the callback says why,
	// and the close frame carries the reason.
	c := h.dial(alice, "not-a-token")
	r, ok := c.wait(func(r Reply) bool { return r.Event == "Login" }, true)
	if !ok || r.ErrCode != apierr.CodeChatTokenExpired || r.OperationID != "op-login" || r.ErrMsg == "" {
		t.Fatalf("login reply %+v", r)
	}
	c.waitPush("OnUserTokenExpired", nil)
	if err := c.waitClosed(); closeCode(err) != closeTokenExpired || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("close: %v", err)
	}
	// A token of someone else.
	bob := h.user("bob")
	c = h.dial(alice, bob.tok.ChatToken)
	if r, _ := c.wait(func(r Reply) bool { return r.Event == "Login" }, true); r.ErrCode != apierr.CodeChatTokenExpired {
		t.Fatalf("someone else's token: %+v", r)
	}
	// A replaced sign-in is told it was kicked.
	old := alice.tok
	alice.tok = h.signIn(alice.ID)
	c = h.dial(alice, old.ChatToken)
	if r, _ := c.wait(func(r Reply) bool { return r.Event == "Login" }, true); r.ErrCode != apierr.CodeChatKicked {
		t.Fatalf("replaced token: %+v", r)
	}
	c.waitPush("OnKickedOffline", nil)
	if err := c.waitClosed(); closeCode(err) != closeKicked {
		t.Fatalf("close: %v", err)
	}
	// Nothing but Login before Login.
	c = h.dial(alice, alice.tok.ChatToken)
	c.fails(apierr.CodeChatLoginFirst, "GetAllConversationList")
	c.fails(apierr.CodeChatTokenExpired, "Login", alice.id, "wrong")
	if r := c.call("Login", alice.id, alice.tok.ChatToken); r.ErrCode != 0 {
		t.Fatalf("login: %+v", r)
	}
	var status int
	c.ok(&status, "GetLoginStatus")
	if status != 3 {
		t.Fatalf("login status %d", status)
	}
}

func TestKickedOfflineAndTokenExpiry(t *testing.T) {
	// The heartbeat wheel notices an expired sign-in at its next visit of
	// the socket: visits come every ping period.
	h := newHarness(t, storagetest.SQLite(t), func(c *Config) { c.PingPeriod = 100 * time.Millisecond })
	alice := h.user("alice")
	first := h.connect(alice)
	// The same account signing in again on the same platform kicks the
	// old socket.
	alice.tok = h.signIn(alice.ID)
	kick := first.waitPush("OnKickedOffline", nil)
	if kick.ErrCode != apierr.CodeChatKicked {
		t.Fatalf("kick %+v", kick)
	}
	if err := first.waitClosed(); closeCode(err) != closeKicked {
		t.Fatalf("old socket: %v", err)
	}
	second := h.connect(alice)
	if second.isClosed() {
		t.Fatal("new socket closed")
	}
	// Signing out ends the socket with token expired.
	sess, err := storage.SessionByChatToken(context.Background(), h.db, alice.tok.ChatToken)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.sessions.SignOut(context.Background(), sess); err != nil {
		t.Fatal(err)
	}
	second.waitPush("OnUserTokenExpired", nil)
	if err := second.waitClosed(); closeCode(err) != closeTokenExpired {
		t.Fatalf("signed out socket: %v", err)
	}
	// The chat token runs out with the jwt: the socket hears it then.
	alice.tok = h.signIn(alice.ID)
	third := h.connect(alice)
	h.clock.Advance(720*time.Hour - time.Second)
	if third.isClosed() || third.hasPush("OnUserTokenExpired", nil) {
		t.Fatal("expired early")
	}
	h.clock.Advance(time.Second)
	third.waitPush("OnUserTokenExpired", nil)
	third.waitClosed()
	testenv.Eventually(t, waitFor, func() bool { return h.e.Connections() == 0 }, "sockets left")
	// The user actor leaves the registry after it hears its last socket
	// close, which is after the gateway counts the socket gone.
	testenv.Eventually(t, waitFor, func() bool { _, ok := h.e.live.users.get(alice.ID); return !ok },
		"user actor still registered after its sockets closed")
}

func TestBusinessNotificationsReachSockets(t *testing.T) {
	h := newHarness(t, storagetest.SQLite(t))
	alice, bob := h.user("alice"), h.user("bob")
	a1, a2, b := h.connect(alice), h.connect(alice), h.connect(bob)
	ctx := context.Background()
	if err := bus.PushToUser(ctx, h.bus, alice.id, "balance", map[string]int64{"balance": 12345}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*client{a1, a2} {
		n := decode[bus.Notification](t, c.waitPush("OnRecvCustomBusinessMessage", nil).Data)
		if n.Key != "balance" || n.Data != `{"balance":12345}` {
			t.Fatalf("notification %+v", n)
		}
	}
	if err := bus.Broadcast(ctx, h.bus, "notice", map[string]string{"content": "maintenance"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*client{a1, a2, b} {
		c.waitPush("OnRecvCustomBusinessMessage", func(d string) bool { return strings.Contains(d, `"key":"notice"`) })
	}
	if b.hasPush("OnRecvCustomBusinessMessage", func(d string) bool { return strings.Contains(d, "balance") }) {
		t.Fatal("bob got alice's balance")
	}
}

func TestBadInputKeepsTheSocketUsableAndStoresNothing(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db, func(c *Config) { c.MaxFrame = 4096 })
		alice, bob := h.user("alice"), h.user("bob")
		a, b := h.connect(alice), h.connect(bob)
		write := func(s string) {
			if err := a.conn.WriteMessage(websocket.TextMessage, []byte(s)); err != nil {
				t.Fatal(err)
			}
		}
		for _, frame := range []string{`not json`, `{"reqFuncName": 5}`, `[]`, `{"reqFuncName":"Bad Name!","operationID":"x"}`, `{"operationID":"x"}`, "\xff\xfe"} {
			write(frame)
			r, ok := a.wait(func(r Reply) bool { return r.Event == "" && r.ErrCode == apierr.CodeChatBadFrame }, true)
			if !ok || r.ErrMsg != "The frame is not a valid request" {
				t.Fatalf("frame %q: %+v", frame, r)
			}
		}
		write(`{"reqFuncName":"GetTotalUnreadMsgCount","operationID":"d","data":"not an array"}`)
		if r := a.waitReply("d"); r.ErrCode != apierr.CodeChatBadArgument {
			t.Fatalf("bad data: %+v", r)
		}
		r := a.fails(apierr.CodeChatUnknownCall, "NoSuchCall")
		if !strings.Contains(r.ErrMsg, "NoSuchCall") {
			t.Fatalf("unknown call message %q", r.ErrMsg)
		}
		// A name of the SDK's that the app does on its own is known: "not supported", named.
		if r := a.fails(apierr.CodeChatNotSupported, "InsertSingleMessageToLocalStorage", "{}", bob.id, alice.id); !strings.Contains(r.ErrMsg, "InsertSingleMessageToLocalStorage") {
			t.Fatalf("not supported message %q", r.ErrMsg)
		}
		// Wrong argument types are named.
		if r := a.fails(apierr.CodeChatBadArgument, "GetGroupMemberList", "1", "all", 0, 10); !strings.Contains(r.ErrMsg, "filter") {
			t.Fatalf("message %q", r.ErrMsg)
		}
		if r := a.fails(apierr.CodeChatBadArgument, "SendMessageNotOss", obj(map[string]any{"clientMsgID": "x1", "contentType": "text"}), bob.id, "", "", false); !strings.Contains(r.ErrMsg, "contentType") {
			t.Fatalf("message %q", r.ErrMsg)
		}
		a.fails(apierr.CodeChatBadArgument, "CreateTextMessage", 42)
		a.fails(apierr.CodeChatBadArgument, "CreateTextMessage")
		a.fails(apierr.CodeChatBadArgument, "PinConversation", singleConversationID(alice.id, bob.id), "yes")
		a.fails(apierr.CodeChatBadArgument, "GetOneConversation", 1, "not-an-id")
		a.fails(apierr.CodeChatBadMessage, "CreateTextMessage", "   ")
		a.fails(apierr.CodeChatBadMessage, "CreateLocationMessage", "x", 500, 20)
		a.fails(apierr.CodeChatBadMediaURL, "CreateImageMessageByURL", "", obj(Picture{URL: "https://evil.example/x.png"}), nil, nil)
		a.fails(apierr.CodeChatBadMediaURL, "CreateFileMessageByURL", obj(FileElem{FileName: "a.pdf", SourceURL: "/files/chat/1/none.pdf"}))
		a.fails(apierr.CodeChatUnsupportedType, "SendMessageNotOss", obj(map[string]any{"clientMsgID": "x2", "contentType": 1501, "notificationElem": map[string]string{"detail": "{}"}}), bob.id, "", "", false)
		a.fails(apierr.CodeChatUnsupportedType, "SendMessageNotOss", obj(map[string]any{"clientMsgID": "x3", "contentType": 113, "typingElem": map[string]string{"msgTips": "hi"}}), bob.id, "", "", false)
		a.fails(apierr.CodeChatBadMessage, "SendMessageNotOss", obj(map[string]any{"clientMsgID": "bad id!", "contentType": 101, "textElem": map[string]string{"content": "x"}}), bob.id, "", "", false)
		a.fails(apierr.CodeChatBadMessage, "SendMessageNotOss", obj(map[string]any{"clientMsgID": "x4", "contentType": 101}), bob.id, "", "", false)
		a.fails(apierr.CodeChatSelf, "SendMessageNotOss", obj(map[string]any{"clientMsgID": "x5", "contentType": 101, "textElem": map[string]string{"content": "me"}}), alice.id, "", "", false)
		a.fails(apierr.CodeChatUserNotFound, "SendMessageNotOss", obj(map[string]any{"clientMsgID": "x6", "contentType": 101, "textElem": map[string]string{"content": "ghost"}}), "999999", "", "", false)
		// Someone else's group: refused, nothing stored.
		carol := h.user("carol")
		cc := h.connect(carol)
		gid := cc.group("carol's", storage.GroupTypeGroup, nil, nil, verifyApply)
		if r := a.sendGroup(gid, "intruder"); r.ErrCode != apierr.CodeChatNotMember {
			t.Fatalf("send to someone else's group: %+v", r)
		}
		a.fails(apierr.CodeChatNotMember, "GetGroupMemberList", gid, 0, 0, 10)
		a.fails(apierr.CodeChatNotMember, "KickGroupMember", gid, "", obj([]string{carol.id}))
		a.fails(apierr.CodeChatConvNotFound, "GetAdvancedHistoryMessageList", obj(map[string]any{"conversationID": groupConversationID(mustID(t, gid)), "count": 10}))
		a.fails(apierr.CodeChatConvNotFound, "DeleteConversationAndDeleteAllMsg", singleConversationID(bob.id, carol.id))
		a.fails(apierr.CodeChatConvNotFound, "RevokeMessage", singleConversationID(bob.id, carol.id), "x")
		a.fails(apierr.CodeChatGroupNotFound, "JoinGroup", "123456789", "", 3, "")
		res := cc.history(groupConversationID(mustID(t, gid)), 10)
		if len(res.MessageList) != 1 || res.MessageList[0].ContentType != NoticeGroupCreated {
			t.Fatalf("carol's group got %v", texts(res.MessageList))
		}
		if list := b.conversations(); len(list) != 0 {
			t.Fatalf("bob has conversations after refused sends: %+v", list)
		}
		// After all that the socket works.
		a.text(bob.id, "", "still here")
		b.waitPush("OnRecvNewMessage", func(d string) bool { return strings.Contains(d, "still here") })
		// An oversized frame is hostile: the socket is closed with 1009.
		write(`{"reqFuncName":"CreateTextMessage","operationID":"big","data":"[\"` + strings.Repeat("x", 5000) + `\"]"}`)
		if err := a.waitClosed(); closeCode(err) != websocket.CloseMessageTooBig {
			t.Fatalf("oversized frame: %v", err)
		}
	})
}

func TestRequestRateLimit(t *testing.T) {
	h := newHarness(t, storagetest.SQLite(t), func(c *Config) { c.RequestRate, c.RequestBurst = 1, 5 })
	alice := h.user("alice")
	a := h.connect(alice) // Login took one token
	var ops []string
	for i := 0; i < 10; i++ {
		ops = append(ops, a.send("GetLoginStatus"))
	}
	limited := 0
	for _, op := range ops {
		if r := a.waitReply(op); r.ErrCode == apierr.CodeChatRateLimited {
			limited++
		}
	}
	if limited < 5 || limited > 6 {
		t.Fatalf("%d of 10 limited, want 5 or 6", limited)
	}
	if a.isClosed() {
		t.Fatal("a limited socket is closed")
	}
}

func TestSlowConsumerIsDisconnected(t *testing.T) {
	h := newHarness(t, storagetest.SQLite(t), func(c *Config) { c.OutboundQueue, c.WriteTimeout = 16, 300*time.Millisecond })
	alice, bob := h.user("alice"), h.user("bob")
	b := h.connect(bob)
	// Alice logs in and then stops reading.
	conn, _, err := websocket.DefaultDialer.Dial(h.wsURL(alice, alice.tok.ChatToken), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	login := `{"reqFuncName":"Login","operationID":"l","userID":"` + alice.id + `","data":"[\"` + alice.id + `\",\"` + alice.tok.ChatToken + `\"]"}`
	if err := conn.WriteMessage(websocket.TextMessage, []byte(login)); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, waitFor, func() bool { _, ok := h.e.live.users.get(alice.ID); return ok }, "alice not online")
	big := strings.Repeat("x", 64<<10)
	ctx := context.Background()
	testenv.Eventually(t, 10*time.Second, func() bool {
		_ = bus.PushToUser(ctx, h.bus, alice.id, "flood", big)
		_, online := h.e.live.users.get(alice.ID)
		return !online
	}, "slow consumer never disconnected")
	// The queue did not grow without bound, and others are unaffected.
	b.text(alice.id, "", "you there?")
	if b.isClosed() {
		t.Fatal("bob's socket closed")
	}
}

func TestLogoutAnswersThenCloses(t *testing.T) {
	h := newHarness(t, storagetest.SQLite(t))
	alice := h.user("alice")
	a := h.connect(alice)
	if r := a.call("Logout"); r.ErrCode != 0 {
		t.Fatalf("logout %+v", r)
	}
	if err := a.waitClosed(); closeCode(err) != websocket.CloseNormalClosure {
		t.Fatalf("after logout: %v", err)
	}
	// The sign-in itself is still valid: the SDK may log in again.
	h.connect(alice)
	if _, err := h.sessions.ChatSession(context.Background(), alice.tok.ChatToken); err != nil {
		t.Fatalf("chat token after logout: %v", err)
	}
}

func TestServerPingsAndClosesSilentPeers(t *testing.T) {
	h := newHarness(t, storagetest.SQLite(t), func(c *Config) { c.PingPeriod, c.IdleTimeout = 100*time.Millisecond, time.Second })
	alice, bob := h.user("alice"), h.user("bob")
	// A live client answers pings (gorilla answers with a pong) and stays.
	pings := make(chan struct{}, 100)
	a := h.connect(alice, func(conn *websocket.Conn) {
		conn.SetPingHandler(func(data string) error {
			select {
			case pings <- struct{}{}:
			default:
			}
			return conn.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(time.Second))
		})
	})
	// A silent client never answers.
	b := h.connect(bob, func(conn *websocket.Conn) { conn.SetPingHandler(func(string) error { return nil }) })
	for i := 0; i < 3; i++ {
		select {
		case <-pings:
		case <-time.After(waitFor):
			t.Fatal("no server ping")
		}
	}
	if err := b.waitClosed(); err == nil {
		t.Fatal("silent peer not closed")
	}
	// Fifteen more pings span longer than the idle timeout: the live one stays.
	for i := 0; i < 15; i++ {
		select {
		case <-pings:
		case <-time.After(waitFor):
			t.Fatal("pings stopped")
		}
	}
	if a.isClosed() {
		t.Fatal("a client answering pings was closed")
	}
}
