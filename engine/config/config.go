// Package config reads the node's configuration from KJ_ environment variables
// and matching command-line flags, applies documented defaults and validates
// every value at start, naming the variable that is wrong.
package config

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // KJ_DAY_TIMEZONE works on machines without a zone database
)

// Config is the whole configuration of one node. The zero value is not
// usable; call Load, which fills in the documented defaults.
type Config struct {
	Addr            string        // KJ_ADDR: HTTP listen address
	DataDir         string        // KJ_DATA_DIR: embedded store directory
	DatabaseURL     string        // KJ_DATABASE_URL: PostgreSQL; empty = embedded SQLite
	RedisURL        string        // KJ_REDIS_URL: presence, counters; empty = in-process
	NATSURL         string        // KJ_NATS_URL: event bus; empty = in-process
	LogLevel        string        // KJ_LOG_LEVEL: debug, info, warn, error
	AutoMigrate     bool          // KJ_AUTO_MIGRATE: apply migrations on serve
	ShutdownTimeout time.Duration // KJ_SHUTDOWN_TIMEOUT: drain time on SIGTERM
	NodeID          string        // KJ_NODE_ID: this node's name in presence and logs

	TokenTTL time.Duration // KJ_TOKEN_TTL: lifetime of an access token
	JWTTTL   time.Duration // KJ_JWT_TTL: lifetime of the renewal token (jwt)

	// Accounts (httpapi/accounts.go).
	RegisterCaptcha        bool          // KJ_REGISTER_CAPTCHA: /register needs an image captcha
	RegisterInviteRequired bool          // KJ_REGISTER_INVITE_REQUIRED: /register needs an invite code
	PhoneMinDigits         int           // KJ_PHONE_MIN_DIGITS: shortest phone number
	PhoneMaxDigits         int           // KJ_PHONE_MAX_DIGITS: longest phone number
	PhoneSMSRequired       bool          // KJ_PHONE_SMS_REQUIRED: /user/setPhone needs an SMS code
	SMSWebhookURL          string        // KJ_SMS_WEBHOOK_URL: where SMS codes are posted; empty logs them
	SMSResendInterval      time.Duration // KJ_SMS_RESEND_INTERVAL: cool-down between two codes to one phone
	SMSCodeTTL             time.Duration // KJ_SMS_CODE_TTL: how long an SMS code stays valid
	PublicURL              string        // KJ_PUBLIC_URL: base of invite links; empty uses the request's host
	TrustProxy             bool          // KJ_TRUST_PROXY: take the client address from X-Forwarded-For

	AppName         string         // KJ_APP_NAME: app name when no domain or operator setting names one
	PlatformID      int64          // KJ_PLATFORM_ID: platformId for domains with no entry
	PackageID       int64          // KJ_PACKAGE_ID: packageId for domains with no entry
	VideoDailyLimit int            // KJ_VIDEO_DAILY_LIMIT: free videos per day for non-activated accounts
	DayZone         *time.Location // KJ_DAY_TIMEZONE: where a day starts (daily limits, daily statistics)
}

// Var describes one configuration variable: its environment name, flag name,
// default and meaning. The README's configuration table is written from it.
type Var struct {
	Env     string
	Flag    string
	Default string
	Usage   string
	set     func(c *Config, v string) error
}

