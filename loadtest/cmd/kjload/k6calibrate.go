package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"kj/auth"
	"kj/loadtest"
	"kj/storage"
)

// Calibration of the k6 scripts. Before a script runs, the runner does a
// few of its operations one at a time against the kj it started, with
// nothing else going on: their latency is the unloaded figure the
// script's latency threshold is a multiple of, and kj's CPU per operation
// sizes the script's rate to a stated share of the box's cores. A run
// that sizes itself from kj's cost would pass a kj grown 20 % costlier,
// so the same run also times a reference that does not depend on kj's
// code — one argon2id check with kj's parameters (auth.CheckPassword),
// single-threaded in the runner — and compares kj's CPU per operation,
// as a multiple of that reference, with the multiple recorded in
// loadtest/k6/baseline.json.

// k6Cal is what one script's calibration measured.
type k6Cal struct {
	Kind      string    // login, bet, chat
	Ops       int       // operations measured (after the warm-up)
	Lat       []float64 // each operation's latency, ms (sorted)
	Deliver   []float64 // chat: send → delivery to the peer, ms (sorted)
	KJCPU     float64   // kj's CPU per operation, µs (median of blocks)
	PGCPU     float64   // PostgreSQL's (every postgres process on the box), µs
	RefCPU    float64   // the reference argon2id check, µs of the runner's CPU
	RefWall   float64   // and its wall time, µs
	Wall      float64   // seconds the measured operations took
	OtherCPU  float64   // cores used by everything but kj, PostgreSQL and the runner meanwhile
	IdleCores float64   // kj's CPU with nothing to do (taken out of KJCPU)
}

func (c *k6Cal) p(q float64) float64 { return quantile(c.Lat, q) }

// CPURatio is kj's CPU per operation in references.
func (c *k6Cal) CPURatio() float64 { return c.KJCPU / c.RefCPU }

// P50Ratio is the unloaded median latency in references' wall times.
func (c *k6Cal) P50Ratio() float64 { return c.p(0.5) * 1000 / c.RefWall }

func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q*float64(len(sorted))+0.5) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// runNs is the CPU time a process's threads have run, from
// /proc/<pid>/task/*/schedstat (nanoseconds, where /proc/<pid>/stat counts
// in 10 ms ticks: too coarse for a few hundred operations of 300 µs).
func runNs(pid int) int64 {
	dir := fmt.Sprintf("/proc/%d/task", pid)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	var sum int64
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name(), "schedstat"))
		if err != nil {
			continue
		}
		f := strings.Fields(string(b))
		if len(f) > 0 {
			n, _ := strconv.ParseInt(f[0], 10, 64)
			sum += n
		}
	}
	return sum
}

// reference times argon2id checks with kj's parameters (the hash of
// auth.HashPassword, checked by auth.CheckPassword, as a sign-in does) in
// this process, one at a time: the median over blocks of the process's
// CPU per check, and the median wall time of one check, in µs. The
// process's CPU, not the thread's, so the garbage collector's share of the
// 19 MiB each check allocates counts as it does in kj; the wall time is
// what an unloaded sign-in's latency is compared with, as both wait alike
// for cores other work holds.
func reference() (cpu, wall float64, err error) {
	const pw = "reference-pw"
	hash, err := auth.HashPassword(pw)
	if err != nil {
		return 0, 0, err
	}
	auth.CheckPassword(hash, pw) // warm-up
	const blocks, per = 5, 4
	var perCheck, walls []float64
	self := os.Getpid()
	for range blocks {
		t0 := runNs(self)
		for range per {
			w0 := time.Now()
			if !auth.CheckPassword(hash, pw) {
				return 0, 0, fmt.Errorf("reference: the password does not check")
			}
			walls = append(walls, float64(time.Since(w0).Microseconds()))
		}
		perCheck = append(perCheck, float64(runNs(self)-t0)/1e3/per)
	}
	return median(perCheck), median(walls), nil
}

// calibrator runs one kind's operations one at a time; op returns the
// operation's latency (and for chat the delivery's).
type calibrator struct {
	kind    string
	warm    int
	blocks  int
	perBlk  int
	prepare func(ctx context.Context) error
	op      func(ctx context.Context, i int) (lat, deliver time.Duration, err error)
	done    func()
}

