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

// TestRowDuals: an LP's result carries its row duals, as ∂objective/∂rhs. min 2x + 3y
// s.t. x + y >= 4 (dual 2: x is the cheaper way to meet it) and y >= 1 (dual 1: one
// unit of y costs 3 and saves one unit of x, 2); x <= 10 is slack (dual 0). A MIP's
// result has none.
func TestRowDuals(t *testing.T) {
	m := model.New("duals")
	x, y := m.AddContinuous(0, math.Inf(1), "x"), m.AddContinuous(0, math.Inf(1), "y")
	var e model.Expr
	m.AddConstr(*e.Add(x, 1).Add(y, 1), model.GE, 4, "sum")
	e.Reset()
	m.AddConstr(*e.Add(y, 1), model.GE, 1, "ylo")
	e.Reset()
	m.AddConstr(*e.Add(x, 1), model.LE, 10, "xhi")
	e.Reset()
	m.SetObjective(model.Minimize, *e.Add(x, 2).Add(y, 3))
	res, err := highs.New().Solve(context.Background(), m, backends.Options{})
	if err != nil || res.Status != backends.Optimal {
		t.Fatalf("status %v, err %v", res.Status, err)
	}
	want := []float64{2, 1, 0}
	if len(res.RowDuals) != len(want) {
		t.Fatalf("row duals %v, want %v", res.RowDuals, want)
	}
	for r := range want {
		if math.Abs(res.RowDuals[r]-want[r]) > 1e-9 {
			t.Errorf("row %d: dual %g, want %g", r, res.RowDuals[r], want[r])
		}
	}
	b := m.AddBinary("b")
	e.Reset()
	m.AddConstr(*e.Add(b, 1).Add(x, -1), model.LE, 0, "link")
	res, err = highs.New().Solve(context.Background(), m, backends.Options{})
	if err != nil || res.Status != backends.Optimal || res.RowDuals != nil {
		t.Fatalf("MIP: status %v, err %v, row duals %v (want none)", res.Status, err, res.RowDuals)
	}
}
