package highs_test

import (
	"context"
	"testing"

	"github.com/schedopt/schedopt/backends"
	"github.com/schedopt/schedopt/backends/highs"
	"github.com/schedopt/schedopt/model"
)

// TestPrimalDualIntegral: a MIP reports HiGHS's primal-dual integral (finite, >= 0),
// an LP none.
func TestPrimalDualIntegral(t *testing.T) {
	for _, tc := range []struct {
		name string
		kind model.Kind
		want bool
	}{{"MIP", model.Integer, true}, {"LP", model.Continuous, false}} {
		t.Run(tc.name, func(t *testing.T) {
			m := model.New("pdi")
			var c, obj model.Expr
			for i, w := range []float64{4, 6, 3, 5} {
				x := m.AddVar(tc.kind, 0, 1, "")
				c.Add(x, w)
				obj.Add(x, float64(10+i))
			}
			m.AddConstr(c, model.LE, 10, "cap")
			m.SetObjective(model.Maximize, obj)
			res, err := highs.New().Solve(context.Background(), m, backends.Options{Threads: 1})
			if err != nil || res.Status != backends.Optimal {
				t.Fatalf("status %s, %v", res.Status, err)
			}
			got := res.PrimalDualIntegral
			if (got != nil) != tc.want || got != nil && !(*got >= 0) {
				t.Errorf("primal-dual integral %v, want present: %v", got, tc.want)
			}
		})
	}
}
