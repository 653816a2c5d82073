// Package push owns Web Push: notifications of chat messages to the
// devices of users who have the app closed. It keeps the node's VAPID key
// pair (made on the first start, kept in the store), the subscriptions
// (one per device, a device being a sign-in session), and a sender that
// takes the messages the chat engine commits, decides who gets a push and
// sends it through github.com/SherClockHolmes/webpush-go (RFC 8030
// delivery, RFC 8291 aes128gcm payload encryption, RFC 8292 VAPID).
//
// The chat engine only offers (Sender.Offer): a non-blocking put on a
// bounded queue, so a send never waits for a decision, a store query or a
// push service. A fixed set of workers takes the queue. In a cluster the
// node that commits a message decides for its recipients (one node per
// message, so no push goes twice); presence (Redis) tells it whether a
// recipient has a socket on any node.
package push

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"

	"kj/auth"
	"kj/internal/apierr"
	"kj/internal/bus"
	"kj/internal/clock"
	"kj/internal/presence"
	"kj/storage"
)

// Config tunes the sender; zero values take the documented defaults.
type Config struct {
	// Subject is the VAPID contact, a mailto: or https: URL
	// (KJ_PUSH_SUBJECT); push services write to it about a misbehaving
	// sender. Default mailto:push@kj.invalid.
	Subject string
	// TTL is how long a push service keeps a push for a device that is
	// offline (KJ_PUSH_TTL), 24 h; a later push of the same conversation
	// replaces it (Topic).
	TTL time.Duration
	// Queue bounds the offered notices waiting for a worker, 4096; when it
	// is full an offer is dropped (counted), never waited for.
	Queue int
	// Workers is how many goroutines decide and send, 4.
	Workers int
	// Client sends to the push services; default one with a 10 s timeout.
	Client *http.Client
}

func (c *Config) defaults() {
	if c.Subject == "" {
		c.Subject = "mailto:push@kj.invalid"
	}
	if c.TTL <= 0 {
		c.TTL = 24 * time.Hour
	}
	if c.Queue <= 0 {
		c.Queue = 4096
	}
	if c.Workers <= 0 {
		c.Workers = 4
	}
	if c.Client == nil {
		c.Client = &http.Client{Timeout: 10 * time.Second}
	}
}

// Deps are the node services the sender works with.
type Deps struct {
	DB       storage.DB
	Presence presence.Presence // who has a socket open, on any node
	Bus      bus.Bus           // carries new subscribers (Announce) to every node's sender
	Clock    clock.Clock
	Log      *slog.Logger
}

// Notice is what the chat engine offers for one delivery of committed
// messages: the conversation, its recipients and the newest message a
// person wrote (only that one is shown: one notification per
// conversation).
type Notice struct {
	ConversationID string
	Group          bool
	// Recipients are the conversation's members; shared with the engine,
	// so only read.
	Recipients []int64
	SenderID   int64
	SenderName string
	// Kind is the message's content type (101 text, 102 picture ...);
	// Text its text, for the kinds that have one.
	Kind int
	Text string
	// Seq is the message's seq in its conversation: the worker keeps the
	// newest of a conversation's notifications, since a push service does
	// not promise to deliver in order.
	Seq int64
}

// Content types of the OpenIM protocol the notification names in words.
const (
	kindText    = 101
	kindPicture = 102
	kindVoice   = 103
	kindVideo   = 104
	kindFile    = 105
	kindAtText  = 106
	kindQuote   = 114
)

// Payload is the JSON the service worker receives (webapp/public/sw.js).
type Payload struct {
	ConversationID string `json:"conversationID"`
	Title          string `json:"title"`
	Body           string `json:"body"`
	URL            string `json:"url"` // the conversation's page, opened on a tap
	Seq            int64  `json:"seq"` // the message's seq: an older push never replaces a newer one
}

// subscribedSubject carries a user id that got a subscription on some node.
const subscribedSubject = "kj.webpush.subscribed"

// Sender decides and sends the pushes of one node.
type Sender struct {
	cfg  Config
	deps Deps
	log  *slog.Logger

	public, private string // the VAPID key pair, base64url

	queue chan Notice
	quit  chan struct{} // Close: the workers stop (the queue is never closed, so a late Offer cannot panic)
	wg    sync.WaitGroup
	once  sync.Once
	subs  []bus.Subscription

	// subscribers are the users that may have a subscription: every
	// notice's recipients are checked against it before any store query,
	// so the messages of users who never subscribed cost a map lookup. It
	// may hold users whose last subscription is gone; a query that finds
	// none for a user drops it.
	mu          sync.Mutex
	subscribers map[int64]struct{}
}

