package loadtest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ProcSample is one reading of a process from /proc.
type ProcSample struct {
	At       time.Time
	RSS      uint64  // resident set, bytes
	PeakRSS  uint64  // high-water mark of the resident set, bytes
	CPU      float64 // user + system seconds since the process started
	FDs      int     // open file descriptors
	Threads  int
	FDLimit  uint64 // the process's soft limit on open files
	Sockets  int    // descriptors that are sockets
	Captured bool
}

// clock ticks per second of /proc/<pid>/stat times; 100 on every Linux
// build that matters (USER_HZ).
const userHZ = 100

// ReadProc samples process pid.
func ReadProc(pid int) (ProcSample, error) {
	s := ProcSample{At: time.Now()}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return s, err
	}
	for _, line := range strings.Split(string(status), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		f := strings.Fields(v)
		if len(f) == 0 {
			continue
		}
		n, _ := strconv.ParseUint(f[0], 10, 64)
		switch k {
		case "VmRSS":
			s.RSS = n * 1024
		case "VmHWM":
			s.PeakRSS = n * 1024
		case "Threads":
			s.Threads = int(n)
		}
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return s, err
	}
	// Fields after the command name, which sits in parentheses and may hold
	// spaces: utime and stime are fields 14 and 15 of the whole line.
	if i := bytes.LastIndexByte(stat, ')'); i > 0 {
		f := strings.Fields(string(stat[i+1:]))
		if len(f) > 12 {
			ut, _ := strconv.ParseUint(f[11], 10, 64)
			st, _ := strconv.ParseUint(f[12], 10, 64)
			s.CPU = float64(ut+st) / userHZ
		}
	}
	if ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid)); err == nil {
		s.FDs = len(ents)
		for _, e := range ents {
			if l, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, e.Name())); err == nil && strings.HasPrefix(l, "socket:") {
				s.Sockets++
			}
		}
	}
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/limits", pid)); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "Max open files") {
				f := strings.Fields(strings.TrimPrefix(line, "Max open files"))
				if len(f) > 0 {
					s.FDLimit, _ = strconv.ParseUint(f[0], 10, 64)
				}
			}
		}
	}
	s.Captured = true
	return s, nil
}

// noFileLimit is this process's soft limit on open files.
func noFileLimit() uint64 {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		return 0
	}
	return r.Cur
}

// RaiseNoFile lifts this process's soft limit on open files to the hard
// limit (the Go runtime does it too, but child processes inherit what we
// set here explicitly).
func RaiseNoFile() uint64 {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &r); err != nil {
		return 0
	}
	if r.Cur < r.Max {
		r.Cur = r.Max
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &r)
	}
	return r.Cur
}

// Metrics scrapes a Prometheus text endpoint into name → value for the
// unlabelled series (the Go runtime and process collectors' gauges).
func Metrics(ctx context.Context, url string) (map[string]float64, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return parseMetrics(resp.Body)
}

func parseMetrics(r io.Reader) (map[string]float64, error) {
	out := map[string]float64{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		name, val, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		if v, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
			out[name] = v
		}
	}
	return out, sc.Err()
}

// ServerStats are the server process's figures over a run.
type ServerStats struct {
	PID          int     `json:"pid"`
	RSSBytes     uint64  `json:"rssBytes"`     // at the end of the measured window
	PeakRSSBytes uint64  `json:"peakRssBytes"` // high-water mark over the run
	CPUSeconds   float64 `json:"cpuSeconds"`   // user + system during the measured window
	CPUPercent   float64 `json:"cpuPercentOfCore"`
	WindowSec    float64 `json:"windowSeconds"`
	PeakFDs      int     `json:"peakFds"`
	PeakSockets  int     `json:"peakSockets"`
	FDLimit      uint64  `json:"fdLimit"`
	Threads      int     `json:"threads"`
	HeapInuse    float64 `json:"heapInuseBytes,omitempty"`
	StackInuse   float64 `json:"stackInuseBytes,omitempty"`
	GoSys        float64 `json:"goSysBytes,omitempty"`
	Goroutines   float64 `json:"goroutines,omitempty"`
	GCCycles     float64 `json:"gcCycles,omitempty"`
}

