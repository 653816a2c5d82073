package storage

import (
	"context"
	"strconv"
)

// A player's own data, read for the export (/user/data/export), and the
// deletion of their account (/user/account/delete) with the sweep that ends
// its retention. What is erased at once, what is kept and why is
// docs/PRIVACY.md.

// DeletedNickname is the name a deleted account shows under wherever
// others still see it: on every message it sent, in conversation lists,
// in user lookups. It is longer than any nickname a live account may take
// (1-10 characters), so no one can pass for a deleted account, and the
// web app shows it in the reader's language.
const DeletedNickname = "deleted account"

// KindForfeit is the transfer kind of money a player gave up when deleting
// their account: the wallet's balance, or an exchange still under review,
// to the house.
const KindForfeit = "forfeit"

// deletedName is the account name (and invite code) of a deleted
// account's tombstone: "~" is not allowed in an account, so the name can
// neither sign in nor collide with a real one, and the old name is free.
func deletedName(userID int64) string { return "~deleted~" + strconv.FormatInt(userID, 10) }

// UserDeleted reports whether userID is a deleted account (false for an
// unknown id).
func UserDeleted(ctx context.Context, q Querier, userID int64) (bool, error) {
	n, err := count(ctx, q, `SELECT COUNT(*) FROM users WHERE id = $1 AND deleted_at > 0`, userID)
	return n > 0, err
}

