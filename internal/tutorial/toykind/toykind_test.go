package toykind_test

import (
	"context"
	"errors"
	"testing"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/domain"
	"github.com/schedopt/schedopt/internal/tutorial/makespan"
	"github.com/schedopt/schedopt/internal/tutorial/toykind"
	"github.com/schedopt/schedopt/kinds"
	"github.com/schedopt/schedopt/kinds/kindtest"
	"github.com/schedopt/schedopt/solve"
)

// The toy kind end to end: loaded through a registry as kinds/builtin would hold it,
// solved on every MILP backend through the certified path, decoded and re-evaluated.
func TestToyMakespanEndToEnd(t *testing.T) {
	reg := kinds.NewRegistry(toykind.Kind())
	p, err := reg.Load([]byte(`{"kind": "toy-makespan", "machines": 2, "jobs": [3, 2, 2]}`), "three-jobs")
	if err != nil {
		t.Fatal(err)
	}
	for _, backend := range []string{"highs", "cbc", "lpsolve"} {
		t.Run(backend, func(t *testing.T) {
			res, err := p.Solve(context.Background(), solve.Request{Backend: backend, Solver: kindtest.Solver(t, backend),
				Options: backends.DefaultOptions()})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != "optimal" || kindtest.RelDiff(*res.Objective, 4) > 1e-9 || !res.Check.Evaluator.OK || res.Certificate == nil {
				t.Fatalf("%s: %+v", backend, res)
			}
			sol := res.Solution.(makespan.Solution)
			if sol.T != 4 || sol.Assignment[0] != 0 || sol.Assignment[1] != 1 || sol.Assignment[2] != 1 {
				t.Fatalf("solution %+v", sol)
			}
		})
	}
}

func TestToyMakespanBadInput(t *testing.T) {
	reg := kinds.NewRegistry(toykind.Kind())
	for in, want := range map[string]string{
		`{"kind": "toy-makespan", "machines": 0, "jobs": [1]}`:     "machines: must be >= 1, got 0",
		`{"kind": "toy-makespan", "machines": 1, "jobs": [1, -2]}`: "jobs[1]: must be finite and > 0, got -2",
		`{"kind": "toy-makespan", "machines": 1, "jobs": []}`:      "jobs: must list at least one job",
	} {
		_, err := reg.Load([]byte(in), "x")
		if !errors.Is(err, domain.ErrBadInput) || err.Error() != want {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}
