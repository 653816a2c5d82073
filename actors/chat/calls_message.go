package chat

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"kj/internal/apierr"
	"kj/storage"
)

func init() {
	register(map[string]handlerFunc{
		"CreateTextMessage":                    callCreateText,
		"CreateTextAtMessage":                  callCreateAtText,
		"CreateImageMessageByURL":              callCreateImage,
		"CreateSoundMessageByURL":              callCreateSound,
		"CreateVideoMessageByURL":              callCreateVideo,
		"CreateFileMessageByURL":               callCreateFile,
		"CreateMergerMessage":                  callCreateMerger,
		"CreateForwardMessage":                 callCreateForward,
		"CreateLocationMessage":                callCreateLocation,
		"CreateQuoteMessage":                   callCreateQuote,
		"CreateCardMessage":                    callCreateCard,
		"CreateCustomMessage":                  callCreateCustom,
		"CreateFaceMessage":                    callCreateFace,
		"SendMessage":                          callSend,
		"SendMessageNotOss":                    callSend,
		"TypingStatusUpdate":                   callTyping,
		"RevokeMessage":                        callRevoke,
		"DeleteMessage":                        callDeleteMessage,
		"DeleteMessageFromLocalStorage":        callDeleteMessage,
		"DeleteAllMsgFromLocal":                callDeleteAllMessages,
		"DeleteAllMsgFromLocalAndSvr":          callDeleteAllMessages,
		"GetAdvancedHistoryMessageList":        callHistory,
		"GetAdvancedHistoryMessageListReverse": callHistoryReverse,
		"SearchLocalMessages":                  callSearchMessages,
		"FindMessageList":                      callFindMessages,
	})
}

func (c *call) checker() checker {
	return checker{ctx: c.ctx, db: c.s.e.db, host: c.s.host, user: c.s.userID}
}

// build finishes a Create*Message call: set reads the element from the
// arguments into the new message, which is validated and returned for the
// client to send. A bad argument answers before anything is validated.
func (c *call) build(contentType int, set func(a *argReader, m *Message)) (any, error) {
	m := newOutgoing(c.s.self, contentType, c.now())
	a := c.argReader()
	set(a, m)
	if a.err != nil {
		return nil, a.err
	}
	if err := c.checker().checkMessage(m, 0); err != nil {
		return nil, err
	}
	return m, nil
}

// createElem is a Create call whose one argument is the element itself.
func createElem[E any](contentType int, name string, set func(m *Message, e *E)) handlerFunc {
	return func(c *call) (any, error) {
		return c.build(contentType, func(a *argReader, m *Message) {
			e := new(E)
			a.Object(0, name, e)
			set(m, e)
		})
	}
}

var (
	callCreateSound = createElem(TypeVoice, "soundElem", func(m *Message, e *SoundElem) { m.SoundElem = e })
	callCreateVideo = createElem(TypeVideo, "videoElem", func(m *Message, e *VideoElem) { m.VideoElem = e })
	callCreateFile  = createElem(TypeFile, "fileElem", func(m *Message, e *FileElem) { m.FileElem = e })
	callCreateCard  = createElem(TypeCard, "cardElem", func(m *Message, e *CardElem) { m.CardElem = e })
)

func callCreateText(c *call) (any, error) {
	return c.build(TypeText, func(a *argReader, m *Message) { m.TextElem = &TextElem{Content: a.String(0, "text")} })
}

// callCreateAtText: args text, atUserIDList, atUsersInfo, message (a quoted
// one; an empty string quotes nothing).
func callCreateAtText(c *call) (any, error) {
	return c.build(TypeAtText, func(a *argReader, m *Message) {
		e := &AtTextElem{Text: a.String(0, "text"), AtUserList: a.StringList(1, "atUserIDList")}
		if a.has(2) {
			a.ObjectList(2, "atUsersInfo", &e.AtUsersInfo)
		}
		if a.has(3) {
			if s, _ := c.args.OptString(3, "message"); s != "" || !c.args.isString(3) {
				e.QuoteMessage = &Message{}
				a.Object(3, "message", e.QuoteMessage)
			}
		}
		m.AtTextElem = e
	})
}

