package backendtest

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedopt/schedopt/model"
)

func TestBruteForce(t *testing.T) {
	t.Run("finds the optimum of a hand-solved model", func(t *testing.T) {
		// max 3x + 2y, x + y ≤ 3, x, y integer in [0, 2]: x = 2, y = 1 gives 8.
		m := model.New("hand")
		x := m.AddInteger(0, 2, "x")
		y := m.AddInteger(0, 2, "y")
		m.AddConstr(model.Sum(x, y), model.LE, 3, "r")
		var e model.Expr
		m.SetObjective(model.Maximize, *e.Add(x, 3).Add(y, 2))
		best, obj, ok, err := BruteForce(m)
		if err != nil || !ok || obj != 8 || best[0] != 2 || best[1] != 1 {
			t.Errorf("got %v %g %v %v, want [2 1] 8", best, obj, ok, err)
		}
	})
	t.Run("reports infeasibility", func(t *testing.T) {
		if _, _, ok, err := BruteForce(parity()); err != nil || ok {
			t.Errorf("feasible %v, err %v; want infeasible", ok, err)
		}
		if _, _, ok, err := BruteForce(coinProblem()); err != nil || ok {
			t.Errorf("feasible %v, err %v; want infeasible", ok, err)
		}
	})
	t.Run("refuses continuous and unbounded columns", func(t *testing.T) {
		m := model.New("c")
		m.AddContinuous(0, 1, "x")
		if _, _, _, err := BruteForce(m); err == nil {
			t.Error("continuous column accepted")
		}
		m = model.New("u")
		m.AddInteger(0, math.Inf(1), "x")
		if _, _, _, err := BruteForce(m); err == nil {
			t.Error("unbounded column accepted")
		}
	})
}

func TestRandomModelsAreValid(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		for _, m := range []*model.Model{RandomCase(rng), RandomMixed(rng, 1+rng.IntN(10)), MarketSplit(rng, 3)} {
			if err := m.Validate(); err != nil {
				t.Fatalf("%s: %v", m.Name, err)
			}
		}
	}
}
