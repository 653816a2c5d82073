package customer

// The enquiries: what visitors and agents write, read marks, the visitor's
// chat header, the agents' inbox and the handover of a visitor.

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"kj/internal/apierr"
	"kj/internal/jsonid"
	"kj/storage"
)

// VisitorPost stores a visitor's message (with what it asks about, about
// may be nil), gives the visitor an agent when it needs one (desk.go) and
// announces both; it answers the message as the visitor sees it
// (PublicServiceID). Anonymous visitors also share their address's
// KJ_CUSTOMER_SENDS_PER_MINUTE, so new keys do not buy new allowances.
func (s *Service) VisitorPost(ctx context.Context, v Visitor, content, ip string, about *ContextRequest) (MessageView, error) {
	if err := CheckContent(&content); err != nil {
		return MessageView{}, err
	}
	if v.UserID == 0 {
		n, err := s.Counters.Incr(ctx, "cs:send:ip:"+ip, 1, time.Minute)
		if err != nil {
			return MessageView{}, err
		}
		if n > int64(s.Config.CustomerSendsPerMinute) {
			return MessageView{}, apierr.Fail(apierr.CodeRateLimited, "rate.limited")
		}
	}
	n, err := s.Counters.Incr(ctx, "cs:send:"+strconv.FormatInt(v.ID, 10), 1, time.Minute)
	if err != nil {
		return MessageView{}, err
	}
	if n > SendPerMinute {
		return MessageView{}, apierr.Fail(apierr.CodeRateLimited, "rate.limited")
	}
	now := s.Clock.Now().UnixMilli()
	m := storage.CustomerMessage{ID: storage.NewID(), VisitorID: v.ID, FromAgent: storage.FromVisitor,
		Content: content, Status: storage.CustomerSent, CreatedAt: now}
	var assigned bool
	var agent storage.User
	var name string
	err = s.DB.Tx(ctx, func(tx storage.Tx) error {
		var err error
		if m.Context, err = resolveContext(ctx, tx, about); err != nil {
			return err
		}
		if err := s.shareFile(ctx, tx, storage.ChatFileReader{UserID: v.UserID}, v.ID, content); err != nil {
			return err
		}
		cur, err := storage.VisitorByID(ctx, tx, v.ID) // locks the visitor: one assignment at a time
		if err != nil {
			return err
		}
		if assigned, err = s.assign(ctx, tx, &cur, now); err != nil {
			return err
		}
		if cur.WaitingSince == 0 {
			if err := storage.SetVisitorWaiting(ctx, tx, v.ID, now); err != nil {
				return err
			}
		}
		if assigned {
			if agent, err = storage.UserByID(ctx, tx, cur.AgentID); err != nil {
				return err
			}
			if name, err = agentName(ctx, tx, agent.ID); err != nil {
				return err
			}
		}
		return storage.AddCustomerMessage(ctx, tx, m)
	})
	if err != nil {
		return MessageView{}, storeErr(err)
	}
	view := newMessageView(m)
	if assigned {
		s.publish(ctx, event{Type: "assigned", VisitorNo: view.VisitorNo, ServiceID: jsonid.ID(agent.ID), ServiceName: name})
	}
	s.publish(ctx, event{Type: "message", VisitorNo: view.VisitorNo, Message: &view})
	return view.forVisitor(), nil
}

// VisitorAgent is the agent answering a visitor, as the audit log shows
// it (0: nobody yet).
type VisitorAgent struct {
	AgentID int64 `json:"agentId,string"`
}

// agentReplied is a visitor after an agent's reply, as the audit log
// shows it.
type agentReplied struct {
	VisitorAgent
	MessageID int64 `json:"messageId,string"`
}

