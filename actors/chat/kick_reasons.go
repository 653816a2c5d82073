package chat

import (
	"errors"

	"kj/auth"
	"kj/internal/apierr"
)

// kickReasonCode maps a session-ended reason onto the callback, the error
// code and the close code. The device limit (KJ_LOGIN_POLICY=devices) is a
// kick offline to the SDK, so it does not reconnect, but says why in words
// of its own (1362), apart from the platform policy's "logged in
// elsewhere" (1305).
func kickReasonCode(reason string) (event string, code, closeCode int) {
	switch reason {
	case auth.ReasonReplaced:
		return "OnKickedOffline", apierr.CodeChatKicked, closeKicked
	case auth.ReasonDeviceLimit:
		return "OnKickedOffline", apierr.CodeChatDeviceLimit, closeKicked
	}
	return "OnUserTokenExpired", apierr.CodeChatTokenExpired, closeTokenExpired
}

// endedReason is why a refused chat token's sign-in ended.
func endedReason(err error) string {
	switch {
	case errors.Is(err, auth.ErrReplaced):
		return auth.ReasonReplaced
	case errors.Is(err, auth.ErrDeviceLimit):
		return auth.ReasonDeviceLimit
	}
	return auth.ReasonSignedOut
}
