package storage

import (
	"context"
	"errors"
	"strconv"
	"strings"
)

// ChatFile is a file uploaded for chat messages, served under /files/chat/
// to its readers only (ChatFileReadable).
type ChatFile struct {
	ID          int64
	OwnerID     int64
	Path        string // relative to the files directory, e.g. chat/12/34.png
	ContentType string
	Size        int64
	Name        string
	CreatedAt   int64
}

// CreateChatFile records an upload.
func CreateChatFile(ctx context.Context, q Querier, f ChatFile) error {
	_, err := q.Exec(ctx, `INSERT INTO chat_files (id, owner_id, path, content_type, size, name, created_at)
		VALUES ($1,$2,$3,$4,$5,$6,$7)`, f.ID, f.OwnerID, f.Path, f.ContentType, f.Size, f.Name, f.CreatedAt)
	return err
}

// ChatFileByPath finds an upload by its path; ErrNotFound when no upload
// has it.
func ChatFileByPath(ctx context.Context, q Querier, path string) (ChatFile, error) {
	var f ChatFile
	err := q.QueryRow(ctx, `SELECT id, owner_id, path, content_type, size, name, created_at FROM chat_files WHERE path = $1`, path).
		Scan(&f.ID, &f.OwnerID, &f.Path, &f.ContentType, &f.Size, &f.Name, &f.CreatedAt)
	return f, err
}

// ShareChatFile records that file fileID was sent in conversation convID,
// so the conversation's members may fetch it. Sharing twice is a no-op.
func ShareChatFile(ctx context.Context, q Querier, fileID int64, convID string) error {
	_, err := q.Exec(ctx, `INSERT INTO chat_file_shares (file_id, conversation_id) VALUES ($1,$2)
		ON CONFLICT (file_id, conversation_id) DO NOTHING`, fileID, convID)
	return err
}

// ChatFileConversations lists the conversations file fileID was sent in.
func ChatFileConversations(ctx context.Context, q Querier, fileID int64) ([]string, error) {
	rows, err := q.Query(ctx, `SELECT conversation_id FROM chat_file_shares WHERE file_id = $1 ORDER BY conversation_id`, fileID)
	return CollectRows(rows, err, func(r Rows) (string, error) {
		var s string
		return s, r.Scan(&s)
	})
}

// ChatFileReader is who asks for a chat attachment: a user, and whether
// they answer customer service (operators see every visitor's pictures).
type ChatFileReader struct {
	UserID int64
	Agent  bool
}

// ChatFileReadable reports whether r may fetch f: the uploader, a peer of
// a one-to-one conversation it was sent in, a current member of a group it
// was sent in, and for customer service the visitor's user and the agents.
// Membership is read now, not when the file was sent: a member who left
// a group is refused from then on.
func ChatFileReadable(ctx context.Context, q Querier, f ChatFile, r ChatFileReader) (bool, error) {
	if r.UserID != 0 && f.OwnerID == r.UserID {
		return true, nil
	}
	convs, err := ChatFileConversations(ctx, q, f.ID)
	if err != nil {
		return false, err
	}
	me := FormatID(r.UserID)
	for _, c := range convs {
		switch {
		case strings.HasPrefix(c, "si_"):
			a, b, ok := strings.Cut(strings.TrimPrefix(c, "si_"), "_")
			if ok && r.UserID != 0 && (a == me || b == me) {
				return true, nil
			}
		case strings.HasPrefix(c, "sg_"):
			gid, err := strconv.ParseInt(strings.TrimPrefix(c, "sg_"), 10, 64)
			if err != nil || r.UserID == 0 {
				continue
			}
			switch _, err := ChatGroupMemberOf(ctx, q, gid, r.UserID); {
			case err == nil:
				return true, nil
			case !errors.Is(err, ErrNotFound):
				return false, err
			}
		case strings.HasPrefix(c, "cs_"):
			if r.Agent {
				return true, nil
			}
			vid, err := strconv.ParseInt(strings.TrimPrefix(c, "cs_"), 10, 64)
			if err != nil || r.UserID == 0 {
				continue
			}
			switch v, err := VisitorByID(ctx, q, vid); {
			case err == nil && v.UserID == r.UserID:
				return true, nil
			case err != nil && !errors.Is(err, ErrNotFound):
				return false, err
			}
		}
	}
	return false, nil
}

// MediaSecret answers the stored key that signs attachment URLs, storing
// candidate first when there is none yet (the first node to ask wins).
func MediaSecret(ctx context.Context, q Querier, candidate string) (string, error) {
	if _, err := q.Exec(ctx, `INSERT INTO media_secrets (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING`, candidate); err != nil {
		return "", err
	}
	var s string
	err := q.QueryRow(ctx, `SELECT secret FROM media_secrets WHERE id = 1`).Scan(&s)
	return s, err
}
