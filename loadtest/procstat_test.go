package loadtest

import (
	"context"
	"net"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"kj/internal/testenv"
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

// A postgres process counts for the server when it is not a client
// backend, or when its client port is one of the server's.
func TestServesPorts(t *testing.T) {
	ports := map[int]bool{58966: true}
	for _, c := range []struct {
		title string
		want  bool
	}{
		{"postgres: 15/main: postgres test 127.0.0.1(58966) idle", true},
		{"postgres: 15/main: postgres test 127.0.0.1(58967) idle in transaction (aborted)", false},
		{"postgres: 15/main: kj kj ::1(58966) COMMIT", true},
		{"postgres: postgres test 127.0.0.1(40000) idle", false},
		{"postgres: 15/main: postgres test [local] idle", true},
		{"postgres: 15/main: walwriter ", true},
		{"postgres: 15/main: checkpointer ", true},
		{"postgres: 15/main: autovacuum worker test", true},
		{"/usr/lib/postgresql/15/bin/postgres\x00-D\x00/var/lib/postgresql/15/main\x00", true},
	} {
		if got := servesPorts(c.title, ports); got != c.want {
			t.Errorf("servesPorts(%q) = %v, want %v", c.title, got, c.want)
		}
	}
}

// The step's PostgreSQL CPU counts the backends of the sampled processes'
// connections and not another client's: this process's backend burns CPU,
// a sampler of this process counts it and a sampler of a process with no
// connection (a child sleeping) does not.
func TestStepSamplerCountsOnlyItsOwnBackends(t *testing.T) {
	testenv.Needs(t, "PostgreSQL")
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, testenv.DatabaseURL())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	port := conn.PgConn().Conn().LocalAddr().(*net.TCPAddr).Port
	if !socketPorts([]int{os.Getpid()})[port] {
		t.Fatalf("this process's connection (port %d) is not among its socket ports", port)
	}
	other := exec.Command("sleep", "60")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = other.Process.Kill(); _ = other.Wait() }()
	mine, theirs := NewStepSampler(os.Getpid()), NewStepSampler(other.Process.Pid)
	a, b := mine.Sample(), theirs.Sample()
	if _, err := conn.Exec(ctx, "SELECT count(*) FROM generate_series(1, 4000000)"); err != nil {
		t.Fatal(err)
	}
	used, seen := mine.Sample().Postgres-a.Postgres, theirs.Sample().Postgres-b.Postgres
	if used < 0.1 {
		t.Fatalf("this process's backend used %.3f s of CPU for 4M rows", used)
	}
	if seen > used/2 {
		t.Fatalf("a process with no connection was charged %.3f s of PostgreSQL CPU (this process's: %.3f s)", seen, used)
	}
}
