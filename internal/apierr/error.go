// Package apierr holds what a client sees when a call fails: the envelope
// codes of every area (codes.go), the Error that carries a code and a
// message key, and the message catalogue in the six languages
// (locales/*.json, one file per language, like the web app's locales).
// It imports nothing of kj, so the HTTP routes and the chat engine both
// use it without importing each other.
package apierr

// Error is a failure the client sees: an envelope code and a message key
// translated into the caller's language, with {placeholders} from Args.
type Error struct {
	Code   int
	Key    string
	Args   map[string]any
	Status int // HTTP status; 0 means 200 (the envelope carries the code)
}

func (e *Error) Error() string { return e.Key }

// Fail makes an Error with a code, a message key and optional args given as
// name, value pairs.
func Fail(code int, key string, kv ...any) *Error {
	e := &Error{Code: code, Key: key}
	if len(kv) > 0 {
		e.Args = make(map[string]any, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			e.Args[kv[i].(string)] = kv[i+1]
		}
	}
	return e
}

// WithStatus sets the HTTP status of the reply.
func (e *Error) WithStatus(status int) *Error { e.Status = status; return e }

// Required is the error of a missing field.
func Required(field string) *Error { return Fail(CodeRequired, "field.required", "field", field) }

// Invalid is the error of a field that breaks its rule.
func Invalid(field string) *Error { return Fail(CodeInvalid, "field.invalid", "field", field) }

// NotFound is the error of a missing (or someone else's) thing.
func NotFound() *Error { return Fail(CodeNotFound, "not.found") }

// chatKeys names the message of each chat code.
var chatKeys = map[int]string{
	CodeChatBadFrame: "chat.frame.malformed", CodeChatUnknownCall: "chat.call.unknown",
	CodeChatBadArgument: "chat.arg.invalid", CodeChatLoginFirst: "chat.login.first",
	CodeChatTokenExpired: "chat.token.expired", CodeChatKicked: "chat.kicked",
	CodeChatRateLimited: "chat.rate.limited", CodeChatUserNotFound: "chat.user.not.found",
	CodeChatConvNotFound: "chat.conversation.not.found", CodeChatGroupNotFound: "chat.group.not.found",
	CodeChatMessageNotFound: "chat.message.not.found", CodeChatBlacklisted: "chat.blacklisted",
	CodeChatVerifyRequired: "chat.friend.verify.required", CodeChatAlreadyFriends: "chat.friend.already",
	CodeChatNotFriends: "chat.friend.not", CodeChatNoApplication: "chat.application.none",
	CodeChatSelf: "chat.self", CodeChatGroupNameRequired: "chat.group.name.required",
	CodeChatGroupFull: "chat.group.full", CodeChatGroupDismissed: "chat.group.dismissed",
	CodeChatNotMember: "chat.group.not.member", CodeChatNoPermission: "chat.group.no.permission",
	CodeChatMuted: "chat.group.muted", CodeChatGroupMuted: "chat.group.all.muted",
	CodeChatChannelReadOnly: "chat.channel.read.only", CodeChatAlreadyMember: "chat.group.already.member",
	CodeChatOwnerCannotQuit: "chat.group.owner.quit", CodeChatUnsupportedType: "chat.message.type.unsupported",
	CodeChatBadMessage: "chat.message.invalid", CodeChatBadMediaURL: "chat.media.url",
	CodeChatRevokeTooLate: "chat.revoke.too.late", CodeChatRevokeDenied: "chat.revoke.denied",
	CodeChatUploadTooLarge: "chat.upload.too.large", CodeChatUploadType: "chat.upload.type",
	CodeChatBusy: "system.busy", CodeChatSlowConsumer: "chat.slow.consumer",
	CodeChatTooFast: "chat.too.fast", CodeChatTooManySockets: "chat.too.many.sockets",
	CodeChatDeviceLimit: "chat.device.limit",
	CodeChatDraining:    "chat.draining", CodeChatNicknameInvalid: "chat.nickname.invalid",
	CodeChatMuteRange: "chat.mute.range", CodeChatTargetNotMember: "chat.group.target.not.member",
	CodeChatMediaExpired: "chat.media.expired", CodeChatMediaRefused: "chat.media.refused",
	CodeChatMentionNotMember: "chat.mention.not.member", CodeChatMentionAllDenied: "chat.mention.all.denied",
	CodeChatAvatarNotOwn: "chat.avatar.not.own",
	CodeChatNotSupported: "chat.call.not.supported", CodeChatPrivateSingleOnly: "chat.private.single.only",
	CodeChatEditTooLate: "chat.edit.too.late", CodeChatEditDenied: "chat.edit.denied",
	CodeChatReactionLimit: "chat.reaction.limit",
}

// ChatError is the error of a chat code, with its message arguments as
// name, value pairs.
func ChatError(code int, kv ...any) *Error {
	key, ok := chatKeys[code]
	if !ok {
		key = "system.busy"
	}
	return Fail(code, key, kv...)
}
