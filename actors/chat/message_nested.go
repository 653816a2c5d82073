package chat

// Messages carried inside others (a quote, the items of a merge, the quote
// of an @ message) come from the client, which could name anyone as their
// sender: a user could quote a message "from" the customer-service account.
// Each is replaced by the stored message it names, and refused unless that
// message is in a conversation of the sender's, within what they may see.

import (
	"errors"

	"kj/internal/apierr"
	"kj/storage"
)

// resolveNested replaces *m with the stored message it names (sender,
// times, element), or refuses it.
func (c checker) resolveNested(m *Message) error {
	notFound := apierr.ChatError(apierr.CodeChatMessageNotFound)
	var convID string
	switch m.SessionType {
	case sessionSingle:
		if _, err := parseUserID(m.SendID); err != nil {
			return notFound
		}
		if _, err := parseUserID(m.RecvID); err != nil || m.SendID == m.RecvID {
			return notFound
		}
		convID = singleConversationID(m.SendID, m.RecvID)
	case sessionGroup:
		g, err := parseUserID(m.GroupID)
		if err != nil {
			return notFound
		}
		convID = groupConversationID(g)
	default:
		return notFound
	}
	uc, err := storage.ChatUserConversationByID(c.ctx(), c.db, c.user, convID)
	if errors.Is(err, storage.ErrNotFound) {
		return notFound
	}
	if err != nil {
		return err
	}
	row, err := storage.ChatMessageByClientID(c.ctx(), c.db, convID, m.ClientMsgID)
	if errors.Is(err, storage.ErrNotFound) {
		return notFound
	}
	if err != nil {
		return err
	}
	if row.Seq <= uc.MinSeq || row.Seq > uc.VisibleMax() {
		return notFound
	}
	*m = *fromStored(row)
	return nil
}
