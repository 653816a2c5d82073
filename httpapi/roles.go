package httpapi

// Operator roles on /api/admin routes. An admin may call every route; an
// agent (customer service) only those listed here — everything else,
// including any route added later, is refused until it is listed, so a new
// route is admin-only by default. docs/API.md's role table says the same.

import (
	"net/http"
	"strings"

	"kj/internal/apierr"
	"kj/storage"
)

// agentRoutes are the /api/admin routes an agent may call: reading what an
// operator needs to help players, the review queues, activation, freezing
// and fund-password resets, and customer service. Agents cannot change
// odds, limits, settings, content or operators.
var agentRoutes = map[string]bool{
	"/admin/me": true, "/admin/dashboard": true, "/admin/stats/list": true, "/admin/audit/list": true, "/admin/audit/actions": true,
	"/admin/users": true, "/admin/user": true, "/admin/user/detail": true, "/admin/user/ledger": true, "/admin/user/ledger/export": true,
	"/admin/activateUser": true, "/admin/user/freeze": true, "/admin/user/resetFundPassword": true,
	"/admin/recharge/list": true, "/admin/recharge/confirm": true, "/admin/recharge/fail": true,
	"/admin/exchange/list": true, "/admin/exchange/complete": true, "/admin/exchange/fail": true,
	"/admin/orders/search": true, "/admin/orders/export": true,
	"/admin/customer/visitors": true, "/admin/customer/messages": true, "/admin/customer/reply": true,
	"/admin/customer/agents": true, "/admin/customer/handover": true,
	"/admin/customer/desk": true, "/admin/customer/desk/set": true, // their own desk: taking chats, the name players see
	"/admin/windows": true, "/admin/round/bets": true, "/admin/rounds/fairness": true,
	"/admin/protection/exclusions": true, "/admin/protection/holds": true, // every operator sees who stopped themselves
	// Reading content and settings, never changing them.
	"/admin/banner/list": true, "/admin/video/list": true, "/admin/city/list": true, "/admin/listing/list": true,
	"/admin/notice/list": true, "/admin/manifest/get": true, "/admin/settings/get": true, "/admin/domain/list": true,
	"/admin/bank/list": true,
}

// RoleAllows reports whether an operator of role may call the route path
// (as registered, without /api).
func RoleAllows(role, path string) bool {
	switch role {
	case storage.OperatorAdmin:
		return true
	case storage.OperatorAgent:
		return agentRoutes[path]
	}
	return false
}

// checkOperatorRole refuses an operator whose role does not cover path.
// Only /admin routes carry roles; other operator-only routes (none today)
// are open to every operator.
func (s *Server) checkOperatorRole(c *Call, path string) error {
	if !strings.HasPrefix(path, "/admin/") {
		return nil
	}
	role, err := s.operatorRoleOf(c)
	if err != nil {
		return err
	}
	if !RoleAllows(role, path) {
		return apierr.Fail(apierr.CodeRoleRefused, "operator.role").WithStatus(http.StatusForbidden)
	}
	return nil
}
