package cbc

// #include <stdlib.h>
import "C"

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
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/model"
)

// workerEnv marks a process started by solveInChild: the package's init serves one
// solve and exits before main runs. Every binary that links this package (schedopt,
// and the test binaries) can therefore be its own CBC worker, with no second program
// to install.
const workerEnv = "SCHEDOPT_CBC_WORKER"

// Grace periods of a child solve: after a cancellation the child is asked to stop
// (SIGTERM, which its watcher turns into CBC's stop flag) and killed if it has not
// answered within stopGrace; a child still running killGrace past its time limit is
// killed as well.
const (
	stopGrace = 500 * time.Millisecond
	killGrace = 2 * time.Second
)

// stderrTail is how much of a child's standard error is kept for the message of a
// solve that ends without an answer (the assertion text, typically).
const stderrTail = 2048

func init() {
	if os.Getenv(workerEnv) != "1" {
		return
	}
	code := 0
	if err := serve(os.Stdin, os.NewFile(3, "response")); err != nil {
		fmt.Fprintln(os.Stderr, "cbc worker:", err)
		code = 1
	}
	os.Exit(code)
}

// request is what the parent sends a child: the model as flat arrays (names are not
// needed by CBC) and the options.
type request struct {
	Name                         string
	Sense                        model.Sense
	ObjConst                     float64
	Lower, Upper, Cost           []float64
	Kind                         []model.Kind
	RowStart, RowIndex           []int32
	RowValue, RowLower, RowUpper []float64
	Start                        []float64

	TimeLimit      time.Duration
	RelGap, AbsGap float64
	Threads, Seed  int
	Presolve       backends.Presolve
	Log            bool
	abortForTest   bool // unexported: never sent; see serveRequest
}

// response is what a child sends back.
type response struct {
	Result backends.Result
	Err    string
}

func newRequest(m *model.Model, opts backends.Options) request {
	cols, rows := m.Columns(), m.Rows()
	return request{Name: m.Name, Sense: m.Sense(), ObjConst: m.ObjectiveConstant(),
		Lower: cols.Lower, Upper: cols.Upper, Cost: cols.Cost, Kind: cols.Kind,
		RowStart: rows.Start, RowIndex: rows.Index, RowValue: rows.Value, RowLower: rows.Lower, RowUpper: rows.Upper,
		Start: m.Start(), TimeLimit: opts.TimeLimit, RelGap: opts.RelGap, AbsGap: opts.AbsGap,
		Threads: opts.Threads, Seed: opts.Seed, Presolve: opts.Presolve, Log: opts.Log != nil}
}

// model rebuilds the model of a request.
func (q *request) model() (*model.Model, error) {
	m := model.New(q.Name)
	n, r := len(q.Lower), len(q.RowLower)
	m.Grow(n, r, len(q.RowIndex))
	obj := model.Expr{Constant: q.ObjConst}
	for j := range n {
		v := m.AddVar(q.Kind[j], q.Lower[j], q.Upper[j], "")
		if q.Cost[j] != 0 {
			obj.Add(v, q.Cost[j])
		}
	}
	m.SetObjective(q.Sense, obj)
	var e model.Expr
	for i := range r {
		e.Reset()
		for k := q.RowStart[i]; k < q.RowStart[i+1]; k++ {
			e.Add(model.Var(q.RowIndex[k]), q.RowValue[k])
		}
		m.AddRange(e, q.RowLower[i], q.RowUpper[i], "")
	}
	for j, v := range q.Start {
		if !math.IsNaN(v) {
			m.SetStart(model.Var(j), v)
		}
	}
	return m, m.Validate()
}

