package cbc

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"runtime/cgo"
	"strings"
	"sync"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/model"
)

// Solver is the CBC backend. It holds no state, so one Solver may serve any number of
// concurrent solves.
//
// By default (New) every solve runs in a new worker process (process.go, package
// worker): Debian's Clp is built with assertions, and a failed one (seen:
// ClpSimplexDual::dualColumn0 on an LP with free columns) aborts the whole process. In a child it only ends that
// solve, as a NumericalError; the child also makes cancellation a hard stop and lets
// CBC solves run in parallel, which CBC's global state forbids within one process.
type Solver struct {
	inProcess bool
}

// New returns a CBC backend that solves in child processes.
func New() *Solver { return &Solver{} }

// NewInProcess returns a CBC backend that solves in this process, one solve at a time
// (see worker): no process start-up (a few milliseconds per solve), but a failed
// assertion in CBC or Clp ends the program.
func NewInProcess() *Solver { return &Solver{inProcess: true} }

// Name returns "cbc", the backend's command-line name.
func (*Solver) Name() string { return "cbc" }

// PresolvesByDefault reports true: CBC runs Clp's presolve and its own MIP
// preprocessing unless Options.Presolve is PresolveOff, so a re-solve without them
// takes an independent path (the certification policy relies on it).
func (*Solver) PresolvesByDefault() bool { return true }

// Version returns the linked CBC library's version, e.g. "2.10.8".
func Version() string { return version() }

// Reasons recorded in the control block when the watcher stops a run.
const (
	stopContext  = backends.StopContext
	stopDeadline = backends.StopDeadline
)

// cbcThread is the one goroutine that makes every CBC call of the process, locked to its
// OS thread. Solves take turns on it, for two reasons. CbcMain1, which Cbc_solve runs
// for MIPs, reads its command line through global variables (CbcOrClpRead_mode and
// friends) and switches global printing state, and the SIGINT disposition it and Clp
// touch is process-wide, so CBC solves must not overlap. And glibc gives every OS
// thread that allocates its own malloc arena: CBC calls made from whichever thread a
// goroutine happens to run on spread CBC's memory over up to 8 arenas per core, and the
// process's resident size grows with them (measured: from 17 MB to 112 MB over 4,000
// small solves, against a level 47 MB with the worker). The unbuffered channel is also
// the queue: a solve waiting for its turn still honours its context and deadline.
var (
	workerOnce sync.Once
	work       chan func()
)

func cbcThread() chan<- func() {
	workerOnce.Do(func() {
		work = make(chan func())
		go func() {
			runtime.LockOSThread()
			for f := range work {
				f()
			}
		}()
	})
	return work
}

// infinite is the magnitude from which CBC's bounds mean "none" (COIN_DBL_MAX and
// the ±1e50 CBC uses before it has a bound).
const infinite = 1e30

// Solve solves m with CBC. See the package documentation for the rules it follows.
// CBC's C interface has no semi-continuous type, so semi-continuous and semi-integer
// columns are solved through model.WithoutSemi (a binary per column and its finite
// upper bound), before the model is sent to the worker; the values returned are those
// of m's columns.
func (s *Solver) Solve(ctx context.Context, m *model.Model, opts backends.Options) (backends.Result, error) {
	return backends.SolveWithoutSemi(ctx, m, opts, "cbc", s.solve)
}

// solve is Solve for a model without semi columns: the checks every solve makes, then
// the solve in a child process or in this one.
func (s *Solver) solve(ctx context.Context, m *model.Model, opts backends.Options) (backends.Result, error) {
	begin := time.Now()
	name := "CBC " + version()
	if res, done, err := backends.Precheck(ctx, "cbc", name, m, opts); done {
		return res, err
	}
	if s.inProcess {
		return solveInProcess(ctx, begin, name, m, opts)
	}
	return solveInChild(ctx, name, m, opts)
}

