package storage

// Customer-service chat: visitors (with or without an account), the secret
// keys that identify them, the agent (operator account) answering each, and
// their messages.

import (
	"context"
)

// Visitor is one person talking to customer service.
type Visitor struct {
	ID            int64
	UserID        int64 // 0 until a signed-in user is linked
	AgentID       int64 // 0 until an agent is assigned
	CreatedAt     int64
	LastMessageAt int64
}

const visitorColumns = `id, user_id, agent_id, created_at, last_message_at`

func scanVisitor(r Row) (Visitor, error) {
	var v Visitor
	err := r.Scan(&v.ID, &v.UserID, &v.AgentID, &v.CreatedAt, &v.LastMessageAt)
	return v, err
}

// CreateVisitor inserts v; ErrConflict when v.UserID already has a visitor.
func CreateVisitor(ctx context.Context, q Querier, v Visitor) error {
	_, err := q.Exec(ctx, `INSERT INTO customer_visitors (`+visitorColumns+`) VALUES ($1,$2,$3,$4,$5)`,
		v.ID, v.UserID, v.AgentID, v.CreatedAt, v.LastMessageAt)
	return err
}

// VisitorByID loads one visitor.
func VisitorByID(ctx context.Context, q Querier, id int64) (Visitor, error) {
	return scanVisitor(q.QueryRow(ctx, `SELECT `+visitorColumns+` FROM customer_visitors WHERE id = $1`+q.Dialect().ForUpdate(), id))
}

// VisitorByKey finds the visitor holding the key whose hash is keyHash.
func VisitorByKey(ctx context.Context, q Querier, keyHash string) (Visitor, error) {
	return scanVisitor(q.QueryRow(ctx, `SELECT v.id, v.user_id, v.agent_id, v.created_at, v.last_message_at
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
	return affected(q.Exec(ctx, `UPDATE customer_visitors SET user_id = $2 WHERE id = $1 AND user_id = 0`, visitorID, userID))
}

// MergeVisitor moves the messages and keys of visitor from into visitor
// into and deletes from: an anonymous chat continues in the signed-in
// user's own one.
func MergeVisitor(ctx context.Context, q Querier, from, into Visitor) error {
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
	return affected(q.Exec(ctx, `DELETE FROM customer_visitors WHERE id = $1`, from.ID))
}

// SetVisitorAgent assigns agentID to a visitor.
func SetVisitorAgent(ctx context.Context, q Querier, visitorID, agentID int64) error {
	return affected(q.Exec(ctx, `UPDATE customer_visitors SET agent_id = $2 WHERE id = $1`, visitorID, agentID))
}

// LeastLoadedAgent picks the operator account with the fewest visitors
// active (created or written to) since since; ties go to the oldest
// account. ErrNotFound when there is no operator.
func LeastLoadedAgent(ctx context.Context, q Querier, since int64) (User, error) {
	return scanUser(q.QueryRow(ctx, `SELECT `+userColumns+` FROM users u WHERE u.is_operator = 1
		ORDER BY (SELECT COUNT(*) FROM customer_visitors v WHERE v.agent_id = u.id
			AND (v.last_message_at >= $1 OR v.created_at >= $1)), u.id LIMIT 1`, since))
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
}

const customerMessageColumns = `id, visitor_id, from_agent, agent_id, content, status, created_at`

func scanCustomerMessage(r Row) (CustomerMessage, error) {
	var m CustomerMessage
	err := r.Scan(&m.ID, &m.VisitorID, &m.FromAgent, &m.AgentID, &m.Content, &m.Status, &m.CreatedAt)
	return m, err
}

// AddCustomerMessage stores m and moves the visitor's last activity.
func AddCustomerMessage(ctx context.Context, q Querier, m CustomerMessage) error {
	if _, err := q.Exec(ctx, `INSERT INTO customer_messages (`+customerMessageColumns+`) VALUES ($1,$2,$3,$4,$5,$6,$7)`,
		m.ID, m.VisitorID, m.FromAgent, m.AgentID, m.Content, m.Status, m.CreatedAt); err != nil {
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

// AgentVisitors lists one page of visitors, most recently active first:
// those of agentID and those nobody answers yet, or every visitor when
// agentID is 0.
func AgentVisitors(ctx context.Context, q Querier, agentID int64, limit, offset int) ([]VisitorSummary, error) {
	rows, err := q.Query(ctx, `SELECT v.id, v.user_id, v.agent_id, v.created_at, v.last_message_at,
		COALESCE(u.account, ''), COALESCE(u.nickname, ''),
		(SELECT COUNT(*) FROM customer_messages m WHERE m.visitor_id = v.id AND m.from_agent = 0 AND m.status = 1),
		COALESCE((SELECT m.content FROM customer_messages m WHERE m.visitor_id = v.id ORDER BY m.id DESC LIMIT 1), '')
		FROM customer_visitors v LEFT JOIN users u ON u.id = v.user_id
		WHERE CAST($1 AS BIGINT) = 0 OR v.agent_id = $1 OR v.agent_id = 0
		ORDER BY v.last_message_at DESC, v.id DESC LIMIT $2 OFFSET $3`, agentID, limit, offset)
	return CollectRows(rows, err, func(r Rows) (VisitorSummary, error) {
		var s VisitorSummary
		err := r.Scan(&s.ID, &s.UserID, &s.AgentID, &s.CreatedAt, &s.LastMessageAt, &s.Account, &s.Nickname, &s.Unread, &s.LastContent)
		return s, err
	})
}

// CountAgentVisitors counts what AgentVisitors pages through.
func CountAgentVisitors(ctx context.Context, q Querier, agentID int64) (int, error) {
	return count(ctx, q, `SELECT COUNT(*) FROM customer_visitors v WHERE CAST($1 AS BIGINT) = 0 OR v.agent_id = $1 OR v.agent_id = 0`, agentID)
}
