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

	TokenCacheSize int           // KJ_TOKEN_CACHE_SIZE: validated access tokens kept in the node (0: none)
	TokenCacheAge  time.Duration // KJ_TOKEN_CACHE_AGE: longest a cached token is trusted without the store

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
	APILines               []string      // KJ_API_LINES: alternative API base URLs the line list answers
	LineListURLs           []string      // KJ_LINE_LIST_URLS: code-API addresses the app asks for the line list
	CombineID              string        // KJ_COMBINE_ID: the combine id the line list answers for
	CORSOrigins            []string      // KJ_CORS_ORIGINS: app origins allowed to call /api from another origin

	AppName         string         // KJ_APP_NAME: app name when no domain or operator setting names one
	PlatformID      int64          // KJ_PLATFORM_ID: platformId for domains with no entry
	PackageID       int64          // KJ_PACKAGE_ID: packageId for domains with no entry
	VideoDailyLimit int            // KJ_VIDEO_DAILY_LIMIT: free videos per day for non-activated accounts
	DayZone         *time.Location // KJ_DAY_TIMEZONE: where a day starts (daily limits, daily statistics)

	// Wallet. Amounts are cents of points; one point is one USDT.
	RechargeMinDeposit int64  // KJ_RECHARGE_MIN_DEPOSIT: minDep of a recharge order
	RechargeMax        int64  // KJ_RECHARGE_MAX: above it an order needs two operators' approval
	USDTTRC20Address   string // KJ_USDT_TRC20_ADDRESS: deposit address; empty = TRC20 not offered
	USDTERC20Address   string // KJ_USDT_ERC20_ADDRESS: deposit address; empty = ERC20 not offered
	RechargeViaService bool   // KJ_RECHARGE_VIA_SERVICE: offer "recharge through customer service"
	ExchangeMin        int64  // KJ_EXCHANGE_MIN: smallest exchange (withdrawal)
	ExchangeMax        int64  // KJ_EXCHANGE_MAX: largest exchange
	LedgerShards       int    // KJ_LEDGER_SHARDS: ledger writer actors
	LedgerBatch        int    // KJ_LEDGER_BATCH: transfers per ledger transaction at most
	// KJ_LEDGER_CHECK_INTERVAL: how often the node checks the ledger's
	// invariants and exports the result; 0 = never.
	LedgerCheckInterval time.Duration
	// KJ_DELETED_ACCOUNT_RETENTION: how long a deleted account's money
	// records keep the card an exchange was paid to (docs/PRIVACY.md).
	DeletedAccountRetention time.Duration

	// Activation windows. The count decides which windows run (1..n); the
	// rest are the rules given to windows that do not exist yet (an
	// operator edits existing ones).
	WindowCount   int           // KJ_WINDOW_COUNT
	WindowBetting time.Duration // KJ_WINDOW_BETTING
	WindowDrawing time.Duration // KJ_WINDOW_DRAWING
	WindowRest    time.Duration // KJ_WINDOW_REST
	DeskLinger    time.Duration // KJ_WINDOW_DESK_LINGER
	WindowOddsBP  int64         // KJ_WINDOW_ODDS, in 1/10000 (1.98 → 19800)
	WindowMinBet  int64         // KJ_WINDOW_MIN_BET, cents
	WindowMaxBet  int64         // KJ_WINDOW_MAX_BET, cents
	// The public randomness beacon that decides each round's draw with its
	// seed (docs/ROUNDS.md "Threat model"); empty = none, the draw is the
	// seed's alone and the operator can foresee it.
	RoundsBeaconURL  string        // KJ_ROUNDS_BEACON_URL: a drand chain's base URL
	RoundsBeaconWait time.Duration // KJ_ROUNDS_BEACON_WAIT: how long a draw waits for a late value before the round is voided
	GroupMaxMembers  int           // KJ_GROUP_MAX_MEMBERS: largest group or channel
	ReceiptGroupMax  int           // KJ_CHAT_RECEIPT_GROUP_MAX: largest group whose reads are reported to senders
	ChatWriters      int           // KJ_CHAT_WRITERS: most chat writer transactions in flight (sends of many conversations per transaction)
	ChatBatch        int           // KJ_CHAT_BATCH: messages per chat writer transaction at most
	RevokeWindow     time.Duration // KJ_REVOKE_WINDOW: how long a sender may revoke a chat message
	ChatEditWindow   time.Duration // KJ_CHAT_EDIT_WINDOW: how long a sender may edit a chat text message
	ChatCoalesce     time.Duration // KJ_CHAT_COALESCE: how long a user's conversation and unread pushes gather changes (0: none)
	ChatPushInterval time.Duration // KJ_CHAT_PUSH_INTERVAL: least time between two conversation pushes to one user (0: none)
	ChatBurnSweep    time.Duration // KJ_CHAT_BURN_SWEEP: how often private chat messages read long enough ago are deleted
	PushSubject      string        // KJ_PUSH_SUBJECT: the VAPID contact (mailto: or https:) push services see
	PushTTL          time.Duration // KJ_PUSH_TTL: how long a push service keeps a Web Push for an offline device

	PprofAddr string // KJ_PPROF_ADDR: loopback address serving /debug/pprof/; empty = off

	// Abuse limits and exposure (docs/SECURITY.md).
	MetricsAddr                string        // KJ_METRICS_ADDR: address serving /metrics; empty = on KJ_ADDR (value "public")
	HTTPReadTimeout            time.Duration // KJ_HTTP_READ_TIMEOUT: whole request (headers and body) of API calls
	HTTPUploadTimeout          time.Duration // KJ_HTTP_UPLOAD_TIMEOUT: whole request of uploads
	HTTPIdleTimeout            time.Duration // KJ_HTTP_IDLE_TIMEOUT: an idle keep-alive connection closes after this
	ChatMaxSocketsPerUser      int           // KJ_CHAT_MAX_SOCKETS_PER_USER: open chat sockets of one user on one platform
	LoginPolicy                string        // KJ_LOGIN_POLICY: "platform" (one session per platform) or "devices"
	LoginMaxDevices            int           // KJ_LOGIN_MAX_DEVICES: live sessions of one user under the devices policy
	CustomerNewVisitorsPerHour int           // KJ_CUSTOMER_NEW_VISITORS_PER_HOUR: new anonymous visitors per client address
	CustomerSendsPerMinute     int           // KJ_CUSTOMER_SENDS_PER_MINUTE: customer-service messages per client address
	CustomerUnclaimedAfter     time.Duration // KJ_CUSTOMER_UNCLAIMED_AFTER: an enquiry unanswered this long is shown to every agent
	MediaSecrets               []string      // KJ_MEDIA_SECRETS: keys signing chat attachment links; the first signs, all verify
}

