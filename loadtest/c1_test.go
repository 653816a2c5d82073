package loadtest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestC1Failover runs the failover workload at small scale (three kj
// processes behind HAProxy, a few dozen chatting users, a hundred idle
// sockets, a dozen players): a node is killed mid-traffic, started again,
// then every node is restarted in turn, and nothing acknowledged may be
// lost, duplicated or settled twice. It needs haproxy (Debian's package)
// besides PostgreSQL, Redis and NATS.
func TestC1Failover(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	out := t.TempDir()
	r, log := runSmoke(ctx, t, buildKJ(ctx, t), "C1", out)
	f := r.Figures
	wantZero(t, f, "lostMessages", "duplicateMessages", "seqGaps", "lostBets", "betsMissettled", "roundsDrawnTwice", "ledgerCheckFailures")
	// The run must have exercised what it claims: messages and bets
	// acknowledged, sockets moved by the kill, windows taken over.
	if f["ackedMessages"] < 100 || f["ackedBets"] < 10 || f["nodes"] != 3 {
		t.Errorf("too little traffic to judge: %v", f)
	}
	if f["killReconnectSeconds"] <= 0 || f["killReconnectSeconds"] > 10 {
		t.Errorf("sockets of the killed node back in %v s, want (0, 10]", f["killReconnectSeconds"])
	}
	if f["killTakeoverSeconds"] <= 0 || f["takeoverSeconds"] > c1Phase.Seconds() {
		t.Errorf("windows taken over in %v s (worst %v s), want within one phase (%v)", f["killTakeoverSeconds"], f["takeoverSeconds"], c1Phase)
	}
	if !r.Pass {
		t.Errorf("C1 missed its target: %v", r.Notes)
	}
	for _, name := range []string{"C1.json", "C1.png"} {
		if st, err := os.Stat(filepath.Join(out, name)); err != nil || st.Size() == 0 {
			t.Errorf("%s not written: %v", name, err)
		}
	}
	back, err := ReadResult(filepath.Join(out, "C1.json"))
	if err != nil || back.Workload != "C1" || back.Figures["lostMessages"] != 0 || back.Commit == "" {
		t.Errorf("result file: %v %+v", err, back)
	}
	if t.Failed() {
		t.Logf("run log:\n%s", log.String())
	}
}
