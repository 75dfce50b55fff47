package worker

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/model"
)

// StopGrace is how long a worker asked to stop (its solve's context ended, or its
// time limit passed by KillGrace) has to answer before it is killed.
const StopGrace = 300 * time.Millisecond

// KillGrace is how long past its time limit a solve may run before its worker is
// asked to stop: the solver's own clock should have stopped it well before.
const KillGrace = 500 * time.Millisecond

// stderrTail is how much of a worker's standard error is kept for the message of a
// solve that ends without an answer (the assertion text, typically).
const stderrTail = 2048

// maxIdle is how many idle workers a pool keeps; more are ended when they finish.
const maxIdle = 8

// Pool starts and reuses worker processes for one backend. The zero value is not
// usable: set Env (and Name). A Pool is safe for concurrent use; each solve has a
// worker to itself.
type Pool struct {
	// Env is the environment variable that makes the program a worker (the one its
	// ServeIfWorker call checks).
	Env string
	// Name is the solver's name in results that the pool makes itself (a killed or
	// dead worker), e.g. "HiGHS 1.10.0".
	Name string
	// Fresh gives every solve a new worker, which ends after it: for a library whose
	// state one solve may leave behind for the next (CBC).
	Fresh bool
	// extraEnv is added to the environment of new workers (tests).
	extraEnv []string

	mu     sync.Mutex
	idle   []*proc
	closed bool
}

// proc is one worker process.
type proc struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	resp  *os.File
	enc   *gob.Encoder
	dec   *gob.Decoder
	errs  *tail // its standard error: kept, and passed on to the current solve's log
}

// Solve solves m in a worker and returns what the worker's solver returned. A solve
// whose context ends is asked to stop and returns within StopGrace with the solver's
// answer, or as Interrupted without a point; one that runs KillGrace past its time
// limit is stopped the same way and ends as TimeLimit. A worker that dies ends the
// solve as a NumericalError whose message names the cause.
func (p *Pool) Solve(ctx context.Context, m *model.Model, opts backends.Options) (backends.Result, error) {
	begin := time.Now()
	w, err := p.get()
	if err != nil {
		return backends.Result{}, err
	}
	q := NewRequest(m, opts)
	w.errs.setLog(opts.Log)
	if err := w.enc.Encode(&q); err != nil {
		w.kill()
		return p.died(w, fmt.Sprintf("cannot send the request (%v)", err)), nil
	}
	answer := make(chan Response, 1)
	go func() {
		var r Response
		if err := w.dec.Decode(&r); err != nil {
			r.Err = errNoAnswer
		}
		answer <- r
	}()
	var hard <-chan time.Time
	if opts.TimeLimit > 0 {
		t := time.NewTimer(opts.TimeLimit - time.Since(begin) + KillGrace)
		defer t.Stop()
		hard = t.C
	}
	select {
	case r := <-answer:
		return p.finish(w, r, true)
	case <-ctx.Done():
		return p.stop(w, answer, backends.Interrupted, "interrupted: context done (worker stopped)")
	case <-hard:
		return p.stop(w, answer, backends.TimeLimit, fmt.Sprintf("time limit reached; the solver overran it by %v (worker stopped)", KillGrace))
	}
}

const errNoAnswer = "\x00no answer"

// stop asks w to stop, waits StopGrace for its answer and kills it otherwise. The
// worker is not reused either way.
func (p *Pool) stop(w *proc, answer <-chan Response, st backends.Status, why string) (backends.Result, error) {
	_ = w.cmd.Process.Signal(syscall.SIGTERM)
	t := time.NewTimer(StopGrace)
	defer t.Stop()
	select {
	case r := <-answer:
		w.kill()
		switch r.Err {
		case "":
			return r.Result, nil
		case errNoAnswer:
			// It ended on the signal without answering (a worker started just before,
			// on a loaded machine, may not have its handler yet): stopped all the
			// same, as asked. (The CBC conformance suite's cancellation saw it as a
			// numerical error under load 8.)
			return backends.Stopped(p.Name, st, why), nil
		}
		return p.finish(w, r, false)
	case <-t.C:
		w.kill()
		return backends.Stopped(p.Name, st, why), nil
	}
}

