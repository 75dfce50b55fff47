package bench

import (
	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/highs"
	"github.com/schedopt/schedopt/backends/lpsolve"
)

// solverRegistry maps the MILP backend names to their constructors.
func solverRegistry() map[string]func() backends.Solver {
	return map[string]func() backends.Solver{
		BackendHiGHS:   func() backends.Solver { return highs.New() },
		BackendLPSolve: func() backends.Solver { return lpsolve.New() },
	}
}

// SolverVersions returns the version of each linked MILP solver by backend name.
func SolverVersions() map[string]string {
	return map[string]string{
		BackendHiGHS:   "HiGHS " + highs.Version(),
		BackendLPSolve: "lp_solve " + lpsolve.Version(),
	}
}
