package engine

import (
	"context"
	"net"
	"net/http"
	"net/http/pprof"
	"runtime"
	"time"
)

// Profiling for load tests (KJ_PPROF_ADDR): the standard pprof handlers on
// a loopback listener of their own, never on the public port. Block and
// mutex profiling are switched on only then, sampling one blocking event
// per 10 µs blocked and one mutex contention in 100, cheap enough to leave
// on for a whole load run.

// profileHandler serves /debug/pprof/.
func profileHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// startProfiling serves the profiles until ctx ends; an address that
// cannot be bound is logged, not fatal (profiling is a diagnostic).
func (n *Node) startProfiling(ctx context.Context) {
	if n.Config.PprofAddr == "" {
		return
	}
	ln, err := net.Listen("tcp", n.Config.PprofAddr)
	if err != nil {
		n.Log.Error("pprof listener", "addr", n.Config.PprofAddr, "err", err)
		return
	}
	runtime.SetBlockProfileRate(10_000)
	runtime.SetMutexProfileFraction(100)
	srv := &http.Server{Handler: profileHandler(), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	n.Log.Info("pprof serving", "addr", ln.Addr().String())
}
