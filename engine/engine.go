// Package engine assembles one kj node: it opens the store, the bus and
// presence for the configured mode (embedded or cluster), starts the actor
// system, mounts the HTTP API, the chat gateway, the web app, metrics and
// health checks on one port, and shuts them down in order.
package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promauto"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/redis/go-redis/v9"

	"kj/actors/chat"
	"kj/actors/ledger"
	"kj/actors/window"
	"kj/auth"
	"kj/httpapi"
	"kj/internal/bus"
	"kj/internal/clock"
	"kj/internal/config"
	"kj/internal/counter"
	"kj/internal/presence"
	"kj/push"
	"kj/storage"
	"kj/wallet"
	"kj/webapp"
)

// Version is the app version the binary reports (`kj version`, /getBaseData).
const Version = "1.3.230281753"

// Node is one running kj process.
type Node struct {
	Config   config.Config
	Log      *slog.Logger
	Clock    clock.Clock
	DB       storage.DB
	Bus      bus.Bus
	Presence presence.Presence
	Counters counter.Counters
	Sessions *auth.Sessions
	Actors   *actor.ActorSystem
	Ledger   *ledger.Writer // the wallet's money; rounds post through the store (docs/ARCHITECTURE.md, "How money moves")
	API      *httpapi.Server
	Rounds   *window.Rounds // activation windows: bets and reads (any node)
	Windows  *window.Runner // the windows this node holds leases on
	Chat     *chat.Engine

	redis *redis.Client
	mux   *http.ServeMux
	files http.Handler // everything under /files/ (httpapi.Server.Files)

	mu       sync.Mutex
	stopping []func(ctx context.Context) // run in reverse order at shutdown
	// metricsAddr is the bound address of the metrics listener (exposure.go).
	metricsAddr string
	draining    []func(ctx context.Context) // run first, when shutdown begins
}

// statisticsEvery is how often a node on PostgreSQL looks for tables
// whose planner statistics autovacuum is not keeping (it is off) and
// analyzes them (storage.PG.KeepStatistics). Autovacuum's own launcher
// looks every minute; W2's warm-up grows chat_conversations from nothing
// to 5,000 rows in 30 s, and a plan made on the empty table costs every
// commit a scan of the table until then.
const statisticsEvery = 10 * time.Second

// OpenStore opens the store the configuration names.
func OpenStore(ctx context.Context, cfg config.Config) (storage.DB, error) {
	if cfg.DatabaseURL != "" {
		return storage.OpenPostgres(ctx, cfg.DatabaseURL)
	}
	return storage.OpenSQLite(filepath.Join(cfg.DataDir, "kj.db"))
}

