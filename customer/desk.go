package customer

// The desk: who answers an enquiry. An operator switches "taking chats" on
// and sets the name visitors see; a visitor's enquiry goes to the least
// loaded operator who is taking chats and signed in to the console; an
// enquiry its agent has not answered within KJ_CUSTOMER_UNCLAIMED_AFTER is
// unclaimed: every agent sees it, the dashboard counts it, and whoever
// answers first takes it. What the visitor asked about (a listing, a video,
// an amount) travels with the message as its context.

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"kj/internal/apierr"
	"kj/internal/jsonid"
	"kj/storage"
)

// Desk is an operator's customer-service settings, as the console shows
// them.
type Desk struct {
	Taking      bool   `json:"taking"`
	DisplayName string `json:"displayName"`
	// Available: taking chats and signed in to the console now, so new
	// enquiries come to this operator.
	Available bool `json:"available"`
}

// MaxDisplayName is the characters of an agent's display name.
const MaxDisplayName = 32

// DeskOf answers operator agentID's settings.
func (s *Service) DeskOf(ctx context.Context, agentID int64) (Desk, error) {
	d, err := storage.AgentDeskOf(ctx, s.DB, agentID)
	if err != nil {
		return Desk{}, err
	}
	avail, err := storage.AgentAvailable(ctx, s.DB, agentID, s.Clock.Now().UnixMilli())
	return Desk{Taking: d.Taking, DisplayName: d.DisplayName, Available: avail}, err
}

// SetDesk stores operator agentID's settings: taking chats, and the name
// visitors see (trimmed, at most MaxDisplayName characters; "" for the
// app's service name).
func (s *Service) SetDesk(ctx context.Context, agentID int64, taking bool, displayName string) (Desk, error) {
	displayName = strings.TrimSpace(displayName)
	if n := utf8.RuneCountInString(displayName); n > MaxDisplayName || !utf8.ValidString(displayName) ||
		strings.ContainsAny(displayName, "\n\r\t") {
		return Desk{}, apierr.Fail(apierr.CodeInvalid, "content.text.length", "field", "displayName", "min", 0, "max", MaxDisplayName)
	}
	err := storage.SetAgentDesk(ctx, s.DB, storage.AgentDesk{UserID: agentID, Taking: taking, DisplayName: displayName,
		UpdatedAt: s.Clock.Now().UnixMilli()})
	if err != nil {
		return Desk{}, err
	}
	return s.DeskOf(ctx, agentID)
}

// unclaimedBefore is the time before which an enquiry still waiting is
// unclaimed.
func (s *Service) unclaimedBefore() int64 {
	after := s.Config.CustomerUnclaimedAfter
	if after <= 0 {
		after = 3 * time.Minute
	}
	return s.Clock.Now().Add(-after).UnixMilli()
}

// CountUnclaimed counts the enquiries waiting longer than
// KJ_CUSTOMER_UNCLAIMED_AFTER for an answer.
func (s *Service) CountUnclaimed(ctx context.Context) (int, error) {
	return storage.CountUnclaimed(ctx, s.DB, s.unclaimedBefore())
}

// assign gives visitor v, who has just written, an agent when it needs
// one: when nobody answers it, or when a new enquiry starts and its agent
// is no longer available. It answers whether the agent changed.
func (s *Service) assign(ctx context.Context, tx storage.Tx, v *storage.Visitor, now int64) (bool, error) {
	if v.AgentID != 0 {
		if v.WaitingSince != 0 {
			return false, nil // the enquiry goes on with its agent (or waits until unclaimed)
		}
		avail, err := storage.AgentAvailable(ctx, tx, v.AgentID, now)
		if err != nil || avail {
			return false, err
		}
	}
	agent, err := storage.LeastLoadedAgent(ctx, tx, now, now-loadWindow.Milliseconds())
	if errors.Is(err, storage.ErrNotFound) {
		return false, nil // nobody taking chats: every agent sees it
	}
	if err != nil || agent.ID == v.AgentID {
		return false, err
	}
	if err := storage.SetVisitorAgent(ctx, tx, v.ID, agent.ID); err != nil {
		return false, err
	}
	v.AgentID = agent.ID
	return true, nil
}

// Context kinds: what a visitor asks about.
const (
	ContextListing    = "listing"    // a same-city listing (id)
	ContextVideo      = "video"      // a video (id)
	ContextRecharge   = "recharge"   // a recharge (amount in cents, currency)
	ContextVideoLimit = "videoLimit" // the day's video allowance is used up
)

// ContextRequest is what the client says the visitor asks about.
type ContextRequest struct {
	Kind     string    `json:"kind"`
	ID       jsonid.ID `json:"id"`
	Amount   int64     `json:"amount"`
	Currency string    `json:"currency"`
}

// Context is what a visitor asked about, as the agents see it: the title
// is read from the store, never taken from the client.
type Context struct {
	Kind     string    `json:"kind"`
	ID       jsonid.ID `json:"id,omitempty"`
	Title    string    `json:"title,omitempty"`
	Amount   int64     `json:"amount,omitempty"`
	Currency string    `json:"currency,omitempty"`
}

// maxRechargeContext bounds the amount a recharge enquiry names (cents).
const maxRechargeContext = 1_000_000_000_000

// resolveContext checks req and reads its title from the store ("" when
// req is nil).
func resolveContext(ctx context.Context, q storage.Querier, req *ContextRequest) (string, error) {
	if req == nil || req.Kind == "" {
		return "", nil
	}
	c := Context{Kind: req.Kind}
	switch req.Kind {
	case ContextListing:
		l, err := storage.ListingByID(ctx, q, int64(req.ID))
		if errors.Is(err, storage.ErrNotFound) || req.ID == 0 {
			return "", apierr.Invalid("context.id")
		}
		if err != nil {
			return "", err
		}
		c.ID, c.Title = req.ID, l.Name
	case ContextVideo:
		v, err := storage.VideoByID(ctx, q, int64(req.ID))
		if errors.Is(err, storage.ErrNotFound) || req.ID == 0 {
			return "", apierr.Invalid("context.id")
		}
		if err != nil {
			return "", err
		}
		c.ID, c.Title = req.ID, v.Title
	case ContextRecharge:
		if req.Amount <= 0 || req.Amount > maxRechargeContext {
			return "", apierr.Invalid("context.amount")
		}
		cur := strings.TrimSpace(req.Currency)
		if len(cur) > 16 || strings.ContainsFunc(cur, func(r rune) bool {
			return (r < 'A' || r > 'Z') && (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' && r != '_'
		}) {
			return "", apierr.Invalid("context.currency")
		}
		c.Amount, c.Currency = req.Amount, cur
	case ContextVideoLimit:
	default:
		return "", apierr.Invalid("context.kind")
	}
	b, err := json.Marshal(c)
	return string(b), err
}

// decodeContext reads a stored context (nil when none).
func decodeContext(raw string) *Context {
	if raw == "" {
		return nil
	}
	var c Context
	if json.Unmarshal([]byte(raw), &c) != nil {
		return nil
	}
	return &c
}
