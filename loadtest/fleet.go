package loadtest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Fleet is the coordinator's side of the worker processes.
type Fleet struct {
	workers []*workerProc
	logf    func(string, ...any)
	steps   chan stepReport
}

type stepReport struct {
	worker int
	step   *WorkerStep
}

type workerProc struct {
	index int
	cmd   *exec.Cmd
	in    io.WriteCloser
	enc   *json.Encoder
	mu    sync.Mutex

	ready chan WorkerReady
	sent  chan map[string]uint64
	final chan WorkerFinal
	done  chan struct{}
	err   error
}

// WorkerEnv marks a process started as a worker: a binary that is not
// kjload (the loadtest package's test binary) checks it in TestMain.
const WorkerEnv = "KJLOAD_WORKER"

// SourceAddr is worker i's loopback source address: 127.0.0.2, 127.0.0.3 …
func SourceAddr(i int) string { return fmt.Sprintf("127.0.0.%d", 2+i) }

// StartFleet starts one worker process per plan and waits until each has
// its sockets logged in.
func StartFleet(ctx context.Context, plans []Plan, logf func(string, ...any)) (*Fleet, []WorkerReady, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, nil, err
	}
	f := &Fleet{logf: logf, steps: make(chan stepReport, 64*len(plans))}
	for i, p := range plans {
		cmd := exec.Command(exe, "worker")
		cmd.Env = append(os.Environ(), WorkerEnv+"=1")
		cmd.Stderr = logWriter{logf}
		in, err := cmd.StdinPipe()
		if err != nil {
			f.Close()
			return nil, nil, err
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			f.Close()
			return nil, nil, err
		}
		if err := cmd.Start(); err != nil {
			f.Close()
			return nil, nil, err
		}
		trackWorker(cmd.Process.Pid)
		w := &workerProc{index: i, cmd: cmd, in: in, enc: json.NewEncoder(in), ready: make(chan WorkerReady, 1),
			sent: make(chan map[string]uint64, 1), final: make(chan WorkerFinal, 1), done: make(chan struct{})}
		f.workers = append(f.workers, w)
		go f.read(w, out)
		if err := w.send(workerMsg{Plan: &p}); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("worker %d: %w", i, err)
		}
	}
	readies := make([]WorkerReady, len(f.workers))
	for i, w := range f.workers {
		select {
		case r := <-w.ready:
			readies[i] = r
		case <-w.done:
			// A report sent just before a clean exit is still in its channel.
			select {
			case r := <-w.ready:
				readies[i] = r
				continue
			default:
			}
			f.Close()
			return nil, nil, fmt.Errorf("worker %d exited before its sockets were up: %v", i, w.err)
		case <-ctx.Done():
			f.Close()
			return nil, nil, ctx.Err()
		}
	}
	return f, readies, nil
}

func (w *workerProc) send(m workerMsg) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.enc.Encode(m)
}

func (f *Fleet) read(w *workerProc, out io.Reader) {
	defer func() {
		w.err = w.cmd.Wait()
		var cpu float64
		if ps := w.cmd.ProcessState; ps != nil {
			cpu = (ps.UserTime() + ps.SystemTime()).Seconds()
		}
		workerExited(w.cmd.Process.Pid, cpu)
		close(w.done)
	}()
	dec := json.NewDecoder(bufio.NewReaderSize(out, 1<<20))
	for {
		var m workerMsg
		if err := dec.Decode(&m); err != nil {
			return
		}
		switch {
		case m.Ready != nil:
			w.ready <- *m.Ready
		case m.Step != nil:
			f.steps <- stepReport{worker: w.index, step: m.Step}
		case m.Cmd == "sent":
			w.sent <- m.Sent
		case m.Final != nil:
			w.final <- *m.Final
		case m.Error != "":
			f.logf("worker %d: %s", w.index, m.Error)
		}
	}
}

// Go starts the ramp on every worker at start.
func (f *Fleet) Go(start time.Time) error {
	for _, w := range f.workers {
		if err := w.send(workerMsg{Cmd: "go", Start: start.UnixNano()}); err != nil {
			return err
		}
	}
	return nil
}

