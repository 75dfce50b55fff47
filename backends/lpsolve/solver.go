package lpsolve

import (
	"context"
	"fmt"
	"math"
	"runtime/cgo"
	"strings"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/model"
)

// lp_solve solve() return codes (lp_lib.h).
const (
	codeNoMemory      = -2
	codeOptimal       = 0
	codeSubOptimal    = 1
	codeInfeasible    = 2
	codeUnbounded     = 3
	codeDegenerate    = 4
	codeNumFailure    = 5
	codeUserAbort     = 6
	codeTimeout       = 7
	codePresolved     = 9
	codeAccuracyError = 25
)

// lp_solve verbosity levels (lp_lib.h NEUTRAL and NORMAL).
const (
	verboseNeutral = 0
	verboseNormal  = 4
)

// Reasons recorded in the control block when the watcher stops a run.
const (
	stopContext  = backends.StopContext
	stopDeadline = backends.StopDeadline
)

// tightenRuns is how many times a MIP is solved again with a tighter lp_solve
// relative gap when the proof does not hold the requested relative gap (see solve).
const tightenRuns = 2

// minRelGapShare guards the tightened gap: below this share of the requested
// relative gap (|z| close to 0), lp_solve is asked for a gap of 0 instead.
const minRelGapShare = 1e-3

// Solver is the lp_solve backend. The zero value is ready to use; it holds no state,
// so one Solver may serve any number of concurrent solves.
type Solver struct{}

// New returns an lp_solve backend.
func New() *Solver { return &Solver{} }

// Name returns "lpsolve", the backend's command-line name.
func (*Solver) Name() string { return "lpsolve" }

// Version returns the linked lp_solve library's version, e.g. "5.5.2.5".
func Version() string { return version() }

// Solve solves m with lp_solve. See the package documentation for the rules it
// follows. Semi-continuous and semi-integer columns are solved through
// model.WithoutSemi (a binary per column and its finite upper bound); lp_solve's own
// set_semicont is not used yet. The values returned are those of m's columns.
func (s *Solver) Solve(ctx context.Context, m *model.Model, opts backends.Options) (backends.Result, error) {
	return backends.SolveWithoutSemi(ctx, m, opts, "lpsolve", s.solve)
}

