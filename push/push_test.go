package push_test

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"kj/auth"
	"kj/internal/apierr"
	"kj/internal/bus"
	"kj/internal/clock"
	"kj/internal/presence"
	"kj/push"
	"kj/storage"
	"kj/storage/storagetest"
)

// device is a browser's side of a subscription: its ECDH key pair and
// auth secret, which only it holds (RFC 8291 section 2).
type device struct {
	name   string
	key    *ecdh.PrivateKey
	secret []byte
}

func newDevice(t *testing.T, name string) *device {
	t.Helper()
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	secret := make([]byte, 16)
	if _, err := rand.Read(secret); err != nil {
		t.Fatal(err)
	}
	return &device{name: name, key: k, secret: secret}
}

// received is one push as the stand-in push service took it in, decrypted.
type received struct {
	device  string
	ttl     string
	topic   string
	urgency string
	payload push.Payload
}

// pushService stands in for a browser vendor's push service (RFC 8030):
// it checks the VAPID authorization (RFC 8292) of every push, decrypts
// the aes128gcm payload (RFC 8291, RFC 8188) with its devices' keys —
// its own implementation, not the sending library's — and answers each
// device's endpoint with the status the test set (201 by default).
type pushService struct {
	t       *testing.T
	srv     *httptest.Server
	vapid   string // the VAPID public key every push must carry
	subject string // the VAPID sub claim every push must carry

	mu      sync.Mutex
	devices map[string]*device
	status  map[string]int
	got     []received
	bad     []string // what failed a check, reported by the test
}

func newPushService(t *testing.T, subject string) *pushService {
	ps := &pushService{t: t, subject: subject, devices: map[string]*device{}, status: map[string]int{}}
	ps.srv = httptest.NewServer(http.HandlerFunc(ps.serve))
	t.Cleanup(ps.srv.Close)
	return ps
}

func (ps *pushService) endpoint(d *device) string { return ps.srv.URL + "/push/" + d.name }

func (ps *pushService) add(d *device) {
	ps.mu.Lock()
	ps.devices[d.name] = d
	ps.mu.Unlock()
}

func (ps *pushService) fail(format string, args ...any) {
	ps.mu.Lock()
	ps.bad = append(ps.bad, fmt.Sprintf(format, args...))
	ps.mu.Unlock()
}

