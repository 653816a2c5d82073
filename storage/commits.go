package storage

import (
	"context"
	"slices"
	"sync"
)

// What a commit changed, told to whoever keeps copies of the store in the
// node (storage/userview): the write functions of this package note the
// users whose reads they change (touched), a transaction gathers the notes
// and hands them to the DB's watchers once it has committed, before Tx
// returns; a statement outside a transaction hands them on at once. So the
// node that wrote drops its copies before anyone is told the write is done,
// whichever part of the program wrote (an HTTP handler, the ledger writer,
// the bet desk settling a round).

// Committed is what one commit changed.
type Committed struct {
	Users []int64 // users whose wallet, profile or notices changed
	All   bool    // something every user reads changed (a notice for all, the operators)
}

// CommitWatcher is told of each commit that changed something; it must not
// block (it runs before the writer's Tx returns).
type CommitWatcher func(Committed)

// commitWatchers are the watchers of one DB.
type commitWatchers struct {
	mu sync.RWMutex
	fs []CommitWatcher
}

func (w *commitWatchers) add(f CommitWatcher) {
	w.mu.Lock()
	w.fs = append(w.fs, f)
	w.mu.Unlock()
}

func (w *commitWatchers) tell(c Committed) {
	if w == nil || (len(c.Users) == 0 && !c.All) {
		return
	}
	w.mu.RLock()
	fs := w.fs
	w.mu.RUnlock()
	for _, f := range fs {
		f(c)
	}
}

// WatchCommits registers f to hear what each commit through db changed.
// It does nothing for a DB of neither of this package's stores.
func WatchCommits(db DB, f CommitWatcher) {
	switch d := db.(type) {
	case *PG:
		d.watchers.add(f)
	case *Lite:
		d.watchers.add(f)
	}
}

// txChanges gathers what a transaction changed until it commits.
type txChanges struct {
	mu    sync.Mutex
	users []int64
	all   bool
}

func (c *txChanges) committed() Committed {
	c.mu.Lock()
	defer c.mu.Unlock()
	users := slices.Clone(c.users)
	slices.Sort(users)
	return Committed{Users: slices.Compact(users), All: c.all}
}

// touched notes that q's write changed what userIDs read; touchedAll that
// it changed what every user reads.
func touched(q Querier, userIDs ...int64) { note(q, false, userIDs) }

func touchedAll(q Querier) { note(q, true, nil) }

func note(q Querier, all bool, userIDs []int64) {
	var ch *txChanges
	switch t := q.(type) {
	case pgTx:
		ch = t.ch
	case liteTx:
		ch = t.ch
	case *PG:
		t.watchers.tell(Committed{Users: userIDs, All: all})
		return
	case *Lite:
		t.watchers.tell(Committed{Users: userIDs, All: all})
		return
	}
	if ch == nil {
		return
	}
	ch.mu.Lock()
	ch.users = append(ch.users, userIDs...)
	ch.all = ch.all || all
	ch.mu.Unlock()
}

// afterCommit tells w what the transaction changed. It runs whether the
// commit succeeded or not (a failed COMMIT may still have committed), as a
// drop too many costs a store read, one too few a stale answer.
func afterCommit(_ context.Context, w *commitWatchers, ch *txChanges) {
	w.tell(ch.committed())
}

// touchWallets notes the users whose wallets ops move.
func touchWallets(q Querier, ops []Op) {
	var ids []int64
	for _, op := range ops {
		for _, t := range op.Transfers {
			if t.Debit.Kind == AccountWallet {
				ids = append(ids, t.Debit.UserID)
			}
			if t.Credit.Kind == AccountWallet {
				ids = append(ids, t.Credit.UserID)
			}
		}
	}
	touched(q, ids...)
}
