package config

import (
	"strings"
	"testing"
)

func TestPprofAddr(t *testing.T) {
	c, err := Load(nil, env(nil))
	if err != nil || c.PprofAddr != "" {
		t.Fatalf("default: %q %v", c.PprofAddr, err)
	}
	for _, ok := range []string{"127.0.0.1:6060", "localhost:0", "[::1]:6060", "127.0.0.2:7000"} {
		c, err := Load(nil, env(map[string]string{"KJ_PPROF_ADDR": ok}))
		if err != nil || c.PprofAddr != ok {
			t.Errorf("%s: %q %v", ok, c.PprofAddr, err)
		}
	}
	for _, bad := range []string{":6060", "0.0.0.0:6060", "10.0.0.1:6060", "example.com:6060", "nonsense"} {
		_, err := Load(nil, env(map[string]string{"KJ_PPROF_ADDR": bad}))
		if err == nil || !strings.Contains(err.Error(), "KJ_PPROF_ADDR") {
			t.Errorf("%s accepted: %v", bad, err)
		}
	}
}
