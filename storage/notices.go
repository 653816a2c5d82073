package storage

// Notices operators publish to every user or to one user, and each user's
// read state: a
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
	UserID    int64 // the one user it is for; 0: every user
	CreatedAt int64
	UpdatedAt int64
	Read      bool
	Texts     Texts // the title and content in other languages
}

const noticeColumns = `n.id, n.title, n.content, n.created_by, n.user_id, n.created_at, n.updated_at, n.texts`

func scanNotice(r Row, extra ...any) (Notice, error) {
	var n Notice
	var texts string
	err := r.Scan(append([]any{&n.ID, &n.Title, &n.Content, &n.CreatedBy, &n.UserID, &n.CreatedAt, &n.UpdatedAt, &texts}, extra...)...)
	return n, scanTexts(err, texts, &n.Texts)
}

// forUser narrows notices n to those user $1 receives: everyone's and its own.
const forUser = `(n.user_id = 0 OR n.user_id = $1)`

// CreateNotice inserts n; its ID must be a fresh NewID so it sorts after
// every earlier notice (the read-all mark relies on that).
func CreateNotice(ctx context.Context, q Querier, n Notice) error {
	defer touchedAll(q) // an unread notice for everyone, or for n.UserID
	_, err := q.Exec(ctx, `INSERT INTO notices (id, title, content, created_by, user_id, created_at, updated_at, texts) VALUES ($1,$2,$3,$4,$5,$6,$7,$8)`,
		n.ID, n.Title, n.Content, n.CreatedBy, n.UserID, n.CreatedAt, n.UpdatedAt, n.Texts.json())
	return err
}

// UpdateNotice changes the title and content of a notice.
func UpdateNotice(ctx context.Context, q Querier, n Notice) error {
	return affected(q.Exec(ctx, `UPDATE notices SET title = $2, content = $3, updated_at = $4, texts = $5 WHERE id = $1`,
		n.ID, n.Title, n.Content, n.UpdatedAt, n.Texts.json()))
}

// DeleteNotice removes a notice and its read rows.
func DeleteNotice(ctx context.Context, q Querier, id int64) error {
	defer touchedAll(q)
	if _, err := q.Exec(ctx, `DELETE FROM notice_reads WHERE notice_id = $1`, id); err != nil {
		return err
	}
	return affected(q.Exec(ctx, `DELETE FROM notices WHERE id = $1`, id))
}

// NoticeByID loads one notice (Read unset).
func NoticeByID(ctx context.Context, q Querier, id int64) (Notice, error) {
	return scanNotice(q.QueryRow(ctx, `SELECT `+noticeColumns+` FROM notices n WHERE n.id = $1`, id))
}

// CountNotices counts every notice.
func CountNotices(ctx context.Context, q Querier) (int, error) {
	return count(ctx, q, `SELECT COUNT(*) FROM notices`)
}

// ListNotices lists one page of notices, newest first (Read unset).
func ListNotices(ctx context.Context, q Querier, limit, offset int) ([]Notice, error) {
	rows, err := q.Query(ctx, `SELECT `+noticeColumns+` FROM notices n ORDER BY n.id DESC LIMIT $1 OFFSET $2`, limit, offset)
	return CollectRows(rows, err, func(r Rows) (Notice, error) { return scanNotice(r) })
}

// readClause is true for a notice n that user $1 has read.
const readClause = `(n.id <= COALESCE((SELECT m.upto FROM notice_read_marks m WHERE m.user_id = $1), 0)
	OR EXISTS (SELECT 1 FROM notice_reads r WHERE r.user_id = $1 AND r.notice_id = n.id))`

// CountUserNotices counts the notices userID receives.
func CountUserNotices(ctx context.Context, q Querier, userID int64) (int, error) {
	return count(ctx, q, `SELECT COUNT(*) FROM notices n WHERE `+forUser, userID)
}

// UserNotices lists one page of the notices userID receives, newest first,
// with their read state.
func UserNotices(ctx context.Context, q Querier, userID int64, limit, offset int) ([]Notice, error) {
	rows, err := q.Query(ctx, `SELECT `+noticeColumns+`, CASE WHEN `+readClause+` THEN 1 ELSE 0 END
		FROM notices n WHERE `+forUser+` ORDER BY n.id DESC LIMIT $2 OFFSET $3`, userID, limit, offset)
	return CollectRows(rows, err, func(r Rows) (Notice, error) {
		var read int
		n, err := scanNotice(r, &read)
		n.Read = read == 1
		return n, err
	})
}

// UserNotice loads one notice userID receives, with its read state;
// ErrNotFound for another user's notice.
func UserNotice(ctx context.Context, q Querier, userID, id int64) (Notice, error) {
	var read int
	n, err := scanNotice(q.QueryRow(ctx, `SELECT `+noticeColumns+`, CASE WHEN `+readClause+` THEN 1 ELSE 0 END
		FROM notices n WHERE n.id = $2 AND `+forUser, userID, id), &read)
	n.Read = read == 1
	return n, err
}

// UnreadNotices counts the notices userID receives and has not read (the
// "notice" badge of the mine page).
func UnreadNotices(ctx context.Context, q Querier, userID int64) (int, error) {
	return count(ctx, q, `SELECT COUNT(*) FROM notices n WHERE `+forUser+` AND NOT `+readClause, userID)
}

// MarkNoticeRead records that userID read notice id and reports whether it
// was unread before. ErrNotFound when the notice does not exist.
func MarkNoticeRead(ctx context.Context, q Querier, userID, id, at int64) (bool, error) {
	defer touched(q, userID)
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
	defer touched(q, userID)
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
