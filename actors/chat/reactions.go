package chat

import (
	"context"
	"encoding/json"
	"errors"
	"unicode"
	"unicode/utf8"

	"kj/internal/apierr"
	"kj/storage"
)

// Reactions and edits (docs/PROTOCOL.md "Reactions and edits"). Both are
// ops of the conversation's actor, in order with its sends, and each one
// appends a notice with the next seq: a device that was offline catches
// up on them with the history calls like any message, and a client that
// does not know their content types shows or skips one more notification.
// The current state (who reacted with what, the edited text and when) is
// kept in the store and folded into every history page (withMarks), so a
// client that just opened a conversation needs no replay. An ordinary send
// pays nothing for any of this: its path is not touched.

// kj's own notice content types, above OpenIM's (the SDK's enum ends at
// 2101; OpenIM's server uses up to the 2200s).
const (
	NoticeReaction = storage.ChatNoticeReaction // 2901: a reaction was added to or removed from a message
	NoticeEdit     = storage.ChatNoticeEdit     // 2902: a text message was edited
)

const (
	maxReactionKinds = 20 // different emoji on one message
	maxEmojiBytes    = 32
	maxEmojiRunes    = 8
)

func init() {
	register(map[string]handlerFunc{
		"AddMessageReaction":    func(c *call) (any, error) { return callReaction(c, true) },
		"DeleteMessageReaction": func(c *call) (any, error) { return callReaction(c, false) },
		"EditMessage":           callEditMessage,
	})
}

// MessageReaction is one emoji on a message: how many reacted with it and
// who, in the order they did.
type MessageReaction struct {
	Emoji      string   `json:"emoji"`
	Count      int      `json:"count"`
	UserIDList []string `json:"userIDList"`
}

// ReactionNotice is the detail of a 2901 notice.
type ReactionNotice struct {
	ConversationID string            `json:"conversationID"`
	ClientMsgID    string            `json:"clientMsgID"` // the message reacted to
	Seq            int64             `json:"seq"`         // its seq
	UserID         string            `json:"userID"`      // who reacted
	Nickname       string            `json:"nickname"`
	Emoji          string            `json:"emoji"`
	Add            bool              `json:"add"` // false: the reaction was taken back
	Reactions      []MessageReaction `json:"reactions"`
}

// EditNotice is the detail of a 2902 notice.
type EditNotice struct {
	ConversationID string    `json:"conversationID"`
	ClientMsgID    string    `json:"clientMsgID"` // the message edited
	Seq            int64     `json:"seq"`
	EditorID       string    `json:"editorID"`
	EditTime       int64     `json:"editTime"`
	TextElem       *TextElem `json:"textElem"`
}

// validEmoji accepts one short emoji (a sequence with joiners, selectors
// or a keycap included): no spaces or control characters, and something
// beyond ASCII, so a word is not a reaction.
func validEmoji(s string) bool {
	if s == "" || len(s) > maxEmojiBytes || !utf8.ValidString(s) || utf8.RuneCountInString(s) > maxEmojiRunes {
		return false
	}
	wide := false
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || unicode.IsLetter(r) && r < utf8.RuneSelf {
			return false
		}
		if r >= utf8.RuneSelf {
			wide = true
		}
	}
	return wide
}

