package config

import (
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestDefaults(t *testing.T) {
	c, err := Load(nil, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":8080" || c.DataDir != "./data" || c.DatabaseURL != "" || !c.AutoMigrate || c.ShutdownTimeout != 15*time.Second {
		t.Fatalf("unexpected defaults: %+v", c)
	}
	if c.NodeID == "" {
		t.Fatal("node id should default to host and pid")
	}
}

func TestFlagBeatsEnvBeatsDefault(t *testing.T) {
	c, err := Load([]string{"--addr", "127.0.0.1:9000"}, env(map[string]string{"KJ_ADDR": ":7000", "KJ_LOG_LEVEL": "debug"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:9000" || c.LogLevel != "debug" {
		t.Fatalf("got %+v", c)
	}
}

func TestBadValuesNameTheVariable(t *testing.T) {
	cases := map[string]string{
		"KJ_ADDR":               "nonsense",
		"KJ_DATABASE_URL":       "mysql://x",
		"KJ_REDIS_URL":          "localhost:6379",
		"KJ_NATS_URL":           "http://x",
		"KJ_LOG_LEVEL":          "loud",
		"KJ_AUTO_MIGRATE":       "maybe",
		"KJ_SHUTDOWN_TIMEOUT":   "-1s",
		"KJ_TOKEN_TTL":          "ten",
		"KJ_CHAT_COALESCE":      "-1ms",
		"KJ_CHAT_PUSH_INTERVAL": "2s",
	}
	for name, val := range cases {
		_, err := Load(nil, env(map[string]string{name: val}))
		if err == nil {
			t.Errorf("%s=%s: want an error", name, val)
			continue
		}
		if !strings.HasPrefix(err.Error(), name+"=") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error should be one line naming the variable, got %q", name, err)
		}
	}
}

func TestGoodURLsAccepted(t *testing.T) {
	_, err := Load(nil, env(map[string]string{
		"KJ_DATABASE_URL": "postgres://postgres@127.0.0.1:5432/test?sslmode=disable",
		"KJ_REDIS_URL":    "redis://127.0.0.1:6379/0",
		"KJ_NATS_URL":     "nats://127.0.0.1:4222",
	}))
	if err != nil {
		t.Fatal(err)
	}
}

// The chat's short durations: 0 turns them off, anything up to 1s is kept.
func TestChatShortDurations(t *testing.T) {
	c, err := Load(nil, env(map[string]string{"KJ_CHAT_COALESCE": "0", "KJ_CHAT_PUSH_INTERVAL": "40ms"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.ChatCoalesce != 0 || c.ChatPushInterval != 40*time.Millisecond {
		t.Fatalf("coalesce %v, push interval %v", c.ChatCoalesce, c.ChatPushInterval)
	}
	c, err = Load(nil, env(nil))
	if err != nil || c.ChatCoalesce != 5*time.Millisecond || c.ChatPushInterval != 0 {
		t.Fatalf("defaults: coalesce %v, push interval %v (%v)", c.ChatCoalesce, c.ChatPushInterval, err)
	}
}
