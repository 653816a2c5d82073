// Package customer owns customer service: a chat between a visitor —
// anyone, signed in or not — and an agent (an operator account). It owns
// the visitors (their secret keys, the merge of an anonymous visitor into
// a signed-in user's record), the enquiries (the messages both sides
// write, their read marks, the attachments they share), the agents' queue
// (each visitor's agent, assigned to the least loaded and handed over by
// operators) and the /ws/customer socket (socket.go), where both sides
// hear each other in real time.
//
// An enquiry goes to an agent when the visitor writes: the least loaded of
// the operators signed in to the console and taking chats (desk.go). One
// its agent has not answered within KJ_CUSTOMER_UNCLAIMED_AFTER is shown to
// every agent, and the first to answer takes it. Visitors see an agent's
// display name, never an account name.
//
// A visitor is known by a visitor key (cookie kj_visitor, header
// X-Visitor-Id, or the socket's visitorId parameter) that the server
// generates; a signed-in user is linked to one visitor record on every
// device. Messages persist in the store and are paged over HTTP; the same
// events flow over the bus, so any node can serve either side.
//
// httpapi decodes the customer-service routes, calls a Service method and
// encodes what it returns; errors are the client's own (internal/apierr
// codes). An agent's change is written to the operator action log through
// the Audit that httpapi supplies, inside the change's own transaction.
package customer

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"kj/auth"
	"kj/internal/apierr"
	"kj/internal/bus"
	"kj/internal/clock"
	"kj/internal/config"
	"kj/internal/counter"
	"kj/internal/jsonid"
	"kj/storage"
)

const (
	VisitorCookie = "kj_visitor"   // the cookie keeping a browser's visitor key
	VisitorHeader = "X-Visitor-Id" // the header carrying an app's visitor key
	// An agent's load is the number of visitors active within this window.
	loadWindow = 24 * time.Hour
	// Messages a visitor may send per minute (over HTTP and socket alike).
	SendPerMinute = 20
	// MaxLength is the characters of one customer-service message.
	MaxLength = 2000
)

// Actor is who makes an audited change (an agent), and from which client
// address.
type Actor struct {
	OperatorID int64
	Address    string
}

// Audit writes one row of the operator action log in tx, the change's own
// transaction: action on the visitor, with its state before and after.
type Audit func(ctx context.Context, tx storage.Tx, by Actor, action string, visitorID int64, before, after any, at int64) error

// Service is what the customer-service routes and the socket call. It
// holds no state of its own beyond its dependencies, so any node answers.
type Service struct {
	DB       storage.DB
	Bus      bus.Bus
	Counters counter.Counters // the new-visitor and send rate limits
	Clock    clock.Clock
	// Config gives KJ_CUSTOMER_NEW_VISITORS_PER_HOUR and
	// KJ_CUSTOMER_SENDS_PER_MINUTE; the server's own, read on each use.
	Config   *config.Config
	Sessions *auth.Sessions // re-checks an agent socket's token before each reply
	Log      *slog.Logger
	Audit    Audit
	// AttachmentPath answers the path under the files directory of a chat
	// attachment a message consists of (false: the message is text).
	AttachmentPath func(ref string) (string, bool)
	// AppSettings reads the operator's settings (the welcome texts).
	AppSettings func(ctx context.Context) (storage.AppSettings, error)
}

func (s *Service) log() *slog.Logger {
	if s.Log == nil {
		return slog.Default()
	}
	return s.Log
}

// newVisitorKey makes a visitor key: 144 random bits, so keys cannot be
// guessed; only their SHA-256 is stored.
func newVisitorKey() string {
	b := make([]byte, 18)
	rand.Read(b)
	return "v_" + base64.RawURLEncoding.EncodeToString(b)
}

// VisitorKey reads the visitor key of a request: header, cookie, then
// the visitorId query parameter (browsers cannot set socket headers).
func VisitorKey(r *http.Request) string {
	if v := r.Header.Get(VisitorHeader); v != "" {
		return v
	}
	if ck, err := r.Cookie(VisitorCookie); err == nil && ck.Value != "" {
		return ck.Value
	}
	return r.URL.Query().Get("visitorId")
}

// SetVisitorCookie keeps the visitor's key in the browser for a year.
func SetVisitorCookie(w http.ResponseWriter, r *http.Request, key string) {
	http.SetCookie(w, &http.Cookie{
		Name: VisitorCookie, Value: key, Path: "/", MaxAge: 365 * 24 * 3600, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https",
	})
}

