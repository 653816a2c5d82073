package config

import (
	"strings"
	"testing"
	"time"
)

func TestAccountSettings(t *testing.T) {
	c, err := Load(nil, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.RegisterCaptcha || c.RegisterInviteRequired || c.PhoneSMSRequired || c.TrustProxy ||
		c.PhoneMinDigits != 6 || c.PhoneMaxDigits != 11 || c.SMSResendInterval != time.Minute ||
		c.SMSCodeTTL != 5*time.Minute || c.SMSWebhookURL != "" || c.PublicURL != "" {
		t.Fatalf("account defaults: %+v", c)
	}
	c, err = Load([]string{"--register-captcha=true"}, env(map[string]string{
		"KJ_REGISTER_INVITE_REQUIRED": "1", "KJ_PHONE_MIN_DIGITS": "11", "KJ_PHONE_MAX_DIGITS": "11",
		"KJ_PHONE_SMS_REQUIRED": "true", "KJ_SMS_WEBHOOK_URL": "https://sms.example/hook",
		"KJ_SMS_RESEND_INTERVAL": "90s", "KJ_SMS_CODE_TTL": "10m", "KJ_PUBLIC_URL": "https://kj.example/",
		"KJ_TRUST_PROXY": "true",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if !c.RegisterCaptcha || !c.RegisterInviteRequired || !c.PhoneSMSRequired || !c.TrustProxy || c.PhoneMinDigits != 11 ||
		c.SMSWebhookURL != "https://sms.example/hook" || c.SMSResendInterval != 90*time.Second || c.SMSCodeTTL != 10*time.Minute ||
		c.PublicURL != "https://kj.example" {
		t.Fatalf("account settings: %+v", c)
	}
	bad := map[string]string{
		"KJ_REGISTER_CAPTCHA":    "sometimes",
		"KJ_PHONE_MIN_DIGITS":    "0",
		"KJ_PHONE_MAX_DIGITS":    "5", // below the default minimum of 6
		"KJ_SMS_WEBHOOK_URL":     "ftp://x",
		"KJ_SMS_RESEND_INTERVAL": "soon",
		"KJ_PUBLIC_URL":          "kj.example",
	}
	for name, val := range bad {
		_, err := Load(nil, env(map[string]string{name: val}))
		if err == nil || !strings.HasPrefix(err.Error(), name+"=") {
			t.Errorf("%s=%s: %v", name, val, err)
		}
	}
}
