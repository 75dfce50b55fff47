package cbc

import (
	"context"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/model"
)

// TestChildCrashIsANumericalError: a worker that dies (as one does on a failed
// assertion in Clp) ends that solve as a NumericalError with the cause, and the
// program goes on.
func TestChildCrashIsANumericalError(t *testing.T) {
	m := model.New("crash")
	x := m.AddInteger(0, 3, "x")
	m.AddConstr(model.Term(x, 1), model.LE, 2, "c")
	m.SetObjective(model.Maximize, model.Term(x, 1))
	// The workers read it (package worker's test hook); this process does not.
	t.Setenv("SCHEDOPT_WORKER_TEST_ABORT", "1")
	res, err := New().Solve(context.Background(), m, backends.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != backends.NumericalError || res.HasSolution || !strings.Contains(res.Message, "died") {
		t.Errorf("status %s (%s), want a numerical error saying the worker died", res.Status, res.Message)
	}
	// The same model still solves.
	t.Setenv("SCHEDOPT_WORKER_TEST_ABORT", "")
	res, err = New().Solve(context.Background(), m, backends.Options{})
	if err != nil || res.Status != backends.Optimal || res.Objective != 2 {
		t.Errorf("after the crash: %s %g %v, want optimal 2", res.Status, res.Objective, err)
	}
}

// TestChildAndInProcessAgree: the request round trip rebuilds the model exactly, so a
// child solve and an in-process solve give the same answer.
func TestChildAndInProcessAgree(t *testing.T) {
	m := model.New("agree")
	var cap, obj model.Expr
	for i, w := range []float64{12, 7, 11, 8, 9, 6, 5, 14} {
		v := m.AddBinary("")
		cap.Add(v, w)
		obj.Add(v, w+float64(i%3))
	}
	y := m.AddContinuous(-1.5, 2.25, "y")
	obj.Add(y, 0.5)
	obj.AddConst(3)
	cap.Add(y, 1)
	m.AddRange(cap, -2, 40, "capacity")
	m.SetObjective(model.Maximize, obj)
	a, err := New().Solve(context.Background(), m, backends.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewInProcess().Solve(context.Background(), m, backends.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Status != backends.Optimal || b.Status != a.Status || a.Objective != b.Objective {
		t.Errorf("child %s %g, in process %s %g", a.Status, a.Objective, b.Status, b.Objective)
	}
}