// Start loads (or makes, on the very first start) the VAPID key pair and
// the subscribers, and starts the workers.
func Start(ctx context.Context, d Deps, cfg Config) (*Sender, error) {
	cfg.defaults()
	if d.Log == nil {
		d.Log = slog.Default()
	}
	if d.Clock == nil {
		d.Clock = clock.Real{}
	}
	s := &Sender{cfg: cfg, deps: d, log: d.Log.With("area", "push"), queue: make(chan Notice, cfg.Queue),
		quit: make(chan struct{})}
	var err error
	if s.public, s.private, err = Keys(ctx, d.DB, d.Clock); err != nil {
		return nil, fmt.Errorf("push: VAPID keys: %w", err)
	}
	if err := s.reload(ctx); err != nil {
		return nil, fmt.Errorf("push: subscribers: %w", err)
	}
	for subject, h := range map[string]bus.Handler{subscribedSubject: s.onSubscribed, auth.SessionEndedSubject: s.onSessionEnded} {
		sub, err := d.Bus.Subscribe(subject, h)
		if err != nil {
			s.unsubscribe()
			return nil, fmt.Errorf("push: %w", err)
		}
		s.subs = append(s.subs, sub)
	}
	// Announcements missed while the bus was away are read from the store.
	bus.OnResume(d.Bus, func() {
		rctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.reload(rctx); err != nil {
			s.log.Warn("reload subscribers", "err", err)
		}
	})
	for range cfg.Workers {
		s.wg.Add(1)
		go s.work()
	}
	return s, nil
}

// Keys answers the VAPID key pair kept in the store, making and storing
// one when there is none yet.
func Keys(ctx context.Context, db storage.Querier, c clock.Clock) (public, private string, err error) {
	candPrivate, candPublic, err := webpush.GenerateVAPIDKeys()
	if err != nil {
		return "", "", err
	}
	return storage.PushVAPID(ctx, db, candPublic, candPrivate, c.Now().UnixMilli())
}

// PublicKey is the VAPID public key (base64url of the uncompressed point),
// the applicationServerKey a browser subscribes with.
func (s *Sender) PublicKey() string { return s.public }

func (s *Sender) reload(ctx context.Context) error {
	rows, err := s.deps.DB.Query(ctx, `SELECT DISTINCT user_id FROM push_subscriptions`)
	ids, err := storage.CollectRows(rows, err, func(r storage.Rows) (int64, error) {
		var id int64
		return id, r.Scan(&id)
	})
	if err != nil {
		return err
	}
	set := make(map[int64]struct{}, len(ids))
	for _, id := range ids {
		set[id] = struct{}{}
	}
	s.mu.Lock()
	s.subscribers = set
	s.mu.Unlock()
	return nil
}

// Announce tells every node's sender that userID has a subscription now
// (the API stores it, on any node).
func Announce(ctx context.Context, b bus.Bus, userID int64) error {
	return b.Publish(ctx, subscribedSubject, []byte(storage.FormatID(userID)))
}

func (s *Sender) onSubscribed(_ string, data []byte) {
	if id, err := strconv.ParseInt(string(data), 10, 64); err == nil {
		s.addSubscriber(id)
	}
}

// onSessionEnded removes the subscription of a device that signed out, was
// replaced or went over the device limit, as soon as it happens (a push
// due to it before the event lands finds the session ended and removes it
// then). Every node hears it; the delete is the same on each.
func (s *Sender) onSessionEnded(_ string, data []byte) {
	var ev auth.SessionEnded
	if err := json.Unmarshal(data, &ev); err != nil || ev.SessionID == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := storage.DeletePushSubscriptionOfSession(ctx, s.deps.DB, ev.UserID, ev.SessionID)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		s.log.Warn("remove the subscription of an ended session", "session", ev.SessionID, "err", err)
	}
}

func (s *Sender) unsubscribe() {
	for _, sub := range s.subs {
		_ = sub.Unsubscribe()
	}
}

// offerCheckedRecipients is the most recipients Offer checks itself.
const offerCheckedRecipients = 8