// LockUserForDeletion takes the user's row for the rest of tx (parallel
// deletions, card binds and exchanges of the user take turns) and returns
// it; ErrNotFound when it is gone or already deleted.
func LockUserForDeletion(ctx context.Context, tx Tx, userID int64) (User, error) {
	return scanUser(tx.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE id = $1 AND deleted_at = 0`+tx.Dialect().ForUpdate(), userID))
}

// DeleteAccount erases, in q (the deletion's transaction), what names the
// person behind userID: the account name, both password hashes, nickname,
// avatar, phone, last sign-in address, bank cards, friends, friend
// requests, blacklist, drafts and pending SMS codes; the sender name and
// face on every message the user sent, and their name and face in groups.
// It ends every session of the user and returns their ids (to announce
// after commit). The users row stays as the tombstone whose id the ledger,
// bets, orders and audit rows keep naming. ErrNotFound when the user is
// gone or already deleted.
func DeleteAccount(ctx context.Context, q Querier, userID, at int64) (ended []int64, err error) {
	defer touched(q, userID)
	var phone string
	if err := q.QueryRow(ctx, `SELECT phone FROM users WHERE id = $1 AND deleted_at = 0`, userID).Scan(&phone); err != nil {
		return nil, err
	}
	// Messages are found through the user's own conversations (the key of
	// chat_messages starts with the conversation): no index on the sender
	// is needed on the hot insert path for this rare statement.
	steps := []struct {
		sql  string
		args []any
	}{
		{`UPDATE chat_messages SET sender_nickname = $2, sender_face_url = ''
			WHERE conversation_id IN (SELECT conversation_id FROM chat_user_conversations WHERE user_id = $1)
			AND send_id = $1`, []any{userID, DeletedNickname}},
		{`UPDATE chat_group_members SET nickname = '', face_url = '' WHERE user_id = $1`, []any{userID}},
		{`UPDATE chat_user_conversations SET draft_text = '', draft_time = 0 WHERE user_id = $1`, []any{userID}},
		{`DELETE FROM chat_friends WHERE owner_id = $1`, []any{userID}},
		{`DELETE FROM chat_friend_requests WHERE from_id = $1 OR to_id = $1`, []any{userID}},
		{`DELETE FROM chat_blacklist WHERE owner_id = $1`, []any{userID}},
		{`DELETE FROM bank_cards WHERE user_id = $1`, []any{userID}},
		{`UPDATE users SET account = $2, invite_code = $2, password_hash = '', fund_password_hash = '',
			nickname = $3, avatar = '', phone = '', phone_verified = 0, last_login_ip = '', deleted_at = $4, updated_at = $4
			WHERE id = $1`, []any{userID, deletedName(userID), DeletedNickname, at}},
	}
	if phone != "" {
		steps = append(steps, struct {
			sql  string
			args []any
		}{`DELETE FROM sms_codes WHERE phone = $1`, []any{phone}})
	}
	for _, s := range steps {
		if _, err := q.Exec(ctx, s.sql, s.args...); err != nil {
			return nil, err
		}
	}
	return EndUserSessions(ctx, q, userID, 0, SessionSignedOut)
}

// DeletedAccountsToPurge lists up to limit deleted accounts whose
// deletion is at or before deletedBefore (Unix ms) and whose retention
// has not been swept yet, oldest first.
func DeletedAccountsToPurge(ctx context.Context, q Querier, deletedBefore int64, limit int) ([]int64, error) {
	rows, err := q.Query(ctx, `SELECT id FROM users WHERE deleted_at > 0 AND deleted_at <= $1 AND purged_at = 0
		ORDER BY deleted_at, id LIMIT $2`, deletedBefore, limit)
	return CollectRows(rows, err, func(r Rows) (int64, error) {
		var id int64
		return id, r.Scan(&id)
	})
}

// PurgeDeletedAccount ends the retention of one deleted account: the
// card number of every exchange order that is settled is cut to its last
// four digits and the holder's name erased (an exchange still under
// review keeps them: it is paid to that card), and the tombstone is
// marked purged. The ledger, the bets, the orders' amounts and the audit
// rows stay under the id: they hold no name, and the ledger is
// append-only (its sums must keep adding up).
func PurgeDeletedAccount(ctx context.Context, tx Tx, userID, now int64) error {
	rows, err := tx.Query(ctx, `SELECT id, card_number FROM exchange_orders WHERE user_id = $1 AND status <> $2`, userID, OrderUnderReview)
	type card struct {
		id     int64
		number string
	}
	cards, err := CollectRows(rows, err, func(r Rows) (card, error) {
		var c card
		return c, r.Scan(&c.id, &c.number)
	})
	if err != nil {
		return err
	}
	for _, c := range cards {
		last := c.number
		if len(last) > 4 {
			last = last[len(last)-4:]
		}
		if _, err := tx.Exec(ctx, `UPDATE exchange_orders SET card_number = $1, holder_name = '' WHERE id = $2`, last, c.id); err != nil {
			return err
		}
	}
	return affected(tx.Exec(ctx, `UPDATE users SET purged_at = $1 WHERE id = $2 AND deleted_at > 0 AND purged_at = 0`, now, userID))
}

// SentMessage is one message a user sent, as their data export holds it.
type SentMessage struct {
	ConversationID string
	Seq            int64
	ClientMsgID    string
	RecvID         int64
	GroupID        int64
	ContentType    int
	Content        string
	SendTime       int64
}

// MessagesSentBy lists every message userID sent, oldest first, found
// through the user's own conversations.
func MessagesSentBy(ctx context.Context, q Querier, userID int64) ([]SentMessage, error) {
	rows, err := q.Query(ctx, `SELECT conversation_id, seq, client_msg_id, recv_id, group_id, content_type, content, send_time
		FROM chat_messages
		WHERE conversation_id IN (SELECT conversation_id FROM chat_user_conversations WHERE user_id = $1)
		AND send_id = $1 ORDER BY send_time, conversation_id, seq`, userID)
	return CollectRows(rows, err, func(r Rows) (SentMessage, error) {
		var m SentMessage
		return m, r.Scan(&m.ConversationID, &m.Seq, &m.ClientMsgID, &m.RecvID, &m.GroupID, &m.ContentType, &m.Content, &m.SendTime)
	})
}

// WalletEntry is one posting on a user's wallet: what moved, why, and the
// order or bet it belongs to.
type WalletEntry struct {
	TransferID int64
	Kind       string // recharge, exchange, exchange_refund, bet, ...
	Amount     int64  // signed cents: credit > 0, debit < 0
	Ref        string // the order number or bet the transfer belongs to
	At         int64
}

// WalletEntriesOf lists every posting on userID's wallet, oldest first.
func WalletEntriesOf(ctx context.Context, q Querier, userID int64) ([]WalletEntry, error) {
	rows, err := q.Query(ctx, `SELECT e.transfer_id, t.kind, e.amount, t.ref, e.created_at
		FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id
		WHERE e.account_id = $1 ORDER BY e.created_at, e.transfer_id`, userID)
	return CollectRows(rows, err, func(r Rows) (WalletEntry, error) {
		var w WalletEntry
		return w, r.Scan(&w.TransferID, &w.Kind, &w.Amount, &w.Ref, &w.At)
	})
}

// AllRechargeOrdersOf lists every recharge order of userID, oldest first.
func AllRechargeOrdersOf(ctx context.Context, q Querier, userID int64) ([]RechargeOrder, error) {
	rows, err := q.Query(ctx, `SELECT `+rechargeColumns+` FROM recharge_orders WHERE user_id = $1 ORDER BY created_at, id`, userID)
	return CollectRows(rows, err, func(r Rows) (RechargeOrder, error) { return scanRecharge(r) })
}

// AllExchangeOrdersOf lists every exchange order of userID, oldest first.
func AllExchangeOrdersOf(ctx context.Context, q Querier, userID int64) ([]ExchangeOrder, error) {
	rows, err := q.Query(ctx, `SELECT `+exchangeColumns+` FROM exchange_orders WHERE user_id = $1 ORDER BY created_at, id`, userID)
	return CollectRows(rows, err, func(r Rows) (ExchangeOrder, error) { return scanExchange(r) })
}

// PendingExchangesOf lists userID's exchange orders still under review.
func PendingExchangesOf(ctx context.Context, q Querier, userID int64) ([]ExchangeOrder, error) {
	rows, err := q.Query(ctx, `SELECT `+exchangeColumns+` FROM exchange_orders WHERE user_id = $1 AND status = $2 ORDER BY created_at, id`,
		userID, OrderUnderReview)
	return CollectRows(rows, err, func(r Rows) (ExchangeOrder, error) { return scanExchange(r) })
}

// AllBetsOf lists every bet of userID, oldest first.
func AllBetsOf(ctx context.Context, q Querier, userID int64) ([]RoundBet, error) {
	rows, err := q.Query(ctx, `SELECT `+betColumns+` FROM round_bets WHERE user_id = $1 ORDER BY placed_at, id`, userID)
	return scanBets(rows, err)
}

// AccountBusy says what stops a deletion for now: bets of the user not yet
// settled and recharge orders still under review (their money would land
// in a wallet nobody can use any more), and groups the user owns that
// have other members (they would be left without anyone to run them: the
// owner transfers or dismisses them first, as quitting asks).
func AccountBusy(ctx context.Context, q Querier, userID int64) (openBets, pendingRecharges, ownedGroups int, err error) {
	err = q.QueryRow(ctx, `SELECT
		(SELECT COUNT(*) FROM round_bets WHERE user_id = $1 AND state = $2),
		(SELECT COUNT(*) FROM recharge_orders WHERE user_id = $1 AND status = $3),
		(SELECT COUNT(*) FROM chat_groups WHERE owner_id = $1 AND status <> $4 AND member_count > 1)`,
		userID, BetOpen, OrderUnderReview, GroupDismissed).Scan(&openBets, &pendingRecharges, &ownedGroups)
	return openBets, pendingRecharges, ownedGroups, err
}
