package chat

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"kj/internal/apierr"
	"kj/storage"
	"kj/storage/storagetest"
)

// post calls an API route as u and decodes the envelope.
func (h *harness) post(t *testing.T, u *testUser, path, body string) httpapiReply {
	t.Helper()
	return h.postAs(t, u, path, "application/json", strings.NewReader(body))
}

// postAs calls an API route as u with a body of the given type and decodes
// the envelope.
func (h *harness) postAs(t *testing.T, u *testUser, path, contentType string, body io.Reader) httpapiReply {
	t.Helper()
	req, _ := http.NewRequest("POST", h.srv.URL+"/api"+path, body)
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Accept-Language", "en-US")
	if u != nil {
		req.Header.Set("token", u.tok.Token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var r httpapiReply
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: %q", path, b)
	}
	r.Status = resp.StatusCode
	return r
}

func TestHTTPGroupRoutesActOnTheSameGroups(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		h := newHarness(t, db)
		owner, member, other := h.user("Zhang San"), h.user("Li Si"), h.user("Wang Wu")
		m := h.connect(member)

		r := h.post(t, owner, "/user/createGroup", `{"groupName":"","memberUserIDs":["`+member.id+`"]}`)
		if r.Code != apierr.CodeChatGroupNameRequired || r.Message != "Group name is required" {
			t.Fatalf("nameless: %+v", r)
		}
		r = h.post(t, owner, "/user/createGroup", `{"groupName":"Tea Party","memberUserIDs":["`+member.id+`"],"needVerification":2}`)
		var g GroupItem
		if r.Code != 0 || json.Unmarshal(r.Data, &g) != nil || g.GroupName != "Tea Party" || g.MemberCount != 2 || g.OwnerUserID != owner.id {
			t.Fatalf("create: %+v %+v", r, g)
		}
		// The socket of a member hears it like a group made on the socket.
		m.waitPush("OnJoinedGroupAdded", func(d string) bool { return strings.Contains(d, g.GroupID) })
		m.waitPush("OnRecvNewMessage", noticeOf(NoticeGroupCreated))
		if r := m.sendGroup(g.GroupID, "hello party"); r.ErrCode != 0 {
			t.Fatalf("send to an HTTP-made group: %+v", r)
		}
		ch := h.post(t, owner, "/user/createGroup", `{"groupName":"Tea News","groupType":3}`)
		var cg GroupItem
		json.Unmarshal(ch.Data, &cg)

		// Lists and searches.
		var groups []GroupItem
		r = h.post(t, owner, "/user/getUserGroups", `{"groupType":2}`)
		if json.Unmarshal(r.Data, &groups); r.Code != 0 || len(groups) != 1 || groups[0].GroupID != g.GroupID {
			t.Fatalf("groups: %+v", r)
		}
		r = h.post(t, owner, "/user/getUserGroups", `{"groupType":3}`)
		if json.Unmarshal(r.Data, &groups); len(groups) != 1 || groups[0].GroupID != cg.GroupID {
			t.Fatalf("channels: %+v", r)
		}
		r = h.post(t, owner, "/user/getUserGroups", `{}`)
		if json.Unmarshal(r.Data, &groups); len(groups) != 2 {
			t.Fatalf("both: %+v", r)
		}
		if r = h.post(t, owner, "/user/getUserGroups", `{"groupType":7}`); r.Code != apierr.CodeInvalid {
			t.Fatalf("bad type: %+v", r)
		}
		r = h.post(t, other, "/openIm/getGroupByName", `{"groupName":"tea"}`)
		if json.Unmarshal(r.Data, &groups); r.Code != 0 || len(groups) != 2 {
			t.Fatalf("search groups: %+v", r)
		}
		if r = h.post(t, other, "/openIm/getGroupByName", `{"groupName":"  "}`); r.Code != apierr.CodeRequired {
			t.Fatalf("empty group search: %+v", r)
		}
		var users []struct{ UserID, Nickname string }
		r = h.post(t, other, "/openIm/getUserByNick", `{"nickname":"Li"}`)
		if json.Unmarshal(r.Data, &users); r.Code != 0 || len(users) != 1 || users[0].UserID != member.id {
			t.Fatalf("search users: %+v", r)
		}
		if r = h.post(t, nil, "/openIm/getUserByNick", `{"nickname":"Li"}`); r.Code != apierr.CodeTokenExpired {
			t.Fatalf("without a token: %+v", r)
		}

		// Dismiss: only the owner, then the group refuses everything.
		if r = h.post(t, member, "/user/dismissGroup", `{"groupID":"`+g.GroupID+`"}`); r.Code != apierr.CodeChatNoPermission {
			t.Fatalf("member dismisses: %+v", r)
		}
		if r = h.post(t, other, "/user/dismissGroup", `{"groupID":"`+g.GroupID+`"}`); r.Code != apierr.CodeChatNotMember {
			t.Fatalf("stranger dismisses: %+v", r)
		}
		if r = h.post(t, owner, "/user/dismissGroup", `{"groupID":"nope"}`); r.Code != apierr.CodeInvalid {
			t.Fatalf("bad id: %+v", r)
		}
		if r = h.post(t, owner, "/user/dismissGroup", `{"groupID":"`+g.GroupID+`"}`); r.Code != 0 {
			t.Fatalf("dismiss: %+v", r)
		}
		m.waitPush("OnGroupDismissed", nil)
		if r := m.sendGroup(g.GroupID, "anyone?"); r.ErrCode != apierr.CodeChatGroupDismissed {
			t.Fatalf("after dismiss: %+v", r)
		}
		if r = h.post(t, owner, "/user/dismissGroup", `{"groupID":"`+g.GroupID+`"}`); r.Code != apierr.CodeChatGroupDismissed {
			t.Fatalf("dismiss twice: %+v", r)
		}
		r = h.post(t, owner, "/user/getUserGroups", `{"groupType":2}`)
		if json.Unmarshal(r.Data, &groups); len(groups) != 0 {
			t.Fatalf("dismissed group listed: %+v", groups)
		}
	})
}