func (ps *pushService) serve(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/push/")
	ps.mu.Lock()
	d, status := ps.devices[name], ps.status[name]
	ps.mu.Unlock()
	if r.Method != http.MethodPost || d == nil {
		ps.fail("%s %s: unknown endpoint", r.Method, r.URL.Path)
		http.NotFound(w, r)
		return
	}
	if err := ps.checkVAPID(r.Header.Get("Authorization")); err != nil {
		ps.fail("%s: VAPID: %v", name, err)
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	if ce := r.Header.Get("Content-Encoding"); ce != "aes128gcm" {
		ps.fail("%s: Content-Encoding %q", name, ce)
	}
	body, _ := io.ReadAll(r.Body)
	plain, err := decrypt(d, body)
	if err != nil {
		ps.fail("%s: decrypt: %v", name, err)
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	var p push.Payload
	if err := json.Unmarshal(plain, &p); err != nil {
		ps.fail("%s: payload %q: %v", name, plain, err)
	}
	ps.mu.Lock()
	ps.got = append(ps.got, received{device: name, ttl: r.Header.Get("TTL"), topic: r.Header.Get("Topic"),
		urgency: r.Header.Get("Urgency"), payload: p})
	ps.mu.Unlock()
	if status == 0 {
		status = http.StatusCreated
	}
	w.WriteHeader(status)
}

// checkVAPID verifies `vapid t=<JWT>, k=<key>`: the key is the server's,
// the JWT is ES256-signed by it, for this push service's origin, not
// expired nor valid for more than 24 hours, with the configured contact.
func (ps *pushService) checkVAPID(h string) error {
	rest, ok := strings.CutPrefix(h, "vapid ")
	if !ok {
		return fmt.Errorf("scheme of %q", h)
	}
	var token, key string
	for _, part := range strings.Split(rest, ",") {
		part = strings.TrimSpace(part)
		if v, ok := strings.CutPrefix(part, "t="); ok {
			token = v
		} else if v, ok := strings.CutPrefix(part, "k="); ok {
			key = v
		}
	}
	ps.mu.Lock()
	want := ps.vapid
	ps.mu.Unlock()
	if key != want {
		return fmt.Errorf("k=%q, want the server's key %q", key, want)
	}
	raw, err := base64.RawURLEncoding.DecodeString(key)
	if err != nil {
		return err
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), raw)
	if err != nil {
		return err
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return fmt.Errorf("JWT has %d parts", len(parts))
	}
	var header struct{ Alg, Typ string }
	if err := decodeJSONPart(parts[0], &header); err != nil || header.Alg != "ES256" {
		return fmt.Errorf("JWT header %+v %v", header, err)
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return fmt.Errorf("ES256 signature of %d bytes (%v)", len(sig), err)
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return errors.New("signature does not verify against k")
	}
	var claims struct {
		Aud string `json:"aud"`
		Exp int64  `json:"exp"`
		Sub string `json:"sub"`
	}
	if err := decodeJSONPart(parts[1], &claims); err != nil {
		return err
	}
	if claims.Aud != ps.srv.URL {
		return fmt.Errorf("aud %q, want %q", claims.Aud, ps.srv.URL)
	}
	now := time.Now().Unix()
	if claims.Exp <= now || claims.Exp > now+24*3600 {
		return fmt.Errorf("exp %d not within the next 24 h of %d", claims.Exp, now)
	}
	if claims.Sub != ps.subject {
		return fmt.Errorf("sub %q, want %q", claims.Sub, ps.subject)
	}
	return nil
}

func decodeJSONPart(part string, v any) error {
	b, err := base64.RawURLEncoding.DecodeString(part)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// decrypt opens an aes128gcm body (RFC 8188) with the keys RFC 8291
// derives: the ECDH secret of the device's key and the sender's one-time
// key (the header's key id), mixed with the device's auth secret.
func decrypt(d *device, body []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, errors.New("short body")
	}
	salt, rs, idLen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if idLen != 65 || len(body) < 21+idLen {
		return nil, fmt.Errorf("key id of %d bytes", idLen)
	}
	asPublicRaw, ciphertext := body[21:21+idLen], body[21+idLen:]
	if rs < 18 || uint32(len(ciphertext)) > rs {
		return nil, fmt.Errorf("record size %d for %d bytes: want one record", rs, len(ciphertext))
	}
	asPublic, err := ecdh.P256().NewPublicKey(asPublicRaw)
	if err != nil {
		return nil, err
	}
	ecdhSecret, err := d.key.ECDH(asPublic)
	if err != nil {
		return nil, err
	}
	prkKey, err := hkdf.Extract(sha256.New, ecdhSecret, d.secret)
	if err != nil {
		return nil, err
	}
	keyInfo := "WebPush: info\x00" + string(d.key.PublicKey().Bytes()) + string(asPublicRaw)
	ikm, err := hkdf.Expand(sha256.New, prkKey, keyInfo, 32)
	if err != nil {
		return nil, err
	}
	prk, err := hkdf.Extract(sha256.New, ikm, salt)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Expand(sha256.New, prk, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, ciphertext, nil)
	if err != nil {
		return nil, err
	}
	// The last (here the only) record ends in the delimiter 2 and zero
	// padding.
	plain = bytes.TrimRight(plain, "\x00")
	if len(plain) == 0 || plain[len(plain)-1] != 2 {
		return nil, errors.New("no last-record delimiter")
	}
	return plain[:len(plain)-1], nil
}

// fixture is a store with users, their sign-ins and subscriptions, and a
// running sender.
type fixture struct {
	t        *testing.T
	db       storage.DB
	ps       *pushService
	presence *presence.Memory
	bus      bus.Bus
	sender   *push.Sender
	sessions map[string]int64 // device name -> its sign-in session
}

const subject = "mailto:ops@kj.test"

func newFixture(t *testing.T, db storage.DB) *fixture {
	f := &fixture{t: t, db: db, ps: newPushService(t, subject), presence: presence.NewMemory(clock.Real{}),
		bus: bus.NewMemory(), sessions: map[string]int64{}}
	t.Cleanup(func() { f.bus.Close() })
	return f
}

// start starts the sender, which reads the subscribers stored so far.
func (f *fixture) start() {
	var err error
	f.sender, err = push.Start(context.Background(), push.Deps{DB: f.db, Presence: f.presence, Bus: f.bus, Clock: clock.Real{}},
		push.Config{Subject: subject, TTL: time.Hour, Workers: 2})
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(f.sender.Close)
	f.ps.mu.Lock()
	f.ps.vapid = f.sender.PublicKey()
	f.ps.mu.Unlock()
}

// subscribe signs user in on a new device and stores its subscription.
func (f *fixture) subscribe(user int64, d *device, preview bool, lang string) {
	f.t.Helper()
	ctx := context.Background()
	f.ps.add(d)
	sid := storage.NewID()
	f.sessions[d.name] = sid
	if _, err := f.db.Exec(ctx, `INSERT INTO auth_sessions (id, user_id, platform, token_hash, jwt_hash, chat_token_hash,
		token_expires_at, jwt_expires_at, state, created_at) VALUES ($1, $2, 5, $3, $4, $5, $6, $6, 0, 1)`,
		sid, user, "t"+d.name, "j"+d.name, "c"+d.name, time.Now().Add(time.Hour).UnixMilli()); err != nil {
		f.t.Fatal(err)
	}
	err := f.db.Tx(ctx, func(tx storage.Tx) error {
		return storage.SavePushSubscription(ctx, tx, storage.PushSubscription{ID: storage.NewID(), UserID: user, SessionID: sid,
			Endpoint: f.ps.endpoint(d), P256dh: base64.RawURLEncoding.EncodeToString(d.key.PublicKey().Bytes()),
			Auth: base64.RawURLEncoding.EncodeToString(d.secret), Preview: preview, Lang: lang, CreatedAt: 1})
	})
	if err != nil {
		f.t.Fatal(err)
	}
	if err := push.Announce(ctx, f.bus, user); err != nil {
		f.t.Fatal(err)
	}
}

// waitFor polls cond until it holds or five seconds pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (ps *pushService) take() []received {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	got := ps.got
	ps.got = nil
	if len(ps.bad) > 0 {
		ps.t.Fatalf("push service checks failed: %v", ps.bad)
	}
	return got
}