// callCreateImage: args sourcePath, then the source, big and snapshot
// pictures, each optional.
func callCreateImage(c *call) (any, error) {
	return c.build(TypePicture, func(a *argReader, m *Message) {
		e := &PictureElem{SourcePath: a.OptString(0, "sourcePath")}
		pics := []**Picture{&e.SourcePicture, &e.BigPicture, &e.SnapshotPicture}
		for i, name := range []string{"sourcePicture", "bigPicture", "snapshotPicture"} {
			if a.has(i + 1) {
				*pics[i] = &Picture{}
				a.Object(i+1, name, *pics[i])
			}
		}
		m.PictureElem = e
	})
}

func callCreateMerger(c *call) (any, error) {
	return c.build(TypeMerger, func(a *argReader, m *Message) {
		e := &MergeElem{MessageEntityList: []MessageEntity{}}
		a.ObjectList(0, "messageList", &e.MultiMessage)
		e.Title = a.String(1, "title")
		if a.has(2) {
			e.AbstractList = a.StringList(2, "summaryList")
		}
		m.MergeElem = e
	})
}

// callCreateForward copies a message (its element) into a new one from
// the caller.
func callCreateForward(c *call) (any, error) {
	var src Message
	if err := c.args.Object(0, "message", &src); err != nil {
		return nil, err
	}
	if !sendable(src.ContentType) {
		return nil, apierr.ChatError(apierr.CodeChatUnsupportedType)
	}
	return c.build(src.ContentType, func(_ *argReader, m *Message) {
		m.TextElem, m.PictureElem, m.SoundElem, m.VideoElem, m.FileElem = src.TextElem, src.PictureElem, src.SoundElem, src.VideoElem, src.FileElem
		m.AtTextElem, m.MergeElem, m.CardElem, m.LocationElem = src.AtTextElem, src.MergeElem, src.CardElem, src.LocationElem
		m.CustomElem, m.QuoteElem, m.FaceElem = src.CustomElem, src.QuoteElem, src.FaceElem
	})
}

func callCreateLocation(c *call) (any, error) {
	return c.build(TypeLocation, func(a *argReader, m *Message) {
		m.LocationElem = &LocationElem{Description: a.OptString(0, "description"), Longitude: a.Float(1, "longitude"), Latitude: a.Float(2, "latitude")}
	})
}

func callCreateQuote(c *call) (any, error) {
	return c.build(TypeQuote, func(a *argReader, m *Message) {
		e := &QuoteElem{Text: a.String(0, "text"), QuoteMessage: &Message{}}
		a.Object(1, "message", e.QuoteMessage)
		m.QuoteElem = e
	})
}

func callCreateCustom(c *call) (any, error) {
	return c.build(TypeCustom, func(a *argReader, m *Message) {
		m.CustomElem = &CustomElem{Data: a.String(0, "data"), Extension: a.OptString(1, "extension"), Description: a.OptString(2, "description")}
	})
}

func callCreateFace(c *call) (any, error) {
	return c.build(TypeFace, func(a *argReader, m *Message) {
		m.FaceElem = &FaceElem{Index: a.Int(0, "index"), Data: a.OptString(1, "data")}
	})
}

