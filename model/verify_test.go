package model

import "testing"

func TestVerifyIntegralitySlack(t *testing.T) {
	// T >= 48·x with x integer: a solver may return x = 1 + 1e-7 with T = 48, which
	// violates the row by 4.8e-6 only because of the integrality tolerance.
	m := New("slack")
	x := m.AddInteger(0, 5, "x")
	T := m.AddContinuous(0, 1000, "T")
	var e Expr
	m.AddConstr(*e.Add(T, 1).Add(x, -48), GE, 0, "makespan")
	tests := []struct {
		name     string
		x, T     float64
		feasible bool
	}{
		{"integral point", 1, 48, true},
		{"x above the integer by the solver's tolerance", 1 + 1e-7, 48, true},
		{"x below the integer by the solver's tolerance", 1 - 1e-7, 48 * (1 - 1e-7), true},
		{"violation beyond the integrality slack", 1, 47.99, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := m.Verify([]float64{tc.x, tc.T})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Feasible() != tc.feasible {
				t.Errorf("Feasible() = %v, want %v (%+v)", rep.Feasible(), tc.feasible, rep)
			}
		})
	}
}
