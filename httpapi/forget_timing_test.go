package httpapi

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"kj/internal/apierr"
	"kj/storage"
)

// TestPasswordResetFailuresCostTheSame: every way a /forget can fail after
// its form is valid — an unknown account, a known account with another
// phone, an account whose phone was bound without an SMS code, and the
// verified phone with a wrong code — takes the same time, so timing does
// not tell which phone is which account's verified phone (before, the
// last case hashed the new password first: 10 times slower). Over 200
// tries of each, interleaved in a random order per round so load on the
// machine falls on every case alike, the medians are within 0.5 ms.
//
// Each round starts from a live code on the verified phone and no wrong
// tries counted, as an attacker's first probe of a phone would.
func TestPasswordResetFailuresCostTheSame(t *testing.T) {
	eachServer(t, func(t *testing.T, db storage.DB, s *Server, h http.Handler) {
		ctx := context.Background()
		s.Config.TrustProxy = true // each try from its own address: the per-address cap is not what is measured
		ida, _ := newUser(t, s, "time_ida")
		setPhoneDirect(t, db, ida.ID, "13800138001")
		jon, _ := newUser(t, s, "time_jon")
		if err := storage.SetUserPhone(ctx, db, jon.ID, "13800138002", false, 1); err != nil {
			t.Fatal(err)
		}
		cases := []struct{ name, account, phone string }{
			{"unknown account", "time_nobody", "13800138001"},
			{"known account, another phone", "time_ida", "13800138009"},
			{"phone bound without a code", "time_jon", "13800138002"},
			{"verified phone, wrong code", "time_ida", "13800138001"},
		}
		const rounds = 200
		addr := 0
		measure := func() [][]time.Duration {
			took := make([][]time.Duration, len(cases))
			for round := 0; round < rounds+10; round++ { // the first 10 warm the pools up and are not kept
				now := s.Clock.Now()
				if err := storage.PutSMSCode(ctx, db, "13800138001", smsForget, smsHash("13800138001", smsForget, "111111"),
					now.Add(s.Config.SMSCodeTTL).UnixMilli(), now.UnixMilli()); err != nil {
					t.Fatal(err)
				}
				for _, c := range cases {
					if err := s.Counters.Delete(ctx, smsFailKey(c.phone, smsForget)); err != nil {
						t.Fatal(err)
					}
				}
				for _, i := range rand.Perm(len(cases)) {
					c := cases[i]
					addr++
					req := request("POST", "/api/forget", strings.NewReader(jsonBody(t, map[string]string{"account": c.account, "phone": c.phone,
						"smsCode": "222222", "password": "new123", "confirmPassword": "new123"})),
						"X-Forwarded-For", fmt.Sprintf("10.%d.%d.%d", addr>>16&255, addr>>8&255, addr&255))
					start := time.Now()
					w := serve(h, req)
					d := time.Since(start)
					if r := envelopeIn(t, req, w); r.Code != apierr.CodeSMSCodeInvalid {
						t.Fatalf("%s: %+v, want the wrong-code answer", c.name, r)
					}
					if round >= 10 {
						took[i] = append(took[i], d)
					}
				}
			}
			return took
		}
		// The bound of the issue is 0.5 ms. Under the race detector every
		// statement costs tens of times more, so it is 5 ms: still far below
		// the password hash a leak would add (35 ms without -race).
		bound := 500 * time.Microsecond
		if raceDetector {
			bound *= 10
		}
		// A leak shows in every measurement; a burst of load from other
		// processes rarely in three in a row, so one clean run of three
		// passes.
		var report string
		for try := 0; try < 3; try++ {
			took := measure()
			medians := make([]time.Duration, len(cases))
			report = ""
			for i, d := range took {
				slices.Sort(d)
				medians[i] = d[len(d)/2]
				report += fmt.Sprintf("\n  %-30s median %v", cases[i].name, medians[i])
			}
			spread := slices.Max(medians) - slices.Min(medians)
			if spread <= bound {
				t.Logf("medians of %d tries each:%s", rounds, report)
				return
			}
			if spread > 20*bound {
				break // no load makes this much: measuring again would only repeat it
			}
		}
		t.Fatalf("the failures of /forget take different times (medians of %d tries each, want within %v):%s", rounds, bound, report)
	})
}
