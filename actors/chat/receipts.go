package chat

import (
	"context"
	"errors"

	"kj/storage"
)

// Read receipts. A reader's position in a conversation is its read seq
// (MarkConversationMessageAsRead moves it to the end). From it:
//   - in a 1:1 chat the sender's messages up to the peer's read seq are
//     "read": isRead in history, and OnRecvC2CReadReceipt naming them when
//     the peer reads;
//   - in a group of at most Config.ReceiptGroupMax members, each of the
//     sender's messages carries who of the members (who joined before it)
//     has read it: attachedInfoElem.groupHasReadInfo in history, and
//     OnRecvGroupReadReceipt to the sender when a member reads.
//
// The push names at most receiptBatch messages, the newest of what the
// read covered; older ones show as read when the history is next loaded.
const receiptBatch = 200

// contentHasRead is the content type OpenIM gives a read receipt.
const contentHasRead = 2200

// groupReads is who of a group could and did read a message.
func groupReads(readers []storage.ChatReader, ref storage.ChatMessageRef) GroupHasReadInfo {
	info := GroupHasReadInfo{HasReadUserIDList: []string{}}
	for _, r := range readers {
		if r.UserID == ref.SendID || r.JoinTime > ref.SendTime {
			continue
		}
		info.GroupMemberCount++
		if r.ReadSeq >= ref.Seq {
			info.HasReadCount++
			info.HasReadUserIDList = append(info.HasReadUserIDList, storage.FormatID(r.UserID))
		} else {
			info.UnreadCount++
		}
	}
	return info
}

// other is the user of a 1:1 chat who is not userID.
func (r convRef) other(userID int64) int64 {
	if r.A == userID {
		return r.B
	}
	return r.A
}

// groupReceipts reports whether a group of n members gets read receipts.
func (e *Engine) groupReceipts(n int) bool { return n > 0 && n <= e.cfg.ReceiptGroupMax }

// groupReaders loads the read positions of a group's members, or nothing
// (without loading them) when the group is too big for read receipts.
func (e *Engine) groupReaders(ctx context.Context, ref convRef) ([]storage.ChatReader, error) {
	g, err := storage.ChatGroupByID(ctx, e.db, ref.GroupID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, nil
	}
	if err != nil || !e.groupReceipts(g.MemberCount) {
		return nil, err
	}
	readers, err := storage.ChatGroupReaders(ctx, e.db, ref.GroupID, ref.ID)
	if err != nil || !e.groupReceipts(len(readers)) {
		return nil, err
	}
	return readers, nil
}

// markRead moves userID's read position in a conversation to its end and
// tells the senders of what it covered.
func (e *Engine) markRead(ctx context.Context, userID int64, ref convRef) error {
	before, err := storage.ChatReadSeqOf(ctx, e.db, userID, ref.ID)
	if err != nil {
		return err
	}
	if err := storage.MarkChatConversationRead(ctx, e.db, userID, ref.ID); err != nil {
		return err
	}
	after, err := storage.ChatReadSeqOf(ctx, e.db, userID, ref.ID)
	if err == nil && ref.SessionType == sessionSingle {
		// Before the early return: a send of the reader may have moved
		// the read seq already, and its private messages burn all the same.
		err = e.scheduleBurns(ctx, userID, ref, after)
	}
	if err != nil || after <= before {
		return err
	}
	refs, err := storage.ChatUserMessageRefs(ctx, e.db, ref.ID, before, after, receiptBatch)
	if err != nil {
		return err
	}
	if ref.SessionType == sessionSingle {
		peer := ref.other(userID)
		ids := []string{}
		for _, m := range refs {
			if m.SendID == peer {
				ids = append(ids, m.ClientMsgID)
			}
		}
		if len(ids) > 0 {
			e.push([]int64{peer}, "OnRecvC2CReadReceipt", []ReceiptInfo{{UserID: storage.FormatID(userID), MsgIDList: ids,
				ReadTime: e.now(), MsgFrom: msgFromUser, ContentType: contentHasRead, SessionType: sessionSingle}})
		}
		return nil
	}
	return e.groupReceipt(ctx, userID, ref, refs)
}