// Var describes one configuration variable: its environment name, flag name,
// default and meaning. docs/CONFIGURATION.md's table lists the same, kept
// equal by TestConfigurationTableMatchesTheCode.
type Var struct {
	Env     string
	Flag    string
	Default string
	Usage   string
	set     func(c *Config, v string) error
}

// Vars lists every variable in the order docs/CONFIGURATION.md documents them.
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
	{"KJ_DATABASE_URL", "database-url", "", "PostgreSQL URL (postgres://...); empty runs on the embedded store", urlVar(func(c *Config) *string { return &c.DatabaseURL }, "postgres", "postgresql")},
	{"KJ_REDIS_URL", "redis-url", "", "Redis URL (redis://...) for presence, lockouts and rate limits; empty keeps them in process", urlVar(func(c *Config) *string { return &c.RedisURL }, "redis", "rediss")},
	{"KJ_NATS_URL", "nats-url", "", "NATS URL (nats://...) carrying events between nodes; empty uses an in-process bus", urlVar(func(c *Config) *string { return &c.NATSURL }, "nats", "tls")},
	{"KJ_LOG_LEVEL", "log-level", "info", "log level: debug, info, warn or error", func(c *Config, v string) error {
		switch v {
		case "debug", "info", "warn", "error":
			c.LogLevel = v
			return nil
		}
		return fmt.Errorf("want debug, info, warn or error")
	}},
	{"KJ_AUTO_MIGRATE", "auto-migrate", "true", "apply schema migrations when serve starts", boolVar(func(c *Config) *bool { return &c.AutoMigrate })},
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
	{"KJ_TOKEN_CACHE_SIZE", "token-cache-size", "200000", "validated access tokens kept in the node (0-10000000; 0: every request checks the store)", intVar(0, 10_000_000, func(c *Config) *int { return &c.TokenCacheSize })},
	{"KJ_TOKEN_CACHE_AGE", "token-cache-age", "30s", "longest a cached access token is trusted before the store is asked again", durationVar(func(c *Config) *time.Duration { return &c.TokenCacheAge })},

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
	{"KJ_SMS_WEBHOOK_URL", "sms-webhook-url", "", "http(s) URL that receives SMS codes as JSON {phone, code, purpose} to forward to an SMS gateway; empty writes them to the server log", urlVar(func(c *Config) *string { return &c.SMSWebhookURL }, "https", "http")},
	{"KJ_SMS_RESEND_INTERVAL", "sms-resend-interval", "60s", "cool-down before another SMS code may be sent to the same phone", durationVar(func(c *Config) *time.Duration { return &c.SMSResendInterval })},
	{"KJ_SMS_CODE_TTL", "sms-code-ttl", "5m", "how long an SMS code stays valid", durationVar(func(c *Config) *time.Duration { return &c.SMSCodeTTL })},
	{"KJ_PUBLIC_URL", "public-url", "", "public base URL of the web app for invite links (https://...); empty uses the request's host", func(c *Config, v string) error {
		if err := urlVar(func(c *Config) *string { return &c.PublicURL }, "https", "http")(c, v); err != nil {
			return err
		}
		c.PublicURL = strings.TrimRight(v, "/")
		return nil
	}},
	{"KJ_API_LINES", "api-lines", "", "alternative API base URLs (comma-separated http(s) URLs ending in /api) the line list /api/lines answers; the app switches to them when its host stops answering", urlListVar(func(c *Config) *[]string { return &c.APILines })},
	{"KJ_LINE_LIST_URLS", "line-list-urls", "", "code-API addresses (comma-separated http(s) URLs) the app asks for the alternative API hosts, e.g. another host's /api/lines; /getBaseData names them", urlListVar(func(c *Config) *[]string { return &c.LineListURLs })},
	{"KJ_COMBINE_ID", "combine-id", "kj", "the combine id /api/lines answers for", func(c *Config, v string) error {
		if v = strings.TrimSpace(v); v == "" || len(v) > 40 {
			return errors.New("want 1-40 characters")
		}
		c.CombineID = v
		return nil
	}},
	{"KJ_CORS_ORIGINS", "cors-origins", "", "origins of the app (comma-separated, e.g. https://app.example.com) allowed to call /api from another origin: set it on the hosts of KJ_API_LINES", func(c *Config, v string) error {
		var out []string
		for _, o := range splitList(v) {
			u, err := url.Parse(o)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
				return fmt.Errorf("%q: want an origin such as https://app.example.com", o)
			}
			out = append(out, u.Scheme+"://"+u.Host)
		}
		c.CORSOrigins = out
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
	{"KJ_VIDEO_DAILY_LIMIT", "video-daily-limit", "3", "videos a non-activated account may watch per day (operators can override it)", intVar(0, 10000, func(c *Config) *int { return &c.VideoDailyLimit })},
	{"KJ_DAY_TIMEZONE", "day-timezone", "UTC", "IANA time zone in which a day starts for daily limits and statistics (e.g. Asia/Shanghai)", func(c *Config, v string) error {
		loc, err := time.LoadLocation(v)
		if err != nil || v == "" || v == "Local" {
			return errors.New("want an IANA time zone name such as UTC or Asia/Shanghai")
		}
		c.DayZone = loc
		return nil
	}},
	{"KJ_RECHARGE_MIN_DEPOSIT", "recharge-min-deposit", "1000", "smallest recharge order, in cents of points (1 point = 1 USDT)", centsVar(1, func(c *Config) *int64 { return &c.RechargeMinDeposit })},
	{"KJ_RECHARGE_MAX", "recharge-max", "10000000", "largest recharge one operator may credit, in cents (at least KJ_RECHARGE_MIN_DEPOSIT); an order above it is taken and waits for a second operator's approval", func(c *Config, v string) error {
		if err := centsVar(1, func(c *Config) *int64 { return &c.RechargeMax })(c, v); err != nil {
			return err
		}
		if c.RechargeMax < c.RechargeMinDeposit {
			return fmt.Errorf("below KJ_RECHARGE_MIN_DEPOSIT (%d)", c.RechargeMinDeposit)
		}
		return nil
	}},
	{"KJ_USDT_TRC20_ADDRESS", "usdt-trc20-address", "", "USDT deposit address on TRON (TRC20, T + 33 base58 characters); empty: TRC20 is not offered", func(c *Config, v string) error {
		if v != "" && !isTronAddress(v) {
			return errors.New("want a TRON address: T followed by 33 base58 characters")
		}
		c.USDTTRC20Address = v
		return nil
	}},
	{"KJ_USDT_ERC20_ADDRESS", "usdt-erc20-address", "", "USDT deposit address on Ethereum (ERC20, 0x + 40 hex digits); empty: ERC20 is not offered", func(c *Config, v string) error {
		if v != "" && !isEthAddress(v) {
			return errors.New("want an Ethereum address: 0x followed by 40 hex digits")
		}
		c.USDTERC20Address = v
		return nil
	}},
	{"KJ_RECHARGE_VIA_SERVICE", "recharge-via-service", "true", "offer recharge through customer service (the app opens customer service with the amount in a draft)", boolVar(func(c *Config) *bool { return &c.RechargeViaService })},
	{"KJ_EXCHANGE_MIN", "exchange-min", "1000", "smallest exchange (withdrawal to a bank card), in cents", centsVar(1, func(c *Config) *int64 { return &c.ExchangeMin })},
	{"KJ_EXCHANGE_MAX", "exchange-max", "10000000", "largest exchange, in cents (at least KJ_EXCHANGE_MIN)", func(c *Config, v string) error {
		if err := centsVar(1, func(c *Config) *int64 { return &c.ExchangeMax })(c, v); err != nil {
			return err
		}
		if c.ExchangeMax < c.ExchangeMin {
			return fmt.Errorf("below KJ_EXCHANGE_MIN (%d)", c.ExchangeMin)
		}
		return nil
	}},
	{"KJ_LEDGER_SHARDS", "ledger-shards", "1", "ledger writer actors (1-64); one per node is usual", intVar(1, 64, func(c *Config) *int { return &c.LedgerShards })},
	{"KJ_LEDGER_BATCH", "ledger-batch", "4096", "most transfers written in one ledger transaction (1-65536)", intVar(1, 65536, func(c *Config) *int { return &c.LedgerBatch })},
	{"KJ_LEDGER_CHECK_INTERVAL", "ledger-check-interval", "1h", "how often the node runs the ledger check and exports its result (kj_ledger_check_problems), the first time at a random moment within it; 0 = never", func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err == nil && d == 0 {
			c.LedgerCheckInterval = 0
			return nil
		}
		if err != nil || d < time.Minute {
			return errors.New("want 0 (never) or a Go duration of at least 1m, e.g. 1h")
		}
		c.LedgerCheckInterval = d
		return nil
	}},
	{"KJ_DELETED_ACCOUNT_RETENTION", "deleted-account-retention", "43800h", "how long after a player deletes their account the money records keep what the deletion did not erase at once (the card each exchange was paid to), before the node's sweep cuts it to its last four digits; the ledger, bets and audit rows stay under the account's id for good (docs/PRIVACY.md)", durationVar(func(c *Config) *time.Duration { return &c.DeletedAccountRetention })},
	{"KJ_WINDOW_COUNT", "window-count", "3", "activation windows to run (1..n); 0 runs none", intVar(0, 9999, func(c *Config) *int { return &c.WindowCount })},
	{"KJ_WINDOW_BETTING", "window-betting", "60s", "betting phase of a new window's rounds", phaseVar(func(c *Config) *time.Duration { return &c.WindowBetting })},
	{"KJ_WINDOW_DRAWING", "window-drawing", "10s", "drawing phase of a new window's rounds", phaseVar(func(c *Config) *time.Duration { return &c.WindowDrawing })},
	{"KJ_WINDOW_REST", "window-rest", "20s", "rest phase of a new window's rounds", phaseVar(func(c *Config) *time.Duration { return &c.WindowRest })},
	{"KJ_WINDOW_DESK_LINGER", "window-desk-linger", "20ms", "the longest the bet desk lets a batch wait for more bets after its first, so that at a moderate rate several bets share a transaction; the desk waits as long as the recent arrival rate takes to bring a batch to 32 bets, and not at all when fewer than 4 would come (0 to 1s; 0 writes each batch as soon as a writer is free)", shortDurationVar("20ms", func(c *Config) *time.Duration { return &c.DeskLinger })},
	{"KJ_WINDOW_ODDS", "window-odds", "1.98", "payout multiple of a winning bet in a new window (stake included), up to 4 decimals", func(c *Config, v string) error {
		bp, ok := parseOdds(v)
		if !ok || bp < 10000 || bp > 1000000 {
			return errors.New("want a decimal from 1.00 to 100.00 with at most 4 places, e.g. 1.98")
		}
		c.WindowOddsBP = bp
		return nil
	}},
	{"KJ_WINDOW_MIN_BET", "window-min-bet", "100", "smallest bet in a new window, in cents", func(c *Config, v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 || n > maxBetCents {
			return fmt.Errorf("want whole cents from 1 to %d", int64(maxBetCents))
		}
		c.WindowMinBet = n
		return nil
	}},
	{"KJ_WINDOW_MAX_BET", "window-max-bet", "1000000", "largest bet in a new window, in cents (at least the minimum)", func(c *Config, v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < c.WindowMinBet || n > maxBetCents {
			return fmt.Errorf("want whole cents from KJ_WINDOW_MIN_BET (%d) to %d", c.WindowMinBet, int64(maxBetCents))
		}
		c.WindowMaxBet = n
		return nil
	}},
	{"KJ_ROUNDS_BEACON_URL", "rounds-beacon-url", "", "base URL of a drand-style public randomness beacon chain (GET <url>/info, <url>/public/<round>) whose round published after each round's close decides its draw with the seed, e.g. https://api.drand.sh/52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971 (quicknet, 3 s); empty = none: the draw is the server seed's alone and the rules say the operator can foresee it", func(c *Config, v string) error {
		if v == "" {
			c.RoundsBeaconURL = ""
			return nil
		}
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" {
			return errors.New("want an http(s) URL without a query, e.g. https://api.drand.sh/<chain hash>, or empty for none")
		}
		c.RoundsBeaconURL = strings.TrimRight(v, "/")
		return nil
	}},
	{"KJ_ROUNDS_BEACON_WAIT", "rounds-beacon-wait", "30s", "how long a draw waits for a late beacon value (after the drawing deadline or the beacon round's time, whichever is later) before the round is voided and every bet refunded", durationVar(func(c *Config) *time.Duration { return &c.RoundsBeaconWait })},
	{"KJ_CHAT_WRITERS", "chat-writers", "2", "most chat writer transactions in flight at once (1-64): one takes every send queued, another starts beside it only when the queue outgrows it; SQLite uses one", intVar(1, 64, func(c *Config) *int { return &c.ChatWriters })},
	{"KJ_CHAT_BATCH", "chat-batch", "1024", "most messages written in one chat writer transaction (1-4096)", intVar(1, 4096, func(c *Config) *int { return &c.ChatBatch })},
	{"KJ_GROUP_MAX_MEMBERS", "group-max-members", "2000", "largest number of members of a chat group or channel", intVar(2, 100000, func(c *Config) *int { return &c.GroupMaxMembers })},
	{"KJ_CHAT_RECEIPT_GROUP_MAX", "chat-receipt-group-max", "100", "largest chat group (members) whose senders see who read their messages (1-2000)", intVar(1, 2000, func(c *Config) *int { return &c.ReceiptGroupMax })},
	{"KJ_REVOKE_WINDOW", "revoke-window", "2m", "how long after sending a chat message its sender may revoke it", durationVar(func(c *Config) *time.Duration { return &c.RevokeWindow })},
	{"KJ_CHAT_EDIT_WINDOW", "chat-edit-window", "15m", "how long after sending a chat text message its sender may edit it (everyone sees it marked edited)", durationVar(func(c *Config) *time.Duration { return &c.ChatEditWindow })},
	{"KJ_CHAT_COALESCE", "chat-coalesce", "5ms", "how long a user's conversation and unread-total pushes gather changes before one push, which the message frames delivered meanwhile wait for (0: push every change)", shortDurationVar("5ms", func(c *Config) *time.Duration { return &c.ChatCoalesce })},
	{"KJ_CHAT_PUSH_INTERVAL", "chat-push-interval", "0s", "least time between two conversation pushes to one user: a member of a busy group gets what changed within it, messages included, in one write (0: none)", shortDurationVar("50ms", func(c *Config) *time.Duration { return &c.ChatPushInterval })},
	{"KJ_CHAT_BURN_SWEEP", "chat-burn-sweep", "1s", "how often a node deletes the private chat (burn after reading) messages whose time after being read is up: how late at most a message goes", durationVar(func(c *Config) *time.Duration { return &c.ChatBurnSweep })},
	{"KJ_PUSH_SUBJECT", "push-subject", "mailto:push@kj.invalid", "the contact (mailto: or https: URL) every Web Push names to the browsers' push services (VAPID subject), which write to it about a misbehaving sender", func(c *Config, v string) error {
		if !strings.HasPrefix(v, "mailto:") && !strings.HasPrefix(v, "https://") || len(v) < 10 {
			return errors.New("want a mailto: or https:// URL")
		}
		c.PushSubject = v
		return nil
	}},
	{"KJ_PUSH_TTL", "push-ttl", "24h", "how long a browser's push service keeps a message notification for a device that is offline (1m-672h); a newer one of the same conversation replaces it", func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Minute || d > 28*24*time.Hour {
			return errors.New("want a duration from 1m to 672h")
		}
		c.PushTTL = d
		return nil
	}},
	{"KJ_PPROF_ADDR", "pprof-addr", "", "loopback host:port serving Go profiles at /debug/pprof/ (CPU, heap, goroutine, block, mutex) for load tests; empty = off", func(c *Config, v string) error {
		if v != "" {
			if err := checkAddr(v); err != nil {
				return err
			}
			// Profiles show internals (and cost CPU): never on a public
			// interface.
			host, _, _ := net.SplitHostPort(v)
			if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
				return errors.New("want a loopback address, e.g. 127.0.0.1:6060")
			}
		}
		c.PprofAddr = v
		return nil
	}},
	{"KJ_METRICS_ADDR", "metrics-addr", "127.0.0.1:9181", "host:port serving /metrics (Prometheus), apart from the public address; `public` serves it on KJ_ADDR (only behind a proxy that blocks /metrics)", func(c *Config, v string) error {
		if v == MetricsOnPublic {
			c.MetricsAddr = ""
			return nil
		}
		if err := checkAddr(v); err != nil {
			return fmt.Errorf("%v, or %s", err, MetricsOnPublic)
		}
		c.MetricsAddr = v
		return nil
	}},
	{"KJ_HTTP_READ_TIMEOUT", "http-read-timeout", "30s", "longest time to read an API request, headers and body (slow bodies are cut off)", durationVar(func(c *Config) *time.Duration { return &c.HTTPReadTimeout })},
	{"KJ_HTTP_UPLOAD_TIMEOUT", "http-upload-timeout", "10m", "longest time to read an upload request (/api/upload...)", durationVar(func(c *Config) *time.Duration { return &c.HTTPUploadTimeout })},
	{"KJ_HTTP_IDLE_TIMEOUT", "http-idle-timeout", "2m", "an idle keep-alive connection is closed after this", durationVar(func(c *Config) *time.Duration { return &c.HTTPIdleTimeout })},
	{"KJ_CHAT_MAX_SOCKETS_PER_USER", "chat-max-sockets-per-user", "5", "open chat sockets one user may hold per platform (iOS, Android, web...) on one node; a socket over it is closed at once with code 4030", intRange(1, 1000, func(c *Config) *int { return &c.ChatMaxSocketsPerUser })},
	{"KJ_LOGIN_POLICY", "login-policy", "platform", "platform: one session per platform, a newer sign-in kicks the older offline ('logged in elsewhere'); devices: several sessions per user, up to KJ_LOGIN_MAX_DEVICES, the oldest signed out beyond it", func(c *Config, v string) error {
		if v != "platform" && v != "devices" {
			return errors.New("want platform or devices")
		}
		c.LoginPolicy = v
		return nil
	}},
	{"KJ_LOGIN_MAX_DEVICES", "login-max-devices", "5", "live sign-ins one user may keep under KJ_LOGIN_POLICY=devices (the operators' console not counted); at most KJ_CHAT_MAX_SOCKETS_PER_USER, so every device's chat socket has a place", func(c *Config, v string) error {
		if err := intRange(1, 1000, func(c *Config) *int { return &c.LoginMaxDevices })(c, v); err != nil {
			return err
		}
		if c.LoginMaxDevices > c.ChatMaxSocketsPerUser {
			return fmt.Errorf("must not exceed KJ_CHAT_MAX_SOCKETS_PER_USER (%d): a device beyond it would have no chat socket", c.ChatMaxSocketsPerUser)
		}
		return nil
	}},
	{"KJ_CUSTOMER_NEW_VISITORS_PER_HOUR", "customer-new-visitors-per-hour", "20", "new anonymous customer-service visitors one client address may start per hour", intRange(1, 1000000, func(c *Config) *int { return &c.CustomerNewVisitorsPerHour })},
	{"KJ_CUSTOMER_SENDS_PER_MINUTE", "customer-sends-per-minute", "60", "customer-service messages one client address may send per minute (each visitor also has 20)", intRange(1, 1000000, func(c *Config) *int { return &c.CustomerSendsPerMinute })},
	{"KJ_CUSTOMER_UNCLAIMED_AFTER", "customer-unclaimed-after", "3m", "how long an enquiry may wait for its agent's answer before every agent sees it (and the dashboard counts it)", durationVar(func(c *Config) *time.Duration { return &c.CustomerUnclaimedAfter })},
	{"KJ_MEDIA_SECRETS", "media-secrets", "", "keys (comma-separated, 32+ characters each) signing chat attachment links: the first signs, all are accepted, so a new key goes first and the old one is dropped an hour later; empty uses one kept in the database", func(c *Config, v string) error {
		c.MediaSecrets = nil
		for _, k := range strings.Split(v, ",") {
			k = strings.TrimSpace(k)
			if k == "" {
				continue
			}
			if len(k) < 32 {
				return errors.New("each key needs at least 32 characters")
			}
			c.MediaSecrets = append(c.MediaSecrets, k)
		}
		return nil
	}},
}

