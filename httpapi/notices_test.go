package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"kj/internal/apierr"
	"kj/internal/bus"
	"kj/storage"
)

func TestNoticesPublishListReadOneReadAll(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		_, opTok := contentOperator(t, s, "oper")
		amy, amyTok := newUser(t, s, "amy")
		_, bobTok := newUser(t, s, "bob")
		all := recordBus[bus.Notification](t, s.Bus, bus.BroadcastSubject)
		amyPush := recordBus[bus.Notification](t, s.Bus, bus.UserSubject(amy.IDString()))

		var ids []string
		for i := range 3 {
			n := contentOK[noticeView](t, contentPost(t, s, "/admin/notice/publish", fmt.Sprintf(`{"title":"Notice %d","content":"Body %d"}`, i, i), opTok.Token))
			ids = append(ids, fmt.Sprint(int64(n.ID)))
		}
		got := all.wait(t, 3)
		var pushed noticeView
		json.Unmarshal([]byte(got[2].Data), &pushed)
		if got[2].Key != PushNotice || pushed.Title != "Notice 2" || fmt.Sprint(int64(pushed.ID)) != ids[2] {
			t.Fatalf("broadcast: %+v", got[2])
		}

		list := contentOK[noticePage](t, contentPost(t, s, "/user/noticeList", `{"pageSize":2}`, amyTok.Token))
		if list.Unread != 3 || list.Total != 3 || list.Pages != 2 || list.List[0].Title != "Notice 2" || list.List[0].Read != 0 || list.List[0].Content != "Body 2" {
			t.Fatalf("list: %+v", list)
		}
		one := contentOK[struct {
			Notice noticeView `json:"notice"`
			Unread int        `json:"unread"`
		}](t, contentPost(t, s, "/user/readOne", `{"id":"`+ids[0]+`"}`, amyTok.Token))
		if one.Notice.Read != 1 || one.Notice.Content != "Body 0" || one.Unread != 2 {
			t.Fatalf("read one: %+v", one)
		}
		if p := amyPush.wait(t, 1); p[0].Key != PushNoticeUnread || p[0].Data != `{"unread":2}` {
			t.Fatalf("unread push: %+v", p)
		}
		contentOK[any](t, contentPost(t, s, "/user/readOne", `{"id":"`+ids[0]+`"}`, amyTok.Token)) // again: no change
		if bob := contentOK[noticePage](t, contentPost(t, s, "/user/noticeList", ``, bobTok.Token)); bob.Unread != 3 {
			t.Fatalf("bob's read state follows amy's: %+v", bob)
		}
		p2 := contentOK[noticePage](t, contentPost(t, s, "/user/noticeList", `{"page":2,"pageSize":2}`, amyTok.Token))
		if len(p2.List) != 1 || p2.List[0].Read != 1 {
			t.Fatalf("page 2: %+v", p2)
		}
		all3 := contentOK[map[string]int](t, contentPost(t, s, "/user/readAll", ``, amyTok.Token))
		if all3["marked"] != 2 || all3["unread"] != 0 {
			t.Fatalf("read all: %v", all3)
		}
		if again := contentOK[map[string]int](t, contentPost(t, s, "/user/readAll", ``, amyTok.Token)); again["marked"] != 0 {
			t.Fatalf("second read all: %v", again)
		}
		if p := amyPush.wait(t, 2); len(p) != 2 || p[1].Data != `{"unread":0}` {
			t.Fatalf("pushes: %+v", p)
		}
		if n, _ := storage.UnreadNotices(context.Background(), db, amy.ID); n != 0 {
			t.Fatalf("unread in store: %d", n)
		}

		contentOK[any](t, contentPost(t, s, "/admin/notice/update", `{"id":"`+ids[1]+`","title":"Notice 1b","content":"New body"}`, opTok.Token))
		contentOK[any](t, contentPost(t, s, "/admin/notice/delete", `{"id":"`+ids[2]+`"}`, opTok.Token))
		adminList := contentOK[contentList[noticeView]](t, contentPost(t, s, "/admin/notice/list", ``, opTok.Token))
		if adminList.Total != 2 || adminList.List[0].Title != "Notice 1b" {
			t.Fatalf("admin list: %+v", adminList)
		}

		// Bad input: clear errors, nothing written.
		contentFails(t, contentPost(t, s, "/user/readOne", `{}`, amyTok.Token), apierr.CodeRequired)
		contentFails(t, contentPost(t, s, "/user/readOne", `{"id":"12345"}`, amyTok.Token), apierr.CodeNotFound)
		contentFails(t, contentPost(t, s, "/user/readOne", `{"id":"abc"}`, amyTok.Token), apierr.CodeBadRequest)
		contentFails(t, contentPost(t, s, "/user/noticeList", `{"page":9}`, amyTok.Token), apierr.CodePageOutOfRange)
		contentFails(t, contentPost(t, s, "/user/noticeList", ``, ""), apierr.CodeTokenExpired)
		contentFails(t, contentPost(t, s, "/admin/notice/publish", `{"title":"x","content":"y"}`, amyTok.Token), apierr.CodeOperatorOnly, 403)
		contentFails(t, contentPost(t, s, "/admin/notice/publish", `{"title":"`+strings.Repeat("t", 101)+`","content":"y"}`, opTok.Token), apierr.CodeInvalid)
		contentFails(t, contentPost(t, s, "/admin/notice/publish", `{"title":"  ","content":"y"}`, opTok.Token), apierr.CodeRequired)
		contentFails(t, contentPost(t, s, "/admin/notice/update", `{"id":"12345","title":"a","content":"b"}`, opTok.Token), apierr.CodeNotFound)
		contentFails(t, contentPost(t, s, "/admin/notice/delete", `{"id":"`+ids[2]+`"}`, opTok.Token), apierr.CodeNotFound)
		if n, _ := storage.CountNotices(context.Background(), db); n != 2 {
			t.Fatalf("notices after refused calls: %d", n)
		}
		if len(all.wait(t, 3)) != 3 {
			t.Fatal("refused publish pushed something")
		}
		entries, _ := storage.ListAudit(context.Background(), db, storage.AuditFilter{}, 50, 0)
		var actions []string
		for _, e := range entries {
			actions = append(actions, e.Action)
		}
		if strings.Join(actions, ",") != "notice.delete,notice.update,notice.publish,notice.publish,notice.publish" {
			t.Fatalf("audit: %v", actions)
		}
	})
}

