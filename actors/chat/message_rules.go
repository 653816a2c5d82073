package chat

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"kj/internal/apierr"
	"kj/storage"
)

// Limits on message elements.
const (
	maxTextRunes    = 5000
	maxSmallText    = 1000 // titles, descriptions, names, ex
	maxCustomData   = 16 << 10
	maxMergeItems   = 100
	maxAtUsers      = 100
	maxNestDepth    = 2 // a quote inside a merge inside a message
	maxClientMsgID  = 64
	maxMediaSeconds = 24 * 3600
)

// singleConversationID is OpenIM's id of a 1:1 chat: the two user ids in
// string order (as a JavaScript client sorts them).
func singleConversationID(a, b string) string {
	if a > b {
		a, b = b, a
	}
	return "si_" + a + "_" + b
}

// groupConversationID is the id of a group or channel conversation.
func groupConversationID(groupID int64) string { return "sg_" + storage.FormatID(groupID) }

// convRef is a parsed conversation id.
type convRef struct {
	ID          string
	SessionType int
	A, B        int64 // the two users of a 1:1 chat
	GroupID     int64
}

// parseConversationID accepts si_<a>_<b>, sg_<g> and g_<g> (a client that
// says sessionType 2) and returns the canonical form.
func parseConversationID(id string) (convRef, bool) {
	switch {
	case strings.HasPrefix(id, "si_"):
		a, b, ok := strings.Cut(id[3:], "_")
		if !ok {
			return convRef{}, false
		}
		ai, err1 := parseUserID(a)
		bi, err2 := parseUserID(b)
		if err1 != nil || err2 != nil || ai == bi {
			return convRef{}, false
		}
		return convRef{ID: singleConversationID(a, b), SessionType: sessionSingle, A: ai, B: bi}, true
	case strings.HasPrefix(id, "sg_"), strings.HasPrefix(id, "g_"):
		_, g, _ := strings.Cut(id, "_")
		gi, err := parseUserID(g)
		if err != nil {
			return convRef{}, false
		}
		return convRef{ID: groupConversationID(gi), SessionType: sessionGroup, GroupID: gi}, true
	}
	return convRef{}, false
}

func (c convRef) has(me int64) bool { return c.A == me || c.B == me }

// errBadID is parseUserID's one error: callers turn it into their own
// (a send's empty groupID is parsed on every 1:1 message).
var errBadID = errors.New("bad id")

// parseUserID parses a protocol id (a positive decimal int64).
func parseUserID(s string) (int64, error) {
	if s == "" || len(s) > 19 || s[0] == '0' || s[0] == '+' || s[0] == '-' {
		return 0, errBadID
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, errBadID
	}
	return n, nil
}

// normalSessionType maps the session types clients use (1 single, 2 or 3
// group, 4 single) onto the two we store.
func normalSessionType(t int64) (int, bool) {
	switch t {
	case sessionSingle, sessionSingleLegacyNotice:
		return sessionSingle, true
	case sessionGroup, sessionGroupLegacy:
		return sessionGroup, true
	}
	return 0, false
}