// Window turns two samples into the stats of the time between them.
func Window(pid int, from, to ProcSample, peakFDs, peakSockets int) ServerStats {
	st := ServerStats{PID: pid, RSSBytes: to.RSS, PeakRSSBytes: to.PeakRSS, FDLimit: to.FDLimit,
		Threads: to.Threads, PeakFDs: max(peakFDs, to.FDs), PeakSockets: max(peakSockets, to.Sockets)}
	st.WindowSec = to.At.Sub(from.At).Seconds()
	st.CPUSeconds = to.CPU - from.CPU
	if st.WindowSec > 0 {
		st.CPUPercent = st.CPUSeconds / st.WindowSec * 100
	}
	return st
}

// StepSampler reads the box at a driver's step boundaries (Driver.Sample)
// with PostgreSQL counted per process: BoxSample.Postgres sums the CPU of
// the postgres processes alive at the moment, so a backend that exits
// between two samples (another client's connection closing, on a shared
// box) takes its whole past CPU out of the difference, which can then go
// below zero. Here each process counts only what it used since the last
// sample (all of it when new), so the figure never goes down; it misses
// only the last moments of a backend that exits mid-step (the server's
// own pool keeps its backends).
//
// Of PostgreSQL's processes it counts those that serve the server: the
// client backends whose connection is one of the server processes' own
// sockets (the client port in the backend's title), and every process
// that is not a client backend (the postmaster, the WAL writer,
// checkpointer, background writer, autovacuum and the like), whose work
// the server's writes cause. Other clients' backends on a shared
// PostgreSQL (tests, other sessions) do not count, and the box's figures
// put them under "other". A backend over a Unix socket ("[local]") cannot
// be told apart and counts.
//
// A sample reads each postgres process's CPU from its stat and decides
// whether it serves the server once per process (its client port does not
// change): the server's descriptors (a readlink each, thousands with W4's
// connections) and the TCP table are read only when a process appears
// that has not been decided, not at every sample. At each step's ends
// they cost 60-90 ms of the harness's CPU a sample, which the generator's
// figure counted: 70 µs a bet of W4's step of 2,000.
type StepSampler struct {
	pids []int
	mu   sync.Mutex
	last map[pgKey]float64 // postgres process → CPU seconds at the last sample
	// serves is whether each postgres process seen serves the server.
	serves map[pgKey]bool
	sum    float64
}

// pgKey names a process across pid reuse: its pid and start time.
type pgKey struct {
	pid   int
	start uint64
}

// NewStepSampler samples the box for the server processes pids.
func NewStepSampler(pids ...int) *StepSampler {
	s := &StepSampler{pids: pids, serves: map[pgKey]bool{}}
	s.Sample()
	return s
}

// Sample is SampleBox with Postgres counted per process.
func (s *StepSampler) Sample() BoxSample {
	b := sampleBox(s.pids)
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.postgresCPUs()
	if s.last != nil {
		for k, p := range now {
			if p.serves {
				s.sum += max(0, p.cpu-s.last[k])
			}
		}
	}
	s.last = make(map[pgKey]float64, len(now))
	for k, p := range now {
		s.last[k] = p.cpu
	}
	for k := range s.serves {
		if _, ok := now[k]; !ok {
			delete(s.serves, k)
		}
	}
	b.Postgres = s.sum
	return b
}

// pgProc is a postgres process's CPU seconds and whether it serves the
// sampled processes.
type pgProc struct {
	cpu    float64
	serves bool
}

// postgresCPUs reads every process named postgres; whether one serves
// the sampled processes (servesPorts) is decided once per process, from
// its title, when the title is a postgres process's own: a backend just
// forked still has the postmaster's command line, which names no client
// yet, and the postmaster keeps it (read at each sample, one file).
func (s *StepSampler) postgresCPUs() map[pgKey]pgProc {
	out := map[pgKey]pgProc{}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return out
	}
	var ports map[int]bool // the server's ports, read when first needed
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		comm, err := os.ReadFile("/proc/" + e.Name() + "/comm")
		if err != nil || strings.TrimSpace(string(comm)) != "postgres" {
			continue
		}
		cpu, start, ok := statCPUStart(pid)
		if !ok {
			continue
		}
		k := pgKey{pid, start}
		serves, known := s.serves[k]
		if !known {
			cmd, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
			title := string(cmd)
			serves = true
			if port, ok := clientPort(title); ok {
				if ports == nil {
					ports = socketPorts(s.pids)
				}
				serves = ports[port]
			}
			if strings.HasPrefix(title, "postgres:") {
				s.serves[k] = serves
			}
		}
		out[k] = pgProc{cpu: cpu, serves: serves}
	}
	return out
}

