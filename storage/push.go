package storage

import (
	"context"
)

// PushVAPID answers the stored VAPID key pair, storing the candidate pair
// first when there is none (the first node to start wins; the others read
// its pair, so every node signs with the key the subscriptions were made
// with).
func PushVAPID(ctx context.Context, q Querier, candPublic, candPrivate string, now int64) (public, private string, err error) {
	if _, err := q.Exec(ctx, `INSERT INTO push_vapid (id, public_key, private_key, created_at)
		VALUES (1, $1, $2, $3) ON CONFLICT (id) DO NOTHING`, candPublic, candPrivate, now); err != nil {
		return "", "", err
	}
	err = q.QueryRow(ctx, `SELECT public_key, private_key FROM push_vapid WHERE id = 1`).Scan(&public, &private)
	return public, private, err
}

// PushSubscription is one device's Web Push subscription.
type PushSubscription struct {
	ID        int64
	UserID    int64
	SessionID int64 // the sign-in session (device) it belongs to
	Endpoint  string
	P256dh    string // the browser's ECDH public key, base64url
	Auth      string // the browser's auth secret, base64url
	Preview   bool   // show the message's text
	Lang      string // language of the notification texts
	CreatedAt int64
}

// SavePushSubscription stores s as the one subscription of its device,
// replacing the device's earlier one and any row of the same endpoint (a
// browser that signed in again under a new session keeps its endpoint).
func SavePushSubscription(ctx context.Context, tx Tx, s PushSubscription) error {
	if _, err := tx.Exec(ctx, `DELETE FROM push_subscriptions WHERE session_id = $1 OR endpoint = $2`,
		s.SessionID, s.Endpoint); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `INSERT INTO push_subscriptions
		(id, user_id, session_id, endpoint, p256dh, auth, preview, lang, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		s.ID, s.UserID, s.SessionID, s.Endpoint, s.P256dh, s.Auth, boolFlag(s.Preview), s.Lang, s.CreatedAt)
	return err
}

func boolFlag(b bool) int {
	if b {
		return 1
	}
	return 0
}

const pushSubscriptionColumns = `id, user_id, session_id, endpoint, p256dh, auth, preview, lang, created_at`

func scanPushSubscription(r Row) (PushSubscription, error) {
	var s PushSubscription
	var preview int
	err := r.Scan(&s.ID, &s.UserID, &s.SessionID, &s.Endpoint, &s.P256dh, &s.Auth, &preview, &s.Lang, &s.CreatedAt)
	s.Preview = preview == 1
	return s, err
}

// PushSubscriptionOfSession answers the subscription of one device, or
// ErrNotFound.
func PushSubscriptionOfSession(ctx context.Context, q Querier, sessionID int64) (PushSubscription, error) {
	return scanPushSubscription(q.QueryRow(ctx, `SELECT `+pushSubscriptionColumns+`
		FROM push_subscriptions WHERE session_id = $1`, sessionID))
}

// DeletePushSubscriptionOfSession removes the subscription of one device
// of userID (the session is the caller's own: no other user's row can
// match); ErrNotFound when it has none.
func DeletePushSubscriptionOfSession(ctx context.Context, q Querier, userID, sessionID int64) error {
	return affected(q.Exec(ctx, `DELETE FROM push_subscriptions WHERE user_id = $1 AND session_id = $2`, userID, sessionID))
}

// SetPushPreview changes whether the subscription of one device of userID
// shows the message's text; ErrNotFound when it has none.
func SetPushPreview(ctx context.Context, q Querier, userID, sessionID int64, preview bool) error {
	return affected(q.Exec(ctx, `UPDATE push_subscriptions SET preview = $3 WHERE user_id = $1 AND session_id = $2`,
		userID, sessionID, boolFlag(preview)))
}

// DeletePushSubscriptions removes subscriptions by id: the push service
// said they are gone (404, 410) or their device signed out.
func DeletePushSubscriptions(ctx context.Context, q Querier, ids ...int64) error {
	for _, part := range chunks(len(ids), 500) {
		if _, err := q.Exec(ctx, `DELETE FROM push_subscriptions WHERE id IN (`+placeholders(part[1]-part[0], 1)+`)`,
			anySlice(ids[part[0]:part[1]])...); err != nil {
			return err
		}
	}
	return nil
}

// PushTarget is a subscription a message might be pushed to, with what
// decides whether it is: the state of its device's sign-in and the
// recipient's receive option for the conversation.
type PushTarget struct {
	PushSubscription
	SessionActive bool // the device is signed in (active and its sign-in not expired at now)
	RecvOpt       int  // the conversation's: 0 notify, 1 do not receive, 2 receive without notification
	GlobalRecvOpt int  // the user's do not disturb for everything, the same values
}

// PushTargets lists the subscriptions of userIDs with, for each, whether
// its device is still signed in at now (unix ms), the user's receive
// option for convID (0 without a row) and their do not disturb for
// everything.
func PushTargets(ctx context.Context, q Querier, convID string, now int64, userIDs []int64) ([]PushTarget, error) {
	var out []PushTarget
	for _, part := range chunks(len(userIDs), 500) {
		args := append([]any{convID, now}, anySlice(userIDs[part[0]:part[1]])...)
		rows, err := q.Query(ctx, `SELECT p.id, p.user_id, p.session_id, p.endpoint, p.p256dh, p.auth,
			p.preview, p.lang, p.created_at,
			CASE WHEN s.state = 0 AND s.jwt_expires_at > $2 THEN 1 ELSE 0 END,
			COALESCE(uc.recv_opt, 0), COALESCE(u.chat_recv_opt, 0)
			FROM push_subscriptions p
			LEFT JOIN users u ON u.id = p.user_id
			LEFT JOIN auth_sessions s ON s.id = p.session_id
			LEFT JOIN chat_user_conversations uc ON uc.user_id = p.user_id AND uc.conversation_id = $1
			WHERE p.user_id IN (`+placeholders(part[1]-part[0], 3)+`)`, args...)
		list, err := CollectRows(rows, err, func(r Rows) (PushTarget, error) {
			var t PushTarget
			var preview, active int
			err := r.Scan(&t.ID, &t.UserID, &t.SessionID, &t.Endpoint, &t.P256dh, &t.Auth, &preview, &t.Lang,
				&t.CreatedAt, &active, &t.RecvOpt, &t.GlobalRecvOpt)
			t.Preview, t.SessionActive = preview == 1, active == 1
			return t, err
		})
		if err != nil {
			return nil, err
		}
		out = append(out, list...)
	}
	return out, nil
}
