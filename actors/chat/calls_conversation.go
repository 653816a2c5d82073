package chat

import (
	"context"
	"errors"
	"math"
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
	return c.s.e.visibleConversations(c.ctx(), c.me())
}

func callConversationsSplit(c *call) (any, error) {
	a := c.argReader()
	offset, count := a.IntIn(0, "offset", 0, math.MaxInt64), a.IntIn(1, "count", 1, 1000)
	if a.err != nil {
		return nil, a.err
	}
	items, err := c.s.e.visibleConversations(c.ctx(), c.me())
	if err != nil {
		return nil, err
	}
	return pageOf(items, offset, count), nil
}

// pageOf is the part of list from offset, count long at the most: an
// offset past the end is an empty page, never nil.
func pageOf[T any](list []T, offset, count int64) []T {
	if offset >= int64(len(list)) {
		return []T{}
	}
	return list[offset:min(int64(len(list)), offset+count)]
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
	r, err := storage.ChatUserConversationByID(c.ctx(), c.s.e.db, c.me(), ref.ID)
	return r, storeErr(err, apierr.CodeChatConvNotFound)
}

func (c *call) renderOne(r storage.ChatUserConversation) (*ConversationItem, error) {
	items, err := c.s.e.renderConversations(c.ctx(), c.me(), []storage.ChatUserConversation{r})
	if err != nil {
		return nil, err
	}
	return items[0], nil
}

// callGetOneConversation returns (creating it for the caller) the
// conversation with a user or of a group: args sessionType, sourceID.
func callGetOneConversation(c *call) (any, error) {
	a := c.argReader()
	st, source := a.Int(0, "sessionType"), a.String(1, "sourceID")
	if a.err != nil {
		return nil, a.err
	}
	ref, err := c.openConversation(st, source)
	if err != nil {
		return nil, err
	}
	e := c.s.e
	if err := storage.ShowChatConversation(c.ctx(), e.db, c.me(), ref.ID); err != nil {
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
	ref, id, err := c.conversationWith(sessionType, source)
	if err != nil {
		return convRef{}, err
	}
	e := c.s.e
	now := e.now()
	if ref.SessionType == sessionSingle {
		if _, err := existingUser(c.ctx(), e.db, id); err != nil {
			return convRef{}, err
		}
		err := e.db.Tx(c.ctx(), func(tx storage.Tx) error {
			if _, err := storage.LockChatConversation(c.ctx(), tx, storage.ChatConversation{ID: ref.ID, SessionType: sessionSingle, CreatedAt: now}); err != nil {
				return err
			}
			return storage.EnsureChatUserConversations(c.ctx(), tx, storage.ChatUserConvRow{UserID: c.me(), ConversationID: ref.ID, PeerID: id, CreatedAt: now})
		})
		return ref, err
	}
	if _, err := storage.ChatUserConversationByID(c.ctx(), e.db, c.me(), ref.ID); err != nil {
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
	rows, err := storage.ChatUserConversations(c.ctx(), e.db, c.me())
	if err != nil {
		return nil, err
	}
	sel := rows[:0]
	for _, r := range rows {
		if want[r.ConversationID] {
			sel = append(sel, r)
		}
	}
	return e.renderConversations(c.ctx(), c.me(), sel)
}

// callConversationID answers the id of the conversation with sourceID:
// args sourceID, sessionType.
func callConversationID(c *call) (any, error) {
	a := c.argReader()
	source, st := a.String(0, "sourceID"), a.Int(1, "sessionType")
	if a.err != nil {
		return nil, a.err
	}
	ref, _, err := c.conversationWith(st, source)
	if err != nil {
		return nil, err
	}
	return ref.ID, nil
}

// conversationWith names the conversation of the caller with sourceID: a
// user (not the caller) or a group, as sessionType says; id is sourceID's.
func (c *call) conversationWith(sessionType int64, source string) (ref convRef, id int64, err error) {
	kind, ok := normalSessionType(sessionType)
	if !ok {
		return convRef{}, 0, badArg("sessionType")
	}
	if id, err = parseID(source, "sourceID"); err != nil {
		return convRef{}, 0, err
	}
	if kind == sessionGroup {
		return convRef{ID: groupConversationID(id), SessionType: sessionGroup, GroupID: id}, id, nil
	}
	if id == c.me() {
		return convRef{}, 0, apierr.ChatError(apierr.CodeChatSelf)
	}
	ref, _ = parseConversationID(singleConversationID(c.meStr(), source))
	return ref, id, nil
}

func callTotalUnread(c *call) (any, error) {
	return c.s.e.totalUnread(c.ctx(), c.me())
}

// changeMine runs a change to the caller's own row of a conversation and
// tells the caller's sockets (on every node) to refresh it.
func (c *call) changeMine(name string, f func(ctx context.Context, q storage.Querier, ref convRef) error) (any, error) {
	ref, err := c.conversationArg(0, name)
	if err != nil {
		return nil, err
	}
	if err := f(c.ctx(), c.s.e.db, ref); err != nil {
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
	return c.changeAllMine(storage.HideAllChatConversations)
}

// changeAllMine runs a change to every conversation row of the caller and
// tells the caller's sockets to reload the list.
func (c *call) changeAllMine(change func(ctx context.Context, q storage.Querier, userID int64) error) (any, error) {
	e := c.s.e
	if err := change(c.ctx(), e.db, c.me()); err != nil {
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
