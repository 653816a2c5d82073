package chat

import (
	"context"
	"errors"
	"strings"

	"kj/internal/apierr"
	"kj/storage"
)

func init() {
	register(map[string]handlerFunc{
		"GetAllConversationList":            callAllConversations,
		"GetConversationListSplit":          callConversationsSplit,
		"GetOneConversation":                callGetOneConversation,
		"GetMultipleConversation":           callGetMultipleConversations,
		"GetConversationIDBySessionType":    callConversationID,
		"GetTotalUnreadMsgCount":            callTotalUnread,
		"MarkConversationMessageAsRead":     callMarkRead,
		"SetConversationDraft":              callSetDraft,
		"PinConversation":                   callPin,
		"SetConversationRecvMessageOpt":     callSetRecvOpt,
		"HideConversation":                  callHide,
		"HideAllConversation":               callHideAll,
		"ClearConversationAndDeleteAllMsg":  callClearConversation,
		"DeleteConversationAndDeleteAllMsg": callDeleteConversation,
	})
}

func callAllConversations(c *call) (any, error) {
	return c.s.e.visibleConversations(c.ctx, c.me())
}

func callConversationsSplit(c *call) (any, error) {
	offset, err := c.args.Int(0, "offset")
	if err != nil || offset < 0 {
		return nil, badArg("offset")
	}
	count, err := c.args.Int(1, "count")
	if err != nil || count <= 0 || count > 1000 {
		return nil, badArg("count")
	}
	items, err := c.s.e.visibleConversations(c.ctx, c.me())
	if err != nil {
		return nil, err
	}
	if offset >= int64(len(items)) {
		return []*ConversationItem{}, nil
	}
	return items[offset:min(int64(len(items)), offset+count)], nil
}

// conversationArg reads a conversation id the caller takes part in: a 1:1
// chat of theirs, or a group they belong or belonged to.
func (c *call) conversationArg(i int, name string) (convRef, error) {
	s, err := c.args.String(i, name)
	if err != nil {
		return convRef{}, err
	}
	ref, ok := parseConversationID(s)
	if !ok {
		return convRef{}, badArg(name)
	}
	if ref.SessionType == sessionSingle && !ref.has(c.me()) {
		return convRef{}, apierr.ChatError(apierr.CodeChatConvNotFound)
	}
	return ref, nil
}

// myRow loads the caller's row of a conversation or answers "not found".
func (c *call) myRow(ref convRef) (storage.ChatUserConversation, error) {
	r, err := storage.ChatUserConversationByID(c.ctx, c.s.e.db, c.me(), ref.ID)
	return r, storeErr(err, apierr.CodeChatConvNotFound)
}

func (c *call) renderOne(r storage.ChatUserConversation) (*ConversationItem, error) {
	items, err := c.s.e.renderConversations(c.ctx, c.me(), []storage.ChatUserConversation{r})
	if err != nil {
		return nil, err
	}
	return items[0], nil
}

// callGetOneConversation returns (creating it for the caller) the
// conversation with a user or of a group: args sessionType, sourceID.
func callGetOneConversation(c *call) (any, error) {
	st, err := c.args.Int(0, "sessionType")
	if err != nil {
		return nil, err
	}
	source, err := c.args.String(1, "sourceID")
	if err != nil {
		return nil, err
	}
	ref, err := c.openConversation(st, source)
	if err != nil {
		return nil, err
	}
	e := c.s.e
	if err := storage.ShowChatConversation(c.ctx, e.db, c.me(), ref.ID); err != nil {
		return nil, err
	}
	r, err := c.myRow(ref)
	if err != nil {
		return nil, err
	}
	return c.renderOne(r)
}

// openConversation makes sure the caller has a row for the conversation
// with sourceID (a user or a group they belong to).
func (c *call) openConversation(sessionType int64, source string) (convRef, error) {
	kind, ok := normalSessionType(sessionType)
	if !ok {
		return convRef{}, badArg("sessionType")
	}
	id, err := parseUserID(source)
	if err != nil {
		return convRef{}, badArg("sourceID")
	}
	e := c.s.e
	now := e.now()
	if kind == sessionSingle {
		if id == c.me() {
			return convRef{}, apierr.ChatError(apierr.CodeChatSelf)
		}
		if _, err := existingUser(c.ctx, e.db, id); err != nil {
			return convRef{}, err
		}
		ref, _ := parseConversationID(singleConversationID(c.meStr(), source))
		err := e.db.Tx(c.ctx, func(tx storage.Tx) error {
			if _, err := storage.LockChatConversation(c.ctx, tx, storage.ChatConversation{ID: ref.ID, SessionType: sessionSingle, CreatedAt: now}); err != nil {
				return err
			}
			return storage.EnsureChatUserConversations(c.ctx, tx, storage.ChatUserConvRow{UserID: c.me(), ConversationID: ref.ID, PeerID: id, CreatedAt: now})
		})
		return ref, err
	}
	ref := convRef{ID: groupConversationID(id), SessionType: sessionGroup, GroupID: id}
	if _, err := storage.ChatUserConversationByID(c.ctx, e.db, c.me(), ref.ID); err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return convRef{}, apierr.ChatError(apierr.CodeChatConvNotFound)
		}
		return convRef{}, err
	}
	return ref, nil
}

