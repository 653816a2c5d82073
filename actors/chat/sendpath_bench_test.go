package chat

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/gorilla/websocket"

	"kj/auth"
	"kj/internal/bus"
	"kj/internal/clock"
	"kj/internal/presence"
	"kj/storage"
	"kj/storage/storagetest"
)

// BenchmarkSendPath is W2's send path inside one process, end to end: a
// SendMessage frame written on a real socket is read and decoded by the
// sender's session, goes through its conversation to the writer, is
// committed in a batch, and comes back as the acknowledgement frame on
// the sender's socket and the OnRecvNewMessage frame on the receiver's.
// One op is one message, acknowledged and delivered, so B/op and
// allocs/op are the garbage per message (the benchmark's own clients
// included: they write prebuilt frames and scan what they read into
// reused buffers, a few allocations per message). pairs conversations
// have one message in flight each, as W2's pairs mostly do.
//
//	go test -run '^$' -bench SendPath -benchmem -benchtime 20000x ./actors/chat/
//	go test -run '^$' -bench 'SendPath/store=sqlite' -benchmem -cpuprofile /tmp/send.pprof ./actors/chat/
func BenchmarkSendPath(b *testing.B) {
	stores := []struct {
		name string
		open func(testing.TB) storage.DB
	}{{"sqlite", storagetest.SQLite}, {"postgres", storagetest.Postgres}}
	for _, st := range stores {
		for _, pairs := range []int{64, 512} {
			b.Run(fmt.Sprintf("store=%s/pairs=%d", st.name, pairs), func(b *testing.B) {
				benchSendPath(b, st.open(b), pairs)
			})
		}
	}
}

// sendPathNode is an engine serving /ws over loopback, as kj serve does.
type sendPathNode struct {
	db       storage.DB
	e        *Engine
	sessions *auth.Sessions
	system   *actor.ActorSystem
	srv      *httptest.Server
}

func newSendPathNode(b *testing.B, db storage.DB) *sendPathNode {
	n := &sendPathNode{db: db}
	n.system = actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return slog.New(slog.DiscardHandler)
	}))
	clk := clock.NewFake(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
	bs := bus.NewMemory()
	n.sessions = &auth.Sessions{DB: db, Bus: bs, Clock: clk, TokenTTL: 2 * time.Hour, JWTTTL: 720 * time.Hour}
	n.e = New(Deps{DB: db, Bus: bs, Clock: clk, Sessions: n.sessions, Presence: presence.NewMemory(clk), Actors: n.system,
		Log: slog.New(slog.DiscardHandler)},
		// A benchmark socket sends as fast as its answers come back, far
		// over a person's 30 requests/s: the per-socket limit is lifted.
		Config{NodeID: "sendpath-bench", ActorIdle: time.Minute, RequestRate: 1e9, RequestBurst: 1e9})
	if err := n.e.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/ws", n.e)
	n.srv = httptest.NewServer(mux)
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		n.e.Drain(ctx)
		cancel()
		n.srv.Close()
		n.e.Close()
		n.system.Shutdown()
	})
	return n
}

// benchConn is one logged-in socket of the benchmark.
type benchConn struct {
	id   string
	conn *websocket.Conn
	buf  []byte
	out  []byte
}

// user makes an account, signs it in on the web platform and logs a
// socket in with it.
func (n *sendPathNode) user(b *testing.B, i int) *benchConn {
	ctx := context.Background()
	now := time.Now().UnixMilli()
	u := storage.User{ID: storage.NewID(), Account: fmt.Sprintf("sp%d_%d", i, time.Now().UnixNano()%1e9), PasswordHash: "x",
		Nickname: "bench " + strconv.Itoa(i), InviteCode: fmt.Sprintf("sp_%d_%d", i, time.Now().UnixNano()), CreatedAt: now, UpdatedAt: now}
	if err := storage.CreateUser(ctx, n.db, u); err != nil {
		b.Fatal(err)
	}
	var tok auth.Tokens
	if err := n.db.Tx(ctx, func(tx storage.Tx) error {
		var err error
		tok, _, err = n.sessions.SignIn(ctx, tx, u.ID, 5)
		return err
	}); err != nil {
		b.Fatal(err)
	}
	id := u.IDString()
	q := url.Values{"sendID": {id}, "token": {tok.ChatToken}, "platformID": {"5"}, "operationID": {"op-login"}}
	conn, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(n.srv.URL, "http")+"/ws?"+q.Encode(), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { conn.Close() })
	c := &benchConn{id: id, conn: conn, buf: make([]byte, 0, 4096)}
	login := fmt.Sprintf(`{"reqFuncName":"Login","operationID":"login","userID":"%s","data":"[\"%s\",\"%s\"]"}`, id, id, tok.ChatToken)
	if err := conn.WriteMessage(websocket.TextMessage, []byte(login)); err != nil {
		b.Fatal(err)
	}
	for !c.next(b, `"event":"OnConnectSuccess"`) {
	}
	return c
}

