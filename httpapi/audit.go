package httpapi

// The audit log of operator changes (to money, membership, rules, content,
// settings and operators), written in the transaction of the change itself:
// the ledger operation's hook for reviews that move money, the route's own
// transaction otherwise. Every row says who (the operator, or the command
// line), from where (the client address, or "cli"), what (the action and
// the object it names) and the object's values before and after.

import (
	"context"
	"fmt"
	"os"
	"os/user"
	"strconv"

	"kj/storage"
)

// auditActions lists every action the audit log records, with what its
// target names. Writing any other action fails (recordAudit), so a new
// audited change is added here, where TestEveryAuditActionRecordsWho
// WhereWhatBeforeAndAfter finds it and checks its rows.
var auditActions = map[string]string{
	"operator.create":         "the new operator's user id",
	"operator.role":           "the operator's user id",
	"operator.disable":        "the operator's user id",
	"operator.enable":         "the operator's user id",
	"operator.password.reset": "the operator's user id",

	"user.activation":         "the player's user id",
	"user.freeze":             "the player's user id",
	"user.unfreeze":           "the player's user id",
	"user.fundPassword.reset": "the player's user id",
	// Written by the player, about themselves (account_data.go): the
	// operator of the row is the player's own id.
	"user.delete": "the player's user id",

	"customer.handover": "the visitor number",
	"customer.reply":    "the visitor number",

	"recharge.approve":  "the order id",
	"recharge.confirm":  "the order id",
	"recharge.fail":     "the order id",
	"recharge.release":  "the order id", // a recharge held by player protection let through (protection.go)
	"exchange.complete": "the order id",
	"exchange.fail":     "the order id",
	"window.rules":      "the window id",
	"bank.add":          "the bank id",
	"bank.update":       "the bank id",

	"banner.create": "the banner id", "banner.update": "the banner id", "banner.delete": "the banner id",
	"video.create": "the video id", "video.update": "the video id", "video.delete": "the video id",
	"city.create": "the city id", "city.update": "the city id", "city.delete": "the city id",
	"listing.create": "the listing id", "listing.update": "the listing id", "listing.delete": "the listing id",
	"notice.publish": "the notice id", "notice.update": "the notice id", "notice.delete": "the notice id",

	"video.limit":   "the setting's name",
	"manifest.save": "the setting's name",
	"settings.save": "the setting's name",
	"domain.save":   "the domain",
	"domain.delete": "the domain",
	"file.upload":   "the file's URL",

	// Written by engine/seed (kj seed --demo), below this package, in the
	// same shape: by the demo operator, from "cli".
	"demo.seed": "\"demo\"",
}

// auditChange is what an audited change did: the object's values before
// and after. Before is null for a creation and after null for a deletion,
// written out either way, so a reader never has to guess which was meant.
type auditChange struct {
	Before any    `json:"before"`
	After  any    `json:"after"`
	Remark string `json:"remark,omitempty"` // the operator's remark on a review
	Reason string `json:"reason,omitempty"` // the operator's reason for a change to a player
}

// AuditActor is who makes an audited change, and from where.
type AuditActor struct {
	OperatorID int64  // 0 for the command line
	Address    string // the client's address, or "cli"
	OSUser     string // the command line's: the system account that ran it
}

// CommandLineActor is the actor of `kj admin` commands: no operator, from
// "cli", naming the system account that ran the command when it is known.
func CommandLineActor() AuditActor {
	a := AuditActor{Address: "cli", OSUser: os.Getenv("USER")}
	if u, err := user.Current(); err == nil {
		a.OSUser = u.Username
	}
	return a
}

// auditDetail is the JSON document stored as a row's detail.
type auditDetail struct {
	IP     string `json:"ip"`
	OSUser string `json:"osUser,omitempty"`
	auditChange
}

// recordAudit writes one row of the audit log in tx, the change's own
// transaction. target is an id (int64, contentID) or a name; change must
// hold no secrets.
func recordAudit(ctx context.Context, tx storage.Tx, by AuditActor, action string, target any, change auditChange, at int64) error {
	if _, ok := auditActions[action]; !ok {
		return fmt.Errorf("audit: action %q is not in auditActions", action)
	}
	var t string
	switch v := target.(type) {
	case int64:
		t = strconv.FormatInt(v, 10)
	case contentID:
		t = strconv.FormatInt(int64(v), 10)
	case string:
		t = v
	default:
		return fmt.Errorf("audit: %s: target of type %T", action, target)
	}
	if t == "" || by.Address == "" {
		return fmt.Errorf("audit: %s: a row needs its object and the address it came from", action)
	}
	return storage.RecordAudit(ctx, tx, by.OperatorID, action, t, auditDetail{IP: by.Address, OSUser: by.OSUser, auditChange: change}, at)
}

// RecordOperatorAction writes the audit row of the operator action c is
// making (the operator, its client address, the object and its values
// before and after) in tx, the action's own transaction. Every operator
// route of every area calls it.
func RecordOperatorAction(c *Call, tx storage.Tx, action string, target any, change auditChange) error {
	return recordAudit(c.Ctx, tx, c.operatorActor(), action, target, change, c.s.Clock.Now().UnixMilli())
}

// operatorActor is the signed-in operator of c, from its client address.
func (c *Call) operatorActor() AuditActor {
	return AuditActor{OperatorID: c.User.ID, Address: c.ClientIP()}
}

// orderState is an order as an audit entry shows it before and after.
type orderState struct {
	Status int   `json:"status"`
	Amount int64 `json:"amount"`
	UserID int64 `json:"userId,string"`
}
