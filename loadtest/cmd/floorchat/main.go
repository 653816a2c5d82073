// Command floorchat is the chat floor W2 measures kj against: the plainest
// durable 1:1 relay a Go engineer would write, run by the load harness on
// the same box in the same run as kj, so that kj's CPU per message is
// judged against what the parts alone cost there — a websocket, a JSON
// decode, a PostgreSQL commit, a fan-out write. It is minimal but correct:
// a publish is answered only once its row is committed (with whatever
// synchronous_commit and fsync the server has), and every committed
// message reaches the channel's other subscribers once each, in order.
//
// It speaks the subset of Centrifugo's bidirectional JSON protocol the
// harness's peer client uses, on GET /connection/websocket (GET /health
// answers {}). A websocket message carries one JSON object a line:
//
//	{"id":1,"connect":{"token":"<HS256 JWT>","name":"kjload"}}
//	{"id":1,"connect":{"client":"7","version":"floor"}}
//	{"id":2,"subscribe":{"channel":"pair:3"}}
//	{"id":2,"subscribe":{}}
//	{"id":3,"publish":{"channel":"pair:3","data":{"t":"…"}}}
//	{"id":3,"publish":{}}
//	{"push":{"channel":"pair:3","pub":{"data":{"t":"…"},"offset":1}}}
//	{"id":4,"error":{"code":103,"message":"permission denied"}}
//	{}                                   a pong; ignored
//
// Error codes: 100 internal (the commit failed), 101 unauthorized (bad or
// expired token, or a command before connect), 103 permission denied
// (publishing into a channel the connection has not subscribed to), 105
// already subscribed, 107 bad request. The floor sends no pings: the runs
// last minutes and the client needs none.
//
// Publishes go to one committer goroutine, which commits everything queued
// while the previous commit was in flight as one INSERT (group commit,
// with no lingering: a lone publish is committed at once), then hands the
// batch to one sender goroutine, which writes each connection one
// websocket message holding all its replies and pushes of the batch.
//
//	floorchat -addr 127.0.0.1:8000 -secret s3cret -db postgres://…/floor
package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gorilla/websocket"
	"github.com/jackc/pgx/v5/pgxpool"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8000", "address to listen on")
	secret := flag.String("secret", "", "HMAC secret of the HS256 connect tokens")
	dsn := flag.String("db", "", "PostgreSQL URL of the floor's database")
	flag.Parse()
	if *secret == "" || *dsn == "" {
		log.Fatal("floorchat: -secret and -db are required")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("floorchat: %v", err)
	}
	if err := serve(ctx, ln, *secret, *dsn); err != nil {
		log.Fatalf("floorchat: %v", err)
	}
}

const (
	schema = `CREATE TABLE IF NOT EXISTS floor_messages (
	channel text NOT NULL,
	seq bigint NOT NULL,
	data text NOT NULL,
	created_at bigint NOT NULL,
	PRIMARY KEY (channel, seq))`
	// One statement, so one implicit transaction, for a whole batch; pgx
	// prepares it once per pooled connection and reuses it.
	insertBatch = `INSERT INTO floor_messages (channel, seq, data, created_at)
	SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[])`
)

const (
	codeInternal          = 100
	codeUnauthorized      = 101
	codePermissionDenied  = 103
	codeAlreadySubscribed = 105
	codeBadRequest        = 107
	writeTimeout          = 10 * time.Second
	maxChannelLen         = 255
)

// serve runs the floor on ln with the database at dsn until ctx ends,
// then shuts down: it returns nil after a clean shutdown.
func serve(ctx context.Context, ln net.Listener, secret, dsn string) error {
	defer ln.Close()
	ctx, stop := context.WithCancel(ctx) // also ends the committer when Serve fails
	defer stop()
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		return err
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, schema); err != nil {
		return err
	}
	s := &server{
		pool:     pool,
		secret:   []byte(secret),
		wake:     make(chan struct{}, 1),
		batches:  make(chan batch, 16),
		seq:      map[string]int64{},
		subs:     map[string][]*conn{},
		conns:    map[*conn]struct{}{},
		upgrader: websocket.Upgrader{ReadBufferSize: 4096, WriteBufferSize: 4096, WriteBufferPool: &sync.Pool{}, CheckOrigin: func(*http.Request) bool { return true }},
	}
	committed := make(chan struct{})
	sent := make(chan struct{})
	go func() { defer close(committed); s.commit(ctx) }()
	go func() { defer close(sent); s.send() }()

	mux := http.NewServeMux()
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("{}"))
	})
	mux.HandleFunc("GET /connection/websocket", s.handleWS)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	log.Printf("floorchat: serving on %s", ln.Addr())

	var failed error
	select {
	case err := <-served:
		failed = err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = hs.Shutdown(sctx)
	// Shutdown leaves hijacked connections alone: close the websockets,
	// and wait for their readers, so nothing enqueues after this.
	s.mu.Lock()
	s.closing = true
	for c := range s.conns {
		c.close(websocket.CloseGoingAway)
	}
	s.mu.Unlock()
	s.readers.Wait()
	stop()
	<-committed // it closes batches, which ends the sender
	<-sent
	return failed
}

