package chat

import (
	"strconv"
	"sync/atomic"

	"kj/push"
	"kj/storage"
)

// Pusher is offered every delivery of committed messages, for Web Push to
// the devices of recipients who have the app closed (package push). Offer
// must not block: it runs on the delivery path of every send.
type Pusher interface {
	Offer(n push.Notice)
}

// pushHook holds the engine's Pusher; the delivery path loads it
// atomically, so it may be set while the engine runs.
type pushHook struct{ p atomic.Pointer[pusherBox] }

type pusherBox struct{ Pusher }

// UsePush sets the Web Push sender (nil: none, no push is offered).
func (e *Engine) UsePush(p Pusher) {
	if p == nil {
		e.delivery.webPush.p.Store(nil)
		return
	}
	e.delivery.webPush.p.Store(&pusherBox{p})
}

// offerPush offers the newest message a person wrote in ev (not a notice:
// group changes, revokes) with the conversation's recipients; the sender
// decides off this path who gets it. Only the node that committed the
// messages calls deliver, so each message is offered once in a cluster.
// userIDs and the messages are shared, never modified, as the delivery's.
func (e *Engine) offerPush(userIDs []int64, ev *userEvent) {
	box := e.delivery.webPush.p.Load()
	if box == nil {
		return
	}
	for i := len(ev.Msgs) - 1; i >= 0; i-- {
		m := ev.Msgs[i]
		if m.ContentType >= storage.ChatNoticeFrom || m.MsgFrom != msgFromUser {
			continue
		}
		sender, _ := strconv.ParseInt(m.SendID, 10, 64)
		box.Offer(push.Notice{ConversationID: ev.Conv, Group: m.GroupID != "", Recipients: userIDs,
			SenderID: sender, SenderName: m.SenderNickname, Kind: m.ContentType, Text: messageText(m), Seq: m.Seq})
		return
	}
}
