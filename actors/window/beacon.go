package window

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A public randomness beacon decides each round's draw together with the
// server seed, so that nobody — the operator included — can know the
// outcome while bets come in (docs/ROUNDS.md "Threat model").
//
// The beacon is read in the style of drand (https://drand.love): a chain of
// rounds at a fixed period from a genesis time, served over HTTP as
//
//	GET <url>/info        {"period": 3, "genesis_time": 1692803367, "hash": "...", ...}
//	GET <url>/public/<n>  {"round": n, "randomness": "<hex>", "signature": "<hex>", ...}
//
// Round n is published at genesis_time + (n−1)·period, so the round
// published strictly after a round's close is known when the round is
// created, and its value exists only after the close. drand's randomness
// is SHA-256 of its signature, which Value checks; the BLS signature itself
// is not verified here (it needs a pairing library the module does not
// carry): the beacon is trusted to be public and unpredictable, and anyone
// can fetch round n from drand's own relays and check it with drand's tools.

// BeaconInfo is a beacon chain's schedule.
type BeaconInfo struct {
	Period      int64  `json:"period"`       // seconds between rounds
	GenesisTime int64  `json:"genesis_time"` // unix seconds of round 1
	Hash        string `json:"hash"`         // the chain's id (drand)
}

// RoundAt is when beacon round n is published.
func (i BeaconInfo) RoundAt(n int64) time.Time {
	return time.Unix(i.GenesisTime+(n-1)*i.Period, 0)
}

// RoundAfter is the first beacon round published strictly after t.
func (i BeaconInfo) RoundAfter(t time.Time) int64 {
	genesis := time.Unix(i.GenesisTime, 0)
	if t.Before(genesis) {
		return 1
	}
	return int64(t.Sub(genesis)/(time.Duration(i.Period)*time.Second)) + 2
}

// BeaconValue is one published beacon round.
type BeaconValue struct {
	Round      int64  `json:"round"`
	Randomness string `json:"randomness"` // hex, 32 bytes
	Signature  string `json:"signature"`  // hex
}

// ErrBeaconNotYet says the beacon has not published the round (yet).
var ErrBeaconNotYet = errors.New("window: the beacon round is not published yet")

// Beacon reads a drand-style beacon. The zero value is unusable; nil means
// no beacon is configured (the draw is the seed's alone, which the
// operator can foresee; the rules say so).
type Beacon struct {
	// URL is the chain's base URL, e.g.
	// https://api.drand.sh/52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971
	URL string
	// Wait is how long a draw waits for a late beacon value past the
	// later of the drawing deadline and the beacon round's time before
	// the round is voided and its bets refunded.
	Wait time.Duration
	// Client does the requests (default: a client with a 5 s timeout).
	Client *http.Client

	mu       sync.Mutex
	info     *BeaconInfo
	values   map[int64]BeaconValue // recent rounds, shared by every window of the node
	inFlight map[int64]*beaconFetch
}

// beaconFetch is one request for a round that the windows asking for the
// same round at the same time share: a thousand windows closing together
// make one request to the beacon's relay, not a thousand.
type beaconFetch struct {
	done chan struct{}
	v    BeaconValue
	err  error
}

// beaconMargin is how long after a round's close its beacon round is
// published at the earliest: a close a little late (a timer, a busy store)
// still commits the bet list before the value exists.
const beaconMargin = time.Second

func (b *Beacon) client() *http.Client {
	if b.Client != nil {
		return b.Client
	}
	return &http.Client{Timeout: 5 * time.Second}
}

func (b *Beacon) base() string { return strings.TrimRight(b.URL, "/") }

