package flatmap

import (
	"context"
	"fmt"

	"github.com/schedopt/schedopt/backends"
	ddlt "github.com/schedopt/schedopt/domain/dlt"
	kdlt "github.com/schedopt/schedopt/kinds/dlt"
	"github.com/schedopt/schedopt/solve"
)

// CertifiedLength returns a LengthFunc that solves each LP with the named backend
// through the project's certified path: the "dlt-flat" problem of kinds/dlt, under the
// certification policy of solve.NewPolicy, with its evaluator and exact cross-check.
// Each call builds its own solver, so calls may run concurrently; each solve uses one
// thread. A status other than optimal or infeasible is an error.
func CertifiedLength(backend string) LengthFunc {
	return func(ctx context.Context, in *ddlt.FlatInstance) (float64, bool, error) {
		solver, err := solve.NewSolver(backend)
		if err != nil {
			return 0, false, err
		}
		policy, err := solve.NewPolicy(backend, false)
		if err != nil {
			return 0, false, err
		}
		req := solve.Request{Backend: backend, Solver: solver, Policy: policy, Options: backends.Options{Threads: 1}}
		p := &kdlt.FlatProblem{Inst: in}
		res, err := p.Solve(ctx, req)
		if err != nil {
			return 0, false, err
		}
		switch {
		case res.Status == "optimal" && res.Objective != nil:
			if res.Check.Exact != nil && !res.Check.Exact.Agree {
				return 0, false, fmt.Errorf("dlt-flat LP (m = %d, V = %g): the exact algorithm disagrees", len(in.Machines), in.V)
			}
			return *res.Objective, true, nil
		case res.Status == "infeasible":
			return 0, false, nil
		}
		return 0, false, fmt.Errorf("dlt-flat LP (m = %d, V = %g): status %s: %s", len(in.Machines), in.V, res.Status, res.Message)
	}
}
