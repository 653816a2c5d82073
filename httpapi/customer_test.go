package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"kj/auth"
	"kj/customer"
	"kj/internal/apierr"
	"kj/storage"
)

// The visitor key's cookie and header, as the clients send them.
const (
	visitorCookie         = customer.VisitorCookie
	visitorHeader         = customer.VisitorHeader
	customerSendPerMinute = customer.SendPerMinute
)

// customerCall posts to a customer route and returns the reply and the
// visitor cookie the server set ("" when none).
func customerCall(t *testing.T, s *Server, path, body string, headers ...string) (reply, string) {
	t.Helper()
	req := request("POST", "/api"+path, strings.NewReader(body), append([]string{"Accept-Language", "en-US"}, headers...)...)
	w := serve(s.Handler(), req)
	r := envelopeIn(t, req, w)
	cookie := ""
	for _, ck := range w.Result().Cookies() {
		if ck.Name == visitorCookie {
			cookie = ck.Value
			if !ck.HttpOnly || ck.Path != "/" {
				t.Fatalf("visitor cookie attributes: %+v", ck)
			}
		}
	}
	return r, cookie
}

// consoleAgent makes an operator signed in to the console (platform 10)
// who takes chats under the display name name, and answers its console
// token.
func consoleAgent(t *testing.T, s *Server, account, name string) (storage.User, string) {
	t.Helper()
	u, _ := contentOperator(t, s, account)
	var tok auth.Tokens
	err := s.DB.Tx(context.Background(), func(tx storage.Tx) error {
		var err error
		tok, _, err = s.Sessions.SignIn(context.Background(), tx, u.ID, storage.ConsolePlatform)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	d := contentOK[customer.Desk](t, contentPost(t, s, "/admin/customer/desk/set", fmt.Sprintf(`{"taking":true,"displayName":%q}`, name), tok.Token))
	if !d.Taking || !d.Available || d.DisplayName != name {
		t.Fatalf("desk of %s: %+v", account, d)
	}
	return u, tok.Token
}

func TestCustomerServiceOverHTTP(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		ctx := context.Background()
		_, idleTok := contentOperator(t, s, "service") // an operator who takes no chats
		a1, a1Tok := consoleAgent(t, s, "agent1", "Amy")
		a2, a2Tok := consoleAgent(t, s, "agent2", "Bea")
		contentOK[any](t, contentPost(t, s, "/admin/settings/save", `{"serviceWelcome":"Hi! Ask us anything."}`, a1Tok))
		if d := contentOK[customer.Desk](t, contentPost(t, s, "/admin/customer/desk", ``, idleTok.Token)); d.Taking || d.Available {
			t.Fatalf("desk of an operator who never took chats: %+v", d)
		}

		// A visitor without login gets a key (cookie too); an agent only
		// once they write.
		r, cookie := customerCall(t, s, "/customer/init", ``)
		va := contentOK[customer.InitView](t, r)
		if !strings.HasPrefix(va.VisitorID, "v_") || cookie != va.VisitorID || va.ServiceID != contentID(customer.PublicServiceID) || va.Welcome != "Hi! Ask us anything." || va.UserID != 0 {
			t.Fatalf("init: %+v cookie %q", va, cookie)
		}
		// The same key, by cookie or header, is the same visitor.
		r, _ = customerCall(t, s, "/customer/init", ``, "Cookie", visitorCookie+"="+va.VisitorID)
		if again := contentOK[customer.InitView](t, r); again.VisitorNo != va.VisitorNo || again.VisitorID != va.VisitorID {
			t.Fatalf("same visitor by cookie: %+v", again)
		}
		r, _ = customerCall(t, s, "/customer/init", ``, visitorHeader, va.VisitorID)
		if again := contentOK[customer.InitView](t, r); again.VisitorNo != va.VisitorNo {
			t.Fatalf("same visitor by header: %+v", again)
		}
		// An unknown key gets a fresh visitor and key.
		r, _ = customerCall(t, s, "/customer/init", ``, visitorHeader, "v_madeup")
		if vc := contentOK[customer.InitView](t, r); vc.VisitorID == "v_madeup" || vc.VisitorNo == va.VisitorNo {
			t.Fatalf("made-up key: %+v", vc)
		}

		hv := []string{visitorHeader, va.VisitorID}
		r, _ = customerCall(t, s, "/customer/send", `{"content":"  Hello, I forgot my password  "}`, hv...)
		sent := contentOK[customer.MessageView](t, r)
		if sent.Content != "Hello, I forgot my password" || sent.From != "visitor" || sent.Status != storage.CustomerSent || sent.ID == 0 {
			t.Fatalf("sent: %+v", sent)
		}
		// Writing gave the visitor an agent taking chats, shown by its
		// display name, never the account; the visitor still writes to the
		// service's public id, not the agent's.
		if sent.ServiceID != contentID(customer.PublicServiceID) {
			t.Fatalf("sent to %v, want the service's public id", sent.ServiceID)
		}
		r, _ = customerCall(t, s, "/customer/init", ``, visitorHeader, va.VisitorID)
		va = contentOK[customer.InitView](t, r)
		agentNamed := map[string]contentID{"Amy": contentID(a1.ID), "Bea": contentID(a2.ID)}
		if agentNamed[va.ServiceName] == 0 || va.ServiceID != contentID(customer.PublicServiceID) {
			t.Fatalf("after writing: %+v", va)
		}
		// The next visitor's enquiry goes to the other agent (least loaded).
		r, _ = customerCall(t, s, "/customer/init", ``)
		vb := contentOK[customer.InitView](t, r)
		customerCall(t, s, "/customer/send", `{"content":"hi","context":{"kind":"videoLimit"}}`, visitorHeader, vb.VisitorID)
		r, _ = customerCall(t, s, "/customer/init", ``, visitorHeader, vb.VisitorID)
		vb = contentOK[customer.InitView](t, r)
		if vb.VisitorNo == va.VisitorNo || vb.ServiceName == va.ServiceName || agentNamed[vb.ServiceName] == 0 || vb.ServiceID != va.ServiceID {
			t.Fatalf("second visitor: %+v (first %+v)", vb, va)
		}
		// The idle operator sees neither (both are taken and fresh).
		if idles := contentOK[contentList[customerVisitorView]](t, contentPost(t, s, "/admin/customer/visitors", ``, idleTok.Token)); idles.Total != 1 {
			t.Fatalf("idle operator sees %+v; want only the visitor who never wrote", idles)
		}

		agentOf := map[contentID]string{contentID(a1.ID): a1Tok, contentID(a2.ID): a2Tok}
		agentTok := agentOf[agentNamed[va.ServiceName]]
		visitors := contentOK[contentList[customerVisitorView]](t, contentPost(t, s, "/admin/customer/visitors", ``, agentTok))
		if visitors.Total < 1 || visitors.List[0].VisitorNo != va.VisitorNo || visitors.List[0].Unread != 1 || visitors.List[0].LastMessage != sent.Content {
			t.Fatalf("agent's visitors: %+v", visitors)
		}
		msgs := contentOK[contentList[customer.MessageView]](t, contentPost(t, s, "/admin/customer/messages", fmt.Sprintf(`{"visitorNo":"%d"}`, int64(va.VisitorNo)), agentTok))
		if msgs.Total != 1 || msgs.List[0].Status != storage.CustomerRead {
			t.Fatalf("agent reads: %+v", msgs)
		}
		reply1 := contentOK[customer.MessageView](t, contentPost(t, s, "/admin/customer/reply", fmt.Sprintf(`{"visitorNo":"%d","content":"We can help. What is your account?"}`, int64(va.VisitorNo)), agentTok))
		// The console sees which agent replied.
		if reply1.From != "agent" || reply1.ServiceID != agentNamed[va.ServiceName] {
			t.Fatalf("reply: %+v", reply1)
		}
		r, _ = customerCall(t, s, "/customer/init", ``, hv...)
		if st := contentOK[customer.InitView](t, r); st.Unread != 1 {
			t.Fatalf("visitor unread: %+v", st)
		}
		r, _ = customerCall(t, s, "/customer/messages", `{"pageSize":10}`, hv...)
		page := contentOK[contentList[customer.MessageView]](t, r)
		if page.Total != 2 || page.List[0].ID != reply1.ID || page.List[0].Status != storage.CustomerRead || page.List[1].Status != storage.CustomerRead {
			t.Fatalf("visitor messages (newest first, all read): %+v", page)
		}
		for _, m := range page.List {
			if m.ServiceID != contentID(customer.PublicServiceID) {
				t.Fatalf("the visitor sees an agent's id: %+v", m)
			}
		}

		// Bad input: clear errors, nothing written.
		before, _ := storage.CountCustomerMessages(ctx, db, int64(va.VisitorNo))
		r, _ = customerCall(t, s, "/customer/send", `{"content":"   "}`, hv...)
		contentFails(t, r, apierr.CodeRequired)
		r, _ = customerCall(t, s, "/customer/send", `{"content":"`+strings.Repeat("x", customerMaxLength+1)+`"}`, hv...)
		contentFails(t, r, apierr.CodeInvalid)
		r, _ = customerCall(t, s, "/customer/messages", `{"page":5}`, hv...)
		contentFails(t, r, apierr.CodePageOutOfRange)
		contentFails(t, contentPost(t, s, "/admin/customer/reply", `{"visitorNo":"12345","content":"x"}`, agentTok), apierr.CodeNotFound)
		contentFails(t, contentPost(t, s, "/admin/customer/reply", `{"content":"x"}`, agentTok), apierr.CodeRequired)
		if after, _ := storage.CountCustomerMessages(ctx, db, int64(va.VisitorNo)); after != before {
			t.Fatalf("refused sends wrote messages: %d -> %d", before, after)
		}
		_, userTok := newUser(t, s, "plainuser")
		for _, path := range []string{"/admin/customer/visitors", "/admin/customer/messages", "/admin/customer/reply"} {
			contentFails(t, contentPost(t, s, path, `{"visitorNo":"1","content":"x"}`, userTok.Token), apierr.CodeOperatorOnly, 403)
		}
		if n, _ := storage.CountAudit(ctx, db, storage.AuditFilter{Action: "customer.reply"}); n != 1 {
			t.Fatalf("reply audit entries: %d", n)
		}

		// A visitor may send customerSendPerMinute messages a minute.
		for range customerSendPerMinute - 1 {
			r, _ = customerCall(t, s, "/customer/send", `{"content":"again"}`, hv...)
			contentOK[any](t, r)
		}
		r, _ = customerCall(t, s, "/customer/send", `{"content":"one too many"}`, hv...)
		contentFails(t, r, apierr.CodeRateLimited)
	})
}

