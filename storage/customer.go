package storage

// Customer-service chat: visitors (with or without an account), the secret
// keys that identify them, the agent (operator account) answering each, and
// their messages.

import (
	"context"
	"errors"
)

// Visitor is one person talking to customer service.
type Visitor struct {
	ID            int64
	UserID        int64 // 0 until a signed-in user is linked
	AgentID       int64 // 0 until an agent is assigned
	CreatedAt     int64
	LastMessageAt int64
	// WaitingSince is when the oldest visitor message no agent has answered
	// yet was written (0: nothing waits).
	WaitingSince int64
}

const visitorColumns = `id, user_id, agent_id, created_at, last_message_at, waiting_since`

func scanVisitor(r Row) (Visitor, error) {
	var v Visitor
	err := r.Scan(&v.ID, &v.UserID, &v.AgentID, &v.CreatedAt, &v.LastMessageAt, &v.WaitingSince)
	return v, err
}

// CreateVisitor inserts v; ErrConflict when v.UserID already has a visitor.
func CreateVisitor(ctx context.Context, q Querier, v Visitor) error {
	if v.UserID != 0 {
		defer touched(q, v.UserID)
	}
	_, err := q.Exec(ctx, `INSERT INTO customer_visitors (`+visitorColumns+`) VALUES ($1,$2,$3,$4,$5,$6)`,
		v.ID, v.UserID, v.AgentID, v.CreatedAt, v.LastMessageAt, v.WaitingSince)
	return err
}

// VisitorByID loads one visitor.
func VisitorByID(ctx context.Context, q Querier, id int64) (Visitor, error) {
	return scanVisitor(q.QueryRow(ctx, `SELECT `+visitorColumns+` FROM customer_visitors WHERE id = $1`+q.Dialect().ForUpdate(), id))
}

// VisitorByKey finds the visitor holding the key whose hash is keyHash.
func VisitorByKey(ctx context.Context, q Querier, keyHash string) (Visitor, error) {
	return scanVisitor(q.QueryRow(ctx, `SELECT v.id, v.user_id, v.agent_id, v.created_at, v.last_message_at, v.waiting_since
		FROM customer_visitor_keys k JOIN customer_visitors v ON v.id = k.visitor_id WHERE k.key_hash = $1`, keyHash))
}

// VisitorByUser finds the visitor linked to userID.
func VisitorByUser(ctx context.Context, q Querier, userID int64) (Visitor, error) {
	return scanVisitor(q.QueryRow(ctx, `SELECT `+visitorColumns+` FROM customer_visitors WHERE user_id = $1`, userID))
}

// AddVisitorKey lets the key with keyHash identify visitorID.
func AddVisitorKey(ctx context.Context, q Querier, keyHash string, visitorID, at int64) error {
	_, err := q.Exec(ctx, `INSERT INTO customer_visitor_keys (key_hash, visitor_id, created_at) VALUES ($1, $2, $3)`,
		keyHash, visitorID, at)
	return err
}

// LinkVisitorUser links an anonymous visitor to userID.
func LinkVisitorUser(ctx context.Context, q Querier, visitorID, userID int64) error {
	defer touched(q, userID) // the user's customerId is now the visitor's agent
	return affected(q.Exec(ctx, `UPDATE customer_visitors SET user_id = $2 WHERE id = $1 AND user_id = 0`, visitorID, userID))
}

// MergeVisitor moves the messages and keys of visitor from into visitor
// into and deletes from: an anonymous chat continues in the signed-in
// user's own one.
func MergeVisitor(ctx context.Context, q Querier, from, into Visitor) error {
	defer touched(q, from.UserID, into.UserID)
	if _, err := q.Exec(ctx, `UPDATE customer_messages SET visitor_id = $2 WHERE visitor_id = $1`, from.ID, into.ID); err != nil {
		return err
	}
	if _, err := q.Exec(ctx, `UPDATE customer_visitor_keys SET visitor_id = $2 WHERE visitor_id = $1`, from.ID, into.ID); err != nil {
		return err
	}
	var last int64
	if err := q.QueryRow(ctx, `SELECT COALESCE(MAX(created_at), 0) FROM customer_messages WHERE visitor_id = $1`, into.ID).Scan(&last); err != nil {
		return err
	}
	if _, err := q.Exec(ctx, `UPDATE customer_visitors SET last_message_at = $2 WHERE id = $1 AND last_message_at < $2`, into.ID, last); err != nil {
		return err
	}
	if from.WaitingSince != 0 {
		if _, err := q.Exec(ctx, `UPDATE customer_visitors SET waiting_since = $2 WHERE id = $1 AND (waiting_since = 0 OR waiting_since > $2)`,
			into.ID, from.WaitingSince); err != nil {
			return err
		}
	}
	return affected(q.Exec(ctx, `DELETE FROM customer_visitors WHERE id = $1`, from.ID))
}

// SetVisitorAgent assigns agentID to a visitor.
func SetVisitorAgent(ctx context.Context, q Querier, visitorID, agentID int64) error {
	// RETURNING names the user, whose customerId the node keeps (commits.go).
	var userID int64
	err := q.QueryRow(ctx, `UPDATE customer_visitors SET agent_id = $2 WHERE id = $1 RETURNING user_id`, visitorID, agentID).Scan(&userID)
	if err == nil {
		touched(q, userID)
	}
	return err
}

