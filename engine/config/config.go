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

	GroupMaxMembers int           // KJ_GROUP_MAX_MEMBERS: largest group or channel
	RevokeWindow    time.Duration // KJ_REVOKE_WINDOW: how long a sender may revoke a chat message
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
	{"KJ_GROUP_MAX_MEMBERS", "group-max-members", "2000", "largest number of members of a chat group or channel", func(c *Config, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 2 || n > 100000 {
			return errors.New("want a whole number from 2 to 100000")
		}
		c.GroupMaxMembers = n
		return nil
	}},
	{"KJ_REVOKE_WINDOW", "revoke-window", "2m", "how long after sending a chat message its sender may revoke it", durationVar(func(c *Config) *time.Duration { return &c.RevokeWindow })},
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
