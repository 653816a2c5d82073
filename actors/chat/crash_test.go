package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"kj/auth"
	"kj/internal/bus"
	"kj/internal/clock"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

// TestCrashAfterAckLosesNothing is the durability test of the chat write
// path, against the real binary on each store: users stream 1:1 messages
// over their sockets, `kj serve` is killed with SIGKILL once a good part of
// them were acknowledged, then restarted on the same store, and every
// message is sent again with the same clientMsgID (what the SDK does with
// a message left unanswered). Every message acknowledged before the kill
// is stored with the seq and server id it was acknowledged with, the
// resends of those get exactly that answer, nothing is stored twice, and
// each conversation's seqs are gapless with each sender's messages in the
// order sent.
func TestCrashAfterAckLosesNothing(t *testing.T) {
	bin := testenv.BuildKJ(t)
	storagetest.EachServed(t, func(t *testing.T, db storage.DB, env map[string]string) {
		crashAfterAck(t, bin, db, env)
	})
}

// startServe runs `kj serve` on the store env names, with no betting
// windows so that only chat runs.
func startServe(t *testing.T, bin string, env map[string]string) *testenv.Process {
	t.Helper()
	all := map[string]string{"KJ_WINDOW_COUNT": "0"}
	for k, v := range env {
		all[k] = v
	}
	return testenv.StartServe(t, bin, all)
}

// crashSocket is a signed-in chat socket that sends without waiting and
// collects the answers by operationID.
type crashSocket struct {
	conn    *websocket.Conn
	user    string
	mu      sync.Mutex
	answers map[string]Reply
	done    chan struct{} // closed when the socket ends
	readErr error         // why, set before done closes
}

