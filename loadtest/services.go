package loadtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Private services: a PostgreSQL, a Redis and a NATS server of the run's
// own, on spare loopback ports with their data in a temporary directory,
// so a fault workload can kill and restart them while the shared servers
// other runs and tests use stay untouched. The binaries come from Debian's
// packages (postgresql, redis-server, nats-server), which
// `scripts/services.sh` installs.

// Service is one server process the run owns.
type Service struct {
	Name string // postgres, redis, nats
	Port int
	Dir  string

	argv    []string
	cred    *syscall.Credential // PostgreSQL refuses to run as root: it runs as the postgres user
	logPath string
	cmd     *exec.Cmd
	exited  chan struct{}
}

// Services are the run's three servers.
type Services struct {
	Postgres, Redis, NATS *Service
	Dir                   string
}

// PostgresBinDir finds the newest PostgreSQL server binaries Debian
// installed (/usr/lib/postgresql/<version>/bin), or those on PATH.
func PostgresBinDir() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool {
		vi, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[i])))
		vj, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[j])))
		return vi < vj
	})
	for k := len(dirs) - 1; k >= 0; k-- {
		if isExec(filepath.Join(dirs[k], "postgres")) && isExec(filepath.Join(dirs[k], "initdb")) {
			return dirs[k], nil
		}
	}
	if p, err := exec.LookPath("postgres"); err == nil {
		if _, err := exec.LookPath("initdb"); err == nil {
			return filepath.Dir(p), nil
		}
	}
	return "", errors.New("the PostgreSQL server binaries (postgres, initdb) are missing: not under /usr/lib/postgresql/*/bin nor on PATH " +
		"(Debian package postgresql; `make services` installs it)")
}

func isExec(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

func lookBinary(name, pkg string) (string, error) {
	p, err := exec.LookPath(name)
	if err != nil {
		for _, dir := range []string{"/usr/sbin", "/usr/local/sbin", "/usr/bin"} {
			if isExec(filepath.Join(dir, name)) {
				return filepath.Join(dir, name), nil
			}
		}
		return "", fmt.Errorf("%s is missing (Debian package %s; `make services` installs it)", name, pkg)
	}
	return p, nil
}

func freePort() (int, error) {
	addr, err := freeAddr()
	if err != nil {
		return 0, err
	}
	_, p, _ := net.SplitHostPort(addr)
	return strconv.Atoi(p)
}

// StartServices initialises and starts the three servers in a temporary
// directory of their own (Close removes it). It fails naming what is
// missing when a binary is not installed.
func StartServices(ctx context.Context) (*Services, error) {
	pgBin, err := PostgresBinDir()
	if err != nil {
		return nil, err
	}
	redisBin, err := lookBinary("redis-server", "redis-server")
	if err != nil {
		return nil, err
	}
	natsBin, err := lookBinary("nats-server", "nats-server")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "kjfaults-")
	if err != nil {
		return nil, err
	}
	// The postgres user must reach its directory inside.
	if err := os.Chmod(dir, 0o755); err != nil {
		return nil, err
	}
	s := &Services{Dir: dir}
	ok := false
	defer func() {
		if !ok {
			s.Close()
		}
	}()
	if s.Postgres, err = newPostgres(ctx, pgBin, filepath.Join(dir, "postgres")); err != nil {
		return nil, err
	}
	rport, err := freePort()
	if err != nil {
		return nil, err
	}
	rdir := filepath.Join(dir, "redis")
	s.Redis = &Service{Name: "redis", Port: rport, Dir: rdir, argv: []string{redisBin, "--port", strconv.Itoa(rport),
		"--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", rdir}}
	nport, err := freePort()
	if err != nil {
		return nil, err
	}
	ndir := filepath.Join(dir, "nats")
	s.NATS = &Service{Name: "nats", Port: nport, Dir: ndir, argv: []string{natsBin, "-a", "127.0.0.1", "-p", strconv.Itoa(nport),
		"-js", "-sd", ndir}}
	for _, sv := range []*Service{s.Postgres, s.Redis, s.NATS} {
		if err := os.MkdirAll(sv.Dir, 0o700); err != nil {
			return nil, err
		}
		if sv.cred != nil {
			if err := os.Chown(sv.Dir, int(sv.cred.Uid), int(sv.cred.Gid)); err != nil {
				return nil, err
			}
		}
		sv.logPath = filepath.Join(dir, sv.Name+".log")
		if err := sv.Start(ctx); err != nil {
			return nil, err
		}
	}
	ok = true
	return s, nil
}