type server struct {
	pool     *pgxpool.Pool
	secret   []byte
	upgrader websocket.Upgrader
	clients  atomic.Uint64 // names the connections in connect replies

	// The queue of publishes the committer takes whole; wake says it is
	// not empty.
	qmu    sync.Mutex
	queued []pub
	wake   chan struct{}

	// seq is each channel's last committed offset, the committer's alone.
	// It starts at 0 in memory rather than from the table's max: the
	// harness gives the floor a fresh database at each start, and one
	// process owns the table.
	seq     map[string]int64
	batches chan batch // committed (or failed) batches, in commit order, to the sender

	mu      sync.RWMutex
	subs    map[string][]*conn // channel → its subscribers
	conns   map[*conn]struct{} // every open websocket, for shutdown
	closing bool
	readers sync.WaitGroup
}

// pub is one publish on its way through the committer and the sender.
type pub struct {
	c       *conn
	id      uint64
	channel string
	data    string // the publish's data JSON, byte for byte
	seq     int64
}

type batch struct {
	pubs   []pub
	failed bool // nothing of it was committed
}

type conn struct {
	ws *websocket.Conn

	// The reader goroutine's alone.
	user     string
	channels map[string]struct{}
	rbuf     bytes.Buffer
	reply    []byte // replies to one incoming message, written as one

	out []byte // the sender's alone: this connection's lines of a batch

	wmu  sync.Mutex
	dead bool // under wmu: closed, write nothing more
}

// write sends frame as one websocket message; a connection that cannot
// take it within writeTimeout is closed, and its reader then drops it
// from its subscriptions.
func (c *conn) write(frame []byte) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.dead {
		return
	}
	_ = c.ws.SetWriteDeadline(time.Now().Add(writeTimeout))
	if err := c.ws.WriteMessage(websocket.TextMessage, frame); err != nil {
		c.dead = true
		c.ws.Close()
	}
}

func (c *conn) close(code int) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if !c.dead {
		_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, ""), time.Now().Add(time.Second))
		c.dead = true
	}
	c.ws.Close()
}

func (s *server) handleWS(w http.ResponseWriter, r *http.Request) {
	ws, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // Upgrade has answered the request
	}
	ws.SetReadLimit(1 << 20)
	c := &conn{ws: ws, channels: map[string]struct{}{}}
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		ws.Close()
		return
	}
	s.conns[c] = struct{}{}
	s.readers.Add(1)
	s.mu.Unlock()
	defer s.readers.Done()
	s.read(c)
	s.mu.Lock()
	for ch := range c.channels {
		subs := s.subs[ch]
		for i, o := range subs {
			if o == c {
				subs[i] = subs[len(subs)-1]
				subs[len(subs)-1] = nil
				subs = subs[:len(subs)-1]
				break
			}
		}
		if len(subs) == 0 {
			delete(s.subs, ch)
		} else {
			s.subs[ch] = subs
		}
	}
	delete(s.conns, c)
	s.mu.Unlock()
	c.close(websocket.CloseNormalClosure)
}

// read handles c's messages, line by line, until the socket ends.
func (s *server) read(c *conn) {
	for {
		_, r, err := c.ws.NextReader()
		if err != nil {
			return
		}
		c.rbuf.Reset()
		if _, err := c.rbuf.ReadFrom(r); err != nil {
			return
		}
		b := c.rbuf.Bytes()
		for len(b) > 0 {
			line := b
			if i := bytes.IndexByte(b, '\n'); i >= 0 {
				line, b = b[:i], b[i+1:]
			} else {
				b = nil
			}
			s.handleLine(c, line)
		}
		if len(c.reply) > 0 {
			c.write(c.reply)
			c.reply = c.reply[:0]
		}
	}
}