// The visitor key and the token travel as the routes expect (the rules of
// linking and merging are customer's, see TestVisitorKeyFollowsTheSignedInUser):
// a key with a token links the chat to the user, another device gets the
// same chat in a new cookie, and a bad token is refused, not ignored.
func TestCustomerVisitorLinksToSignedInUser(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		contentOperator(t, s, "agent")
		amy, amyTok := newUser(t, s, "amy")

		r, _ := customerCall(t, s, "/customer/init", ``)
		anon := contentOK[customer.InitView](t, r)
		r, _ = customerCall(t, s, "/customer/init", ``, visitorHeader, anon.VisitorID, "token", amyTok.Token)
		linked := contentOK[customer.InitView](t, r)
		if linked.VisitorNo != anon.VisitorNo || fmt.Sprint(int64(linked.UserID)) != amy.IDString() {
			t.Fatalf("link: %+v", linked)
		}
		r, cookie := customerCall(t, s, "/customer/init", ``, "token", amyTok.Token)
		other := contentOK[customer.InitView](t, r)
		if other.VisitorNo != anon.VisitorNo || other.VisitorID == anon.VisitorID || cookie != other.VisitorID {
			t.Fatalf("second device: %+v", other)
		}
		r, _ = customerCall(t, s, "/customer/messages", ``, visitorHeader, anon.VisitorID)
		if p := contentOK[contentList[customer.MessageView]](t, r); p.Total != 0 {
			t.Fatalf("signed-out caller saw amy's chat: %+v", p)
		}
		r, _ = customerCall(t, s, "/customer/init", ``, "token", "expired-token")
		contentFails(t, r, apierr.CodeTokenExpired)
	})
}