// newPostgres runs initdb into dir (trust authentication, fsync off: a
// killed server's writes are still in the kernel's page cache, and a test
// cluster need not survive the machine) and prepares the server's command.
func newPostgres(ctx context.Context, bin, dir string) (*Service, error) {
	sv := &Service{Name: "postgres", Dir: dir}
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, errors.New("PostgreSQL refuses to run as root and there is no postgres user to run it as (Debian package postgresql creates it)")
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		sv.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if sv.cred != nil {
		if err := os.Chown(dir, int(sv.cred.Uid), int(sv.cred.Gid)); err != nil {
			return nil, err
		}
	}
	data := filepath.Join(dir, "data")
	initdb := exec.CommandContext(ctx, filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: sv.cred}
	initdb.Env = []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C"}
	if out, err := initdb.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	sv.Port = port
	sv.argv = []string{filepath.Join(bin, "postgres"), "-D", data, "-p", strconv.Itoa(port), "-c", "listen_addresses=127.0.0.1",
		"-c", "unix_socket_directories=" + dir, "-c", "fsync=off", "-c", "full_page_writes=off", "-c", "max_connections=200",
		"-c", "shared_buffers=64MB"}
	return sv, nil
}

// Start runs the server and waits until its port answers.
func (sv *Service) Start(ctx context.Context) error {
	logf, err := os.OpenFile(sv.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if sv.cred != nil {
		_ = os.Chown(sv.logPath, int(sv.cred.Uid), int(sv.cred.Gid))
	}
	cmd := exec.Command(sv.argv[0], sv.argv[1:]...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C"}
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Dir = sv.Dir
	// Its own process group, so a kill takes the server with every process
	// it forked (PostgreSQL's backends) at once, as a crash would.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: sv.cred}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return fmt.Errorf("start %s: %w", sv.Name, err)
	}
	sv.cmd, sv.exited = cmd, make(chan struct{})
	exited := sv.exited
	go func() { _ = cmd.Wait(); logf.Close(); close(exited) }()
	deadline := time.Now().Add(30 * time.Second)
	for !sv.answers() {
		select {
		case <-exited:
			return fmt.Errorf("%s exited at start:\n%s", sv.Name, tail(sv.logPath, 20))
		case <-ctx.Done():
			sv.Kill()
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			sv.Kill()
			return fmt.Errorf("%s not listening on port %d after 30 s:\n%s", sv.Name, sv.Port, tail(sv.logPath, 20))
		}
	}
	return nil
}

// answers says whether the server accepts connections (PostgreSQL listens
// before crash recovery ends, and then refuses sessions until it has: the
// clients see that as errors, which is what an outage is).
func (sv *Service) answers() bool {
	c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(sv.Port)), 200*time.Millisecond)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// Kill ends the server and everything it forked with SIGKILL, as a crash
// would, and waits for it.
func (sv *Service) Kill() {
	if sv.cmd == nil || ended(sv.exited) {
		return
	}
	_ = syscall.Kill(-sv.cmd.Process.Pid, syscall.SIGKILL)
	<-sv.exited
	// PostgreSQL's backends are in the group too; wait until none is left
	// holding the data directory's shared memory.
	for i := 0; i < 100 && syscall.Kill(-sv.cmd.Process.Pid, 0) == nil; i++ {
		time.Sleep(20 * time.Millisecond)
	}
}

// URL is how a client reaches the server.
func (sv *Service) URL() string {
	switch sv.Name {
	case "postgres":
		return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", sv.Port)
	case "redis":
		return fmt.Sprintf("redis://127.0.0.1:%d/0", sv.Port)
	default:
		return fmt.Sprintf("nats://127.0.0.1:%d", sv.Port)
	}
}

// Close kills the servers and removes their directory.
func (s *Services) Close() {
	for _, sv := range []*Service{s.Postgres, s.Redis, s.NATS} {
		if sv != nil {
			sv.Kill()
		}
	}
	os.RemoveAll(s.Dir)
}

// Log is the tail of the server's log, for error messages.
func (sv *Service) Log(lines int) string { return strings.TrimSpace(tail(sv.logPath, lines)) }
