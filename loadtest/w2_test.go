package loadtest

import (
	"encoding/json"
	"strings"
	"testing"
)

// W2's full ramp has the named steps the figures are read at: 250, 2,000
// and 10,000 msg/s, and the 20,000 stretch.
func TestW2RampNamedSteps(t *testing.T) {
	_, _, ramp := w2Shape(&Options{})
	rates := ramp.Rates()
	has := func(x float64) bool {
		for _, r := range rates {
			if r == x {
				return true
			}
		}
		return false
	}
	for _, x := range []float64{w2LowRate, w2CostRate, w2HighRate, 20000} {
		if !has(x) {
			t.Errorf("rates %v lack %v", rates, x)
		}
	}
}

// The figures of the named steps come from those steps alone: latency of
// the 250 and 2,000 steps, and CPU per message of the 2,000 step only
// (not the idle warm-up or another step).
func TestW2FiguresNamedSteps(t *testing.T) {
	steps := []StepResult{
		{Offered: 250, Done: 2500, Verdict: "holds", Achieved: 250, Latency: Latency{P99: 12}, Ack: Latency{P50: 2.5},
			ServerCPUSec: 9, PostgresCPUSec: 9, GeneratorCPUSec: 9},
		{Offered: 1000, Done: 10000, Verdict: "holds", Achieved: 1000, Latency: Latency{P99: 30},
			ServerCPUSec: 9, PostgresCPUSec: 9, GeneratorCPUSec: 9},
		{Offered: 2000, Done: 20000, Verdict: "degraded", Achieved: 1990, Latency: Latency{P99: 70}, Ack: Latency{P50: 9},
			ServerCPUSec: 2, PostgresCPUSec: 0.6, GeneratorCPUSec: 0.4},
	}
	f := w2Figures(steps, NewHistogram())
	want := map[string]float64{"sustainedMsgPerSec": 1000, "ackP50MsAt250": 2.5, "p99MsAt250": 12, "p99MsAt2k": 70, "ackP50MsAt2k": 9,
		"serverCpuUsPerMsgAt2k": 100, "postgresCpuUsPerMsgAt2k": 30, "generatorCpuUsPerMsgAt2k": 20, "p99MsAtSustained": 30}
	for k, v := range want {
		if got, ok := f[k]; !ok || abs(got-v) > 1e-9 {
			t.Errorf("%s = %v (present %v), want %v", k, got, ok, v)
		}
	}
	if _, ok := f["p99MsAt10k"]; ok || f["holdsAt10k"] != 0 {
		t.Errorf("p99MsAt10k or holdsAt10k %v reported without a step at 10,000", f["holdsAt10k"])
	}
	// The 10,000 step holding is the check, whatever its achieved rate
	// (a hair under the offered one when every message was sent).
	high := StepResult{Offered: 10000, Done: 100000, Verdict: "holds", Achieved: 9998, Latency: Latency{P99: 22}}
	f = w2Figures(append(steps[:2:2], high), NewHistogram())
	if f["holdsAt10k"] != 1 || f["p99MsAt10k"] != 22 || f["sustainedMsgPerSec"] != 9998 {
		t.Errorf("a held 10,000 step: holdsAt10k %v, p99MsAt10k %v, sustained %v", f["holdsAt10k"], f["p99MsAt10k"], f["sustainedMsgPerSec"])
	}
	if _, ok := f["serverCpuUsPerMsgAt10k"]; ok {
		t.Errorf("cost at 10,000 reported for a step whose CPU was not read")
	}
	high.ServerCPUSec, high.PostgresCPUSec, high.GeneratorCPUSec = 8, 4, 2
	f = w2Figures(append(steps[:2:2], high), NewHistogram())
	if f["serverCpuUsPerMsgAt10k"] != 80 || f["postgresCpuUsPerMsgAt10k"] != 40 || f["generatorCpuUsPerMsgAt10k"] != 20 || f["serverCpuUsPerMsgAt2k"] != 0 {
		t.Errorf("cost at 10,000 from that step alone: %v", f)
	}
	high.Verdict = "degraded"
	if f = w2Figures(append(steps[:2:2], high), NewHistogram()); f["holdsAt10k"] != 0 {
		t.Errorf("a degraded 10,000 step counted as held")
	}
	// A step whose CPU was not read has no cost figures.
	steps[2].ServerCPUSec = 0
	if _, ok := w2Figures(steps, NewHistogram())["serverCpuUsPerMsgAt2k"]; ok {
		t.Errorf("cost reported for a step whose CPU was not read")
	}
}

