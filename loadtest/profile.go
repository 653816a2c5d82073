package loadtest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// Profiler captures the server's pprof profiles (kj serves them on a
// loopback port of its own when KJ_PPROF_ADDR is set; the stack sets it on
// every node when Options.Profile names a directory): a CPU profile over
// a chosen stretch of the run, then heap, allocs, block, mutex and
// goroutine profiles, saved as <dir>/<name>-<kind>.pprof for `go tool pprof`.
type Profiler struct {
	dir, name string
	node      *Node
	logf      func(string, ...any)
	wg        sync.WaitGroup
}

// NewProfiler returns nil (a no-op) unless profiling was asked for.
func NewProfiler(o *Options, node *Node, name string) *Profiler {
	if o.Profile == "" || node == nil || node.PprofAddr == "" {
		return nil
	}
	return &Profiler{dir: o.Profile, name: name, node: node, logf: o.logf}
}

// During starts a capture now, for d of CPU profile; tag names the files
// (<name>-<tag>-<kind>.pprof, or <name>-<kind>.pprof without a tag).
func (p *Profiler) During(ctx context.Context, d time.Duration, tag string) {
	if p == nil {
		return
	}
	name := p.name
	if tag != "" {
		name += "-" + tag
	}
	{
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			if err := os.MkdirAll(p.dir, 0o755); err != nil {
				p.logf("profile: %v", err)
				return
			}
			secs := max(1, int(d/time.Second))
			p.fetch(ctx, name, "cpu", fmt.Sprintf("profile?seconds=%d", secs))
			for _, kind := range []string{"heap", "allocs", "block", "mutex", "goroutine"} {
				p.fetch(ctx, name, kind, kind)
			}
			p.logf("profiles of %s saved in %s", name, p.dir)
		}()
	}
}

// Wait waits for a capture in progress.
func (p *Profiler) Wait() {
	if p != nil {
		p.wg.Wait()
	}
}

func (p *Profiler) fetch(ctx context.Context, name, kind, path string) {
	req, err := http.NewRequestWithContext(ctx, "GET", "http://"+p.node.PprofAddr+"/debug/pprof/"+path, nil)
	if err != nil {
		return
	}
	resp, err := (&http.Client{Timeout: 2 * time.Minute}).Do(req)
	if err != nil {
		p.logf("profile %s: %v", kind, err)
		return
	}
	defer resp.Body.Close()
	f, err := os.Create(filepath.Join(p.dir, fmt.Sprintf("%s-%s.pprof", name, kind)))
	if err != nil {
		p.logf("profile %s: %v", kind, err)
		return
	}
	defer f.Close()
	if _, err := io.Copy(f, resp.Body); err != nil {
		p.logf("profile %s: %v", kind, err)
	}
}