// callReaction adds (or takes back) the caller's reaction to a message:
// args conversationID, clientMsgID, emoji. The answer is the message's
// reactions after it.
func callReaction(c *call, add bool) (any, error) {
	a := c.argReader()
	ref, clientID, emoji := a.Conversation(0, "conversationID"), a.String(1, "clientMsgID"), a.String(2, "emoji")
	a.check(validEmoji(emoji), "emoji")
	if a.err != nil {
		return nil, a.err
	}
	me, self := c.me(), c.s.self
	c.tellOp(ref, func(ctx context.Context, tx storage.Tx, w *noticeWriter) (*outcome, error) {
		msg, err := markTarget(ctx, tx, ref, me, clientID, w.now, true)
		if err != nil {
			return nil, err
		}
		var changed bool
		if add {
			list, err := storage.ChatReactionsOf(ctx, tx, ref.ID, msg.Seq)
			if err != nil {
				return nil, err
			}
			if kinds := reactionsFrom(list); len(kinds) >= maxReactionKinds && !hasEmoji(kinds, emoji) {
				return nil, apierr.ChatError(apierr.CodeChatReactionLimit)
			}
			changed, err = storage.AddChatReaction(ctx, tx, ref.ID, storage.ChatReaction{Seq: msg.Seq, Emoji: emoji, UserID: me, CreatedAt: w.now})
			if err != nil {
				return nil, err
			}
		} else if changed, err = storage.RemoveChatReaction(ctx, tx, ref.ID, msg.Seq, emoji, me); err != nil {
			return nil, err
		}
		list, err := storage.ChatReactionsOf(ctx, tx, ref.ID, msg.Seq)
		if err != nil {
			return nil, err
		}
		reactions := reactionsFrom(list)
		if !changed {
			// Nothing to tell anyone: the same reaction twice (a resend
			// after a lost answer) or one that was not there.
			return &outcome{data: reactions}, nil
		}
		detail := ReactionNotice{ConversationID: ref.ID, ClientMsgID: msg.ClientMsgID, Seq: msg.Seq,
			UserID: self.idStr, Nickname: self.nickname, Emoji: emoji, Add: add, Reactions: reactions}
		if err := w.write(notice(NoticeReaction, self, detail, w.now)); err != nil {
			return nil, err
		}
		return &outcome{data: reactions}, nil
	})
	return nil, errLater
}

// callEditMessage replaces the text of the caller's own text message, up
// to KJ_CHAT_EDIT_WINDOW after it was sent: args conversationID,
// clientMsgID, text. The answer is the message as it is now.
func callEditMessage(c *call) (any, error) {
	a := c.argReader()
	ref, clientID, text := a.Conversation(0, "conversationID"), a.String(1, "clientMsgID"), a.String(2, "text")
	if a.err != nil {
		return nil, a.err
	}
	elem := &TextElem{Content: text}
	if err := c.checker().text(elem); err != nil {
		return nil, err
	}
	me, self, window := c.me(), c.s.self, c.s.e.cfg.EditWindow.Milliseconds()
	c.tellOp(ref, func(ctx context.Context, tx storage.Tx, w *noticeWriter) (*outcome, error) {
		msg, err := markTarget(ctx, tx, ref, me, clientID, w.now, false)
		if err != nil {
			return nil, err
		}
		if msg.SendID != me || msg.ContentType != TypeText {
			return nil, apierr.ChatError(apierr.CodeChatEditDenied)
		}
		if w.now-msg.SendTime > window {
			return nil, apierr.ChatError(apierr.CodeChatEditTooLate)
		}
		content, _ := json.Marshal(elem)
		if err := storage.ReplaceChatMessageContent(ctx, tx, ref.ID, msg.Seq, TypeText, string(content)); err != nil {
			return nil, err
		}
		if err := storage.MarkChatMessageEdited(ctx, tx, ref.ID, msg.Seq, w.now); err != nil {
			return nil, err
		}
		detail := EditNotice{ConversationID: ref.ID, ClientMsgID: msg.ClientMsgID, Seq: msg.Seq,
			EditorID: self.idStr, EditTime: w.now, TextElem: elem}
		if err := w.write(notice(NoticeEdit, self, detail, w.now)); err != nil {
			return nil, err
		}
		msg.Content = string(content)
		edited := fromStored(msg)
		edited.EditTime = w.now
		if list, err := storage.ChatReactionsOf(ctx, tx, ref.ID, msg.Seq); err != nil {
			return nil, err
		} else if len(list) > 0 {
			edited.Reactions = reactionsFrom(list)
		}
		return &outcome{data: edited}, nil
	})
	return nil, errLater
}

// tellOp runs op in order with the sends of ref's conversation; the caller
// hears the op's answer.
func (c *call) tellOp(ref convRef, run func(ctx context.Context, tx storage.Tx, w *noticeWriter) (*outcome, error)) {
	op := &opItem{reply: c.replyTo(), run: run}
	if ref.SessionType == sessionGroup {
		c.s.e.tellGroup(ref.GroupID, &opRequest{item: op})
	} else {
		c.s.e.tellConversation(ref, &opRequest{item: op})
	}
}

