package httpapi

// Limits under a burst of parallel requests: each limit must hold when all
// the requests arrive at once, on both stores and with both counter
// backends (in-process and Redis, as a cluster runs).

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"kj/internal/apierr"
	"kj/internal/counter"
	"kj/internal/testenv"
	"kj/storage"
	"kj/wallet"
)

// eachCounters runs f on both stores, each with in-process counters and
// with Redis counters.
func eachCounters(t *testing.T, f func(t *testing.T, db storage.DB, s *Server)) {
	t.Run("memory", func(t *testing.T) {
		eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
			f(t, db, s)
		})
	})
	t.Run("redis", func(t *testing.T) {
		eachServer(t, func(t *testing.T, db storage.DB, s *Server, _ http.Handler) {
			rdb, prefix := testenv.Redis(t)
			s.Counters = counter.NewRedis(rdb, prefix)
			s.Wallet.Counters = s.Counters // the fund password's tries too
			s.Customer.Counters = s.Counters
			f(t, db, s)
		})
	})
}

// burst sends n requests at once (each built by body(i)) and returns the
// envelope codes counted by code.
func burst(t *testing.T, s *Server, n int, path string, body func(i int) string, headers ...string) map[int]int {
	t.Helper()
	h := s.Handler()
	codes := make([]int, n)
	var start, done sync.WaitGroup
	start.Add(1)
	for i := 0; i < n; i++ {
		done.Add(1)
		go func() {
			defer done.Done()
			start.Wait()
			req := request("POST", "/api"+path, strings.NewReader(body(i)), headers...)
			req.RemoteAddr = "198.51.100.20:5000"
			w := serve(h, req)
			var r reply
			if err := json.Unmarshal(w.Body.Bytes(), &r); err != nil {
				codes[i] = -1
				return
			}
			codes[i] = r.Code
		}()
	}
	start.Done()
	done.Wait()
	m := map[int]int{}
	for _, c := range codes {
		m[c]++
	}
	return m
}

func TestSignInLockoutHoldsUnderABurst(t *testing.T) {
	t.Parallel()
	eachCounters(t, func(t *testing.T, db storage.DB, s *Server) {
		newUser(t, s, "burst_lucy")
		got := burst(t, s, 25, "/accountLogin", func(int) string {
			return `{"account":"burst_lucy","password":"wrong1","platform":5}`
		})
		// Five tries are checked (the fifth locks); the others are
		// refused before their password is looked at.
		if got[apierr.CodeLoginCredential] != LoginMaxFailures-1 || got[apierr.CodeLoginLocked] < 1 ||
			got[apierr.CodeLoginCredential]+got[apierr.CodeLoginLocked]+got[apierr.CodeRateLimited] != 25 {
			t.Fatalf("25 wrong passwords at once: %v; want %d wrong-password answers, the rest locked or refused", got, LoginMaxFailures-1)
		}
		if r := login(t, s, "burst_lucy", "abc123", 5); r.Code != apierr.CodeLoginLocked {
			t.Fatalf("the right password after the burst must meet the lock: %+v", r)
		}
	})
}

func TestFundPasswordLockoutHoldsUnderABurst(t *testing.T) {
	t.Parallel()
	eachCounters(t, func(t *testing.T, db storage.DB, s *Server) {
		_, tok := newUser(t, s, "burst_fund")
		setFundPassword(t, s, tok.Token)
		got := burst(t, s, 21, "/user/changeWalletPwd", func(int) string {
			return `{"oldPassword":"000000","password":"654321"}`
		}, "token", tok.Token)
		if got[apierr.CodeFundPasswordWrong] != wallet.FundPasswordMaxFailures-1 || got[apierr.CodeFundPasswordLocked] < 1 ||
			got[apierr.CodeFundPasswordWrong]+got[apierr.CodeFundPasswordLocked]+got[apierr.CodeRateLimited] != 21 {
			t.Fatalf("21 wrong fund passwords at once: %v; want %d wrong answers, the rest locked or refused", got, wallet.FundPasswordMaxFailures-1)
		}
		fails(t, s, tok.Token, "/user/changeWalletPwd", `{"oldPassword":"123456","password":"654321"}`, apierr.CodeFundPasswordLocked)
	})
}

func TestRegistrationLimitHoldsUnderABurst(t *testing.T) {
	t.Parallel()
	eachCounters(t, func(t *testing.T, db storage.DB, s *Server) {
		before := countRows(t, db, "users")
		got := burst(t, s, 40, "/register", func(i int) string {
			return fmt.Sprintf(`{"account":"burst_reg_%d","password":"abc123"}`, i)
		})
		if got[0] != registerPerIPPerHour || got[apierr.CodeRateLimited] != 40-registerPerIPPerHour {
			t.Fatalf("40 registrations at once from one address: %v; want %d accepted", got, registerPerIPPerHour)
		}
		if n := countRows(t, db, "users") - before; n != registerPerIPPerHour {
			t.Fatalf("%d accounts made, want %d", n, registerPerIPPerHour)
		}
	})
}

func TestBankCardCapHoldsUnderABurst(t *testing.T) {
	t.Parallel()
	eachCounters(t, func(t *testing.T, db storage.DB, s *Server) {
		u, tok := newUser(t, s, "burst_cards")
		setFundPassword(t, s, tok.Token)
		// Two bound first: the fund-password tries in flight (five) could
		// otherwise hide a cap that is checked outside the insert.
		bindCard(t, s, tok.Token, "6222000000099901")
		bindCard(t, s, tok.Token, "6222000000099902")
		got := burst(t, s, 12, "/user/setBankCard", func(i int) string {
			n := fmt.Sprintf("62220000000%05d", i)
			return fmt.Sprintf(`{"name":"Ana Pérez","bank":"91","cardNumber":%q,"confirmCardNumber":%q,"fundPassword":"123456"}`, n, n)
		}, "token", tok.Token)
		cards, err := storage.CountBankCards(t.Context(), db, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		// The rest are refused by the cap, or as fund-password tries
		// beyond the ones in flight.
		if cards != wallet.MaxBankCards || got[0] != wallet.MaxBankCards-2 || got[apierr.CodeTooManyCards]+got[apierr.CodeRateLimited] != 12-(wallet.MaxBankCards-2) {
			t.Fatalf("12 cards at once: %d bound, answers %v; want %d bound and the rest refused", cards, got, wallet.MaxBankCards)
		}
	})
}
