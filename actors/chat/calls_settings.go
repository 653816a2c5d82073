package chat

import (
	"context"

	"kj/internal/apierr"
	"kj/storage"
)

// The SDK's last calls (issue 36): do not disturb for everything, private
// chat (burn after reading, burn.go), the reset of a group's @mark, and the
// calls kj answers with a clear "not supported" because the app does them
// on its own (docs/PROTOCOL.md lists them).

// maxBurnSeconds caps SetConversationBurnDuration: a week.
const maxBurnSeconds = 7 * 24 * 3600

// notSupported are names of the SDK's RequestApi that the server has no
// part in: the native SDK keeps their data in the device's own database
// (Insert*MessageToLocalStorage, SetMessageLocalEx), the JS SDK runs them
// itself (InitSDK; UploadFile and the *ByFile builders upload over HTTP to
// OpenIM's object store; kj's uploads are /api/chat/upload). They are
// answered 1370 naming the call, not 1301: the name is known.
var notSupported = []string{
	"InitSDK", "UploadFile",
	"CreateImageMessageByFile", "CreateSoundMessageByFile", "CreateVideoMessageByFile", "CreateFileMessageByFile",
	"InsertSingleMessageToLocalStorage", "InsertGroupMessageToLocalStorage", "SetMessageLocalEx",
}

func init() {
	m := map[string]handlerFunc{
		"SetGlobalRecvMessageOpt":      callSetGlobalRecvOpt,
		"SetConversationPrivateChat":   callSetPrivateChat,
		"SetConversationBurnDuration":  callSetBurnDuration,
		"ResetConversationGroupAtType": callResetAtType,
	}
	for _, name := range notSupported {
		m[name] = callNotSupported
	}
	register(m)
}

func callNotSupported(c *call) (any, error) {
	return nil, apierr.ChatError(apierr.CodeChatNotSupported, "name", c.name)
}

// callSetGlobalRecvOpt sets do not disturb for everything, [opt]: 0
// normal, 1 receive nothing, 2 receive without notification. It is the
// user's, on every device: each socket hears OnSelfInfoUpdated.
func callSetGlobalRecvOpt(c *call) (any, error) {
	opt, err := c.args.Int(0, "opt")
	if err != nil || opt < 0 || opt > 2 {
		return nil, badArg("opt")
	}
	e := c.s.e
	if err := storage.SetChatGlobalRecvOpt(c.ctx(), e.db, c.me(), int(opt)); err != nil {
		return nil, storeErr(err, apierr.CodeChatUserNotFound)
	}
	u, err := storage.UserByID(c.ctx(), e.db, c.me())
	if err != nil {
		return nil, err
	}
	info := selfInfo(u)
	info.GlobalRecvMsgOpt = int(opt)
	e.push([]int64{c.me()}, "OnSelfInfoUpdated", info)
	return nil, nil
}

// selfInfoOf is selfInfo with the user's do not disturb for everything.
func (e *Engine) selfInfoOf(ctx context.Context, u storage.User) (SelfUserInfo, error) {
	info := selfInfo(u)
	opt, err := storage.ChatGlobalRecvOpt(ctx, e.db, u.ID)
	info.GlobalRecvMsgOpt = opt
	return info, err
}

// privateArg reads the conversation of a private chat setting: a 1:1 chat
// of the caller that they have in their list.
func (c *call) privateArg() (convRef, error) {
	ref, err := c.conversationArg(0, "conversationID")
	if err != nil {
		return ref, err
	}
	if ref.SessionType != sessionSingle {
		return ref, apierr.ChatError(apierr.CodeChatPrivateSingleOnly)
	}
	_, err = c.myRow(ref)
	return ref, err
}

// callSetPrivateChat turns private chat of a 1:1 chat on or off,
// [conversationID, isPrivate]. The setting is the conversation's, so both
// users' devices hear OnConversationChanged with isPrivateChat. While it
// is on, every message sent (either way) is deleted, on both sides and in
// the store, burnDuration seconds after the peer reads it.
func callSetPrivateChat(c *call) (any, error) {
	ref, err := c.privateArg()
	if err != nil {
		return nil, err
	}
	on, err := c.args.Bool(1, "isPrivate")
	if err != nil {
		return nil, err
	}
	e := c.s.e
	var changed bool
	err = e.db.Tx(c.ctx(), func(tx storage.Tx) error {
		changed, err = storage.SetChatPrivateChat(c.ctx(), tx, storage.ChatConversation{ID: ref.ID, SessionType: sessionSingle, CreatedAt: e.now()}, on)
		return err
	})
	if err != nil {
		return nil, err
	}
	if changed {
		e.changed([]int64{ref.A, ref.B}, ref.ID)
	}
	return nil, nil
}

// callSetBurnDuration sets how long a private message lives once read,
// [conversationID, burnDuration] in seconds (1 to a week); reads from now
// on use it. Both users' devices hear it.
func callSetBurnDuration(c *call) (any, error) {
	ref, err := c.privateArg()
	if err != nil {
		return nil, err
	}
	secs, err := c.args.Int(1, "burnDuration")
	if err != nil || secs < 1 || secs > maxBurnSeconds {
		return nil, badArg("burnDuration")
	}
	e := c.s.e
	if err := e.db.Tx(c.ctx(), func(tx storage.Tx) error {
		return storage.SetChatBurnDuration(c.ctx(), tx, storage.ChatConversation{ID: ref.ID, SessionType: sessionSingle, CreatedAt: e.now()}, secs)
	}); err != nil {
		return nil, err
	}
	e.changed([]int64{ref.A, ref.B}, ref.ID)
	return nil, nil
}

// callResetAtType clears the caller's @mark (groupAtType) of a
// conversation without reading it, [conversationID]; a later @message
// marks it again. The caller's devices hear it.
func callResetAtType(c *call) (any, error) {
	return c.changeMine("conversationID", func(ctx context.Context, q storage.Querier, ref convRef) error {
		return storage.ResetChatAtType(ctx, q, c.me(), ref.ID)
	})
}
