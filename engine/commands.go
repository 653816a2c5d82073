package engine

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"kj/engine/config"
	"kj/storage"
)

// NewLogger makes the node's structured logger at the configured level.
func NewLogger(w io.Writer, level string) *slog.Logger {
	var l slog.Level
	_ = l.UnmarshalText([]byte(level))
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l}))
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
	cfg, err := config.Load(args, os.Getenv)
	if err != nil {
		return err
	}
	ctx := context.Background()
	db, err := OpenStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	applied, err := storage.Migrate(ctx, db)
	if err != nil {
		return err
	}
	fmt.Printf("%s store: %d migration(s) applied %v\n", db.Dialect(), len(applied), applied)
	return nil
}
