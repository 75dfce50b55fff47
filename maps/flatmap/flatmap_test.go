package flatmap

import (
	"context"
	"math"
	"testing"

	"github.com/schedopt/schedopt/maps/energy"
	"github.com/schedopt/schedopt/maps/isoline"
)

// Where memory does not bind and chapter 4 calls the configuration feasible, the LP's
// energy is the closed form's; where memory binds the LP's schedule is longer and uses
// more energy; V > m·B is infeasible without a solve.
func TestLPEnergyAgainstTheClosedForm(t *testing.T) {
	ev := Evaluator(CertifiedLength("highs"))
	ctx := context.Background()
	cases := []struct {
		name string
		edit func(p []float64)
		want string // "closed", "longer", "infeasible"
	}{
		{"memory does not bind", func(p []float64) { p[B] = 1e12 }, "closed"},
		{"m = 5, memory does not bind", func(p []float64) { p[energy.M], p[B] = 5, 1e12 }, "closed"},
		{"reference: memory binds", func(p []float64) {}, "longer"},
		{"m = 5, memory binds", func(p []float64) { p[energy.M], p[B] = 5, 2.00002e10 }, "longer"},
		{"V > m·B", func(p []float64) { p[B] = 9e8 }, "infeasible"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := Model{}.Reference()
			c.edit(p)
			got, err := ev(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			cf := energy.DLT{}.Eval(p[:B])
			switch c.want {
			case "closed":
				if !got.Feasible || energy.RelErr(got.E, cf.E) > 1e-6 || energy.RelErr(got.T, cf.T) > 1e-6 {
					t.Errorf("LP E = %g, T = %g; closed form E = %g, T = %g", got.E, got.T, cf.E, cf.T)
				}
				if mp := (Model{}).Eval(p); energy.RelErr(mp.E, got.E) > 1e-6 {
					t.Errorf("Model.Eval = %g, LP %g", mp.E, got.E)
				}
			case "longer":
				if !got.Feasible || !(got.T > cf.T*(1+1e-6)) || !(got.E > cf.E) {
					t.Errorf("LP E = %g, T = %g; closed form E = %g, T = %g: memory should bind", got.E, got.T, cf.E, cf.T)
				}
				if mp := (Model{}).Eval(p); mp.Feasible {
					t.Errorf("Model.Eval claims the closed form where memory binds: %+v", mp)
				}
			case "infeasible":
				if got.Feasible || !math.IsNaN(got.E) {
					t.Errorf("V > m·B gave %+v", got)
				}
			}
		})
	}
}

// A small grid of LPs, solved in parallel, contoured.
func TestGridOfLPs(t *testing.T) {
	m := Model{}
	base := m.Reference()
	base[energy.M] = 10
	s := isoline.Spec{Model: m, Base: base,
		X: isoline.Axis{Param: B, Lo: 9e9, Hi: 1.2e10, Log: true},
		Y: isoline.Axis{Param: energy.C, Lo: 1e-9, Hi: 1e-5, Log: true}}
	g, err := isoline.EvalGrid(context.Background(), s, Evaluator(CertifiedLength("highs")), 6, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	inf, feas := 0, 0
	for j := range g.Y {
		for i := range g.X {
			if math.IsNaN(g.E[j][i]) {
				inf++
				if g.X[i]*10 >= 1e11 {
					t.Errorf("B = %g: infeasible although m·B >= V", g.X[i])
				}
			} else {
				feas++
			}
		}
	}
	if inf == 0 || feas == 0 {
		t.Errorf("%d infeasible and %d feasible nodes; the B range straddles V/m", inf, feas)
	}
	lv := isoline.DefaultLevels(g, 3)
	if mp := isoline.Contour(g, lv, true, true); len(mp.Points) == 0 {
		t.Errorf("no contour points for levels %v", lv)
	}
}
