package chat

import (
	"context"
	"time"

	"kj/storage"
)

// Burn after reading (private chat, calls_settings.go). A message sent
// while a 1:1 chat's private chat is on is deleted, from the store and so
// from both users' history on every device, the conversation's
// burnDuration after the peer read it:
//
//   - sends pay nothing: whether a message is private follows from its seq
//     (the spans of seqs sent while the setting was on, opened and closed
//     under the conversation's row lock);
//   - a read (markRead) turns the private messages it covers into one
//     burn row per span, due at now + burnDuration (storage.ScheduleChatBurns);
//   - one sweep per node (not a timer per message) deletes what is due,
//     every Config.BurnSweep, and tells both users: OnMessagesBurned with
//     the deleted messages, and OnConversationChanged (the latest message
//     may have gone). Nodes sweeping the same burn do it once: the burn
//     row is deleted in the same transaction as the messages.

// burnBatch is how many burns one store read of the sweep takes.
const burnBatch = 100

// burnSweep runs the sweep every Config.BurnSweep until stop.
type burnSweep struct {
	quit chan struct{}
	done chan struct{}
}

func (e *Engine) startBurnSweep() *burnSweep {
	b := &burnSweep{quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(b.done)
		// A real ticker wakes the sweep; what is due is judged by the
		// engine's clock (a fake one in tests, which call sweepBurns).
		t := time.NewTicker(e.cfg.BurnSweep)
		defer t.Stop()
		for {
			select {
			case <-b.quit:
				return
			case <-t.C:
				e.sweepBurns()
			}
		}
	}()
	return b
}

func (b *burnSweep) stop() {
	if b == nil {
		return
	}
	close(b.quit)
	<-b.done
}

// MessagesBurned is the data of OnMessagesBurned: messages of a
// conversation that burned after reading, deleted on both sides.
type MessagesBurned struct {
	ConversationID  string   `json:"conversationID"`
	ClientMsgIDList []string `json:"clientMsgIDList"`
	SeqList         []int64  `json:"seqList"`
}

// sweepBurns deletes the messages whose burn is due by the engine's clock
// and returns how many it deleted.
func (e *Engine) sweepBurns() int {
	ctx, cancel := e.ctx()
	defer cancel()
	n := 0
	for {
		due, err := storage.DueChatBurns(ctx, e.db, e.now(), burnBatch)
		if err != nil {
			e.log.Warn("burn sweep", "err", err)
			return n
		}
		for _, b := range due {
			n += e.burn(ctx, b)
		}
		if len(due) < burnBatch {
			return n
		}
	}
}

// burn carries out one burn and tells both users of the conversation.
func (e *Engine) burn(ctx context.Context, b storage.ChatBurn) int {
	var burned []storage.BurnedChatMessage
	var ok bool
	err := e.db.Tx(ctx, func(tx storage.Tx) (err error) {
		burned, ok, err = storage.BurnChatMessages(ctx, tx, b)
		return err
	})
	if err != nil {
		e.log.Warn("burn", "conversation", b.ConversationID, "err", err)
		return 0
	}
	ref, parsed := parseConversationID(b.ConversationID)
	if !ok || len(burned) == 0 || !parsed {
		return 0
	}
	out := MessagesBurned{ConversationID: ref.ID, ClientMsgIDList: make([]string, len(burned)), SeqList: make([]int64, len(burned))}
	for i, m := range burned {
		out.ClientMsgIDList[i], out.SeqList[i] = m.ClientMsgID, m.Seq
	}
	users := []int64{ref.A, ref.B}
	e.push(users, "OnMessagesBurned", out)
	e.changed(users, ref.ID)
	return len(burned)
}

// scheduleBurns turns userID's read of a 1:1 chat up to readSeq into burns
// of the peer's private messages it covers (none, at the cost of one
// indexed read and no transaction, when the chat never had private chat
// on).
func (e *Engine) scheduleBurns(ctx context.Context, userID int64, ref convRef, readSeq int64) error {
	if had, err := storage.ChatHadPrivateChat(ctx, e.db, ref.ID); err != nil || !had {
		return err
	}
	return e.db.Tx(ctx, func(tx storage.Tx) error {
		_, err := storage.ScheduleChatBurns(ctx, tx, ref.ID, userID, ref.other(userID), readSeq, e.now())
		return err
	})
}
