package httpapi

import (
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"kj/storage"
)

// Chat is what the chat routes need from the chat engine: groups are
// created and dismissed through the same actors as on the socket, so both
// paths follow the same rules and notify the same sockets.
type Chat interface {
	NewGroup(ctx context.Context, ownerID int64, g ChatNewGroup) (any, error)
	EndGroup(ctx context.Context, ownerID int64, groupID string) error
}

// ChatNewGroup is a group or channel to create.
type ChatNewGroup struct {
	GroupName        string   `json:"groupName"`
	FaceURL          string   `json:"faceURL"`
	Introduction     string   `json:"introduction"`
	Notification     string   `json:"notification"`
	GroupType        int      `json:"groupType"`        // 2 group (default), 3 channel
	NeedVerification *int     `json:"needVerification"` // 0 apply needs approval, 1 all, 2 none
	MemberUserIDs    []string `json:"memberUserIDs"`
	AdminUserIDs     []string `json:"adminUserIDs"`
}

// ChatUploadMax caps one chat upload.
const ChatUploadMax = 50 << 20

func init() {
	registerArea(func(s *Server) {
		s.Post("/openIm/getUserByNick", User, s.chatUsersByNick)
		s.Post("/openIm/getGroupByName", User, s.chatGroupsByName)
		s.Post("/user/getUserGroups", User, s.chatUserGroups)
		s.Post("/user/createGroup", User, s.chatCreateGroup)
		s.Post("/user/dismissGroup", User, s.chatDismissGroup)
		s.Post("/chat/upload", User, s.chatUpload)
	})
}

// chatUserView is the public view of a user found by nickname.
type chatUserView struct {
	UserID   string `json:"userID"`
	Nickname string `json:"nickname"`
	FaceURL  string `json:"faceURL"`
}

// chatGroupView is a group as the chat protocol shows it (GroupItem).
type chatGroupView struct {
	GroupID          string `json:"groupID"`
	GroupName        string `json:"groupName"`
	FaceURL          string `json:"faceURL"`
	Introduction     string `json:"introduction"`
	Notification     string `json:"notification"`
	OwnerUserID      string `json:"ownerUserID"`
	CreateTime       int64  `json:"createTime"`
	MemberCount      int    `json:"memberCount"`
	Status           int    `json:"status"`
	GroupType        int    `json:"groupType"`
	NeedVerification int    `json:"needVerification"`
}

func chatGroupViews(gs []storage.ChatGroup) []chatGroupView {
	out := make([]chatGroupView, len(gs))
	for i, g := range gs {
		out[i] = chatGroupView{
			GroupID: storage.FormatID(g.ID), GroupName: g.Name, FaceURL: g.FaceURL, Introduction: g.Introduction,
			Notification: g.Notification, OwnerUserID: storage.FormatID(g.OwnerID), CreateTime: g.CreatedAt,
			MemberCount: g.MemberCount, Status: g.Status, GroupType: g.GroupType, NeedVerification: g.NeedVerification,
		}
	}
	return out
}