// SetVisitorWaiting sets when a visitor's unanswered enquiry started (0:
// nothing waits any more).
func SetVisitorWaiting(ctx context.Context, q Querier, visitorID, since int64) error {
	return affected(q.Exec(ctx, `UPDATE customer_visitors SET waiting_since = $2 WHERE id = $1`, visitorID, since))
}

// ConsolePlatform is the sign-in platform of the operators' console
// (OpenIM's admin platform).
const ConsolePlatform = 10

// availableAgent is an operator taking chats (customer_agents.taking) with
// a console session that is active and not expired at $1.
const availableAgent = `u.is_operator = 1
	AND EXISTS (SELECT 1 FROM customer_agents a WHERE a.user_id = u.id AND a.taking = 1)
	AND EXISTS (SELECT 1 FROM auth_sessions s WHERE s.user_id = u.id AND s.platform = 10
		AND s.state = 0 AND s.token_expires_at > $1)`

// LeastLoadedAgent picks, among the operators available at now (signed in
// to the console and taking chats), the one with the fewest visitors
// waiting or active (written to) since since; ties go to the one given a
// visitor longest ago, then the oldest account. ErrNotFound when nobody is
// available.
func LeastLoadedAgent(ctx context.Context, q Querier, now, since int64) (User, error) {
	return scanUser(q.QueryRow(ctx, `SELECT `+userColumns+` FROM users u WHERE `+availableAgent+`
		ORDER BY (SELECT COUNT(*) FROM customer_visitors v WHERE v.agent_id = u.id
			AND (v.waiting_since <> 0 OR v.last_message_at >= $2 OR v.created_at >= $2)), u.id LIMIT 1`, now, since))
}

// AgentAvailable reports whether operator userID is signed in to the
// console at now and taking chats.
func AgentAvailable(ctx context.Context, q Querier, userID, now int64) (bool, error) {
	n, err := count(ctx, q, `SELECT COUNT(*) FROM users u WHERE u.id = $2 AND `+availableAgent, now, userID)
	return n > 0, err
}

// AgentDesk is an operator's customer-service settings.
type AgentDesk struct {
	UserID      int64
	Taking      bool   // assigned new enquiries while signed in
	DisplayName string // what players see; "" for the app's service name
	UpdatedAt   int64
}

// AgentDeskOf loads userID's settings (zero, not taking chats, when never
// set).
func AgentDeskOf(ctx context.Context, q Querier, userID int64) (AgentDesk, error) {
	d := AgentDesk{UserID: userID}
	var taking int
	err := q.QueryRow(ctx, `SELECT taking, display_name, updated_at FROM customer_agents WHERE user_id = $1`, userID).
		Scan(&taking, &d.DisplayName, &d.UpdatedAt)
	if errors.Is(err, ErrNotFound) {
		return d, nil
	}
	d.Taking = taking == 1
	return d, err
}

// SetAgentDesk stores d.
func SetAgentDesk(ctx context.Context, q Querier, d AgentDesk) error {
	taking := 0
	if d.Taking {
		taking = 1
	}
	_, err := q.Exec(ctx, `INSERT INTO customer_agents (user_id, taking, display_name, updated_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (user_id) DO UPDATE SET taking = $2, display_name = $3, updated_at = $4`,
		d.UserID, taking, d.DisplayName, d.UpdatedAt)
	return err
}

// CountUnclaimed counts the visitors whose enquiry has waited for an
// answer since before before.
func CountUnclaimed(ctx context.Context, q Querier, before int64) (int, error) {
	return count(ctx, q, `SELECT COUNT(*) FROM customer_visitors WHERE waiting_since <> 0 AND waiting_since <= $1`, before)
}

// CountAgents counts the operator accounts that answer customer service.
func CountAgents(ctx context.Context, q Querier) (int, error) {
	return count(ctx, q, `SELECT COUNT(*) FROM users WHERE is_operator = 1`)
}

// Customer message senders and states.
const (
	FromVisitor = 0
	FromAgent   = 1

	CustomerSent = 1
	CustomerRead = 2
)

// CustomerMessage is one message of a customer-service chat.
type CustomerMessage struct {
	ID        int64
	VisitorID int64
	FromAgent int
	AgentID   int64
	Content   string
	Status    int
	CreatedAt int64
	Context   string // what the visitor asked about, as JSON ("": none)
}

const customerMessageColumns = `id, visitor_id, from_agent, agent_id, content, status, created_at, context`

func scanCustomerMessage(r Row) (CustomerMessage, error) {
	var m CustomerMessage
	err := r.Scan(&m.ID, &m.VisitorID, &m.FromAgent, &m.AgentID, &m.Content, &m.Status, &m.CreatedAt, &m.Context)
	return m, err
}