// Visitor is the visitor a request speaks for.
type Visitor struct {
	storage.Visitor
	Key    string       // the key the client keeps
	Issued bool         // Key was made by this request
	Agent  storage.User // zero while nobody answers
	// AgentName is the name the visitor sees for Agent ("": the app's
	// service name).
	AgentName string
}

// ResolveVisitor finds the visitor of key for user (zero when anonymous),
// in one transaction:
//   - a key of an anonymous visitor is that visitor; a signed-in user
//     presenting it takes it over, or has it merged into their own record;
//   - a key of a visitor linked to another user (or to a user who did not
//     sign in now) is ignored: that chat is never shown to this caller;
//   - without a usable key, a signed-in user gets their own record and an
//     anonymous caller a new one, each with a new key.
//
// The visitor is given an agent when they write (VisitorPost), not here.
//
// An anonymous caller from address ip starts at most
// KJ_CUSTOMER_NEW_VISITORS_PER_HOUR new visitors an hour: each request
// without a key would otherwise grow the operators' visitor list.
func (s *Service) ResolveVisitor(ctx context.Context, key string, user storage.User, ip string) (Visitor, error) {
	var out Visitor
	attempt := func() error {
		out = Visitor{}
		return s.DB.Tx(ctx, func(tx storage.Tx) error {
			now := s.Clock.Now().UnixMilli()
			var v storage.Visitor
			found := false
			if key != "" && len(key) <= 100 {
				var err error
				v, err = storage.VisitorByKey(ctx, tx, storage.HashSecret(key))
				switch {
				case err == nil:
					found = v.UserID == 0 || v.UserID == user.ID
				case !errors.Is(err, storage.ErrNotFound):
					return err
				}
			}
			if found && v.UserID == 0 && user.ID != 0 {
				own, err := storage.VisitorByUser(ctx, tx, user.ID)
				switch {
				case err == nil:
					if err := storage.MergeVisitor(ctx, tx, v, own); err != nil {
						return err
					}
					v, err = storage.VisitorByID(ctx, tx, own.ID)
					if err != nil {
						return err
					}
				case errors.Is(err, storage.ErrNotFound):
					if err := storage.LinkVisitorUser(ctx, tx, v.ID, user.ID); err != nil {
						return err
					}
					v.UserID = user.ID
				default:
					return err
				}
			}
			if found {
				out.Key = key
			} else {
				var err error
				if user.ID != 0 {
					v, err = storage.VisitorByUser(ctx, tx, user.ID)
				}
				if user.ID == 0 {
					if err := s.reserveNewVisitor(ctx, ip); err != nil {
						return err
					}
				}
				if user.ID == 0 || errors.Is(err, storage.ErrNotFound) {
					v = storage.Visitor{ID: storage.NewID(), UserID: user.ID, CreatedAt: now}
					err = storage.CreateVisitor(ctx, tx, v)
				}
				if err != nil {
					return err
				}
				out.Key, out.Issued = newVisitorKey(), true
				if err := storage.AddVisitorKey(ctx, tx, storage.HashSecret(out.Key), v.ID, now); err != nil {
					return err
				}
			}
			if v.AgentID != 0 {
				agent, err := storage.UserByID(ctx, tx, v.AgentID)
				if err != nil && !errors.Is(err, storage.ErrNotFound) {
					return err
				}
				out.Agent = agent
				if out.AgentName, err = agentName(ctx, tx, agent.ID); err != nil {
					return err
				}
			}
			out.Visitor = v
			return nil
		})
	}
	err := attempt()
	if errors.Is(err, storage.ErrConflict) {
		// The same user's other device created their record just now.
		err = attempt()
	}
	return out, err
}

// ServiceName is how the console names an agent to operators (nickname,
// else account). Visitors are shown agentName instead.
func ServiceName(u storage.User) string {
	if u.Nickname != "" {
		return u.Nickname
	}
	return u.Account
}

// agentName is the display name agentID set for visitors ("" when none,
// or nobody: the app shows its own service name). An account name is never
// shown to a visitor.
func agentName(ctx context.Context, q storage.Querier, agentID int64) (string, error) {
	if agentID == 0 {
		return "", nil
	}
	d, err := storage.AgentDeskOf(ctx, q, agentID)
	return d.DisplayName, err
}

