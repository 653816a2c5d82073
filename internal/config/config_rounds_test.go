package config

import (
	"strings"
	"testing"
	"time"
)

func TestWindowDefaults(t *testing.T) {
	c, err := Load(nil, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.WindowCount != 3 || c.WindowBetting != 60*time.Second || c.WindowDrawing != 10*time.Second ||
		c.WindowRest != 20*time.Second || c.WindowOddsBP != 19800 || c.WindowMinBet != 100 || c.WindowMaxBet != 1000000 {
		t.Fatalf("window defaults: %+v", c)
	}
}

func TestWindowValues(t *testing.T) {
	c, err := Load([]string{"--window-odds", "1.9501"}, env(map[string]string{
		"KJ_WINDOW_COUNT": "1000", "KJ_WINDOW_BETTING": "1s", "KJ_WINDOW_DRAWING": "1500ms", "KJ_WINDOW_REST": "2m",
		"KJ_WINDOW_MIN_BET": "1", "KJ_WINDOW_MAX_BET": "1",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.WindowCount != 1000 || c.WindowBetting != time.Second || c.WindowDrawing != 1500*time.Millisecond ||
		c.WindowRest != 2*time.Minute || c.WindowOddsBP != 19501 || c.WindowMaxBet != 1 {
		t.Fatalf("%+v", c)
	}
	bad := map[string]string{
		"KJ_WINDOW_COUNT":   "-1",
		"KJ_WINDOW_BETTING": "500ms",
		"KJ_WINDOW_DRAWING": "10",
		"KJ_WINDOW_REST":    "25h",
		"KJ_WINDOW_ODDS":    "0.99",
		"KJ_WINDOW_MIN_BET": "1.5",
		"KJ_WINDOW_MAX_BET": "99",
	}
	for name, val := range bad {
		_, err := Load(nil, env(map[string]string{name: val}))
		if err == nil || !strings.HasPrefix(err.Error(), name+"=") {
			t.Errorf("%s=%s: want an error naming it, got %v", name, val, err)
		}
	}
	for _, odds := range []string{"1.98765", "abc", "1,98", "", "101"} {
		if _, err := Load(nil, env(map[string]string{"KJ_WINDOW_ODDS": odds})); err == nil && odds != "" {
			t.Errorf("KJ_WINDOW_ODDS=%q accepted", odds)
		}
	}
}