// servesPorts says whether a postgres process, by its title (cmdline),
// is counted for a client whose TCP sockets have the local ports ports:
// unless the title names a client port (clientPort), it is a process of
// the server's own and counts.
func servesPorts(title string, ports map[int]bool) bool {
	port, ok := clientPort(title)
	return !ok || ports[port]
}

// clientPort is the client's TCP port that a postgres process's title
// (cmdline) names. A client backend's title is "postgres: <cluster>:
// <user> <database> <host>(<port>) <activity>", or "[local]" for a Unix
// socket (no port: it cannot be told apart); any other title (the
// postmaster's command line, "postgres: 15/main: walwriter", "…
// autovacuum worker …") names none.
func clientPort(title string) (int, bool) {
	title = strings.TrimRight(strings.ReplaceAll(title, "\x00", " "), " ")
	f := strings.Fields(title)
	if len(f) < 3 || f[0] != "postgres:" {
		return 0, false // the postmaster, or a title that names no client
	}
	for _, w := range f[2:] {
		if w == "[local]" {
			return 0, false
		}
		i := strings.LastIndexByte(w, '(')
		if i > 0 && strings.HasSuffix(w, ")") {
			if port, err := strconv.Atoi(w[i+1 : len(w)-1]); err == nil {
				return port, true
			}
		}
	}
	return 0, false
}

// socketPorts is the local ports of the TCP connections the processes
// pids hold (their descriptors' socket inodes, found in /proc/net/tcp and
// tcp6).
func socketPorts(pids []int) map[int]bool {
	inodes := map[string]bool{}
	for _, pid := range pids {
		dir := "/proc/" + strconv.Itoa(pid) + "/fd/"
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if l, err := os.Readlink(dir + e.Name()); err == nil && strings.HasPrefix(l, "socket:[") {
				inodes[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = true
			}
		}
	}
	ports := map[int]bool{}
	for _, pid := range pids {
		read := false
		for _, f := range []string{"tcp", "tcp6"} {
			b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/net/" + f)
			if err != nil {
				continue
			}
			read = true
			for _, line := range strings.Split(string(b), "\n")[1:] {
				// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
				w := strings.Fields(line)
				if len(w) < 10 || !inodes[w[9]] {
					continue
				}
				if _, hexPort, ok := strings.Cut(w[1], ":"); ok {
					if port, err := strconv.ParseUint(hexPort, 16, 16); err == nil {
						ports[int(port)] = true
					}
				}
			}
		}
		if read {
			break // one network namespace: the first table read has every socket
		}
	}
	return ports
}

// statCPU is a process's user + system seconds from /proc/<pid>/stat
// alone (ReadProc reads its descriptors and limits too).
func statCPU(pid int) (float64, bool) {
	cpu, _, ok := statCPUStart(pid)
	return cpu, ok
}

// statCPUStart is statCPU and the process's start time (in clock ticks
// since boot), which tells a process from a later one with its pid.
func statCPUStart(pid int) (float64, uint64, bool) {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, 0, false
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(string(stat[i+1:]))
	if len(f) <= 19 {
		return 0, 0, false
	}
	ut, _ := strconv.ParseUint(f[11], 10, 64)
	st, _ := strconv.ParseUint(f[12], 10, 64)
	start, _ := strconv.ParseUint(f[19], 10, 64)
	return float64(ut+st) / userHZ, start, true
}

// openFDs is how many descriptors process pid has open: the size stat
// reports for /proc/<pid>/fd (Linux 6.2 on, a count kept by the kernel),
// else the number of its entries.
func openFDs(pid int) (int, error) {
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	var st syscall.Stat_t
	if err := syscall.Stat(dir, &st); err != nil {
		return 0, err
	}
	if st.Size > 0 {
		return int(st.Size), nil
	}
	ents, err := os.ReadDir(dir)
	return len(ents), err
}
