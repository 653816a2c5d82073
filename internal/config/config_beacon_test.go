package config

import (
	"strings"
	"testing"
	"time"
)

func TestRoundsBeaconSettings(t *testing.T) {
	c, err := Load(nil, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.RoundsBeaconURL != "" || c.RoundsBeaconWait != 30*time.Second {
		t.Fatalf("defaults: no beacon, 30 s wait; got %q %v", c.RoundsBeaconURL, c.RoundsBeaconWait)
	}
	c, err = Load(nil, env(map[string]string{
		"KJ_ROUNDS_BEACON_URL":  "https://api.drand.sh/52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971/",
		"KJ_ROUNDS_BEACON_WAIT": "45s",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.RoundsBeaconURL != "https://api.drand.sh/52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971" || c.RoundsBeaconWait != 45*time.Second {
		t.Fatalf("got %q %v", c.RoundsBeaconURL, c.RoundsBeaconWait)
	}
	for name, val := range map[string]string{
		"KJ_ROUNDS_BEACON_URL":  "ftp://beacon.example/chain",
		"KJ_ROUNDS_BEACON_WAIT": "0s",
	} {
		if _, err := Load(nil, env(map[string]string{name: val})); err == nil || !strings.HasPrefix(err.Error(), name+"=") {
			t.Errorf("%s=%s: want an error naming it, got %v", name, val, err)
		}
	}
	for _, bad := range []string{"api.drand.sh/chain", "https:///chain", "https://beacon.example/chain?round=1"} {
		if _, err := Load(nil, env(map[string]string{"KJ_ROUNDS_BEACON_URL": bad})); err == nil {
			t.Errorf("KJ_ROUNDS_BEACON_URL=%s accepted", bad)
		}
	}
}