// finish turns a worker's response into the result and returns the worker to the
// pool when reuse is set and it answered.
func (p *Pool) finish(w *proc, r Response, reuse bool) (backends.Result, error) {
	w.errs.setLog(nil)
	switch {
	case r.Err == errNoAnswer:
		w.kill()
		return p.died(w, "the worker died without an answer"), nil
	case r.Err != "":
		p.put(w, reuse)
		return backends.Result{}, errors.New(r.Err)
	}
	p.put(w, reuse)
	return r.Result, nil
}

// died is the result of a solve whose worker is gone.
func (p *Pool) died(w *proc, why string) backends.Result {
	return backends.Result{Status: backends.NumericalError, Objective: math.NaN(), Bound: math.NaN(), Gap: math.NaN(),
		Solver: p.Name, Message: why + ": " + w.errs.String()}
}

// get returns an idle worker, or starts one.
func (p *Pool) get() (*proc, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errors.New("worker: pool closed")
	}
	if n := len(p.idle); n > 0 {
		w := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return w, nil
	}
	p.mu.Unlock()
	return p.start()
}

// put returns w to the idle workers, or ends it.
func (p *Pool) put(w *proc, reuse bool) {
	p.mu.Lock()
	if reuse && !p.Fresh && !p.closed && len(p.idle) < maxIdle {
		p.idle = append(p.idle, w)
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	w.end()
}

// start starts a worker: a copy of this program with Env set.
func (p *Pool) start() (*proc, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("worker: find the program to start a worker: %w", err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("worker: pipe: %w", err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(append(os.Environ(), p.Env+"=1"), p.extraEnv...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		respR.Close()
		respW.Close()
		return nil, fmt.Errorf("worker: stdin pipe: %w", err)
	}
	errs := &tail{max: stderrTail}
	cmd.Stdout = nil // a library's stray prints go nowhere; answers come on fd 3
	cmd.Stderr = errs
	cmd.ExtraFiles = []*os.File{respW}
	if err := cmd.Start(); err != nil {
		respR.Close()
		respW.Close()
		return nil, fmt.Errorf("worker: start %s: %w", exe, err)
	}
	respW.Close()
	return &proc{cmd: cmd, stdin: stdin, resp: respR, enc: gob.NewEncoder(stdin), dec: gob.NewDecoder(respR), errs: errs}, nil
}

// end closes an idle worker's input, on which it exits, and reaps it.
func (w *proc) end() {
	_ = w.stdin.Close()
	go func() {
		_ = w.cmd.Wait()
		_ = w.resp.Close()
	}()
}

// kill kills the worker and reaps it.
func (w *proc) kill() {
	_ = w.cmd.Process.Kill()
	_ = w.stdin.Close()
	_ = w.cmd.Wait()
	_ = w.resp.Close()
}

// Close ends the pool's idle workers; a solve still running keeps its worker until
// it returns, which then ends. Solves after Close fail.
func (p *Pool) Close() error {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	for _, w := range idle {
		w.end()
	}
	return nil
}

// tail keeps the last max bytes written to it and passes everything on to the
// current solve's log writer, when it has one.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
	log io.Writer
}

func (t *tail) setLog(w io.Writer) {
	t.mu.Lock()
	t.log = w
	t.mu.Unlock()
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	if t.log != nil {
		_, _ = t.log.Write(b)
	}
	return len(b), nil
}

// String returns the kept bytes, trimmed, on one line.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := bytes.TrimSpace(t.buf)
	if len(s) == 0 {
		return "(no output)"
	}
	return string(bytes.ReplaceAll(s, []byte("\n"), []byte(" | ")))
}