// solve is Solve for a model without semi columns.
func (s *Solver) solve(ctx context.Context, m *model.Model, opts backends.Options) (backends.Result, error) {
	begin := time.Now()
	name := "lp_solve " + version()
	if res, done, err := backends.Precheck(ctx, "lpsolve", name, m, opts); done {
		return res, err
	}

	var logHandle uintptr
	verbose := verboseNeutral
	if opts.Log != nil {
		h := cgo.NewHandle(opts.Log)
		defer h.Delete()
		logHandle = uintptr(h)
		verbose = verboseNormal
	}
	ctl := newCtl(logHandle)
	if ctl == nil {
		return backends.Result{}, fmt.Errorf("lpsolve: cannot allocate the control block")
	}
	// Deferred before any lprec exists, so that it runs after every delete_lp and
	// after the watcher has exited (see below): the lprecs hold ctl as callback data.
	defer freeCtl(ctl)

	l, err := load(m)
	if err != nil {
		return backends.Result{}, err
	}
	defer l.delete()
	l.setName(m.Name)

	var timeout int64
	if opts.TimeLimit > 0 {
		// Whole seconds, rounded up: the watcher below enforces the exact deadline.
		timeout = int64(math.Ceil(opts.TimeLimit.Seconds()))
	}
	if err := l.params(ctl, opts.RelGap, opts.AbsGap, timeout, verbose, false); err != nil {
		return backends.Result{}, err
	}

	endWatch := backends.Watch(ctx, begin, opts.TimeLimit, func(reason int) { stopCtl(ctl, reason) })
	defer endWatch()
	code := l.solve()
	var notes []string
	confirmDepth := 0 // deepest level of a re-solve that confirmed infeasibility
	if code == codeInfeasible && ctlReason(ctl) == 0 {
		// lp_solve's default scaling has produced false infeasibility claims on
		// feasible models (seen on dlt-single with m = 1). An infeasibility is only
		// reported when a re-solve with different scaling confirms it.
		// The re-solve uses a fresh lprec: re-solving one after branch and bound is
		// not reliable in lp_solve 5.5.
		l2, err := load(m)
		if err != nil {
			return backends.Result{}, err
		}
		defer l2.delete()
		if err := l2.params(ctl, opts.RelGap, opts.AbsGap, timeout, verbose, true); err != nil {
			return backends.Result{}, err
		}
		if second := l2.solve(); second != codeInfeasible {
			notes = append(notes, fmt.Sprintf("first run claimed infeasibility; the re-solve with geometric scaling ended with %q", l2.statusText(second)))
			code, l = second, l2
		} else {
			// The confirmation counts only if it, too, searched below the depth limit.
			confirmDepth = l2.maxLevel()
		}
	}
	// lp_solve prunes within max(abs, rel·(1+|z|)) of the incumbent z: below |z| = 1
	// its relative gap acts as an absolute one (a 0.25 optimum "within 1e-6" was
	// 5e-6 away in relative terms). schedopt's relative gap is |z−b|/|z|, so when the
	// proof is looser than max(AbsGap, RelGap·|z|), the model is solved again with
	// the relative gap lp_solve needs for that, rel·|z|/(1+|z|), on a fresh lprec; at
	// most tightenRuns times, as each run may end at another z.
	relGap := opts.RelGap
	if m.NumIntegers() > 0 {
		for run := 0; run < tightenRuns && code == codeOptimal && ctlReason(ctl) == 0; run++ {
			z := l.objective()
			want := math.Max(opts.AbsGap, opts.RelGap*math.Abs(z+m.ObjectiveConstant()))
			if math.Max(opts.AbsGap, relGap*(1+math.Abs(z))) <= want {
				break
			}
			relGap = (1 - 1e-6) * want / (1 + math.Abs(z)) // a hair inside, against rounding
			if relGap < opts.RelGap*minRelGapShare {
				relGap = 0 // |z| near 0: prove the optimum outright
			}
			l3, err := load(m)
			if err != nil {
				return backends.Result{}, err
			}
			defer l3.delete()
			if err := l3.params(ctl, relGap, opts.AbsGap, timeout, verbose, false); err != nil {
				return backends.Result{}, err
			}
			second := l3.solve()
			notes = append(notes, fmt.Sprintf("solved again at lp_solve relative gap %.3g so that the proof holds the relative gap %g at |z| = %.3g", relGap, opts.RelGap, math.Abs(z)))
			code, l = second, l3
		}
	}
	endWatch()
	reason := ctlReason(ctl)

	if code == codeNoMemory {
		return backends.Result{}, fmt.Errorf("lpsolve: out of memory solving %q", m.Name)
	}
	mip := m.NumIntegers() > 0
	res := backends.Result{
		Status:    mapStatus(code, reason),
		Objective: math.NaN(),
		Bound:     math.NaN(),
		Gap:       math.NaN(),
		Solver:    name,
		Message:   l.statusText(code),
	}
	if code == codeOptimal || code == codeSubOptimal && (!mip || l.solutionCount() > 0) {
		res.Values = make([]float64, m.NumVars())
		if !l.variables(res.Values) {
			return backends.Result{}, fmt.Errorf("lpsolve: get_variables failed")
		}
		res.HasSolution = true
		res.Objective = l.objective() + m.ObjectiveConstant()
	}
	if res.HasSolution && atInfinity(res.Objective-m.ObjectiveConstant(), res.Values) {
		// lp_solve ends unbounded MILPs "optimal" at its infinity: an objective or a
		// value at or beyond 1e30 is an unboundedness claim, never an optimum.
		notes = append(notes, fmt.Sprintf("%s with objective %g at lp_solve's infinity: reported as unbounded", l.statusText(code), res.Objective))
		res.Status = backends.Unbounded
		res.HasSolution, res.Values, res.Objective = false, nil, math.NaN()
		code = codeUnbounded
	}
	if code == codeSubOptimal && reason == 0 {
		if opts.TimeLimit > 0 && time.Since(begin) >= opts.TimeLimit {
			res.Status = backends.TimeLimit // lp_solve's own whole-second timeout fired
		}
	}
	if res.Status == backends.Optimal {
		// lp_solve reports no dual bound. A proof with zero gaps makes the objective
		// the bound; with gaps, lp_solve prunes nodes within max(abs, rel·(1+|z|)) of
		// the incumbent z (its own relative-difference formula), which bounds how far
		// the true optimum can be.
		// An LP optimum involves no pruning: its objective is the bound.
		slack := 0.0
		if mip {
			slack = math.Max(opts.AbsGap, relGap*(1+math.Abs(res.Objective-m.ObjectiveConstant())))
		}
		res.Bound = res.Objective - float64(m.Sense())*slack
	}
	if mip && stepUsed(ctl, l) && (res.Status == backends.Optimal || res.Status == backends.Infeasible) {
		notes = append(notes, "no proof: lp_solve's inferred objective step may have pruned the optimum")
		res.Status = backends.Other
		res.Bound = math.NaN()
	}
	if mip {
		res.Nodes = l.nodes()
		if max(l.maxLevel(), confirmDepth) >= depthLimit(m) && (res.Status == backends.Optimal || res.Status == backends.Infeasible) {
			notes = append(notes, fmt.Sprintf("no proof: branch and bound reached lp_solve's depth limit %d", depthLimit(m)))
			res.Status = backends.Other
			res.Bound, res.Gap = math.NaN(), math.NaN()
		}
	}
	if start := m.Start(); start != nil {
		notes = append(notes, useStart(m, start, &res)...)
	}
	if res.HasSolution {
		res.Gap = backends.RelativeGap(res.Objective, res.Bound)
	}
	res.Time = time.Since(begin)
	if len(notes) > 0 {
		res.Message += " (" + strings.Join(notes, "; ") + ")"
	}
	return res, nil
}

