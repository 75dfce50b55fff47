package lpsolve_test

import (
	"context"
	"math"
	"testing"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/lpsolve"
	"github.com/schedopt/schedopt/model"
)

// lp_solve measures its relative MIP gap as |z−b|/(1+|z|), so below |z| = 1 it acts
// as an absolute gap; schedopt's relative gap is |z−b|/|z| (backends.RelativeGap).
// An optimum claimed at RelGap g must have a bound within g of it in schedopt's
// sense, whatever the size of the objective (stencil-small's 0.2467 J was
// reported "optimal" at a gap of 5e-6 with g = 1e-6).
func TestOptimalHoldsTheRelativeGapAtEveryObjectiveScale(t *testing.T) {
	cases := []struct {
		name        string
		coef, konst float64 // min coef·(x+y) + konst, x+y ≥ 3: optimum 3·coef + konst
		gap         float64
	}{
		{"objective 0.25", 0.25 / 3, 0, 1e-6},
		{"objective 1e-3", 1e-3 / 3, 0, 1e-6},
		{"objective 300", 100, 0, 1e-6},
		{"objective 0.05 after a constant of -0.7", 0.25, -0.7, 1e-6},
		{"objective 0.25 at gap 1e-4", 0.25 / 3, 0, 1e-4},
		{"objective 0: the optimum proven outright", 1, -3, 1e-6},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := model.New("gap")
			x := m.AddInteger(0, 5, "x")
			y := m.AddInteger(0, 5, "y")
			m.AddConstr(model.Sum(x, y), model.GE, 3, "r")
			obj := model.Term(x, c.coef)
			obj.AddExpr(model.Term(y, c.coef), 1)
			obj.AddConst(c.konst)
			m.SetObjective(model.Minimize, obj)
			res, err := lpsolve.New().Solve(context.Background(), m, backends.Options{RelGap: c.gap})
			if err != nil {
				t.Fatal(err)
			}
			want := 3*c.coef + c.konst
			if res.Status != backends.Optimal || math.Abs(res.Objective-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Fatalf("status %s objective %.12g, want optimal %.12g (%s)", res.Status, res.Objective, want, res.Message)
			}
			if res.Bound > res.Objective {
				t.Errorf("bound %.12g above the optimum %.12g of a minimisation", res.Bound, res.Objective)
			}
			if g := backends.RelativeGap(res.Objective, res.Bound); !(g <= c.gap) {
				t.Errorf("relative gap %.3g of (objective %.12g, bound %.12g) exceeds the requested %g (%s)", g, res.Objective, res.Bound, c.gap, res.Message)
			}
		})
	}
}
