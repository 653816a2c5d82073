package window

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"kj/internal/clock"
	"kj/internal/testenv"
	"kj/storage"
	"kj/storage/storagetest"
)

// standIn is a beacon of the test's own, served over HTTP the way drand
// serves its chains. A round's value is drawn from crypto/rand the first
// time it is asked for at or after its publication time on the test's
// clock, never before: until then it exists nowhere, the server under test
// included.
type standIn struct {
	t     *testing.T
	clock clock.Clock
	info  BeaconInfo
	srv   *httptest.Server

	mu      sync.Mutex
	values  map[int64]BeaconValue
	drawnAt map[int64]time.Time // the test clock's time when each value was drawn
	asked   map[int64]int       // requests per round, published or not
	hold    bool                // publish nothing (a beacon outage)
}

func newStandIn(t *testing.T, c clock.Clock) *standIn {
	s := &standIn{t: t, clock: c, values: map[int64]BeaconValue{}, drawnAt: map[int64]time.Time{}, asked: map[int64]int{},
		info: BeaconInfo{Period: 3, GenesisTime: t0.Add(-time.Hour).Unix(), Hash: "stand-in"}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *standIn) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/info" {
		json.NewEncoder(w).Encode(s.info)
		return
	}
	n, err := strconv.ParseInt(strings.TrimPrefix(r.URL.Path, "/public/"), 10, 64)
	if err != nil || !strings.HasPrefix(r.URL.Path, "/public/") {
		http.NotFound(w, r)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked[n]++
	now := s.clock.Now()
	if s.hold || now.Before(s.info.RoundAt(n)) {
		http.Error(w, "not published yet", http.StatusNotFound)
		return
	}
	v, ok := s.values[n]
	if !ok {
		sig := make([]byte, 48)
		if _, err := rand.Read(sig); err != nil {
			s.t.Error(err)
		}
		h := sha256.Sum256(sig)
		v = BeaconValue{Round: n, Randomness: hex.EncodeToString(h[:]), Signature: hex.EncodeToString(sig)}
		s.values[n], s.drawnAt[n] = v, now
	}
	json.NewEncoder(w).Encode(v)
}

// drawn reports the value of round n if the stand-in has drawn it.
func (s *standIn) drawn(n int64) (BeaconValue, time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.values[n]
	return v, s.drawnAt[n], ok
}

func (s *standIn) setHold(h bool) {
	s.mu.Lock()
	s.hold = h
	s.mu.Unlock()
}

// beaconNode starts node "a" with the stand-in as its beacon.
func (e *env) beaconNode(s *standIn, wait time.Duration) *Runner {
	e.t.Helper()
	r := &Runner{DB: e.db, Desk: e.desk, Bus: e.bus, Clock: e.clock, Log: e.log, Node: "a",
		LeaseTTL: time.Hour, onArm: e.noteArm, Beacon: &Beacon{URL: s.srv.URL, Wait: wait}}
	if err := r.Start(e.actorSystem()); err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { r.kill() })
	return r
}

func TestBeaconScheduleFromDrandInfo(t *testing.T) {
	// quicknet's published schedule: genesis 1692803367, period 3 s.
	i := BeaconInfo{Period: 3, GenesisTime: 1692803367}
	if got := i.RoundAt(1); got.Unix() != 1692803367 {
		t.Fatalf("round 1 at %v", got)
	}
	for _, c := range []struct {
		at   time.Time
		want int64
	}{
		{time.Unix(1692803366, 0), 1},           // before genesis: round 1
		{time.Unix(1692803367, 0), 2},           // at round 1's time: strictly after it is round 2
		{time.Unix(1692803369, 999e6), 2},       // 1 ms before round 2
		{time.Unix(1692803370, 0), 3},           // at round 2's time
		{time.Unix(1692803367+3*1000, 1), 1002}, // just after round 1001
	} {
		n := i.RoundAfter(c.at)
		if n != c.want || !i.RoundAt(n).After(c.at) || (n > 1 && i.RoundAt(n-1).After(c.at)) {
			t.Errorf("RoundAfter(%v) = %d (at %v), want %d", c.at, n, i.RoundAt(n), c.want)
		}
	}
}

