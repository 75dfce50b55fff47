// Package backends defines the contract every MILP solver backend of schedopt meets:
// one call that takes a whole model and returns a result in one status taxonomy, with
// the objective, the best proven bound, the gap, the node count and the run time.
//
// The rule all backends follow: Status is Optimal only when the solver proved
// optimality within the requested gaps. A time limit, an interrupt or a gap-stop that
// the solver did not certify is never reported as Optimal.
//
// The HiGHS, lp_solve and CBC bindings live in the subpackages highs, lpsolve and
// cbc (registry names them); the conformance suite in backendtest runs the same cases
// against each.
package backends

import (
	"context"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/schedopt/schedopt/model"
)

// Status is the termination reason of a solve.
type Status string

// Termination reasons, common to all backends.
const (
	Optimal               Status = "optimal"                 // proved optimal within the gaps
	Infeasible            Status = "infeasible"              // proved infeasible
	Unbounded             Status = "unbounded"               // proved unbounded
	InfeasibleOrUnbounded Status = "infeasible_or_unbounded" // one of the two, not known which
	TimeLimit             Status = "time_limit"              // stopped by the time limit
	Interrupted           Status = "interrupted"             // stopped by context cancellation
	NumericalError        Status = "numerical_error"         // the solver gave up on numerics
	Other                 Status = "other"                   // any other stop (node limit, solver error)
)

// DefaultRelGap is the relative MIP gap used by DefaultOptions. It is always passed to
// the solvers explicitly: HiGHS's own default is 1e-4, lp_solve's is 1e-11.
const DefaultRelGap = 1e-6

// Options control one solve. The zero value asks for a proof of optimality with zero
// gap, no time limit, the solver's automatic thread count, seed 0 and no log: the
// setting for cross-checks.
type Options struct {
	TimeLimit time.Duration // 0 means none
	RelGap    float64       // relative MIP gap |primal − bound| / max(|primal|, 1e-10)
	AbsGap    float64       // absolute MIP gap
	Threads   int           // 0 means the solver's choice
	Seed      int           // random seed
	Log       io.Writer     // solver log; nil silences the solver
	// Presolve says whether the solver may presolve the model. The certification
	// policy (package certify) re-solves with PresolveOff to confirm claims, because
	// MIP presolve is where the solver bugs it guards against live.
	Presolve Presolve
}

// Presolve selects whether a backend presolves the model.
type Presolve int

// Presolve settings. The zero value keeps the backend's default.
const (
	PresolveAuto Presolve = iota // the backend's default (HiGHS and CBC presolve; lp_solve does not)
	PresolveOff                  // no presolve, no MIP preprocessing
)

// String returns "auto" or "off".
func (p Presolve) String() string {
	if p == PresolveOff {
		return "off"
	}
	return "auto"
}

// DefaultOptions returns the options the command line uses by default: a relative gap
// of DefaultRelGap and nothing else set.
func DefaultOptions() Options { return Options{RelGap: DefaultRelGap} }

// Result is the outcome of a solve.
type Result struct {
	Status      Status
	HasSolution bool          // Values holds a primal solution (feasible per the solver)
	Objective   float64       // objective of Values; NaN without a solution
	Bound       float64       // best proven bound; NaN if unknown
	Gap         float64       // RelativeGap(Objective, Bound); NaN if unknown
	Nodes       int64         // branch-and-bound nodes; 0 for LPs
	Time        time.Duration // wall time spent in the solver
	Values      []float64     // one value per model column when HasSolution
	// RowDuals holds one multiplier per model row for a continuous model solved to
	// optimality, when the backend provides them (HiGHS; nil otherwise). The sign
	// is that of ∂objective/∂rhs: >= 0 on an active ≥ row of a minimisation. Callers
	// that prune with an LP value check it with them (exact/dltbb.DualBound) rather
	// than trust the solver's objective.
	RowDuals []float64
	Solver   string // solver name and version, e.g. "HiGHS 1.10.0"
	Message  string // the solver's own status text, for humans
	// PrimalDualIntegral is the solver's primal-dual integral of a MIP solve (the
	// integral over time of the primal-dual gap, as HiGHS reports it in its info
	// primal_dual_integral); nil when the backend reports none.
	PrimalDualIntegral *float64
}

// Solver is a MILP backend. Solve must be safe to call from several goroutines at
// once; each call uses its own solver instance.
type Solver interface {
	// Name is the backend's command-line name ("highs", "lpsolve").
	Name() string
	// Solve solves m. An error means the solve could not be attempted or the solver
	// failed outright; every definite outcome, infeasibility included, is a Result.
	Solve(ctx context.Context, m *model.Model, opts Options) (Result, error)
}