// chatUsersByNick searches users by nickname (contains, exact match first).
func (s *Server) chatUsersByNick(c *Call) (any, error) {
	var req struct {
		Nickname string `json:"nickname"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	nick := strings.TrimSpace(req.Nickname)
	if nick == "" {
		return nil, Required("nickname")
	}
	if utf8.RuneCountInString(nick) > 10 {
		return nil, Invalid("nickname")
	}
	users, err := storage.SearchUsersByNickname(c.Ctx, s.DB, nick, 20)
	if err != nil {
		return nil, err
	}
	out := make([]chatUserView, len(users))
	for i, u := range users {
		out[i] = chatUserView{UserID: u.IDString(), Nickname: u.Nickname, FaceURL: u.Avatar}
	}
	return out, nil
}

// chatGroupsByName searches live groups and channels by name.
func (s *Server) chatGroupsByName(c *Call) (any, error) {
	var req struct {
		GroupName string `json:"groupName"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	name := strings.TrimSpace(req.GroupName)
	if name == "" {
		return nil, Required("groupName")
	}
	if utf8.RuneCountInString(name) > 64 {
		return nil, Invalid("groupName")
	}
	gs, err := storage.SearchChatGroupsByName(c.Ctx, s.DB, name, 20)
	if err != nil {
		return nil, err
	}
	return chatGroupViews(gs), nil
}

// chatUserGroups lists the caller's groups (groupType 2) or channels (3),
// or both when groupType is 0 or absent.
func (s *Server) chatUserGroups(c *Call) (any, error) {
	var req struct {
		GroupType int `json:"groupType"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.GroupType != 0 && req.GroupType != storage.GroupTypeGroup && req.GroupType != storage.GroupTypeChannel {
		return nil, Invalid("groupType")
	}
	gs, err := storage.UserChatGroups(c.Ctx, s.DB, c.User.ID, req.GroupType)
	if err != nil {
		return nil, err
	}
	return chatGroupViews(gs), nil
}

func (s *Server) chatCreateGroup(c *Call) (any, error) {
	var req ChatNewGroup
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if s.Chat == nil {
		return nil, Fail(CodeSystemBusy, "system.busy")
	}
	return s.Chat.NewGroup(c.Ctx, c.User.ID, req)
}

func (s *Server) chatDismissGroup(c *Call) (any, error) {
	var req struct {
		GroupID string `json:"groupID"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.GroupID == "" {
		return nil, Required("groupID")
	}
	if s.Chat == nil {
		return nil, Fail(CodeSystemBusy, "system.busy")
	}
	return nil, s.Chat.EndGroup(c.Ctx, c.User.ID, req.GroupID)
}

// uploadKinds are the sniffed content types accepted per kind of chat
// media, with the extension the stored file gets (never the client's, so a
// file is always served with a harmless type).
var uploadKinds = map[string]map[string]string{
	"image": {"image/jpeg": "jpg", "image/png": "png", "image/gif": "gif", "image/webp": "webp", "image/bmp": "bmp"},
	"sound": {"audio/mpeg": "mp3", "audio/wave": "wav", "application/ogg": "ogg", "audio/aiff": "aiff",
		"video/webm": "webm", "video/mp4": "m4a"},
	"video": {"video/mp4": "mp4", "video/webm": "webm", "video/avi": "avi"},
}

func init() {
	file := map[string]string{"application/pdf": "pdf", "application/zip": "zip", "application/x-gzip": "gz",
		"application/x-rar-compressed": "rar", "text/plain; charset=utf-8": "txt", "application/octet-stream": "bin"}
	for _, k := range []string{"image", "sound", "video"} {
		for t, ext := range uploadKinds[k] {
			file[t] = ext
		}
	}
	uploadKinds["file"] = file
}

// chatUpload stores one file for a chat message (multipart field "file",
// optional field "kind": image, sound, video or file). The type is sniffed
// from the content and must suit the kind; the size is capped. The answer's
// url is what Create*MessageByURL accepts.
func (s *Server) chatUpload(c *Call) (any, error) {
	body := http.MaxBytesReader(c.W, c.R.Body, ChatUploadMax+1<<20)
	mt, params, err := mime.ParseMediaType(c.R.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return nil, Fail(CodeBadRequest, "bad.request")
	}
	c.R.Body = body
	mr, err := c.R.MultipartReader()
	if err != nil {
		return nil, Fail(CodeBadRequest, "bad.request")
	}
	kind := "file"
	dir := filepath.Join(s.Config.DataDir, "files", "chat", c.User.IDString())
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, Required("file")
		}
		if err != nil {
			return nil, uploadReadErr(err)
		}
		switch part.FormName() {
		case "kind":
			b, _ := io.ReadAll(io.LimitReader(part, 16))
			kind = strings.TrimSpace(string(b))
			if uploadKinds[kind] == nil {
				return nil, Invalid("kind")
			}
		case "file":
			return s.saveUpload(c, part, kind, dir)
		}
	}
}

func uploadReadErr(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return ChatError(CodeChatUploadTooLarge, "max", ChatUploadMax>>20).WithStatus(http.StatusRequestEntityTooLarge)
	}
	return Fail(CodeBadRequest, "bad.request")
}

func (s *Server) saveUpload(c *Call, part io.Reader, kind, dir string) (any, error) {
	name := ""
	if p, ok := part.(interface{ FileName() string }); ok {
		name = cleanFileName(p.FileName())
	}
	head := make([]byte, 512)
	n, err := io.ReadFull(part, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, uploadReadErr(err)
	}
	head = head[:n]
	if n == 0 {
		return nil, Required("file")
	}
	ctype := http.DetectContentType(head)
	ext, ok := uploadKinds[kind][ctype]
	if !ok {
		return nil, ChatError(CodeChatUploadType)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	id := storage.NewID()
	final := filepath.Join(dir, storage.FormatID(id)+"."+ext)
	tmp, err := os.CreateTemp(dir, ".upload-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	size, err := io.Copy(tmp, io.MultiReader(strings.NewReader(string(head)), io.LimitReader(part, ChatUploadMax+1-int64(n))))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, uploadReadErr(err)
	}
	if size > ChatUploadMax {
		return nil, ChatError(CodeChatUploadTooLarge, "max", ChatUploadMax>>20).WithStatus(http.StatusRequestEntityTooLarge)
	}
	if err := os.Rename(tmp.Name(), final); err != nil {
		return nil, err
	}
	rel := path.Join("chat", c.User.IDString(), storage.FormatID(id)+"."+ext)
	ct := strings.TrimSuffix(ctype, "; charset=utf-8")
	f := storage.ChatFile{ID: id, OwnerID: c.User.ID, Path: rel, ContentType: ct, Size: size, Name: name, CreatedAt: s.Clock.Now().UnixMilli()}
	if err := storage.CreateChatFile(c.Ctx, s.DB, f); err != nil {
		os.Remove(final)
		return nil, err
	}
	return map[string]any{"url": "/files/" + rel, "name": name, "size": size, "contentType": ct}, nil
}

// cleanFileName keeps the base name of an uploaded file, for display only.
func cleanFileName(n string) string {
	n = path.Base(strings.ReplaceAll(n, `\`, "/"))
	if n == "." || n == "/" || !utf8.ValidString(n) {
		return ""
	}
	if utf8.RuneCountInString(n) > 255 {
		n = string([]rune(n)[:255])
	}
	return n
}