func TestBeaconValueIsCheckedAndNotYetIsTold(t *testing.T) {
	c := clock.NewFake(t0)
	s := newStandIn(t, c)
	b := &Beacon{URL: s.srv.URL + "/"}
	info, err := b.Info(context.Background())
	if err != nil || info != s.info {
		t.Fatalf("info %+v %v", info, err)
	}
	n := info.RoundAfter(t0)
	if _, err := b.Value(context.Background(), n); !errors.Is(err, ErrBeaconNotYet) {
		t.Fatalf("a future round: %v", err)
	}
	c.Set(info.RoundAt(n))
	v, err := b.Value(context.Background(), n)
	if err != nil || v.Round != n || len(v.Randomness) != 64 {
		t.Fatalf("published round: %+v %v", v, err)
	}
	// A relay answering a forged value (randomness not SHA-256 of the
	// signature) or another round is refused.
	forged := v
	forged.Randomness = strings.Repeat("ab", 32)
	if err := forged.check(n); err == nil {
		t.Fatal("randomness that is not SHA-256 of the signature was accepted")
	}
	if err := v.check(n + 1); err == nil {
		t.Fatal("a value of another round was accepted")
	}
}

func TestBetListCommitmentChangesWithEveryBet(t *testing.T) {
	bets := []storage.BetLine{{ID: 101, Content: "BIG", Amount: 500}, {ID: 102, Content: "SMALL", Amount: 100},
		{ID: 103, Content: "SINGLE", Amount: 2500}}
	base := BetsHash(bets)
	want := sha256.Sum256([]byte("101:BIG:500\n102:SMALL:100\n103:SINGLE:2500\n"))
	if base != hex.EncodeToString(want[:]) {
		t.Fatalf("BetsHash %s is not SHA-256 of the documented lines", base)
	}
	empty := sha256.Sum256(nil)
	if BetsHash(nil) != hex.EncodeToString(empty[:]) {
		t.Fatal("no bets must commit to SHA-256 of nothing")
	}
	variants := map[string][]storage.BetLine{
		"a bet added":       append(append([]storage.BetLine{}, bets...), storage.BetLine{ID: 104, Content: "BIG", Amount: 100}),
		"first dropped":     bets[1:],
		"middle dropped":    {bets[0], bets[2]},
		"last dropped":      bets[:2],
		"an amount changed": {bets[0], {ID: 102, Content: "SMALL", Amount: 101}, bets[2]},
		"a content changed": {bets[0], {ID: 102, Content: "BIG", Amount: 100}, bets[2]},
		"a note changed":    {bets[0], {ID: 105, Content: "SMALL", Amount: 100}, bets[2]},
	}
	seen := map[string]string{base: "the list"}
	for name, v := range variants {
		h := BetsHash(v)
		if other, dup := seen[h]; dup {
			t.Errorf("%s commits to the same hash as %s", name, other)
		}
		seen[h] = name
	}
	// The commitment decides the draw: the same seed and beacon value draw
	// from a different HMAC message once a bet is added or dropped.
	seed, _ := NewSeed()
	value := strings.Repeat("5a", 32)
	if DrawMessage("20260301000100001", base, 7, value) == DrawMessage("20260301000100001", BetsHash(bets[:2]), 7, value) {
		t.Fatal("dropping a bet left the draw's message unchanged")
	}
	_ = DrawRound(seed, "20260301000100001", base, 7, value)
}

