package storage

// The audit log: every operator action (who, what, when), written in the
// transaction of the action itself so a change and its record stand or fall
// together. Any area's operator routes record here.

import (
	"context"
	"encoding/json"
)

// AuditEntry is one operator action. Detail is a JSON document of what
// changed (never secrets).
type AuditEntry struct {
	ID         int64
	OperatorID int64
	Action     string // e.g. "banner.create", "notice.publish"
	Target     string // the id or name acted on
	Detail     string
	CreatedAt  int64
	// Operator is the operator's account, filled by ListAudit.
	Operator string
}

// RecordAudit appends an entry; detail is encoded as JSON. Call it with the
// transaction of the action.
func RecordAudit(ctx context.Context, q Querier, operatorID int64, action, target string, detail any, at int64) error {
	d := "{}"
	if detail != nil {
		b, err := json.Marshal(detail)
		if err != nil {
			return err
		}
		d = string(b)
	}
	_, err := q.Exec(ctx, `INSERT INTO audit_log (id, operator_id, action, target, detail, created_at) VALUES ($1,$2,$3,$4,$5,$6)`,
		NewID(), operatorID, action, target, d, at)
	return err
}

// AuditFilter narrows ListAudit; zero values match everything.
type AuditFilter struct {
	Action     string
	OperatorID int64
	Operator   string // any part of the operator's account (case-insensitive, wildcards literal)
	Target     string
	From, To   int64 // [From, To) in unix ms; 0 leaves that side open
}

const auditWhere = ` WHERE ($1 = '' OR a.action = $1) AND (CAST($2 AS BIGINT) = 0 OR a.operator_id = $2)
	AND ($3 = '%%' OR LOWER(u.account) LIKE $3 ESCAPE '\') AND ($4 = '' OR a.target = $4)
	AND (CAST($5 AS BIGINT) = 0 OR a.created_at >= $5) AND (CAST($6 AS BIGINT) = 0 OR a.created_at < $6)`

func (f AuditFilter) args(more ...any) []any {
	return append([]any{f.Action, f.OperatorID, likePattern(f.Operator), f.Target, f.From, f.To}, more...)
}

// CountAudit counts the entries matching f.
func CountAudit(ctx context.Context, q Querier, f AuditFilter) (int, error) {
	return count(ctx, q, `SELECT COUNT(*) FROM audit_log a LEFT JOIN users u ON u.id = a.operator_id`+auditWhere, f.args()...)
}

// ListAudit lists one page of entries matching f, newest first.
func ListAudit(ctx context.Context, q Querier, f AuditFilter, limit, offset int) ([]AuditEntry, error) {
	rows, err := q.Query(ctx, `SELECT a.id, a.operator_id, a.action, a.target, a.detail, a.created_at, COALESCE(u.account, '')
		FROM audit_log a LEFT JOIN users u ON u.id = a.operator_id`+auditWhere+`
		ORDER BY a.id DESC LIMIT $7 OFFSET $8`, f.args(limit, offset)...)
	return CollectRows(rows, err, func(r Rows) (AuditEntry, error) {
		var e AuditEntry
		err := r.Scan(&e.ID, &e.OperatorID, &e.Action, &e.Target, &e.Detail, &e.CreatedAt, &e.Operator)
		return e, err
	})
}
