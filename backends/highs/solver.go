package highs

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"runtime/cgo"
	"strconv"
	"strings"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/model"
)

// Solver is the HiGHS backend. The zero value is ready to use; it holds no state, so
// one Solver may serve any number of concurrent solves.
type Solver struct{}

// New returns a HiGHS backend.
func New() *Solver { return &Solver{} }

// Name returns "highs", the backend's command-line name.
func (*Solver) Name() string { return "highs" }

// PresolvesByDefault reports true: HiGHS presolves unless Options.Presolve is
// PresolveOff, so a re-solve without presolve takes an independent path (the
// certification policy relies on it).
func (*Solver) PresolvesByDefault() bool { return true }

// Version returns the linked HiGHS library's version, e.g. "1.10.0".
func Version() string { return version() }

// Reasons recorded in the control block when the watcher stops a run.
const (
	stopContext  = backends.StopContext
	stopDeadline = backends.StopDeadline
)

// Solve solves m with HiGHS. See the package documentation for the rules it follows.
func (s *Solver) Solve(ctx context.Context, m *model.Model, opts backends.Options) (backends.Result, error) {
	begin := time.Now()
	name := "HiGHS " + version()
	if res, done, err := backends.Precheck(ctx, "highs", name, m, opts); done {
		return res, err
	}

	var logHandle uintptr
	if opts.Log != nil {
		h := cgo.NewHandle(opts.Log)
		defer h.Delete()
		logHandle = uintptr(h)
	}
	ctl := newCtl(logHandle)
	if ctl == nil {
		return backends.Result{}, fmt.Errorf("highs: cannot allocate the control block")
	}
	// Deferred first, so that it runs last: after the watcher has exited (see below),
	// Highs_destroy and the scheduler reset, since HiGHS holds ctl as callback data.
	defer freeCtl(ctl)
	// HiGHS 1.10 keeps its task scheduler in thread-local storage of the OS thread that
	// calls Highs_run. Pin the goroutine so that the scheduler created by this run is
	// the one disposed of below, on the same thread; every solve then gets exactly the
	// thread count it asks for and no scheduler outlives its solve.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer resetScheduler()

	in, err := newInstance()
	if err != nil {
		return backends.Result{}, err
	}
	defer in.destroy()

	// The callbacks go in first so that the log, header included, reaches the writer
	// and never the process's stdout.
	mip := m.IsMIP()
	if st := in.install(ctl, mip); st != statusOK {
		return backends.Result{}, fmt.Errorf("highs: cannot install the callbacks (status %d)", st)
	}
	timeLimit := math.Inf(1)
	if opts.TimeLimit > 0 {
		timeLimit = opts.TimeLimit.Seconds()
	}
	if err := in.setOptions(opts.RelGap, opts.AbsGap, timeLimit, opts.Seed, opts.Threads, opts.Log != nil); err != nil {
		return backends.Result{}, err
	}
	if opts.Presolve == backends.PresolveOff {
		if err := in.setPresolve(false); err != nil {
			return backends.Result{}, err
		}
	}

	var notes []string
	if st := passModel(in, m, mip); st == statusError {
		return backends.Result{}, fmt.Errorf("highs: model %q rejected by Highs_passMip", m.Name)
	} else if st == statusWarning {
		notes = append(notes, "model passed with warnings")
	}
	if mip {
		if idx, val := sparseStart(m); len(idx) > 0 {
			if st := in.setStart(idx, val); st == statusError {
				notes = append(notes, "MIP start rejected")
			}
		}
	}

	// The watcher turns context cancellation and the wall-clock deadline into a
	// user interrupt. HiGHS's own time_limit is also set, but it is not a hard stop.
	endWatch := backends.Watch(ctx, begin, opts.TimeLimit, func(reason int) { stopCtl(ctl, reason) })
	defer endWatch()
	st := in.run()
	if ms := in.modelStatus(); st == statusError && ctlReason(ctl) == 0 &&
		(ms == modelPresolveError || ms == modelSolveError || ms == modelPostsolveError) {
		// HiGHS caught an inconsistency of its own, typically a presolve bug that makes
		// the MIP solver claim optimality for an infeasible point (HiGHS issues 2325,
		// 2995; 6x+10y+15z=7 in the conformance suite). Run once more from scratch
		// without presolve; HiGHS.jl's retry after Highs_clearSolver (issue 2759)
		// is subsumed.
		notes = append(notes, modelStatusName(ms)+" with presolve; re-run with presolve off")
		in.clearSolver()
		if err := in.setPresolve(false); err != nil {
			return backends.Result{}, err
		}
		st = in.run()
	}
	endWatch()

	ms := in.modelStatus()
	res := backends.Result{
		Status:    mapStatus(ms, ctlReason(ctl)),
		Objective: math.NaN(),
		Bound:     math.NaN(),
		Gap:       math.NaN(),
		Solver:    name,
		Message:   modelStatusName(ms),
	}
	if ms == modelInterrupt {
		// The watcher's interrupt: say which limit it enforced rather than HiGHS's
		// "interrupted by user".
		switch ctlReason(ctl) {
		case stopDeadline:
			res.Message = "time limit reached"
		case stopContext:
			res.Message = "interrupted: context done"
		}
	}
	if st == statusError {
		switch ms {
		case modelNotset, modelLoadError, modelModelError:
			return backends.Result{}, fmt.Errorf("highs: run failed with model status %q", modelStatusName(ms))
		}
		notes = append(notes, "Highs_run returned an error")
	}
	info := in.info()
	if info.primalStatus == solutionStatusFeasible {
		res.HasSolution = true
		res.Values = make([]float64, m.NumVars())
		if !mip && res.Status == backends.Optimal && m.NumRows() > 0 {
			res.RowDuals = make([]float64, m.NumRows())
		}
		if in.solution(res.Values, res.RowDuals) == statusError {
			return backends.Result{}, fmt.Errorf("highs: Highs_getSolution failed")
		}
		res.Objective = info.objective
	}
	switch {
	case mip && finite(info.dualBound) && res.Status != backends.Infeasible:
		res.Bound = info.dualBound
	case !mip && res.Status == backends.Optimal && res.HasSolution:
		res.Bound = res.Objective
	}
	if res.HasSolution {
		res.Gap = backends.RelativeGap(res.Objective, res.Bound)
	}
	if mip && finite(info.pdi) {
		pdi := info.pdi
		res.PrimalDualIntegral = &pdi
	}
	if res.Status == backends.Optimal && !res.HasSolution {
		// Never report a proof without the solution it is about.
		res.Status = backends.Other
		notes = append(notes, "optimal status without a feasible primal solution")
	}
	if mip && info.nodes > 0 {
		res.Nodes = info.nodes
	}
	res.Time = time.Since(begin)
	if len(notes) > 0 {
		res.Message += " (" + strings.Join(notes, "; ") + ")"
	}
	return res, nil
}