// Open connects everything a node needs and builds its HTTP handler. It
// fails with a clear error when a configured service is unreachable.
func Open(ctx context.Context, cfg config.Config, log *slog.Logger) (*Node, error) {
	n := &Node{Config: cfg, Log: log, Clock: clock.Real{}, mux: http.NewServeMux()}
	ok := false
	defer func() {
		if !ok {
			n.Close(context.Background())
		}
	}()

	db, err := OpenStore(ctx, cfg)
	if err != nil {
		return nil, err
	}
	n.DB = db
	n.onStop(func(context.Context) { db.Close() })
	if cfg.AutoMigrate {
		applied, err := storage.Migrate(ctx, db)
		if err != nil {
			return nil, err
		}
		if len(applied) > 0 {
			log.Info("schema migrated", "applied", applied)
		}
	}
	if pg, ok := db.(*storage.PG); ok {
		// Registered after the store, so it stops before the pool closes.
		stop := pg.KeepStatistics(statisticsEvery, log.With("area", "store"))
		n.onStop(func(context.Context) { stop() })
	}
	idNode, err := storage.ClaimIDNode(ctx, db)
	if err != nil {
		return nil, err
	}
	log.Info("id node", "number", idNode)

	if cfg.NATSURL != "" {
		nb, err := bus.NewNATS(cfg.NATSURL, "kj-"+cfg.NodeID)
		if err != nil {
			return nil, err
		}
		n.Bus = nb
	} else {
		n.Bus = bus.NewMemory()
	}
	n.onStop(func(context.Context) { n.Bus.Close() })

	if cfg.RedisURL != "" {
		opt, err := redis.ParseURL(cfg.RedisURL)
		if err != nil {
			return nil, fmt.Errorf("KJ_REDIS_URL: %w", err)
		}
		n.redis = redis.NewClient(opt)
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err = n.redis.Ping(pctx).Err()
		cancel()
		if err != nil {
			return nil, fmt.Errorf("redis at %s unreachable: %w", opt.Addr, err)
		}
		n.onStop(func(context.Context) { n.redis.Close() })
		n.Presence = presence.NewRedis(n.redis, "kj:presence:", n.Clock)
		n.Counters = counter.NewRedis(n.redis, "kj:counter:")
	} else {
		n.Presence = presence.NewMemory(n.Clock)
		n.Counters = counter.NewMemory(n.Clock)
	}

	n.Actors = actor.NewActorSystem(actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger {
		return log.With("lib", "protoactor")
	}))
	n.onStop(func(context.Context) { n.Actors.Shutdown() })

	n.Ledger, err = ledger.Start(n.Actors, db, ledger.Options{Shards: cfg.LedgerShards, MaxBatch: cfg.LedgerBatch,
		Bus: n.Bus, Clock: n.Clock, Log: log.With("area", "ledger")})
	if err != nil {
		return nil, err
	}
	// Registered after the actor system, so it runs before it stops: the
	// queued transfers commit first.
	n.onStop(func(ctx context.Context) {
		if err := n.Ledger.Stop(ctx); err != nil {
			log.Error("ledger writer did not drain", "err", err)
		}
	})

	n.Sessions = &auth.Sessions{DB: db, Bus: n.Bus, Clock: n.Clock, TokenTTL: cfg.TokenTTL, JWTTTL: cfg.JWTTTL,
		Policy: cfg.LoginPolicy, MaxDevices: cfg.LoginMaxDevices}
	if cfg.TokenCacheSize > 0 {
		if n.Sessions.Cache, err = auth.NewTokenCache(n.Bus, n.Clock, cfg.TokenCacheSize, cfg.TokenCacheAge); err != nil {
			return nil, fmt.Errorf("token cache: %w", err)
		}
		n.onStop(func(context.Context) { n.Sessions.Cache.Close() })
		stopRefresh := n.Sessions.KeepCacheFresh(log.With("area", "auth"))
		n.onStop(func(context.Context) { stopRefresh() })
	}
	if err := n.startWindows(ctx); err != nil {
		return nil, err
	}
	n.Chat = chat.New(chat.Deps{
		DB: db, Bus: n.Bus, Clock: n.Clock, Sessions: n.Sessions, Presence: n.Presence, Actors: n.Actors, Log: log,
	}, chat.Config{NodeID: cfg.NodeID, Cluster: cfg.NATSURL != "", GroupMaxMembers: cfg.GroupMaxMembers, ReceiptGroupMax: cfg.ReceiptGroupMax, RevokeWindow: cfg.RevokeWindow, EditWindow: cfg.ChatEditWindow,
		Writers: cfg.ChatWriters, WriterBatch: cfg.ChatBatch, Coalesce: coalesce(cfg.ChatCoalesce), PushInterval: cfg.ChatPushInterval, BurnSweep: cfg.ChatBurnSweep, MaxSocketsPerUser: cfg.ChatMaxSocketsPerUser})
	// Web Push to devices with the app closed; stopped after the chat
	// engine (hooks run newest first), which offers it the messages.
	pusher, err := push.Start(ctx, push.Deps{DB: db, Presence: n.Presence, Bus: n.Bus, Clock: n.Clock, Log: log},
		push.Config{Subject: cfg.PushSubject, TTL: cfg.PushTTL})
	if err != nil {
		return nil, err
	}
	n.onStop(func(context.Context) { pusher.Close() })
	n.Chat.UsePush(pusher)
	if err := n.Chat.Start(ctx); err != nil {
		return nil, fmt.Errorf("chat engine: %w", err)
	}
	n.onStop(func(context.Context) { n.Chat.Close() })
	n.API = httpapi.New(httpapi.Deps{
		DB: db, Bus: n.Bus, Presence: n.Presence, Counters: n.Counters, Clock: n.Clock,
		Config: cfg, Sessions: n.Sessions, Log: log, Rounds: n.Rounds, Chat: n.Chat,
		Wallet: &wallet.Wallet{DB: db, Ledger: n.Ledger, Counters: n.Counters, Clock: n.Clock, Config: cfg, Log: log},
	})
	n.onStop(n.API.WaitForSMS) // before the store closes (hooks run newest first)
	// The copies' marks check uses the store too.
	n.onStop(func(context.Context) { n.API.StopReads() })
	n.routes()
	n.Handle("/ws", n.Chat)
	n.OnDrain(n.Chat.Drain)
	customer := n.API.CustomerSocket()
	n.Handle("/ws/customer", customer)
	n.OnDrain(customer.Close)
	ok = true
	return n, nil
}

