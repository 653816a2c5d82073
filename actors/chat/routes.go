package chat

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"kj/httpapi"
)

// NewGroup creates a group or channel for the HTTP route /user/createGroup.
func (e *Engine) NewGroup(ctx context.Context, owner int64, g httpapi.ChatNewGroup) (any, error) {
	p := CreateGroupParams{MemberUserIDs: g.MemberUserIDs, AdminUserIDs: g.AdminUserIDs, GroupInfo: GroupInfo{
		GroupName: &g.GroupName, FaceURL: &g.FaceURL, Introduction: &g.Introduction, Notification: &g.Notification,
		GroupType: &g.GroupType, NeedVerification: g.NeedVerification,
	}}
	return e.CreateGroup(ctx, owner, p)
}

// EndGroup dismisses a group for the HTTP route /user/dismissGroup, through
// the group's actor, waiting for its answer.
func (e *Engine) EndGroup(ctx context.Context, owner int64, groupID string) error {
	gid, err := parseUserID(groupID)
	if err != nil {
		return httpapi.Invalid("groupID")
	}
	timeout := 15 * time.Second
	if dl, ok := ctx.Deadline(); ok {
		timeout = time.Until(dl)
	}
	f := actor.NewFuture(e.system, timeout)
	e.DismissGroup(gid, owner, replyTo{pid: f.PID(), name: "DismissGroup"})
	res, err := f.Result()
	if err != nil {
		return errBusy()
	}
	if r, ok := res.(*asyncReply); ok {
		return r.err
	}
	return errBusy()
}

var _ httpapi.Chat = (*Engine)(nil)