// passModel passes m's arrays to HiGHS without copying them; only the integrality
// vector is built here because the model stores kinds, not HiGHS variable types.
// Semi-continuous and semi-integer columns are HiGHS's own types (x = 0 or
// lo <= x <= hi), so they need no reformulation.
func passModel(in *instance, m *model.Model, mip bool) int {
	cols, rows := m.Columns(), m.Rows()
	var integrality []int32
	if mip {
		integrality = make([]int32, len(cols.Kind))
		for j, k := range cols.Kind {
			switch {
			case k == model.SemiContinuous:
				integrality[j] = varTypeSemiContinuous
			case k == model.SemiInteger:
				integrality[j] = varTypeSemiInteger
			case k.IsInteger():
				integrality[j] = varTypeInteger
			}
		}
	}
	return in.pass(m.NumVars(), m.NumRows(), m.NumNonzeros(), int(m.Sense()), m.ObjectiveConstant(),
		cols.Cost, cols.Lower, cols.Upper, rows.Lower, rows.Upper, rows.Start, rows.Index, rows.Value, integrality)
}

// sparseStart returns the set entries of m's MIP start.
func sparseStart(m *model.Model) ([]int32, []float64) {
	start := m.Start()
	var idx []int32
	var val []float64
	for j, v := range start {
		if !math.IsNaN(v) {
			idx = append(idx, int32(j))
			val = append(val, v)
		}
	}
	return idx, val
}

// mapStatus maps a HiGHS model status to the common taxonomy. reason is the
// watcher's stop reason: an interrupt the deadline caused is a time limit.
func mapStatus(ms, reason int) backends.Status {
	switch ms {
	case modelOptimal:
		return backends.Optimal
	case modelInfeasible:
		return backends.Infeasible
	case modelUnboundedOrInfeasible:
		return backends.InfeasibleOrUnbounded
	case modelUnbounded:
		return backends.Unbounded
	case modelTimeLimit:
		return backends.TimeLimit
	case modelInterrupt:
		if reason == stopDeadline {
			return backends.TimeLimit
		}
		return backends.Interrupted
	case modelPresolveError, modelSolveError, modelPostsolveError:
		return backends.NumericalError
	}
	return backends.Other
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func itoa(i int) string { return strconv.Itoa(i) }