// solveInProcess solves m with CBC in this process, on the CBC worker thread; solve has
// checked m and opts.
func solveInProcess(ctx context.Context, begin time.Time, name string, m *model.Model, opts backends.Options) (backends.Result, error) {
	mip := m.NumIntegers() > 0
	var startIdx []int32
	var startVal []float64
	if mip {
		startIdx, startVal = sparseStart(m)
	}
	var logHandle uintptr
	if opts.Log != nil {
		h := cgo.NewHandle(opts.Log)
		defer h.Delete()
		logHandle = uintptr(h)
	}

	// Wait for the CBC worker within the solve's own limits.
	var deadline <-chan time.Time
	if opts.TimeLimit > 0 {
		t := time.NewTimer(opts.TimeLimit - time.Since(begin))
		defer t.Stop()
		deadline = t.C
	}
	var r run
	done := make(chan struct{})
	select {
	case cbcThread() <- func() { r = runCBC(ctx, begin, m, opts, logHandle, startIdx, startVal); close(done) }:
	case <-ctx.Done():
		return backends.Stopped(name, backends.Interrupted, "context done while waiting for another CBC solve"), nil
	case <-deadline:
		return backends.Stopped(name, backends.TimeLimit, "time limit reached while waiting for another CBC solve"), nil
	}
	<-done
	if r.err != nil {
		return backends.Result{}, r.err
	}

	o := r.outcome
	res := backends.Result{Objective: math.NaN(), Bound: math.NaN(), Gap: math.NaN(), Solver: name}
	res.Status, res.Message = mapStatus(o)
	constant := m.ObjectiveConstant()
	var notes []string
	if r.values != nil {
		res.HasSolution, res.Values, res.Objective = true, r.values, r.objective+constant
		if o.reason != 0 {
			// A stop may have cut short an LP of CBC's postprocessing, which maps the
			// incumbent back to the original columns: keep only a verified point.
			if rep, err := m.Verify(res.Values); err != nil || !rep.Feasible() {
				res.HasSolution, res.Values, res.Objective = false, nil, math.NaN()
				notes = append(notes, "incumbent lost: the stop cut CBC's postprocessing short")
			}
		}
	}
	in := o.info
	switch {
	case !mip:
		if res.Status == backends.Optimal && res.HasSolution {
			res.Bound = res.Objective // an LP optimum is its own bound
		}
	case res.Status == backends.Infeasible || math.Abs(in.bound) >= infinite:
		// No bound.
	case o.reason != 0 && o.lpStopped:
		// The bound may come from an LP the stop cut short.
	case res.Status != backends.Optimal && in.hasSolution && in.bound == in.objective:
		// CBC reports min(bound, incumbent): a bound equal to the incumbent of an
		// unfinished search means it had none.
	default:
		res.Bound = in.bound + constant
	}
	if res.HasSolution {
		res.Gap = backends.RelativeGap(res.Objective, res.Bound)
	}
	if res.Status == backends.Optimal && !res.HasSolution {
		// Never report a proof without the solution it is about.
		res.Status = backends.Other
		res.Message += " (optimal status without a solution)"
	}
	if mip {
		res.Nodes = int64(o.info.nodes)
	}
	res.Time = time.Since(begin)
	if len(notes) > 0 {
		res.Message += " (" + strings.Join(notes, "; ") + ")"
	}
	return res, nil
}

// run is what runCBC hands back to Solve.
type run struct {
	outcome
	values    []float64 // nil without a solution
	objective float64   // CBC's objective of values, without the model's constant
	err       error
}