// RelativeGap returns |primal − bound| / max(|primal|, 1e-10), the definition HiGHS
// uses, or NaN when either value is not finite.
func RelativeGap(primal, bound float64) float64 {
	if math.IsNaN(primal) || math.IsNaN(bound) || math.IsInf(primal, 0) || math.IsInf(bound, 0) {
		return math.NaN()
	}
	return math.Abs(primal-bound) / math.Max(math.Abs(primal), 1e-10)
}

// Validate reports options no backend can honour: negative or NaN gaps, a negative
// time limit or thread count.
func (o Options) Validate() error {
	switch {
	case !(o.RelGap >= 0) || math.IsInf(o.RelGap, 1):
		return fmt.Errorf("backends: relative gap %g: must be finite and >= 0", o.RelGap)
	case !(o.AbsGap >= 0) || math.IsInf(o.AbsGap, 1):
		return fmt.Errorf("backends: absolute gap %g: must be finite and >= 0", o.AbsGap)
	case o.TimeLimit < 0:
		return fmt.Errorf("backends: time limit %v: must be >= 0", o.TimeLimit)
	case o.Threads < 0:
		return fmt.Errorf("backends: threads %d: must be >= 0", o.Threads)
	case o.Presolve != PresolveAuto && o.Presolve != PresolveOff:
		return fmt.Errorf("backends: presolve setting %d: must be PresolveAuto or PresolveOff", o.Presolve)
	}
	return nil
}

// SolveEmpty returns the result for a model without columns, which solvers handle
// inconsistently (HiGHS reports "model empty", lp_solve may refuse it): every row has
// activity 0, so the model is optimal with the objective constant when 0 lies within
// every row's bounds and infeasible otherwise. solver names the backend.
func SolveEmpty(m *model.Model, solver string) Result {
	res := Result{Status: Optimal, HasSolution: true, Objective: m.ObjectiveConstant(),
		Bound: m.ObjectiveConstant(), Gap: 0, Values: []float64{}, Solver: solver,
		Message: "model has no columns"}
	for r := 0; r < m.NumRows(); r++ {
		if lo, hi := m.RowBounds(model.Row(r)); lo > 0 || hi < 0 {
			return Result{Status: Infeasible, Objective: math.NaN(), Bound: math.NaN(), Gap: math.NaN(),
				Solver: solver, Message: "model has no columns and row " + m.RowName(model.Row(r)) + " excludes 0"}
		}
	}
	return res
}

// Precheck makes the checks every backend makes before it touches its solver: the
// options and the model are valid (an error, prefixed with the backend's name), a
// model without columns is answered by SolveEmpty, and a context already done gives
// Interrupted. done reports that res is the answer and the solver must not run.
func Precheck(ctx context.Context, backend, solver string, m *model.Model, opts Options) (res Result, done bool, err error) {
	if err := opts.Validate(); err != nil {
		return Result{}, true, fmt.Errorf("%s: %w", backend, err)
	}
	if err := m.Validate(); err != nil {
		return Result{}, true, fmt.Errorf("%s: %w", backend, err)
	}
	if m.NumVars() == 0 {
		return SolveEmpty(m, solver), true, nil
	}
	if ctx.Err() != nil {
		return Stopped(solver, Interrupted, "context done before the solve started"), true, nil
	}
	return Result{}, false, nil
}

// Stopped is the result of a solve stopped before it found anything: status st, no
// solution, no bound.
func Stopped(solver string, st Status, msg string) Result {
	return Result{Status: st, Objective: math.NaN(), Bound: math.NaN(), Gap: math.NaN(), Solver: solver, Message: msg}
}

// SolveWithoutSemi solves m with solve, which takes no semi-continuous or semi-integer
// columns, through the one reformulation model.WithoutSemi (a binary per column and
// its finite upper bound). The values returned are those of m's columns. Backends
// without native support for the semi kinds call it from Solve.
func SolveWithoutSemi(ctx context.Context, m *model.Model, opts Options, backend string,
	solve func(context.Context, *model.Model, Options) (Result, error)) (Result, error) {
	if m.NumSemi() == 0 {
		return solve(ctx, m, opts)
	}
	r, err := m.WithoutSemi()
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", backend, err)
	}
	res, err := solve(ctx, r, opts)
	if res.Values != nil {
		res.Values = res.Values[:m.NumVars()]
	}
	return res, err
}
