package bench

import (
	"context"
	"errors"
	"io"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/model"
)

// ErrNoExact is returned by Problem.Exact for instances without a complete exact
// algorithm.
var ErrNoExact = errors.New("no exact algorithm for this instance")

// Problem is one loaded and validated instance of some kind. The kind adapters
// (kind_*.go) implement it on top of the domain, formulation, exact and heuristic
// packages.
type Problem interface {
	// Kind is the instance's "kind" field, for example "dlt-multi".
	Kind() string
	// Name is the instance's "name" field, or the file's base name without extension.
	Name() string
	// Formulate builds the MILP and the decoder of its solutions. Kinds whose
	// objective needs several solves (Pareto fronts) return the first model and solve
	// through Solve instead.
	Formulate() (*Formulated, error)
	// Solve solves the instance with req's backend. Most kinds delegate to
	// SolveFormulated; kinds with several solves per answer implement their own loop.
	Solve(ctx context.Context, req SolveRequest) (*Result, error)
}

// HeuristicProblem is a Problem with named heuristics (for sweeps that compare them
// with optima).
type HeuristicProblem interface {
	Problem
	// Heuristics lists the heuristic names this instance supports.
	Heuristics() []string
	// RunHeuristic runs one heuristic; the Result has Backend set to the heuristic's
	// name, status "feasible" and an evaluator check. A heuristic never claims
	// infeasibility: when it finds no valid schedule the status is "error" and the
	// message starts with NoScheduleMessage.
	RunHeuristic(ctx context.Context, name string) (*Result, error)
}

// NoScheduleMessage starts the message of a heuristic result that found no valid
// schedule, which proves nothing about the instance.
const NoScheduleMessage = "no valid schedule found (not a proof of infeasibility): "

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

// SolveRequest says how to solve.
type SolveRequest struct {
	Backend string           // "highs", "lpsolve" or "exact"
	Solver  backends.Solver  // the backend itself; nil for "exact"
	Options backends.Options // time limit, gaps, threads, seed, log
	NoCheck bool             // skip the exact cross-check (the evaluator always runs)
	Log     io.Writer        // progress for humans; nil for none
	// Start, when it holds one value per column of the formulated model, is given to
	// the model as a MIP start (model.SetStart); other lengths are ignored. Trade-off
	// sweeps pass the previous solve's Result.Values here.
	Start []float64
}
