package httpapi

// Notices: operators publish them to everyone; each user lists them with
// their read state and unread count, reads one, or reads all. A new notice
// is pushed to every online socket ("notice"), and a user's other devices
// hear when their unread count changes ("noticeUnread").

import (
	"kj/engine/bus"
	"kj/storage"
)

func init() {
	registerArea(func(s *Server) {
		s.Post("/user/noticeList", User, s.noticeList)
		s.Post("/user/readOne", User, s.noticeReadOne)
		s.Post("/user/readAll", User, s.noticeReadAll)
		s.Post("/admin/notice/list", Operator, s.adminNoticeList)
		s.Post("/admin/notice/publish", Operator, s.adminNoticePublish)
		s.Post("/admin/notice/update", Operator, s.adminNoticeUpdate)
		s.Post("/admin/notice/delete", Operator, s.adminNoticeDelete)
	})
}

// Business push keys of this file (README).
const (
	PushNotice       = "notice"       // a new notice: {id, title, createdAt}
	PushNoticeUnread = "noticeUnread" // this user's unread count changed: {unread}
)

type noticeView struct {
	ID        contentID `json:"id"`
	Title     string    `json:"title"`
	Content   string    `json:"content,omitempty"`
	CreatedAt int64     `json:"createdAt"`
	UpdatedAt int64     `json:"updatedAt,omitempty"`
	Read      int       `json:"read"`
}

func newNoticeView(n storage.Notice) noticeView {
	v := noticeView{ID: contentID(n.ID), Title: n.Title, Content: n.Content, CreatedAt: n.CreatedAt, UpdatedAt: n.UpdatedAt}
	if n.Read {
		v.Read = 1
	}
	return v
}

type noticePage struct {
	contentList[noticeView]
	Unread int `json:"unread"`
}

func (s *Server) noticeList(c *Call) (any, error) {
	var p contentPaging
	if err := c.Decode(&p); err != nil {
		return nil, err
	}
	total, err := storage.CountNotices(c.Ctx, s.DB)
	if err != nil {
		return nil, err
	}
	page, limit, offset, err := pageWindow[noticeView](p, total, 10)
	if err != nil {
		return nil, err
	}
	list, err := storage.UserNotices(c.Ctx, s.DB, c.User.ID, limit, offset)
	if err != nil {
		return nil, err
	}
	page.List = contentMap(list, newNoticeView)
	unread, err := storage.UnreadNotices(c.Ctx, s.DB, c.User.ID)
	return noticePage{page, unread}, err
}

type noticeIDReq struct {
	ID contentID `json:"id"`
}

func (r noticeIDReq) check() error {
	if r.ID == 0 {
		return Required("id")
	}
	return nil
}

func (s *Server) noticeReadOne(c *Call) (any, error) {
	var req noticeIDReq
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if err := req.check(); err != nil {
		return nil, err
	}
	var n storage.Notice
	var unread int
	var changed bool
	err := s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		var err error
		if changed, err = storage.MarkNoticeRead(c.Ctx, tx, c.User.ID, int64(req.ID), s.Clock.Now().UnixMilli()); err != nil {
			return err
		}
		if n, err = storage.UserNotice(c.Ctx, tx, c.User.ID, int64(req.ID)); err != nil {
			return err
		}
		unread, err = storage.UnreadNotices(c.Ctx, tx, c.User.ID)
		return err
	})
	if err != nil {
		return nil, contentStoreErr(err)
	}
	if changed {
		s.pushUnread(c, unread)
	}
	return map[string]any{"notice": newNoticeView(n), "unread": unread}, nil
}

func (s *Server) noticeReadAll(c *Call) (any, error) {
	marked, err := storage.MarkAllNoticesRead(c.Ctx, s.DB, c.User.ID, s.Clock.Now().UnixMilli())
	if err != nil {
		return nil, err
	}
	if marked > 0 {
		s.pushUnread(c, 0)
	}
	return map[string]any{"marked": marked, "unread": 0}, nil
}

