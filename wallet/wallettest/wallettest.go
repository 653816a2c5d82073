// Package wallettest gives the wallet's tests, here and in httpapi, a
// running ledger writer on a test's store, stopped when the test ends.
package wallettest

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"kj/actors/ledger"
	"kj/internal/bus"
	"kj/internal/clock"
	"kj/storage"
)

// Ledger starts a ledger writer on db, timing transfers by clk and pushing
// balance changes to b (nil pushes nothing), on an actor system of its own
// that logs nothing.
func Ledger(t testing.TB, db storage.DB, b bus.Bus, clk clock.Clock) *ledger.Writer {
	t.Helper()
	quiet := slog.New(slog.DiscardHandler)
	sys := actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return quiet }))
	w, err := ledger.Start(sys, db, ledger.Options{Bus: b, Clock: clk, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// The queued transfers commit before the test's store closes.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		w.Stop(ctx)
		sys.Shutdown()
	})
	return w
}