// MessageView is a message as both sides see it. status: 1 sent, 2 read
// by the other side.
type MessageView struct {
	ID        jsonid.ID `json:"_id"`
	VisitorNo jsonid.ID `json:"visitorNo"`
	From      string    `json:"from"` // "visitor" or "agent"
	ServiceID jsonid.ID `json:"serviceId"`
	Content   string    `json:"content"`
	Status    int       `json:"status"`
	CreatedAt int64     `json:"createdAt"`
	// Context is what the visitor asked about with this message.
	Context *Context `json:"context,omitempty"`
}

// PublicServiceID is the id visitors know the service by: the same for
// every agent and before anyone is assigned, so a player writes to "the
// service", never to an operator's account. The console sees agents' ids.
const PublicServiceID int64 = 1

// forVisitor is m as the visitor sees it: the service's public id instead
// of the agent's.
func (m MessageView) forVisitor() MessageView {
	m.ServiceID = jsonid.ID(PublicServiceID)
	return m
}

func newMessageView(m storage.CustomerMessage) MessageView {
	from := "visitor"
	if m.FromAgent == storage.FromAgent {
		from = "agent"
	}
	return MessageView{ID: jsonid.ID(m.ID), VisitorNo: jsonid.ID(m.VisitorID), From: from,
		ServiceID: jsonid.ID(m.AgentID), Content: m.Content, Status: m.Status, CreatedAt: m.CreatedAt,
		Context: decodeContext(m.Context)}
}

// event is what the bus carries to sockets, and the socket frame itself:
// "message" (a new message), "read" (by marked messages up to upto as
// read), "assigned" (an agent took the visitor).
type event struct {
	Type        string       `json:"type"`
	VisitorNo   jsonid.ID    `json:"visitorNo"`
	Message     *MessageView `json:"message,omitempty"`
	By          string       `json:"by,omitempty"`
	Upto        jsonid.ID    `json:"upto,omitempty"`
	ServiceID   jsonid.ID    `json:"serviceId,omitempty"`
	ServiceName string       `json:"serviceName,omitempty"`
}

// forVisitor is ev as the visitor's sockets hear it: the service's public
// id in place of the agent's.
func (ev event) forVisitor() event {
	if ev.Message != nil {
		m := ev.Message.forVisitor()
		ev.Message = &m
	}
	if ev.ServiceID != 0 {
		ev.ServiceID = jsonid.ID(PublicServiceID)
	}
	return ev
}

// Bus subjects of customer-service events: one per visitor, and the desk
// that every agent socket hears. Agents hear every conversation's events, not
// only their own, because the inbox can show everyone's and must stay live
// there too; the operators are few, so the extra frames are cheap.
func visitorSubject(visitorID int64) string {
	return "kj.customer.visitor." + strconv.FormatInt(visitorID, 10)
}

const deskSubject = "kj.customer.desk"

// publish tells the visitor's and the agents' sockets about ev. The store
// is the truth; a lost event only delays what a refresh shows.
func (s *Service) publish(ctx context.Context, ev event) {
	for _, to := range []struct {
		subject string
		frame   event
	}{{visitorSubject(int64(ev.VisitorNo)), ev.forVisitor()}, {deskSubject, ev}} {
		subject := to.subject
		b, err := json.Marshal(to.frame)
		if err != nil {
			return
		}
		if err := s.Bus.Publish(ctx, subject, b); err != nil {
			s.log().Warn("customer event publish failed", "subject", subject, "err", err)
		}
	}
}

// CheckContent trims a message and checks its length in characters.
func CheckContent(content *string) error {
	*content = strings.TrimSpace(*content)
	n := utf8.RuneCountInString(*content)
	if n == 0 {
		return apierr.Required("content")
	}
	if n > MaxLength || !utf8.ValidString(*content) {
		return apierr.Fail(apierr.CodeInvalid, "content.text.length", "field", "content", "min", 1, "max", MaxLength)
	}
	return nil
}

// storeErr maps storage's not-found onto the client's.
func storeErr(err error) error {
	if errors.Is(err, storage.ErrNotFound) {
		return apierr.NotFound()
	}
	return err
}

// reserveNewVisitor counts a new anonymous visitor for address ip before it
// is made (increment, then compare).
func (s *Service) reserveNewVisitor(ctx context.Context, ip string) error {
	n, err := s.Counters.Incr(ctx, "cs:new:ip:"+ip, 1, time.Hour)
	if err != nil {
		return err
	}
	if n > int64(s.Config.CustomerNewVisitorsPerHour) {
		return apierr.Fail(apierr.CodeRateLimited, "rate.limited")
	}
	return nil
}