// anySubscriber reports whether one of ids, the sender excepted, may have
// a subscription.
func (s *Sender) anySubscriber(ids []int64, sender int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		if _, ok := s.subscribers[id]; ok && id != sender {
			return true
		}
	}
	return false
}

func (s *Sender) addSubscriber(id int64) {
	s.mu.Lock()
	s.subscribers[id] = struct{}{}
	s.mu.Unlock()
}

// Offer queues a notice for the workers without waiting: when the queue
// is full the notice is dropped and counted (kj_push_dropped_total). It is
// called on the chat engine's delivery path.
//
// A notice for a few recipients (a 1:1 message) none of whom may have a
// subscription is dropped here, by the check a worker would make first:
// queued, it woke a worker and armed and stopped a 30 s timer per message
// for nothing, and the stopped timers made the runtime sweep the whole
// timer heap (W2 profile at 2,000 msg/s: 3 % of the server's CPU in
// Sender.work, 4 % in timers.adjust). A big group's members are walked by
// a worker, off the delivery path.
func (s *Sender) Offer(n Notice) {
	if len(n.Recipients) <= offerCheckedRecipients && !s.anySubscriber(n.Recipients, n.SenderID) {
		return
	}
	select {
	case s.queue <- n:
	default:
		pushDropped.Inc()
	}
}

// Close stops the workers once each has finished the notice in hand
// (bounded by the client's timeout); notices still queued are dropped, as
// pushes are a courtesy the app's own sync does not depend on.
func (s *Sender) Close() {
	s.once.Do(func() {
		s.unsubscribe()
		close(s.quit)
	})
	s.wg.Wait()
}

func (s *Sender) work() {
	defer s.wg.Done()
	for {
		select {
		case <-s.quit:
			return
		case n := <-s.queue:
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			if err := s.handle(ctx, n); err != nil {
				s.log.Warn("push", "conversation", n.ConversationID, "err", err)
			}
			cancel()
		}
	}
}

// handle decides who of a notice's recipients gets a push and sends it:
// a recipient with a subscription, no socket open anywhere (no push while
// they use the app on another device), neither the conversation nor
// everything set to do not disturb; each of their signed-in devices gets
// one.
func (s *Sender) handle(ctx context.Context, n Notice) error {
	var candidates []int64
	s.mu.Lock()
	if len(s.subscribers) == 0 {
		// Nobody subscribed (a node before anyone turns notifications
		// on, a load test): a big group's members are not walked.
		s.mu.Unlock()
		return nil
	}
	for _, id := range n.Recipients {
		if _, ok := s.subscribers[id]; ok && id != n.SenderID {
			candidates = append(candidates, id)
		}
	}
	s.mu.Unlock()
	offline := candidates[:0]
	for _, id := range candidates {
		on, err := s.deps.Presence.Online(ctx, storage.FormatID(id))
		if err != nil {
			return fmt.Errorf("presence: %w", err)
		}
		if !on {
			offline = append(offline, id)
		}
	}
	if len(offline) == 0 {
		return nil
	}
	targets, err := storage.PushTargets(ctx, s.deps.DB, n.ConversationID, s.deps.Clock.Now().UnixMilli(), offline)
	if err != nil {
		return err
	}
	s.forgetUnsubscribed(offline, targets)
	var gone []int64
	for _, t := range targets {
		switch {
		case !t.SessionActive:
			// The device signed out (or its sign-in ran out): its
			// subscription goes with it.
			gone = append(gone, t.ID)
			pushResults.WithLabelValues("signed_out").Inc()
		case t.RecvOpt != 0 || t.GlobalRecvOpt != 0:
			// Do not disturb, for this conversation or for everything.
			pushResults.WithLabelValues("muted").Inc()
		default:
			switch err := s.send(ctx, t.PushSubscription, n); {
			case errors.Is(err, errGone):
				gone = append(gone, t.ID)
				pushResults.WithLabelValues("gone").Inc()
			case err != nil:
				pushResults.WithLabelValues("failed").Inc()
				s.log.Warn("push send", "user", t.UserID, "subscription", t.ID, "err", err)
			default:
				pushResults.WithLabelValues("sent").Inc()
			}
		}
	}
	if len(gone) > 0 {
		return storage.DeletePushSubscriptions(ctx, s.deps.DB, gone...)
	}
	return nil
}