// AgentReply stores an agent's reply (sent from the client address ip) to
// a visitor, with its audit row, taking the visitor when nobody answers it
// yet or its enquiry is unclaimed; the enquiry no longer waits.
func (s *Service) AgentReply(ctx context.Context, agent storage.User, ip string, visitorID int64, content string) (MessageView, error) {
	if visitorID == 0 {
		return MessageView{}, apierr.Required("visitorNo")
	}
	if err := CheckContent(&content); err != nil {
		return MessageView{}, err
	}
	now := s.Clock.Now().UnixMilli()
	m := storage.CustomerMessage{ID: storage.NewID(), VisitorID: visitorID, FromAgent: storage.FromAgent, AgentID: agent.ID,
		Content: content, Status: storage.CustomerSent, CreatedAt: now}
	var v storage.Visitor
	claimed := false
	var name string
	unclaimed := s.unclaimedBefore()
	err := s.DB.Tx(ctx, func(tx storage.Tx) error {
		var err error
		if v, err = storage.VisitorByID(ctx, tx, visitorID); err != nil {
			return err
		}
		before := VisitorAgent{v.AgentID}
		if v.AgentID == 0 || (v.AgentID != agent.ID && v.WaitingSince != 0 && v.WaitingSince <= unclaimed) {
			if err := storage.SetVisitorAgent(ctx, tx, v.ID, agent.ID); err != nil {
				return err
			}
			v.AgentID, claimed = agent.ID, true
			if name, err = agentName(ctx, tx, agent.ID); err != nil {
				return err
			}
		}
		if v.WaitingSince != 0 {
			if err := storage.SetVisitorWaiting(ctx, tx, v.ID, 0); err != nil {
				return err
			}
		}
		if err := s.shareFile(ctx, tx, storage.ChatFileReader{UserID: agent.ID, Agent: true}, v.ID, content); err != nil {
			return err
		}
		if err := storage.AddCustomerMessage(ctx, tx, m); err != nil {
			return err
		}
		// The visitor before and after: its agent (set by a first reply)
		// and the message the reply added.
		return s.Audit(ctx, tx, Actor{OperatorID: agent.ID, Address: ip}, "customer.reply", v.ID,
			before, agentReplied{VisitorAgent{v.AgentID}, m.ID}, now)
	})
	if err != nil {
		return MessageView{}, storeErr(err)
	}
	view := newMessageView(m)
	if claimed {
		s.publish(ctx, event{Type: "assigned", VisitorNo: view.VisitorNo,
			ServiceID: jsonid.ID(agent.ID), ServiceName: name})
	}
	s.publish(ctx, event{Type: "message", VisitorNo: view.VisitorNo, Message: &view})
	return view, nil
}

// Handover gives a visitor's conversation to another agent (any operator),
// audited as by's; both agents' inboxes and the visitor hear "assigned".
// It answers the new agent.
func (s *Service) Handover(ctx context.Context, by Actor, visitorID, agentID int64) (storage.User, error) {
	if visitorID == 0 {
		return storage.User{}, apierr.Required("visitorNo")
	}
	if agentID == 0 {
		return storage.User{}, apierr.Required("serviceId")
	}
	var v storage.Visitor
	var to storage.User
	var name string
	err := s.DB.Tx(ctx, func(tx storage.Tx) error {
		var err error
		if v, err = storage.VisitorByID(ctx, tx, visitorID); err != nil {
			return err
		}
		to, err = storage.UserByID(ctx, tx, agentID)
		if errors.Is(err, storage.ErrNotFound) || (err == nil && to.IsOperator != 1) {
			return apierr.Invalid("serviceId")
		}
		if err != nil {
			return err
		}
		if err := storage.SetVisitorAgent(ctx, tx, v.ID, to.ID); err != nil {
			return err
		}
		if name, err = agentName(ctx, tx, to.ID); err != nil {
			return err
		}
		return s.Audit(ctx, tx, by, "customer.handover", v.ID, VisitorAgent{v.AgentID}, VisitorAgent{to.ID}, s.Clock.Now().UnixMilli())
	})
	if err != nil {
		return storage.User{}, storeErr(err)
	}
	s.publish(ctx, event{Type: "assigned", VisitorNo: jsonid.ID(v.ID), ServiceID: jsonid.ID(to.ID), ServiceName: name})
	return to, nil
}

