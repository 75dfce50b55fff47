// Package worker runs a backend's solves in child processes that can be stopped.
//
// A solver library that does not watch its clock or its interrupt callback in every
// phase (HiGHS 1.10 in sub-MIPs, lp_solve and CBC in places) cannot be stopped inside
// the process that called it: a goroutine can be abandoned, but its thread goes on
// using a core until the library returns, if it ever does. A process can be killed.
// A Pool keeps worker processes, copies of the running program started with an
// environment variable that makes them serve solves instead of running main (see
// ServeIfWorker), and sends each solve to an idle one over a pipe. A worker is reused
// for the next solve, so the process start (tens of milliseconds for a program that
// links several solver libraries) is paid once per concurrent solve, not per solve.
// A solve whose context ends, or that runs past its time limit, is asked to stop
// (SIGTERM, which cancels it inside the worker) and the worker is killed when it has
// not answered within StopGrace; a worker that dies (a failed assertion in the
// library) ends its solve as a NumericalError naming the cause. Nothing a Pool starts
// outlives it: Close kills the idle workers, and a worker whose parent is gone exits.
package worker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"syscall"
	"time"

	"encoding/gob"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/model"
)

// Request is what a parent sends a worker: the model as flat arrays (names are not
// needed by a solver) and the options. The log writer cannot cross a process
// boundary: Log says whether the worker writes the solver's log to its standard
// error, which the parent passes on to the solve's writer.
type Request struct {
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
}

// Response is what a worker sends back: the result, or the error of the solve.
type Response struct {
	Result backends.Result
	Err    string
}

// NewRequest flattens m and opts into a request.
func NewRequest(m *model.Model, opts backends.Options) Request {
	cols, rows := m.Columns(), m.Rows()
	return Request{Name: m.Name, Sense: m.Sense(), ObjConst: m.ObjectiveConstant(),
		Lower: cols.Lower, Upper: cols.Upper, Cost: cols.Cost, Kind: cols.Kind,
		RowStart: rows.Start, RowIndex: rows.Index, RowValue: rows.Value, RowLower: rows.Lower, RowUpper: rows.Upper,
		Start: m.Start(), TimeLimit: opts.TimeLimit, RelGap: opts.RelGap, AbsGap: opts.AbsGap,
		Threads: opts.Threads, Seed: opts.Seed, Presolve: opts.Presolve, Log: opts.Log != nil}
}

// Model rebuilds the model of a request.
func (q *Request) Model() (*model.Model, error) {
	m := model.New(q.Name)
	n, r := len(q.Lower), len(q.RowLower)
	if len(q.Upper) != n || len(q.Cost) != n || len(q.Kind) != n || len(q.RowUpper) != r || len(q.RowStart) != r+1 && r > 0 {
		return nil, errors.New("worker: malformed request")
	}
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

// Options returns the request's options; the log, when asked for, goes to logTo.
func (q *Request) Options(logTo io.Writer) backends.Options {
	o := backends.Options{TimeLimit: q.TimeLimit, RelGap: q.RelGap, AbsGap: q.AbsGap, Threads: q.Threads,
		Seed: q.Seed, Presolve: q.Presolve}
	if q.Log {
		o.Log = logTo
	}
	return o
}

// SolveFunc solves one model in the worker's process.
type SolveFunc func(ctx context.Context, m *model.Model, opts backends.Options) (backends.Result, error)

// ServeIfWorker makes the running program a worker when the environment variable
// env is "1": it serves requests (Serve) on standard input and file descriptor 3 and
// exits, never returning. Call it from the init function of the package that owns
// solve, so that every program linking that package, test binaries included, can be
// its own worker, with no second program to install.
func ServeIfWorker(env string, solve SolveFunc) {
	if os.Getenv(env) != "1" {
		return
	}
	code := 0
	if err := Serve(os.Stdin, os.NewFile(3, "response"), solve); err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		code = 1
	}
	os.Exit(code)
}

// Serve answers requests read from in with solve, one at a time, writing one
// response per request to out, until in ends (the parent closed it, or is gone).
// SIGTERM and SIGINT cancel the solve in progress; the worker answers it and ends.
// A worker whose parent process has gone (it was re-parented) ends as well, so that
// a solve that never returns cannot outlive the program that asked for it.
func Serve(in io.Reader, out io.WriteCloser, solve SolveFunc) error {
	defer out.Close()
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	go watchParent(os.Getppid())
	dec, enc := gob.NewDecoder(in), gob.NewEncoder(out)
	for {
		var q Request
		if err := dec.Decode(&q); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("read request: %w", err)
		}
		resp := serveOne(ctx, &q, solve)
		if err := enc.Encode(&resp); err != nil {
			return fmt.Errorf("write response: %w", err)
		}
		if ctx.Err() != nil {
			return nil // stopped: this worker is not reused
		}
	}
}

func serveOne(ctx context.Context, q *Request, solve SolveFunc) Response {
	if os.Getenv(stuckEnv) == "1" {
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT)
		select {} // the tests' stand-in for a library that never returns
	}
	if os.Getenv(abortEnv) == "1" {
		os.Exit(134) // the tests' stand-in for a failed assertion
	}
	if os.Getenv(unguardedEnv) == "1" {
		// The tests' stand-in for a worker stopped before its signal handler is
		// installed (a fresh process on a loaded machine): SIGTERM ends it unanswered.
		signal.Reset(syscall.SIGTERM, syscall.SIGINT)
		select {}
	}
	m, err := q.Model()
	if err != nil {
		return Response{Err: err.Error()}
	}
	res, err := solve(ctx, m, q.Options(os.Stderr))
	if err != nil {
		return Response{Err: err.Error()}
	}
	return Response{Result: res}
}

// Test hooks: a worker started with one of these set misbehaves on its first
// request (never returns and ignores SIGTERM, dies, or never returns and dies of
// SIGTERM).
const (
	stuckEnv     = "SCHEDOPT_WORKER_TEST_STUCK"
	abortEnv     = "SCHEDOPT_WORKER_TEST_ABORT"
	unguardedEnv = "SCHEDOPT_WORKER_TEST_UNGUARDED"
)

// watchParent ends the worker when its parent process is gone.
func watchParent(parent int) {
	for range time.Tick(200 * time.Millisecond) {
		if os.Getppid() != parent {
			os.Exit(1)
		}
	}
}