func (c calibrator) run(ctx context.Context, st *loadtest.Stack) (*k6Cal, error) {
	if c.prepare != nil {
		if err := c.prepare(ctx); err != nil {
			return nil, err
		}
	}
	if c.done != nil {
		defer c.done()
	}
	for i := range c.warm {
		if _, _, err := c.op(ctx, i); err != nil {
			return nil, fmt.Errorf("calibrate %s (warm-up): %w", c.kind, err)
		}
	}
	pid := st.Nodes[0].PID
	// kj's own background work (the round engine, timers) over a second
	// of nothing: taken out of each block, so the figure is the
	// operation's.
	i0, w0 := runNs(pid), time.Now()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(time.Second):
	}
	idle := float64(runNs(pid)-i0) / float64(time.Since(w0)) // cores
	sampler := loadtest.NewStepSampler(pid)
	cal := &k6Cal{Kind: c.kind, Ops: c.blocks * c.perBlk, IdleCores: idle}
	var kj, pg []float64
	n := c.warm
	box0 := sampler.Sample()
	t0 := time.Now()
	for range c.blocks {
		k0, b0, bt := runNs(pid), sampler.Sample(), time.Now()
		for range c.perBlk {
			lat, del, err := c.op(ctx, n)
			if err != nil {
				return nil, fmt.Errorf("calibrate %s: %w", c.kind, err)
			}
			n++
			cal.Lat = append(cal.Lat, float64(lat)/1e6)
			if del > 0 {
				cal.Deliver = append(cal.Deliver, float64(del)/1e6)
			}
		}
		k1, b1 := runNs(pid), sampler.Sample()
		busy := float64(k1-k0) - idle*float64(time.Since(bt))
		kj = append(kj, max(0, busy)/1e3/float64(c.perBlk))
		pg = append(pg, (b1.Postgres-b0.Postgres)*1e6/float64(c.perBlk))
	}
	cal.Wall = time.Since(t0).Seconds()
	box1 := sampler.Sample()
	if cal.Wall > 0 {
		cal.OtherCPU = max(0, (box1.Busy-box0.Busy)-(box1.Server-box0.Server)-(box1.Postgres-box0.Postgres)-(box1.Generator-box0.Generator)) / cal.Wall
	}
	cal.KJCPU, cal.PGCPU = median(kj), median(pg)
	slices.Sort(cal.Lat)
	slices.Sort(cal.Deliver)
	return cal, nil
}

// loginCalibrator signs in with account and password, each time from an
// address of its own (X-Forwarded-For; the server trusts it here), on a
// platform the scripts' sessions do not use.
func loginCalibrator(base string, accounts []loadtest.Account) calibrator {
	client := &http.Client{Timeout: 30 * time.Second}
	return calibrator{kind: "login", warm: 3, blocks: 6, perBlk: 6, done: client.CloseIdleConnections,
		op: func(ctx context.Context, i int) (time.Duration, time.Duration, error) {
			a := accounts[len(accounts)-1-i%len(accounts)]
			body, _ := json.Marshal(map[string]any{"account": a.Account, "password": a.Password, "platform": 1})
			req, err := http.NewRequestWithContext(ctx, "POST", base+"/api/accountLogin", bytes.NewReader(body))
			if err != nil {
				return 0, 0, err
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept-Language", "en-US")
			req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.254.%d.%d", i/250, i%250+1))
			t0 := time.Now()
			resp, err := client.Do(req)
			if err != nil {
				return 0, 0, err
			}
			b, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			lat := time.Since(t0)
			if err != nil {
				return 0, 0, err
			}
			var env struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			}
			if err := json.Unmarshal(b, &env); err != nil || env.Code != 0 {
				return 0, 0, fmt.Errorf("sign-in: HTTP %d %.200s", resp.StatusCode, b)
			}
			return lat, 0, nil
		}}
}