// Vars lists every variable in the order the README documents them.
var Vars = []Var{
	{"KJ_ADDR", "addr", ":8080", "HTTP listen address (host:port)", func(c *Config, v string) error {
		if err := checkAddr(v); err != nil {
			return err
		}
		c.Addr = v
		return nil
	}},
	{"KJ_DATA_DIR", "data-dir", "./data", "directory of the embedded SQLite store (kj.db) and uploaded files", func(c *Config, v string) error {
		if strings.TrimSpace(v) == "" {
			return errors.New("must not be empty")
		}
		c.DataDir = v
		return nil
	}},
	{"KJ_DATABASE_URL", "database-url", "", "PostgreSQL URL (postgres://...); empty runs on the embedded store", func(c *Config, v string) error {
		if v != "" {
			if err := checkURL(v, "postgres", "postgresql"); err != nil {
				return err
			}
		}
		c.DatabaseURL = v
		return nil
	}},
	{"KJ_REDIS_URL", "redis-url", "", "Redis URL (redis://...) for presence, lockouts and rate limits; empty keeps them in process", func(c *Config, v string) error {
		if v != "" {
			if err := checkURL(v, "redis", "rediss"); err != nil {
				return err
			}
		}
		c.RedisURL = v
		return nil
	}},
	{"KJ_NATS_URL", "nats-url", "", "NATS URL (nats://...) carrying events between nodes; empty uses an in-process bus", func(c *Config, v string) error {
		if v != "" {
			if err := checkURL(v, "nats", "tls"); err != nil {
				return err
			}
		}
		c.NATSURL = v
		return nil
	}},
	{"KJ_LOG_LEVEL", "log-level", "info", "log level: debug, info, warn or error", func(c *Config, v string) error {
		switch v {
		case "debug", "info", "warn", "error":
			c.LogLevel = v
			return nil
		}
		return fmt.Errorf("want debug, info, warn or error")
	}},
	{"KJ_AUTO_MIGRATE", "auto-migrate", "true", "apply schema migrations when serve starts", func(c *Config, v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return errors.New("want true or false")
		}
		c.AutoMigrate = b
		return nil
	}},
	{"KJ_SHUTDOWN_TIMEOUT", "shutdown-timeout", "15s", "how long SIGTERM waits for requests and sockets to drain", durationVar(func(c *Config) *time.Duration { return &c.ShutdownTimeout })},
	{"KJ_NODE_ID", "node-id", "", "name of this node in a cluster (default: host name and pid)", func(c *Config, v string) error {
		if v == "" {
			h, _ := os.Hostname()
			v = fmt.Sprintf("%s-%d", h, os.Getpid())
		}
		c.NodeID = v
		return nil
	}},
	{"KJ_TOKEN_TTL", "token-ttl", "2h", "lifetime of an access token (renewed with the jwt)", durationVar(func(c *Config) *time.Duration { return &c.TokenTTL })},
	{"KJ_JWT_TTL", "jwt-ttl", "720h", "lifetime of the renewal token (jwt)", durationVar(func(c *Config) *time.Duration { return &c.JWTTTL })},

	{"KJ_REGISTER_CAPTCHA", "register-captcha", "false", "registration requires an image captcha (/getCaptcha)", boolVar(func(c *Config) *bool { return &c.RegisterCaptcha })},
	{"KJ_REGISTER_INVITE_REQUIRED", "register-invite-required", "false", "registration requires an existing user's invite code (pro_...)", boolVar(func(c *Config) *bool { return &c.RegisterInviteRequired })},
	{"KJ_PHONE_MIN_DIGITS", "phone-min-digits", "6", "shortest phone number accepted (digits)", func(c *Config, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 20 {
			return errors.New("want a number of digits from 1 to 20")
		}
		c.PhoneMinDigits = n
		return nil
	}},
	{"KJ_PHONE_MAX_DIGITS", "phone-max-digits", "11", "longest phone number accepted (digits)", func(c *Config, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 20 {
			return errors.New("want a number of digits from 1 to 20")
		}
		if n < c.PhoneMinDigits {
			return fmt.Errorf("must not be below KJ_PHONE_MIN_DIGITS (%d)", c.PhoneMinDigits)
		}
		c.PhoneMaxDigits = n
		return nil
	}},
	{"KJ_PHONE_SMS_REQUIRED", "phone-sms-required", "false", "setting a phone number requires an SMS code sent to it", boolVar(func(c *Config) *bool { return &c.PhoneSMSRequired })},
	{"KJ_SMS_WEBHOOK_URL", "sms-webhook-url", "", "http(s) URL that receives SMS codes as JSON {phone, code, purpose} to forward to an SMS gateway; empty writes them to the server log", func(c *Config, v string) error {
		if v != "" {
			if err := checkURL(v, "https", "http"); err != nil {
				return err
			}
		}
		c.SMSWebhookURL = v
		return nil
	}},
	{"KJ_SMS_RESEND_INTERVAL", "sms-resend-interval", "60s", "cool-down before another SMS code may be sent to the same phone", durationVar(func(c *Config) *time.Duration { return &c.SMSResendInterval })},
	{"KJ_SMS_CODE_TTL", "sms-code-ttl", "5m", "how long an SMS code stays valid", durationVar(func(c *Config) *time.Duration { return &c.SMSCodeTTL })},
	{"KJ_PUBLIC_URL", "public-url", "", "public base URL of the web app for invite links (https://...); empty uses the request's host", func(c *Config, v string) error {
		if v != "" {
			if err := checkURL(v, "https", "http"); err != nil {
				return err
			}
		}
		c.PublicURL = strings.TrimRight(v, "/")
		return nil
	}},
	{"KJ_TRUST_PROXY", "trust-proxy", "false", "take the client address from X-Forwarded-For (only behind a proxy that sets it)", boolVar(func(c *Config) *bool { return &c.TrustProxy })},
	{"KJ_APP_NAME", "app-name", "kj", "app name shown when neither the domain entry nor the operator's settings name one", func(c *Config, v string) error {
		if v = strings.TrimSpace(v); v == "" || len([]rune(v)) > 40 {
			return errors.New("want 1-40 characters")
		}
		c.AppName = v
		return nil
	}},
	{"KJ_PLATFORM_ID", "platform-id", "10000", "platformId answered by /getDomainInfo for a domain without an entry", int64Var(func(c *Config) *int64 { return &c.PlatformID })},
	{"KJ_PACKAGE_ID", "package-id", "100002001", "packageId answered by /getDomainInfo for a domain without an entry", int64Var(func(c *Config) *int64 { return &c.PackageID })},
	{"KJ_VIDEO_DAILY_LIMIT", "video-daily-limit", "3", "videos a non-activated account may watch per day (operators can override it)", func(c *Config, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 10000 {
			return errors.New("want a whole number from 0 to 10000")
		}
		c.VideoDailyLimit = n
		return nil
	}},
	{"KJ_DAY_TIMEZONE", "day-timezone", "UTC", "IANA time zone in which a day starts for daily limits and statistics (e.g. Asia/Shanghai)", func(c *Config, v string) error {
		loc, err := time.LoadLocation(v)
		if err != nil || v == "" || v == "Local" {
			return errors.New("want an IANA time zone name such as UTC or Asia/Shanghai")
		}
		c.DayZone = loc
		return nil
	}},
}

