package window

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"kj/storage"
)

// The draw of a round decided by a public beacon (docs/ROUNDS.md "Provably
// fair draws"). Three inputs, each fixed at a different time by a
// different party:
//
//	serverSeed   chosen by the operator before betting; its SHA-256 is published then
//	betsHash     the bet list, committed in the transaction that closes betting
//	beaconValue  the beacon's round published strictly after the close
//
//	h = HMAC-SHA256(key = seed bytes, message = issue ":" betsHash ":" beaconRound ":" beaconValue)
//
// and the digits come from h exactly as in Draw. At the close the operator
// holds the seed and the bet list but not the beacon value, so it cannot
// compute the outcome while it can still change the bets; the beacon cannot
// steer it either, not knowing the seed.

// BetsHash is the bet-list commitment: hex(SHA-256 of one line per accepted
// bet in note order, "<noteNo>:<content>:<amount in cents>\n"). A round
// without bets commits to SHA-256 of nothing.
func BetsHash(bets []storage.BetLine) string {
	h := sha256.New()
	for _, b := range bets {
		h.Write([]byte(BetLineText(b)))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// BetLineText is one bet's line of the bet list, newline included.
func BetLineText(b storage.BetLine) string {
	return strconv.FormatInt(b.ID, 10) + ":" + b.Content + ":" + strconv.FormatInt(b.Amount, 10) + "\n"
}

// DrawMessage is what the seed's HMAC is taken of: the issue alone for a
// round without a beacon (the recipe of every round before beacons), else
// the issue, the bet-list hash, the beacon round and its value.
func DrawMessage(issue, betsHash string, beaconRound int64, beaconValue string) string {
	if beaconRound == 0 {
		return issue
	}
	return issue + ":" + betsHash + ":" + strconv.FormatInt(beaconRound, 10) + ":" + strings.ToLower(beaconValue)
}

// DrawRound draws a round from all its inputs (Draw with DrawMessage).
func DrawRound(seed []byte, issue, betsHash string, beaconRound int64, beaconValue string) Outcome {
	return Draw(seed, DrawMessage(issue, betsHash, beaconRound, beaconValue))
}

// VerifyRound recomputes a published round from its inputs as anyone can:
// the seed must hash to the published seedHash and, with the bet-list hash
// and the beacon value, draw the published digits. A voided round has no
// digits to check; its seed is still checked against its hash.
func VerifyRound(r storage.Round) error {
	seed, err := hex.DecodeString(r.Seed)
	if err != nil || len(seed) != SeedSize {
		return fmt.Errorf("window: issue %s: seed is not %d bytes of hex", r.Issue, SeedSize)
	}
	if got := SeedHash(seed); got != r.SeedHash {
		return fmt.Errorf("window: issue %s: SHA-256(seed) = %s, published %s", r.Issue, got, r.SeedHash)
	}
	if r.State == storage.RoundVoided {
		return nil
	}
	if r.BeaconRound != 0 && (r.BeaconValue == "" || r.BetsHash == "") {
		return fmt.Errorf("window: issue %s: drawn without its beacon value or bet-list hash", r.Issue)
	}
	want := [3]int{r.D0, r.D1, r.D2}
	if got := DrawRound(seed, r.Issue, r.BetsHash, r.BeaconRound, r.BeaconValue).Digits; got != want {
		return fmt.Errorf("window: issue %s: inputs draw %v, published %v", r.Issue, got, want)
	}
	return nil
}
