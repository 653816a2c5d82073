package httpapi

// Notices: operators publish them to everyone; each user lists them with
// their read state and unread count, reads one, or reads all. A new notice
// is pushed to every online socket ("notice"), and a user's other devices
// hear when their unread count changes ("noticeUnread").

import (
	"errors"
	"strconv"
	"strings"

	"kj/internal/apierr"
	"kj/internal/bus"
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

// Business push keys of this file (docs/PROTOCOL.md).
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
	UserID    contentID `json:"userId,omitempty"` // the one user it is for; absent: everyone
	Read      int       `json:"read"`
	// Operators only: the title and content in other languages.
	Texts storage.Texts `json:"texts,omitempty"`
}

// noticeViewIn shows a notice to a user in lang (the default language's
// text where the operator gave none).
func noticeViewIn(lang string) func(storage.Notice) noticeView {
	return func(n storage.Notice) noticeView {
		v := noticeView{ID: contentID(n.ID), Title: n.Texts.Text(lang, "title", n.Title), Content: n.Texts.Text(lang, "content", n.Content),
			CreatedAt: n.CreatedAt, UpdatedAt: n.UpdatedAt, UserID: contentID(n.UserID)}
		if n.Read {
			v.Read = 1
		}
		return v
	}
}

// newAdminNotice is a notice as operators edit it: the default language's
// texts and the others beside them.
func newAdminNotice(n storage.Notice) noticeView {
	return noticeView{ID: contentID(n.ID), Title: n.Title, Content: n.Content, CreatedAt: n.CreatedAt, UpdatedAt: n.UpdatedAt,
		UserID: contentID(n.UserID), Texts: adminTexts(n.Texts)}
}

type noticePage struct {
	contentList[noticeView]
	Unread int `json:"unread"`
}

func (s *Server) noticeList(c *Call) (any, error) {
	page, err := s.noticesPage(c, 10, func() (int, error) { return storage.CountUserNotices(c.Ctx, s.DB, c.User.ID) },
		func(limit, offset int) ([]storage.Notice, error) {
			return storage.UserNotices(c.Ctx, s.DB, c.User.ID, limit, offset)
		}, noticeViewIn(c.Lang))
	if err != nil {
		return nil, err
	}
	unread, err := storage.UnreadNotices(c.Ctx, s.DB, c.User.ID)
	return noticePage{page, unread}, err
}

func (s *Server) noticeReadOne(c *Call) (any, error) {
	id, err := contentDecodeID(c)
	if err != nil {
		return nil, err
	}
	var n storage.Notice
	var unread int
	var changed bool
	err = s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		var err error
		if changed, err = storage.MarkNoticeRead(c.Ctx, tx, c.User.ID, id, s.Clock.Now().UnixMilli()); err != nil {
			return err
		}
		if n, err = storage.UserNotice(c.Ctx, tx, c.User.ID, id); err != nil {
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
	return map[string]any{"notice": noticeViewIn(c.Lang)(n), "unread": unread}, nil
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
	return s.noticesPage(c, 20, func() (int, error) { return storage.CountNotices(c.Ctx, s.DB) },
		func(limit, offset int) ([]storage.Notice, error) {
			return storage.ListNotices(c.Ctx, s.DB, limit, offset)
		}, newAdminNotice)
}

// noticesPage is a page of notices, perPage unless the caller asks for
// another size; list loads the window (a user's, with read marks, or the
// operators' plain list).
func (s *Server) noticesPage(c *Call, perPage int, count func() (int, error), list func(limit, offset int) ([]storage.Notice, error),
	view func(storage.Notice) noticeView) (contentList[noticeView], error) {
	var p contentPaging
	if err := c.Decode(&p); err != nil {
		return contentList[noticeView]{}, err
	}
	return listPage(p, perPage, count, list, view)
}

type noticeSaveReq struct {
	ID      contentID `json:"id"`
	Title   string    `json:"title"`
	Content string    `json:"content"`
	Account string    `json:"account"` // publish: the one user it is for; empty: everyone
	// The title and content in other languages.
	Texts storage.Texts `json:"texts"`
}

func (r *noticeSaveReq) check() error {
	if err := contentText("title", &r.Title, 1, 100); err != nil {
		return err
	}
	if err := contentText("content", &r.Content, 1, 5000); err != nil {
		return err
	}
	texts, err := contentTexts(r.Texts, noticeTexts)
	r.Texts = texts
	return err
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
	n := storage.Notice{ID: storage.NewID(), Title: req.Title, Content: req.Content, CreatedBy: c.User.ID, CreatedAt: now, UpdatedAt: now,
		Texts: req.Texts}
	var forAccount string // the one player it is for, when not for everyone
	if account := strings.TrimSpace(req.Account); account != "" {
		u, err := storage.UserByAccount(c.Ctx, s.DB, account)
		if errors.Is(err, storage.ErrNotFound) {
			return nil, apierr.Fail(apierr.CodeAccountUnknown, "account.unknown")
		}
		if err != nil {
			return nil, err
		}
		n.UserID, forAccount = u.ID, u.Account
	}
	err := s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		if err := storage.CreateNotice(c.Ctx, tx, n); err != nil {
			return err
		}
		after := noticeAudited(n)
		if forAccount != "" {
			after["account"] = forAccount
		}
		return RecordOperatorAction(c, tx, "notice.publish", n.ID, auditChange{After: after})
	})
	if err != nil {
		return nil, err
	}
	// After commit: whoever opens the list now finds it.
	push := noticeView{ID: contentID(n.ID), Title: n.Title, CreatedAt: n.CreatedAt}
	if n.UserID != 0 {
		err = bus.PushToUser(c.Ctx, s.Bus, strconv.FormatInt(n.UserID, 10), PushNotice, push)
	} else {
		err = bus.Broadcast(c.Ctx, s.Bus, PushNotice, push)
	}
	if err != nil {
		s.Log.Warn("notice push failed", "notice", n.ID, "err", err)
	}
	return newAdminNotice(n), nil
}

// noticeAudited is a notice as its audit rows show it.
func noticeAudited(n storage.Notice) map[string]any {
	return map[string]any{"title": n.Title, "content": n.Content, "texts": adminTexts(n.Texts)}
}

func (s *Server) adminNoticeUpdate(c *Call) (any, error) {
	var req noticeSaveReq
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.ID == 0 {
		return nil, apierr.Required("id")
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
		before := noticeAudited(n)
		n.Title, n.Content, n.UpdatedAt = req.Title, req.Content, s.Clock.Now().UnixMilli()
		if req.Texts != nil { // absent: the stored texts stay
			n.Texts = req.Texts
		}
		if err := storage.UpdateNotice(c.Ctx, tx, n); err != nil {
			return err
		}
		return RecordOperatorAction(c, tx, "notice.update", n.ID, auditChange{Before: before, After: noticeAudited(n)})
	})
	if err != nil {
		return nil, contentStoreErr(err)
	}
	return newAdminNotice(n), nil
}

func (s *Server) adminNoticeDelete(c *Call) (any, error) {
	id, err := contentDecodeID(c)
	if err != nil {
		return nil, err
	}
	err = s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		n, err := storage.NoticeByID(c.Ctx, tx, id)
		if err != nil {
			return err
		}
		if err := storage.DeleteNotice(c.Ctx, tx, n.ID); err != nil {
			return err
		}
		return RecordOperatorAction(c, tx, "notice.delete", n.ID, auditChange{Before: noticeAudited(n)})
	})
	if err != nil {
		return nil, contentStoreErr(err)
	}
	return map[string]any{"id": contentID(id)}, nil
}