// newClientMsgID is a random 32-hex id, the form OpenIM uses.
func newClientMsgID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func validClientMsgID(s string) bool {
	if s == "" || len(s) > maxClientMsgID {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// sendable says which content types a client may send.
func sendable(ct int) bool {
	switch ct {
	case TypeText, TypePicture, TypeVoice, TypeVideo, TypeFile, TypeAtText, TypeMerger, TypeCard,
		TypeLocation, TypeCustom, TypeQuote, TypeFace:
		return true
	}
	return false
}

func badMsg(field string) error {
	return apierr.ChatError(apierr.CodeChatBadMessage, "field", field)
}

func tooLong(s string, max int) bool { return utf8.RuneCountInString(s) > max }

// checker validates message elements; media URLs must name uploads of
// ours, looked up in the store.
type checker struct {
	ctx  func() context.Context // the call's (made at first use)
	db   storage.Querier
	host string // the host the client reached us at
	user int64  // the sender: nested messages must be ones they may see (message_nested.go)
	// files collects the uploads the message names (when not nil), to be
	// shared with the conversation it is sent in.
	files *[]int64
}

// checkMessage validates an outgoing message's element (and nested
// messages of merges and quotes) and rebuilds its content from it.
func (c checker) checkMessage(m *Message, depth int) error {
	if m == nil {
		return badMsg("message")
	}
	if !sendable(m.ContentType) {
		return apierr.ChatError(apierr.CodeChatUnsupportedType)
	}
	if tooLong(m.Ex, maxSmallText) {
		return badMsg("ex")
	}
	var elem any
	var err error
	switch m.ContentType {
	case TypeText:
		elem, err = m.TextElem, c.text(m.TextElem)
	case TypePicture:
		elem, err = m.PictureElem, c.picture(m.PictureElem)
	case TypeVoice:
		elem, err = m.SoundElem, c.sound(m.SoundElem)
	case TypeVideo:
		elem, err = m.VideoElem, c.video(m.VideoElem)
	case TypeFile:
		elem, err = m.FileElem, c.file(m.FileElem)
	case TypeAtText:
		elem, err = m.AtTextElem, c.atText(m.AtTextElem, depth)
	case TypeMerger:
		elem, err = m.MergeElem, c.merge(m.MergeElem, depth)
	case TypeCard:
		elem, err = m.CardElem, c.card(m.CardElem)
	case TypeLocation:
		elem, err = m.LocationElem, c.location(m.LocationElem)
	case TypeCustom:
		elem, err = m.CustomElem, c.custom(m.CustomElem)
	case TypeQuote:
		elem, err = m.QuoteElem, c.quote(m.QuoteElem, depth)
	case TypeFace:
		elem, err = m.FaceElem, c.face(m.FaceElem)
	}
	if err != nil {
		return err
	}
	keepOnly(m)
	if m.ContentType == TypeText {
		// What encoding/json renders for the TextElem, written in one
		// buffer that becomes the string (Marshal's buffer and the copy
		// were two allocations of a send).
		m.Content = textContent(m.TextElem.Content)
		return nil
	}
	b, err := json.Marshal(elem)
	if err != nil {
		return badMsg("content")
	}
	m.Content = string(b)
	return nil
}

// textContent is json.Marshal(&TextElem{Content: s}) as a string
// (TestTextContentMatchesMarshal).
func textContent(s string) string {
	const head, tail = `{"content":"`, `"}`
	b := make([]byte, 0, len(head)+escapedLen(unsafeBytes(s))+len(tail))
	b = append(b, head...)
	b = appendEscaped(b, unsafeBytes(s))
	return bytesString(append(b, tail...))
}

// keepOnly clears every element except the one of m's content type, so a
// client cannot smuggle a second element past validation.
func keepOnly(m *Message) {
	ct := m.ContentType
	if ct != TypeText {
		m.TextElem = nil
	}
	if ct != TypeCard {
		m.CardElem = nil
	}
	if ct != TypePicture {
		m.PictureElem = nil
	}
	if ct != TypeVoice {
		m.SoundElem = nil
	}
	if ct != TypeVideo {
		m.VideoElem = nil
	}
	if ct != TypeFile {
		m.FileElem = nil
	}
	if ct != TypeMerger {
		m.MergeElem = nil
	}
	if ct != TypeAtText {
		m.AtTextElem = nil
	}
	if ct != TypeFace {
		m.FaceElem = nil
	}
	if ct != TypeLocation {
		m.LocationElem = nil
	}
	if ct != TypeCustom {
		m.CustomElem = nil
	}
	if ct != TypeQuote {
		m.QuoteElem = nil
	}
	if ct < storage.ChatNoticeFrom {
		m.NotificationElem = nil
	}
	if ct != TypeTyping {
		m.TypingElem = nil
	}
}

func (c checker) text(e *TextElem) error {
	if e == nil || strings.TrimSpace(e.Content) == "" {
		return badMsg("textElem.content")
	}
	if tooLong(e.Content, maxTextRunes) {
		return badMsg("textElem.content")
	}
	return nil
}

func (c checker) picture(e *PictureElem) error {
	if e == nil || e.SourcePicture == nil {
		return badMsg("pictureElem.sourcePicture")
	}
	if tooLong(e.SourcePath, maxSmallText) {
		return badMsg("pictureElem.sourcePath")
	}
	pics := map[string]*Picture{"sourcePicture": e.SourcePicture, "bigPicture": e.BigPicture, "snapshotPicture": e.SnapshotPicture}
	for name, p := range pics {
		if p == nil {
			continue
		}
		if p.Width < 0 || p.Height < 0 || p.Size < 0 || tooLong(p.UUID, maxSmallText) || tooLong(p.Type, 100) {
			return badMsg("pictureElem." + name)
		}
		if p.URL == "" && name != "sourcePicture" {
			continue
		}
		if err := c.media(p.URL, "pictureElem."+name+".url"); err != nil {
			return err
		}
	}
	return nil
}

func (c checker) sound(e *SoundElem) error {
	if e == nil {
		return badMsg("soundElem")
	}
	if e.Duration <= 0 || e.Duration > maxMediaSeconds {
		return badMsg("soundElem.duration")
	}
	if e.DataSize < 0 || tooLong(e.SoundPath, maxSmallText) || tooLong(e.UUID, maxSmallText) {
		return badMsg("soundElem")
	}
	return c.media(e.SourceURL, "soundElem.sourceUrl")
}

func (c checker) video(e *VideoElem) error {
	if e == nil {
		return badMsg("videoElem")
	}
	if e.Duration < 0 || e.Duration > maxMediaSeconds || e.VideoSize < 0 || e.SnapshotSize < 0 ||
		e.SnapshotWidth < 0 || e.SnapshotHeight < 0 {
		return badMsg("videoElem")
	}
	if tooLong(e.VideoPath, maxSmallText) || tooLong(e.SnapshotPath, maxSmallText) || tooLong(e.VideoType, 100) {
		return badMsg("videoElem")
	}
	if err := c.media(e.VideoURL, "videoElem.videoUrl"); err != nil {
		return err
	}
	if e.SnapshotURL != "" {
		return c.media(e.SnapshotURL, "videoElem.snapshotUrl")
	}
	return nil
}

func (c checker) file(e *FileElem) error {
	if e == nil {
		return badMsg("fileElem")
	}
	if strings.TrimSpace(e.FileName) == "" || tooLong(e.FileName, 255) {
		return badMsg("fileElem.fileName")
	}
	if e.FileSize < 0 || tooLong(e.FilePath, maxSmallText) {
		return badMsg("fileElem")
	}
	return c.media(e.SourceURL, "fileElem.sourceUrl")
}

func (c checker) atText(e *AtTextElem, depth int) error {
	if e == nil || strings.TrimSpace(e.Text) == "" || tooLong(e.Text, maxTextRunes) {
		return badMsg("atTextElem.text")
	}
	if len(e.AtUserList) == 0 || len(e.AtUserList) > maxAtUsers {
		return badMsg("atTextElem.atUserList")
	}
	for _, u := range e.AtUserList {
		if u == atAllTag {
			continue
		}
		if _, err := parseUserID(u); err != nil {
			return badMsg("atTextElem.atUserList")
		}
	}
	if len(e.AtUsersInfo) > maxAtUsers {
		return badMsg("atTextElem.atUsersInfo")
	}
	e.IsAtSelf = false
	if e.QuoteMessage != nil {
		return c.nested(e.QuoteMessage, depth, "atTextElem.quoteMessage")
	}
	return nil
}

func (c checker) merge(e *MergeElem, depth int) error {
	if e == nil || strings.TrimSpace(e.Title) == "" || tooLong(e.Title, maxSmallText) {
		return badMsg("mergeElem.title")
	}
	if len(e.MultiMessage) == 0 || len(e.MultiMessage) > maxMergeItems {
		return badMsg("mergeElem.multiMessage")
	}
	if len(e.AbstractList) > maxMergeItems {
		return badMsg("mergeElem.abstractList")
	}
	for _, a := range e.AbstractList {
		if tooLong(a, maxSmallText) {
			return badMsg("mergeElem.abstractList")
		}
	}
	for _, m := range e.MultiMessage {
		if err := c.nested(m, depth, "mergeElem.multiMessage"); err != nil {
			return err
		}
	}
	return nil
}

func (c checker) quote(e *QuoteElem, depth int) error {
	if e == nil || strings.TrimSpace(e.Text) == "" || tooLong(e.Text, maxTextRunes) {
		return badMsg("quoteElem.text")
	}
	return c.nested(e.QuoteMessage, depth, "quoteElem.quoteMessage")
}

// nested checks a message carried inside another (a quote or a merge
// item): it must be a stored message the sender may see, and is replaced
// by it; same element rules, bounded depth.
func (c checker) nested(m *Message, depth int, field string) error {
	if m == nil || depth >= maxNestDepth {
		return badMsg(field)
	}
	if !validClientMsgID(m.ClientMsgID) {
		return badMsg(field + ".clientMsgID")
	}
	if err := c.resolveNested(m); err != nil {
		return err
	}
	return c.checkMessage(m, depth+1)
}

func (c checker) card(e *CardElem) error {
	if e == nil {
		return badMsg("cardElem.userID")
	}
	id, err := parseUserID(e.UserID)
	if err != nil {
		return badMsg("cardElem.userID")
	}
	u, err := storage.UserByID(c.ctx(), c.db, id)
	if errors.Is(err, storage.ErrNotFound) {
		return apierr.ChatError(apierr.CodeChatUserNotFound)
	}
	if err != nil {
		return err
	}
	// The card shows the user as they are, not as the sender says.
	e.Nickname, e.FaceURL = u.Nickname, u.Avatar
	if tooLong(e.Ex, maxSmallText) {
		return badMsg("cardElem.ex")
	}
	return nil
}

func (c checker) location(e *LocationElem) error {
	if e == nil || math.IsNaN(e.Latitude) || math.IsNaN(e.Longitude) ||
		e.Latitude < -90 || e.Latitude > 90 || e.Longitude < -180 || e.Longitude > 180 {
		return badMsg("locationElem")
	}
	if tooLong(e.Description, maxSmallText) {
		return badMsg("locationElem.description")
	}
	return nil
}

func (c checker) custom(e *CustomElem) error {
	if e == nil || e.Data == "" || len(e.Data) > maxCustomData {
		return badMsg("customElem.data")
	}
	if len(e.Extension) > maxCustomData || tooLong(e.Description, maxSmallText) {
		return badMsg("customElem")
	}
	return nil
}

func (c checker) face(e *FaceElem) error {
	if e == nil || e.Index < -1 || (e.Index < 0 && e.Data == "") || len(e.Data) > 4096 {
		return badMsg("faceElem")
	}
	return nil
}

// UploadMax caps one file sent through the chat upload route (/api/chat/upload).
const UploadMax = 50 << 20

// media accepts a URL of a file uploaded through our chat upload route:
// /files/chat/... relative, or absolute on the host the client reached us
// at, and recorded in the store.
func (c checker) media(raw, field string) error {
	if raw == "" || len(raw) > 2048 {
		return apierr.ChatError(apierr.CodeChatBadMediaURL, "field", field)
	}
	u, err := url.Parse(raw)
	if err != nil || u.User != nil {
		return apierr.ChatError(apierr.CodeChatBadMediaURL, "field", field)
	}
	if u.Scheme != "" || u.Host != "" {
		if (u.Scheme != "http" && u.Scheme != "https") || !strings.EqualFold(u.Host, c.host) {
			return apierr.ChatError(apierr.CodeChatBadMediaURL, "field", field)
		}
	}
	rel, ok := strings.CutPrefix(u.Path, "/files/")
	if !ok || !strings.HasPrefix(rel, "chat/") {
		return apierr.ChatError(apierr.CodeChatBadMediaURL, "field", field)
	}
	f, err := storage.ChatFileByPath(c.ctx(), c.db, rel)
	if err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return apierr.ChatError(apierr.CodeChatBadMediaURL, "field", field)
		}
		return err
	}
	// Sending a file shares it with the conversation's members, so only
	// one the sender may fetch can be sent (their upload, or one sent to
	// them: forwarding); anyone else's answers as if it did not exist.
	ok, err = storage.ChatFileReadable(c.ctx(), c.db, f, storage.ChatFileReader{UserID: c.user})
	if err != nil {
		return err
	}
	if !ok {
		return apierr.ChatError(apierr.CodeChatBadMediaURL, "field", field)
	}
	if c.files != nil {
		*c.files = append(*c.files, f.ID)
	}
	return nil
}