// callSend takes a message built by a Create call (re-validated: the
// client's copy is never trusted) and hands it to the actor of its
// conversation, which answers once the message is durable: args message,
// recvID, groupID, offlinePushInfo, isOnlineOnly.
func callSend(c *call) (any, error) {
	var m Message
	a := c.argReader()
	if err := c.args.NewMessage(0, "message", &m); err != nil {
		return nil, err
	}
	recv, err := c.args.OptStringAs(1, "recvID", m.RecvID)
	if err != nil {
		return nil, err
	}
	group, onlineOnly := a.OptString(2, "groupID"), a.OptBool(4, "isOnlineOnly")
	if a.err != nil {
		return nil, a.err
	}
	if !validClientMsgID(m.ClientMsgID) {
		return nil, badMsg("clientMsgID")
	}
	var files []int64
	check := c.checker()
	check.files = &files
	if err := check.checkMessage(&m, 0); err != nil {
		return nil, err
	}
	now := c.now()
	self := c.s.self
	m.SendID, m.SenderNickname, m.SenderFaceURL, m.SenderPlatformID = self.idStr, self.nickname, self.face, self.platform
	m.MsgFrom, m.Status, m.Seq, m.ServerMsgID, m.SendTime, m.IsRead, m.LocalEx = msgFromUser, statusSending, 0, "", 0, false, ""
	m.OfflinePush, m.AttachedInfo = nil, ""
	if m.CreateTime <= 0 || m.CreateTime > now+24*3600*1000 || m.CreateTime < now-24*3600*1000 {
		m.CreateTime = now
	}
	item := &sendItem{msg: &m, skip: c.s.id, reply: c.replyTo(), started: time.Now()}
	e := c.s.e
	switch {
	case group != "":
		gid, err := parseUserID(group)
		if err != nil {
			return nil, badArg("groupID")
		}
		m.GroupID, m.RecvID, m.SessionType = group, "", sessionGroup
		if err := c.shareFiles(files, groupConversationID(gid)); err != nil {
			return nil, err
		}
		if onlineOnly {
			return c.relayToGroup(&m, gid)
		}
		e.tellGroup(gid, &sendRequest{item: item})
	case recv != "":
		rid, err := parseUserID(recv)
		if err != nil {
			return nil, badArg("recvID")
		}
		if rid == c.me() {
			return nil, apierr.ChatError(apierr.CodeChatSelf)
		}
		m.RecvID, m.GroupID, m.SessionType = recv, "", sessionSingle
		ref := singleRef(c.me(), c.meStr(), rid, recv)
		if err := c.shareFiles(files, ref.ID); err != nil {
			return nil, err
		}
		if onlineOnly {
			return c.relayToUser(&m, rid)
		}
		e.tellConversation(ref, &sendRequest{item: item})
	default:
		return nil, badArg("recvID")
	}
	return nil, errLater
}

// singleRef is parseConversationID(singleConversationID(meStr, peerStr))
// for two distinct valid user ids, given as numbers and as strings: the
// id is made once (parsed back, it was made twice, ~50 B of every send).
func singleRef(me int64, meStr string, peer int64, peerStr string) convRef {
	a, b := me, peer
	if meStr > peerStr { // singleConversationID's order
		a, b = peer, me
	}
	return convRef{ID: singleConversationID(meStr, peerStr), SessionType: sessionSingle, A: a, B: b}
}

// shareFiles lets the members of conversation convID fetch the uploads a
// message sent there names. It is written before the message commits: a
// send refused afterwards (not a member, blocked, muted) leaves a share
// that only shows the sender's own readable file to that conversation,
// which is what sending it means; it never lets the sender read more.
func (c *call) shareFiles(files []int64, convID string) error {
	for _, id := range files {
		if err := storage.ShareChatFile(c.ctx(), c.s.e.db, id, convID); err != nil {
			return err
		}
	}
	return nil
}

// relayToUser delivers a message that is not to be stored (isOnlineOnly)
// to the peer's online sockets.
func (c *call) relayToUser(m *Message, peer int64) (any, error) {
	e := c.s.e
	if _, err := existingUser(c.ctx(), e.db, peer); err != nil {
		return nil, err
	}
	if blocked, err := storage.ChatBlocked(c.ctx(), e.db, peer, c.me()); err != nil {
		return nil, err
	} else if blocked {
		return nil, apierr.ChatError(apierr.CodeChatBlacklisted)
	}
	m.Status, m.SendTime = statusSent, c.now()
	b, _ := json.Marshal(m)
	e.deliver([]int64{peer}, &userEvent{Kind: evPush, Event: "OnRecvNewMessage", Data: b})
	return m, nil
}

// relayToGroup delivers an isOnlineOnly message to the group's online
// members, after the same rules as a stored send (judgeGroupMessage).
func (c *call) relayToGroup(m *Message, gid int64) (any, error) {
	e := c.s.e
	g, err := storage.ChatGroupByID(c.ctx(), e.db, gid)
	if err != nil {
		return nil, storeErr(err, apierr.CodeChatGroupNotFound)
	}
	list, err := storage.ChatGroupMembers(c.ctx(), e.db, gid)
	if err != nil {
		return nil, err
	}
	members := make(map[int64]storage.ChatGroupMember, len(list))
	ids := make([]int64, len(list))
	for i, x := range list {
		members[x.UserID] = x
		ids[i] = x.UserID
	}
	if err := judgeGroupMessage(g, members, m, c.now()); err != nil {
		return nil, err
	}
	m.Status, m.SendTime = statusSent, c.now()
	b, _ := json.Marshal(m)
	e.deliver(ids, &userEvent{Kind: evPush, Event: "OnRecvNewMessage", Data: b})
	return m, nil
}

