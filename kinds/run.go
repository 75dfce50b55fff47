package kinds

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/certify"
	"github.com/schedopt/schedopt/solve"
)

// RunRequest says how to run one job: which backend (a MILP backend name, "exact" or
// "heuristic:NAME"), its solver (nil for exact and heuristics), the solver options and
// whether to skip the exact cross-check.
type RunRequest struct {
	Backend string
	Solver  backends.Solver
	Options backends.Options
	NoCheck bool
	// Start, when it has one value per model column, is passed to the model as a MIP
	// start (see solve.Request.Start).
	Start []float64
	// Policy is the certification policy of the backend's solves (see solve.Request).
	Policy certify.Policy
}

// Run solves p as req says. MILP backends and "exact" go through Problem.Solve;
// heuristics through HeuristicProblem.RunHeuristic. A time limit in req.Options also
// bounds exact algorithms and heuristics, through the context.
func Run(ctx context.Context, p Problem, req RunRequest) (*solve.Result, error) {
	if h, ok := strings.CutPrefix(req.Backend, solve.HeuristicPrefix); ok {
		hp, ok := p.(HeuristicProblem)
		if !ok {
			return nil, fmt.Errorf("%s: kind %s has no heuristics", p.Name(), p.Kind())
		}
		if !slices.Contains(hp.Heuristics(), h) {
			return nil, fmt.Errorf("%s: unknown heuristic %q (kind %s has %s)", p.Name(), h, p.Kind(), strings.Join(hp.Heuristics(), ", "))
		}
		ctx, cancel := withLimit(ctx, req.Options.TimeLimit)
		defer cancel()
		t0 := time.Now()
		res, err := hp.RunHeuristic(ctx, h)
		if err != nil {
			return nil, err
		}
		if res.Backend == "" {
			res.Backend = req.Backend
		}
		if res.Status == solve.StatusOptimal {
			// A heuristic proves nothing (HeuristicProblem): never let it claim a proof.
			res.Status, res.Bound, res.Gap = solve.StatusFeasible, nil, nil
		}
		if res.Seconds.Solve == 0 {
			res.Seconds.Solve = time.Since(t0).Seconds()
		}
		return res, nil
	}
	if req.Backend == solve.Exact {
		var cancel context.CancelFunc
		ctx, cancel = withLimit(ctx, req.Options.TimeLimit)
		defer cancel()
	}
	return p.Solve(ctx, solve.Request{
		Backend: req.Backend,
		Solver:  req.Solver,
		Options: req.Options,
		NoCheck: req.NoCheck,
		Start:   req.Start,
		Policy:  req.Policy,
	})
}

func withLimit(ctx context.Context, limit time.Duration) (context.Context, context.CancelFunc) {
	if limit <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, limit)
}
