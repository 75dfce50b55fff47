package registry_test

import (
	"context"
	"testing"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/registry"
	"github.com/schedopt/schedopt/model"
)

// TestSet: a set hands out one shared instance per name; with isolate HiGHS runs in
// a worker process (it says so, certify.Isolated), without it in this process; the
// instances solve, before and not after Close.
func TestSet(t *testing.T) {
	m := model.New("k")
	x := m.AddInteger(0, 4, "x")
	m.AddConstr(model.Term(x, 2), model.LE, 7, "c")
	m.SetObjective(model.Maximize, model.Term(x, 1))
	for _, isolate := range []bool{false, true} {
		set := registry.NewSet(isolate)
		a, err := set.New(registry.HiGHS)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := set.New(registry.HiGHS)
		if a != b {
			t.Errorf("isolate %v: two instances of highs, want one shared", isolate)
		}
		child, ok := a.(interface{ SolvesInChildProcess() bool })
		if got := ok && child.SolvesInChildProcess(); got != isolate {
			t.Errorf("isolate %v: highs solves in a child process: %v", isolate, got)
		}
		res, err := a.Solve(context.Background(), m, backends.Options{})
		if err != nil || res.Status != backends.Optimal || res.Objective != 3 {
			t.Errorf("isolate %v: %s %g %v, want optimal 3", isolate, res.Status, res.Objective, err)
		}
		if _, err := set.New("nope"); err == nil {
			t.Error("unknown backend: want an error")
		}
		if err := set.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
		if _, err := a.Solve(context.Background(), m, backends.Options{}); isolate && err == nil {
			t.Error("isolated solve after Close: want an error")
		}
	}
}