func boolVar(field func(*Config) *bool) func(*Config, string) error {
	return func(c *Config, v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return errors.New("want true or false")
		}
		*field(c) = b
		return nil
	}
}

func int64Var(field func(*Config) *int64) func(*Config, string) error {
	return func(c *Config, v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return errors.New("want a positive whole number")
		}
		*field(c) = n
		return nil
	}
}

func durationVar(field func(*Config) *time.Duration) func(*Config, string) error {
	return func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return errors.New("want a positive Go duration such as 10s, 5m or 2h")
		}
		*field(c) = d
		return nil
	}
}

// Load reads args (flags, without the program and command name) and the
// environment. A flag wins over its variable, the variable over the default.
// The error names the variable, e.g. `KJ_ADDR="nonsense": want host:port`.
func Load(args []string, getenv func(string) string) (Config, error) {
	fs := flag.NewFlagSet("kj", flag.ContinueOnError)
	fs.SetOutput(new(strings.Builder))
	flags := make(map[string]*string, len(Vars))
	for _, v := range Vars {
		flags[v.Flag] = fs.String(v.Flag, "", v.Usage+" ("+v.Env+")")
	}
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	if fs.NArg() > 0 {
		return Config{}, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	seen := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { seen[f.Name] = true })

	var c Config
	for _, v := range Vars {
		val, origin := v.Default, v.Env
		if e := getenv(v.Env); e != "" {
			val = e
		}
		if seen[v.Flag] {
			val, origin = *flags[v.Flag], "--"+v.Flag
		}
		if err := v.set(&c, val); err != nil {
			return Config{}, fmt.Errorf("%s=%q: %v", origin, val, err)
		}
	}
	return c, nil
}

func checkAddr(v string) error {
	host, port, err := net.SplitHostPort(v)
	if err != nil {
		return errors.New("want host:port, e.g. :8080 or 127.0.0.1:8080")
	}
	if host != "" && net.ParseIP(host) == nil && !validHostname(host) {
		return fmt.Errorf("bad host %q", host)
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("bad port %q", port)
	}
	return nil
}

func validHostname(h string) bool {
	for _, r := range h {
		if !(r == '-' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return h != ""
}

func checkURL(v string, schemes ...string) error {
	u, err := url.Parse(v)
	if err != nil {
		return errors.New("not a URL")
	}
	for _, s := range schemes {
		if u.Scheme == s && u.Host != "" {
			return nil
		}
	}
	return fmt.Errorf("want a %s:// URL with a host", schemes[0])
}