// MetricsOnPublic is the KJ_METRICS_ADDR value that serves /metrics on the
// public address.
const MetricsOnPublic = "public"

// intRange reads a whole number from lo to hi into the field.
func intRange(lo, hi int, field func(*Config) *int) func(*Config, string) error {
	return func(c *Config, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			return fmt.Errorf("want a whole number from %d to %d", lo, hi)
		}
		*field(c) = n
		return nil
	}
}

// urlVar takes an optional URL: empty, or one with one of schemes.
func urlVar(field func(*Config) *string, schemes ...string) func(*Config, string) error {
	return func(c *Config, v string) error {
		if v != "" {
			if err := checkURL(v, schemes...); err != nil {
				return err
			}
		}
		*field(c) = v
		return nil
	}
}

// splitList is a comma-separated setting's non-empty, trimmed items.
func splitList(v string) []string {
	var out []string
	for _, item := range strings.Split(v, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// urlListVar reads comma-separated http(s) URLs, trailing slashes cut.
func urlListVar(field func(*Config) *[]string) func(*Config, string) error {
	return func(c *Config, v string) error {
		var out []string
		for _, item := range splitList(v) {
			if err := checkURL(item, "https", "http"); err != nil {
				return fmt.Errorf("%q: %w", item, err)
			}
			out = append(out, strings.TrimRight(item, "/"))
		}
		*field(c) = out
		return nil
	}
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

// shortDurationVar parses a duration from 0 to 1s (0 turns the setting
// off); example goes into the error.
func shortDurationVar(example string, field func(*Config) *time.Duration) func(*Config, string) error {
	return func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 || d > time.Second {
			return errors.New("want a Go duration from 0 to 1s, e.g. " + example)
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

// maxBetCents bounds bet limits (10,000,000,000.00 points), far inside
// int64 even multiplied by the largest odds.
const maxBetCents = 1_000_000_000_000

// phaseVar reads a round phase: whole milliseconds from 1s to 24h.
func phaseVar(field func(*Config) *time.Duration) func(*Config, string) error {
	return func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < time.Second || d > 24*time.Hour || d%time.Millisecond != 0 {
			return errors.New("want a Go duration from 1s to 24h in whole milliseconds, e.g. 60s")
		}
		*field(c) = d
		return nil
	}
}

// parseOdds reads a decimal with at most four places as 1/10000 units,
// exactly (no floating point): "1.98" → 19800.
func parseOdds(s string) (int64, bool) {
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" || len(whole) > 6 || len(frac) > 4 {
		return 0, false
	}
	for _, r := range whole + frac {
		if r < '0' || r > '9' {
			return 0, false
		}
	}
	w, _ := strconv.ParseInt(whole, 10, 64)
	f, _ := strconv.ParseInt((frac + "0000")[:4], 10, 64)
	return w*10000 + f, true
}

// centsVar parses a whole number of cents of at least lo (and at most 10^15).
func centsVar(lo int64, field func(*Config) *int64) func(*Config, string) error {
	return func(c *Config, v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < lo || n > 1_000_000_000_000_000 {
			return fmt.Errorf("want a whole number of cents from %d to 10^15", lo)
		}
		*field(c) = n
		return nil
	}
}

// intVar parses an integer within lo..hi.
func intVar(lo, hi int, field func(*Config) *int) func(*Config, string) error {
	return func(c *Config, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			return fmt.Errorf("want a whole number from %d to %d", lo, hi)
		}
		*field(c) = n
		return nil
	}
}

// isTronAddress: T and 33 base58 characters (the checksum is the wallet's
// business; a typo in the alphabet or length is caught here).
func isTronAddress(v string) bool {
	if len(v) != 34 || v[0] != 'T' {
		return false
	}
	for _, r := range v {
		if !strings.ContainsRune("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", r) {
			return false
		}
	}
	return true
}

// isEthAddress: 0x and 40 hex digits.
func isEthAddress(v string) bool {
	if len(v) != 42 || !strings.HasPrefix(v, "0x") {
		return false
	}
	for _, r := range v[2:] {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F') {
			return false
		}
	}
	return true
}