// callTyping relays a typing notice (contentType 113) to the peer's
// sockets; it is never stored: args recvID, msgTip.
func callTyping(c *call) (any, error) {
	a := c.argReader()
	peer, tip := a.ID(0, "recvID"), a.OptString(1, "msgTip")
	a.check(!tooLong(tip, 100), "msgTip")
	if a.err != nil {
		return nil, a.err
	}
	if peer == c.me() {
		return nil, apierr.ChatError(apierr.CodeChatSelf)
	}
	m := newOutgoing(c.s.self, TypeTyping, c.now())
	m.TypingElem = &TypingElem{MsgTips: tip}
	b, _ := json.Marshal(m.TypingElem)
	m.Content = string(b)
	m.RecvID, m.SessionType = storage.FormatID(peer), sessionSingle
	if _, err := c.relayToUser(m, peer); err != nil {
		return nil, err
	}
	return nil, nil
}

// messageArgs reads the arguments that name one message: conversationID
// (one the caller takes part in) and clientMsgID.
func (c *call) messageArgs() (convRef, string, error) {
	a := c.argReader()
	ref, clientID := a.Conversation(0, "conversationID"), a.String(1, "clientMsgID")
	return ref, clientID, a.err
}

// callRevoke revokes a message, in order with the conversation's sends:
// the sender within the revoke window, or a group's owner or admin for a
// member of lower role. Args conversationID, clientMsgID.
func callRevoke(c *call) (any, error) {
	ref, clientID, err := c.messageArgs()
	if err != nil {
		return nil, err
	}
	e := c.s.e
	me, self, window := c.me(), c.s.self, e.cfg.RevokeWindow.Milliseconds()
	op := &opItem{reply: c.replyTo(), run: func(ctx context.Context, tx storage.Tx, w *noticeWriter) (*outcome, error) {
		msg, err := storage.ChatMessageByClientID(ctx, tx, ref.ID, clientID)
		if err != nil {
			return nil, storeErr(err, apierr.CodeChatMessageNotFound)
		}
		if msg.ContentType == NoticeRevoke {
			return &outcome{}, nil
		}
		if msg.ContentType >= storage.ChatNoticeFrom {
			return nil, apierr.ChatError(apierr.CodeChatRevokeDenied)
		}
		role := 0
		if ref.SessionType == sessionGroup {
			g, err := storage.ChatGroupByID(ctx, tx, ref.GroupID)
			if err != nil {
				return nil, storeErr(err, apierr.CodeChatGroupNotFound)
			}
			if g.Status == storage.GroupDismissed {
				return nil, apierr.ChatError(apierr.CodeChatGroupDismissed)
			}
			mine, err := storage.ChatGroupMemberOf(ctx, tx, ref.GroupID, me)
			if err != nil {
				return nil, storeErr(err, apierr.CodeChatNotMember)
			}
			role = mine.RoleLevel
			if role >= storage.RoleAdmin && msg.SendID != me {
				senderRole := 0
				if sm, err := storage.ChatGroupMemberOf(ctx, tx, ref.GroupID, msg.SendID); err == nil {
					senderRole = sm.RoleLevel
				}
				if role <= senderRole {
					return nil, apierr.ChatError(apierr.CodeChatRevokeDenied)
				}
				return revoke(ctx, tx, w, ref, msg, self, role)
			}
		}
		if msg.SendID != me {
			return nil, apierr.ChatError(apierr.CodeChatRevokeDenied)
		}
		if role < storage.RoleAdmin && w.now-msg.SendTime > window {
			return nil, apierr.ChatError(apierr.CodeChatRevokeTooLate)
		}
		return revoke(ctx, tx, w, ref, msg, self, role)
	}}
	if ref.SessionType == sessionGroup {
		e.tellGroup(ref.GroupID, &opRequest{item: op})
	} else {
		e.tellConversation(ref, &opRequest{item: op})
	}
	return nil, errLater
}