// command is one client command; exactly one of its methods is set.
type command struct {
	ID      uint64 `json:"id"`
	Connect *struct {
		Token string `json:"token"`
	} `json:"connect"`
	Subscribe *struct {
		Channel string `json:"channel"`
	} `json:"subscribe"`
	Publish *struct {
		Channel string    `json:"channel"`
		Data    rawString `json:"data"`
	} `json:"publish"`
}

// rawString keeps a JSON value's bytes as they came, like
// json.RawMessage, but as the string the insert and the pushes need, in
// one allocation. encoding/json has validated them.
type rawString string

func (r *rawString) UnmarshalJSON(b []byte) error {
	*r = rawString(b)
	return nil
}

func (s *server) handleLine(c *conn, line []byte) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || string(line) == "{}" { // a pong
		return
	}
	var cmd command
	if err := json.Unmarshal(line, &cmd); err != nil {
		c.replyError(cmd.ID, codeBadRequest, "bad request")
		return
	}
	methods := 0
	for _, set := range []bool{cmd.Connect != nil, cmd.Subscribe != nil, cmd.Publish != nil} {
		if set {
			methods++
		}
	}
	switch {
	case methods == 0 && cmd.ID == 0:
		return // an empty command is a pong too
	case methods != 1 || cmd.ID == 0:
		c.replyError(cmd.ID, codeBadRequest, "bad request")
	case cmd.Connect != nil:
		if c.user != "" {
			c.replyError(cmd.ID, codeBadRequest, "already connected")
			return
		}
		user, ok := verifyToken(s.secret, cmd.Connect.Token, time.Now())
		if !ok {
			c.replyError(cmd.ID, codeUnauthorized, "unauthorized")
			return
		}
		c.user = user
		c.reply = c.startReply(cmd.ID)
		c.reply = append(c.reply, `,"connect":{"client":"`...)
		c.reply = strconv.AppendUint(c.reply, s.clients.Add(1), 10)
		c.reply = append(c.reply, `","version":"floor"}}`...)
	case c.user == "":
		c.replyError(cmd.ID, codeUnauthorized, "unauthorized")
	case cmd.Subscribe != nil:
		ch := cmd.Subscribe.Channel
		if !validChannel(ch) {
			c.replyError(cmd.ID, codeBadRequest, "bad request")
			return
		}
		if _, ok := c.channels[ch]; ok {
			c.replyError(cmd.ID, codeAlreadySubscribed, "already subscribed")
			return
		}
		c.channels[ch] = struct{}{}
		s.mu.Lock()
		s.subs[ch] = append(s.subs[ch], c)
		s.mu.Unlock()
		c.reply = append(c.startReply(cmd.ID), `,"subscribe":{}}`...)
	default:
		p := cmd.Publish
		if !validChannel(p.Channel) || p.Data == "" || p.Data == "null" {
			c.replyError(cmd.ID, codeBadRequest, "bad request")
			return
		}
		if _, ok := c.channels[p.Channel]; !ok {
			c.replyError(cmd.ID, codePermissionDenied, "permission denied")
			return
		}
		s.enqueue(pub{c: c, id: cmd.ID, channel: p.Channel, data: string(p.Data)})
	}
}

// validChannel admits printable ASCII other than a quote or a backslash,
// so that a channel goes into a reply or a push as it is, unescaped.
func validChannel(ch string) bool {
	if ch == "" || len(ch) > maxChannelLen {
		return false
	}
	for i := 0; i < len(ch); i++ {
		if b := ch[i]; b < 0x20 || b > 0x7e || b == '"' || b == '\\' {
			return false
		}
	}
	return true
}

// startReply starts c's next reply line to command id.
func (c *conn) startReply(id uint64) []byte {
	b := c.reply
	if len(b) > 0 {
		b = append(b, '\n')
	}
	b = append(b, `{"id":`...)
	return strconv.AppendUint(b, id, 10)
}

func (c *conn) replyError(id uint64, code int, msg string) {
	c.reply = appendError(c.startReply(id), code, msg)
}

func appendError(b []byte, code int, msg string) []byte {
	b = append(b, `,"error":{"code":`...)
	b = strconv.AppendInt(b, int64(code), 10)
	b = append(b, `,"message":"`...)
	b = append(b, msg...)
	return append(b, `"}}`...)
}