// next reads one frame into the connection's buffer and says whether it
// holds want.
func (c *benchConn) next(b *testing.B, want string) bool {
	_ = c.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, r, err := c.conn.NextReader()
	if err != nil {
		b.Errorf("read %s waiting for %s: %v (last frame %.300s)", c.id, want, err, c.buf)
		runtime.Goexit()
	}
	c.buf = c.buf[:0]
	for {
		if len(c.buf) == cap(c.buf) {
			c.buf = append(c.buf, 0)[:len(c.buf)]
		}
		k, err := r.Read(c.buf[len(c.buf):cap(c.buf)])
		c.buf = c.buf[:len(c.buf)+k]
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Fatalf("read %s: %v", c.id, err)
		}
	}
	return bytes.Contains(c.buf, []byte(want))
}

// sendText writes a SendMessage request of a text to recv, its
// operationID op (the frame the SDK sends, built without reflection).
func (c *benchConn) sendText(b *testing.B, recv string, op string, n int) {
	c.out = append(c.out[:0], `{"reqFuncName":"SendMessage","operationID":"`...)
	c.out = append(c.out, op...)
	c.out = append(c.out, `","userID":"`...)
	c.out = append(c.out, c.id...)
	c.out = append(c.out, `","data":"[\"{\\\"clientMsgID\\\":\\\"`...)
	c.out = append(c.out, op...)
	c.out = append(c.out, `\\\",\\\"createTime\\\":1,\\\"sessionType\\\":1,\\\"sendID\\\":\\\"`...)
	c.out = append(c.out, c.id...)
	c.out = append(c.out, `\\\",\\\"recvID\\\":\\\"`...)
	c.out = append(c.out, recv...)
	c.out = append(c.out, `\\\",\\\"groupID\\\":\\\"\\\",\\\"msgFrom\\\":100,\\\"contentType\\\":101,\\\"senderPlatformID\\\":5,\\\"status\\\":1,`...)
	c.out = append(c.out, `\\\"textElem\\\":{\\\"content\\\":\\\"a message of about sixty characters, as people write `...)
	c.out = strconv.AppendInt(c.out, int64(n), 10)
	c.out = append(c.out, `.\\\"}}\",\"`...)
	c.out = append(c.out, recv...)
	c.out = append(c.out, `\",\"\",\"{}\",false]"}`...)
	if err := c.conn.WriteMessage(websocket.TextMessage, c.out); err != nil {
		b.Fatalf("write %s: %v", c.id, err)
	}
}

func benchSendPath(b *testing.B, db storage.DB, pairs int) {
	n := newSendPathNode(b, db)
	type pair struct{ a, c *benchConn }
	ps := make([]pair, pairs)
	for i := range ps {
		ps[i] = pair{n.user(b, 2*i), n.user(b, 2*i+1)}
	}
	// One message per pair first: conversations made and their actors live.
	var next atomic.Int64
	var failed atomic.Int64
	var wg sync.WaitGroup
	run := func(total int64) {
		for i := range ps {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := ps[i]
				for {
					k := next.Add(1)
					if k > total {
						return
					}
					from, to := p.a, p.c
					if k%2 == 0 {
						from, to = p.c, p.a
					}
					op := "m" + strconv.FormatInt(k, 10)
					from.sendText(b, to.id, op, int(k))
					// The acknowledgement on the sender's socket (frames that
					// are not it, e.g. conversation pushes, are skipped) ...
					for !from.next(b, `"operationID":"`+op+`"`) {
					}
					if !bytes.Contains(from.buf, []byte(`"errCode":0`)) {
						if failed.Add(1) == 1 {
							b.Errorf("send refused: %.300s", from.buf)
						}
						continue
					}
					// ... and the delivery on the receiver's.
					for !to.next(b, "people write "+strconv.FormatInt(k, 10)+".") || !bytes.Contains(to.buf, []byte(`"event":"OnRecvNewMessage"`)) {
					}
				}
			}()
		}
		wg.Wait()
	}
	run(int64(pairs))
	if f := failed.Load(); f > 0 {
		b.Fatalf("%d warm-up sends refused", f)
	}
	// The measured messages number on from the warm-up's: a pair sending
	// a clientMsgID again (m<k> reused in its conversation) is a resend,
	// which kj answers with the stored message and does not push twice,
	// so the receiver would wait for a delivery that rightly never comes.
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	cpu0 := processCPU()
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	run(int64(pairs + b.N))
	elapsed := time.Since(start)
	b.StopTimer()
	cpu := processCPU() - cpu0
	runtime.ReadMemStats(&ms1)
	if f := failed.Load(); f > 0 {
		b.Fatalf("%d sends refused", f)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "msgs/s")
	// The process's CPU (user and system, the clients' share included)
	// per message: ns/op is wall time with pairs messages in flight.
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-us/msg")
	b.ReportMetric(float64(ms1.NumGC-ms0.NumGC)/float64(b.N)*1e6, "gc/Mmsg")
}

// processCPU is the CPU time the process has used (user and system).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