// startWindows creates the configured activation windows that do not
// exist yet, opens this node's bet desk and starts running the windows it
// can lease. At shutdown the windows stop first and release their leases
// (another node takes them over at once); the desk closes after them.
func (n *Node) startWindows(ctx context.Context) error {
	cfg := n.Config
	defaults := storage.RoundWindow{OddsBP: cfg.WindowOddsBP, MinBet: cfg.WindowMinBet, MaxBet: cfg.WindowMaxBet,
		BettingMs: cfg.WindowBetting.Milliseconds(), DrawingMs: cfg.WindowDrawing.Milliseconds(), RestMs: cfg.WindowRest.Milliseconds()}
	if err := storage.EnsureRoundWindows(ctx, n.DB, int64(cfg.WindowCount), defaults, n.Clock.Now().UnixMilli()); err != nil {
		return fmt.Errorf("activation windows: %w", err)
	}
	desk := window.NewDesk(n.DB, window.StoreLedger{}, n.Clock, n.Bus, n.Log.With("area", "rounds"), 1000)
	desk.SetLinger(cfg.DeskLinger)
	n.onStop(func(context.Context) { desk.Close() })
	defs, err := window.NewDefinitions(n.DB, n.Bus, n.Clock, windowDefinitionsAge)
	if err != nil {
		return fmt.Errorf("window definitions: %w", err)
	}
	n.onStop(func(context.Context) { defs.Close() })
	// The lobby and the bets' pre-checks read the rounds from memory.
	board, err := window.NewBoard(n.DB, n.Bus, n.Clock)
	if err != nil {
		return fmt.Errorf("window board: %w", err)
	}
	n.onStop(func(context.Context) { board.Close() })
	desk.UseBoard(board)
	// A public beacon, when configured, decides each new round's draw with
	// its seed (docs/ROUNDS.md "Threat model").
	var beacon *window.Beacon
	if cfg.RoundsBeaconURL != "" {
		beacon = &window.Beacon{URL: cfg.RoundsBeaconURL, Wait: cfg.RoundsBeaconWait}
	}
	n.Rounds = &window.Rounds{DB: n.DB, Ledger: window.StoreLedger{}, Clock: n.Clock, Desk: desk, Defs: defs, Board: board,
		Beacon: beacon}
	// Every node's trend boards follow the draws, wherever they happen.
	results, err := n.Rounds.FollowResults(n.Bus)
	if err != nil {
		return fmt.Errorf("activation windows: %w", err)
	}
	n.onStop(func(context.Context) { _ = results.Unsubscribe() })
	n.Windows = &window.Runner{DB: n.DB, Desk: desk, Bus: n.Bus, Clock: n.Clock, Log: n.Log.With("area", "rounds"), Node: cfg.NodeID, Board: board,
		Beacon: beacon}
	if err := n.Windows.Start(n.Actors); err != nil {
		return fmt.Errorf("activation windows: %w", err)
	}
	n.OnDrain(n.Windows.Stop)
	return nil
}

func (n *Node) onStop(f func(ctx context.Context)) {
	n.mu.Lock()
	n.stopping = append(n.stopping, f)
	n.mu.Unlock()
}

func (n *Node) routes() {
	n.mux.Handle("/api/", n.API.Handler())
	// Uploaded files: Handler sends every spelling of /files/ to this one
	// handler before the router sees it (httpapi/files.go), so a path the
	// router and the file system would read differently cannot pick a
	// route; chat attachments only to the conversation's members.
	n.files = n.API.Files()
	n.mux.Handle("/files/", n.files)
	if n.Config.MetricsAddr == "" {
		n.mux.Handle("GET /metrics", promhttp.Handler())
	}
	n.mux.HandleFunc("GET /openapi.yaml", httpapi.OpenAPI)
	n.mux.HandleFunc("GET /manifest.webmanifest", n.API.Manifest)
	n.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		httpapi.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	n.mux.HandleFunc("GET /readyz", n.ready)
	n.mux.Handle("/", webapp.Handler())
}

// windowDefinitionsAge bounds how long a node serves window definitions
// changed without a bus event (another node started with another window
// count); operators' edits reach every node at once over the bus.
const windowDefinitionsAge = 10 * time.Second

// Handle mounts an extra handler (the chat gateway mounts /ws).
func (n *Node) Handle(pattern string, h http.Handler) { n.mux.Handle(pattern, h) }

