package solve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/certify"
	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/model"
)

// AgreeTol is the relative tolerance, on top of the requested MIP gaps, within which a
// backend's objective agrees with an exact algorithm's optimum.
const AgreeTol = 1e-6

// ErrNoExact is returned by an ExactFunc for instances without a complete exact
// algorithm.
var ErrNoExact = errors.New("no exact algorithm for this instance")

// Formulated is a model built from an instance together with its decoder.
type Formulated struct {
	Model *model.Model
	// Decode turns solver values (one per column) into the spec's solution object and
	// runs the domain evaluator on it. It must not trust the model: the evaluator
	// recomputes the objective from the instance.
	Decode func(values []float64) (solution any, check EvaluatorCheck, err error)
}

// Outcome is what an exact algorithm returns.
type Outcome struct {
	Algorithm string
	Optimal   bool    // the algorithm proved optimality (false for bounds or partial searches)
	Feasible  bool    // false when the algorithm proved the instance infeasible
	Objective float64 // the optimum (or best value found)
	Solution  any     // the spec's solution object; nil when infeasible
	Check     EvaluatorCheck
}

// ExactFunc runs a kind's exact algorithm; it returns ErrNoExact when there is none
// for the instance.
type ExactFunc func(ctx context.Context) (*Outcome, error)

// Request says how to solve.
type Request struct {
	Backend string           // a MILP backend name (see NewSolver) or Exact
	Solver  backends.Solver  // the backend itself; nil for Exact
	Options backends.Options // time limit, gaps, threads, seed, log
	NoCheck bool             // skip the exact cross-check (the evaluator always runs)
	Log     io.Writer        // progress for humans; nil for none
	// Start, when it holds one value per column of the formulated model, is given to
	// the model as a MIP start (model.SetStart); other lengths are ignored. Trade-off
	// sweeps pass the previous solve's Result.Values here.
	Start []float64
	// Policy is the certification policy every backend solve goes through
	// (certify.Solve); the zero value is the default policy.
	Policy certify.Policy
}

// Certified solves m with req's backend through the certification policy req.Policy.
// It is the one place where schedopt calls a MILP backend; kinds that run several
// solves per answer call it for each of them.
func Certified(ctx context.Context, m *model.Model, req Request, opts backends.Options) (certify.Result, error) {
	if req.Solver == nil {
		return certify.Result{}, fmt.Errorf("no solver for backend %q", req.Backend)
	}
	if err := m.CheckMagnitudes(); err != nil {
		// Valid fields whose combination no solver can take (HiGHS refused such
		// models, lp_solve and CBC answered them wrongly): the input is at fault.
		return certify.Result{}, domain.Errorf("", "the instance's values are too far apart in scale for a solver: %v; change its units (see \"Ranges and limits\" in docs/spec.md)",
			strings.TrimPrefix(err.Error(), model.ErrOutOfScale.Error()+": "))
	}
	return certify.Solve(ctx, req.Solver, m, opts, req.Policy)
}

// SolveModel is the common path of a kind whose answer is one model: build it with
// formulate, solve it with req's backend under the certification policy, check the
// solution against the model, decode it, run the domain evaluator, and cross-check the
// objective with exact (which may be nil). With req.Backend == Exact it runs exact
// alone. kind and name label the result.
func SolveModel(ctx context.Context, kind, name string, formulate func() (*Formulated, error), req Request, exact ExactFunc) (*Result, error) {
	res := &Result{Kind: kind, Name: name, Backend: req.Backend}
	if req.Backend == Exact {
		return solveExact(ctx, res, exact)
	}
	if req.Solver == nil {
		return nil, fmt.Errorf("%s: no solver for backend %q", name, req.Backend)
	}
	t0 := time.Now()
	f, err := formulate()
	if err != nil {
		return nil, fmt.Errorf("%s: formulate: %w", name, err)
	}
	if err := f.Model.Validate(); err != nil {
		return nil, fmt.Errorf("%s: formulate: %w", name, err)
	}
	res.Seconds.Build = time.Since(t0).Seconds()
	res.Model = Stats(f.Model)
	if len(req.Start) > 0 && len(req.Start) == f.Model.NumVars() {
		for j, v := range req.Start {
			f.Model.SetStart(model.Var(j), v)
		}
	}
	cert, err := Certified(ctx, f.Model, req, req.Options)
	if err != nil {
		return nil, fmt.Errorf("%s: solve with %s: %w", name, req.Backend, err)
	}
	raw := cert.Result
	res.Certificate = &cert.Certificate
	res.Seconds.Solve = raw.Time.Seconds()
	if err := fillFromRaw(res, f, raw, req.Options); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if !req.NoCheck && exact != nil {
		crossCheck(ctx, res, exact, f.Model.Sense(), req.Options)
	}
	return res, nil
}