// runCBC makes all CBC calls of one solve, on the worker's thread: it creates the
// Cbc_Model, loads m, sets the options and the MIP start, runs CBC under the watcher,
// copies out what Solve needs and deletes the model and the control block. Every C
// allocation is freed before it returns.
func runCBC(ctx context.Context, begin time.Time, m *model.Model, opts backends.Options,
	logHandle uintptr, startIdx []int32, startVal []float64) (r run) {
	ctl := newCtl(logHandle)
	if ctl == nil {
		r.err = fmt.Errorf("cbc: cannot allocate the control block")
		return r
	}
	// Deferred before the model exists, so that it runs after Cbc_deleteModel and after
	// the watcher has exited (see below): the model holds ctl's handlers.
	defer freeCtl(ctl)
	cm, err := newModel()
	if err != nil {
		r.err = err
		return r
	}
	defer cm.delete()
	if r.err = loadModel(cm, m); r.err != nil {
		return r
	}
	seconds, ctxFirst := cbcSeconds(ctx, begin, opts.TimeLimit)
	presolveOff := opts.Presolve == backends.PresolveOff
	cm.params(opts.RelGap, opts.AbsGap, seconds, threads(opts.Threads), seed(opts.Seed), opts.Log != nil, presolveOff)
	if len(startIdx) > 0 {
		cm.setStart(startIdx, startVal)
	}

	// The watcher turns context cancellation and the wall-clock deadline into the stop
	// flag the event handlers of shim.cpp poll.
	endWatch := backends.Watch(ctx, begin, opts.TimeLimit, func(reason int) { stopCtl(ctl, reason) })
	defer endWatch()
	if r.err = cm.run(ctl, presolveOff); r.err != nil {
		return r
	}
	endWatch()

	mip := m.NumIntegers() > 0
	r.outcome = outcome{mip: mip, reason: ctlReason(ctl), lpStopped: lpStopped(ctl), ctxFirst: ctxFirst}
	if mip {
		r.info = cm.mipInfo()
		r.objective = r.info.objective
	} else {
		r.lpStatus, r.lpPrimalFeasible = cm.lpStatus()
		r.objective = cm.objective()
	}
	if r.hasSolution() {
		r.values = make([]float64, m.NumVars())
		if !cm.values(mip, r.values) {
			r.err = fmt.Errorf("cbc: CBC reports a solution but returns no values")
		}
	}
	return r
}

// loadModel passes m to CBC in one call (see schedopt_cbc_load); only the integrality
// vector is built here, because the model stores kinds.
func loadModel(cm *cbcModel, m *model.Model) error {
	cols, rows := m.Columns(), m.Rows()
	isint := make([]uint8, m.NumVars())
	for j, k := range cols.Kind {
		if k.IsInteger() {
			isint[j] = 1
		}
	}
	return cm.load(m.NumVars(), m.NumRows(), rows.Start, rows.Index, rows.Value, rows.Lower, rows.Upper,
		cols.Lower, cols.Upper, cols.Cost, isint, float64(m.Sense()))
}

// cbcSeconds returns CBC's own time limit for a solve that began at begin: what is
// left of limit or of ctx's deadline, whichever ends first (0 for none), and whether
// it is the context's deadline, so that CBC stopping on it is reported as an
// interruption. The watcher enforces both as well; CBC's own check also fires in
// phases the event handlers do not reach (heuristics, cut generation).
func cbcSeconds(ctx context.Context, begin time.Time, limit time.Duration) (float64, bool) {
	end, ctxFirst := time.Time{}, false
	if limit > 0 {
		end = begin.Add(limit)
	}
	if d, ok := ctx.Deadline(); ok && (end.IsZero() || d.Before(end)) {
		end, ctxFirst = d, true
	}
	if end.IsZero() {
		return 0, false
	}
	// CBC treats 0 as "no time at all" but a negative value as none: keep it positive.
	return math.Max(time.Until(end).Seconds(), 1e-3), ctxFirst
}

// threads maps Options.Threads to CBC's threads parameter: 0 and 1 run CBC's serial
// code (its default); n ≥ 2 asks for n threads in CBC's deterministic mode, 100+n.
func threads(n int) int {
	if n < 2 {
		return 0
	}
	return n
}

// seed maps Options.Seed to CBC's seeds: 0 keeps CBC's fixed default seeds (CBC would
// read 0 as "seed from the time of day"); other values are folded into 1..2^31−1.
func seed(s int) int {
	if s == 0 {
		return 0
	}
	v := int(uint64(s) % (1<<31 - 1))
	if v == 0 {
		v = 1
	}
	return v
}

// sparseStart returns the set entries of m's MIP start.
func sparseStart(m *model.Model) ([]int32, []float64) {
	var idx []int32
	var val []float64
	for j, v := range m.Start() {
		if !math.IsNaN(v) {
			idx = append(idx, int32(j))
			val = append(val, v)
		}
	}
	return idx, val
}

// outcome is what a run left behind, as far as the status mapping needs it.
type outcome struct {
	mip       bool
	reason    int  // the watcher's stop reason, 0 if it did not fire
	lpStopped bool // the stop cut an LP short
	ctxFirst  bool // CBC's own time limit was the context's deadline
	// MIPs (CbcMain1).
	info mipInfo
	// LPs (Clp, called directly by Cbc_solve).
	lpStatus         int
	lpPrimalFeasible bool
}