// toStored turns a message accepted for conversation conv into its row
// (seq and server id are assigned when it is committed).
func toStored(m *Message, convID string) storage.ChatMessage {
	sendID, _ := parseUserID(m.SendID)
	recvID, _ := parseUserID(m.RecvID)
	groupID, _ := parseUserID(m.GroupID)
	return storage.ChatMessage{
		ConversationID: convID, Seq: m.Seq, ServerMsgID: m.ServerMsgID, ClientMsgID: m.ClientMsgID,
		SendID: sendID, RecvID: recvID, GroupID: groupID, SessionType: m.SessionType, MsgFrom: m.MsgFrom,
		ContentType: m.ContentType, Content: m.Content, SenderNickname: m.SenderNickname,
		SenderFaceURL: m.SenderFaceURL, SenderPlatformID: m.SenderPlatformID, CreateTime: m.CreateTime,
		SendTime: m.SendTime, Ex: m.Ex,
	}
}

// fromStored rebuilds the protocol message of a row.
func fromStored(r storage.ChatMessage) *Message {
	m := &Message{
		ClientMsgID: r.ClientMsgID, ServerMsgID: r.ServerMsgID, CreateTime: r.CreateTime, SendTime: r.SendTime,
		SessionType: r.SessionType, MsgFrom: r.MsgFrom, ContentType: r.ContentType,
		SenderPlatformID: r.SenderPlatformID, SenderNickname: r.SenderNickname, SenderFaceURL: r.SenderFaceURL,
		Content: r.Content, Seq: r.Seq, Status: statusSent, Ex: r.Ex,
	}
	if r.SendID != 0 {
		m.SendID = storage.FormatID(r.SendID)
	}
	if r.RecvID != 0 {
		m.RecvID = storage.FormatID(r.RecvID)
	}
	if r.GroupID != 0 {
		m.GroupID = storage.FormatID(r.GroupID)
	}
	setElem(m, []byte(r.Content))
	return m
}