// groupReceipt tells each sender of refs (other than the reader) the new
// read state of their messages.
func (e *Engine) groupReceipt(ctx context.Context, reader int64, ref convRef, refs []storage.ChatMessageRef) error {
	bySender := map[int64][]storage.ChatMessageRef{}
	for _, m := range refs {
		if m.SendID != reader {
			bySender[m.SendID] = append(bySender[m.SendID], m)
		}
	}
	if len(bySender) == 0 {
		return nil
	}
	readers, err := e.groupReaders(ctx, ref)
	if err != nil || readers == nil {
		return err
	}
	members, err := e.readMembers(ctx, ref.GroupID, readers)
	if err != nil {
		return err
	}
	for sender, list := range bySender {
		out := GroupMessageReceipt{ConversationID: ref.ID, ReadInfo: make([]GroupMessageRead, 0, len(list))}
		for _, m := range list {
			info := groupReads(readers, m)
			r := GroupMessageRead{ClientMsgID: m.ClientMsgID, HasReadCount: info.HasReadCount, UnreadCount: info.UnreadCount,
				HasReadUserIDList: info.HasReadUserIDList, ReadMembers: make([]*GroupMemberItem, 0, len(info.HasReadUserIDList))}
			for _, id := range info.HasReadUserIDList {
				if it, ok := members[id]; ok {
					r.ReadMembers = append(r.ReadMembers, it)
				}
			}
			out.ReadInfo = append(out.ReadInfo, r)
		}
		e.push([]int64{sender}, "OnRecvGroupReadReceipt", out)
	}
	return nil
}

// readMembers loads the member items of the readers who read anything.
func (e *Engine) readMembers(ctx context.Context, groupID int64, readers []storage.ChatReader) (map[string]*GroupMemberItem, error) {
	var ids []int64
	for _, r := range readers {
		if r.ReadSeq > 0 {
			ids = append(ids, r.UserID)
		}
	}
	ms, err := storage.ChatGroupMembersByIDs(ctx, e.db, groupID, ids)
	if err != nil {
		return nil, err
	}
	items, err := memberItems(ctx, e.db, ms)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*GroupMemberItem, len(items))
	for _, it := range items {
		out[it.UserID] = it
	}
	return out, nil
}

// withReadState sets, on a page of history seen by userID, what the
// receipts say: isRead (1:1: the peer's read position for the user's own
// messages, the user's own for the peer's) and, in a small group, the
// read state of the user's own messages.
func (e *Engine) withReadState(ctx context.Context, userID int64, ref convRef, row storage.ChatUserConversation, msgs []*Message) error {
	if len(msgs) == 0 {
		return nil
	}
	me := storage.FormatID(userID)
	if ref.SessionType == sessionSingle {
		peerRead, err := storage.ChatReadSeqOf(ctx, e.db, ref.other(userID), ref.ID)
		if err != nil {
			return err
		}
		for _, m := range msgs {
			if m.SendID == me {
				m.IsRead = m.Seq <= peerRead
			} else {
				m.IsRead = m.Seq <= row.ReadSeq
			}
		}
		return nil
	}
	mine := false
	for _, m := range msgs {
		m.IsRead = m.SendID == me || m.Seq <= row.ReadSeq
		mine = mine || (m.SendID == me && m.MsgFrom == msgFromUser)
	}
	if !mine {
		return nil
	}
	readers, err := e.groupReaders(ctx, ref)
	if err != nil || readers == nil {
		return err
	}
	for _, m := range msgs {
		if m.SendID == me && m.MsgFrom == msgFromUser {
			info := groupReads(readers, storage.ChatMessageRef{Seq: m.Seq, SendID: userID, SendTime: m.SendTime})
			m.AttachedInfoElem = &AttachedInfoElem{GroupHasReadInfo: &info}
		}
	}
	return nil
}