// Clp statuses (ClpModel::status).
const (
	lpOptimal        = 0
	lpInfeasible     = 1
	lpDualInfeasible = 2
	lpLimit          = 3
	lpErrors         = 4
	lpEvent          = 5
)

// Cbc_status values.
const (
	cbcBeforeSearch = -1
	cbcFinished     = 0
	cbcStopped      = 1
	cbcAbandoned    = 2
	cbcUserEvent    = 5
)

// Cbc_secondaryStatus values.
const (
	secUnbounded = 7
	secTime      = 4
)

var secondaryText = map[int]string{
	-1: "unset", 0: "search completed", 1: "linear relaxation infeasible", 2: "stopped on gap",
	3: "stopped on node limit", 4: "stopped on time limit", 5: "stopped on user event",
	6: "stopped on solution limit", 7: "linear relaxation unbounded", 8: "stopped on iteration limit",
}

var lpText = map[int]string{
	lpOptimal: "optimal", lpInfeasible: "primal infeasible", lpDualInfeasible: "dual infeasible",
	lpLimit: "stopped on a limit", lpErrors: "stopped on errors", lpEvent: "stopped by event",
}

// hasSolution reports whether the run left a feasible point: CBC's best solution for
// a MIP, Clp's optimum for an LP (the point of an unfinished simplex is not
// feasible, and Clp reports a finished optimum as such even after a late stop).
func (o outcome) hasSolution() bool {
	if o.mip {
		return o.info.hasSolution
	}
	return o.lpStatus == lpOptimal
}

// mapStatus maps a run's outcome to the common taxonomy and a message for humans. A
// MIP run the watcher stopped keeps no proof, whatever CBC claims afterwards: the stop
// ends LPs early, and CBC may read an unfinished node LP as an infeasible node. An LP
// keeps Clp's final status, which a stop can only turn into "stopped by event".
func mapStatus(o outcome) (backends.Status, string) {
	stoppedBy := func() (backends.Status, string, bool) {
		switch o.reason {
		case stopDeadline:
			return backends.TimeLimit, "time limit reached", true
		case stopContext:
			return backends.Interrupted, "interrupted: context done", true
		}
		return "", "", false
	}
	if !o.mip {
		text := "Clp: " + textOf(lpText, o.lpStatus, "status")
		switch o.lpStatus {
		case lpOptimal:
			return backends.Optimal, text
		case lpInfeasible:
			return backends.Infeasible, text
		case lpDualInfeasible:
			// Dual infeasible: unbounded if Clp holds a primal feasible point,
			// otherwise infeasible or unbounded.
			if o.lpPrimalFeasible {
				return backends.Unbounded, text
			}
			return backends.InfeasibleOrUnbounded, text
		case lpErrors:
			return backends.NumericalError, text
		}
		if st, msg, ok := stoppedBy(); ok {
			return st, msg
		}
		return backends.Other, text
	}
	if st, msg, ok := stoppedBy(); ok {
		return st, msg
	}
	in := o.info
	text := fmt.Sprintf("Cbc status %d: %s", in.status, textOf(secondaryText, in.secondary, "secondary status"))
	switch {
	case in.abandoned || in.status == cbcAbandoned:
		return backends.NumericalError, text
	case in.optimal && in.hasSolution:
		return backends.Optimal, text
	case in.continuousUnbounded || in.secondary == secUnbounded:
		// The relaxation is unbounded: with a feasible point the MIP is unbounded,
		// without one it may be either.
		if in.hasSolution {
			return backends.Unbounded, text
		}
		return backends.InfeasibleOrUnbounded, text
	case in.infeasible && !in.hasSolution:
		return backends.Infeasible, text
	case in.timeHit || in.secondary == secTime:
		if o.ctxFirst {
			return backends.Interrupted, text
		}
		return backends.TimeLimit, text
	}
	return backends.Other, text
}

func textOf(m map[int]string, k int, what string) string {
	if s, ok := m[k]; ok {
		return s
	}
	return fmt.Sprintf("%s %d", what, k)
}

// SolvesInChildProcess reports true: every solve runs in a child process
// (process.go), which costs a process start; certify.Isolated asks such a backend
// last for the cheap looks of its policy.
func (*Solver) SolvesInChildProcess() bool { return true }
