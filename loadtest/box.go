package loadtest

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The box is shared: the generator, the server, PostgreSQL and whatever
// else runs here compete for two cores. A result says how the CPU time of
// its measured window was spent, so a figure taken on a busy box can be
// told from one taken on a quiet box.

// BoxSample is a reading of the whole machine's CPU time and of the
// processes a run cares about, in seconds since boot.
type BoxSample struct {
	Busy      float64 // all CPUs, not idle or waiting for I/O
	Server    float64
	Postgres  float64 // every process named postgres (shared with other users of the server)
	Generator float64 // this process and its worker processes
}

var (
	workerMu   sync.Mutex
	workerPIDs = map[int]bool{}
	// workersDone is the CPU seconds of worker processes that have exited:
	// /proc forgets them, and a run's closing sample is taken after its
	// fleet finished, so without it their work would count as "other".
	workersDone float64
)

func trackWorker(pid int) {
	workerMu.Lock()
	defer workerMu.Unlock()
	workerPIDs[pid] = true
}

// workerExited moves an exited worker's CPU time from /proc to workersDone.
func workerExited(pid int, cpuSeconds float64) {
	workerMu.Lock()
	defer workerMu.Unlock()
	if workerPIDs[pid] {
		delete(workerPIDs, pid)
		workersDone += cpuSeconds
	}
}

// SampleBox reads the CPU counters; serverPIDs are the kj nodes.
func SampleBox(serverPIDs ...int) BoxSample {
	s := sampleBox(serverPIDs)
	s.Postgres = allPostgresCPU()
	return s
}

// sampleBox is SampleBox without PostgreSQL (a StepSampler counts it its
// own way).
func sampleBox(serverPIDs []int) BoxSample {
	var s BoxSample
	if b, err := os.ReadFile("/proc/stat"); err == nil {
		line, _, _ := strings.Cut(string(b), "\n")
		f := strings.Fields(line)
		// cpu user nice system idle iowait irq softirq steal ...
		for i := 1; i < len(f); i++ {
			if i == 4 || i == 5 {
				continue
			}
			v, _ := strconv.ParseFloat(f[i], 64)
			s.Busy += v / userHZ
		}
	}
	for _, pid := range serverPIDs {
		s.Server += procCPU(pid)
	}
	s.Generator = GeneratorCPU()
	return s
}

// GeneratorCPU is the generator's CPU seconds so far: this process's (by
// getrusage, to the microsecond, where /proc counts in 10 ms ticks: 5 µs
// a request over a step of 2,000) and its worker processes'.
func GeneratorCPU() float64 {
	var ru syscall.Rusage
	var g float64
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		g = time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
	} else {
		g = procCPU(os.Getpid())
	}
	workerMu.Lock()
	defer workerMu.Unlock()
	for pid := range workerPIDs {
		g += procCPU(pid)
	}
	return g + workersDone
}

// allPostgresCPU sums every process named postgres.
func allPostgresCPU() float64 {
	var sum float64
	if ents, err := os.ReadDir("/proc"); err == nil {
		for _, e := range ents {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			if comm, err := os.ReadFile("/proc/" + e.Name() + "/comm"); err == nil && strings.TrimSpace(string(comm)) == "postgres" {
				sum += procCPU(pid)
			}
		}
	}
	return sum
}

// procCPU is a process's user + system seconds from /proc/<pid>/stat
// alone: ReadProc also reads its descriptors (a readlink each), which for
// a server or generator holding thousands of sockets cost the step
// sampler tens of milliseconds a sample.
func procCPU(pid int) float64 {
	cpu, _ := statCPU(pid)
	return cpu
}

// BoxStats is how the machine's CPU was used during a window, in cores
// (1.0 = one core busy the whole time).
type BoxStats struct {
	BusyCores      float64 `json:"busyCores"`
	ServerCores    float64 `json:"serverCores"`
	PostgresCores  float64 `json:"postgresCores"`
	GeneratorCores float64 `json:"generatorCores"`
	OtherCores     float64 `json:"otherCores"` // everything else on the box (other users' work)
}

// BoxWindow turns two samples taken secs apart into cores used.
func BoxWindow(a, b BoxSample, secs float64) BoxStats {
	if secs <= 0 {
		return BoxStats{}
	}
	st := BoxStats{BusyCores: (b.Busy - a.Busy) / secs, ServerCores: (b.Server - a.Server) / secs,
		PostgresCores: (b.Postgres - a.Postgres) / secs, GeneratorCores: (b.Generator - a.Generator) / secs}
	st.OtherCores = max(0, st.BusyCores-st.ServerCores-st.PostgresCores-st.GeneratorCores)
	return st
}
