package chat

import (
	"context"
	"errors"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"kj/internal/apierr"
	"kj/storage"
)

// The rules a send must pass are answered from the conversation or group
// actor's own state, loaded from the store once and dropped (reloaded on
// the next send) by the changes that affect it:
//   - a 1:1 chat: both users exist, and neither blocked the other
//     (AddBlack and RemoveBlack tell the chat's actor, on every node);
//   - a group or channel: it exists and is not dismissed, the sender is a
//     member, may post in a channel (admin or owner), is not silenced by a
//     group mute (admins excepted) or by a member mute (its deadline is
//     compared with the clock). Every change of a group is an op of the
//     group's actor, which drops its state after it and tells the actors of
//     the same group on other nodes (kj.chat.group.<id>).
//
// A change made on one node reaches the actors of other nodes over the bus,
// so for that delivery's time (milliseconds) a send there may still be
// judged by the rules before it; on one node the change and the sends are
// ordered by the actor's mailbox. A state that refuses everything (unknown
// user or group) is not kept, so a group created a moment later is seen.

// rulesSubject carries "the rules of this 1:1 chat changed" between nodes.
const rulesSubject = "kj.chat.rules"

// rulesChanged tells a conversation actor to drop its rules.
type rulesChanged struct{}

// pairRules is what a 1:1 chat's sends are judged by.
type pairRules struct {
	loaded  bool
	blocked map[int64]bool // user -> has blocked the other
}

// judge checks one send of a 1:1 chat.
func (a *conversationActor) judge(it *sendItem) error {
	if !a.rules.loaded {
		ctx, cancel := a.e.ctx()
		defer cancel()
		users, err := storage.UsersByIDs(ctx, a.e.db, []int64{a.ref.A, a.ref.B})
		if err != nil {
			a.e.log.Warn("load send rules", "conv", a.ref.ID, "err", err)
			return errBusy()
		}
		if len(users) != 2 {
			return apierr.ChatError(apierr.CodeChatUserNotFound)
		}
		blocked, err := storage.ChatBlocksBetween(ctx, a.e.db, a.ref.A, a.ref.B)
		if err != nil {
			a.e.log.Warn("load send rules", "conv", a.ref.ID, "err", err)
			return errBusy()
		}
		a.rules = pairRules{loaded: true, blocked: blocked}
	}
	from, _ := parseUserID(it.msg.SendID)
	peer := a.ref.A
	if from == a.ref.A {
		peer = a.ref.B
	}
	if a.rules.blocked[peer] {
		return apierr.ChatError(apierr.CodeChatBlacklisted)
	}
	return nil
}

// pairRulesChanged tells the actor of the 1:1 chat of a and b, here and on
// the other nodes, that a block between them was added or removed. The
// caller answers its client only after this, so a send that reaches the
// actor after the answer is judged by the new rules.
func (e *Engine) pairRulesChanged(a, b int64) {
	id := singleConversationID(storage.FormatID(a), storage.FormatID(b))
	e.dropRules(id)
	if e.cfg.Cluster {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := e.cluster.bus.Publish(ctx, rulesSubject, []byte(id)); err != nil {
			e.log.Warn("publish rules change", "conv", id, "err", err)
		}
	}
}

// dropRules tells a running conversation actor to reload its rules.
func (e *Engine) dropRules(convID string) {
	e.live.convs.with(convID, nil, func(pid *actor.PID) { e.root.Send(pid, &rulesChanged{}) })
}

// onRulesChanged is the bus side of pairRulesChanged.
func (e *Engine) onRulesChanged(_ string, data []byte) { e.dropRules(string(data)) }

// groupRules is what a group's sends are judged by.
type groupRules struct {
	loaded  bool
	group   storage.ChatGroup
	members map[int64]storage.ChatGroupMember
}

// loadRules reads the group and its members; the member list also serves
// the fan-out.
func (a *groupActor) loadRules() error {
	ctx, cancel := a.e.ctx()
	defer cancel()
	g, err := storage.ChatGroupByID(ctx, a.e.db, a.id)
	if errors.Is(err, storage.ErrNotFound) {
		return apierr.ChatError(apierr.CodeChatGroupNotFound)
	}
	if err != nil {
		a.e.log.Warn("load send rules", "group", a.id, "err", err)
		return errBusy()
	}
	list, err := storage.ChatGroupMembers(ctx, a.e.db, a.id)
	if err != nil {
		a.e.log.Warn("load send rules", "group", a.id, "err", err)
		return errBusy()
	}
	members := make(map[int64]storage.ChatGroupMember, len(list))
	ids := make([]int64, len(list))
	for i, m := range list {
		members[m.UserID] = m
		ids[i] = m.UserID
	}
	a.rules = groupRules{loaded: true, group: g, members: members}
	a.members, a.loaded = ids, true
	return nil
}

// judge checks one send of a group or channel.
func (a *groupActor) judge(it *sendItem) error {
	if !a.rules.loaded {
		if err := a.loadRules(); err != nil {
			return err
		}
	}
	return judgeGroupMessage(a.rules.group, a.rules.members, it.msg, a.e.now())
}

// judgeGroupMessage is the verdict on msg sent into g (with members) at
// now: the rules of every group send, stored or only relayed to the
// members online (isOnlineOnly), whose @mentions tell as much.
func judgeGroupMessage(g storage.ChatGroup, members map[int64]storage.ChatGroupMember, msg *Message, now int64) error {
	id, _ := parseUserID(msg.SendID)
	m, ok := members[id]
	if err := judgeGroupSend(g, m, ok, now); err != nil {
		return err
	}
	if msg.ContentType == TypeAtText && msg.AtTextElem != nil {
		return judgeMentions(members, m, msg.AtTextElem.AtUserList)
	}
	return nil
}

// judgeMentions is the verdict on an @message by sender naming atUsers:
// each one a member of the group, and "@all" only from its owner or an
// admin (everyone would be told, so an ordinary member may not).
func judgeMentions(members map[int64]storage.ChatGroupMember, sender storage.ChatGroupMember, atUsers []string) error {
	for _, u := range atUsers {
		if u == atAllTag {
			if sender.RoleLevel < storage.RoleAdmin {
				return apierr.ChatError(apierr.CodeChatMentionAllDenied)
			}
			continue
		}
		id, err := parseUserID(u)
		if _, member := members[id]; err != nil || !member {
			return apierr.ChatError(apierr.CodeChatMentionNotMember)
		}
	}
	return nil
}

// judgeGroupSend is the verdict on a send by m (ok: m is a member) into g
// at now.
func judgeGroupSend(g storage.ChatGroup, m storage.ChatGroupMember, ok bool, now int64) error {
	switch {
	case g.Status == storage.GroupDismissed:
		return apierr.ChatError(apierr.CodeChatGroupDismissed)
	case !ok:
		return apierr.ChatError(apierr.CodeChatNotMember)
	case g.GroupType == storage.GroupTypeChannel && m.RoleLevel < storage.RoleAdmin:
		return apierr.ChatError(apierr.CodeChatChannelReadOnly)
	case g.Status == storage.GroupMuted && m.RoleLevel < storage.RoleAdmin:
		return apierr.ChatError(apierr.CodeChatGroupMuted)
	case m.MutedUntil > now:
		return apierr.ChatError(apierr.CodeChatMuted)
	}
	return nil
}