// revoke turns a stored message into a 2101 notice naming who revoked it.
func revoke(ctx context.Context, tx storage.Tx, w *noticeWriter, ref convRef, msg storage.ChatMessage, by sender, role int) (*outcome, error) {
	info := &RevokedInfo{
		RevokerID: by.idStr, RevokerRole: role, ClientMsgID: msg.ClientMsgID, RevokerNickname: by.nickname,
		RevokeTime: w.now, SourceMessageSendTime: msg.SendTime, SourceMessageSendID: storage.FormatID(msg.SendID),
		SourceMessageSenderNickname: msg.SenderNickname, SessionType: msg.SessionType, Seq: msg.Seq,
		ConversationID: ref.ID,
	}
	detail, _ := json.Marshal(info)
	content, _ := json.Marshal(NotificationElem{Detail: string(detail)})
	if err := storage.ReplaceChatMessageContent(ctx, tx, ref.ID, msg.Seq, NoticeRevoke, string(content)); err != nil {
		return nil, err
	}
	return &outcome{revoked: info}, nil
}

// callDeleteMessage hides one message from the caller only.
func callDeleteMessage(c *call) (any, error) {
	ref, clientID, err := c.messageArgs()
	if err != nil {
		return nil, err
	}
	row, err := c.myRow(ref)
	if err != nil {
		return nil, err
	}
	e := c.s.e
	msg, err := storage.ChatMessageByClientID(c.ctx(), e.db, ref.ID, clientID)
	if err != nil || msg.Seq <= row.MinSeq || msg.Seq > row.VisibleMax() {
		return nil, storeErr(orNotFound(err), apierr.CodeChatMessageNotFound)
	}
	if err := storage.DeleteChatMessageForUser(c.ctx(), e.db, c.me(), ref.ID, msg.Seq); err != nil {
		return nil, err
	}
	e.changed([]int64{c.me()}, ref.ID)
	return nil, nil
}

func orNotFound(err error) error {
	if err == nil {
		return storage.ErrNotFound
	}
	return err
}

func callDeleteAllMessages(c *call) (any, error) {
	return c.changeAllMine(storage.ClearAllChatConversations)
}

// historyView resolves the conversation and the caller's visible range.
func (c *call) historyView(p *historyParams) (convRef, storage.ChatUserConversation, bool, error) {
	id := p.ConversationID
	switch {
	case id == "" && p.GroupID != "":
		id = "sg_" + p.GroupID
	case id == "" && p.UserID != "":
		id = singleConversationID(c.meStr(), p.UserID)
	}
	ref, ok := parseConversationID(id)
	if !ok {
		return convRef{}, storage.ChatUserConversation{}, false, badArg("params.conversationID")
	}
	if ref.SessionType == sessionSingle && !ref.has(c.me()) {
		return convRef{}, storage.ChatUserConversation{}, false, apierr.ChatError(apierr.CodeChatConvNotFound)
	}
	if p.Count <= 0 || p.Count > 200 {
		return convRef{}, storage.ChatUserConversation{}, false, badArg("params.count")
	}
	row, err := storage.ChatUserConversationByID(c.ctx(), c.s.e.db, c.me(), ref.ID)
	if errors.Is(err, storage.ErrNotFound) && ref.SessionType == sessionSingle {
		return ref, row, false, nil // a chat with no messages yet
	}
	if err != nil {
		return convRef{}, row, false, storeErr(err, apierr.CodeChatConvNotFound)
	}
	return ref, row, true, nil
}

// startSeq is the seq of the message a page starts from.
func (c *call) startSeq(ref convRef, row storage.ChatUserConversation, clientID string) (int64, error) {
	msg, err := storage.ChatMessageByClientID(c.ctx(), c.s.e.db, ref.ID, clientID)
	if err != nil || msg.Seq > row.VisibleMax() {
		return 0, storeErr(orNotFound(err), apierr.CodeChatMessageNotFound)
	}
	return msg.Seq, nil
}

// callHistory pages back in history: the newest count messages before
// startClientMsgID (or before seq lastMinSeq, or from the end), ascending;
// lastMinSeq in the answer is the cursor for the next older page.
func callHistory(c *call) (any, error) { return c.history(true) }

