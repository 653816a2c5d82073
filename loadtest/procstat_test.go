package loadtest

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// A step's CPU is read from /proc at its ends: the generator's is this
// process's, all its threads (it agrees with getrusage), and PostgreSQL's
// never goes down, even when backends exit between samples.
func TestStepSamplerReadsThisProcess(t *testing.T) {
	s := NewStepSampler(os.Getpid())
	a, ru0 := s.Sample(), selfCPU()
	done := make(chan struct{})
	go func() { // a second thread's work counts too
		defer close(done)
		burnUntil(ru0 + 0.3)
	}()
	burnUntil(ru0 + 0.3)
	<-done
	b, ru1 := s.Sample(), selfCPU()
	got, want := b.Generator-a.Generator, ru1-ru0
	if want < 0.3 || got < want-0.03 || got > want+0.03 {
		t.Fatalf("generator used %.3f s by /proc, %.3f s by getrusage", got, want)
	}
	if d := b.Server - a.Server; d < want-0.03 {
		t.Fatalf("server (this pid) used %.3f s", d)
	}
	if b.Postgres < a.Postgres {
		t.Fatalf("postgres CPU went down: %v → %v", a.Postgres, b.Postgres)
	}
}

// selfCPU is this process's user + system seconds by getrusage.
func selfCPU() float64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// burnUntil spins until the process has used cpu seconds.
func burnUntil(cpu float64) {
	x := 0
	for selfCPU() < cpu {
		for i := range 100000 {
			x += i
		}
	}
	_ = x
}