// serve runs in a child: it reads one request, solves it in this process (SIGTERM
// and SIGINT stop the solve as a cancellation), and writes the response to out.
func serve(in io.Reader, out io.WriteCloser) error {
	defer out.Close()
	var q request
	if err := gob.NewDecoder(in).Decode(&q); err != nil {
		return fmt.Errorf("read request: %w", err)
	}
	if os.Getenv(workerEnv+"_ABORT") == "1" {
		C.abort() // the tests' stand-in for a failed assertion in CBC or Clp
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	resp := serveRequest(ctx, &q)
	return gob.NewEncoder(out).Encode(resp)
}

func serveRequest(ctx context.Context, q *request) response {
	m, err := q.model()
	if err != nil {
		return response{Err: err.Error()}
	}
	opts := backends.Options{TimeLimit: q.TimeLimit, RelGap: q.RelGap, AbsGap: q.AbsGap, Threads: q.Threads,
		Seed: q.Seed, Presolve: q.Presolve}
	if q.Log {
		opts.Log = os.Stderr
	}
	res, err := NewInProcess().Solve(ctx, m, opts)
	if err != nil {
		return response{Err: err.Error()}
	}
	return response{Result: res}
}

// runChild solves the request in a child process (a copy of this program, see
// workerEnv): it starts the child, sends q, and waits for its answer, the context or
// the hard deadline. A child that dies without an answer (an assertion in CBC or Clp)
// ends the solve as a NumericalError naming the cause; a cancelled context stops the
// child within stopGrace, keeping the incumbent it reports; nothing outlives the call.
func runChild(ctx context.Context, begin time.Time, name string, q request, log io.Writer) (backends.Result, error) {
	exe, err := os.Executable()
	if err != nil {
		return backends.Result{}, fmt.Errorf("cbc: find the program to start a worker: %w", err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		return backends.Result{}, fmt.Errorf("cbc: pipe: %w", err)
	}
	defer respR.Close()
	var payload bytes.Buffer
	if err := gob.NewEncoder(&payload).Encode(&q); err != nil {
		respW.Close()
		return backends.Result{}, fmt.Errorf("cbc: encode request: %w", err)
	}
	tail := &tailWriter{max: stderrTail, next: log}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), workerEnv+"=1")
	cmd.Stdin = &payload
	cmd.Stdout = nil // CBC's stray prints go nowhere; the answer comes on fd 3
	cmd.Stderr = tail
	cmd.ExtraFiles = []*os.File{respW}
	if q.abortForTest {
		cmd.Env = append(cmd.Env, workerEnv+"_ABORT=1")
	}
	if err := cmd.Start(); err != nil {
		respW.Close()
		return backends.Result{}, fmt.Errorf("cbc: start a worker: %w", err)
	}
	respW.Close()

	answer := make(chan response, 1)
	go func() {
		var resp response
		if err := gob.NewDecoder(respR).Decode(&resp); err != nil {
			resp.Err = "no answer"
		}
		answer <- resp
	}()
	var hard <-chan time.Time
	if q.TimeLimit > 0 {
		t := time.NewTimer(q.TimeLimit - time.Since(begin) + killGrace)
		defer t.Stop()
		hard = t.C
	}
	stopAndWait := func(st backends.Status, msg string) (backends.Result, error) {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case resp := <-answer:
			_ = cmd.Wait()
			return finish(resp, name, tail)
		case <-time.After(stopGrace):
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return backends.Stopped(name, st, msg), nil
		}
	}
	select {
	case resp := <-answer:
		_ = cmd.Wait()
		return finish(resp, name, tail)
	case <-ctx.Done():
		return stopAndWait(backends.Interrupted, "interrupted: context done (worker killed)")
	case <-hard:
		return stopAndWait(backends.TimeLimit, "time limit reached (worker killed)")
	}
}

// finish turns a child's response into the result.
func finish(resp response, name string, tail *tailWriter) (backends.Result, error) {
	switch {
	case resp.Err == "no answer":
		return backends.Result{Status: backends.NumericalError, Objective: math.NaN(), Bound: math.NaN(), Gap: math.NaN(),
			Solver: name, Message: "CBC worker died without an answer: " + tail.String()}, nil
	case resp.Err != "":
		return backends.Result{}, errors.New(resp.Err)
	}
	return resp.Result, nil
}

// tailWriter keeps the last max bytes written to it and passes everything on to next
// (the solve's log writer), when set.
type tailWriter struct {
	mu   sync.Mutex
	max  int
	buf  []byte
	next io.Writer
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if len(w.buf) > w.max {
		w.buf = append([]byte(nil), w.buf[len(w.buf)-w.max:]...)
	}
	if w.next != nil {
		_, _ = w.next.Write(p)
	}
	return len(p), nil
}

// String returns the kept bytes, trimmed, on one line.
func (w *tailWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	s := bytes.TrimSpace(w.buf)
	if len(s) == 0 {
		return "(no output)"
	}
	return string(bytes.ReplaceAll(s, []byte("\n"), []byte(" | ")))
}