// forgetUnsubscribed drops from the subscribers the users the store has
// no subscription of any more.
func (s *Sender) forgetUnsubscribed(asked []int64, found []storage.PushTarget) {
	has := make(map[int64]bool, len(found))
	for _, t := range found {
		has[t.UserID] = true
	}
	s.mu.Lock()
	for _, id := range asked {
		if !has[id] {
			delete(s.subscribers, id)
		}
	}
	s.mu.Unlock()
}

// errGone is a push service's answer that the subscription no longer
// exists (404, 410): it is deleted.
var errGone = errors.New("push: subscription gone")

// send encrypts the notification for one device and posts it to its push
// service.
func (s *Sender) send(ctx context.Context, sub storage.PushSubscription, n Notice) error {
	body, err := json.Marshal(payloadFor(sub, n))
	if err != nil {
		return err
	}
	resp, err := webpush.SendNotificationWithContext(ctx, body, &webpush.Subscription{
		Endpoint: sub.Endpoint,
		Keys:     webpush.Keys{P256dh: sub.P256dh, Auth: sub.Auth},
	}, &webpush.Options{
		HTTPClient: s.cfg.Client,
		// webpush-go puts "mailto:" before any subject that is not an
		// https: URL, so a mailto: subject goes without its scheme.
		Subscriber:      strings.TrimPrefix(s.cfg.Subject, "mailto:"),
		Topic:           Topic(n.ConversationID),
		TTL:             int(s.cfg.TTL / time.Second),
		Urgency:         webpush.UrgencyHigh,
		VAPIDPublicKey:  s.public,
		VAPIDPrivateKey: s.private,
		// A small record: the payload is padded to it, and push services
		// cap the body (FCM and Mozilla at 4 KiB).
		RecordSize: 2048,
	})
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
		return errGone
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return fmt.Errorf("push service answered %s", resp.Status)
	}
	return nil
}

// Topic is the RFC 8030 Topic of a conversation's pushes: a push service
// keeps only the newest undelivered push of a topic, so a device that
// comes back gets one notification per conversation. A topic is at most 32
// characters of the base64url alphabet, so it is a digest of the id.
func Topic(conversationID string) string {
	sum := sha256.Sum256([]byte(conversationID))
	return base64.RawURLEncoding.EncodeToString(sum[:24])
}

// ConversationURL is the web app's page of a conversation
// (webapp/src/features/chat/paths.ts).
func ConversationURL(conversationID string) string {
	return "/pages/chat/conversation?conversationID=" + url.QueryEscape(conversationID)
}

// payloadFor is what one device shows: the sender and the text, or with
// the preview off only that a message came.
func payloadFor(sub storage.PushSubscription, n Notice) Payload {
	p := Payload{ConversationID: n.ConversationID, URL: ConversationURL(n.ConversationID), Seq: n.Seq}
	lang := sub.Lang
	if lang == "" {
		lang = apierr.DefaultLang
	}
	if !sub.Preview {
		p.Title = apierr.Translate(lang, "push.hidden.title", nil)
		p.Body = apierr.Translate(lang, "push.hidden.body", nil)
		return p
	}
	p.Title = n.SenderName
	if p.Title == "" {
		p.Title = apierr.Translate(lang, "push.hidden.title", nil)
	}
	p.Body = bodyOf(lang, n)
	return p
}

// maxBody keeps a long text within the push record.
const maxBody = 200

func bodyOf(lang string, n Notice) string {
	switch n.Kind {
	case kindText, kindAtText, kindQuote:
		if n.Text != "" {
			return clip(n.Text, maxBody)
		}
	case kindPicture:
		return apierr.Translate(lang, "push.kind.picture", nil)
	case kindVoice:
		return apierr.Translate(lang, "push.kind.voice", nil)
	case kindVideo:
		return apierr.Translate(lang, "push.kind.video", nil)
	case kindFile:
		return apierr.Translate(lang, "push.kind.file", nil)
	}
	return apierr.Translate(lang, "push.kind.other", nil)
}

// clip cuts s to at most n runes, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

var (
	pushDropped = promauto.NewCounter(prometheus.CounterOpts{
		Name: "kj_push_dropped_total",
		Help: "Message notices dropped because the push queue was full.",
	})
	pushResults = promauto.NewCounterVec(prometheus.CounterOpts{
		Name: "kj_push_notifications_total",
		Help: "Web Push decisions per device: sent, failed, gone (404/410, deleted), signed_out (deleted), muted.",
	}, []string{"result"})
)