// shareFile lets the visitor and the agents fetch the chat attachment a
// customer-service message consists of (the picture a signed-in visitor
// uploaded), once the sender may read it; a message naming someone else's
// attachment is refused as if it did not exist.
func (s *Service) shareFile(ctx context.Context, tx storage.Tx, sender storage.ChatFileReader, visitorID int64, content string) error {
	rel, ok := s.AttachmentPath(strings.TrimSpace(content))
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

// MarkRead marks what the other side wrote to visitorID as read, announces
// it, and updates the statuses in page to match. byAgent says who is
// reading.
func (s *Service) MarkRead(ctx context.Context, visitorID int64, byAgent bool, page []MessageView) error {
	from, by, other := storage.FromAgent, "visitor", "agent"
	if byAgent {
		from, by, other = storage.FromVisitor, "agent", "visitor"
	}
	upto, err := storage.MarkCustomerRead(ctx, s.DB, visitorID, from)
	if err != nil || upto == 0 {
		return err
	}
	for i := range page {
		if page[i].From == other && page[i].ID <= jsonid.ID(upto) {
			page[i].Status = storage.CustomerRead
		}
	}
	s.publish(ctx, event{Type: "read", VisitorNo: jsonid.ID(visitorID), By: by, Upto: jsonid.ID(upto)})
	return nil
}

// AgentMarkRead is an agent reading visitorID's messages (404 for a
// visitor that does not exist).
func (s *Service) AgentMarkRead(ctx context.Context, visitorID int64) error {
	if visitorID == 0 {
		return apierr.Required("visitorNo")
	}
	v, err := s.VisitorByID(ctx, visitorID)
	if err != nil {
		return err
	}
	return storeErr(s.MarkRead(ctx, v.ID, true, nil))
}

// VisitorByID is the visitor an agent names (404 when there is none).
func (s *Service) VisitorByID(ctx context.Context, visitorID int64) (storage.Visitor, error) {
	v, err := storage.VisitorByID(ctx, s.DB, visitorID)
	return v, storeErr(err)
}

// CountMessages counts a visitor's messages.
func (s *Service) CountMessages(ctx context.Context, visitorID int64) (int, error) {
	return storage.CountCustomerMessages(ctx, s.DB, visitorID)
}

// Messages loads a window of a visitor's messages, newest first.
func (s *Service) Messages(ctx context.Context, visitorID int64, limit, offset int) ([]MessageView, error) {
	list, err := storage.CustomerMessages(ctx, s.DB, visitorID, limit, offset)
	out := make([]MessageView, len(list))
	for i, m := range list {
		out[i] = newMessageView(m)
	}
	return out, err
}

// VisitorMessages is Messages as the visitor sees them: the service's
// public id in place of the agents'.
func (s *Service) VisitorMessages(ctx context.Context, visitorID int64, limit, offset int) ([]MessageView, error) {
	out, err := s.Messages(ctx, visitorID, limit, offset)
	for i := range out {
		out[i] = out[i].forVisitor()
	}
	return out, err
}

// CountVisitors counts agentID's visitors, those nobody answers yet and
// the unclaimed ones (agentID 0: every visitor).
func (s *Service) CountVisitors(ctx context.Context, agentID int64) (int, error) {
	return storage.CountAgentVisitors(ctx, s.DB, agentID, s.unclaimedBefore())
}

// Visitors is a window of CountVisitors' visitors, most recently active
// first.
func (s *Service) Visitors(ctx context.Context, agentID int64, limit, offset int) ([]storage.VisitorSummary, error) {
	return storage.AgentVisitors(ctx, s.DB, agentID, s.unclaimedBefore(), limit, offset)
}

// Unclaimed reports whether a visitor's enquiry has waited longer than
// KJ_CUSTOMER_UNCLAIMED_AFTER.
func (s *Service) Unclaimed(v storage.Visitor) bool {
	return v.WaitingSince != 0 && v.WaitingSince <= s.unclaimedBefore()
}

// InitView is the visitor's chat header.
type InitView struct {
	VisitorID   string    `json:"visitorId"`
	VisitorNo   jsonid.ID `json:"visitorNo"`
	UserID      jsonid.ID `json:"userId"`
	ServiceID   jsonid.ID `json:"serviceId"`
	ServiceName string    `json:"serviceName"`
	Welcome     string    `json:"welcome"`
	Unread      int       `json:"unread"`
}

// Init is the visitor's chat header, the welcome in lang.
func (s *Service) Init(ctx context.Context, v Visitor, lang string) (InitView, error) {
	app, err := s.AppSettings(ctx)
	if err != nil {
		return InitView{}, err
	}
	unread, err := storage.UnreadCustomerMessages(ctx, s.DB, v.ID, storage.FromAgent)
	return InitView{VisitorID: v.Key, VisitorNo: jsonid.ID(v.ID), UserID: jsonid.ID(v.UserID),
		ServiceID: jsonid.ID(PublicServiceID), ServiceName: v.AgentName, Welcome: Welcome(app, lang), Unread: unread}, err
}

// Welcome is the operator's customer-service welcome in lang, else in the
// default language.
func Welcome(app storage.AppSettings, lang string) string {
	if w := app.ServiceWelcomeTexts[lang]; w != "" {
		return w
	}
	return app.ServiceWelcome
}