// TestOperatorCannotComputeTheOutcomeAtClose plays the operator: at the
// close it takes everything the server holds — the round's row with its
// seed, the bet list and its committed hash, the beacon round named — and
// finds that the outcome is not determined by it: the beacon stand-in has
// not drawn the value (it exists nowhere yet), and the candidates the
// operator could try for it draw every kind of outcome. The draw then
// uses the value the stand-in drew after the close, and the round verifies
// from its published inputs; so do the rounds after it.
func TestOperatorCannotComputeTheOutcomeAtClose(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		e := newEnv(t, db, 1, testRules)
		s := newStandIn(t, e.clock)
		e.beaconNode(s, 5*time.Second)
		e.waitArmed(1, t0.Add(60*time.Second))
		r := e.latest(1)
		closeAt := r.BettingEndsAt + 500
		if r.BeaconRound == 0 || r.BeaconURL != s.srv.URL || r.BeaconAt != s.info.RoundAt(r.BeaconRound).UnixMilli() {
			t.Fatalf("round not bound to a beacon round: %+v", r)
		}
		if r.BeaconAt <= closeAt || s.info.RoundAt(r.BeaconRound-1).UnixMilli() > closeAt+beaconMargin.Milliseconds() {
			t.Fatalf("beacon round %d at %d is not the first after close %d + margin", r.BeaconRound, r.BeaconAt, closeAt)
		}
		alice, bob := e.player(100000), e.player(100000)
		for i, b := range []struct {
			user   int64
			c      Content
			amount int64
		}{{alice, Big, 1000}, {bob, Small, 2500}, {alice, Single, 700}} {
			if _, err := e.bet(b.user, r, b.c, b.amount, fmt.Sprintf("op-%d", i)); err != nil {
				t.Fatal(err)
			}
		}

		// The close: betting ends and the bet list is committed.
		e.to(at(r.BettingEndsAt), 1, at(closeAt))
		e.to(at(closeAt), 1, at(r.DrawingEndsAt))
		held := e.round(r.ID) // everything the server holds at the close
		lines, err := storage.BetLinesOfRound(context.Background(), e.db, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if held.State != storage.RoundClosed || len(lines) != 3 || held.BetsHash != BetsHash(lines) {
			t.Fatalf("at close: state %d, %d bets, hash %q (list hashes to %s)", held.State, len(lines), held.BetsHash, BetsHash(lines))
		}
		if _, _, ok := s.drawn(held.BeaconRound); ok {
			t.Fatal("the beacon value exists at the close")
		}
		b := &Beacon{URL: s.srv.URL}
		if _, err := b.Value(context.Background(), held.BeaconRound); !errors.Is(err, ErrBeaconNotYet) {
			t.Fatalf("the operator could read the beacon value at the close: %v", err)
		}
		// The operator's best: try beacon values. The outcome depends on
		// the one it cannot know — every label comes out among the tries.
		seed := mustHex(t, held.Seed)
		labels, triples := map[Content]int{}, map[[3]int]bool{}
		for range 400 {
			guess := make([]byte, 32)
			rand.Read(guess)
			o := DrawRound(seed, held.Issue, held.BetsHash, held.BeaconRound, hex.EncodeToString(guess))
			l := o.Labels()
			labels[l[0]]++
			labels[l[1]]++
			triples[o.Digits] = true
		}
		for _, c := range Contents {
			if labels[c] < 100 {
				t.Errorf("%s came out %d times in 400 guesses: the server's data leans the outcome", c, labels[c])
			}
		}
		if len(triples) < 250 {
			t.Errorf("only %d distinct digit triples over 400 guesses", len(triples))
		}

		// The draw, at the end of the drawing phase: the stand-in draws the
		// value then, after the close, and the round is decided by it.
		e.to(at(r.DrawingEndsAt), 1, at(r.RestEndsAt))
		got := e.waitRound(r.ID, storage.RoundSettled)
		v, drawnAt, ok := s.drawn(held.BeaconRound)
		if !ok || drawnAt.UnixMilli() <= got.ClosedAt || got.BeaconValue != v.Randomness {
			t.Fatalf("beacon value %+v drawn at %v (ok %v); round closed at %d, stored value %q", v, drawnAt, ok, got.ClosedAt, got.BeaconValue)
		}
		want := DrawRound(seed, got.Issue, got.BetsHash, got.BeaconRound, v.Randomness)
		if [3]int{got.D0, got.D1, got.D2} != want.Digits {
			t.Fatalf("digits %v, the inputs draw %v", [3]int{got.D0, got.D1, got.D2}, want.Digits)
		}
		if err := VerifyRound(got); err != nil {
			t.Fatal(err)
		}
		res := e.pushes.results()
		if len(res) != 1 || res[0].BetsHash != got.BetsHash || res[0].BeaconRound != got.BeaconRound ||
			res[0].BeaconValue != v.Randomness || res[0].BeaconURL != s.srv.URL+"/public/"+strconv.FormatInt(got.BeaconRound, 10) {
			t.Fatalf("result push does not carry the draw's inputs: %+v", res)
		}
		// A changed input fails verification.
		tampered := got
		tampered.BetsHash = BetsHash(lines[:2])
		if VerifyRound(tampered) == nil && DrawRound(seed, got.Issue, tampered.BetsHash, got.BeaconRound, v.Randomness).Digits != want.Digits {
			t.Fatal("a round with a dropped bet verified")
		}

		// Two more rounds, then every round verifies from what it publishes.
		for range 2 {
			n := e.latest(1)
			e.to(at(n.StartsAt), 1, at(n.BettingEndsAt))
			e.to(at(n.BettingEndsAt), 1, at(n.BettingEndsAt+500))
			e.to(at(n.BettingEndsAt+500), 1, at(n.DrawingEndsAt))
			e.to(at(n.DrawingEndsAt), 1, at(n.RestEndsAt))
			e.waitRound(n.ID, storage.RoundSettled)
		}
		all, err := storage.AllDrawnRounds(context.Background(), e.db)
		if err != nil || len(all) != 3 {
			t.Fatalf("%d rounds drawn: %v", len(all), err)
		}
		for _, x := range all {
			if x.BeaconRound == 0 || x.BeaconValue == "" {
				t.Fatalf("round %s drawn without its beacon: %+v", x.Issue, x)
			}
			if err := VerifyRound(x); err != nil {
				t.Fatal(err)
			}
		}
		e.ledgerOK()
	})
}