// Steps collects each step's reports from every worker and hands the
// merged step to judge, which says whether to go on. It returns when the
// ramp's last step is in, judge says stop, or ctx ends.
func (f *Fleet) Steps(ctx context.Context, steps int, judge func(i int, s *WorkerStep) bool) {
	got := map[int][]*WorkerStep{}
	for {
		select {
		case <-ctx.Done():
			return
		case r := <-f.steps:
			got[r.step.Step] = append(got[r.step.Step], r.step)
			if len(got[r.step.Step]) < len(f.workers) {
				continue
			}
			merged := newWorkerStep(r.step.Step)
			for _, s := range got[r.step.Step] {
				merged.add(s)
			}
			if !judge(r.step.Step, merged) || r.step.Step >= steps-1 {
				return
			}
		}
	}
}

// Finish stops the senders, gathers what was sent, and has every worker
// judge what its sockets received (waiting up to grace for messages in
// flight). It returns the workers' final reports.
func (f *Fleet) Finish(ctx context.Context, grace time.Duration) ([]WorkerFinal, map[string]uint64, error) {
	for _, w := range f.workers {
		if err := w.send(workerMsg{Cmd: "stop"}); err != nil {
			return nil, nil, fmt.Errorf("worker %d: %w", w.index, err)
		}
	}
	sent := map[string]uint64{}
	for _, w := range f.workers {
		select {
		case m := <-w.sent:
			for k, v := range m {
				sent[k] += v
			}
		case <-w.done:
			select {
			case m := <-w.sent:
				for k, v := range m {
					sent[k] += v
				}
				continue
			default:
			}
			return nil, nil, fmt.Errorf("worker %d exited: %v", w.index, w.err)
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
	}
	for _, w := range f.workers {
		if err := w.send(workerMsg{Cmd: "judge", Sent: sent, Grace: grace}); err != nil {
			return nil, nil, fmt.Errorf("worker %d: %w", w.index, err)
		}
	}
	finals := make([]WorkerFinal, len(f.workers))
	for i, w := range f.workers {
		select {
		case finals[i] = <-w.final:
		case <-w.done:
			// The final report comes just before a clean exit: both may be
			// ready when we look, and select picks either.
			select {
			case finals[i] = <-w.final:
				continue
			default:
			}
			return nil, nil, fmt.Errorf("worker %d exited: %v", w.index, w.err)
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
	}
	return finals, sent, nil
}

// Close ends the workers: their stdin closes, they close their sockets
// and exit; a worker still running after 30 s is killed.
func (f *Fleet) Close() {
	for _, w := range f.workers {
		w.in.Close()
	}
	for _, w := range f.workers {
		select {
		case <-w.done:
		case <-time.After(30 * time.Second):
			_ = w.cmd.Process.Kill()
			<-w.done
		}
	}
}

// MergeFinals adds up the workers' final reports.
func MergeFinals(finals []WorkerFinal) (steps []*WorkerStep, loss Loss, alive int, closed []string, pushes int64, unacked int64) {
	for _, f := range finals {
		for i, s := range f.Steps {
			for len(steps) <= i {
				steps = append(steps, newWorkerStep(len(steps)))
			}
			steps[i].add(s)
		}
		loss.Streams += f.Loss.Streams
		loss.Sent += f.Loss.Sent
		loss.Received += f.Loss.Received
		loss.Lost += f.Loss.Lost
		loss.Duplicates += f.Loss.Duplicates
		loss.OutOfOrder += f.Loss.OutOfOrder
		loss.Unexpected += f.Loss.Unexpected
		loss.SeqErrors += f.Loss.SeqErrors
		for _, e := range f.Loss.Examples {
			if len(loss.Examples) < maxExamples {
				loss.Examples = append(loss.Examples, e)
			}
		}
		alive += f.Alive
		closed = append(closed, f.Closed...)
		pushes += f.Pushes
		unacked += f.Unacked
	}
	return
}

// logWriter turns a worker's stderr into the coordinator's log lines.
type logWriter struct{ logf func(string, ...any) }

func (l logWriter) Write(p []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		if line != "" {
			l.logf("%s", line)
		}
	}
	return len(p), nil
}
