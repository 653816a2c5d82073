package main

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"kj/internal/testenv"

	"github.com/gorilla/websocket"
	"github.com/jackc/pgx/v5"
)

const testSecret = "floor-test-secret"

// token makes an HS256 token as the harness's PeerToken does, with any
// header.
func token(secret, head, sub string, exp time.Time) string {
	enc := base64.RawURLEncoding
	claims, _ := json.Marshal(map[string]any{"sub": sub, "exp": exp.Unix()})
	unsigned := enc.EncodeToString([]byte(head)) + "." + enc.EncodeToString(claims)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(unsigned))
	return unsigned + "." + enc.EncodeToString(mac.Sum(nil))
}

const hs256 = `{"alg":"HS256","typ":"JWT"}`

type floor struct {
	base string    // http://host:port
	db   *pgx.Conn // another connection to the floor's database
}

// startFloor runs the floor on a free port against a scratch database,
// both gone when the test ends.
func startFloor(t *testing.T) *floor {
	t.Helper()
	testenv.Needs(t, "PostgreSQL")
	// The floor gets a database of its own on the tests' server.
	pgAdminDSN := testenv.DatabaseURL()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	admin, err := pgx.Connect(ctx, pgAdminDSN)
	if err != nil {
		t.Fatalf("this test needs PostgreSQL at %s (KJ_TEST_DATABASE_URL): %v", pgAdminDSN, err)
	}
	defer admin.Close(context.Background())
	name := "floorchat_test_" + strings.ToLower(rand.Text()[:10])
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		admin, err := pgx.Connect(ctx, pgAdminDSN)
		if err != nil {
			t.Errorf("dropping %s: %v", name, err)
			return
		}
		defer admin.Close(context.Background())
		if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("dropping %s: %v", name, err)
		}
	})
	u, err := url.Parse(pgAdminDSN)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	dsn := u.String()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- serve(sctx, ln, testSecret, dsn) }()
	t.Cleanup(func() {
		stop()
		select {
		case err := <-served:
			if err != nil {
				t.Errorf("serve: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("the floor did not shut down in 10 s")
		}
	})
	f := &floor{base: "http://" + ln.Addr().String()}

	// /health answers once the table is made.
	hc := &http.Client{Timeout: 5 * time.Second}
	resp, err := hc.Get(f.base + "/health")
	if err != nil {
		t.Fatalf("health: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "{}" {
		t.Fatalf("health: %d %q", resp.StatusCode, body)
	}
	f.db, err = pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.db.Close(context.Background()) })
	return f
}

// client is a test's websocket to the floor, read a line at a time.
type client struct {
	t     *testing.T
	ws    *websocket.Conn
	lines []string
}

func (f *floor) dial(t *testing.T) *client {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(f.base, "http")+"/connection/websocket", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return &client{t: t, ws: ws}
}

// send writes lines as one websocket message.
func (c *client) send(lines ...string) {
	c.t.Helper()
	if err := c.ws.WriteMessage(websocket.TextMessage, []byte(strings.Join(lines, "\n"))); err != nil {
		c.t.Fatal(err)
	}
}

// next is the next line the floor sent, waiting up to 5 s for it.
func (c *client) next() string {
	c.t.Helper()
	for len(c.lines) == 0 {
		_ = c.ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, b, err := c.ws.ReadMessage()
		if err != nil {
			c.t.Fatalf("reading: %v", err)
		}
		c.lines = strings.Split(string(b), "\n")
	}
	line := c.lines[0]
	c.lines = c.lines[1:]
	return line
}