// callHistoryReverse catches up: the oldest count messages after
// startClientMsgID (or after seq lastMinSeq), ascending — after a
// reconnect a client asks for everything after the last seq it has, with
// no gap and no duplicate. lastMinSeq in the answer is the highest seq
// returned, the cursor for the next page.
func callHistoryReverse(c *call) (any, error) { return c.history(false) }

// history answers both history calls, backwards (callHistory) or not.
func (c *call) history(backwards bool) (any, error) {
	var p historyParams
	if err := c.args.Object(0, "params", &p); err != nil {
		return nil, err
	}
	ref, row, ok, err := c.historyView(&p)
	if err != nil {
		return nil, err
	}
	if !ok {
		return AdvancedMessages{IsEnd: true, MessageList: []*Message{}}, nil
	}
	var start int64 // the seq of startClientMsgID, when given
	if p.StartClientMsgID != "" {
		if start, err = c.startSeq(ref, row, p.StartClientMsgID); err != nil {
			return nil, err
		}
	}
	q := storage.ChatPage{UserID: c.me(), ConversationID: ref.ID, After: row.MinSeq, Before: row.VisibleMax() + 1, Limit: int(p.Count), Newest: backwards}
	switch {
	case backwards && p.StartClientMsgID != "":
		q.Before = start
	case backwards && p.LastMinSeq > 0 && p.LastMinSeq < q.Before:
		q.Before = p.LastMinSeq
	case !backwards && p.StartClientMsgID != "":
		q.After = max(start, row.MinSeq)
	case !backwards:
		q.After = max(p.LastMinSeq, row.MinSeq)
	}
	return c.page(ref, row, q, backwards)
}

func (c *call) page(ref convRef, row storage.ChatUserConversation, q storage.ChatPage, backwards bool) (any, error) {
	rows, more, err := storage.ChatMessagesPage(c.ctx(), c.s.e.db, q)
	if err != nil {
		return nil, err
	}
	res := AdvancedMessages{IsEnd: !more, MessageList: make([]*Message, 0, len(rows))}
	for _, r := range rows {
		res.MessageList = append(res.MessageList, fromStored(r))
	}
	if err := c.s.e.withMarks(c.ctx(), ref.ID, res.MessageList); err != nil {
		return nil, err
	}
	if err := c.s.e.withReadState(c.ctx(), c.me(), ref, row, res.MessageList); err != nil {
		return nil, err
	}
	switch {
	case len(rows) == 0 && backwards:
		res.LastMinSeq = q.Before
	case len(rows) == 0:
		res.LastMinSeq = q.After
	case backwards:
		res.LastMinSeq = rows[0].Seq
	default:
		res.LastMinSeq = rows[len(rows)-1].Seq
	}
	return res, nil
}

// messageText is the searchable text of a message.
func messageText(m *Message) string {
	switch {
	case m.TextElem != nil:
		return m.TextElem.Content
	case m.AtTextElem != nil:
		return m.AtTextElem.Text
	case m.QuoteElem != nil:
		return m.QuoteElem.Text
	case m.FileElem != nil:
		return m.FileElem.FileName
	case m.LocationElem != nil:
		return m.LocationElem.Description
	}
	return ""
}