// TestLateBeaconVoidsTheRoundAndRefunds: the beacon publishes nothing; the
// draw waits the configured time past the drawing deadline, then voids the
// round, refunds every bet through the ledger, tells everyone why, and the
// window goes on with its next round.
func TestLateBeaconVoidsTheRoundAndRefunds(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		e := newEnv(t, db, 1, testRules)
		s := newStandIn(t, e.clock)
		s.setHold(true)
		const wait = 5 * time.Second
		e.beaconNode(s, wait)
		e.waitArmed(1, t0.Add(60*time.Second))
		r := e.latest(1)
		alice, bob := e.player(10000), e.player(10000)
		for i, b := range []struct {
			user   int64
			c      Content
			amount int64
		}{{alice, Big, 1000}, {alice, Double, 300}, {bob, Small, 2500}} {
			if _, err := e.bet(b.user, r, b.c, b.amount, fmt.Sprintf("void-%d", i)); err != nil {
				t.Fatal(err)
			}
		}
		if e.balance(alice) != 8700 || e.system(storage.BetsInPlay) != 3800 {
			t.Fatalf("stakes not taken: alice %d, in play %d", e.balance(alice), e.system(storage.BetsInPlay))
		}
		house := e.system(storage.House)
		e.to(at(r.BettingEndsAt), 1, at(r.BettingEndsAt+500))
		e.to(at(r.BettingEndsAt+500), 1, at(r.DrawingEndsAt))
		// The drawing deadline: no value, so the draw tries again shortly,
		// never past the end of the wait.
		e.to(at(r.DrawingEndsAt), 1, at(r.DrawingEndsAt+500))
		if got := e.round(r.ID); got.State != storage.RoundClosed {
			t.Fatalf("drawn or voided before the wait was over: %+v", got)
		}
		// Each try at its own time (the fake clock runs a timer at the time
		// it was due, so the window reads that time), up to the end of the
		// wait, which no try passes.
		voidAt := r.DrawingEndsAt + wait.Milliseconds()
		for next := r.DrawingEndsAt + 500; next < voidAt; next += 500 {
			e.to(at(next), 1, at(min(next+500, voidAt)))
			if got := e.round(r.ID); got.State != storage.RoundClosed {
				t.Fatalf("voided before the wait was over (at +%d ms): %+v", next-r.DrawingEndsAt, got)
			}
		}
		e.clock.Set(at(voidAt))
		got := e.waitRound(r.ID, storage.RoundVoided)
		testenv.Eventually(t, 10*time.Second, func() bool { return e.round(r.ID).SettledAt != 0 }, "refunds finished")
		got = e.round(r.ID)
		if got.State != storage.RoundVoided || got.VoidReason != VoidBeaconLate || got.HasResult() ||
			got.SettledCount != 3 || got.Paid != 3800 {
			t.Fatalf("voided round %+v", got)
		}
		// Every stake back through the ledger; the house neither won nor lost.
		if e.balance(alice) != 10000 || e.balance(bob) != 10000 || e.system(storage.BetsInPlay) != 0 || e.system(storage.House) != house {
			t.Fatalf("after refunds: alice %d, bob %d, in play %d, house %d (was %d)", e.balance(alice), e.balance(bob),
				e.system(storage.BetsInPlay), e.system(storage.House), house)
		}
		bets, _ := storage.BetsOfRound(context.Background(), e.db, r.ID)
		for _, b := range bets {
			if b.State != storage.BetRefunded || b.Payout != b.Amount || ViewBet(b).Result != "refund" {
				t.Fatalf("bet not refunded: %+v", b)
			}
		}
		e.ledgerOK()
		// Everyone is told why; each player gets their refunded bets.
		testenv.Eventually(t, 5*time.Second, func() bool { return len(decoded[VoidedPush](e.pushes, PushVoided, "")) == 1 }, "void push")
		vp := decoded[VoidedPush](e.pushes, PushVoided, "")[0]
		if vp.Issue != r.Issue || vp.Reason != VoidBeaconLate || vp.ServerSeed != r.Seed {
			t.Fatalf("void push %+v", vp)
		}
		testenv.Eventually(t, 5*time.Second, func() bool { return len(e.pushes.settled(alice)) == 1 }, "alice's refunds pushed")
		if p := e.pushes.settled(alice)[0]; len(p.Bets) != 2 || p.Payout != 1300 || p.Bets[0].Result != "refund" {
			t.Fatalf("alice's refund push %+v", p)
		}
		if len(e.pushes.results()) != 0 || len(e.pushes.outcomes(alice)) != 0 {
			t.Fatal("a voided round pushed a result")
		}
		// No result is listed for it, and it verifies (its seed matches the hash).
		if list, _, err := e.rounds.History(context.Background(), 1, 10, 0); err != nil || len(list) != 0 {
			t.Fatalf("history lists a voided round: %+v %v", list, err)
		}
		if err := VerifyRound(got); err != nil {
			t.Fatal(err)
		}
		// The window goes on.
		testenv.Eventually(t, 10*time.Second, func() bool { return e.latest(1).Seq == 2 }, "next round")
		// A refund batch that runs again pays nothing twice.
		if bets, err := e.desk.settle(context.Background(), got, 100); err != nil || len(bets) != 0 {
			t.Fatalf("second refund: %+v %v", bets, err)
		}
		if e.balance(alice) != 10000 {
			t.Fatal("refunded twice")
		}
		e.ledgerOK()
	})
}

