package kinds

import (
	"context"
	"testing"

	"github.com/schedopt/schedopt/solve"
)

// boastingHeuristic is a heuristic that wrongly claims a proof.
type boastingHeuristic struct{ Base }

func (boastingHeuristic) Formulate() (*solve.Formulated, error) { return nil, nil }
func (boastingHeuristic) Solve(context.Context, solve.Request) (*solve.Result, error) {
	return nil, nil
}
func (boastingHeuristic) Heuristics() []string { return []string{"greedy"} }
func (boastingHeuristic) RunHeuristic(context.Context, string) (*solve.Result, error) {
	one := 1.0
	return &solve.Result{Status: solve.StatusOptimal, Objective: &one, Bound: &one}, nil
}

func TestRunNeverLetsAHeuristicClaimOptimality(t *testing.T) {
	res, err := Run(context.Background(), boastingHeuristic{}, RunRequest{Backend: solve.HeuristicPrefix + "greedy"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != solve.StatusFeasible || res.Bound != nil {
		t.Errorf("status %q bound %v, want feasible without a bound", res.Status, res.Bound)
	}
}
