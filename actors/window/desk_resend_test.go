package window

import (
	"errors"
	"testing"
	"time"

	"kj/storage"
	"kj/storage/storagetest"
)

// A resend of a stored bet gets that bet even where judging it anew would
// refuse it: the balance it spent is gone, or betting has closed since. A
// batch's first attempt does not look its bet ids up, so these are the
// cases where no write fails on the unique index to send it back.
func TestDeskResendAfterARefusalGetsTheStoredBet(t *testing.T) {
	for name, open := range map[string]func(testing.TB) storage.DB{"sqlite": storagetest.SQLite, "postgres": storagetest.Postgres} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, open(t), 1, testRules)
			r := e.firstRound()
			alice := e.player(500)
			placed, err := e.bet(alice, r, Big, 500, "all-in-1")
			if err != nil {
				t.Fatal(err)
			}
			check := func(what string, got storage.RoundBet, err error) {
				t.Helper()
				if err != nil || got.ID != placed.ID {
					t.Fatalf("%s: %+v %v, want the stored bet %d", what, got, err, placed.ID)
				}
			}
			got, err := e.bet(alice, r, Big, 500, "all-in-1")
			check("resent with the balance spent", got, err)
			got, err = e.betAt(alice, r, Big, 500, "all-in-1", time.UnixMilli(r.BettingEndsAt).Add(time.Second))
			check("resent after betting closed", got, err)

			bob := e.player(0)
			if _, err := e.bet(bob, r, Big, 500, "all-in-1"); !errors.Is(err, ErrBetIDTaken) {
				t.Fatalf("another player's id, refused for the balance too: %v, want ErrBetIDTaken", err)
			}
			if got := e.round(r.ID); got.BetsCount != 1 || got.Staked != 500 || e.balance(alice) != 0 {
				t.Fatalf("round %d bets staking %d, balance %d: want the one bet", got.BetsCount, got.Staked, e.balance(alice))
			}
			if rep := e.ledgerOK(); !rep.OK() {
				t.Fatal(rep)
			}
		})
	}
}
