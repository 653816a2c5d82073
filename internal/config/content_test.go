package config

import (
	"strings"
	"testing"
)

func TestContentVariables(t *testing.T) {
	c, err := Load(nil, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.AppName != "kj" || c.PlatformID != 10000 || c.PackageID != 100002001 || c.VideoDailyLimit != 3 || c.DayZone.String() != "UTC" {
		t.Fatalf("content defaults: %+v", c)
	}
	c, err = Load([]string{"--video-daily-limit", "0"}, env(map[string]string{"KJ_DAY_TIMEZONE": "Asia/Shanghai", "KJ_PACKAGE_ID": "7"}))
	if err != nil || c.VideoDailyLimit != 0 || c.DayZone.String() != "Asia/Shanghai" || c.PackageID != 7 {
		t.Fatalf("set values: %+v %v", c, err)
	}
	for name, val := range map[string]string{
		"KJ_APP_NAME": "   ", "KJ_PLATFORM_ID": "-3", "KJ_PACKAGE_ID": "x",
		"KJ_VIDEO_DAILY_LIMIT": "-1", "KJ_DAY_TIMEZONE": "Mars/Olympus",
	} {
		_, err := Load(nil, env(map[string]string{name: val}))
		if err == nil || !strings.HasPrefix(err.Error(), name+"=") {
			t.Errorf("%s=%q: want an error naming it, got %v", name, val, err)
		}
	}
}
