package config

import (
	"strings"
	"testing"
)

func TestWalletVars(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	c, err := Load(nil, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.RechargeMinDeposit != 1000 || c.RechargeMax != 10_000_000 || c.ExchangeMin != 1000 || c.ExchangeMax != 10_000_000 || c.LedgerShards != 1 || c.LedgerBatch != 4096 ||
		c.USDTTRC20Address != "" || c.USDTERC20Address != "" {
		t.Fatalf("defaults: %+v", c)
	}
	c, err = Load([]string{"--exchange-max", "5000"}, env(map[string]string{
		"KJ_USDT_TRC20_ADDRESS": "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7",
		"KJ_USDT_ERC20_ADDRESS": "0xdAC17F958D2ee523a2206206994597C13D831ec7",
		"KJ_EXCHANGE_MIN":       "5000",
	}))
	if err != nil || c.ExchangeMax != 5000 || c.USDTERC20Address == "" || c.USDTTRC20Address == "" {
		t.Fatalf("set: %+v %v", c, err)
	}
	for name, kv := range map[string]map[string]string{
		"KJ_USDT_TRC20_ADDRESS":   {"KJ_USDT_TRC20_ADDRESS": "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU0"}, // 0 is not base58
		"KJ_USDT_ERC20_ADDRESS":   {"KJ_USDT_ERC20_ADDRESS": "0xdAC17F958D2ee523a2206206994597C13D831ec"},
		"KJ_RECHARGE_MIN_DEPOSIT": {"KJ_RECHARGE_MIN_DEPOSIT": "10.5"},
		"KJ_RECHARGE_MAX":         {"KJ_RECHARGE_MIN_DEPOSIT": "5000", "KJ_RECHARGE_MAX": "4999"},
		"KJ_EXCHANGE_MIN":         {"KJ_EXCHANGE_MIN": "-1"},
		"KJ_EXCHANGE_MAX":         {"KJ_EXCHANGE_MIN": "5000", "KJ_EXCHANGE_MAX": "4999"},
		"KJ_LEDGER_SHARDS":        {"KJ_LEDGER_SHARDS": "0"},
		"KJ_LEDGER_BATCH":         {"KJ_LEDGER_BATCH": "100000"},
	} {
		if _, err := Load(nil, env(kv)); err == nil || !strings.HasPrefix(err.Error(), name+"=") {
			t.Errorf("%s: error %v should name it", name, err)
		}
	}
}

func TestLedgerCheckInterval(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	for v, want := range map[string]string{"": "1h0m0s", "0": "0s", "15m": "15m0s"} {
		c, err := Load(nil, env(map[string]string{"KJ_LEDGER_CHECK_INTERVAL": v}))
		if err != nil || c.LedgerCheckInterval.String() != want {
			t.Errorf("KJ_LEDGER_CHECK_INTERVAL=%q: %v %v, want %s", v, c.LedgerCheckInterval, err, want)
		}
	}
	for _, bad := range []string{"30s", "-1h", "hourly"} {
		if _, err := Load(nil, env(map[string]string{"KJ_LEDGER_CHECK_INTERVAL": bad})); err == nil || !strings.HasPrefix(err.Error(), "KJ_LEDGER_CHECK_INTERVAL=") {
			t.Errorf("KJ_LEDGER_CHECK_INTERVAL=%q: error %v should name it", bad, err)
		}
	}
}