// TestCloseAfterTheBeaconValueVoids: a round whose betting closed only once
// its beacon value could be public (its node was away) is voided: its bets
// could have been chosen knowing the outcome.
func TestCloseAfterTheBeaconValueVoids(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, db storage.DB) {
		e := newEnv(t, db, 1, testRules)
		s := newStandIn(t, e.clock)
		node := e.beaconNode(s, 5*time.Second)
		e.waitArmed(1, t0.Add(60*time.Second))
		r := e.latest(1)
		alice := e.player(10000)
		if _, err := e.bet(alice, r, Big, 1000, "late-close"); err != nil {
			t.Fatal(err)
		}
		// The node goes away before the close and is back only at the
		// beacon round's time: the round closes then, and is voided when
		// its draw is due.
		node.kill()
		e.clock.Set(at(r.BeaconAt))
		e.beaconNode(s, 5*time.Second)
		e.waitArmed(1, at(r.DrawingEndsAt))
		if c := e.round(r.ID); c.State != storage.RoundClosed || c.ClosedAt != r.BeaconAt {
			t.Fatalf("late close: %+v", c)
		}
		e.clock.Set(at(r.DrawingEndsAt))
		got := e.waitRound(r.ID, storage.RoundVoided)
		testenv.Eventually(t, 10*time.Second, func() bool { return e.round(r.ID).SettledAt != 0 }, "refunds finished")
		if got.VoidReason != VoidClosedLate || got.ClosedAt < r.BeaconAt || e.balance(alice) != 10000 {
			t.Fatalf("round %+v, alice %d", got, e.balance(alice))
		}
		e.ledgerOK()
	})
}

