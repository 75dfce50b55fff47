package bench

import (
	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/highs"
)

// solverRegistry maps the MILP backend names to their constructors.
func solverRegistry() map[string]func() backends.Solver {
	return map[string]func() backends.Solver{
		BackendHiGHS: func() backends.Solver { return highs.New() },
	}
}