// verifyToken checks an HS256 JWT signed with secret and unexpired at
// now, and returns its subject.
func verifyToken(secret []byte, token string, now time.Time) (string, bool) {
	head, rest, ok := strings.Cut(token, ".")
	if !ok {
		return "", false
	}
	body, sig, ok := strings.Cut(rest, ".")
	if !ok {
		return "", false
	}
	enc := base64.RawURLEncoding
	var h struct {
		Alg string `json:"alg"`
	}
	hb, err := enc.DecodeString(head)
	if err != nil || json.Unmarshal(hb, &h) != nil || h.Alg != "HS256" {
		return "", false
	}
	got, err := enc.DecodeString(sig)
	if err != nil {
		return "", false
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(token[:len(head)+1+len(body)]))
	if !hmac.Equal(got, mac.Sum(nil)) {
		return "", false
	}
	var claims struct {
		Sub string   `json:"sub"`
		Exp *float64 `json:"exp"`
	}
	cb, err := enc.DecodeString(body)
	if err != nil || json.Unmarshal(cb, &claims) != nil {
		return "", false
	}
	if claims.Sub == "" || claims.Exp == nil || *claims.Exp <= float64(now.UnixMilli())/1e3 {
		return "", false
	}
	return claims.Sub, true
}

func (s *server) enqueue(p pub) {
	s.qmu.Lock()
	s.queued = append(s.queued, p)
	s.qmu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default: // the committer is already woken
	}
}

// commit commits batches until ctx ends, then closes batches. Each batch
// is whatever queued while the previous one was being committed.
func (s *server) commit(ctx context.Context) {
	defer close(s.batches)
	var (
		channels, data []string
		seqs, ats      []int64
	)
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		}
		s.qmu.Lock()
		pubs := s.queued
		s.queued = nil
		s.qmu.Unlock()
		if len(pubs) == 0 {
			continue
		}
		now := time.Now().UnixMicro()
		channels, data, seqs, ats = channels[:0], data[:0], seqs[:0], ats[:0]
		for i := range pubs {
			p := &pubs[i]
			p.seq = s.seq[p.channel] + 1
			s.seq[p.channel] = p.seq
			channels = append(channels, p.channel)
			seqs = append(seqs, p.seq)
			data = append(data, p.data)
			ats = append(ats, now)
		}
		_, err := s.pool.Exec(ctx, insertBatch, channels, seqs, data, ats)
		if err != nil {
			// Nothing of the batch is in the table, so its offsets are
			// free again.
			for i := range pubs {
				s.seq[pubs[i].channel]--
			}
			if !errors.Is(err, context.Canceled) {
				log.Printf("floorchat: commit of %d publishes failed: %v", len(pubs), err)
			}
		}
		s.batches <- batch{pubs: pubs, failed: err != nil}
	}
}

// send answers each batch's publishers and pushes its messages to the
// channels' other subscribers, one websocket message per connection.
func (s *server) send() {
	var touched []*conn
	for b := range s.batches {
		s.mu.RLock()
		for i := range b.pubs {
			p := &b.pubs[i]
			touched = p.c.startLine(touched)
			p.c.out = append(p.c.out, `{"id":`...)
			p.c.out = strconv.AppendUint(p.c.out, p.id, 10)
			if b.failed {
				p.c.out = appendError(p.c.out, codeInternal, "internal server error")
				continue
			}
			p.c.out = append(p.c.out, `,"publish":{}}`...)
			for _, o := range s.subs[p.channel] {
				if o == p.c {
					continue
				}
				touched = o.startLine(touched)
				o.out = append(o.out, `{"push":{"channel":"`...)
				o.out = append(o.out, p.channel...)
				o.out = append(o.out, `","pub":{"data":`...)
				o.out = append(o.out, p.data...)
				o.out = append(o.out, `,"offset":`...)
				o.out = strconv.AppendInt(o.out, p.seq, 10)
				o.out = append(o.out, `}}}`...)
			}
		}
		s.mu.RUnlock()
		for _, c := range touched {
			c.write(c.out)
			if cap(c.out) > 64<<10 {
				c.out = nil // a burst's buffer is not kept for good
			} else {
				c.out = c.out[:0]
			}
		}
		clear(touched)
		touched = touched[:0]
	}
}

// startLine begins c's next line of the batch: the first one adds c to
// the connections to write.
func (c *conn) startLine(touched []*conn) []*conn {
	if len(c.out) == 0 {
		return append(touched, c)
	}
	c.out = append(c.out, '\n')
	return touched
}