// setElem decodes content into the element of m's content type.
func setElem(m *Message, content []byte) {
	var dst any
	switch m.ContentType {
	case TypeText:
		m.TextElem = &TextElem{}
		dst = m.TextElem
	case TypePicture:
		m.PictureElem = &PictureElem{}
		dst = m.PictureElem
	case TypeVoice:
		m.SoundElem = &SoundElem{}
		dst = m.SoundElem
	case TypeVideo:
		m.VideoElem = &VideoElem{}
		dst = m.VideoElem
	case TypeFile:
		m.FileElem = &FileElem{}
		dst = m.FileElem
	case TypeAtText:
		m.AtTextElem = &AtTextElem{}
		dst = m.AtTextElem
	case TypeMerger:
		m.MergeElem = &MergeElem{}
		dst = m.MergeElem
	case TypeCard:
		m.CardElem = &CardElem{}
		dst = m.CardElem
	case TypeLocation:
		m.LocationElem = &LocationElem{}
		dst = m.LocationElem
	case TypeCustom:
		m.CustomElem = &CustomElem{}
		dst = m.CustomElem
	case TypeQuote:
		m.QuoteElem = &QuoteElem{}
		dst = m.QuoteElem
	case TypeFace:
		m.FaceElem = &FaceElem{}
		dst = m.FaceElem
	case TypeTyping:
		m.TypingElem = &TypingElem{}
		dst = m.TypingElem
	default:
		if m.ContentType >= storage.ChatNoticeFrom {
			m.NotificationElem = &NotificationElem{}
			dst = m.NotificationElem
		}
	}
	if dst != nil {
		_ = json.Unmarshal(content, dst)
	}
}

