package httpapi

// Customer service: a chat between a visitor — anyone, signed in or not —
// and an agent (an operator account). A visitor is known by a secret
// visitor key (cookie kj_visitor, header X-Visitor-Id, or the socket's
// visitorId parameter) that the server generates; a signed-in user is
// linked to one visitor record on every device. Messages persist and are
// paged over HTTP; the same events flow in real time over /ws/customer
// (customer_ws.go) through the bus, so any node can serve either side.

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"kj/internal/apierr"
	"kj/storage"
)

func init() {
	registerArea(func(s *Server) {
		s.Post("/customer/init", Open, s.customerInit)
		s.Post("/customer/messages", Open, s.customerMessages)
		s.Post("/customer/send", Open, s.customerSend)
		s.Post("/admin/customer/visitors", Operator, s.adminCustomerVisitors)
		s.Post("/admin/customer/messages", Operator, s.adminCustomerMessages)
		s.Post("/admin/customer/reply", Operator, s.adminCustomerReply)
	})
}

const (
	visitorCookie = "kj_visitor"
	visitorHeader = "X-Visitor-Id"
	// An agent's load is the number of visitors active within this window.
	customerLoadWindow = 24 * time.Hour
	// Messages a visitor may send per minute (over HTTP and socket alike).
	customerSendPerMinute = 20
)

// newVisitorKey makes a visitor key: 144 random bits, so keys cannot be
// guessed; only their SHA-256 is stored.
func newVisitorKey() string {
	b := make([]byte, 18)
	rand.Read(b)
	return "v_" + base64.RawURLEncoding.EncodeToString(b)
}

// visitorKeyFrom reads the visitor key of a request: header, cookie, then
// the visitorId query parameter (browsers cannot set socket headers).
func visitorKeyFrom(r *http.Request) string {
	if v := r.Header.Get(visitorHeader); v != "" {
		return v
	}
	if ck, err := r.Cookie(visitorCookie); err == nil && ck.Value != "" {
		return ck.Value
	}
	return r.URL.Query().Get("visitorId")
}

func setVisitorCookie(w http.ResponseWriter, r *http.Request, key string) {
	http.SetCookie(w, &http.Cookie{
		Name: visitorCookie, Value: key, Path: "/", MaxAge: 365 * 24 * 3600, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https",
	})
}

// customerVisitor is the visitor a request speaks for.
type customerVisitor struct {
	storage.Visitor
	Key    string       // the key the client keeps
	Issued bool         // Key was made by this request
	Agent  storage.User // zero while nobody answers
}

