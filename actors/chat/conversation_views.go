package chat

import (
	"context"
	"sort"

	"kj/storage"
)

// convMeta is how a conversation is shown to one user: the peer's remark
// or nickname and avatar, or the group's name and face.
type convMeta struct {
	showName   string
	faceURL    string
	notInGroup bool
}

// convMetas resolves names and faces of rows (a few batched reads).
func (e *Engine) convMetas(ctx context.Context, userID int64, rows []storage.ChatUserConversation) (map[string]convMeta, error) {
	var peers, groups []int64
	for _, r := range rows {
		if r.SessionType == sessionSingle {
			peers = append(peers, r.PeerID)
		} else {
			groups = append(groups, r.GroupID)
		}
	}
	users, err := userMap(ctx, e.db, peers)
	if err != nil {
		return nil, err
	}
	remarks := map[int64]string{}
	if len(peers) > 0 {
		friends, err := storage.ChatFriends(ctx, e.db, userID)
		if err != nil {
			return nil, err
		}
		for _, f := range friends {
			remarks[f.FriendID] = f.Remark
		}
	}
	gs, err := groupMap(ctx, e.db, groups)
	if err != nil {
		return nil, err
	}
	out := make(map[string]convMeta, len(rows))
	for _, r := range rows {
		var m convMeta
		if r.SessionType == sessionSingle {
			u := users[r.PeerID]
			m.showName, m.faceURL = u.Nickname, u.Avatar
			// A deleted account reads as one to everyone, whatever remark
			// a friend gave it (storage.DeleteAccount).
			if rm := remarks[r.PeerID]; rm != "" && u.Nickname != storage.DeletedNickname {
				m.showName = rm
			}
		} else {
			g := gs[r.GroupID]
			m.showName, m.faceURL = g.Name, g.FaceURL
			m.notInGroup = r.EndSeq > 0 || g.Status == storage.GroupDismissed
		}
		out[r.ConversationID] = m
	}
	return out, nil
}

// conversationItem renders one conversation of a user.
func conversationItem(r storage.ChatUserConversation, meta convMeta, latest *Message) *ConversationItem {
	it := new(ConversationItem)
	fillConversationItem(it, r, meta, latest, "", false)
	return it
}

// fillConversationItem renders one conversation of a user into it; id is
// the peer's or group's id as text when the caller has it ("": made here).
// With wire, the item is for appendConversationPush, latest beside it: a
// fanned-out latest message (Message.encode) is left out of LatestMsg and
// spliced into the frame from its escaped forms, so a push makes no string
// of it.
func fillConversationItem(it *ConversationItem, r storage.ChatUserConversation, meta convMeta, latest *Message, id string, wire bool) {
	*it = ConversationItem{
		ConversationID: r.ConversationID, ConversationType: r.SessionType, ShowName: meta.showName,
		FaceURL: meta.faceURL, RecvMsgOpt: r.RecvOpt, UnreadCount: max(0, r.Unread), GroupAtType: r.AtType, IsPinned: r.IsPinned,
		DraftText: r.DraftText, DraftTextTime: r.DraftTime, IsNotInGroup: meta.notInGroup,
		MaxSeq: r.VisibleMax(), HasReadSeq: min(r.ReadSeq, r.VisibleMax()), MinSeq: r.MinSeq,
		LatestMsgSendTime: r.CreatedAt, IsPrivateChat: r.PrivateChat, BurnDuration: r.BurnDuration,
	}
	if id == "" {
		id = storage.FormatID(convPartyID(r))
	}
	if r.SessionType == sessionSingle {
		it.UserID = id
	} else {
		it.GroupID = id
	}
	if latest != nil {
		if !wire || latest.escaped == nil {
			it.LatestMsg = latest.jsonText()
		}
		it.LatestMsgSendTime = latest.SendTime
	}
}

// convPartyID is the peer of a 1:1 conversation, the group of a group's.
func convPartyID(r storage.ChatUserConversation) int64 {
	if r.SessionType == sessionSingle {
		return r.PeerID
	}
	return r.GroupID
}

// renderConversations renders rows with their latest messages, sorted as
// the list shows them: pinned first, then by latest activity.
func (e *Engine) renderConversations(ctx context.Context, userID int64, rows []storage.ChatUserConversation) ([]*ConversationItem, error) {
	metas, err := e.convMetas(ctx, userID, rows)
	if err != nil {
		return nil, err
	}
	items := make([]*ConversationItem, 0, len(rows))
	for _, r := range rows {
		var latest *Message
		if r.VisibleMax() > r.MinSeq {
			m, err := storage.LatestVisibleChatMessage(ctx, e.db, userID, r.ConversationID, r.MinSeq, r.VisibleMax())
			if err == nil {
				latest = fromStored(m)
			} else if err != storage.ErrNotFound {
				return nil, err
			}
		}
		items = append(items, conversationItem(r, metas[r.ConversationID], latest))
	}
	sortConversations(items)
	return items, nil
}

func sortConversations(items []*ConversationItem) {
	activity := func(it *ConversationItem) int64 { return max(it.LatestMsgSendTime, it.DraftTextTime) }
	sort.SliceStable(items, func(i, j int) bool {
		if items[i].IsPinned != items[j].IsPinned {
			return items[i].IsPinned
		}
		if a, b := activity(items[i]), activity(items[j]); a != b {
			return a > b
		}
		return items[i].ConversationID < items[j].ConversationID
	})
}

// visibleConversations lists the conversations shown to a user.
func (e *Engine) visibleConversations(ctx context.Context, userID int64) ([]*ConversationItem, error) {
	rows, err := storage.ChatUserConversations(ctx, e.db, userID)
	if err != nil {
		return nil, err
	}
	vis := rows[:0]
	for _, r := range rows {
		if r.Visible() {
			vis = append(vis, r)
		}
	}
	return e.renderConversations(ctx, userID, vis)
}

// totalUnread sums the unread counts of a user's visible conversations that
// are not set to do not disturb.
func (e *Engine) totalUnread(ctx context.Context, userID int64) (int64, error) {
	rows, err := storage.ChatUserConversations(ctx, e.db, userID)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, r := range rows {
		if r.CountsInTotal() {
			n += r.Unread
		}
	}
	return n, nil
}
