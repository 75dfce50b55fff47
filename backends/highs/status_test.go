package highs

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/model"
)

func TestMapStatus(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ms     int
		reason int
		want   backends.Status
	}{
		{"only Optimal is optimal", modelOptimal, 0, backends.Optimal},
		{"infeasible", modelInfeasible, 0, backends.Infeasible},
		{"unbounded", modelUnbounded, 0, backends.Unbounded},
		{"unbounded or infeasible stays undecided", modelUnboundedOrInfeasible, 0, backends.InfeasibleOrUnbounded},
		{"HiGHS time limit", modelTimeLimit, 0, backends.TimeLimit},
		{"interrupt by the deadline watcher is a time limit", modelInterrupt, stopDeadline, backends.TimeLimit},
		{"interrupt by the context", modelInterrupt, stopContext, backends.Interrupted},
		{"solve error is numerical", modelSolveError, 0, backends.NumericalError},
		{"presolve error is numerical", modelPresolveError, 0, backends.NumericalError},
		{"solution limit is other", modelSolutionLimit, 0, backends.Other},
		{"iteration limit is other", modelIterationLimit, 0, backends.Other},
		{"objective bound is other, not optimal", modelObjectiveBound, 0, backends.Other},
		{"unknown is other", modelUnknown, 0, backends.Other},
		{"memory limit is other", modelMemoryLimit, 0, backends.Other},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mapStatus(tc.ms, tc.reason); got != tc.want {
				t.Errorf("mapStatus(%d, %d) = %s, want %s", tc.ms, tc.reason, got, tc.want)
			}
		})
	}
}

// TestStartReachesHiGHS checks, through HiGHS's own log, that a MIP start is passed.
func TestStartReachesHiGHS(t *testing.T) {
	m := model.New("start")
	var cap, obj model.Expr
	for i, w := range []float64{12, 7, 11, 8, 9, 6, 5, 14} {
		x := m.AddBinary("")
		cap.Add(x, w)
		obj.Add(x, w+float64(i%3))
		m.SetStart(x, float64(i%2)) // weight 7+8+6+14 = 35 ≤ 40: feasible
	}
	m.AddConstr(cap, model.LE, 40, "capacity")
	m.SetObjective(model.Maximize, obj)
	var log bytes.Buffer
	res, err := New().Solve(context.Background(), m, backends.Options{Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != backends.Optimal {
		t.Fatalf("status %s", res.Status)
	}
	if !strings.Contains(log.String(), "MIP start solution is feasible") {
		t.Errorf("HiGHS log does not mention the MIP start:\n%s", log.String())
	}
}