// A notice published to one account reaches only that user: its list,
// unread badge, read-one and push; others neither see nor read it.
func TestNoticeToOneUser(t *testing.T) {
	t.Parallel()
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		_, opTok := contentOperator(t, s, "oper1")
		amy, amyTok := newUser(t, s, "amy1")
		bob, bobTok := newUser(t, s, "bob1")
		amyPush := recordBus[bus.Notification](t, s.Bus, bus.UserSubject(amy.IDString()))
		all := recordBus[bus.Notification](t, s.Bus, bus.BroadcastSubject)
		contentOK[noticeView](t, contentPost(t, s, "/admin/notice/publish", `{"title":"For all","content":"Everyone"}`, opTok.Token))
		own := contentOK[noticeView](t, contentPost(t, s, "/admin/notice/publish", `{"title":"For amy","content":"Only you","account":"amy1"}`, opTok.Token))
		if own.UserID != contentID(amy.ID) {
			t.Fatalf("published %+v", own)
		}
		contentFails(t, contentPost(t, s, "/admin/notice/publish", `{"title":"x","content":"y","account":"nobody_here"}`, opTok.Token), apierr.CodeAccountUnknown)
		if p := amyPush.wait(t, 1); p[0].Key != PushNotice || !strings.Contains(p[0].Data, "For amy") {
			t.Fatalf("push to amy: %+v", p)
		}
		if got := all.wait(t, 1); len(got) != 1 {
			t.Fatalf("the one-user notice was broadcast: %+v", got)
		}
		amyList := contentOK[noticePage](t, contentPost(t, s, "/user/noticeList", ``, amyTok.Token))
		bobList := contentOK[noticePage](t, contentPost(t, s, "/user/noticeList", ``, bobTok.Token))
		if amyList.Total != 2 || amyList.Unread != 2 || amyList.List[0].Title != "For amy" {
			t.Fatalf("amy: %+v", amyList)
		}
		if bobList.Total != 1 || bobList.Unread != 1 || bobList.List[0].Title != "For all" {
			t.Fatalf("bob: %+v", bobList)
		}
		contentFails(t, contentPost(t, s, "/user/readOne", `{"id":"`+fmt.Sprint(int64(own.ID))+`"}`, bobTok.Token), apierr.CodeNotFound)
		if f, _ := storage.ProfileFactsOf(context.Background(), db, bob.ID); f.UnreadNotices != 1 {
			t.Fatalf("bob's badge %d", f.UnreadNotices)
		}
		contentOK[any](t, contentPost(t, s, "/user/readAll", ``, bobTok.Token))
		if n, _ := storage.UnreadNotices(context.Background(), db, amy.ID); n != 2 {
			t.Fatalf("bob's read-all changed amy's count: %d", n)
		}
	})
}
