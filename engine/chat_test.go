package engine

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"kj/auth"
	"kj/storage"
)

// TestChatGatewayIsMountedAndDrained opens a node, logs a socket in at
// /ws and shuts the node down: the socket is closed with 1012 (service
// restart) so its client reconnects elsewhere.
func TestChatGatewayIsMountedAndDrained(t *testing.T) {
	n := serveNode(t, map[string]string{})
	base := n.Base
	ctx := context.Background()

	if code, _ := get(t, base+"/ws"); code != http.StatusBadRequest {
		t.Fatalf("/ws without sendID and token: %d", code)
	}
	u := storage.User{ID: storage.NewID(), Account: "gateway", PasswordHash: "x", Nickname: "gw", InviteCode: "pro_gateway", CreatedAt: 1, UpdatedAt: 1}
	if err := storage.CreateUser(ctx, n.DB, u); err != nil {
		t.Fatal(err)
	}
	var tok auth.Tokens
	if err := n.DB.Tx(ctx, func(tx storage.Tx) error {
		var err error
		tok, _, err = n.Sessions.SignIn(ctx, tx, u.ID, 5)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	q := url.Values{"sendID": {u.IDString()}, "token": {tok.ChatToken}, "platformID": {"5"}, "operationID": {"o"}}
	conn, _, err := websocket.DefaultDialer.Dial("ws://"+n.Addr+"/ws?"+q.Encode(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	data, _ := json.Marshal([]string{u.IDString(), tok.ChatToken})
	login, _ := json.Marshal(map[string]string{"reqFuncName": "Login", "operationID": "l", "userID": u.IDString(), "data": string(data)})
	if err := conn.WriteMessage(websocket.TextMessage, login); err != nil {
		t.Fatal(err)
	}
	_, reply, err := conn.ReadMessage()
	if err != nil || !strings.Contains(string(reply), `"event":"Login","errCode":0`) {
		t.Fatalf("login reply %s %v", reply, err)
	}
	if n.Chat.Connections() != 1 {
		t.Fatalf("%d connections", n.Chat.Connections())
	}
	n.cancel()
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, _, err := conn.ReadMessage()
		if err == nil {
			continue
		}
		var ce *websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != websocket.CloseServiceRestart {
			t.Fatalf("closed with %v, want 1012", err)
		}
		break
	}
	if err := n.stop(); err != nil {
		t.Fatal(err)
	}
}
