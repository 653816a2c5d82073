package config

import (
	"slices"
	"strings"
	"testing"
)

func TestLineListAndCORSVariables(t *testing.T) {
	c, err := Load(nil, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.APILines) != 0 || len(c.LineListURLs) != 0 || len(c.CORSOrigins) != 0 || c.CombineID != "kj" || !c.RechargeViaService {
		t.Fatalf("defaults: lines %v, list %v, cors %v, combine %q, recharge via service %v", c.APILines, c.LineListURLs, c.CORSOrigins, c.CombineID, c.RechargeViaService)
	}
	c, err = Load(nil, env(map[string]string{
		"KJ_API_LINES":            " https://b.example.com/api/ , http://10.0.0.2:8080/api",
		"KJ_LINE_LIST_URLS":       "https://oss.example.net/kj/lines.txt",
		"KJ_CORS_ORIGINS":         "https://app.example.com/,http://127.0.0.1:8080",
		"KJ_COMBINE_ID":           "brand2",
		"KJ_RECHARGE_VIA_SERVICE": "false",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.APILines, []string{"https://b.example.com/api", "http://10.0.0.2:8080/api"}) ||
		!slices.Equal(c.LineListURLs, []string{"https://oss.example.net/kj/lines.txt"}) ||
		!slices.Equal(c.CORSOrigins, []string{"https://app.example.com", "http://127.0.0.1:8080"}) || c.CombineID != "brand2" || c.RechargeViaService {
		t.Fatalf("set values: %+v", c)
	}
	for name, val := range map[string]string{
		"KJ_API_LINES": "b.example.com/api", "KJ_LINE_LIST_URLS": "ftp://x.example.com/l",
		"KJ_CORS_ORIGINS": "https://app.example.com/path", "KJ_COMBINE_ID": " ",
		"KJ_RECHARGE_VIA_SERVICE": "maybe",
	} {
		_, err := Load(nil, env(map[string]string{name: val}))
		if err == nil || !strings.HasPrefix(err.Error(), name+"=") {
			t.Errorf("%s=%q: want an error naming it, got %v", name, val, err)
		}
	}
}
