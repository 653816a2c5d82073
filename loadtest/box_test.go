package loadtest

import "testing"

// A worker's CPU still counts as the generator's after it exits (the
// closing sample of a run is taken once its fleet has finished).
func TestExitedWorkersStayInTheGeneratorShare(t *testing.T) {
	const pid = 1 << 30 // no such process: /proc gives it nothing while "alive"
	before := SampleBox()
	trackWorker(pid)
	workerExited(pid, 2.5)
	workerExited(pid, 2.5) // a second report of the same exit changes nothing
	workerExited(pid+1, 7) // nor does one of a process never started
	after := SampleBox()
	got := after.Generator - before.Generator
	if got < 2.5 || got > 3.5 {
		t.Fatalf("generator CPU grew by %.2f s, want 2.5 s (plus this test's own)", got)
	}
}