// notice builds a notification message (friend, group, revoke) whose
// detail is the JSON of detail.
func notice(contentType int, from sender, detail any, now int64) *Message {
	d, _ := json.Marshal(detail)
	elem := &NotificationElem{Detail: string(d)}
	c, _ := json.Marshal(elem)
	m := &Message{
		ClientMsgID: newClientMsgID(), CreateTime: now, MsgFrom: msgFromSystem, ContentType: contentType,
		SendID: from.idStr, SenderNickname: from.nickname, SenderFaceURL: from.face,
		SenderPlatformID: from.platform, Content: string(c), Status: statusSending, NotificationElem: elem,
	}
	return m
}

// sender is who a message is from, as shown on it.
type sender struct {
	idStr    string
	nickname string
	face     string
	platform int
}

func senderOf(u storage.User, platform int) sender {
	return sender{idStr: u.IDString(), nickname: u.Nickname, face: u.Avatar, platform: platform}
}

// newOutgoing starts a message built by a Create*Message call.
func newOutgoing(from sender, contentType int, now int64) *Message {
	return &Message{
		ClientMsgID: newClientMsgID(), CreateTime: now, SendID: from.idStr, MsgFrom: msgFromUser,
		ContentType: contentType, SenderPlatformID: from.platform, SenderNickname: from.nickname,
		SenderFaceURL: from.face, Status: statusSending,
	}
}
