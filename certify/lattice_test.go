package certify

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/schedopt/schedopt/backends/backendtest"
	"github.com/schedopt/schedopt/model"
)

func TestIntegerInfeasible(t *testing.T) {
	inf := math.Inf(1)
	free := func(m *model.Model, names ...string) []model.Var {
		var vs []model.Var
		for _, n := range names {
			vs = append(vs, m.AddInteger(-inf, inf, n))
		}
		return vs
	}
	row := func(vs []model.Var, c ...float64) model.Expr { return model.Expr{Vars: vs, Coefs: c} }
	for _, tc := range []struct {
		name  string
		build func() *model.Model
		want  bool
	}{
		{"gcd 2 does not divide 7", func() *model.Model {
			m := model.New("")
			v := free(m, "x", "y", "z")
			m.AddConstr(row(v, 6, 10, 14), model.EQ, 7, "g")
			return m
		}, true},
		{"6x+10y+15z=7 has integer solutions", func() *model.Model {
			m := model.New("")
			v := free(m, "x", "y", "z")
			m.AddConstr(row(v, 6, 10, 15), model.EQ, 7, "g")
			return m
		}, false},
		{"a half right-hand side", func() *model.Model {
			m := model.New("")
			v := free(m, "x", "y")
			m.AddConstr(row(v, 1, 1), model.EQ, 0.5, "h")
			return m
		}, true},
		{"congruence hidden behind a continuous column", func() *model.Model {
			m := model.New("")
			v := free(m, "x", "y")
			c := m.AddContinuous(-inf, inf, "c")
			m.AddConstr(model.Expr{Vars: []model.Var{v[0], c}, Coefs: []float64{1, 0.5}}, model.EQ, 1, "u")
			m.AddConstr(model.Expr{Vars: []model.Var{v[0], c, v[1]}, Coefs: []float64{2, 1, 4}}, model.EQ, 3, "v") // v − 2u: 4y = 1
			return m
		}, true},
		{"a fixed column moves to the right-hand side", func() *model.Model {
			m := model.New("")
			x := m.AddInteger(1, 1, "x")
			y := m.AddInteger(-inf, inf, "y")
			m.AddConstr(row([]model.Var{x, y}, 2, 4), model.EQ, 3, "f") // 4y = 1
			return m
		}, true},
		{"a system solvable only jointly", func() *model.Model {
			m := model.New("")
			v := free(m, "x", "y", "z")
			m.AddConstr(row(v, 2, 3, 0), model.EQ, 1, "a")
			m.AddConstr(row(v, 0, 3, 5), model.EQ, 2, "b")
			return m
		}, false},
		{"two rows, each solvable, together not", func() *model.Model {
			m := model.New("")
			v := free(m, "x", "y")
			m.AddConstr(row(v, 1, 1), model.EQ, 0, "a")
			m.AddConstr(row(v, 1, -1), model.EQ, 1, "b") // 2x = 1
			return m
		}, true},
		{"no integer columns: out of scope", func() *model.Model {
			m := model.New("")
			x := m.AddContinuous(0, 1, "x")
			m.AddConstr(model.Term(x, 1), model.EQ, 2, "a")
			return m
		}, false},
		{"a coefficient that is not a small dyadic fraction: out of scope", func() *model.Model {
			m := model.New("")
			v := free(m, "x", "y")
			m.AddConstr(row(v, 0.1, 0.2), model.EQ, 0.35, "d")
			return m
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proof, ok := integerInfeasible(tc.build())
			if ok != tc.want {
				t.Errorf("proved %v (%s), want %v", ok, proof, tc.want)
			}
		})
	}
}

// TestIntegerInfeasibleSound: on random bounded pure-integer models with equality
// rows, every proof of infeasibility is confirmed by enumeration over the box (the
// argument relaxes the bounds, so it may miss infeasibility, never invent it).
func TestIntegerInfeasibleSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	proved := 0
	for range 400 {
		m := model.New("")
		n := 2 + rng.IntN(3)
		var vs []model.Var
		for range n {
			vs = append(vs, m.AddInteger(-3, 3, ""))
		}
		for range 1 + rng.IntN(2) {
			var e model.Expr
			for _, v := range vs {
				if c := rng.IntN(7) - 3; c != 0 {
					e.Add(v, 2*float64(c))
				}
			}
			if e.Len() == 0 {
				continue
			}
			m.AddConstr(e, model.EQ, float64(rng.IntN(9)-4), "")
		}
		m.SetObjective(model.Minimize, model.Expr{})
		_, ok := integerInfeasible(m)
		if !ok {
			continue
		}
		proved++
		if _, _, feasible, err := backendtest.BruteForce(m); err != nil || feasible {
			t.Fatalf("proof of infeasibility for a model with an integer point (err %v)", err)
		}
	}
	if proved < 50 {
		t.Errorf("only %d of 400 models proved infeasible: the test exercises too little", proved)
	}
}

func TestDiophantineInfeasible(t *testing.T) {
	bi := func(vs ...int64) []*big.Int {
		var out []*big.Int
		for _, v := range vs {
			out = append(out, big.NewInt(v))
		}
		return out
	}
	for _, tc := range []struct {
		name string
		mat  [][]*big.Int
		rhs  []*big.Int
		want bool
	}{
		{"4x = 2", [][]*big.Int{bi(4)}, bi(2), true},
		{"4x + 6y = 2", [][]*big.Int{bi(4, 6)}, bi(2), false},
		{"0 = 1", [][]*big.Int{bi(0, 0)}, bi(1), true},
		{"x + y = 1, x − y = 0", [][]*big.Int{bi(1, 1), bi(1, -1)}, bi(1, 0), true},
		{"x + y = 2, x − y = 0", [][]*big.Int{bi(1, 1), bi(1, -1)}, bi(2, 0), false},
		{"dependent rows", [][]*big.Int{bi(2, 4), bi(1, 2)}, bi(6, 3), false},
		{"inconsistent dependent rows", [][]*big.Int{bi(2, 4), bi(1, 2)}, bi(6, 4), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, got := diophantineInfeasible(tc.mat, tc.rhs); got != tc.want {
				t.Errorf("infeasible = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestIntegerInfeasibleLeavesSemiColumnsAlone: a semi-integer column with lo = hi = 3
// is 0 or 3, not fixed at 3. x + y = 1 is feasible (x = 0, y = 1); treating x as fixed
// would leave y = -2, also feasible here, so the test uses 2y: x + 2y = 1 has x = 3,
// y = -1, while a lattice argument that dropped x = 3 as 0 would wrongly find 2y = 1.
func TestIntegerInfeasibleLeavesSemiColumnsAlone(t *testing.T) {
	m := model.New("semi")
	x := m.AddSemiInteger(3, 3, "x")
	y := m.AddInteger(-5, 5, "y")
	var e model.Expr
	e.Add(x, 1)
	e.Add(y, 2)
	m.AddConstr(e, model.EQ, 1, "r") // x = 3, y = -1 is feasible
	if proof, ok := integerInfeasible(m); ok {
		t.Errorf("claimed infeasible: %s", proof)
	}
}