func (b *Beacon) get(ctx context.Context, path string, v any) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.base()+path, nil)
	if err != nil {
		return 0, err
	}
	res, err := b.client().Do(req)
	if err != nil {
		return 0, fmt.Errorf("window: beacon %s: %w", path, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	if err != nil {
		return res.StatusCode, fmt.Errorf("window: beacon %s: %w", path, err)
	}
	if res.StatusCode != http.StatusOK {
		return res.StatusCode, fmt.Errorf("window: beacon %s: HTTP %d", path, res.StatusCode)
	}
	if err := json.NewDecoder(bytes.NewReader(body)).Decode(v); err != nil {
		return res.StatusCode, fmt.Errorf("window: beacon %s: %w", path, err)
	}
	return res.StatusCode, nil
}

// Info reads the chain's schedule once; it never changes for a chain.
func (b *Beacon) Info(ctx context.Context) (BeaconInfo, error) {
	b.mu.Lock()
	if b.info != nil {
		defer b.mu.Unlock()
		return *b.info, nil
	}
	b.mu.Unlock()
	var i BeaconInfo
	if _, err := b.get(ctx, "/info", &i); err != nil {
		return BeaconInfo{}, err
	}
	if i.Period <= 0 || i.GenesisTime <= 0 {
		return BeaconInfo{}, fmt.Errorf("window: beacon info: period %d, genesis %d", i.Period, i.GenesisTime)
	}
	b.mu.Lock()
	b.info = &i
	b.mu.Unlock()
	return i, nil
}

// Value fetches beacon round n: ErrBeaconNotYet when the beacon has not
// published it (drand answers 404 or 425 for a future round). A value is
// kept only when its randomness is SHA-256 of its signature, as drand
// derives it.
func (b *Beacon) Value(ctx context.Context, n int64) (BeaconValue, error) {
	b.mu.Lock()
	if v, ok := b.values[n]; ok {
		b.mu.Unlock()
		return v, nil
	}
	if f, ok := b.inFlight[n]; ok {
		b.mu.Unlock()
		select {
		case <-f.done:
			return f.v, f.err
		case <-ctx.Done():
			return BeaconValue{}, ctx.Err()
		}
	}
	f := &beaconFetch{done: make(chan struct{})}
	if b.inFlight == nil {
		b.inFlight = map[int64]*beaconFetch{}
	}
	b.inFlight[n] = f
	b.mu.Unlock()
	f.v, f.err = b.fetch(ctx, n)
	b.mu.Lock()
	delete(b.inFlight, n)
	b.mu.Unlock()
	close(f.done)
	return f.v, f.err
}

// fetch reads round n from the beacon and keeps it once checked.
func (b *Beacon) fetch(ctx context.Context, n int64) (BeaconValue, error) {
	var v BeaconValue
	status, err := b.get(ctx, "/public/"+strconv.FormatInt(n, 10), &v)
	if status == http.StatusNotFound || status == http.StatusTooEarly {
		return BeaconValue{}, fmt.Errorf("%w: round %d", ErrBeaconNotYet, n)
	}
	if err != nil {
		return BeaconValue{}, err
	}
	v.Randomness = strings.ToLower(v.Randomness)
	if err := v.check(n); err != nil {
		return BeaconValue{}, err
	}
	b.mu.Lock()
	if b.values == nil || len(b.values) > 256 {
		b.values = map[int64]BeaconValue{}
	}
	b.values[n] = v
	b.mu.Unlock()
	return v, nil
}

func (v BeaconValue) check(n int64) error {
	r, err := hex.DecodeString(v.Randomness)
	if err != nil || len(r) != sha256.Size {
		return fmt.Errorf("window: beacon round %d: randomness %q is not 32 bytes of hex", n, v.Randomness)
	}
	if v.Round != n {
		return fmt.Errorf("window: beacon answered round %d for round %d", v.Round, n)
	}
	sig, err := hex.DecodeString(v.Signature)
	if err != nil || len(sig) == 0 {
		return fmt.Errorf("window: beacon round %d: signature is not hex", n)
	}
	if h := sha256.Sum256(sig); hex.EncodeToString(h[:]) != v.Randomness {
		return fmt.Errorf("window: beacon round %d: randomness is not SHA-256 of the signature", n)
	}
	return nil
}

// BeaconRoundURL is where anyone reads beacon round n of the chain at url.
func BeaconRoundURL(url string, n int64) string {
	return strings.TrimRight(url, "/") + "/public/" + strconv.FormatInt(n, 10)
}
