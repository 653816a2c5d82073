package config

import (
	"strings"
	"testing"
)

func TestLoginPolicy(t *testing.T) {
	c, err := Load(nil, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.LoginPolicy != "platform" || c.LoginMaxDevices != 5 {
		t.Fatalf("defaults: policy %q, max devices %d; want platform, 5", c.LoginPolicy, c.LoginMaxDevices)
	}
	c, err = Load(nil, env(map[string]string{"KJ_LOGIN_POLICY": "devices", "KJ_LOGIN_MAX_DEVICES": "3"}))
	if err != nil || c.LoginPolicy != "devices" || c.LoginMaxDevices != 3 {
		t.Fatalf("devices, 3: %+v %v", c.LoginPolicy, err)
	}
	// A higher socket cap makes room for more devices.
	if _, err := Load(nil, env(map[string]string{"KJ_CHAT_MAX_SOCKETS_PER_USER": "8", "KJ_LOGIN_MAX_DEVICES": "8"})); err != nil {
		t.Fatal(err)
	}
	for vars, want := range map[string]string{
		"KJ_LOGIN_POLICY=everywhere": "KJ_LOGIN_POLICY",
		"KJ_LOGIN_MAX_DEVICES=0":     "KJ_LOGIN_MAX_DEVICES",
		// Every device's chat socket must have a place under the per-user socket cap.
		"KJ_LOGIN_MAX_DEVICES=6": "KJ_CHAT_MAX_SOCKETS_PER_USER (5)",
	} {
		name, value, _ := strings.Cut(vars, "=")
		_, err := Load(nil, env(map[string]string{name: value}))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error naming %s", vars, err, want)
		}
	}
}
