package storage

// Notices operators publish to every user, and each user's read state: a
// read-all mark (the newest notice id read by "read all") plus one row per
// notice read on its own above the mark.

import (
	"context"
	"errors"
)

// Notice is one published notice; Read is set when loaded for a user.
type Notice struct {
	ID        int64
	Title     string
	Content   string
	CreatedBy int64
	CreatedAt int64
	UpdatedAt int64
	Read      bool
}

const noticeColumns = `n.id, n.title, n.content, n.created_by, n.created_at, n.updated_at`

func scanNotice(r Row) (Notice, error) {
	var n Notice
	err := r.Scan(&n.ID, &n.Title, &n.Content, &n.CreatedBy, &n.CreatedAt, &n.UpdatedAt)
	return n, err
}

// CreateNotice inserts n; its ID must be a fresh NewID so it sorts after
// every earlier notice (the read-all mark relies on that).
func CreateNotice(ctx context.Context, q Querier, n Notice) error {
	_, err := q.Exec(ctx, `INSERT INTO notices (id, title, content, created_by, created_at, updated_at) VALUES ($1,$2,$3,$4,$5,$6)`,
		n.ID, n.Title, n.Content, n.CreatedBy, n.CreatedAt, n.UpdatedAt)
	return err
}

// UpdateNotice changes the title and content of a notice.
func UpdateNotice(ctx context.Context, q Querier, n Notice) error {
	return deleted(q.Exec(ctx, `UPDATE notices SET title = $2, content = $3, updated_at = $4 WHERE id = $1`,
		n.ID, n.Title, n.Content, n.UpdatedAt))
}

// DeleteNotice removes a notice and its read rows.
func DeleteNotice(ctx context.Context, q Querier, id int64) error {
	if _, err := q.Exec(ctx, `DELETE FROM notice_reads WHERE notice_id = $1`, id); err != nil {
		return err
	}
	return deleted(q.Exec(ctx, `DELETE FROM notices WHERE id = $1`, id))
}

// NoticeByID loads one notice (Read unset).
func NoticeByID(ctx context.Context, q Querier, id int64) (Notice, error) {
	return scanNotice(q.QueryRow(ctx, `SELECT `+noticeColumns+` FROM notices n WHERE n.id = $1`, id))
}

// CountNotices counts every notice.
func CountNotices(ctx context.Context, q Querier) (int, error) {
	var n int
	err := q.QueryRow(ctx, `SELECT COUNT(*) FROM notices`).Scan(&n)
	return n, err
}

// ListNotices lists one page of notices, newest first (Read unset).
func ListNotices(ctx context.Context, q Querier, limit, offset int) ([]Notice, error) {
	rows, err := q.Query(ctx, `SELECT `+noticeColumns+` FROM notices n ORDER BY n.id DESC LIMIT $1 OFFSET $2`, limit, offset)
	return CollectRows(rows, err, func(r Rows) (Notice, error) { return scanNotice(r) })
}

// readClause is true for a notice n that user $1 has read.
const readClause = `(n.id <= COALESCE((SELECT m.upto FROM notice_read_marks m WHERE m.user_id = $1), 0)
	OR EXISTS (SELECT 1 FROM notice_reads r WHERE r.user_id = $1 AND r.notice_id = n.id))`

// UserNotices lists one page of notices for userID, newest first, with
// their read state.
func UserNotices(ctx context.Context, q Querier, userID int64, limit, offset int) ([]Notice, error) {
	rows, err := q.Query(ctx, `SELECT `+noticeColumns+`, CASE WHEN `+readClause+` THEN 1 ELSE 0 END
		FROM notices n ORDER BY n.id DESC LIMIT $2 OFFSET $3`, userID, limit, offset)
	return CollectRows(rows, err, func(r Rows) (Notice, error) {
		var n Notice
		var read int
		err := r.Scan(&n.ID, &n.Title, &n.Content, &n.CreatedBy, &n.CreatedAt, &n.UpdatedAt, &read)
		n.Read = read == 1
		return n, err
	})
}

// UserNotice loads one notice with userID's read state.
func UserNotice(ctx context.Context, q Querier, userID, id int64) (Notice, error) {
	var n Notice
	var read int
	err := q.QueryRow(ctx, `SELECT `+noticeColumns+`, CASE WHEN `+readClause+` THEN 1 ELSE 0 END
		FROM notices n WHERE n.id = $2`, userID, id).Scan(&n.ID, &n.Title, &n.Content, &n.CreatedBy, &n.CreatedAt, &n.UpdatedAt, &read)
	n.Read = read == 1
	return n, err
}

// UnreadNotices counts the notices userID has not read (the "notice" badge
// of the mine page).
func UnreadNotices(ctx context.Context, q Querier, userID int64) (int, error) {
	var n int
	err := q.QueryRow(ctx, `SELECT COUNT(*) FROM notices n WHERE NOT `+readClause, userID).Scan(&n)
	return n, err
}

// MarkNoticeRead records that userID read notice id and reports whether it
// was unread before. ErrNotFound when the notice does not exist.
func MarkNoticeRead(ctx context.Context, q Querier, userID, id, at int64) (bool, error) {
	n, err := UserNotice(ctx, q, userID, id)
	if err != nil {
		return false, err
	}
	if n.Read {
		return false, nil
	}
	_, err = q.Exec(ctx, `INSERT INTO notice_reads (user_id, notice_id, read_at) VALUES ($1, $2, $3)
		ON CONFLICT (user_id, notice_id) DO NOTHING`, userID, id, at)
	return err == nil, err
}

// MarkAllNoticesRead marks every current notice read for userID by moving
// the read-all mark to the newest notice, drops the rows the mark now
// covers, and returns how many notices were unread.
func MarkAllNoticesRead(ctx context.Context, q Querier, userID, at int64) (int, error) {
	unread, err := UnreadNotices(ctx, q, userID)
	if err != nil {
		return 0, err
	}
	var newest int64
	err = q.QueryRow(ctx, `SELECT COALESCE(MAX(id), 0) FROM notices`).Scan(&newest)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return 0, err
	}
	if newest == 0 {
		return 0, nil
	}
	if _, err := q.Exec(ctx, `INSERT INTO notice_read_marks (user_id, upto, read_at) VALUES ($1, $2, $3)
		ON CONFLICT (user_id) DO UPDATE SET upto = excluded.upto, read_at = excluded.read_at
		WHERE notice_read_marks.upto < excluded.upto`, userID, newest, at); err != nil {
		return 0, err
	}
	if _, err := q.Exec(ctx, `DELETE FROM notice_reads WHERE user_id = $1 AND notice_id <= $2`, userID, newest); err != nil {
		return 0, err
	}
	return unread, nil
}