func (ps *pushService) count() int {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return len(ps.got)
}

func (f *fixture) subscriptionGone(d *device) bool {
	_, err := storage.PushSubscriptionOfSession(context.Background(), f.db, f.sessions[d.name])
	return errors.Is(err, storage.ErrNotFound)
}

// byDevice indexes pushes by device, failing on a device that got two.
func byDevice(t *testing.T, got []received) map[string]received {
	t.Helper()
	out := map[string]received{}
	for _, r := range got {
		if _, dup := out[r.device]; dup {
			t.Fatalf("device %s got two pushes: %+v", r.device, got)
		}
		out[r.device] = r
	}
	return out
}

func TestPushesReachOfflineDevicesEncryptedAndSigned(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		ctx := context.Background()
		f := newFixture(t, db)
		const conv = "sg_42"
		const alice, bob, carol, dave, erin, frank, grace = 1, 2, 3, 4, 5, 6, 7
		b1, b2 := newDevice(t, "bob-phone"), newDevice(t, "bob-laptop")
		c1, d1, e1, f1, g1 := newDevice(t, "carol"), newDevice(t, "dave"), newDevice(t, "erin"), newDevice(t, "frank"), newDevice(t, "grace")
		f.subscribe(bob, b1, true, "en-US")
		f.subscribe(bob, b2, false, "zh-CN")
		f.subscribe(carol, c1, true, "en-US")
		f.subscribe(dave, d1, true, "en-US")
		f.subscribe(erin, e1, true, "en-US")
		f.subscribe(frank, f1, true, "en-US")
		f.subscribe(grace, g1, true, "en-US")
		// Ivy set do not disturb for everything.
		const ivy = 9
		i1 := newDevice(t, "ivy")
		f.subscribe(ivy, i1, true, "en-US")
		if err := storage.CreateUser(ctx, db, storage.User{ID: ivy, Account: "ivy", PasswordHash: "x", Nickname: "ivy", InviteCode: "pro_ivy", CreatedAt: 1, UpdatedAt: 1}); err != nil {
			t.Fatal(err)
		}
		if err := storage.SetChatGlobalRecvOpt(ctx, db, ivy, 2); err != nil {
			t.Fatal(err)
		}
		a1 := newDevice(t, "alice")
		f.subscribe(alice, a1, true, "en-US") // the sender: never told of her own message

		// Carol set the group to "receive without notification".
		if err := storage.EnsureChatUserConversations(ctx, db, storage.ChatUserConvRow{UserID: carol, ConversationID: conv, GroupID: 42, CreatedAt: 1}); err != nil {
			t.Fatal(err)
		}
		if err := storage.SetChatConversationRecvOpt(ctx, db, carol, conv, 2); err != nil {
			t.Fatal(err)
		}
		// Dave has the app open on another device.
		if err := f.presence.Add(ctx, "4", "socket-1", time.Minute); err != nil {
			t.Fatal(err)
		}
		// Erin signed out on her device.
		if err := storage.EndSession(ctx, db, f.sessions["erin"], storage.SessionSignedOut); err != nil {
			t.Fatal(err)
		}
		f.ps.status["frank"] = http.StatusGone
		f.ps.status["grace"] = http.StatusNotFound
		f.start()

		members := []int64{alice, bob, carol, dave, erin, frank, grace, ivy, 99}
		seq := int64(0)
		offer := func(text string) {
			seq++
			f.sender.Offer(push.Notice{ConversationID: conv, Group: true, Recipients: members, SenderID: alice,
				SenderName: "Alice", Kind: 101, Text: text, Seq: seq})
		}
		offer("hello bob")
		waitFor(t, "the first pushes", func() bool { return f.ps.count() >= 4 })
		waitFor(t, "the gone subscriptions deleted", func() bool {
			return f.subscriptionGone(e1) && f.subscriptionGone(f1) && f.subscriptionGone(g1)
		})
		got := byDevice(t, f.ps.take())
		for _, name := range []string{"alice", "carol", "dave", "erin", "ivy"} {
			if _, ok := got[name]; ok {
				t.Errorf("%s got a push: %+v", name, got[name])
			}
		}
		for _, name := range []string{"bob-phone", "bob-laptop", "frank", "grace"} {
			r, ok := got[name]
			if !ok {
				t.Fatalf("%s got no push (got %v)", name, got)
			}
			if r.ttl != "3600" || r.topic != push.Topic(conv) || r.urgency != "high" {
				t.Errorf("%s: TTL %q Topic %q Urgency %q", name, r.ttl, r.topic, r.urgency)
			}
			if r.payload.ConversationID != conv || r.payload.URL != "/pages/chat/conversation?conversationID=sg_42" || r.payload.Seq != 1 {
				t.Errorf("%s: payload %+v", name, r.payload)
			}
		}
		if p := got["bob-phone"].payload; p.Title != "Alice" || p.Body != "hello bob" {
			t.Errorf("preview payload %+v", p)
		}
		// "Show no preview": neither the text nor who wrote it.
		hidden := got["bob-laptop"].payload
		if hidden.Title != apierr.Translate("zh-CN", "push.hidden.title", nil) ||
			hidden.Body != apierr.Translate("zh-CN", "push.hidden.body", nil) ||
			strings.Contains(hidden.Title+hidden.Body, "hello") || strings.Contains(hidden.Title+hidden.Body, "Alice") {
			t.Errorf("hidden payload %+v", hidden)
		}
		if hidden.Title == "push.hidden.title" {
			t.Errorf("the hidden title is not translated: %+v", hidden)
		}
		if _, err := storage.PushSubscriptionOfSession(ctx, db, f.sessions["bob-phone"]); err != nil {
			t.Fatalf("a delivered subscription was removed: %v", err)
		}

		// Dave closes the app: the next message reaches him; the deleted
		// subscriptions get nothing more.
		if err := f.presence.Remove(ctx, "4", "socket-1"); err != nil {
			t.Fatal(err)
		}
		offer("second")
		waitFor(t, "the second pushes", func() bool { return f.ps.count() >= 3 })
		got = byDevice(t, f.ps.take())
		if len(got) != 3 || got["dave"].payload.Body != "second" || got["bob-phone"].topic != got["dave"].topic {
			t.Fatalf("second pushes: %+v", got)
		}

		// Bob signs out on his laptop: its subscription goes at once.
		sess, err := storage.SessionByID(ctx, db, f.sessions["bob-laptop"])
		if err != nil {
			t.Fatal(err)
		}
		if err := (&auth.Sessions{DB: db, Bus: f.bus, Clock: clock.Real{}}).SignOut(ctx, sess); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "the signed-out device's subscription removed", func() bool { return f.subscriptionGone(b2) })

		// Another conversation collapses under its own topic.
		f.sender.Offer(push.Notice{ConversationID: "si_1_2", Recipients: []int64{alice, bob}, SenderID: alice,
			SenderName: "Alice", Kind: 102})
		waitFor(t, "the 1:1 push", func() bool { return f.ps.count() >= 1 })
		got = byDevice(t, f.ps.take())
		if r := got["bob-phone"]; len(got) != 1 || r.topic != push.Topic("si_1_2") || r.topic == push.Topic(conv) ||
			r.payload.Body != apierr.Translate("en-US", "push.kind.picture", nil) {
			t.Fatalf("1:1 push %+v", r)
		}
		for _, topic := range []string{push.Topic(conv), push.Topic("si_1_2")} {
			if len(topic) > 32 || strings.Trim(topic, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
				t.Fatalf("topic %q is not at most 32 base64url characters", topic)
			}
		}

		// A user who subscribes on a running node (any node: the news
		// travels on the bus) gets the next message.
		h1 := newDevice(t, "hank")
		f.subscribe(8, h1, true, "es-ES")
		waitFor(t, "the new subscriber's push", func() bool {
			f.sender.Offer(push.Notice{ConversationID: "si_1_8", Recipients: []int64{alice, 8}, SenderID: alice,
				SenderName: "Alice", Kind: 101, Text: "hola"})
			return f.ps.count() > 0
		})
		for _, r := range f.ps.take() {
			if r.device != "hank" || r.payload.Body != "hola" {
				t.Fatalf("push for the new subscriber %+v", r)
			}
		}

		// The key pair is made once and kept: a second node signs with it.
		again, err := push.Start(ctx, push.Deps{DB: db, Presence: f.presence, Bus: f.bus}, push.Config{})
		if err != nil {
			t.Fatal(err)
		}
		defer again.Close()
		if again.PublicKey() != f.sender.PublicKey() || len(f.sender.PublicKey()) != 87 {
			t.Fatalf("VAPID key changed: %q then %q", f.sender.PublicKey(), again.PublicKey())
		}
	})
}

