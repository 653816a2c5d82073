package chat

import (
	"regexp"

	"kj/internal/apierr"
	"kj/storage"
)

// An avatar (a user's faceURL, a group's, a member's face in a group) is
// loaded by the app of everyone who sees it, so a link to another host
// would tell its owner who looked and when. An avatar is therefore empty
// or a picture uploaded here through /user/uploadAvatar, which
// httpapi/avatar.go stores as /files/avatars/YYYY/MM/<uploader id>-<16
// characters>.png or .jpg: the uploader is in the name.
var avatarPath = regexp.MustCompile(`^/files/avatars/[0-9]{4}/[0-9]{2}/([0-9]+)-[A-Za-z0-9_-]{16}\.(?:png|jpg)$`)

// uploadedAvatarOf reports whether url is an avatar that one of users
// uploaded.
func uploadedAvatarOf(url string, users ...int64) bool {
	m := avatarPath.FindStringSubmatch(url)
	if m == nil {
		return false
	}
	for _, u := range users {
		if m[1] == storage.FormatID(u) {
			return true
		}
	}
	return false
}

// checkAvatar is the verdict on setting url (trimmed) as an avatar in
// place of current: empty, unchanged (a client sending back every field
// it holds changes nothing), or uploaded by one of uploaders.
func checkAvatar(url, current string, uploaders ...int64) error {
	if url == "" || url == current || uploadedAvatarOf(url, uploaders...) {
		return nil
	}
	return apierr.ChatError(apierr.CodeChatAvatarNotOwn)
}