// Handler is the node's whole HTTP surface, with its security headers.
func (n *Node) Handler() http.Handler {
	hosts := &contentHosts{read: n.API.ContentHosts, clock: n.Clock.Now,
		log: func(err error) {
			n.Log.Warn("content hosts: reading the setting failed; the policy keeps the last list", "err", err)
		}}
	policy := newAppPolicy(n.Config.APILines, n.Config.LineListURLs, hosts.get)
	return securityHeaders(corsHeaders(filesFirst(n.files, n.mux), n.Config.CORSOrigins), policy, n.Config.TrustProxy)
}

// filesFirst hands every request under /files/ to files as it arrived:
// the router would redirect a doubled slash or a dot segment to another
// path and split an encoded slash differently from the file system, and
// files refuses all of them alike.
func filesFirst(files, rest http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if httpapi.UnderFiles(r) {
			files.ServeHTTP(w, r)
			return
		}
		rest.ServeHTTP(w, r)
	})
}

// ready checks every backing service; 503 names the ones that failed.
func (n *Node) ready(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	checks := map[string]func(context.Context) error{
		"store": n.DB.Ping, "bus": n.Bus.Ping, "presence": n.Presence.Ping, "counters": n.Counters.Ping,
	}
	status, res := http.StatusOK, map[string]string{}
	for name, check := range checks {
		if err := check(ctx); err != nil {
			status, res[name] = http.StatusServiceUnavailable, err.Error()
		} else {
			res[name] = "ok"
		}
	}
	httpapi.WriteJSON(w, status, res)
}

// Serve listens on the configured address until ctx ends, then drains:
// stop accepting, let requests finish and sockets close (up to the
// shutdown timeout), then stop actors and close connections.
func (n *Node) Serve(ctx context.Context) error {
	ln, err := net.Listen("tcp", n.Config.Addr)
	if err != nil {
		return fmt.Errorf("KJ_ADDR=%q: %w", n.Config.Addr, err)
	}
	return n.ServeListener(ctx, ln)
}

// ServeListener is Serve on an open listener.
func (n *Node) ServeListener(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           n.readDeadlines(n.Handler()),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       n.Config.HTTPIdleTimeout,
		MaxHeaderBytes:    64 << 10,
	}
	nodeUp.Set(1)
	n.startProfiling(ctx)
	n.startMetrics(ctx)
	watchLedger(ctx, n.DB, n.Log.With("area", "ledger"), n.Config.LedgerCheckInterval)
	sweepDeletedAccounts(ctx, n.Log.With("area", "accounts"), n.API.SweepDeletedAccounts)
	n.Log.Info("kj serving", "addr", ln.Addr().String(), "store", n.DB.Dialect(), "cluster", n.Config.NATSURL != "", "webapp", webapp.Built())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	n.Log.Info("kj draining", "timeout", n.Config.ShutdownTimeout)
	nodeUp.Set(0)
	sctx, cancel := context.WithTimeout(context.Background(), n.Config.ShutdownTimeout)
	defer cancel()
	// Sockets are hijacked connections that Shutdown does not wait for: the
	// drain hooks close them with a reason while Shutdown stops accepting
	// and lets requests finish; only when both are done do the stop hooks
	// tear down what they used.
	drained := make(chan struct{})
	go func() {
		n.runHooks(sctx, &n.draining)
		close(drained)
	}()
	err := srv.Shutdown(sctx)
	<-drained
	n.Close(sctx)
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// OnDrain registers work to do when shutdown begins (the gateway closes its
// sockets with a reason so clients reconnect elsewhere).
func (n *Node) OnDrain(f func(ctx context.Context)) {
	n.mu.Lock()
	n.draining = append(n.draining, f)
	n.mu.Unlock()
}

func (n *Node) runHooks(ctx context.Context, hooks *[]func(context.Context)) {
	n.mu.Lock()
	hs := *hooks
	*hooks = nil
	n.mu.Unlock()
	for i := len(hs) - 1; i >= 0; i-- {
		hs[i](ctx)
	}
}

// Close releases everything, newest first.
func (n *Node) Close(ctx context.Context) {
	n.runHooks(ctx, &n.draining)
	n.runHooks(ctx, &n.stopping)
}

var nodeUp = promauto.NewGauge(prometheus.GaugeOpts{
	Name: "kj_node_up",
	Help: "1 while this node serves, 0 while it drains.",
})

func init() {
	promauto.NewGauge(prometheus.GaugeOpts{
		Name:        "kj_build_info",
		Help:        "Build information of this binary.",
		ConstLabels: prometheus.Labels{"version": Version, "go": runtime.Version()},
	}).Set(1)
}

// coalesce turns KJ_CHAT_COALESCE into the chat engine's setting, where
// zero means its default and a negative window none.
func coalesce(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}
