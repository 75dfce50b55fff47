package highs_test

import (
	"context"
	"math"
	"testing"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/highs"
	"github.com/schedopt/schedopt/model"
)

func TestKnapsack(t *testing.T) {
	// max 10a + 13b + 7c + 8d  s.t. 4a + 6b + 3c + 5d <= 10, binaries. Of the 16
	// subsets, {a,b} (weight 10, profit 23) is the best that fits; {b,c} gives 20,
	// {a,c} 17, {c,d} 15, {a,d} 18, {b,d} does not fit.
	m := model.New("knapsack")
	w := []float64{4, 6, 3, 5}
	p := []float64{10, 13, 7, 8}
	var cap, obj model.Expr
	for i := range w {
		x := m.AddBinary("")
		cap.Add(x, w[i])
		obj.Add(x, p[i])
	}
	m.AddConstr(cap, model.LE, 10, "cap")
	m.SetObjective(model.Maximize, obj)
	res, err := highs.New().Solve(context.Background(), m, backends.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != backends.Optimal || !res.HasSolution {
		t.Fatalf("status %s, has solution %v: %s", res.Status, res.HasSolution, res.Message)
	}
	if math.Abs(res.Objective-23) > 1e-9 {
		t.Errorf("objective %g, want 23", res.Objective)
	}
	rep, err := m.Verify(res.Values)
	if err != nil || !rep.Feasible() || math.Abs(rep.Objective-23) > 1e-6 {
		t.Errorf("verify: %+v %v", rep, err)
	}
	t.Logf("%+v", res)
}