// Stats returns the size of m as the result reports it.
func Stats(m *model.Model) ModelStats {
	return ModelStats{Variables: m.NumVars(), Integers: m.NumIntegers(), Rows: m.NumRows(), Nonzeros: m.NumNonzeros()}
}

// fillFromRaw maps a backend result to the spec's status, objective, bound and gap,
// verifies the solution against the model and decodes it.
func fillFromRaw(res *Result, f *Formulated, raw backends.Result, opts backends.Options) error {
	res.Solver = raw.Solver
	res.Nodes = raw.Nodes
	res.Message = raw.Message
	res.Status = MapStatus(raw, f.Model)
	if raw.Status == backends.Unbounded && res.Status == StatusError {
		res.Message += " (unboundedness claimed on a model whose columns are all bounded)"
	}
	if finite(raw.Bound) {
		res.Bound = Ptr(raw.Bound)
	}
	if !raw.HasSolution {
		return nil
	}
	rep, err := f.Model.Verify(raw.Values)
	if err != nil {
		return fmt.Errorf("verify solution: %w", err)
	}
	if !rep.Feasible() {
		// The solver's point violates the model: never report it as a solution.
		res.Status = StatusError
		res.Message = "solver returned a point that violates the model: " + rep.Worst
		return nil
	}
	res.Objective = Ptr(rep.Objective)
	res.Values = raw.Values
	if finite(raw.Bound) {
		res.Gap = Ptr(backends.RelativeGap(rep.Objective, raw.Bound))
	}
	if res.Status == StatusOptimal && !ProvenWithin(rep.Objective, raw.Bound, opts) {
		// The proof is the bound: an objective recomputed from the point that is
		// further from it than the requested gaps allow is not proven optimal.
		res.Status = StatusFeasible
		res.Message += fmt.Sprintf(" (not optimal: the verified objective %g is not within the requested gaps of the bound %g)", rep.Objective, raw.Bound)
	}
	sol, check, err := f.Decode(raw.Values)
	if err != nil {
		return fmt.Errorf("decode solution: %w", err)
	}
	res.Solution = sol
	res.Check.Evaluator = &check
	if !check.OK {
		res.Status = StatusError
		res.Message = "the evaluator rejected the decoded schedule: " + check.Message
	}
	return nil
}

// MapStatus maps a backend's termination reason to the spec's status. It reports
// "optimal" only when the backend did. InfeasibleOrUnbounded becomes "infeasible" only
// when every column of m has finite bounds, so the model cannot be unbounded; for the
// same reason an unboundedness claim on such a model is an error.
func MapStatus(raw backends.Result, m *model.Model) string {
	switch raw.Status {
	case backends.Optimal:
		if raw.HasSolution {
			return StatusOptimal
		}
		return StatusError
	case backends.Infeasible:
		return StatusInfeasible
	case backends.Unbounded:
		if allBounded(m) {
			return StatusError // a model whose columns are all bounded cannot be unbounded
		}
		return StatusUnbounded
	case backends.InfeasibleOrUnbounded:
		if allBounded(m) {
			return StatusInfeasible
		}
		return StatusError
	}
	if raw.Status == backends.Interrupted {
		return StatusInterrupted
	}
	if raw.HasSolution {
		return StatusFeasible
	}
	if raw.Status == backends.TimeLimit {
		return StatusTimeLimit
	}
	return StatusError
}