// reply is any line the floor sends, decoded.
type reply struct {
	ID      *uint64 `json:"id"`
	Connect *struct {
		Client  string `json:"client"`
		Version string `json:"version"`
	} `json:"connect"`
	Subscribe *struct{} `json:"subscribe"`
	Publish   *struct{} `json:"publish"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Push *struct {
		Channel string `json:"channel"`
		Pub     struct {
			Data   json.RawMessage `json:"data"`
			Offset int64           `json:"offset"`
		} `json:"pub"`
	} `json:"push"`
}

func (c *client) nextReply() (reply, string) {
	c.t.Helper()
	line := c.next()
	var r reply
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		c.t.Fatalf("floor sent %q: %v", line, err)
	}
	return r, line
}

// expectError reads the next line: an error reply to id with code.
func (c *client) expectError(id uint64, code int) {
	c.t.Helper()
	r, line := c.nextReply()
	if r.ID == nil || *r.ID != id || r.Error == nil || r.Error.Code != code {
		c.t.Fatalf("want error %d to command %d, got %s", code, id, line)
	}
}

// expectOK reads the next line: a successful reply to id.
func (c *client) expectOK(id uint64, method string) reply {
	c.t.Helper()
	r, line := c.nextReply()
	ok := r.ID != nil && *r.ID == id && r.Error == nil
	switch method {
	case "connect":
		ok = ok && r.Connect != nil && r.Connect.Client != "" && r.Connect.Version == "floor"
	case "subscribe":
		ok = ok && r.Subscribe != nil
	case "publish":
		ok = ok && r.Publish != nil
	}
	if !ok {
		c.t.Fatalf("want a %s reply to command %d, got %s", method, id, line)
	}
	return r
}

// expectPush reads the next line: a push of data at offset in channel.
func (c *client) expectPush(channel string, offset int64, data string) {
	c.t.Helper()
	r, line := c.nextReply()
	if r.Push == nil || r.Push.Channel != channel || r.Push.Pub.Offset != offset || string(r.Push.Pub.Data) != data {
		c.t.Fatalf("want push %s offset %d data %s, got %s", channel, offset, data, line)
	}
}

// connect connects as user and subscribes to channel.
func (c *client) connect(user, channel string) {
	c.t.Helper()
	c.send(fmt.Sprintf(`{"id":1,"connect":{"token":%q,"name":"kjload"}}`, token(testSecret, hs256, user, time.Now().Add(time.Hour))))
	c.expectOK(1, "connect")
	c.send(fmt.Sprintf(`{"id":2,"subscribe":{"channel":%q}}`, channel))
	c.expectOK(2, "subscribe")
}

func publish(id uint64, channel, data string) string {
	return fmt.Sprintf(`{"id":%d,"publish":{"channel":%q,"data":%s}}`, id, channel, data)
}

// committed says whether data's row in channel is visible to another
// connection, at which offset.
func (f *floor) committed(t *testing.T, channel, data string) (int64, bool) {
	t.Helper()
	var seq int64
	err := f.db.QueryRow(context.Background(), "SELECT seq FROM floor_messages WHERE channel = $1 AND data = $2", channel, data).Scan(&seq)
	if err == pgx.ErrNoRows {
		return 0, false
	}
	if err != nil {
		t.Fatal(err)
	}
	return seq, true
}

func TestRefusals(t *testing.T) {
	f := startFloor(t)
	c := f.dial(t)
	hour := time.Now().Add(time.Hour)
	good := token(testSecret, hs256, "u1", hour)
	parts := strings.Split(good, ".")
	otherClaims := base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf(`{"sub":"u2","exp":%d}`, hour.Unix())))
	c.send(
		`{"id":1,"subscribe":{"channel":"pair:1"}}`,
		publish(2, "pair:1", `{"t":"x"}`),
		fmt.Sprintf(`{"id":3,"connect":{"token":%q}}`, token("wrong", hs256, "u1", hour)),
		fmt.Sprintf(`{"id":4,"connect":{"token":%q}}`, token(testSecret, hs256, "u1", time.Now().Add(-time.Second))),
		fmt.Sprintf(`{"id":5,"connect":{"token":%q}}`, token(testSecret, `{"alg":"HS512","typ":"JWT"}`, "u1", hour)),
		fmt.Sprintf(`{"id":6,"connect":{"token":%q}}`, parts[0]+"."+otherClaims+"."+parts[2]),
		`{"id":7,"connect":{"token":"not.a.jwt"}}`,
	)
	c.expectError(1, codeUnauthorized)
	c.expectError(2, codeUnauthorized)
	for id := uint64(3); id <= 7; id++ {
		c.expectError(id, codeUnauthorized)
	}
	c.send(`{}`, fmt.Sprintf(`{"id":8,"connect":{"token":%q,"name":"kjload"}}`, good))
	c.expectOK(8, "connect")
	c.send(
		`{"id":9,"subscribe":{"channel":"pair:1"}}`,
		publish(10, "pair:9", `{"t":"x"}`),
		`{"id":11,"publish":{"channel":"pair:1"}}`,
		`{"id":12,"publish":{"channel":"pair:1","data":null}}`,
		`{"id":13,"subscribe":{"channel":""}}`,
		`{"id":14,"subscribe":{"channel":"a\"b"}}`,
		`{"id":15,"publish":{"channel":5,"data":{}}}`,
		`not json`,
		`{"id":16}`,
		`{"id":17,"subscribe":{"channel":"pair:1"}}`,
	)
	c.expectOK(9, "subscribe")
	c.expectError(10, codePermissionDenied)
	for id := uint64(11); id <= 15; id++ {
		c.expectError(id, codeBadRequest)
	}
	c.expectError(0, codeBadRequest)
	c.expectError(16, codeBadRequest)
	c.expectError(17, codeAlreadySubscribed)
	if n := countRows(t, f); n != 0 {
		t.Fatalf("%d rows committed by refused publishes", n)
	}
}

func countRows(t *testing.T, f *floor) int {
	var n int
	if err := f.db.QueryRow(context.Background(), "SELECT count(*) FROM floor_messages").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestRelay(t *testing.T) {
	f := startFloor(t)
	a, b := f.dial(t), f.dial(t)
	a.connect("ua", "pair:1")
	b.connect("ub", "pair:1")

	// 50 publishes without waiting: 40 messages of one line, then one of
	// ten lines. The data has spaces and escapes, to be relayed verbatim.
	const n = 50
	data := make([]string, n)
	for i := range data {
		data[i] = fmt.Sprintf(`{"t":"kjl|p1.a|%d|1795247521123456789", "n": [%d, "\u00e9"]}`, i+1, i)
	}
	var last []string
	for i := range data {
		line := publish(uint64(100+i), "pair:1", data[i])
		if i < 40 {
			a.send(line)
		} else {
			last = append(last, line)
		}
	}
	a.send(last...)

	// Each reply arrives once its row is committed.
	answered := map[uint64]bool{}
	for len(answered) < n {
		r, line := a.nextReply()
		if r.Push != nil {
			t.Fatalf("the publisher got its own message back: %s", line)
		}
		if r.ID == nil || r.Publish == nil || *r.ID < 100 || *r.ID >= 100+n || answered[*r.ID] {
			t.Fatalf("want a publish reply to one of 100..149, once each, got %s", line)
		}
		answered[*r.ID] = true
		i := int(*r.ID - 100)
		seq, ok := f.committed(t, "pair:1", data[i])
		if !ok {
			t.Fatalf("publish %d answered before its row was committed", *r.ID)
		}
		if seq != int64(i+1) {
			t.Fatalf("publish %d committed at offset %d, want %d", *r.ID, seq, i+1)
		}
	}
	for i := range data {
		b.expectPush("pair:1", int64(i+1), data[i])
	}

	// B publishes: A's next line is B's message, so A had no push of its
	// own messages; then A publishes, and B's next line is that, so B had
	// no push of its own either.
	bData := `{"t":"kjl|p1.b|1|1795247521123456789"}`
	b.send(publish(3, "pair:1", bData))
	b.expectOK(3, "publish")
	if _, ok := f.committed(t, "pair:1", bData); !ok {
		t.Fatal("B's publish answered before its row was committed")
	}
	a.expectPush("pair:1", n+1, bData)
	aData := `{"t":"kjl|p1.a|51|1795247521123456789"}`
	a.send(publish(200, "pair:1", aData))
	a.expectOK(200, "publish")
	b.expectPush("pair:1", n+2, aData)

	rows, err := f.db.Query(context.Background(), "SELECT seq, data FROM floor_messages WHERE channel = 'pair:1' ORDER BY seq")
	if err != nil {
		t.Fatal(err)
	}
	want := append(append([]string{}, data...), bData, aData)
	var got []string
	for rows.Next() {
		var seq int64
		var d string
		if err := rows.Scan(&seq, &d); err != nil {
			t.Fatal(err)
		}
		if seq != int64(len(got)+1) {
			t.Fatalf("offset %d after %d rows", seq, len(got))
		}
		got = append(got, d)
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("table holds\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A failed commit is refused with code 100 and gives its offsets back.
func TestFailedCommit(t *testing.T) {
	f := startFloor(t)
	a, b := f.dial(t), f.dial(t)
	a.connect("ua", "pair:2")
	b.connect("ub", "pair:2")
	ctx := context.Background()
	if _, err := f.db.Exec(ctx, `INSERT INTO floor_messages VALUES ('pair:2', 1, '{}', 0)`); err != nil {
		t.Fatal(err)
	}
	a.send(publish(3, "pair:2", `{"t":"lost"}`))
	a.expectError(3, codeInternal)
	if _, err := f.db.Exec(ctx, `DELETE FROM floor_messages`); err != nil {
		t.Fatal(err)
	}
	a.send(publish(4, "pair:2", `{"t":"kept"}`))
	a.expectOK(4, "publish")
	b.expectPush("pair:2", 1, `{"t":"kept"}`)
}

func TestVerifyToken(t *testing.T) {
	now := time.Now()
	if sub, ok := verifyToken([]byte("k"), token("k", hs256, "u9", now.Add(time.Minute)), now); !ok || sub != "u9" {
		t.Fatalf("a good token: %q %v", sub, ok)
	}
	for name, tok := range map[string]string{
		"expired":   token("k", hs256, "u9", now),
		"alg none":  token("k", `{"alg":"none"}`, "u9", now.Add(time.Minute)),
		"no sub":    token("k", hs256, "", now.Add(time.Minute)),
		"other key": token("K", hs256, "u9", now.Add(time.Minute)),
		"two parts": "a.b",
		"empty":     "",
	} {
		if _, ok := verifyToken([]byte("k"), tok, now); ok {
			t.Errorf("%s: accepted", name)
		}
	}
}
