package chat

import (
	"testing"

	"kj/internal/apierr"
	"kj/storage/storagetest"
)

func TestNamesWithHiddenOrReorderingCharactersAreRefused(t *testing.T) {
	h := newHarness(t, storagetest.SQLite(t))
	alice := h.user("alice")
	a := h.connect(alice)
	for _, bad := range []string{"\u202Enimda", "ser\u200Bvice"} {
		if r := a.call("SetSelfInfo", obj(map[string]any{"nickname": bad})); r.ErrCode != apierr.CodeChatNicknameInvalid {
			t.Fatalf("nickname %q: %+v", bad, r)
		}
		if r := a.call("CreateGroup", obj(map[string]any{"groupInfo": map[string]any{"groupName": bad}})); r.ErrCode != apierr.CodeChatBadArgument {
			t.Fatalf("group name %q: %+v", bad, r)
		}
	}
	var g GroupItem
	a.ok(&g, "CreateGroup", obj(map[string]any{"groupInfo": map[string]any{"groupName": "plain"}}))
	if r := a.call("SetGroupInfo", obj(map[string]any{"groupID": g.GroupID, "groupName": "of\u2066ficial"})); r.ErrCode != apierr.CodeChatBadArgument {
		t.Fatalf("renaming a group with an isolate: %+v", r)
	}
	if r := a.call("SetSelfInfo", obj(map[string]any{"nickname": "José 🙂"})); r.ErrCode != 0 {
		t.Fatalf("an ordinary nickname: %+v", r)
	}
}