// customerWS is a test socket client.
type customerWS struct {
	t  *testing.T
	ws *websocket.Conn
	// held keeps frames read while waiting for another type: the server
	// sends a socket's acknowledgement and the desk's broadcast from
	// different goroutines, so their order is not fixed.
	held []map[string]any
}

func dialCustomer(t *testing.T, srv *httptest.Server, query string, header http.Header) (*customerWS, *http.Response, error) {
	t.Helper()
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/ws/customer" + query
	ws, resp, err := websocket.DefaultDialer.Dial(url, header)
	if err != nil {
		return nil, resp, err
	}
	t.Cleanup(func() { ws.Close() })
	return &customerWS{t: t, ws: ws}, resp, nil
}

// next returns the first frame of type typ, held or read (2 s at most);
// frames of other types are held for a later call.
func (c *customerWS) next(typ string) map[string]any {
	c.t.Helper()
	for i, f := range c.held {
		if f["type"] == typ {
			c.held = append(c.held[:i], c.held[i+1:]...)
			return f
		}
	}
	c.ws.SetReadDeadline(time.Now().Add(2 * time.Second))
	for {
		_, data, err := c.ws.ReadMessage()
		if err != nil {
			c.t.Fatalf("waiting for %q: %v", typ, err)
		}
		var f map[string]any
		json.Unmarshal(data, &f)
		if f["type"] == typ {
			return f
		}
		c.held = append(c.held, f)
	}
}

