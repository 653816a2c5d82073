package chat

import (
	"bytes"
	"encoding/json"
	"image"
	pngenc "image/png"
	"mime/multipart"
	"strings"
	"testing"

	"kj/internal/apierr"
	"kj/storage"
	"kj/storage/storagetest"
)

// uploadAvatar uploads a small picture as u's avatar through
// /api/user/uploadAvatar (which also makes it u's avatar) and returns its
// url.
func (h *harness) uploadAvatar(t *testing.T, u *testUser) string {
	t.Helper()
	var pic bytes.Buffer
	if err := pngenc.Encode(&pic, image.NewRGBA(image.Rect(0, 0, 4, 4))); err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	fw, _ := w.CreateFormFile("file", "me.png")
	fw.Write(pic.Bytes())
	w.Close()
	r := h.postAs(t, u, "/user/uploadAvatar", w.FormDataContentType(), &body)
	var data struct {
		Avatar string `json:"avatar"`
	}
	if r.Code != 0 || json.Unmarshal(r.Data, &data) != nil || data.Avatar == "" {
		t.Fatalf("avatar upload: %+v", r)
	}
	return data.Avatar
}

const avatarRefused = "The avatar must be a picture you uploaded"

// TestAvatarsAreOwnUploads: a user's, a group's and a member's avatar is
// empty or a picture uploaded through /user/uploadAvatar by the one who
// sets it; a link elsewhere, someone else's upload or a chat attachment is
// refused with a translated error and changes nothing. The value in place
// may be sent back unchanged.
func TestAvatarsAreOwnUploads(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		alice, bob := h.user("alice"), h.user("bob")
		a, b := h.connect(alice), h.connect(bob)
		mine, bobs := h.uploadAvatar(t, alice), h.uploadAvatar(t, bob)
		attachment, r := h.upload(t, alice, "image", "cat.png", png)
		if r.Code != 0 {
			t.Fatalf("chat upload %+v", r)
		}
		self := func() SelfUserInfo {
			t.Helper()
			var s SelfUserInfo
			a.ok(&s, "GetSelfUserInfo")
			return s
		}
		if s := self(); s.FaceURL != mine {
			t.Fatalf("after the upload alice's avatar is %q, want %q", s.FaceURL, mine)
		}
		refused := func(c *client, name string, args ...any) {
			t.Helper()
			if r := c.fails(apierr.CodeChatAvatarNotOwn, name, args...); r.ErrMsg != avatarRefused {
				t.Fatalf("%s: message %q", name, r.ErrMsg)
			}
		}
		for _, bad := range []string{
			"https://elsewhere.example/track.png", "//elsewhere.example/track.png", bobs, attachment,
			strings.Replace(mine, ".png", ".png/../../../chat/x.png", 1), mine + "?track=1", "/files/avatars/x.png",
		} {
			refused(a, "SetSelfInfo", obj(map[string]any{"nickname": "renamed", "faceURL": bad}))
			if s := self(); s.FaceURL != mine || s.Nickname != "alice" {
				t.Fatalf("a refused %q changed alice: %+v", bad, s)
			}
		}
		// Unchanged, empty, and her own upload again are fine.
		a.ok(nil, "SetSelfInfo", obj(map[string]any{"nickname": "alice", "faceURL": mine}))
		a.ok(nil, "SetSelfInfo", obj(map[string]any{"faceURL": ""}))
		a.ok(nil, "SetSelfInfo", obj(map[string]any{"faceURL": " " + mine + " "}))
		if s := self(); s.FaceURL != mine {
			t.Fatalf("alice's avatar %q, want %q", s.FaceURL, mine)
		}

		// A group's face: the creator's or the acting admin's upload.
		create := func(face string) Reply {
			return a.call("CreateGroup", obj(map[string]any{"memberUserIDs": []string{bob.id},
				"groupInfo": map[string]any{"groupName": "faces", "faceURL": face}}))
		}
		refused(a, "CreateGroup", obj(map[string]any{"memberUserIDs": []string{bob.id},
			"groupInfo": map[string]any{"groupName": "faces", "faceURL": "https://elsewhere.example/g.png"}}))
		if r := create(bobs); r.ErrCode != apierr.CodeChatAvatarNotOwn {
			t.Fatalf("group made with bob's avatar by alice: %+v", r)
		}
		if r := h.post(t, alice, "/user/createGroup", `{"groupName":"faces","faceURL":"https://elsewhere.example/g.png"}`); r.Code != apierr.CodeChatAvatarNotOwn || r.Message != avatarRefused {
			t.Fatalf("HTTP createGroup with a foreign face: %+v", r)
		}
		var groups []GroupItem
		a.ok(&groups, "GetJoinedGroupList")
		if len(groups) != 0 {
			t.Fatalf("a refused group was made: %+v", groups)
		}
		made := create(mine)
		if made.ErrCode != 0 {
			t.Fatalf("group with alice's own avatar: %+v", made)
		}
		g := decode[GroupItem](t, made.Data)
		b.waitPush("OnJoinedGroupAdded", nil)
		a.ok(nil, "SetGroupMemberInfo", obj(map[string]any{"groupID": g.GroupID, "userID": bob.id, "roleLevel": storage.RoleAdmin}))
		info := func() GroupItem {
			t.Helper()
			var gs []GroupItem
			b.ok(&gs, "GetSpecifiedGroupsInfo", obj([]string{g.GroupID}))
			return gs[0]
		}
		refused(b, "SetGroupInfo", obj(map[string]any{"groupID": g.GroupID, "groupName": "renamed", "faceURL": "https://elsewhere.example/g.png"}))
		if gi := info(); gi.FaceURL != mine || gi.GroupName != "faces" {
			t.Fatalf("a refused group face changed the group: %+v", gi)
		}
		// Bob, an admin, sends back the face alice set, then sets his own.
		b.ok(nil, "SetGroupInfo", obj(map[string]any{"groupID": g.GroupID, "groupName": "faces", "faceURL": mine}))
		b.ok(nil, "SetGroupInfo", obj(map[string]any{"groupID": g.GroupID, "faceURL": bobs}))
		if gi := info(); gi.FaceURL != bobs {
			t.Fatalf("bob's group face %+v", gi)
		}

		// A member's face in the group: theirs, or the acting admin's.
		refused(b, "SetGroupMemberInfo", obj(map[string]any{"groupID": g.GroupID, "userID": bob.id, "faceURL": "https://elsewhere.example/m.png"}))
		refused(b, "SetGroupMemberInfo", obj(map[string]any{"groupID": g.GroupID, "userID": bob.id, "faceURL": mine}))
		b.ok(nil, "SetGroupMemberInfo", obj(map[string]any{"groupID": g.GroupID, "userID": bob.id, "faceURL": bobs}))
	})
}