// betCalibrator bets through /activation/betRequest on window 1's open
// round, each bet from an account of its own, once the round has at least
// 5 s of betting left (the calibration takes about one).
func betCalibrator(st *loadtest.Stack, accounts []loadtest.Account) calibrator {
	api := loadtest.NewAPI(st.Nodes[0].URL, 1, "")
	var round storage.Round
	return calibrator{kind: "bet", warm: 10, blocks: 8, perBlk: 60, done: api.Close,
		prepare: func(ctx context.Context) error {
			deadline := time.Now().Add(time.Minute)
			for time.Now().Before(deadline) {
				r, err := storage.LatestRound(ctx, st.DB, 1)
				now := time.Now().UnixMilli()
				if err == nil && now >= r.StartsAt && r.BettingEndsAt-now >= 5000 {
					round = r
					return nil
				}
				select {
				case <-ctx.Done():
					return ctx.Err()
				case <-time.After(50 * time.Millisecond):
				}
			}
			return fmt.Errorf("calibrate bet: no round open with 5 s of betting left within a minute")
		},
		op: func(ctx context.Context, i int) (time.Duration, time.Duration, error) {
			a := accounts[len(accounts)-1-i%len(accounts)]
			t0 := time.Now()
			err := api.Call(ctx, "/activation/betRequest", a.Token, map[string]any{"windowId": 1, "issue": round.Issue,
				"content": []string{"BIG", "SMALL", "SINGLE", "DOUBLE"}[i%4], "amount": 100 + (i%50)*10,
				"betId": fmt.Sprintf("cal-%s-%d", round.Issue, i)}, nil)
			return time.Since(t0), 0, err
		}}
}

// chatCalibrator sends text messages over pairs of sockets of fixture
// users, one message at a time: each waits for its durable
// acknowledgement and for its delivery to the peer. The messages go round
// 20 pairs, as a socket may make 30 requests a second (burst 60).
func chatCalibrator(st *loadtest.Stack, accounts []loadtest.Account) calibrator {
	const pairs = 20
	wsBase := "ws://" + st.Nodes[0].Addr
	type arrival struct {
		n  uint64
		at time.Time
	}
	got := make(chan arrival, 16)
	onFrame := func(f []byte) {
		if loadtest.IsEvent(f, "OnRecvNewMessage") {
			if p, ok := loadtest.ScanPayload(f); ok && p.Stream == "cal" {
				got <- arrival{p.N, time.Now()}
			}
		}
	}
	var from, to []*loadtest.ChatConn
	// Each calibration numbers its messages from 0: a clientMsgID used by
	// an earlier calibration in the same conversation would be a resend,
	// answered with the stored message and never pushed again.
	var pass int64
	return calibrator{kind: "chat", warm: 10, blocks: 8, perBlk: 60,
		prepare: func(ctx context.Context) error {
			pass = time.Now().UnixNano()
			from, to = nil, nil // a second calibration dials its own sockets
			for k := range pairs {
				a, b := accounts[len(accounts)-1-2*k], accounts[len(accounts)-2-2*k]
				c, err := loadtest.DialChat(ctx, wsBase, "", b, onFrame)
				if err != nil {
					return err
				}
				to = append(to, c)
				if c, err = loadtest.DialChat(ctx, wsBase, "", a, nil); err != nil {
					return err
				}
				from = append(from, c)
			}
			return nil
		},
		done: func() {
			for _, c := range append(from, to...) {
				c.Close()
			}
		},
		op: func(ctx context.Context, i int) (time.Duration, time.Duration, error) {
			f, r := from[i%pairs], to[i%pairs]
			t0 := time.Now()
			p := loadtest.Payload{Stream: "cal", N: uint64(i), Sched: t0.UnixNano()}
			msg, _ := json.Marshal(map[string]any{"clientMsgID": fmt.Sprintf("cal-%d-%d", pass, i), "createTime": t0.UnixMilli(),
				"sessionType": 1, "sendID": f.UserID, "recvID": r.UserID, "msgFrom": 100, "contentType": 101,
				"senderPlatformID": 5, "status": 1, "textElem": map[string]string{"content": p.String()}})
			if _, err := f.Call(ctx, "SendMessage", string(msg), r.UserID, "", "{}", false); err != nil {
				return 0, 0, err
			}
			ack := time.Since(t0)
			for {
				select {
				case q := <-got:
					if q.n == uint64(i) {
						return ack, q.at.Sub(t0), nil
					}
				case <-time.After(10 * time.Second):
					return 0, 0, fmt.Errorf("message %d not delivered within 10 s", i)
				case <-ctx.Done():
					return 0, 0, ctx.Err()
				}
			}
		}}
}