// droppedNotices reads kj_push_dropped_total.
func droppedNotices(t *testing.T) float64 {
	t.Helper()
	mfs, err := prometheus.DefaultGatherer.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == "kj_push_dropped_total" {
			return mf.GetMetric()[0].GetCounter().GetValue()
		}
	}
	t.Fatal("kj_push_dropped_total not registered")
	return 0
}

// startQueueOfOne starts a sender with a queue of one and one worker, so
// that offers beyond what the worker keeps up with are dropped.
func startQueueOfOne(t *testing.T) *push.Sender {
	t.Helper()
	b := bus.NewMemory()
	t.Cleanup(func() { b.Close() })
	s, err := push.Start(context.Background(), push.Deps{DB: storagetest.SQLite(t), Presence: presence.NewMemory(clock.Real{}), Bus: b},
		push.Config{Queue: 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// A 1:1 notice none of whose recipients subscribed never reaches the
// queue: with a queue of one and a worker that cannot keep up, thousands of
// them drop none, while a group's notices (walked by the workers) fill it.
func TestOfferSkipsUnsubscribedPairs(t *testing.T) {
	s := startQueueOfOne(t)
	before := droppedNotices(t)
	for range 10000 {
		s.Offer(push.Notice{ConversationID: "si_1_2", Recipients: []int64{1, 2}, SenderID: 1})
	}
	if got := droppedNotices(t) - before; got != 0 {
		t.Fatalf("%v 1:1 notices without a subscriber were queued and dropped", got)
	}
	members := make([]int64, 100)
	for i := range members {
		members[i] = int64(i + 1)
	}
	for range 10000 {
		s.Offer(push.Notice{ConversationID: "sg_1", Group: true, Recipients: members, SenderID: 1})
	}
	if droppedNotices(t) == before {
		t.Fatal("10,000 group notices fit a queue of one")
	}
}

// A full queue drops offers instead of making the chat engine wait.
func TestOfferNeverBlocks(t *testing.T) {
	s := startQueueOfOne(t)
	members := make([]int64, 100)
	for i := range members {
		members[i] = int64(i + 1)
	}
	done := make(chan struct{})
	go func() {
		for range 10000 {
			// A group's notice: a 1:1 one without subscribers never queues.
			s.Offer(push.Notice{ConversationID: "sg_1", Group: true, Recipients: members, SenderID: 1})
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Offer blocked")
	}
}

// BenchmarkOffer is what the chat engine's delivery path pays per
// delivery of committed messages: one non-blocking queue put.
func BenchmarkOffer(b *testing.B) {
	db := storagetest.SQLite(b)
	bs := bus.NewMemory()
	defer bs.Close()
	s, err := push.Start(context.Background(), push.Deps{DB: db, Presence: presence.NewMemory(clock.Real{}), Bus: bs}, push.Config{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	members := make([]int64, 2000)
	for i := range members {
		members[i] = int64(i + 1)
	}
	b.ReportAllocs()
	for b.Loop() {
		s.Offer(push.Notice{ConversationID: "sg_1", Group: true, Recipients: members, SenderID: 1, SenderName: "a", Kind: 101, Text: "hi"})
	}
}