// AddCustomerMessage stores m and moves the visitor's last activity.
func AddCustomerMessage(ctx context.Context, q Querier, m CustomerMessage) error {
	if _, err := q.Exec(ctx, `INSERT INTO customer_messages (`+customerMessageColumns+`) VALUES ($1,$2,$3,$4,$5,$6,$7,$8)`,
		m.ID, m.VisitorID, m.FromAgent, m.AgentID, m.Content, m.Status, m.CreatedAt, m.Context); err != nil {
		return err
	}
	return affected(q.Exec(ctx, `UPDATE customer_visitors SET last_message_at = $2 WHERE id = $1`, m.VisitorID, m.CreatedAt))
}

// CountCustomerMessages counts a visitor's messages.
func CountCustomerMessages(ctx context.Context, q Querier, visitorID int64) (int, error) {
	return count(ctx, q, `SELECT COUNT(*) FROM customer_messages WHERE visitor_id = $1`, visitorID)
}

// CustomerMessages lists one page of a visitor's messages, newest first.
func CustomerMessages(ctx context.Context, q Querier, visitorID int64, limit, offset int) ([]CustomerMessage, error) {
	rows, err := q.Query(ctx, `SELECT `+customerMessageColumns+` FROM customer_messages WHERE visitor_id = $1
		ORDER BY id DESC LIMIT $2 OFFSET $3`, visitorID, limit, offset)
	return CollectRows(rows, err, func(r Rows) (CustomerMessage, error) { return scanCustomerMessage(r) })
}

// UnreadCustomerMessages counts the messages written by from (FromVisitor
// or FromAgent) that the other side has not read.
func UnreadCustomerMessages(ctx context.Context, q Querier, visitorID int64, from int) (int, error) {
	return count(ctx, q, `SELECT COUNT(*) FROM customer_messages WHERE visitor_id = $1 AND from_agent = $2 AND status = $3`,
		visitorID, from, CustomerSent)
}

// MarkCustomerRead marks the messages written by from as read by the
// other side and returns the newest id it marked (0: none).
func MarkCustomerRead(ctx context.Context, q Querier, visitorID int64, from int) (int64, error) {
	var upto int64
	err := q.QueryRow(ctx, `SELECT COALESCE(MAX(id), 0) FROM customer_messages WHERE visitor_id = $1 AND from_agent = $2 AND status = $3`,
		visitorID, from, CustomerSent).Scan(&upto)
	if err != nil || upto == 0 {
		return 0, err
	}
	_, err = q.Exec(ctx, `UPDATE customer_messages SET status = $4 WHERE visitor_id = $1 AND from_agent = $2 AND status = $3 AND id <= $5`,
		visitorID, from, CustomerSent, CustomerRead, upto)
	return upto, err
}

// VisitorSummary is a row of an agent's visitor list.
type VisitorSummary struct {
	Visitor
	Account     string // of the linked user, "" for an anonymous visitor
	Nickname    string
	Unread      int // visitor messages the agents have not read
	LastContent string
}

// agentVisitorsWhere is the visitors agent $1 sees: their own, those
// assigned to nobody and those waiting since $2 or earlier (unclaimed); every
// visitor when $1 is 0.
const agentVisitorsWhere = `(CAST($1 AS BIGINT) = 0 OR v.agent_id = $1 OR v.agent_id = 0
	OR (v.waiting_since <> 0 AND v.waiting_since <= $2))`

// AgentVisitors lists one page of visitors, most recently active first:
// those of agentID, those nobody answers yet and those whose enquiry has
// waited since unclaimedBefore or earlier, or every visitor when agentID is
// 0.
func AgentVisitors(ctx context.Context, q Querier, agentID, unclaimedBefore int64, limit, offset int) ([]VisitorSummary, error) {
	rows, err := q.Query(ctx, `SELECT v.id, v.user_id, v.agent_id, v.created_at, v.last_message_at, v.waiting_since,
		COALESCE(u.account, ''), COALESCE(u.nickname, ''),
		(SELECT COUNT(*) FROM customer_messages m WHERE m.visitor_id = v.id AND m.from_agent = 0 AND m.status = 1),
		COALESCE((SELECT m.content FROM customer_messages m WHERE m.visitor_id = v.id ORDER BY m.id DESC LIMIT 1), '')
		FROM customer_visitors v LEFT JOIN users u ON u.id = v.user_id
		WHERE `+agentVisitorsWhere+`
		ORDER BY v.last_message_at DESC, v.id DESC LIMIT $3 OFFSET $4`, agentID, unclaimedBefore, limit, offset)
	return CollectRows(rows, err, func(r Rows) (VisitorSummary, error) {
		var s VisitorSummary
		err := r.Scan(&s.ID, &s.UserID, &s.AgentID, &s.CreatedAt, &s.LastMessageAt, &s.WaitingSince, &s.Account, &s.Nickname, &s.Unread, &s.LastContent)
		return s, err
	})
}

// CountAgentVisitors counts what AgentVisitors pages through.
func CountAgentVisitors(ctx context.Context, q Querier, agentID, unclaimedBefore int64) (int, error) {
	return count(ctx, q, `SELECT COUNT(*) FROM customer_visitors v WHERE `+agentVisitorsWhere, agentID, unclaimedBefore)
}
