package bench

import (
	"strings"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/domain"
)

// Backend names as the command line and the sweep specs spell them.
const (
	BackendHiGHS   = "highs"
	BackendLPSolve = "lpsolve"
	BackendExact   = "exact"
	// HeuristicPrefix starts the name of a heuristic "backend" in sweeps:
	// "heuristic:gss" runs the heuristic gss of a HeuristicProblem, "heuristic:*" all of them.
	HeuristicPrefix = "heuristic:"
)

// MILPBackends lists the MILP solver backends, default first.
func MILPBackends() []string { return []string{BackendHiGHS, BackendLPSolve} }

// NewSolver returns the MILP backend called name. It is the one place that maps
// backend names to solvers. For "exact" and heuristic names it returns a nil Solver
// and no error: those run without a MILP solver. An unknown name is bad input: a
// *domain.FieldError for the field "backend".
func NewSolver(name string) (backends.Solver, error) {
	switch {
	case name == BackendExact, strings.HasPrefix(name, HeuristicPrefix):
		return nil, nil
	}
	if mk, ok := solverRegistry()[name]; ok {
		return mk(), nil
	}
	return nil, domain.Errorf("backend", "unknown backend %q (one of %s, %s, %s<name>)",
		name, strings.Join(MILPBackends(), ", "), BackendExact, HeuristicPrefix)
}

// CheckBackend reports whether name is a backend NewSolver knows, as a FieldError
// naming field when it is not.
func CheckBackend(field, name string) error {
	if name == BackendExact {
		return nil
	}
	if h, ok := strings.CutPrefix(name, HeuristicPrefix); ok {
		if h == "" {
			return domain.Errorf(field, "heuristic backend %q has no heuristic name (e.g. %sgss, or %s* for all)", name, HeuristicPrefix, HeuristicPrefix)
		}
		return nil
	}
	if _, ok := solverRegistry()[name]; !ok {
		return domain.Errorf(field, "unknown backend %q (one of %s, %s, %s<name>)",
			name, strings.Join(MILPBackends(), ", "), BackendExact, HeuristicPrefix)
	}
	return nil
}

// DefaultThreadsPerJob is the solver thread count of one sweep job: sweeps run one job
// per core, so each solver gets one thread.
const DefaultThreadsPerJob = 1
