package userview

import (
	"context"
	"strconv"
	"testing"
	"time"

	"kj/internal/bus"
	"kj/internal/clock"
	"kj/storage"
	"kj/storage/storagetest"
)

// readCost reads u's wallet through v and returns its balance and how many
// store statements the read ran.
func readCost(t *testing.T, v *Views, u int64) (int64, int64) {
	t.Helper()
	label := "userview-test-" + t.Name()
	before := storage.Queries(label)
	w, err := v.Wallet(storage.QueryCounterFor(label).Context(context.Background()), u)
	if err != nil {
		t.Fatal(err)
	}
	return w.Balance, storage.Queries(label) - before
}

func recharge(t *testing.T, db storage.DB, u, amount int64, key string) {
	t.Helper()
	res, err := storage.CommitLedgerBatch(context.Background(), db, 1, []storage.Op{{Transfers: []storage.Transfer{{Debit: storage.RechargeClearing,
		Credit: storage.Wallet(u), Amount: amount, Kind: storage.KindRecharge, IdempotencyKey: key}}}}, 0)
	if err != nil || res[0].Err != nil {
		t.Fatalf("recharge: %v %+v", err, res)
	}
}

func newUser(t *testing.T, db storage.DB, account string) int64 {
	t.Helper()
	u := storage.User{ID: storage.NewID(), Account: account, PasswordHash: "x", Nickname: account, InviteCode: "pro_" + account}
	if err := storage.CreateUser(context.Background(), db, u); err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// Another node's events are numbered: a gap in the numbers heard means
// the bus lost one, and every copy is dropped; an event in order drops
// only its users. Warm copies stay hot, whatever their age below
// CopyMaxAge, as long as the marks check succeeds.
func TestAGapInTheEventsDropsEveryCopy(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		c := clock.NewFake(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
		b := bus.NewMemory()
		t.Cleanup(func() { b.Close() })
		v := New(db, b, c)
		t.Cleanup(v.Close)
		u, other := newUser(t, db, "gapreader"), newUser(t, db, "gapother")
		readCost(t, v, u)
		c.Advance(time.Minute) // far past MaxAge: copies do not expire by it
		v.checkMarks()
		if _, n := readCost(t, v, u); n != 0 {
			t.Fatalf("a warm copy a minute old ran %d statements, want 0", n)
		}
		v.onEvent(Subject, []byte("peer 1 "+itoa(other)))
		if _, n := readCost(t, v, u); n != 0 {
			t.Fatalf("an event naming another user dropped this one (%d statements)", n)
		}
		v.onEvent(Subject, []byte("peer 3 "+itoa(other))) // 2 never came
		if _, n := readCost(t, v, u); n == 0 {
			t.Fatal("a gap in the peer's events left the copy served")
		}
		v.onEvent(Subject, []byte("peer 4 "+itoa(u)))
		if _, n := readCost(t, v, u); n == 0 {
			t.Fatal("an event naming the user left its copy served")
		}
		if _, n := readCost(t, v, u); n != 0 {
			t.Fatalf("the reloaded copy ran %d statements, want 0", n)
		}
		// The first event heard of a node that has written before.
		v.onEvent(Subject, []byte("newcomer 7 "+itoa(other)))
		if _, n := readCost(t, v, u); n == 0 {
			t.Fatal("the first event of a node at its 7th left the copy served")
		}
	})
}

// A node that writes while cut off from the bus (or whose event the bus
// lost) is caught by its mark in the store: the other node's next check
// drops its copies, so the change shows.
func TestAWriterCutOffFromTheBusIsCaughtByItsMark(t *testing.T) {
	dbA, url := storagetest.PostgresURL(t)
	dbB, err := storage.OpenPostgres(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(dbB.Close)
	c := clock.NewFake(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
	b := bus.NewMemory()
	t.Cleanup(func() { b.Close() })
	a := New(dbA, b, c)
	t.Cleanup(a.Close)
	cutOff := New(dbB, nil, c) // hears nothing and tells nobody over the bus
	t.Cleanup(cutOff.Close)

	u := newUser(t, dbA, "markreader")
	if got, _ := readCost(t, a, u); got != 0 {
		t.Fatalf("balance %d, want 0", got)
	}
	recharge(t, dbB, u, 700, "mark-recharge")
	if got, n := readCost(t, a, u); got != 0 || n != 0 {
		t.Fatalf("before any check: balance %d with %d statements; the copy should still answer", got, n)
	}
	cutOff.checkMarks() // records its count of events
	a.checkMarks()      // finds it higher than what it heard
	if got, _ := readCost(t, a, u); got != 700 {
		t.Fatalf("balance %d after the check, want 700", got)
	}
	a.checkMarks()
	if _, n := readCost(t, a, u); n != 0 {
		t.Fatalf("a second check with nothing new dropped the copy again (%d statements)", n)
	}
}

// Without a successful check within MaxAge (the store unreachable, or the
// node closed) copies are not served.
func TestCopiesNeedARecentCheck(t *testing.T) {
	db := storagetest.SQLite(t)
	c := clock.NewFake(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
	v := New(db, nil, c)
	u := newUser(t, db, "checkreader")
	readCost(t, v, u)
	if _, n := readCost(t, v, u); n != 0 {
		t.Fatalf("warm read ran %d statements", n)
	}
	v.Close()
	if _, n := readCost(t, v, u); n == 0 {
		t.Fatal("a copy was served with no check behind it")
	}
}

func itoa(id int64) string { return strconv.FormatInt(id, 10) }
