package storagetest

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"kj/storage"
)

// BackendCPU is the CPU time (user and system) so far of each backend of
// db's PostgreSQL pools, by backend pid, read from /proc: the pool's own
// connections only, so other clients of a shared server do not count (as
// they do in the load harness's figure of every postgres process). Take it
// between measurements, when every connection is idle. It is nil when db is
// not PostgreSQL or its server is not on this machine.
func BackendCPU(tb testing.TB, db storage.DB) map[uint32]time.Duration {
	tb.Helper()
	pg, ok := db.(*storage.PG)
	if !ok {
		return nil
	}
	out := map[uint32]time.Duration{}
	var conns []*pgxpool.Conn
	for _, pool := range pg.Pools() {
		conns = append(conns, pool.AcquireAllIdle(context.Background())...)
	}
	for _, c := range conns {
		pid := c.Conn().PgConn().PID()
		c.Release()
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(int(pid)) + "/stat")
		if err != nil {
			return nil
		}
		// pid (comm) state ppid ... utime stime: fields 14 and 15, counted
		// after the comm's closing parenthesis.
		s := string(stat)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		u, _ := strconv.ParseInt(f[11], 10, 64)
		k, _ := strconv.ParseInt(f[12], 10, 64)
		out[pid] = time.Duration(u+k) * (time.Second / 100) // USER_HZ
	}
	return out
}

// BackendCPUSince is the CPU the backends spent between two BackendCPU
// readings; a connection opened in between counts from zero.
func BackendCPUSince(before, after map[uint32]time.Duration) time.Duration {
	var d time.Duration
	for pid, t := range after {
		d += t - before[pid]
	}
	return d
}
