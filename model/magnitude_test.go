package model_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/schedopt/schedopt/model"
)

func TestCheckMagnitudesNamesTheFirstValueOutOfScale(t *testing.T) {
	inf := math.Inf(1)
	for _, tc := range []struct {
		name           string
		coef, cost, hi float64
		rhs            float64
		want           string // "" when the model passes
	}{
		{"ordinary values pass", 3, 2, 10, 5, ""},
		{"infinite bounds pass", 3, 2, inf, 5, ""},
		{"just below the coefficient limit passes", 0.99e15, 2, 10, 5, ""},
		{"a coefficient of 1e15", 1e15, 2, 10, 5, "row c: coefficient of x is 1e+15"},
		{"a negative coefficient", -9e15, 2, 10, 5, "coefficient of x is -9e+15"},
		{"an objective coefficient", 3, 2e18, 10, 5, "objective coefficient of x"},
		{"a finite bound at the solvers' infinity", 3, 2, 1e20, 5, "bound of x is 1e+20"},
		{"a row side beyond it", 3, 2, 10, -3e21, "row c has side -3e+21"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := model.New("scale")
			x := m.AddContinuous(0, tc.hi, "x")
			y := m.AddContinuous(0, 1, "y")
			e := model.Term(x, tc.coef)
			e.Add(y, 1)
			m.AddConstr(e, model.LE, tc.rhs, "c")
			m.SetObjective(model.Minimize, model.Term(x, tc.cost))
			err := m.CheckMagnitudes()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("got %v, want none", err)
				}
				return
			}
			if !errors.Is(err, model.ErrOutOfScale) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want ErrOutOfScale with %q", err, tc.want)
			}
		})
	}
}
