package engine

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"unicode/utf8"

	"kj/internal/config"
	"kj/storage"
)

// NewLogger makes the node's structured logger at the configured level.
func NewLogger(w io.Writer, level string) *slog.Logger {
	var l slog.Level
	_ = l.UnmarshalText([]byte(level))
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l, ReplaceAttr: boundAttr}))
}

// MaxLogField is the longest string or error a log field keeps: values come
// from clients (an operationID, an account name), and one 500 KB value must
// not become a 500 KB log line.
const MaxLogField = 256

// boundAttr cuts a long string or error value at MaxLogField bytes (on a
// character boundary) and says how long it was.
func boundAttr(_ []string, a slog.Attr) slog.Attr {
	var s string
	switch a.Value.Kind() {
	case slog.KindString:
		s = a.Value.String()
	case slog.KindAny:
		err, ok := a.Value.Any().(error)
		if !ok {
			return a
		}
		s = err.Error()
	default:
		return a
	}
	if len(s) <= MaxLogField {
		return a
	}
	cut := MaxLogField
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return slog.String(a.Key, s[:cut]+"…("+strconv.Itoa(len(s))+" bytes)")
}

// Serve runs `kj serve`: load configuration, open the node, serve until
// SIGTERM or SIGINT, then drain.
func Serve(args []string) error {
	cfg, err := config.Load(args, os.Getenv)
	if err != nil {
		return err
	}
	log := NewLogger(os.Stderr, cfg.LogLevel)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	n, err := Open(ctx, cfg, log)
	if err != nil {
		return err
	}
	return n.Serve(ctx)
}

// Migrate runs `kj migrate`: apply pending schema migrations and exit.
func Migrate(args []string) error {
	ctx := context.Background()
	_, db, applied, err := commandStore(ctx, args, true)
	if err != nil {
		return err
	}
	defer db.Close()
	fmt.Printf("%s store: %d migration(s) applied %v\n", db.Dialect(), len(applied), applied)
	return nil
}

// commandStore is the start of every one-shot command (migrate, admin,
// seed, ledger): the configuration from args and the environment, its
// store opened and, when migrate is set, migrated (applied lists the
// migrations that ran). The caller closes the store.
func commandStore(ctx context.Context, args []string, migrate bool) (cfg config.Config, db storage.DB, applied []string, err error) {
	if cfg, err = config.Load(args, os.Getenv); err != nil {
		return cfg, nil, nil, err
	}
	if db, err = OpenStore(ctx, cfg); err != nil {
		return cfg, nil, nil, err
	}
	if migrate {
		if applied, err = storage.Migrate(ctx, db); err != nil {
			db.Close()
			return cfg, nil, nil, err
		}
		// The commands that migrate write (accounts, content) beside live
		// nodes: their ids need a node number of their own.
		if _, err = storage.ClaimIDNode(ctx, db); err != nil {
			db.Close()
			return cfg, nil, nil, err
		}
	}
	return cfg, db, applied, nil
}
