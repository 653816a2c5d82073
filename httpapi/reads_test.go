package httpapi

import (
	"context"
	"net/http"
	"testing"
	"time"

	"kj/actors/window"
	"kj/internal/bus"
	"kj/storage"
	"kj/storage/storagetest"
	"kj/storage/userview"
)

// playersReads are the routes a player calls all the time, answered from
// the node's copies (reads.go).
var playersReads = []string{"/user/mine", "/user/amount", "/user/getUserAmount", "/user/index", "/getBaseData"}

// storeQueriesOf calls path as tok's holder and returns how many store
// statements the call ran.
func storeQueriesOf(t *testing.T, s *Server, tok, path string, out any) int64 {
	t.Helper()
	before := storage.Queries(path)
	ok(t, s, tok, path, "{}", out)
	return storage.Queries(path) - before
}

// Once a first read warmed the node, the players' reads ask the store
// nothing; a write drops the copy it changes at its commit, so the next
// read asks the store again and shows it; while the bus is down every read
// goes to the store.
//
// Not parallel: storage.Queries counts a route's statements process-wide,
// so another test's read of the same route would count here.
func TestPlayersReadsAskTheStoreNothingOnceWarm(t *testing.T) {
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
		u, tok := newUser(t, s, "warmreader")
		for _, path := range playersReads {
			ok(t, s, tok.Token, path, "{}", nil)
		}
		for _, path := range playersReads {
			if n := storeQueriesOf(t, s, tok.Token, path, nil); n != 0 {
				t.Errorf("%s ran %d store statements once warm, want 0", path, n)
			}
		}

		// A profile edit: the writer's node shows it at once.
		ok(t, s, tok.Token, "/user/editNick", `{"nickName":"renamed"}`, nil)
		var info UserInfo
		if n := storeQueriesOf(t, s, tok.Token, "/user/mine", &info); n == 0 || info.NickName != "renamed" {
			t.Fatalf("after editNick: %d statements, nickName %q; want a store read showing renamed", n, info.NickName)
		}

		// Money moved by the ledger (here straight through the store, as
		// the ledger writer and the bet desk do): the next balance read is
		// the new one.
		ctx := context.Background()
		res, err := storage.CommitLedgerBatch(ctx, db, 1, []storage.Op{{Transfers: []storage.Transfer{{Debit: storage.RechargeClearing,
			Credit: storage.Wallet(u.ID), Amount: 700, Kind: storage.KindRecharge, IdempotencyKey: "warm-recharge"}}}}, 0)
		if err != nil || res[0].Err != nil {
			t.Fatalf("recharge: %v %+v", err, res)
		}
		var amount amountReply
		ok(t, s, tok.Token, "/user/amount", "{}", &amount)
		if amount.Amount != 700 {
			t.Fatalf("amount after a committed recharge = %d, want 700", amount.Amount)
		}
		if n := storeQueriesOf(t, s, tok.Token, "/user/amount", &amount); n != 0 || amount.Amount != 700 {
			t.Fatalf("warm again: %d statements, amount %d", n, amount.Amount)
		}

		// A notice for everyone changes every unread count.
		if err := storage.CreateNotice(ctx, db, storage.Notice{ID: storage.NewID(), Title: "t", Content: "c", CreatedAt: 1, UpdatedAt: 1}); err != nil {
			t.Fatal(err)
		}
		ok(t, s, tok.Token, "/user/mine", "{}", &info)
		if info.Notice != 1 {
			t.Fatalf("unread notices after one was published = %d, want 1", info.Notice)
		}

		// The bus is down: the node cannot hear other nodes' commits, so
		// it reads the store; back up, it keeps copies again.
		m := s.Bus.(*bus.Memory)
		m.Down()
		for _, path := range playersReads {
			if n := storeQueriesOf(t, s, tok.Token, path, nil); n == 0 {
				t.Errorf("%s answered from memory while the bus was down", path)
			}
		}
		m.Resume()
		for _, path := range playersReads {
			ok(t, s, tok.Token, path, "{}", nil)
			if n := storeQueriesOf(t, s, tok.Token, path, nil); n != 0 {
				t.Errorf("%s ran %d store statements once warm after the bus came back", path, n)
			}
		}
	})
}

// A change made outside kj's store functions (here a hand-written
// statement) shows at once when whoever made it raises the manual change
// mark, and at the latest when the copy reaches userview.CopyMaxAge.
func TestPlayersReadsSeeHandWrittenChanges(t *testing.T) {
	t.Parallel()
	db := storagetest.SQLite(t)
	s, c := testServer(t, db)
	u, tok := newUser(t, s, "agedreader")
	var info UserInfo
	ctx := context.Background()
	ok(t, s, tok.Token, "/user/mine", "{}", &info)
	if _, err := db.Exec(ctx, `UPDATE users SET nickname = 'direct' WHERE id = $1`, u.ID); err != nil {
		t.Fatal(err)
	}
	ok(t, s, tok.Token, "/user/mine", "{}", &info)
	if info.NickName != "agedreader" {
		t.Fatalf("nickName %q before anything said so; the copy should still answer", info.NickName)
	}
	c.Advance(userview.CopyMaxAge)
	ok(t, s, tok.Token, "/user/mine", "{}", &info)
	if info.NickName != "direct" {
		t.Fatalf("nickName %q after the copy's maximum age, want direct", info.NickName)
	}

	if _, err := db.Exec(ctx, `UPDATE users SET nickname = 'marked' WHERE id = $1`, u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(ctx, `UPDATE change_marks SET seq = seq + 1 WHERE origin = 'manual'`); err != nil {
		t.Fatal(err)
	}
	// The node's check runs every half second of real time.
	deadline := time.Now().Add(3 * userview.MaxAge)
	for ok(t, s, tok.Token, "/user/mine", "{}", &info); info.NickName != "marked"; ok(t, s, tok.Token, "/user/mine", "{}", &info) {
		if time.Now().After(deadline) {
			t.Fatalf("nickName %q %v after the manual mark was raised, want marked", info.NickName, 3*userview.MaxAge)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// The lobby, warm, asks the store nothing: its rounds from the windows'
// board, the player's balance from the wallet copies; a recharge shows in
// the next lobby.
// Not parallel, as TestPlayersReadsAskTheStoreNothingOnceWarm.
func TestLobbyAsksTheStoreNothingOnceWarm(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		s, c := roundsServer(t, db)
		board, err := window.NewBoard(db, s.Bus, c)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(board.Close)
		s.Rounds.Board = board
		u, tok := newUser(t, s, "lobbyreader")
		var lobby window.Lobby
		ok(t, s, tok.Token, "/activation/lotteryList", "{}", &lobby)
		if n := storeQueriesOf(t, s, tok.Token, "/activation/lotteryList", &lobby); n != 0 || len(lobby.Windows) != 2 {
			t.Fatalf("warm lobby: %d store statements, %d windows; want 0 and 2", n, len(lobby.Windows))
		}
		fund(t, db, u.ID, 4200)
		ok(t, s, tok.Token, "/activation/lotteryList", "{}", &lobby)
		if lobby.AvailablePoints != 4200 {
			t.Fatalf("lobby balance after a recharge = %d, want 4200", lobby.AvailablePoints)
		}
		if n := storeQueriesOf(t, s, tok.Token, "/activation/lotteryList", &lobby); n != 0 {
			t.Errorf("warm lobby after the recharge ran %d store statements, want 0", n)
		}
	})
}