func TestW2Better(t *testing.T) {
	a := map[string]float64{"sustainedMsgPerSec": 500, "p99MsAt250": 20}
	b := map[string]float64{"sustainedMsgPerSec": 375, "p99MsAt250": 10, "p99MsAt2k": 30}
	if !w2Better(a, b) || w2Better(b, a) {
		t.Errorf("the higher sustained rate must win")
	}
	c := map[string]float64{"sustainedMsgPerSec": 0, "p99MsAt250": 80}
	d := map[string]float64{"sustainedMsgPerSec": 0, "p99MsAt250": 60, "p99MsAt2k": 900}
	if !w2Better(d, c) || w2Better(c, d) {
		t.Errorf("with no rate held, reaching the 2,000 step wins")
	}
	e := map[string]float64{"sustainedMsgPerSec": 0, "p99MsAt250": 40}
	if !w2Better(e, c) {
		t.Errorf("then the lower p99 at 250 wins")
	}
}

// The durable peer's configuration names the broker keys of v6.9.1 and
// keeps history with recovery on the namespaces W2 and W3 publish in.
func TestPgPeerConfigPinned(t *testing.T) {
	for _, v := range Peers["centrifugo-pg"].variants() {
		cfg := map[string]any{"channel": map[string]any{"namespaces": []map[string]any{
			{"name": "group"}, {"name": "pair"}, {"name": "personal"}}}}
		pgPeerConfig(cfg, "postgres://x@127.0.0.1:5432/d", v)
		b, _ := json.Marshal(cfg)
		s := string(b)
		for _, k := range []string{`"broker":{"enabled":true,"postgres":{`, `"type":"postgres"`, `"use_notify":`, `"dsn":"postgres://x@127.0.0.1:5432/d"`,
			`"outbox":{"batch_size":1000,"poll_interval":"` + pgPollInterval(v) + `"}`, `"num_shards":8`, `"table_prefix":"cf"`} {
			if !strings.Contains(s, k) {
				t.Errorf("config lacks %s: %s", k, s)
			}
		}
		ns := cfg["channel"].(map[string]any)["namespaces"].([]map[string]any)
		for _, n := range ns {
			durable := n["force_recovery"] == true && n["history_size"] == 1000 && n["history_ttl"] == "24h"
			if want := n["name"] != "personal"; durable != want {
				t.Errorf("namespace %v: history and recovery %v, want %v", n["name"], durable, want)
			}
		}
	}
	if vs := Peers["centrifugo-pg"].variants(); len(vs) != 2 || vs[0].UseNotify == vs[1].UseNotify {
		t.Errorf("the durable peer runs with use_notify on and off, got %+v", vs)
	}
	if Peers["centrifugo-pg"].binary() != "centrifugo" {
		t.Errorf("the durable peer is the centrifugo binary")
	}
}

// With the chat floor in the run, kj's CPU a message at 2,000 msg/s is
// also given as a multiple of the floor's, for each part measured.
func TestW2FloorRatios(t *testing.T) {
	kj := map[string]float64{"serverCpuUsPerMsgAt2k": 150, "postgresCpuUsPerMsgAt2k": 90, "generatorCpuUsPerMsgAt2k": 40,
		"serverCpuUsPerMsgAt10k": 90}
	floor := map[string]float64{"serverCpuUsPerMsgAt2k": 60, "postgresCpuUsPerMsgAt2k": 45, "serverCpuUsPerMsgAt10k": 60}
	addFloorRatios(kj, floor)
	if !near(kj["serverCpuXFloorAt2k"], 2.5) || !near(kj["postgresCpuXFloorAt2k"], 2) || !near(kj["serverCpuXFloorAt10k"], 1.5) {
		t.Errorf("ratios: %v", kj)
	}
	if _, ok := kj["generatorCpuXFloorAt2k"]; ok {
		t.Errorf("a ratio to a figure the floor lacks: %v", kj)
	}
}

// Several runs with the floor keep each run's floor figures and give the
// floor the medians, as the peer's.
func TestCombineKeepsTheFloor(t *testing.T) {
	var runs []*Result
	for _, x := range []float64{70, 50, 60} {
		runs = append(runs, &Result{Figures: map[string]float64{"a": x * 2},
			Peer:  &PeerResult{Name: "centrifugo-pg", Figures: map[string]float64{"a": x * 3}},
			Floor: &PeerResult{Name: "floorchat", Figures: map[string]float64{"a": x}}})
	}
	c := Combine(runs)
	if c.Floor == nil || c.Floor.Name != "floorchat" || c.Floor.Figures["a"] != 60 || c.Peer.Figures["a"] != 180 || c.Figures["a"] != 120 {
		t.Fatalf("combined: figures %v, peer %+v, floor %+v", c.Figures, c.Peer, c.Floor)
	}
	if len(c.Runs) != 3 || c.Runs[1].Floor["a"] != 50 || c.Runs[1].Peer["a"] != 150 {
		t.Errorf("runs: %+v", c.Runs)
	}
	if runs[2].Floor.Figures["a"] != 60 || runs[0].Floor.Figures["a"] != 70 {
		t.Errorf("combining changed a run's own figures")
	}
}
