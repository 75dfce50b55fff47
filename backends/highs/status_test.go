package highs

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/backendtest"
	"github.com/schedopt/schedopt/model"
)

func TestMapStatus(t *testing.T) {
	type code struct{ ms, reason int }
	backendtest.RunStatusTable(t, func(c code) backends.Status { return mapStatus(c.ms, c.reason) }, []backendtest.StatusCase[code]{
		{Name: "only Optimal is optimal", In: code{modelOptimal, 0}, Want: backends.Optimal},
		{Name: "infeasible", In: code{modelInfeasible, 0}, Want: backends.Infeasible},
		{Name: "unbounded", In: code{modelUnbounded, 0}, Want: backends.Unbounded},
		{Name: "unbounded or infeasible stays undecided", In: code{modelUnboundedOrInfeasible, 0}, Want: backends.InfeasibleOrUnbounded},
		{Name: "HiGHS time limit", In: code{modelTimeLimit, 0}, Want: backends.TimeLimit},
		{Name: "interrupt by the deadline watcher is a time limit", In: code{modelInterrupt, stopDeadline}, Want: backends.TimeLimit},
		{Name: "interrupt by the context", In: code{modelInterrupt, stopContext}, Want: backends.Interrupted},
		{Name: "solve error is numerical", In: code{modelSolveError, 0}, Want: backends.NumericalError},
		{Name: "presolve error is numerical", In: code{modelPresolveError, 0}, Want: backends.NumericalError},
		{Name: "solution limit is other", In: code{modelSolutionLimit, 0}, Want: backends.Other},
		{Name: "iteration limit is other", In: code{modelIterationLimit, 0}, Want: backends.Other},
		{Name: "objective bound is other, not optimal", In: code{modelObjectiveBound, 0}, Want: backends.Other},
		{Name: "unknown is other", In: code{modelUnknown, 0}, Want: backends.Other},
		{Name: "memory limit is other", In: code{modelMemoryLimit, 0}, Want: backends.Other},
	})
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