func dialChat(t *testing.T, addr, user, token string) *crashSocket {
	t.Helper()
	q := url.Values{"sendID": {user}, "token": {token}, "platformID": {"5"}, "operationID": {"login"}}
	conn, resp, err := websocket.DefaultDialer.Dial("ws://"+addr+"/ws?"+q.Encode(), nil)
	if err != nil {
		t.Fatalf("dial: %v (%v)", err, resp)
	}
	s := &crashSocket{conn: conn, user: user, answers: map[string]Reply{}, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		for {
			_, b, err := conn.ReadMessage()
			if err != nil {
				s.readErr = err
				return
			}
			var r Reply
			if json.Unmarshal(b, &r) == nil && r.OperationID != "" {
				s.mu.Lock()
				s.answers[r.OperationID] = r
				s.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() { conn.Close() })
	s.write(t, "Login", "login-call", user, token)
	if r, ok := s.await("login-call", 15*time.Second); !ok || r.ErrCode != 0 {
		t.Fatalf("login: %+v (socket ended: %v)", r, s.readErr)
	}
	return s
}

func (s *crashSocket) write(t *testing.T, name, op string, args ...any) bool {
	data, _ := json.Marshal(args)
	b, _ := json.Marshal(Request{ReqFuncName: name, OperationID: op, UserID: s.user, Data: string(data)})
	return s.conn.WriteMessage(websocket.TextMessage, b) == nil
}

// await polls for the answer to op until it comes, the socket ends or
// the time is up.
func (s *crashSocket) await(op string, within time.Duration) (Reply, bool) {
	var r Reply
	var ok bool
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		r, ok = s.answers[op]
		s.mu.Unlock()
		if ok {
			return r, true
		}
		select {
		case <-s.done:
			s.mu.Lock()
			r, ok = s.answers[op]
			s.mu.Unlock()
			return r, ok
		case <-time.After(5 * time.Millisecond):
		}
	}
	return r, false
}

func crashAfterAck(t *testing.T, bin string, db storage.DB, env map[string]string) {
	ctx := context.Background()
	const users, each, killAfter = 16, 55, 60
	sessions := &auth.Sessions{DB: db, Bus: bus.NewMemory(), Clock: clock.Real{}, TokenTTL: time.Hour, JWTTTL: time.Hour}
	ids := make([]int64, users)
	tokens := make([]string, users)
	for i := range ids {
		ids[i] = storage.NewID()
		u := storage.User{ID: ids[i], Account: fmt.Sprintf("crash%d", i), PasswordHash: "x", Nickname: "c", InviteCode: fmt.Sprintf("pro_cr%d", i)}
		if err := storage.CreateUser(ctx, db, u); err != nil {
			t.Fatal(err)
		}
		if err := db.Tx(ctx, func(tx storage.Tx) error {
			tok, _, err := sessions.SignIn(ctx, tx, ids[i], 5)
			tokens[i] = tok.ChatToken
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	message := func(u, i int) string {
		m := Message{ClientMsgID: fmt.Sprintf("crash-%d-%d", u, i), CreateTime: 1, SendID: storage.FormatID(ids[u]),
			MsgFrom: msgFromUser, ContentType: TypeText, TextElem: &TextElem{Content: fmt.Sprintf("%d from %d", i, u)}}
		return obj(m)
	}
	type answer struct {
		seq    int64
		server string
	}
	// send streams every user's messages over its socket (within the
	// socket's request burst) and returns the acknowledged ones by
	// clientMsgID; kill, when set, runs once killAfter acks arrived.
	send := func(addr string, kill func()) map[string]answer {
		var mu sync.Mutex
		acked := map[string]answer{}
		var count atomic.Int64
		var once sync.Once
		var wg sync.WaitGroup
		sockets := make([]*crashSocket, users)
		for u := range users {
			sockets[u] = dialChat(t, addr, storage.FormatID(ids[u]), tokens[u])
		}
		for u, s := range sockets {
			wg.Add(1)
			go func() {
				defer wg.Done()
				peer := storage.FormatID(ids[u^1])
				// collect waits for the answer to send i; false when none
				// came (the node died first: outcome unknown).
				collect := func(i int) bool {
					r, ok := s.await(fmt.Sprintf("s-%d", i), 30*time.Second)
					if !ok {
						return false
					}
					if r.ErrCode != 0 {
						t.Errorf("send %d of user %d: %+v", i, u, r)
						return true
					}
					var m Message
					if err := json.Unmarshal([]byte(r.Data), &m); err != nil || m.Seq == 0 {
						t.Errorf("ack without a seq: %q", r.Data)
						return true
					}
					mu.Lock()
					acked[m.ClientMsgID] = answer{m.Seq, m.ServerMsgID}
					mu.Unlock()
					if kill != nil && count.Add(1) == killAfter {
						once.Do(kill)
					}
					return true
				}
				// A few sends in flight per socket, so the stream lasts
				// many round trips and the kill lands in its middle
				// however fast the node commits (sent all at once, the
				// whole stream could be answered before the kill).
				const inFlight = 4
				sent, next, alive := 0, 0, true
				for i := range each {
					for alive && i-next >= inFlight {
						alive = collect(next)
						next++
					}
					if !alive || !s.write(t, "SendMessageNotOss", fmt.Sprintf("s-%d", i), message(u, i), peer, "", obj(OfflinePush{}), false) {
						break
					}
					sent = i + 1
				}
				for ; next < sent; next++ {
					collect(next)
				}
			}()
		}
		wg.Wait()
		return acked
	}

	p := startServe(t, bin, env)
	before := send(p.Addr, p.Kill)
	p.Kill()
	if len(before) < killAfter || len(before) == users*each {
		t.Fatalf("%d of %d acknowledged before the kill: the kill did not land mid-stream", len(before), users*each)
	}
	t.Logf("%d of %d acknowledged before the kill", len(before), users*each)
	p = startServe(t, bin, env)
	after := send(p.Addr, nil)
	if len(after) != users*each {
		t.Fatalf("%d of %d resends acknowledged", len(after), users*each)
	}
	for id, a := range before {
		if after[id] != a {
			t.Fatalf("%s: acknowledged %+v before the kill, %+v on resend", id, a, after[id])
		}
	}
	for pair := 0; pair < users; pair += 2 {
		a, b := storage.FormatID(ids[pair]), storage.FormatID(ids[pair+1])
		stored := storedConversation(t, db, ids[pair], singleConversationID(a, b), 2*each)
		for _, u := range []int{pair, pair + 1} {
			last := int64(0)
			for i := range each {
				id := fmt.Sprintf("crash-%d-%d", u, i)
				m, ok := stored[id]
				if !ok || m.Seq != after[id].seq || m.ServerMsgID != after[id].server {
					t.Fatalf("%s: stored %+v, acknowledged %+v", id, m, after[id])
				}
				if m.Seq <= last {
					t.Fatalf("%s: seq %d after %d (out of the order sent)", id, m.Seq, last)
				}
				last = m.Seq
			}
		}
	}
	if strings.Contains(p.Logs.String(), "panic") {
		t.Fatalf("the node panicked: %s", p.Logs)
	}
}
