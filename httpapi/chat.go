package httpapi

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"kj/actors/chat"
	"kj/internal/apierr"
	"kj/storage"
)

// createGroupRequest is the body of /user/createGroup: a group or channel
// to create, flat as the web app sends it.
type createGroupRequest struct {
	GroupName        string   `json:"groupName"`
	FaceURL          string   `json:"faceURL"`
	Introduction     string   `json:"introduction"`
	Notification     string   `json:"notification"`
	GroupType        int      `json:"groupType"`        // 2 group (default), 3 channel
	NeedVerification *int     `json:"needVerification"` // 0 apply needs approval, 1 all, 2 none
	MemberUserIDs    []string `json:"memberUserIDs"`
	AdminUserIDs     []string `json:"adminUserIDs"`
}

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
	nick, err := searchName(req.Nickname, "nickname", 10)
	if err != nil {
		return nil, err
	}
	users, err := storage.SearchUsersByNickname(c.Ctx, s.DB, nick, 20)
	if err != nil {
		return nil, err
	}
	return contentMap(users, func(u storage.User) chatUserView {
		return chatUserView{UserID: u.IDString(), Nickname: u.Nickname, FaceURL: u.Avatar}
	}), nil
}

// chatGroupsByName searches live groups and channels by name.
func (s *Server) chatGroupsByName(c *Call) (any, error) {
	var req struct {
		GroupName string `json:"groupName"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	name, err := searchName(req.GroupName, "groupName", 64)
	if err != nil {
		return nil, err
	}
	gs, err := storage.SearchChatGroupsByName(c.Ctx, s.DB, name, 20)
	if err != nil {
		return nil, err
	}
	// Outsiders see a group's public face only, not its announcement.
	return chat.GroupsSeenBy(c.Ctx, s.DB, c.User.ID, gs)
}

// searchName is the name a search asks for, trimmed: required, and of at
// most maxRunes characters.
func searchName(name, field string, maxRunes int) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", apierr.Required(field)
	}
	if utf8.RuneCountInString(name) > maxRunes {
		return "", apierr.Invalid(field)
	}
	return name, nil
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
		return nil, apierr.Invalid("groupType")
	}
	gs, err := storage.UserChatGroups(c.Ctx, s.DB, c.User.ID, req.GroupType)
	if err != nil {
		return nil, err
	}
	return chatGroupViews(gs), nil
}

func (s *Server) chatCreateGroup(c *Call) (any, error) {
	var req createGroupRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if s.Chat == nil {
		return nil, apierr.Fail(apierr.CodeSystemBusy, "system.busy")
	}
	// Created through the group's actor, as on the socket, so both paths
	// follow the same rules and notify the same sockets.
	return s.Chat.CreateGroup(c.Ctx, c.User.ID, chat.CreateGroupParams{
		MemberUserIDs: req.MemberUserIDs, AdminUserIDs: req.AdminUserIDs,
		GroupInfo: chat.GroupInfo{
			GroupName: &req.GroupName, FaceURL: &req.FaceURL, Introduction: &req.Introduction,
			Notification: &req.Notification, GroupType: &req.GroupType, NeedVerification: req.NeedVerification,
		},
	})
}

func (s *Server) chatDismissGroup(c *Call) (any, error) {
	var req struct {
		GroupID string `json:"groupID"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.GroupID == "" {
		return nil, apierr.Required("groupID")
	}
	if s.Chat == nil {
		return nil, apierr.Fail(apierr.CodeSystemBusy, "system.busy")
	}
	return nil, s.Chat.DismissGroupAndWait(c.Ctx, c.User.ID, req.GroupID)
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
	body := http.MaxBytesReader(c.W, c.R.Body, chat.UploadMax+1<<20)
	mt, params, err := mime.ParseMediaType(c.R.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return nil, apierr.Fail(apierr.CodeBadRequest, "bad.request")
	}
	c.R.Body = body
	mr, err := c.R.MultipartReader()
	if err != nil {
		return nil, apierr.Fail(apierr.CodeBadRequest, "bad.request")
	}
	kind := "file"
	dir := filepath.Join(s.Config.DataDir, "files", "chat")
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, apierr.Required("file")
		}
		if err != nil {
			return nil, uploadReadErr(err)
		}
		switch part.FormName() {
		case "kind":
			b, _ := io.ReadAll(io.LimitReader(part, 16))
			kind = strings.TrimSpace(string(b))
			if uploadKinds[kind] == nil {
				return nil, apierr.Invalid("kind")
			}
		case "file":
			return s.saveUpload(c, part, kind, dir)
		}
	}
}

func uploadReadErr(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return apierr.ChatError(apierr.CodeChatUploadTooLarge, "max", chat.UploadMax>>20).WithStatus(http.StatusRequestEntityTooLarge)
	}
	return apierr.Fail(apierr.CodeBadRequest, "bad.request")
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
		return nil, apierr.Required("file")
	}
	ctype := http.DetectContentType(head)
	ext, ok := uploadKinds[kind][ctype]
	if !ok {
		return nil, apierr.ChatError(apierr.CodeChatUploadType)
	}
	// The file's name is 128 random bits: its URL is the key to it (the
	// chat hands it only to the conversation's members), so it must not
	// follow from the uploader's id or the time.
	key := randomHex(16)
	dir = filepath.Join(dir, key[:2])
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	id := storage.NewID()
	final := filepath.Join(dir, key+"."+ext)
	tmp, err := os.CreateTemp(dir, ".upload-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	size, err := io.Copy(tmp, io.MultiReader(strings.NewReader(string(head)), io.LimitReader(part, chat.UploadMax+1-int64(n))))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, uploadReadErr(err)
	}
	if size > chat.UploadMax {
		return nil, apierr.ChatError(apierr.CodeChatUploadTooLarge, "max", chat.UploadMax>>20).WithStatus(http.StatusRequestEntityTooLarge)
	}
	if err := os.Rename(tmp.Name(), final); err != nil {
		return nil, err
	}
	rel := path.Join("chat", key[:2], key+"."+ext)
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

// randomHex is n random bytes in hex.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