// markTarget checks, inside the op's transaction, that user me may react
// to (reaction) or edit the message clientID of ref now, by the rules of a
// send: in a 1:1 chat neither user blocked the other; in a group it is not
// dismissed and me is a member not silenced by a member or group mute. A
// channel's members may react, though only its admins post. The message
// must be one me sees (not cleared, not from before joining) and not a
// notice or a revoked message.
func markTarget(ctx context.Context, tx storage.Tx, ref convRef, me int64, clientID string, now int64, reaction bool) (storage.ChatMessage, error) {
	var none storage.ChatMessage
	if ref.SessionType == sessionGroup {
		g, err := storage.ChatGroupByID(ctx, tx, ref.GroupID)
		if err != nil {
			return none, storeErr(err, apierr.CodeChatGroupNotFound)
		}
		m, err := storage.ChatGroupMemberOf(ctx, tx, ref.GroupID, me)
		member := err == nil
		if err != nil && !isNotFound(err) {
			return none, err
		}
		if reaction && g.GroupType == storage.GroupTypeChannel {
			g.GroupType = storage.GroupTypeGroup // judged as a group: reacting is not posting
		}
		if err := judgeGroupSend(g, m, member, now); err != nil {
			return none, err
		}
	} else {
		peer := ref.A
		if peer == me {
			peer = ref.B
		}
		if _, err := existingUser(ctx, tx, peer); err != nil {
			return none, err
		}
		blocked, err := storage.ChatBlocksBetween(ctx, tx, ref.A, ref.B)
		if err != nil {
			return none, err
		}
		if blocked[ref.A] || blocked[ref.B] {
			return none, apierr.ChatError(apierr.CodeChatBlacklisted)
		}
	}
	row, err := storage.ChatUserConversationByID(ctx, tx, me, ref.ID)
	if err != nil {
		return none, storeErr(err, apierr.CodeChatMessageNotFound)
	}
	msg, err := storage.ChatMessageByClientID(ctx, tx, ref.ID, clientID)
	if err != nil || msg.Seq <= row.MinSeq || msg.Seq > row.VisibleMax() || msg.ContentType >= storage.ChatNoticeFrom {
		return none, storeErr(orNotFound(err), apierr.CodeChatMessageNotFound)
	}
	return msg, nil
}

// reactionsFrom groups stored reactions (oldest first) by emoji, in the
// order each emoji was first used.
func reactionsFrom(list []storage.ChatReaction) []MessageReaction {
	out := []MessageReaction{}
	at := map[string]int{}
	for _, r := range list {
		i, ok := at[r.Emoji]
		if !ok {
			i = len(out)
			at[r.Emoji] = i
			out = append(out, MessageReaction{Emoji: r.Emoji, UserIDList: []string{}})
		}
		out[i].Count++
		out[i].UserIDList = append(out[i].UserIDList, storage.FormatID(r.UserID))
	}
	return out
}

func hasEmoji(list []MessageReaction, emoji string) bool {
	for _, r := range list {
		if r.Emoji == emoji {
			return true
		}
	}
	return false
}

// withMarks folds the current reactions and edit times into messages of
// conversation convID (a history page, found messages): one store read for
// the seq range they span.
func (e *Engine) withMarks(ctx context.Context, convID string, msgs []*Message) error {
	var from, to int64
	for _, m := range msgs {
		if m.Seq <= 0 || m.ContentType >= storage.ChatNoticeFrom {
			continue
		}
		if from == 0 || m.Seq < from {
			from = m.Seq
		}
		to = max(to, m.Seq)
	}
	if from == 0 {
		return nil
	}
	marks, err := storage.ChatMessageMarksBetween(ctx, e.db, convID, from, to)
	if err != nil {
		return err
	}
	for _, m := range msgs {
		if list := marks.Reactions[m.Seq]; len(list) > 0 {
			m.Reactions = reactionsFrom(list)
		}
		if t := marks.Edited[m.Seq]; t > 0 {
			m.EditTime = t
		}
	}
	return nil
}

// isMarkNotice says whether m is a reaction or an edit: a notice that
// changes another message, never itself the conversation's latest message
// (the list keeps showing what was said, not who reacted).
func isMarkNotice(contentType int) bool {
	return contentType == NoticeReaction || contentType == NoticeEdit
}

func isNotFound(err error) bool { return errors.Is(err, storage.ErrNotFound) }

// markedLatest applies a reaction or edit notice to a user's cached view
// of its conversation: the latest message stays, but an edit may have
// changed its text, so it is read again when next shown.
func markedLatest(st *convState, m *Message) {
	if m.ContentType == NoticeEdit {
		st.latest = nil
	}
}
