package loadtest

import (
	"context"
	"testing"
	"time"
)

// TestF1Faults runs the fault workload at small scale: two kj processes on
// a PostgreSQL, a Redis and a NATS server of the test's own, chat and bet
// traffic, and each service killed for three seconds and started again.
// kj must answer every request while a service is down (done or a clear
// error, never silence), serve every kind of request again soon after the
// restart without being restarted itself, and lose or double nothing it
// acknowledged. It needs the server binaries of PostgreSQL, Redis and
// NATS (`make services` installs them) and fails naming any that is
// missing.
func TestF1Faults(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	r, log := runSmoke(ctx, t, buildKJ(ctx, t), "F1", t.TempDir())
	f := r.Figures
	wantZero(t, f, "lostMessages", "duplicateMessages", "seqGaps", "lostBets", "betsMissettled",
		"roundsDrawnTwice", "ledgerCheckFailures", "unanswered", "nodesRestarted", "pushesMissed", "errorsAfterRecovery", "kindsNotServedAfter")
	if f["outages"] != 3 || f["ackedMessages"] < 100 || f["ackedBets"] < 10 {
		t.Errorf("too little traffic or too few outages to judge: %v", f)
	}
	for _, s := range []string{"postgres", "redis", "nats"} {
		if f[s+"Requests"] == 0 || f[s+"BetRequests"] == 0 {
			t.Errorf("while %s was down %v requests were made, %v of them bets", s, f[s+"Requests"], f[s+"BetRequests"])
		}
		if v := f[s+"RecoverySeconds"]; v > 15 {
			t.Errorf("after %s came back, requests failed for %v s", s, v)
		}
	}
	if !r.Pass {
		t.Errorf("F1 missed its target: %v", r.Notes)
	}
	t.Log(FiguresLine(r))
	for _, n := range r.Notes {
		t.Log(n)
	}
	if cfg, ok := r.Config.(map[string]any); ok {
		out, _ := cfg["outages"].([]F1Outage)
		for _, o := range out {
			t.Logf("%s: %q", o.Service, o.Examples)
		}
	}
	if t.Failed() {
		t.Logf("run log:\n%s", log.String())
	}
}