// resolveVisitor finds the visitor of key for user (zero when anonymous),
// in one transaction:
//   - a key of an anonymous visitor is that visitor; a signed-in user
//     presenting it takes it over, or has it merged into their own record;
//   - a key of a visitor linked to another user (or to a user who did not
//     sign in now) is ignored: that chat is never shown to this caller;
//   - without a usable key, a signed-in user gets their own record and an
//     anonymous caller a new one, each with a new key.
//
// A visitor nobody answers is assigned the least-loaded agent.
//
// An anonymous caller from address ip starts at most
// KJ_CUSTOMER_NEW_VISITORS_PER_HOUR new visitors an hour: each request
// without a key would otherwise grow the operators' visitor list.
func (s *Server) resolveVisitor(ctx context.Context, key string, user storage.User, ip string) (customerVisitor, error) {
	var out customerVisitor
	attempt := func() error {
		out = customerVisitor{}
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
			if v.AgentID == 0 {
				agent, err := storage.LeastLoadedAgent(ctx, tx, now-customerLoadWindow.Milliseconds())
				switch {
				case err == nil:
					if err := storage.SetVisitorAgent(ctx, tx, v.ID, agent.ID); err != nil {
						return err
					}
					v.AgentID = agent.ID
				case !errors.Is(err, storage.ErrNotFound):
					return err
				}
			}
			if v.AgentID != 0 {
				agent, err := storage.UserByID(ctx, tx, v.AgentID)
				if err != nil && !errors.Is(err, storage.ErrNotFound) {
					return err
				}
				out.Agent = agent
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

func serviceName(u storage.User) string {
	if u.Nickname != "" {
		return u.Nickname
	}
	return u.Account
}

// customerMessageView is a message as both sides see it. status: 1 sent,
// 2 read by the other side.
type customerMessageView struct {
	ID        contentID `json:"_id"`
	VisitorNo contentID `json:"visitorNo"`
	From      string    `json:"from"` // "visitor" or "agent"
	ServiceID contentID `json:"serviceId"`
	Content   string    `json:"content"`
	Status    int       `json:"status"`
	CreatedAt int64     `json:"createdAt"`
}

func newCustomerMessageView(m storage.CustomerMessage) customerMessageView {
	from := "visitor"
	if m.FromAgent == storage.FromAgent {
		from = "agent"
	}
	return customerMessageView{ID: contentID(m.ID), VisitorNo: contentID(m.VisitorID), From: from,
		ServiceID: contentID(m.AgentID), Content: m.Content, Status: m.Status, CreatedAt: m.CreatedAt}
}

// customerEvent is what the bus carries to sockets, and the socket frame
// itself: "message" (a new message), "read" (by marked messages up to
// upto as read), "assigned" (an agent took the visitor).
type customerEvent struct {
	Type        string               `json:"type"`
	VisitorNo   contentID            `json:"visitorNo"`
	Message     *customerMessageView `json:"message,omitempty"`
	By          string               `json:"by,omitempty"`
	Upto        contentID            `json:"upto,omitempty"`
	ServiceID   contentID            `json:"serviceId,omitempty"`
	ServiceName string               `json:"serviceName,omitempty"`
}

// Bus subjects of customer-service events: one per visitor, and the desk
// that every agent socket hears. Agents hear every conversation's events, not
// only their own, because the inbox can show everyone's and must stay live
// there too; the operators are few, so the extra frames are cheap.
func customerVisitorSubject(visitorID int64) string {
	return "kj.customer.visitor." + strconv.FormatInt(visitorID, 10)
}

const customerDeskSubject = "kj.customer.desk"

// customerPublish tells the visitor's and the agents' sockets about ev.
// The store is the truth; a lost event only delays what a refresh shows.
func (s *Server) customerPublish(ctx context.Context, ev customerEvent) {
	b, err := json.Marshal(ev)
	if err != nil {
		return
	}
	for _, subject := range []string{customerVisitorSubject(int64(ev.VisitorNo)), customerDeskSubject} {
		if err := s.Bus.Publish(ctx, subject, b); err != nil {
			s.Log.Warn("customer event publish failed", "subject", subject, "err", err)
		}
	}
}

func checkCustomerContent(content *string) error {
	return contentText("content", content, 1, customerMaxLength)
}

// reserveNewVisitor counts a new anonymous visitor for address ip before it
// is made (increment, then compare).
func (s *Server) reserveNewVisitor(ctx context.Context, ip string) error {
	n, err := s.Counters.Incr(ctx, "cs:new:ip:"+ip, 1, time.Hour)
	if err != nil {
		return err
	}
	if n > int64(s.Config.CustomerNewVisitorsPerHour) {
		return apierr.Fail(apierr.CodeRateLimited, "rate.limited")
	}
	return nil
}

// visitorPost stores a visitor's message and announces it. Anonymous
// visitors also share their address's KJ_CUSTOMER_SENDS_PER_MINUTE, so new
// keys do not buy new allowances.
func (s *Server) visitorPost(ctx context.Context, v customerVisitor, content, ip string) (customerMessageView, error) {
	if err := checkCustomerContent(&content); err != nil {
		return customerMessageView{}, err
	}
	if v.UserID == 0 {
		n, err := s.Counters.Incr(ctx, "cs:send:ip:"+ip, 1, time.Minute)
		if err != nil {
			return customerMessageView{}, err
		}
		if n > int64(s.Config.CustomerSendsPerMinute) {
			return customerMessageView{}, apierr.Fail(apierr.CodeRateLimited, "rate.limited")
		}
	}
	n, err := s.Counters.Incr(ctx, "cs:send:"+strconv.FormatInt(v.ID, 10), 1, time.Minute)
	if err != nil {
		return customerMessageView{}, err
	}
	if n > customerSendPerMinute {
		return customerMessageView{}, apierr.Fail(apierr.CodeRateLimited, "rate.limited")
	}
	m := storage.CustomerMessage{ID: storage.NewID(), VisitorID: v.ID, FromAgent: storage.FromVisitor,
		Content: content, Status: storage.CustomerSent, CreatedAt: s.Clock.Now().UnixMilli()}
	err = s.DB.Tx(ctx, func(tx storage.Tx) error {
		if err := s.shareCustomerFile(ctx, tx, storage.ChatFileReader{UserID: v.UserID}, v.ID, content); err != nil {
			return err
		}
		return storage.AddCustomerMessage(ctx, tx, m)
	})
	if err != nil {
		return customerMessageView{}, err
	}
	view := newCustomerMessageView(m)
	s.customerPublish(ctx, customerEvent{Type: "message", VisitorNo: view.VisitorNo, Message: &view})
	return view, nil
}

// agentReply stores an agent's reply (sent from the client address ip) to
// a visitor, with its audit row, taking the visitor when nobody answers it
// yet.
func (s *Server) agentReply(ctx context.Context, agent storage.User, ip string, visitorID int64, content string) (customerMessageView, error) {
	if visitorID == 0 {
		return customerMessageView{}, apierr.Required("visitorNo")
	}
	if err := checkCustomerContent(&content); err != nil {
		return customerMessageView{}, err
	}
	now := s.Clock.Now().UnixMilli()
	m := storage.CustomerMessage{ID: storage.NewID(), VisitorID: visitorID, FromAgent: storage.FromAgent, AgentID: agent.ID,
		Content: content, Status: storage.CustomerSent, CreatedAt: now}
	var v storage.Visitor
	claimed := false
	err := s.DB.Tx(ctx, func(tx storage.Tx) error {
		var err error
		if v, err = storage.VisitorByID(ctx, tx, visitorID); err != nil {
			return err
		}
		before := visitorAgent{v.AgentID}
		if v.AgentID == 0 {
			if err := storage.SetVisitorAgent(ctx, tx, v.ID, agent.ID); err != nil {
				return err
			}
			v.AgentID, claimed = agent.ID, true
		}
		if err := s.shareCustomerFile(ctx, tx, storage.ChatFileReader{UserID: agent.ID, Agent: true}, v.ID, content); err != nil {
			return err
		}
		if err := storage.AddCustomerMessage(ctx, tx, m); err != nil {
			return err
		}
		// The visitor before and after: its agent (set by a first reply)
		// and the message the reply added.
		return recordAudit(ctx, tx, AuditActor{OperatorID: agent.ID, Address: ip}, "customer.reply", v.ID,
			auditChange{Before: before, After: agentReplied{visitorAgent{v.AgentID}, m.ID}}, now)
	})
	if err != nil {
		return customerMessageView{}, contentStoreErr(err)
	}
	view := newCustomerMessageView(m)
	if claimed {
		s.customerPublish(ctx, customerEvent{Type: "assigned", VisitorNo: view.VisitorNo,
			ServiceID: contentID(agent.ID), ServiceName: serviceName(agent)})
	}
	s.customerPublish(ctx, customerEvent{Type: "message", VisitorNo: view.VisitorNo, Message: &view})
	return view, nil
}

// agentReplied is a visitor after an agent's reply, as the audit log
// shows it.
type agentReplied struct {
	visitorAgent
	MessageID int64 `json:"messageId,string"`
}

// shareCustomerFile lets the visitor and the agents fetch the chat
// attachment a customer-service message consists of (the picture a
// signed-in visitor uploaded), once the sender may read it; a message
// naming someone else's attachment is refused as if it did not exist.
func (s *Server) shareCustomerFile(ctx context.Context, tx storage.Tx, sender storage.ChatFileReader, visitorID int64, content string) error {
	rel, ok := chatFileRel(strings.TrimSpace(content))
	if !ok || strings.ContainsAny(strings.TrimSpace(content), " \t\n") {
		return nil
	}
	f, err := storage.ChatFileByPath(ctx, tx, rel)
	readable := err == nil
	if readable {
		readable, err = storage.ChatFileReadable(ctx, tx, f, sender)
	}
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return err
	}
	if !readable {
		return apierr.ChatError(apierr.CodeChatBadMediaURL, "field", "content")
	}
	return storage.ShareChatFile(ctx, tx, f.ID, "cs_"+strconv.FormatInt(visitorID, 10))
}

// customerMarkRead marks what the other side wrote as read, announces it,
// and updates the statuses in page to match. byAgent says who is reading.
func (s *Server) customerMarkRead(ctx context.Context, v storage.Visitor, byAgent bool, page []customerMessageView) error {
	from, by, other := storage.FromAgent, "visitor", "agent"
	if byAgent {
		from, by, other = storage.FromVisitor, "agent", "visitor"
	}
	upto, err := storage.MarkCustomerRead(ctx, s.DB, v.ID, from)
	if err != nil || upto == 0 {
		return err
	}
	for i := range page {
		if page[i].From == other && page[i].ID <= contentID(upto) {
			page[i].Status = storage.CustomerRead
		}
	}
	s.customerPublish(ctx, customerEvent{Type: "read", VisitorNo: contentID(v.ID), By: by, Upto: contentID(upto)})
	return nil
}

// customerPage loads one page of a visitor's messages, newest first.
func (s *Server) customerPage(ctx context.Context, visitorID int64, p contentPaging) (contentList[customerMessageView], error) {
	return listPage(p, 20, func() (int, error) { return storage.CountCustomerMessages(ctx, s.DB, visitorID) },
		func(limit, offset int) ([]storage.CustomerMessage, error) {
			return storage.CustomerMessages(ctx, s.DB, visitorID, limit, offset)
		}, newCustomerMessageView)
}

// ---- visitor routes ----

// customerVisitorOf resolves the caller's visitor and refreshes its cookie.
func (s *Server) customerVisitorOf(c *Call) (customerVisitor, error) {
	if _, err := contentViewer(c); err != nil {
		return customerVisitor{}, err
	}
	v, err := s.resolveVisitor(c.Ctx, visitorKeyFrom(c.R), c.User, c.ClientIP())
	if err != nil {
		return v, err
	}
	setVisitorCookie(c.W, c.R, v.Key)
	return v, nil
}

type customerInitView struct {
	VisitorID   string    `json:"visitorId"`
	VisitorNo   contentID `json:"visitorNo"`
	UserID      contentID `json:"userId"`
	ServiceID   contentID `json:"serviceId"`
	ServiceName string    `json:"serviceName"`
	Welcome     string    `json:"welcome"`
	Unread      int       `json:"unread"`
}

// customerInitOf is the visitor's chat header, the welcome in lang.
func (s *Server) customerInitOf(ctx context.Context, v customerVisitor, lang string) (customerInitView, error) {
	app, err := s.contentAppSettings(ctx)
	if err != nil {
		return customerInitView{}, err
	}
	unread, err := storage.UnreadCustomerMessages(ctx, s.DB, v.ID, storage.FromAgent)
	return customerInitView{VisitorID: v.Key, VisitorNo: contentID(v.ID), UserID: contentID(v.UserID),
		ServiceID: contentID(v.Agent.ID), ServiceName: serviceName(v.Agent), Welcome: serviceWelcome(app, lang), Unread: unread}, err
}

// serviceWelcome is the operator's customer-service welcome in lang, else
// in the default language.
func serviceWelcome(app storage.AppSettings, lang string) string {
	if w := app.ServiceWelcomeTexts[lang]; w != "" {
		return w
	}
	return app.ServiceWelcome
}

func (s *Server) customerInit(c *Call) (any, error) {
	v, err := s.customerVisitorOf(c)
	if err != nil {
		return nil, err
	}
	return s.customerInitOf(c.Ctx, v, c.Lang)
}

func (s *Server) customerMessages(c *Call) (any, error) {
	var p contentPaging
	if err := c.Decode(&p); err != nil {
		return nil, err
	}
	if err := p.valid(); err != nil {
		return nil, err
	}
	v, err := s.customerVisitorOf(c)
	if err != nil {
		return nil, err
	}
	page, err := s.customerPage(c.Ctx, v.ID, p)
	if err != nil {
		return nil, err
	}
	return page, s.customerMarkRead(c.Ctx, v.Visitor, false, page.List)
}

func (s *Server) customerSend(c *Call) (any, error) {
	var req struct {
		Content string `json:"content"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if err := checkCustomerContent(&req.Content); err != nil {
		return nil, err
	}
	v, err := s.customerVisitorOf(c)
	if err != nil {
		return nil, err
	}
	return s.visitorPost(c.Ctx, v, req.Content, c.ClientIP())
}

// ---- agent routes ----

type customerVisitorView struct {
	VisitorNo     contentID `json:"visitorNo"`
	UserID        contentID `json:"userId"`
	Account       string    `json:"account"`
	Nickname      string    `json:"nickname"`
	ServiceID     contentID `json:"serviceId"`
	Unread        int       `json:"unread"`
	LastMessage   string    `json:"lastMessage"`
	LastMessageAt int64     `json:"lastMessageAt"`
	CreatedAt     int64     `json:"createdAt"`
}

// adminCustomerVisitors lists the caller's visitors and those nobody
// answers yet (all: every visitor), most recently active first.
func (s *Server) adminCustomerVisitors(c *Call) (any, error) {
	var req struct {
		All bool `json:"all"`
		contentPaging
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	agent := c.User.ID
	if req.All {
		agent = 0
	}
	return listPage(req.contentPaging, 20, func() (int, error) { return storage.CountAgentVisitors(c.Ctx, s.DB, agent) },
		func(limit, offset int) ([]storage.VisitorSummary, error) {
			return storage.AgentVisitors(c.Ctx, s.DB, agent, limit, offset)
		}, func(v storage.VisitorSummary) customerVisitorView {
			return customerVisitorView{contentID(v.ID), contentID(v.UserID), v.Account, v.Nickname, contentID(v.AgentID),
				v.Unread, v.LastContent, v.LastMessageAt, v.CreatedAt}
		})
}

func (s *Server) adminCustomerMessages(c *Call) (any, error) {
	var req struct {
		VisitorNo contentID `json:"visitorNo"`
		contentPaging
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.VisitorNo == 0 {
		return nil, apierr.Required("visitorNo")
	}
	v, err := storage.VisitorByID(c.Ctx, s.DB, int64(req.VisitorNo))
	if err != nil {
		return nil, contentStoreErr(err)
	}
	page, err := s.customerPage(c.Ctx, v.ID, req.contentPaging)
	if err != nil {
		return nil, err
	}
	return page, s.customerMarkRead(c.Ctx, v, true, page.List)
}

func (s *Server) adminCustomerReply(c *Call) (any, error) {
	var req struct {
		VisitorNo contentID `json:"visitorNo"`
		Content   string    `json:"content"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	return s.agentReply(c.Ctx, c.User, c.ClientIP(), int64(req.VisitorNo), req.Content)
}