// callSearchMessages finds messages of one conversation by keywords
// (keywordListMatchType 0 any, 1 all), content types and senders.
func callSearchMessages(c *call) (any, error) {
	var p struct {
		ConversationID       string   `json:"conversationID"`
		KeywordList          []string `json:"keywordList"`
		KeywordListMatchType int      `json:"keywordListMatchType"`
		SenderUserIDList     []string `json:"senderUserIDList"`
		MessageTypeList      []int    `json:"messageTypeList"`
		PageIndex            int      `json:"pageIndex"`
		Count                int      `json:"count"`
	}
	if err := c.args.Object(0, "params", &p); err != nil {
		return nil, err
	}
	var kws []string
	for _, k := range p.KeywordList {
		if k = strings.ToLower(strings.TrimSpace(k)); k != "" {
			kws = append(kws, k)
		}
	}
	if len(kws) == 0 || len(kws) > 10 {
		return nil, badArg("params.keywordList")
	}
	if p.Count <= 0 || p.Count > 100 {
		p.Count = 50
	}
	if p.ConversationID == "" {
		// Every conversation of the caller: the text messages, paged.
		if p.PageIndex < 1 || p.PageIndex > 1000 {
			p.PageIndex = 1
		}
		return searchAllConversations(c, kws, p.KeywordListMatchType == 1, setOf(p.SenderUserIDList), p.PageIndex, p.Count)
	}
	ref, ok := parseConversationID(p.ConversationID)
	if !ok {
		return nil, badArg("params.conversationID")
	}
	types := p.MessageTypeList
	if len(types) == 0 {
		types = []int{TypeText, TypeAtText, TypeQuote, TypeFile, TypeLocation}
	}
	row, err := c.myRow(ref)
	if err != nil {
		return nil, err
	}
	senders := setOf(p.SenderUserIDList)
	e := c.s.e
	// The store matches on the element JSON with any one keyword; the
	// decoded text is then matched exactly as asked.
	cands, err := storage.SearchChatMessages(c.ctx(), e.db, c.me(), ref.ID, row.MinSeq, row.VisibleMax(), types, kws[:1], p.Count*4)
	if err != nil {
		return nil, err
	}
	var found []*Message
	for _, r := range cands {
		m := fromStored(r)
		if len(senders) > 0 && !senders[m.SendID] {
			continue
		}
		text := strings.ToLower(messageText(m))
		hits := 0
		for _, k := range kws {
			if strings.Contains(text, k) {
				hits++
			}
		}
		if hits == 0 || (p.KeywordListMatchType == 1 && hits < len(kws)) {
			continue
		}
		found = append(found, m)
		if len(found) == p.Count {
			break
		}
	}
	res := SearchResult{TotalCount: len(found), SearchResultItems: []*SearchResultItem{}}
	if len(found) > 0 {
		item, err := c.resultItem(row, found)
		if err != nil {
			return nil, err
		}
		res.SearchResultItems = append(res.SearchResultItems, item)
	}
	return res, nil
}

func (c *call) resultItem(row storage.ChatUserConversation, msgs []*Message) (*SearchResultItem, error) {
	metas, err := c.s.e.convMetas(c.ctx(), c.me(), []storage.ChatUserConversation{row})
	if err != nil {
		return nil, err
	}
	m := metas[row.ConversationID]
	return &SearchResultItem{ConversationID: row.ConversationID, MessageCount: len(msgs), ConversationType: row.SessionType,
		ShowName: m.showName, FaceURL: m.faceURL, MessageList: msgs}, nil
}

// callFindMessages loads messages by clientMsgID from conversations of the
// caller.
func callFindMessages(c *call) (any, error) {
	var list []struct {
		ConversationID  string   `json:"conversationID"`
		ClientMsgIDList []string `json:"clientMsgIDList"`
	}
	if err := c.args.ObjectList(0, "params", &list); err != nil {
		return nil, err
	}
	if len(list) > 100 {
		return nil, badArg("params")
	}
	res := SearchResult{FindResultItems: []*SearchResultItem{}}
	e := c.s.e
	for _, q := range list {
		ref, ok := parseConversationID(q.ConversationID)
		if !ok || len(q.ClientMsgIDList) > 200 {
			return nil, badArg("params.conversationID")
		}
		row, err := c.myRow(ref)
		if err != nil {
			return nil, err
		}
		rows, err := storage.ChatMessagesByClientIDs(c.ctx(), e.db, ref.ID, q.ClientMsgIDList)
		if err != nil {
			return nil, err
		}
		var msgs []*Message
		for _, r := range rows {
			if r.Seq > row.MinSeq && r.Seq <= row.VisibleMax() {
				msgs = append(msgs, fromStored(r))
			}
		}
		if len(msgs) == 0 {
			continue
		}
		if err := e.withMarks(c.ctx(), ref.ID, msgs); err != nil {
			return nil, err
		}
		item, err := c.resultItem(row, msgs)
		if err != nil {
			return nil, err
		}
		res.FindResultItems = append(res.FindResultItems, item)
		res.TotalCount += len(msgs)
	}
	return res, nil
}
