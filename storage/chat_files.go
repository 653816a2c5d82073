package storage

import "context"

// ChatFile is a file uploaded for chat messages, served under /files/.
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
