package httpapi

// Operator routes over users: list and find users, and set a user's
// account status (activation is done by customer service: a user asks in the customer chat
// and an operator activates the account).
// Operators are made with `kj admin create-operator`.

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"

	"kj/internal/apierr"
	"kj/internal/bus"
	"kj/storage"
)

func init() {
	registerArea(func(s *Server) {
		s.Post("/admin/users", Operator, s.adminUsers)
		s.Post("/admin/user", Operator, s.adminUser)
		s.Post("/admin/activateUser", Operator, s.adminActivateUser)
	})
}

// UserIDParam is a user id in a request: a JSON string ("7305...", as the
// API hands ids out, since they exceed JavaScript's safe integers) or a
// number.
type UserIDParam int64

func (p *UserIDParam) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	s := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return &json.UnmarshalTypeError{Value: "user id " + strconv.Quote(s), Type: reflect.TypeFor[int64]()}
	}
	*p = UserIDParam(n)
	return nil
}

// AdminUser is a user as operators see it.
type AdminUser struct {
	UserID       string `json:"userId"`
	Account      string `json:"account"`
	NickName     string `json:"nickName"`
	Avatar       string `json:"avatar"`
	Phone        string `json:"phone"`
	InviteCode   string `json:"inviteCode"`
	SuperiorID   string `json:"superiorId"` // "0" when none
	IsActivation int    `json:"isActivation"`
	IsOperator   int    `json:"isOperator"`
	CreatedAt    int64  `json:"createdAt"`   // unix ms
	LastLoginAt  int64  `json:"lastLoginAt"` // unix ms, 0 never
	LastLoginIP  string `json:"lastLoginIp"`
}

func adminUserOf(s storage.UserSummary) AdminUser {
	return AdminUser{
		UserID: s.IDString(), Account: s.Account, NickName: s.Nickname, Avatar: s.Avatar, Phone: s.Phone,
		InviteCode: s.InviteCode, SuperiorID: strconv.FormatInt(s.SuperiorID, 10), IsActivation: s.IsActivation,
		IsOperator: s.IsOperator, CreatedAt: s.CreatedAt, LastLoginAt: s.LastLoginAt, LastLoginIP: s.LastLoginIP,
	}
}

type adminUsersRequest struct {
	Keyword      string `json:"keyword"`
	IsActivation *int   `json:"isActivation"` // absent: any
	Page         int    `json:"page"`         // from 1
	PageSize     int    `json:"pageSize"`     // 1-100, default 20
}

type adminUsersReply struct {
	List     []AdminUser `json:"list"`
	Total    int64       `json:"total"`
	Page     int         `json:"page"`
	PageSize int         `json:"pageSize"`
}

// adminUsers lists users, newest first: all of them, or those whose account
// or nickname contains the keyword, or whose phone or id equals it.
func (s *Server) adminUsers(c *Call) (any, error) {
	var req adminUsersRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if len(req.Keyword) > 64 {
		return nil, apierr.Invalid("keyword")
	}
	if req.Page == 0 {
		req.Page = 1
	}
	if req.PageSize == 0 {
		req.PageSize = 20
	}
	if req.Page < 1 || req.Page > 1_000_000 {
		return nil, apierr.Invalid("page")
	}
	if req.PageSize < 1 || req.PageSize > 100 {
		return nil, apierr.Invalid("pageSize")
	}
	q := storage.UserQuery{Keyword: req.Keyword, IsActivation: -1, Offset: (req.Page - 1) * req.PageSize, Limit: req.PageSize}
	if req.IsActivation != nil {
		if *req.IsActivation != 0 && *req.IsActivation != 1 {
			return nil, apierr.Invalid("isActivation")
		}
		q.IsActivation = *req.IsActivation
	}
	list, total, err := storage.FindUsers(c.Ctx, s.DB, q)
	if err != nil {
		return nil, err
	}
	out := adminUsersReply{List: make([]AdminUser, 0, len(list)), Total: total, Page: req.Page, PageSize: req.PageSize}
	for _, u := range list {
		out.List = append(out.List, adminUserOf(u))
	}
	return out, nil
}

type adminUserRequest struct {
	UserID  UserIDParam `json:"userId"`
	Account string      `json:"account"`
}

// adminUser finds one user by id or account.
func (s *Server) adminUser(c *Call) (any, error) {
	var req adminUserRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	id := int64(req.UserID)
	if id == 0 {
		account := strings.TrimSpace(req.Account)
		if account == "" {
			return nil, apierr.Required("userId")
		}
		u, err := storage.UserByAccount(c.Ctx, s.DB, account)
		if errors.Is(err, storage.ErrNotFound) {
			return nil, apierr.Fail(apierr.CodeAccountUnknown, "account.unknown")
		}
		if err != nil {
			return nil, err
		}
		id = u.ID
	}
	u, err := storage.UserSummaryByID(c.Ctx, s.DB, id)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, apierr.Fail(apierr.CodeAccountUnknown, "account.unknown")
	}
	if err != nil {
		return nil, err
	}
	return adminUserOf(u), nil
}

type adminActivateRequest struct {
	UserID       UserIDParam `json:"userId"`
	IsActivation *int        `json:"isActivation"` // default 1
}

// adminActivateUser sets a player's account status (1 activated, 0 not)
// and tells the player's open sockets, so the app refreshes its user info.
// Operators' accounts are refused (playerOnly), whoever asks.
func (s *Server) adminActivateUser(c *Call) (any, error) {
	var req adminActivateRequest
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	if req.UserID == 0 {
		return nil, apierr.Required("userId")
	}
	status := 1
	if req.IsActivation != nil {
		status = *req.IsActivation
	}
	if status != 0 && status != 1 {
		return nil, apierr.Invalid("isActivation")
	}
	id := int64(req.UserID)
	err := s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		prev, err := storage.UserByID(c.Ctx, tx, id)
		if err != nil {
			return err
		}
		if err := playerOnly(c.Ctx, tx, id); err != nil {
			return err
		}
		if err := storage.UpdateUserFields(c.Ctx, tx, id, s.Clock.Now().UnixMilli(), map[string]any{"is_activation": status}); err != nil {
			return err
		}
		return RecordOperatorAction(c, tx, "user.activation", id, auditChange{
			Before: map[string]int{"isActivation": prev.IsActivation}, After: map[string]int{"isActivation": status}})
	})
	if errors.Is(err, storage.ErrNotFound) {
		return nil, apierr.Fail(apierr.CodeAccountUnknown, "account.unknown")
	}
	if err != nil {
		return nil, err
	}
	s.Log.Info("account status set by operator", "userId", id, "isActivation", status, "operatorId", c.User.ID)
	u, err := storage.UserSummaryByID(c.Ctx, s.DB, id)
	if err != nil {
		return nil, err
	}
	if err := bus.PushToUser(c.Ctx, s.Bus, u.IDString(), UserUpdatedKey, map[string]int{"isActivation": status}); err != nil {
		s.Log.Warn("activation push failed", "userId", id, "err", err)
	}
	return adminUserOf(u), nil
}

// UserUpdatedKey is the business notification key telling a user's app
// that its user info changed (data: the changed fields).
const UserUpdatedKey = "userUpdated"