// ProvenWithin reports whether obj lies within the requested gaps plus AgreeTol of the
// bound, on either side (an objective beating the bound by more shows the bound is
// wrong). A backend that claims optimality without a finite bound is taken at its
// word: MapStatus has already required its claim and a solution.
func ProvenWithin(obj, bound float64, opts backends.Options) bool {
	if math.IsNaN(bound) || math.IsInf(bound, 0) {
		return true
	}
	scale := math.Max(math.Abs(obj), math.Abs(bound))
	// RelGap·(1+scale) covers lp_solve's relative-difference formula as well as HiGHS's.
	tol := math.Max(opts.AbsGap, opts.RelGap*(1+scale)) + AgreeTol*math.Max(1, scale)
	return math.Abs(obj-bound) <= tol
}

func allBounded(m *model.Model) bool {
	c := m.Columns()
	for j := range c.Lower {
		if math.IsInf(c.Lower[j], 0) || math.IsInf(c.Upper[j], 0) {
			return false
		}
	}
	return true
}

func solveExact(ctx context.Context, res *Result, exact ExactFunc) (*Result, error) {
	if exact == nil {
		return nil, fmt.Errorf("%s: %w (kind %s)", res.Name, ErrNoExact, res.Kind)
	}
	t0 := time.Now()
	out, err := exact(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: exact: %w", res.Name, err)
	}
	res.Seconds.Solve = time.Since(t0).Seconds()
	res.Solver = out.Algorithm
	switch {
	case !out.Feasible:
		res.Status = StatusInfeasible
		return res, nil
	case out.Optimal:
		res.Status = StatusOptimal
		res.Bound = Ptr(out.Objective)
		res.Gap = Ptr(0)
	default:
		res.Status = StatusFeasible
	}
	res.Objective = Ptr(out.Objective)
	res.Solution = out.Solution
	check := out.Check
	res.Check.Evaluator = &check
	if !check.OK {
		res.Status = StatusError
		res.Message = "the evaluator rejected the exact algorithm's schedule: " + check.Message
	}
	return res, nil
}

// crossCheck runs the exact algorithm and records whether it agrees with res.
func crossCheck(ctx context.Context, res *Result, exact ExactFunc, sense model.Sense, opts backends.Options) {
	out, err := exact(ctx)
	if errors.Is(err, ErrNoExact) {
		return
	}
	if err != nil {
		res.Check.Exact = &ExactCheck{Algorithm: "error", Message: err.Error()}
		return
	}
	ec := &ExactCheck{Algorithm: out.Algorithm, Agree: Agree(res, out, sense, opts)}
	if out.Feasible {
		ec.Objective = Ptr(out.Objective)
	}
	res.Check.Exact = ec
}

// Agree reports whether a backend's result is consistent with an exact outcome: an
// optimal result must match the optimum within the requested gaps plus AgreeTol, a
// feasible one must not beat it, and an infeasible one must match an infeasible exact
// outcome.
func Agree(res *Result, out *Outcome, sense model.Sense, opts backends.Options) bool {
	if !out.Feasible {
		// Proven infeasible: only a claimed solution or optimum contradicts it; a run
		// that stopped without one makes no claim.
		return res.Status == StatusInfeasible || res.Objective == nil && res.Status != StatusOptimal
	}
	if res.Status == StatusInfeasible {
		return false
	}
	if res.Objective == nil {
		return true // no claim to check (time limit without a solution)
	}
	obj, ex := *res.Objective, out.Objective
	tol := math.Max(opts.AbsGap, opts.RelGap*math.Abs(ex)) + AgreeTol*math.Max(1, math.Abs(ex))
	better := (ex - obj) * float64(sense) // > 0 when obj beats the exact optimum
	if better > tol && out.Optimal {
		return false
	}
	if res.Status == StatusOptimal && out.Optimal {
		return math.Abs(obj-ex) <= tol
	}
	return true
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
