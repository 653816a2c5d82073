package auth

import (
	"testing"
	"time"

	"kj/internal/bus"
	"kj/internal/clock"
	"kj/storage"
)

// A store read that began before a session was evicted must not put the
// session back when it finishes: the eviction wins.
func TestTokenCacheEvictionWinsOverAReadInFlight(t *testing.T) {
	tc, err := NewTokenCache(nil, clock.NewFake(time.Unix(1e9, 0)), 10, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	sess := storage.AuthSession{ID: 7, UserID: 1, State: storage.SessionActive}
	since := tc.mark() // the read starts
	tc.Evict(7)        // the sign-out lands while it runs
	tc.put("h7", since, sess, storage.User{ID: 1})
	if _, _, ok := tc.get("h7"); ok {
		t.Fatal("a read from before the eviction put the session back")
	}
	// Another session's eviction does not stop the fill.
	since = tc.mark()
	tc.Evict(8)
	tc.put("h7", since, sess, storage.User{ID: 1})
	if _, _, ok := tc.get("h7"); !ok {
		t.Fatal("an unrelated eviction refused the fill")
	}
	// Too many evictions since the read to tell: refused.
	tc.Evict(7)
	since = tc.mark()
	for i := range evictionLog {
		tc.Evict(int64(1000 + i))
	}
	tc.put("h7", since, sess, storage.User{ID: 1})
	if _, _, ok := tc.get("h7"); ok {
		t.Fatal("a fill older than the eviction log was taken")
	}
}

// The cache holds at most its size, and only the user's fixed fields.
func TestTokenCacheIsBoundedAndKeepsIdentityOnly(t *testing.T) {
	tc, _ := NewTokenCache(nil, clock.NewFake(time.Unix(1e9, 0)), 3, time.Minute)
	for i := int64(1); i <= 10; i++ {
		tc.put(string(rune('a'+i)), tc.mark(), storage.AuthSession{ID: i}, storage.User{ID: i, Account: "u", PasswordHash: "secret", Nickname: "n"})
	}
	if tc.Len() != 3 || len(tc.bySession) != 3 {
		t.Fatalf("cache holds %d/%d, want 3", tc.Len(), len(tc.bySession))
	}
	for _, e := range tc.byToken {
		if e.user.PasswordHash != "" || e.user.Nickname != "" || e.user.Account != "u" {
			t.Fatalf("cached user %+v", e.user)
		}
	}
}

// A sign-out published while the node was cut off from the bus never
// reaches its cache; once the bus is back the cache forgets every token
// (and a store read from before does not fill it again), so a token
// signed out elsewhere is refused at once, not after maxAge.
func TestTokenCacheForgetsEverythingWhenTheBusResumes(t *testing.T) {
	b := bus.NewMemory()
	tc, err := NewTokenCache(b, clock.NewFake(time.Unix(1e9, 0)), 10, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	tc.put("h1", tc.mark(), storage.AuthSession{ID: 1, UserID: 1}, storage.User{ID: 1})
	since := tc.mark()
	b.Resume()
	if tc.Len() != 0 {
		t.Fatalf("%d tokens still cached after the bus resumed", tc.Len())
	}
	tc.put("h2", since, storage.AuthSession{ID: 2, UserID: 2}, storage.User{ID: 2})
	if _, _, ok := tc.get("h2"); ok {
		t.Fatal("a read from before the resume filled the cache")
	}
	tc.put("h2", tc.mark(), storage.AuthSession{ID: 2, UserID: 2}, storage.User{ID: 2})
	if _, _, ok := tc.get("h2"); !ok {
		t.Fatal("a read after the resume was not cached")
	}
}

// The refresh confirms only entries used within keepIdle and half their
// age old, and an eviction that lands while its statement runs wins.
func TestTokenCacheRefreshPicksEntriesInUseAndYieldsToEvictions(t *testing.T) {
	c := clock.NewFake(time.Unix(1e9, 0))
	tc, err := NewTokenCache(nil, c, 10, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	active := func(id int64) storage.AuthSession {
		return storage.AuthSession{ID: id, UserID: id, State: storage.SessionActive, TokenHash: "h" + string(rune('0'+id))}
	}
	tc.put("h1", tc.mark(), active(1), storage.User{ID: 1})
	tc.put("h2", tc.mark(), active(2), storage.User{ID: 2})
	if due := tc.due(); len(due) != 0 {
		t.Fatalf("%d entries due right after their fill", len(due))
	}
	c.Advance(keepIdle) // both idle since the fill
	tc.put("h3", tc.mark(), active(3), storage.User{ID: 3})
	c.Advance(40 * time.Second)
	if _, _, ok := tc.get("h3"); !ok {
		t.Fatal("h3 not cached")
	}
	due := tc.due()
	if len(due) != 1 || due[0].session.ID != 3 {
		t.Fatalf("due %v, want only the entry in use", due)
	}
	tc.Evict(3) // a sign-out arrives while the refresh reads the store
	tc.confirm(due, []storage.AuthSession{active(3)}, c.Now())
	if _, _, ok := tc.get("h3"); ok {
		t.Fatal("the refresh put back a session evicted meanwhile")
	}
}