// load builds the lprec for m.
func load(m *model.Model) (*lp, error) {
	cols, rows := m.Columns(), m.Rows()
	isint := make([]uint8, m.NumVars())
	for j, k := range cols.Kind {
		if k.IsInteger() {
			isint[j] = 1
		}
	}
	l, step, where := build(m.NumVars(), m.NumRows(), rows.Start, rows.Index, rows.Value,
		rows.Lower, rows.Upper, cols.Lower, cols.Upper, cols.Cost, isint, m.Sense() == model.Maximize)
	if l != nil {
		return l, nil
	}
	what := ""
	switch {
	case where < 0:
	case step == "add_columnex" || step == "set_bounds" || step == "set_int":
		what = " at column " + m.VarName(model.Var(where))
	default:
		what = " at row " + m.RowName(model.Row(where))
	}
	return nil, fmt.Errorf("lpsolve: model %q: %s failed%s", m.Name, step, what)
}

// startBeatsBoundTol is the relative margin by which a verified MIP start must beat a
// claimed optimum's bound to refute it. A start accepted within the verifier's
// feasibility tolerance can beat a true optimum by about 1e-6 relative (measured: 1.2e-6
// on a dlt-multi model with rows violated by 6.8e-7), so the margin is well above
// that; the false optima seen from lp_solve were off by 1e-3 and more.
const startBeatsBoundTol = 1e-4

// useStart applies the MIP start the only way lp_solve 5.5 allows (it has no MIP
// start API): a complete start that model.Verify finds feasible replaces a missing or
// worse incumbent. A feasible start also contradicts an infeasibility claim, which is
// then reported as a numerical error. It returns notes for Result.Message.
func useStart(m *model.Model, start []float64, res *backends.Result) []string {
	for _, v := range start {
		if math.IsNaN(v) {
			return []string{"partial MIP start ignored: lp_solve has no MIP start"}
		}
	}
	rep, err := m.Verify(start)
	if err != nil || !rep.Feasible() {
		return []string{"infeasible MIP start ignored"}
	}
	sign := float64(m.Sense())
	switch {
	case res.Status == backends.Infeasible:
		res.Status = backends.NumericalError
		res.Values, res.HasSolution, res.Objective = append([]float64(nil), start...), true, rep.Objective
		return []string{"lp_solve claims infeasibility but the MIP start is feasible"}
	case res.Status == backends.Optimal && math.IsNaN(res.Bound):
		// No proof to hold the start against (the solve's status was set without a
		// bound); keep lp_solve's optimum.
	case res.Status == backends.Optimal &&
		sign*(res.Bound-rep.Objective) > startBeatsBoundTol*math.Max(1, math.Abs(res.Bound)):
		// A feasible point beyond the bound refutes lp_solve's optimality proof.
		res.Status = backends.NumericalError
		res.Values, res.HasSolution, res.Objective = append([]float64(nil), start...), true, rep.Objective
		res.Bound = math.NaN()
		return []string{"lp_solve claims optimality but the MIP start is better than its bound"}
	case !res.HasSolution && res.Status != backends.Unbounded && res.Status != backends.InfeasibleOrUnbounded,
		res.HasSolution && sign*rep.Objective < sign*res.Objective && res.Status != backends.Optimal:
		res.Values, res.HasSolution, res.Objective = append([]float64(nil), start...), true, rep.Objective
		return []string{"MIP start kept as the incumbent"}
	}
	return nil
}

// mapStatus maps an lp_solve solve() code to the common taxonomy. reason is the
// watcher's stop reason: an abort the deadline caused is a time limit.
func mapStatus(code, reason int) backends.Status {
	switch code {
	case codeOptimal:
		return backends.Optimal
	case codeInfeasible:
		return backends.Infeasible
	case codeUnbounded:
		return backends.Unbounded
	case codeTimeout:
		return backends.TimeLimit
	case codeSubOptimal, codeUserAbort:
		switch reason {
		case stopDeadline:
			return backends.TimeLimit
		case stopContext:
			return backends.Interrupted
		}
		return backends.Other
	case codeDegenerate, codeNumFailure, codeAccuracyError:
		return backends.NumericalError
	}
	return backends.Other
}

// lpInfinity is the infinity schedopt sets in lp_solve (set_infinite); lp_solve
// treats any magnitude at or beyond it as infinite.
const lpInfinity = 1e30

// atInfinity reports whether an objective or a column value lies at or beyond
// lp_solve's infinity, which lp_solve reports as an "optimal" value on unbounded
// models.
func atInfinity(obj float64, values []float64) bool {
	if math.Abs(obj) >= lpInfinity {
		return true
	}
	for _, v := range values {
		if math.Abs(v) >= lpInfinity {
			return true
		}
	}
	return false
}

// depthLimit returns the branch-and-bound depth beyond which lp_solve, with the
// relative limit −50 set in schedopt_lp_params, drops nodes: 2·50·(integer columns).
func depthLimit(m *model.Model) int { return 100 * m.NumIntegers() }