// pushUnread tells the user's other devices the new unread count. The
// store already holds the truth, so a failed push is only logged.
func (s *Server) pushUnread(c *Call, unread int) {
	if err := bus.PushToUser(c.Ctx, s.Bus, c.User.IDString(), PushNoticeUnread, map[string]int{"unread": unread}); err != nil {
		s.Log.Warn("notice unread push failed", "user", c.User.ID, "err", err)
	}
}

// ---- operators ----

func (s *Server) adminNoticeList(c *Call) (any, error) {
	var p contentPaging
	if err := c.Decode(&p); err != nil {
		return nil, err
	}
	total, err := storage.CountNotices(c.Ctx, s.DB)
	if err != nil {
		return nil, err
	}
	page, limit, offset, err := pageWindow[noticeView](p, total, 20)
	if err != nil {
		return nil, err
	}
	list, err := storage.ListNotices(c.Ctx, s.DB, limit, offset)
	page.List = contentMap(list, newNoticeView)
	return page, err
}

type noticeSaveReq struct {
	ID      contentID `json:"id"`
	Title   string    `json:"title"`
	Content string    `json:"content"`
}

func (r *noticeSaveReq) check() error {
	if err := contentText("title", &r.Title, 1, 100); err != nil {
		return err
	}
	return contentText("content", &r.Content, 1, 5000)
}

func (s *Server) adminNoticePublish(c *Call) (any, error) {
	var req noticeSaveReq
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if err := req.check(); err != nil {
		return nil, err
	}
	now := s.Clock.Now().UnixMilli()
	n := storage.Notice{ID: storage.NewID(), Title: req.Title, Content: req.Content, CreatedBy: c.User.ID, CreatedAt: now, UpdatedAt: now}
	err := s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		if err := storage.CreateNotice(c.Ctx, tx, n); err != nil {
			return err
		}
		return RecordOperatorAction(c, tx, "notice.publish", n.ID, map[string]string{"title": n.Title})
	})
	if err != nil {
		return nil, err
	}
	// After commit: whoever opens the list now finds it.
	if err := bus.Broadcast(c.Ctx, s.Bus, PushNotice, noticeView{ID: contentID(n.ID), Title: n.Title, CreatedAt: n.CreatedAt}); err != nil {
		s.Log.Warn("notice push failed", "notice", n.ID, "err", err)
	}
	return newNoticeView(n), nil
}

func (s *Server) adminNoticeUpdate(c *Call) (any, error) {
	var req noticeSaveReq
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.ID == 0 {
		return nil, Required("id")
	}
	if err := req.check(); err != nil {
		return nil, err
	}
	var n storage.Notice
	err := s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		var err error
		if n, err = storage.NoticeByID(c.Ctx, tx, int64(req.ID)); err != nil {
			return err
		}
		n.Title, n.Content, n.UpdatedAt = req.Title, req.Content, s.Clock.Now().UnixMilli()
		if err := storage.UpdateNotice(c.Ctx, tx, n); err != nil {
			return err
		}
		return RecordOperatorAction(c, tx, "notice.update", n.ID, map[string]string{"title": n.Title})
	})
	if err != nil {
		return nil, contentStoreErr(err)
	}
	return newNoticeView(n), nil
}

func (s *Server) adminNoticeDelete(c *Call) (any, error) {
	var req noticeIDReq
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if err := req.check(); err != nil {
		return nil, err
	}
	err := s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		n, err := storage.NoticeByID(c.Ctx, tx, int64(req.ID))
		if err != nil {
			return err
		}
		if err := storage.DeleteNotice(c.Ctx, tx, n.ID); err != nil {
			return err
		}
		return RecordOperatorAction(c, tx, "notice.delete", n.ID, map[string]string{"title": n.Title})
	})
	if err != nil {
		return nil, contentStoreErr(err)
	}
	return map[string]any{"id": req.ID}, nil
}
