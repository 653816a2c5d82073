package chat_test

import (
	"net/http"

	"kj/actors/chat"
	"kj/auth"
	"kj/httpapi"
	"kj/internal/bus"
	"kj/internal/clock"
	"kj/internal/config"
	"kj/internal/counter"
	"kj/internal/presence"
	"kj/storage"
)

// The harness serves the real /api routes over its engine, so the group
// routes and the chat upload are tested against the same actors as the
// socket.
func init() {
	chat.APIForTest = func(db storage.DB, b bus.Bus, clk *clock.Fake, sessions *auth.Sessions, e *chat.Engine, dataDir string) (http.Handler, error) {
		cfg, err := config.Load([]string{"--data-dir", dataDir}, func(string) string { return "" })
		if err != nil {
			return nil, err
		}
		api := httpapi.New(httpapi.Deps{DB: db, Bus: b, Presence: presence.NewMemory(clk), Counters: counter.NewMemory(clk),
			Clock: clk, Config: cfg, Sessions: sessions, Chat: e})
		return api.Handler(), nil
	}
}