// message reads "message" frames until one written by from arrives (a
// socket also hears its own messages, for the writer's other tabs).
func (c *customerWS) message(from string) map[string]any {
	c.t.Helper()
	for {
		f := c.next("message")
		if f["message"].(map[string]any)["from"] == from {
			return f
		}
	}
}

// read reads "read" frames until one made by by arrives.
func (c *customerWS) read(by string) map[string]any {
	c.t.Helper()
	for {
		if f := c.next("read"); f["by"] == by {
			return f
		}
	}
}

func (c *customerWS) send(v any) {
	c.t.Helper()
	if err := c.ws.WriteJSON(v); err != nil {
		c.t.Fatal(err)
	}
}

func TestCustomerServiceOverWebsocket(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		ctx := context.Background()
		agent, agentToken := consoleAgent(t, s, "agent", "Kim")
		agentTok := auth.Tokens{Token: agentToken}
		_, userTok := newUser(t, s, "plainuser")
		sock := s.CustomerSocket()
		mux := http.NewServeMux()
		mux.Handle("/api/", s.Handler())
		mux.Handle("/ws/customer", sock)
		srv := httptest.NewServer(mux)
		t.Cleanup(srv.Close)

		// Refused handshakes answer the envelope.
		_, resp, err := dialCustomer(t, srv, "?as=agent&token="+userTok.Token, nil)
		if err == nil || resp.StatusCode != 403 {
			t.Fatalf("user as agent: %v %v", err, resp)
		}
		var env reply
		json.NewDecoder(resp.Body).Decode(&env)
		if env.Code != apierr.CodeOperatorOnly {
			t.Fatalf("refusal body: %+v", env)
		}
		if _, resp, err = dialCustomer(t, srv, "?as=agent", nil); err == nil || resp.StatusCode != 401 {
			t.Fatalf("agent without token: %v %v", err, resp)
		}

		ag, _, err := dialCustomer(t, srv, "?as=agent&token="+agentTok.Token, nil)
		if err != nil {
			t.Fatal(err)
		}
		if f := ag.next("init"); f["serviceName"] != "Kim" {
			t.Fatalf("agent init: %v", f)
		}
		// A visitor with nothing at all: key in the first frame and in a cookie.
		vis, resp, err := dialCustomer(t, srv, "?lang=en-US", nil)
		if err != nil {
			t.Fatal(err)
		}
		init := vis.next("init")
		key, _ := init["visitorId"].(string)
		// No agent until the visitor writes.
		if !strings.HasPrefix(key, "v_") || init["serviceId"] != strconv.FormatInt(customer.PublicServiceID, 10) || !strings.Contains(resp.Header.Get("Set-Cookie"), visitorCookie+"="+key) {
			t.Fatalf("visitor init: %v / %v", init, resp.Header)
		}
		visitorNo := init["visitorNo"].(string)

		vis.send(map[string]any{"type": "send", "content": "hello from the socket", "clientMsgId": "c1", "context": map[string]any{"kind": "videoLimit"}})
		ack := vis.next("ack")
		if ack["clientMsgId"] != "c1" || ack["message"].(map[string]any)["content"] != "hello from the socket" ||
			ack["message"].(map[string]any)["context"].(map[string]any)["kind"] != "videoLimit" {
			t.Fatalf("ack: %v", ack)
		}
		ev := ag.message("visitor")
		if ev["visitorNo"] != visitorNo || ev["message"].(map[string]any)["from"] != "visitor" {
			t.Fatalf("agent event: %v", ev)
		}

		ag.send(map[string]any{"type": "send", "visitorNo": visitorNo, "content": "hello, visitor", "clientMsgId": "a1"})
		if a := ag.next("ack"); a["clientMsgId"] != "a1" {
			t.Fatalf("agent ack: %v", a)
		}
		got := vis.message("agent")
		if m := got["message"].(map[string]any); m["from"] != "agent" || m["content"] != "hello, visitor" || m["serviceId"] != strconv.FormatInt(customer.PublicServiceID, 10) {
			t.Fatalf("visitor event: %v", got)
		}
		// The desk hears which agent it was.
		if m := ag.message("agent")["message"].(map[string]any); m["serviceId"] != agent.IDString() {
			t.Fatalf("desk event: %v", m)
		}
		// A reply over the socket is audited like one over HTTP, with the
		// socket's address.
		if es, _ := storage.ListAudit(ctx, db, storage.AuditFilter{Action: "customer.reply"}, 10, 0); len(es) != 1 ||
			es[0].OperatorID != agent.ID || !strings.Contains(es[0].Detail, `"ip":"127.0.0.1"`) || !strings.Contains(es[0].Detail, `"before":{"agentId":`) {
			t.Fatalf("socket reply's audit row: %+v", es)
		}

		// A second agent, whose inbox shows everyone's conversations, hears
		// this visitor too although the first agent answers it.
		_, otherTok := newAgent(t, s, "desk_other")
		other, _, err := dialCustomer(t, srv, "?as=agent&token="+otherTok.Token, nil)
		if err != nil {
			t.Fatal(err)
		}
		other.next("init")

		// The HTTP side and the socket side are one chat.
		r, _ := customerCall(t, s, "/customer/send", `{"content":"sent over HTTP"}`, visitorHeader, key)
		contentOK[any](t, r)
		if m := ag.message("visitor")["message"].(map[string]any); m["content"] != "sent over HTTP" {
			t.Fatalf("HTTP message on the socket: %v", m)
		}
		if f := other.message("visitor"); f["visitorNo"] != visitorNo || f["message"].(map[string]any)["content"] != "sent over HTTP" {
			t.Fatalf("the other agent's socket: %v", f)
		}
		vis.send(map[string]any{"type": "read"})
		if rd := ag.read("visitor"); rd["visitorNo"] != visitorNo {
			t.Fatalf("read event: %v", rd)
		}
		ag.send(map[string]any{"type": "read", "visitorNo": visitorNo})
		if rd := vis.read("agent"); rd["visitorNo"] != visitorNo {
			t.Fatalf("agent read event: %v", rd)
		}
		if n, _ := storage.UnreadCustomerMessages(ctx, db, mustID(t, visitorNo), storage.FromVisitor); n != 0 {
			t.Fatalf("agent read over the socket, store says %d unread", n)
		}

		// Bad frames get translated errors; nothing is written.
		before, _ := storage.CountCustomerMessages(ctx, db, mustID(t, visitorNo))
		vis.send(map[string]any{"type": "send", "content": strings.Repeat("y", customerMaxLength+1), "clientMsgId": "c2"})
		if e := vis.next("error"); e["code"] != float64(apierr.CodeInvalid) || e["clientMsgId"] != "c2" || !strings.Contains(e["message"].(string), "content") {
			t.Fatalf("error frame: %v", e)
		}
		vis.send(map[string]any{"type": "dance"})
		vis.next("error")
		ag.send(map[string]any{"type": "send", "visitorNo": "12345", "content": "x"})
		if e := ag.next("error"); e["code"] != float64(apierr.CodeNotFound) {
			t.Fatalf("unknown visitor: %v", e)
		}
		if after, _ := storage.CountCustomerMessages(ctx, db, mustID(t, visitorNo)); after != before {
			t.Fatalf("bad frames wrote messages: %d -> %d", before, after)
		}

		// The visitor reconnects with its cookie: the same chat.
		hdr := http.Header{"Cookie": {visitorCookie + "=" + key}}
		vis2, _, err := dialCustomer(t, srv, "", hdr)
		if err != nil {
			t.Fatal(err)
		}
		if f := vis2.next("init"); f["visitorNo"] != visitorNo || f["visitorId"] != key {
			t.Fatalf("reconnect: %v", f)
		}

		// The agent signs in elsewhere on the same platform: its old token is
		// replaced, and its socket stops answering.
		if err := s.DB.Tx(ctx, func(tx storage.Tx) error {
			_, _, err := s.Sessions.SignIn(ctx, tx, agent.ID, storage.ConsolePlatform)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		ag.send(map[string]any{"type": "send", "visitorNo": visitorNo, "content": "still here?", "clientMsgId": "a2"})
		if e := ag.next("error"); e["code"] != float64(apierr.CodeTokenExpired) {
			t.Fatalf("replaced agent: %v", e)
		}
		ag.ws.SetReadDeadline(time.Now().Add(2 * time.Second))
		if _, _, err := ag.ws.ReadMessage(); !websocket.IsCloseError(err, websocket.ClosePolicyViolation) {
			t.Fatalf("replaced agent's socket: %v", err)
		}

		// Drain: every socket hears the server go away.
		sock.Close(ctx)
		for _, c := range []*customerWS{vis, vis2} {
			c.ws.SetReadDeadline(time.Now().Add(2 * time.Second))
			for {
				_, _, err := c.ws.ReadMessage()
				if err != nil {
					if !websocket.IsCloseError(err, websocket.CloseGoingAway) {
						t.Fatalf("drain: %v", err)
					}
					break
				}
			}
		}
		if _, resp, err := dialCustomer(t, srv, "", nil); err == nil || resp.StatusCode != 503 {
			t.Fatalf("dial while draining: %v", err)
		}
	})
}

func mustID(t *testing.T, s string) int64 {
	t.Helper()
	var id int64
	if _, err := fmt.Sscan(s, &id); err != nil {
		t.Fatal(err)
	}
	return id
}