// beaconExample is docs/ROUNDS.md's worked example of a beacon round,
// computed here so the document cannot drift from the code.
func beaconExample(t *testing.T) (string, Outcome) {
	const seed = "b5c2ff18248a578045a421a656ba258b7483aab06777a99e953ff493a776f6bf"
	const issue = "20260301000100001"
	bets := []storage.BetLine{{ID: 101, Content: "BIG", Amount: 500}, {ID: 102, Content: "SMALL", Amount: 100},
		{ID: 103, Content: "SINGLE", Amount: 2500}}
	sig := make([]byte, 48)
	for i := range sig {
		sig[i] = byte(i)
	}
	sum := sha256.Sum256(sig)
	value := hex.EncodeToString(sum[:])
	if err := (BeaconValue{Round: 1222, Randomness: value, Signature: hex.EncodeToString(sig)}).check(1222); err != nil {
		t.Fatal(err)
	}
	betsHash := BetsHash(bets)
	msg := DrawMessage(issue, betsHash, 1222, value)
	m := hmacSHA256(mustHex(t, seed), msg)
	o := DrawRound(mustHex(t, seed), issue, betsHash, 1222, value)
	var words []string
	for i := 0; i < 32; i += 4 {
		words = append(words, m[2*i:2*i+8])
	}
	var list strings.Builder
	for _, b := range bets {
		list.WriteString(strings.TrimSuffix(BetLineText(b), "\n") + `\n`)
	}
	l := o.Labels()
	block := fmt.Sprintf(`serverSeed  = %s
issue       = %s
bet list    = %s   (one line per bet, in note order)
betsHash    = %s   (SHA-256 of the bet list)
beaconRound = 1222
signature   = %s
beaconValue = %s   (SHA-256 of the signature)
message     = %s
h           = %s
digits      = %d, %d, %d → sum %d → %s, %s`, seed, issue, list.String(), betsHash, hex.EncodeToString(sig), value, msg,
		strings.Join(words, " "), o.Digits[0], o.Digits[1], o.Digits[2], o.Sum, l[0], l[1])
	return block, o
}

func hmacSHA256(key []byte, msg string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(msg))
	return hex.EncodeToString(m.Sum(nil))
}

func TestDocumentedBeaconExample(t *testing.T) {
	want, o := beaconExample(t)
	if o.Digits != [3]int{0, 1, 1} || o.Labels() != [2]Content{Small, Double} {
		t.Fatalf("beacon example draws %v %v (the web app's test pins 0, 1, 1)", o.Digits, o.Labels())
	}
	doc, err := os.ReadFile("../../docs/ROUNDS.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), want) {
		t.Fatalf("docs/ROUNDS.md's beacon example has drifted; its block must read:\n%s", want)
	}
}

// Windows closing together ask the beacon once per round, not once each.
func TestBeaconRequestsAreSharedAcrossWindows(t *testing.T) {
	c := clock.NewFake(t0)
	s := newStandIn(t, c)
	b := &Beacon{URL: s.srv.URL}
	n := s.info.RoundAfter(t0)
	c.Set(s.info.RoundAt(n))
	var wg sync.WaitGroup
	values := make([]BeaconValue, 50)
	errs := make([]error, 50)
	for i := range values {
		wg.Add(1)
		go func() {
			defer wg.Done()
			values[i], errs[i] = b.Value(context.Background(), n)
		}()
	}
	wg.Wait()
	for i := range values {
		if errs[i] != nil || values[i] != values[0] {
			t.Fatalf("window %d got %+v %v, window 0 %+v", i, values[i], errs[i], values[0])
		}
	}
	s.mu.Lock()
	asked := s.asked[n]
	s.mu.Unlock()
	if asked != 1 {
		t.Fatalf("the beacon was asked %d times for one round", asked)
	}
}