func callGetMultipleConversations(c *call) (any, error) {
	ids, err := c.args.StringList(0, "conversationIDList")
	if err != nil {
		return nil, err
	}
	if len(ids) > 1000 {
		return nil, badArg("conversationIDList")
	}
	want := map[string]bool{}
	for _, id := range ids {
		if ref, ok := parseConversationID(id); ok {
			want[ref.ID] = true
		}
	}
	e := c.s.e
	rows, err := storage.ChatUserConversations(c.ctx, e.db, c.me())
	if err != nil {
		return nil, err
	}
	sel := rows[:0]
	for _, r := range rows {
		if want[r.ConversationID] {
			sel = append(sel, r)
		}
	}
	return e.renderConversations(c.ctx, c.me(), sel)
}

// callConversationID answers the id of the conversation with sourceID:
// args sourceID, sessionType.
func callConversationID(c *call) (any, error) {
	source, err := c.args.String(0, "sourceID")
	if err != nil {
		return nil, err
	}
	st, err := c.args.Int(1, "sessionType")
	if err != nil {
		return nil, err
	}
	kind, ok := normalSessionType(st)
	if !ok {
		return nil, badArg("sessionType")
	}
	id, err := parseUserID(source)
	if err != nil {
		return nil, badArg("sourceID")
	}
	if kind == sessionSingle {
		if id == c.me() {
			return nil, apierr.ChatError(apierr.CodeChatSelf)
		}
		return singleConversationID(c.meStr(), source), nil
	}
	return groupConversationID(id), nil
}

func callTotalUnread(c *call) (any, error) {
	return c.s.e.totalUnread(c.ctx, c.me())
}

// changeMine runs a change to the caller's own row of a conversation and
// tells the caller's sockets (on every node) to refresh it.
func (c *call) changeMine(name string, f func(ctx context.Context, q storage.Querier, ref convRef) error) (any, error) {
	ref, err := c.conversationArg(0, name)
	if err != nil {
		return nil, err
	}
	if err := f(c.ctx, c.s.e.db, ref); err != nil {
		return nil, storeErr(err, apierr.CodeChatConvNotFound)
	}
	c.s.e.changed([]int64{c.me()}, ref.ID)
	return nil, nil
}

// callMarkRead reads a conversation to its end; the senders of what that
// covered get read receipts (receipts.go).
func callMarkRead(c *call) (any, error) {
	return c.changeMine("conversationID", func(ctx context.Context, _ storage.Querier, ref convRef) error {
		return c.s.e.markRead(ctx, c.me(), ref)
	})
}

func callSetDraft(c *call) (any, error) {
	text, err := c.args.OptString(1, "draftText")
	if err != nil {
		return nil, err
	}
	if tooLong(text, maxTextRunes) {
		return nil, badArg("draftText")
	}
	at := c.now()
	if strings.TrimSpace(text) == "" {
		text, at = "", 0
	}
	return c.changeMine("conversationID", func(ctx context.Context, q storage.Querier, ref convRef) error {
		return storage.SetChatConversationDraft(ctx, q, c.me(), ref.ID, text, at)
	})
}

func callPin(c *call) (any, error) {
	pinned, err := c.args.Bool(1, "isPinned")
	if err != nil {
		return nil, err
	}
	return c.changeMine("conversationID", func(ctx context.Context, q storage.Querier, ref convRef) error {
		return storage.SetChatConversationPinned(ctx, q, c.me(), ref.ID, pinned)
	})
}

func callSetRecvOpt(c *call) (any, error) {
	opt, err := c.args.Int(1, "opt")
	if err != nil || opt < 0 || opt > 2 {
		return nil, badArg("opt")
	}
	return c.changeMine("conversationID", func(ctx context.Context, q storage.Querier, ref convRef) error {
		return storage.SetChatConversationRecvOpt(ctx, q, c.me(), ref.ID, int(opt))
	})
}

func callHide(c *call) (any, error) {
	return c.changeMine("conversationID", func(ctx context.Context, q storage.Querier, ref convRef) error {
		return storage.HideChatConversation(ctx, q, c.me(), ref.ID)
	})
}

func callHideAll(c *call) (any, error) {
	e := c.s.e
	if err := storage.HideAllChatConversations(c.ctx, e.db, c.me()); err != nil {
		return nil, err
	}
	e.deliver([]int64{c.me()}, &userEvent{Kind: evConv})
	return nil, nil
}

func callClearConversation(c *call) (any, error) {
	return c.changeMine("conversationID", func(ctx context.Context, q storage.Querier, ref convRef) error {
		return storage.ClearChatConversation(ctx, q, c.me(), ref.ID, false)
	})
}

func callDeleteConversation(c *call) (any, error) {
	return c.changeMine("conversationID", func(ctx context.Context, q storage.Querier, ref convRef) error {
		return storage.ClearChatConversation(ctx, q, c.me(), ref.ID, true)
	})
}
