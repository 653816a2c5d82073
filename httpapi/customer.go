package httpapi

// Customer service's routes (the rules, the visitors and the /ws/customer
// socket are kj/customer's): each decodes, calls the customer.Service and
// encodes. customerGate lends the socket this API's sign-in, addresses and
// errors.

import (
	"context"
	"net/http"

	"kj/customer"
	"kj/internal/apierr"
	"kj/storage"
)

func init() {
	registerArea(func(s *Server) {
		s.Customer = &customer.Service{DB: s.DB, Bus: s.Bus, Counters: s.Counters, Clock: s.Clock, Config: &s.Config,
			Sessions: s.Sessions, Log: s.Log, Audit: customerAudit, AttachmentPath: chatFileRel, AppSettings: s.contentAppSettings}
		s.Post("/customer/init", Open, s.customerInit)
		s.Post("/customer/messages", Open, s.customerMessages)
		s.Post("/customer/send", Open, s.customerSend)
		s.Post("/admin/customer/visitors", Operator, s.adminCustomerVisitors)
		s.Post("/admin/customer/messages", Operator, s.adminCustomerMessages)
		s.Post("/admin/customer/reply", Operator, s.adminCustomerReply)
		s.Post("/admin/customer/desk", Operator, s.adminCustomerDesk)
		s.Post("/admin/customer/desk/set", Operator, s.adminCustomerDeskSet)
	})
}

// customerMaxLength is the characters of one customer-service message.
const customerMaxLength = customer.MaxLength

// customerAudit writes customer service's audit rows in the change's own
// transaction.
func customerAudit(ctx context.Context, tx storage.Tx, by customer.Actor, action string, visitorID int64, before, after any, at int64) error {
	return recordAudit(ctx, tx, AuditActor{OperatorID: by.OperatorID, Address: by.Address}, action, visitorID,
		auditChange{Before: before, After: after}, at)
}

// CustomerSocket makes the /ws/customer handler; the engine mounts it and
// closes it when the node drains.
func (s *Server) CustomerSocket() *customer.Socket {
	return customer.NewSocket(s.Customer, customerGate{s})
}

// customerGate signs sockets in, addresses them and words their errors as
// the routes do.
type customerGate struct{ s *Server }

func (g customerGate) Token(r *http.Request) string { return Token(r) }

func (g customerGate) SignedIn(r *http.Request) (storage.User, error) {
	c := &Call{Ctx: r.Context(), R: r, s: g.s}
	err := g.s.authenticate(c)
	return c.User, err
}

func (g customerGate) Viewer(r *http.Request) (storage.User, error) {
	c := &Call{Ctx: r.Context(), R: r, s: g.s}
	_, err := contentViewer(c)
	return c.User, err
}

func (g customerGate) ClientIP(r *http.Request) string { return g.s.clientIP(r) }

func (customerGate) ClientError(err error) (*apierr.Error, bool) { return asError(err) }

func (customerGate) Decode(data []byte, dst any) error { return DecodeJSON(data, dst) }

func (customerGate) WriteJSON(w http.ResponseWriter, status int, v any) { WriteJSON(w, status, v) }

// customerVisitorOf resolves the caller's visitor and refreshes its cookie.
func (s *Server) customerVisitorOf(c *Call) (customer.Visitor, error) {
	if _, err := contentViewer(c); err != nil {
		return customer.Visitor{}, err
	}
	v, err := s.Customer.ResolveVisitor(c.Ctx, customer.VisitorKey(c.R), c.User, c.ClientIP())
	if err != nil {
		return v, err
	}
	customer.SetVisitorCookie(c.W, c.R, v.Key)
	return v, nil
}

// customerPage loads one page of a visitor's messages, newest first, as the
// visitor (the service's public id) or an agent (the agents' ids) sees them.
func (s *Server) customerPage(ctx context.Context, visitorID int64, p contentPaging, asVisitor bool) (contentList[customer.MessageView], error) {
	load := s.Customer.Messages
	if asVisitor {
		load = s.Customer.VisitorMessages
	}
	return listPage(p, 20, func() (int, error) { return s.Customer.CountMessages(ctx, visitorID) },
		func(limit, offset int) ([]customer.MessageView, error) {
			return load(ctx, visitorID, limit, offset)
		}, func(m customer.MessageView) customer.MessageView { return m })
}

// ---- visitor routes ----

func (s *Server) customerInit(c *Call) (any, error) {
	v, err := s.customerVisitorOf(c)
	if err != nil {
		return nil, err
	}
	return s.Customer.Init(c.Ctx, v, c.Lang)
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
	page, err := s.customerPage(c.Ctx, v.ID, p, true)
	if err != nil {
		return nil, err
	}
	return page, s.Customer.MarkRead(c.Ctx, v.ID, false, page.List)
}

func (s *Server) customerSend(c *Call) (any, error) {
	var req struct {
		Content string                   `json:"content"`
		Context *customer.ContextRequest `json:"context"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	// Checked before the visitor is resolved, so a bad message starts no
	// visitor record.
	if err := customer.CheckContent(&req.Content); err != nil {
		return nil, err
	}
	v, err := s.customerVisitorOf(c)
	if err != nil {
		return nil, err
	}
	return s.Customer.VisitorPost(c.Ctx, v, req.Content, c.ClientIP(), req.Context)
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
	// WaitingSince: when the enquiry no agent has answered yet started (0:
	// answered); Unclaimed: it has waited longer than
	// KJ_CUSTOMER_UNCLAIMED_AFTER, so every agent sees it.
	WaitingSince int64 `json:"waitingSince"`
	Unclaimed    bool  `json:"unclaimed"`
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
	return listPage(req.contentPaging, 20, func() (int, error) { return s.Customer.CountVisitors(c.Ctx, agent) },
		func(limit, offset int) ([]storage.VisitorSummary, error) {
			return s.Customer.Visitors(c.Ctx, agent, limit, offset)
		}, func(v storage.VisitorSummary) customerVisitorView {
			return customerVisitorView{contentID(v.ID), contentID(v.UserID), v.Account, v.Nickname, contentID(v.AgentID),
				v.Unread, v.LastContent, v.LastMessageAt, v.CreatedAt, v.WaitingSince, s.Customer.Unclaimed(v.Visitor)}
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
	v, err := s.Customer.VisitorByID(c.Ctx, int64(req.VisitorNo))
	if err != nil {
		return nil, err
	}
	page, err := s.customerPage(c.Ctx, v.ID, req.contentPaging, false)
	if err != nil {
		return nil, err
	}
	return page, s.Customer.MarkRead(c.Ctx, v.ID, true, page.List)
}

func (s *Server) adminCustomerReply(c *Call) (any, error) {
	var req struct {
		VisitorNo contentID `json:"visitorNo"`
		Content   string    `json:"content"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	return s.Customer.AgentReply(c.Ctx, c.User, c.ClientIP(), int64(req.VisitorNo), req.Content)
}

// adminCustomerDesk answers the caller's desk: taking chats, the name
// visitors see, and whether new enquiries come to them now.
func (s *Server) adminCustomerDesk(c *Call) (any, error) {
	return s.Customer.DeskOf(c.Ctx, c.User.ID)
}

// adminCustomerDeskSet sets the caller's desk.
func (s *Server) adminCustomerDeskSet(c *Call) (any, error) {
	var req struct {
		Taking      bool   `json:"taking"`
		DisplayName string `json:"displayName"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	return s.Customer.SetDesk(c.Ctx, c.User.ID, req.Taking, req.DisplayName)
}
